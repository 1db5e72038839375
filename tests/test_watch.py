"""``registry watch``: ``registry validate`` answered by a watcher gives exactly what a cold run gives.

The watcher runs as its own process, started as a user starts it; the command line that asks it runs in the
test's process. The listing it keeps is compared with a walk in
``test_watch_listing.py``; the incremental run it drives, with cold runs, in ``test_incremental_property.py``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry.validate import memo
from tests.conftest import RESULT_11, ROOT, inotify_works

pytestmark = [pytest.mark.skipif(not inotify_works(), reason="the watcher needs Linux's inotify, not offered here"),
              pytest.mark.sandbox]  # each test starts a watcher process and stops it (make test-fast leaves them)


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


class Running:
    """A ``registry watch`` process serving the test's records, started as a user starts it."""

    def __init__(self, records_dir: Path, named: str = "records") -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}  # run from the records' folder, where the package is not
        self.process = subprocess.Popen([sys.executable, "-m", "registry", "watch", "--records", named],
                                        cwd=records_dir.parent, env=env, stderr=subprocess.PIPE, text=True)
        self.said: list[str] = []
        while not any(line.startswith(f"watching {named}") for line in self.said):
            line = self.process.stderr.readline()  # type: ignore[union-attr]
            assert line, self.said
            self.said.append(line)

    def heard(self) -> str:
        """The next line the watcher says (one per request it answers)."""
        line = self.process.stderr.readline()  # type: ignore[union-attr]
        self.said.append(line)
        return line

    def stop(self) -> int:
        self.process.terminate()
        return self.process.wait(60)


@pytest.fixture
def watcher(records_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Running]:
    monkeypatch.chdir(records_dir.parent)
    running = Running(records_dir)
    yield running
    if running.process.poll() is None:
        running.stop()


def outputs(cli, served: Running) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """(answered by the watcher, cold) output of validate as text and as JSON, with the exit status."""
    ours = []
    for form in ([], ["--format", "json"]):
        ours.append(cli("validate", "--records", "records", *form))
        assert " validate: incremental run" in served.heard(), served.said
    cold = [cli("validate", "--records", "records", "--no-cache", *form) for form in ([], ["--format", "json"])]
    return (" ".join(f"{r.exit_code}\n{r.output}" for r in ours), " ".join(f"{r.exit_code}\n{r.output}" for r in cold))


