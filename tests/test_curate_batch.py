"""Batch writes are all or nothing: a failure or a SIGKILL part-way leaves the registry as it was (after recovery)."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from registry.errors import RegistryError
from registry.store import batch
from registry.store.batch import STAGING, Write, batch_lock, pending, recover, write_batch
from registry.validate.runner import validate
from tests.conftest import FIXTURE_SOURCE as SOURCE
from tests.conftest import FIXTURE_TABLE as TABLE
from tests.conftest import ROOT


def records_tree(root: Path) -> dict[str, str]:
    """The record files (what the loader reads), by path, with their SHA-256."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*.yaml"))
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)}


def every_file(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


#: Runs 'registry import' in a child process that stops (waiting to be killed) at the n-th call of one step of
#: the batch writer, after saying so on stdout.
KILLABLE = """
import sys, time
from registry.store import batch
step, stop_at = sys.argv[1], int(sys.argv[2])
real = getattr(batch, step)
calls = []
def paused(*args, **kwargs):
    calls.append(1)
    if len(calls) == stop_at:
        print("stopped", flush=True)
        time.sleep(600)
    return real(*args, **kwargs)
setattr(batch, step, paused)
from registry.cli import main
sys.argv = ["registry", *sys.argv[3:]]
main()
"""


def import_until_killed(records: Path, step: str, stop_at: int) -> None:
    """Start an import, wait until it reaches ``step`` for the ``stop_at``-th time, and SIGKILL it there."""
    child = subprocess.Popen(
        [sys.executable, "-c", KILLABLE, step, str(stop_at), "import", str(TABLE), "--source", SOURCE, "--records",
         str(records)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.strip() == "stopped", (line, child.stderr.read() if child.stderr else "")
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(timeout=30) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.mark.sandbox
def test_a_kill_while_staging_leaves_the_registry_as_it_was(demo: Path, cli) -> None:  # type: ignore[no-untyped-def]
    before = records_tree(demo)
    import_until_killed(demo, "_write_staged", 10)
    assert (demo / STAGING).is_dir(), "the kill left the staging folder"
    assert records_tree(demo) == before
    checked = cli("validate", "--records", demo)
    assert checked.exit_code == 0, "nothing was put in place, so nothing is wrong"
    assert "leftover-batch" in checked.output and "killed while it staged its files" in checked.output, \
        "but the staging folder left behind is named"
    assert cli("recover", "--records", demo).exit_code == 0 and not (demo / STAGING).exists()


@pytest.mark.sandbox
def test_a_kill_while_placing_is_reported_and_undone(demo: Path, cli) -> None:  # type: ignore[no-untyped-def]
    before = records_tree(demo)
    files_before = every_file(demo)
    import_until_killed(demo, "_link_new", 6)  # 5 of the 34 files are in place
    partial = records_tree(demo)
    assert len(partial) == len(before) + 5, "the kill came part-way through putting files in place"
    checked = cli("validate", "--records", demo)
    assert checked.exit_code == 1
    assert "interrupted-batch" in checked.output and "34 record file(s) was interrupted with 5 of them in place" in \
        checked.output and "registry recover" in checked.output
    assert cli("db", "build", "--records", demo, "--out", demo.parent / "x.db").exit_code == 1, \
        "no database is built from half a batch"
    recovered = cli("recover", "--records", demo)
    assert recovered.exit_code == 0, recovered.output
    assert "5 file(s) removed or restored" in recovered.output
    assert records_tree(demo) == before and every_file(demo) == files_before
    assert cli("validate", "--records", demo).exit_code == 0


@pytest.mark.sandbox
def test_the_next_import_undoes_a_killed_one_then_writes_its_own(demo: Path, cli) -> None:  # type: ignore[no-untyped-def]
    import_until_killed(demo, "_link_new", 20)
    result = cli("import", TABLE, "--source", SOURCE, "--records", demo)
    assert result.exit_code == 0, result.output
    assert "Undid an interrupted batch write" in result.output and "34 new" in result.output
    registry, report = validate(demo)
    assert report.valid and len(registry.records) == 35
    assert not (demo / STAGING).exists()


def test_a_failure_part_way_undoes_what_was_placed(demo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = records_tree(demo)
    real = batch._link_new
    calls: list[Path] = []

    def failing(source: Path, target: Path) -> None:
        calls.append(target)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real(source, target)

    monkeypatch.setattr(batch, "_link_new", failing)
    writes = [Write(demo / "family" / f"fixture-genomic-20261201-family-f{n}.yaml",
                    f"kind: family\nid: fixture-genomic-20261201-family-f{n}\nname: F{n}\n") for n in range(5)]
    with pytest.raises(OSError, match="No space left"):
        write_batch(demo, writes)
    assert records_tree(demo) == before and not (demo / STAGING).exists()


def test_replaced_files_get_their_old_text_back(demo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = []
    for n in range(3):
        path = demo / "family" / f"fixture-genomic-20261201-family-f{n}.yaml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"kind: family\nid: fixture-genomic-20261201-family-f{n}\nname: F{n}\n")
        paths.append(path)
    before = records_tree(demo)
    real = os.replace
    calls = []

    def failing(source: object, target: object) -> None:
        calls.append(target)
        if len(calls) == 3:
            raise OSError(5, "Input/output error")
        real(source, target)  # type: ignore[arg-type]

    writes = [Write(p, p.read_text() + "# reformatted\n", replaces=batch.sha256(p.read_text())) for p in paths]
    monkeypatch.setattr(batch.os, "replace", failing)
    with pytest.raises(OSError, match="Input/output"):
        write_batch(demo, writes)
    monkeypatch.setattr(batch.os, "replace", real)
    assert records_tree(demo) == before


def test_recovery_leaves_alone_a_file_changed_after_the_batch_wrote_it(demo: Path) -> None:
    staged = demo / STAGING
    staged.mkdir()
    mine = demo / "family" / "fixture-genomic-20261201-family-mine.yaml"
    mine.parent.mkdir()
    text = "kind: family\nid: fixture-genomic-20261201-family-mine\nname: Mine\n"
    mine.write_text(text + "# edited by someone since\n")
    (staged / "journal.json").write_text(json.dumps({"version": 1, "started_at": "then", "files": [
        {"target": "family/fixture-genomic-20261201-family-mine.yaml", "staged": "000000.yaml",
         "sha256": batch.sha256(text), "old": None}]}))
    recovery = recover(demo)
    assert recovery is not None and recovery.undone == [] and recovery.kept == [mine]
    assert mine.read_text().endswith("# edited by someone since\n") and not staged.exists()


def test_one_batch_at_a_time(demo: Path) -> None:
    write = Write(demo / "family" / "fixture-genomic-20261201-family-x.yaml",
                  "kind: family\nid: fixture-genomic-20261201-family-x\nname: X\n")
    with batch_lock(demo):
        with pytest.raises(RegistryError, match="another run is writing a batch"):
            write_batch(demo, [write])
    assert write_batch(demo, [write]).paths == [write.path]


def test_a_batch_never_writes_over_a_record(demo: Path) -> None:
    path = demo / "source" / f"{SOURCE}.yaml"
    before = path.read_bytes()
    with pytest.raises(RegistryError, match="already exists; records are never overwritten, so nothing was written"):
        write_batch(demo, [Write(demo / "family" / "fixture-genomic-20261201-family-y.yaml", "kind: family\n"),
                           Write(path, "kind: source\n")])
    assert path.read_bytes() == before and not (demo / "family").exists()


def test_a_running_batch_is_not_reported_as_interrupted_until_it_places_files(demo: Path) -> None:
    with batch_lock(demo):
        (demo / STAGING).mkdir()
        found = pending(demo)
        assert found is not None and found.in_place == 0 and found.running
