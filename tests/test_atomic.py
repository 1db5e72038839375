"""Atomic writes: a kill leaves no debris a later run keeps, and a file put at the target meanwhile is never lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from registry.store import atomic
from registry.store.atomic import TEMP_SUFFIX, install, remove_stale_temporaries, temporary_beside, write_atomic
from tests.conftest import ROOT


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(TEMP_SUFFIX))


def kill_while_writing(target: Path, seconds: float = 30) -> subprocess.Popen[bytes]:
    """A process that made a temporary file beside ``target``, holds it, and waits to be killed."""
    script = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        from registry.store.atomic import temporary_beside
        with temporary_beside(Path({str(target)!r})) as tmp:
            tmp.write_text("half a file")
            print("ready", flush=True)
            time.sleep({seconds})
    """)
    process = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE)
    assert process.stdout is not None and process.stdout.readline().strip() == b"ready"
    return process


@pytest.mark.sandbox
def test_a_killed_writers_temporary_is_removed_by_the_next_write(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "records" / "x.yaml"
    target.parent.mkdir()
    process = kill_while_writing(target)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    [left] = temporaries(target.parent)
    assert left.startswith(".x.yaml.")
    write_atomic(target.parent / "y.yaml", "kind: family\n")
    assert temporaries(target.parent) == [left], "a minute's grace: it could be a run that just made it"
    monkeypatch.setattr(atomic, "STALE_AFTER_S", 0.0)
    write_atomic(target.parent / "z.yaml", "kind: family\n")
    assert temporaries(target.parent) == []
    assert sorted(p.name for p in target.parent.iterdir()) == ["y.yaml", "z.yaml"]


@pytest.mark.sandbox
def test_a_running_writers_temporary_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(atomic, "STALE_AFTER_S", 0.0)
    process = kill_while_writing(tmp_path / "registry.db")
    try:
        [held] = temporaries(tmp_path)
        assert remove_stale_temporaries(tmp_path) == []
        assert temporaries(tmp_path) == [held]
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    assert remove_stale_temporaries(tmp_path) == [tmp_path / held]


def test_only_our_temporaries_are_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(atomic, "STALE_AFTER_S", 0.0)
    for name in (".notes.yaml.abc.tmp", "draft.registry.tmp", ".x.yaml.part"):
        (tmp_path / name).write_text("someone else's")
    (tmp_path / f".link{TEMP_SUFFIX}").symlink_to(tmp_path / "draft.registry.tmp")
    assert remove_stale_temporaries(tmp_path) == []
    assert len(list(tmp_path.iterdir())) == 4


def test_a_temporary_is_removed_when_its_block_ends(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), temporary_beside(tmp_path / "a.db") as tmp:
        tmp.write_text("partial")
        raise RuntimeError("failed part-way")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("swap", [True, False], ids=["renameat2", "look-then-rename"])
def test_install_keeps_a_file_that_may_not_be_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       swap: bool) -> None:
    if not swap:
        monkeypatch.setattr(atomic, "_renameat2", lambda *args: False)
    target = tmp_path / "registry.db"
    target.write_text("a README someone put here")
    with temporary_beside(target) as tmp:
        tmp.write_text("the new database")
        with pytest.raises(atomic.TargetChangedError):
            install(tmp, target, replaceable=lambda path: path.read_text().startswith("an old database"))
    assert target.read_text() == "a README someone put here"
    target.write_text("an old database")
    with temporary_beside(target) as tmp:
        tmp.write_text("the new database")
        install(tmp, target, replaceable=lambda path: path.read_text().startswith("an old database"))
    assert target.read_text() == "the new database"
    assert list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize("step", ["_populate", "_update"])
def test_a_file_put_at_out_while_the_build_runs_is_kept(records_dir: Path, tmp_path: Path, cli,  # type: ignore[no-untyped-def]
                                                         monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    """A full build (``_populate``) and an update of the database it built (``_update``) alike."""
    from registry.db import build

    out = tmp_path / "registry.db"
    assert cli("db", "build", "--records", records_dir, "--out", out).exit_code == 0
    real = getattr(build, step)

    def then_someone_writes(*args):  # type: ignore[no-untyped-def]
        written = real(*args)
        out.unlink()
        out.write_text("# Notes\nwritten while the build ran\n")
        return written

    monkeypatch.setattr(build, step, then_someone_writes)
    if step == "_update":  # a change to update
        family = sorted((records_dir / "family").glob("*.yaml"))[0]
        family.write_text(family.read_text().replace("name: ", "name: Renamed ", 1))
    result = cli("db", "build", "--records", records_dir, "--out", out, *(["--full"] if step == "_populate" else []))
    assert result.exit_code == 1
    assert "was written while the build ran and is not a database that 'registry db build' wrote; it was left " \
           "untouched" in result.output
    assert out.read_text() == "# Notes\nwritten while the build ran\n"
    assert temporaries(tmp_path) == []


@pytest.mark.slow
def test_a_killed_builds_temporary_is_removed_by_the_next_build(records_dir: Path, tmp_path: Path, cli,  # type: ignore[no-untyped-def]
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "registry.db"
    script = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from registry.validate.runner import validate
        from registry.db import build
        real = build.insert_rows
        def insert_then_die(connection, table, rows):
            real(connection, table, rows)
            os.kill(os.getpid(), signal.SIGKILL)
        build.insert_rows = insert_then_die
        registry, _ = validate({str(records_dir)!r})
        build.build_sqlite(registry, Path({str(out)!r}))
    """)
    for _ in range(3):
        process = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, timeout=120)
        assert process.returncode == -9, process.stderr
    assert len(temporaries(tmp_path)) == 3 and not out.exists()
    monkeypatch.setattr(atomic, "STALE_AFTER_S", 0.0)
    time.sleep(0.01)
    assert cli("db", "build", "--records", records_dir, "--out", out).exit_code == 0
    assert temporaries(tmp_path) == [] and out.is_file()