def test_every_answer_is_the_cold_runs(cli, watcher: Running, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
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


def test_an_edit_is_read_alone(cli, watcher: Running, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    outputs(cli, watcher)
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    result.write_text(result.read_text().replace("numeric_value: '11.49'", "numeric_value: '11.5'"))
    ours, cold = outputs(cli, watcher)
    assert ours == cold and "value-mismatch" in cold
    assert any(" 1 files read," in line for line in watcher.said[-2:]), watcher.said


def test_a_request_that_fails_is_answered_and_passed_by(cli, watcher: Running, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """A malformed request is answered with why and changes nothing: the next run still goes on from the index (a
    request without a moment once made the watcher drop it and run in full from then on)."""
    from registry.watch import address, client

    path = address.socket_path(Path("records"))
    found = os.stat("records")
    folder = [found.st_dev, found.st_ino]
    refused = [({"op": "validate", "now": "not a moment", "folder": folder}, "a request without a moment"),
               ({"op": "validate", "folder": folder}, "a request without a moment"),
               ({"op": "validate", "now": "2026-01-01T00:00:00", "folder": folder}, "with its time zone"),
               ({"op": "records", "now": memo.now().isoformat()}, "without the folder's identity"),
               ({"op": "records", "now": memo.now().isoformat(), "folder": ["1", 2]}, "without the folder's identity"),
               ({"op": "drop everything"}, "unknown request 'drop everything'")]
    for request, why in refused:
        answer = client.ask(path, request)
        assert answer is not None and why in answer["error"], (request, answer)
        assert "a request was refused" in watcher.heard()
    answered = cli("validate", "--records", "records")
    assert answered.exit_code == 0 and "valid:" in answered.output
    assert " validate: incremental run, 0 files read," in watcher.heard(), watcher.said
    monkeypatch.setattr(client, "validate", lambda records, now: (None, "RuntimeError: the disk went away"))
    answered = cli("validate", "--records", "records")
    assert answered.exit_code == 0 and "valid:" in answered.output
    assert "The watcher of records could not answer (RuntimeError: the disk went away); validating without it." \
        in answered.output
    assert client.ask(address.socket_path(Path("records")), {"op": "status"}) is not None  # it still answers


def test_a_watcher_of_other_code_is_not_asked(cli, watcher: Running, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from registry.watch import address, client

    monkeypatch.setattr(memo, "code_version", lambda: "another version")
    assert client.ask(address.socket_path(Path("records")), {"op": "status"}) is None
    answered = cli("validate", "--records", "records")
    assert answered.exit_code == 0 and "valid:" in answered.output


def test_status_stop_and_a_second_watcher(cli, watcher: Running) -> None:  # type: ignore[no-untyped-def]
    status = cli("watch", "--records", "records", "--status")
    assert status.exit_code == 0 and f"process {watcher.process.pid}" in status.output
    assert "0 runs answered" in status.output
    second = cli("watch", "--records", "records")
    assert second.exit_code == 1 and "a watcher already answers for records" in second.output
    assert "registry watch --stop" in second.output
    stopped = cli("watch", "--records", "records", "--stop")
    assert stopped.exit_code == 0 and "Stopped the watcher of records" in stopped.output
    assert watcher.process.wait(60) == 0
    assert cli("watch", "--records", "records", "--status").exit_code == 3
    none = cli("watch", "--records", "records", "--stop")
    assert none.exit_code == 1 and "No watcher answers for records from here." in none.output


def test_watch_needs_a_folder(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    answered = cli("watch", "--records", tmp_path / "nothing")
    assert answered.exit_code == 1 and "the records folder given is not a folder" in answered.output


def test_stopped_by_a_signal_it_keeps_its_index(cli, watcher: Running, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """Stopped by SIGTERM, the watcher keeps its index, from which the next run without it goes on incrementally."""
    from registry.validate.incremental import run as incremental

    result = records_dir / "result" / f"{RESULT_11}.yaml"
    result.write_text(result.read_text().replace("numeric_value: '11.49'", "numeric_value: '11.5'"))
    ours, cold = outputs(cli, watcher)
    assert ours == cold and "value-mismatch" in cold
    assert watcher.stop() == 0
    again = cli("validate", "--records", "records", "--format", "json")
    assert incremental.last_run["run"] == "incremental" and incremental.last_run["read"] == 0
    fresh = cli("validate", "--records", "records", "--format", "json", "--no-cache")
    assert (again.exit_code, again.output) == (fresh.exit_code, fresh.output)


def test_db_build_is_answered_by_the_watcher_and_updates_what_a_full_build_holds(cli, watcher: Running,  # type: ignore[no-untyped-def]
                                                                                 records_dir: Path) -> None:
    """'registry db build' asks the watcher for the report and every record's digest, and reads only what changed:
    the database it updates holds what a full build holds."""
    from tests.test_db_update import snapshot

    built = cli("db", "build", "--records", "records", "--out", "kept.db")
    assert built.exit_code == 0 and "Built kept.db" in built.output  # no database yet: a full build, no request
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    result.write_text(result.read_text().replace("unit_detail: Printed as GB", "unit_detail: Printed as GB (edited)"))
    updated = cli("db", "build", "--records", "records", "--out", "kept.db")
    assert updated.exit_code == 0, updated.output
    assert "(0 added, 1 edited, 0 renamed, 0 removed)" in updated.output
    assert "validated by the watcher" in updated.output.replace("\n", " ")
    assert " validate: incremental run, 1 files read," in watcher.heard(), watcher.said
    full = cli("db", "build", "--records", "records", "--out", "full.db", "--full")
    assert full.exit_code == 0 and "a full build, not an update: --full was given" in full.output.replace("\n", " ")
    assert snapshot(records_dir.parent / "kept.db") == snapshot(records_dir.parent / "full.db")
    result.write_text(result.read_text().replace("numeric_value: '11.49'", "numeric_value: '11.5'"))
    refused = cli("db", "build", "--records", "records", "--out", "kept.db")
    assert refused.exit_code == 1 and "value-mismatch" in refused.output
    assert " validate: incremental run" in watcher.heard(), watcher.said
