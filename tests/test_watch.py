"""``registry watch``: ``registry validate`` answered by a watcher gives exactly what a cold run gives.

The watcher serves from a thread of the test process (the command line runs in-process too); one test starts it
as its own process, as a user does, and stops it with a signal. The listing it keeps is compared with a walk in
``test_watch_listing.py``; the incremental run it drives, with cold runs, in ``test_incremental_property.py``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry.validate import memo
from tests.conftest import RESULT_11, ROOT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the watcher needs Linux's inotify")


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


@pytest.fixture
def watcher(records_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    from registry.watch.server import Watcher

    monkeypatch.chdir(records_dir.parent)
    said: list[str] = []
    serving = Watcher(Path("records"), said.append)
    serving.said = said  # type: ignore[attr-defined]
    thread = threading.Thread(target=serving.serve, daemon=True)
    thread.start()
    yield serving
    serving.stopping = True
    thread.join(10)


def outputs(cli, served: object) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """(answered by the watcher, cold) output of validate as JSON and as text, with the exit status."""
    before = served.served  # type: ignore[attr-defined]
    ours = [cli("validate", "--records", "records", *form) for form in ([], ["--format", "json"])]
    assert served.served == before + 2, served.said  # type: ignore[attr-defined]
    cold = [cli("validate", "--records", "records", "--no-cache", *form) for form in ([], ["--format", "json"])]
    return (" ".join(f"{r.exit_code}\n{r.output}" for r in ours), " ".join(f"{r.exit_code}\n{r.output}" for r in cold))


def test_every_answer_is_the_cold_runs(cli, watcher: object, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    ours, cold = outputs(cli, watcher)
    assert ours == cold and "valid" in cold
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    text = result.read_text()
    steps = [
        lambda: result.write_text(text.replace("numeric_value: '11.49'", "numeric_value: '11.5'")),
        lambda: result.write_text(text),
        lambda: (records_dir / "family" / "broken.yaml").write_text("kind: family\nid: [unclosed\n"),
        lambda: (records_dir / "family" / "broken.yaml").unlink(),
        lambda: result.rename(result.with_name("renamed.yaml")),
        lambda: result.with_name("renamed.yaml").rename(result),
        lambda: (records_dir / "result" / "nested").mkdir(),
        lambda: shutil.copy(result, records_dir / "result" / "nested" / "copy.yaml"),  # the same id twice
        lambda: (records_dir / "result" / "nested").rename(records_dir / "moved"),
        lambda: shutil.rmtree(records_dir / "moved"),
        lambda: result.unlink(),  # its referrers now name nothing
        lambda: result.write_text(text),
    ]
    for step in steps:
        step()
        ours, cold = outputs(cli, watcher)
        assert ours == cold
    assert "value-mismatch" not in cold


def test_an_edit_is_read_alone(cli, watcher: object, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    outputs(cli, watcher)
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    result.write_text(result.read_text().replace("numeric_value: '11.49'", "numeric_value: '11.5'"))
    ours, cold = outputs(cli, watcher)
    assert ours == cold and "value-mismatch" in cold
    assert any(" 1 files read," in line for line in watcher.said[-2:]), watcher.said  # type: ignore[attr-defined]


def test_a_watcher_that_fails_is_passed_by(cli, watcher: object, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    def broken(now):  # type: ignore[no-untyped-def]
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(watcher, "validate", broken)
    answered = cli("validate", "--records", "records")
    assert answered.exit_code == 0 and "valid:" in answered.output
    assert "The watcher of records could not answer (RuntimeError: the disk went away); validating without it." \
        in answered.output


def test_a_watcher_of_other_code_is_not_asked(cli, watcher: object, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(memo, "code_version", lambda: "another version")
    before = watcher.served  # type: ignore[attr-defined]
    answered = cli("validate", "--records", "records")
    assert answered.exit_code == 0 and watcher.served == before  # type: ignore[attr-defined]


def test_status_stop_and_a_second_watcher(cli, watcher: object) -> None:  # type: ignore[no-untyped-def]
    status = cli("watch", "--records", "records", "--status")
    assert status.exit_code == 0 and f"process {os.getpid()}" in status.output and "runs answered" in status.output
    second = cli("watch", "--records", "records")
    assert second.exit_code == 1 and "a watcher already answers for records" in second.output
    assert "registry watch --stop" in second.output
    stopped = cli("watch", "--records", "records", "--stop")
    assert stopped.exit_code == 0 and "Stopped the watcher of records" in stopped.output
    for _ in range(100):
        if not watcher.path.exists():  # type: ignore[attr-defined]
            break
        time.sleep(0.05)
    assert cli("watch", "--records", "records", "--status").exit_code == 3
    none = cli("watch", "--records", "records", "--stop")
    assert none.exit_code == 1 and "No watcher answers for records from here." in none.output


def test_watch_needs_a_folder(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    answered = cli("watch", "--records", tmp_path / "nothing")
    assert answered.exit_code == 1 and "the records folder given is not a folder" in answered.output


@pytest.mark.slow
def test_the_watcher_as_a_process_of_its_own(records_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Started as a user starts it, stopped by a signal: it keeps its index, from which the next run without it
    goes on incrementally."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "PYTHONPATH": str(ROOT)}  # run from the records' folder, where the package is not
    command = [sys.executable, "-m", "registry"]
    process = subprocess.Popen([*command, "watch", "--records", "records"], cwd=records_dir.parent, env=env,
                               stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        while not any(line.startswith("watching records") for line in lines):
            line = process.stderr.readline()  # type: ignore[union-attr]
            assert line, lines
            lines.append(line)
        result = records_dir / "result" / f"{RESULT_11}.yaml"
        result.write_text(result.read_text().replace("numeric_value: '11.49'", "numeric_value: '11.5'"))
        ours = subprocess.run([*command, "validate", "--records", "records", "--format", "json"],
                              cwd=records_dir.parent, env=env, capture_output=True, text=True, check=False)
        assert "validate: incremental run, 1 files read" in process.stderr.readline()  # type: ignore[union-attr]
        cold = subprocess.run([*command, "validate", "--records", "records", "--format", "json", "--no-cache"],
                              cwd=records_dir.parent, env=env, capture_output=True, text=True, check=False)
        assert (ours.returncode, ours.stdout) == (cold.returncode, cold.stdout) and "value-mismatch" in cold.stdout
    finally:
        process.terminate()
        process.wait(60)
    assert process.returncode == 0
    monkeypatch.chdir(records_dir.parent)
    from registry.validate.incremental_index import recall

    assert recall(Path("records")) is not None  # kept on the way out
