"""The watcher under attack by its own user's mistakes and by hostile requests (issue 36): it answers only for the
folder it watches, bounds what it reads, never waits for ever, and a client never believes an answer it should not.
Each mode is reproduced; the answer is the cold run's (or none is given), and the refusal is said."""

from __future__ import annotations

import mmap
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from registry.validate import memo
from registry.watch import address, client
from tests.conftest import RESULT_11, ROOT, copy_of_records, inotify_works
from tests.test_watch import Running

pytestmark = [pytest.mark.skipif(not inotify_works(), reason="the watcher needs Linux's inotify, not offered here"),
              pytest.mark.sandbox]


@pytest.fixture(autouse=True)
def own_places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)


def broken_copy(records: Path) -> Path:
    """A copy of the bundled records with one value a cold run reports (``value-mismatch``)."""
    records.parent.mkdir(parents=True, exist_ok=True)
    copy_of_records(records)
    result = records / "result" / f"{RESULT_11}.yaml"
    result.write_text(result.read_text().replace("numeric_value: '11.49'", "numeric_value: '11.5'"))
    return records


def cold(cli, named: str = "records") -> str:  # type: ignore[no-untyped-def]
    answered = cli("validate", "--records", named, "--no-cache")
    return f"{answered.exit_code}\n{answered.output}"


def raw(path: Path, data: bytes) -> dict | None:  # type: ignore[type-arg]
    """What the watcher at ``path`` answers to ``data`` sent as it is (written from a thread: the watcher may stop
    reading before the end of it)."""
    with address.reached(path) as name:
        connection = socket.socket(socket.AF_UNIX)
        connection.connect(name)
    connection.settimeout(60)

    def write() -> None:
        try:
            connection.sendall(data)
        except OSError:
            pass  # it stopped reading: what it answers says why

    writer = threading.Thread(target=write)
    writer.start()
    try:
        return address.receive(connection)
    finally:
        writer.join()
        connection.close()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder holding the bundled records, the commands run from it."""
    folder = tmp_path / "proj"
    folder.mkdir()
    copy_of_records(folder / "records")
    monkeypatch.chdir(folder)
    return folder


@pytest.mark.parametrize("how", ["moved away", "removed"])
@pytest.mark.parametrize("named", ["relative", "absolute"])
def test_a_project_made_again_at_its_path_is_not_answered_for(cli, project: Path, how: str, named: str,  # type: ignore[no-untyped-def]
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``mv proj proj.old`` (or ``rm -rf proj``) and a new ``proj`` made at its path (as ``git clone`` makes it):
    the watcher once answered for the new folder with the old one's report ('valid'; or, its working folder gone,
    '0 records in 0 files'). It now sees that the path leads elsewhere, says so and stops."""
    records = str(project / "records") if named == "absolute" else "records"
    watcher = Running(project / "records", records)
    try:
        if how == "moved away":
            project.rename(project.with_name("proj.old"))
        else:
            shutil.rmtree(project)
        broken_copy(project / "records")
        monkeypatch.chdir(project)
        answered = cli("validate", "--records", records)
        assert f"{answered.exit_code}\n{answered.output}".endswith(cold(cli, records).split("\n", 1)[1])
        assert answered.exit_code == 1 and "value-mismatch" in answered.output
        said = " ".join(answered.output.split())
        assert f"The watcher of {records} could not answer" in said
        assert "is no longer the folder it watches" in said or "is no longer at" in said
        assert "the watcher stops); validating without it." in said
        assert watcher.process.wait(60) == 0
    finally:
        if watcher.process.poll() is None:
            watcher.stop()


def test_a_file_system_mounted_under_the_records_is_not_answered_for(cli, project: Path) -> None:  # type: ignore[no-untyped-def]
    """A folder mounted over ``records/result`` while the watcher runs (root): the watcher once answered from the
    folder the mount covered; it now says a file system was mounted there, and stops."""
    watcher = Running(project / "records")
    covered = project / "records" / "result"
    mounted = subprocess.run(["mount", "-t", "tmpfs", "registry-test", str(covered)], capture_output=True,
                             text=True, check=False)
    try:
        if mounted.returncode:
            pytest.skip(f"no file system can be mounted here ({mounted.stderr.strip()}): mounting needs root")
        answered = cli("validate", "--records", "records")
        assert f"{answered.exit_code}\n{answered.output}".endswith(cold(cli).split("\n", 1)[1])
        assert "a file system was mounted or unmounted at or under" in " ".join(answered.output.split())
        assert watcher.process.wait(60) == 0
    finally:
        if mounted.returncode == 0:
            subprocess.run(["umount", str(covered)], check=False)
        if watcher.process.poll() is None:
            watcher.stop()


@pytest.fixture
def watcher(records_dir: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.chdir(records_dir.parent)
    running = Running(records_dir)
    yield running
    if running.process.poll() is None:
        running.stop()


def test_requests_are_bounded_and_a_refused_one_changes_nothing(cli, watcher: Running) -> None:  # type: ignore[no-untyped-def]
    """A line of 200 KiB (once read whole: 600 MiB at 200 MiB), 60,000 nested brackets (once a RecursionError that
    ended the watcher), attached bytes: each refused with why; the next request is answered from the index."""
    path = address.socket_path(Path("records"))
    cases = [(b'{"op": "status", "pad": "' + b"x" * (200 << 10) + b'"}\n', "a request longer than 65,536 bytes"),
             (b"[" * 60_000 + b"\n", "a request nested deeper than 4"),
             (b'{"op": "status", "protocol": 3, "attached": [4]}\nabcd', "a request with attached bytes"),
             (b"not json\n", "not JSON"),
             (b"[1, 2]\n", "not a JSON object")]
    for data, why in cases:
        answer = raw(path, data)
        assert answer is not None and why in answer["error"], (why, answer)
        assert "a request was refused" in watcher.heard()
    answered = cli("validate", "--records", "records")
    assert answered.exit_code == 0 and " validate: incremental run, 0 files read," in watcher.heard()
    assert watcher.process.poll() is None


def test_a_silent_client_holds_no_one_else(cli, watcher: Running) -> None:  # type: ignore[no-untyped-def]
    """One connection that sends a byte and then nothing once held every 'registry validate' of the folder: each
    connection is now answered in a thread of its own, and a silent one is cut off after ``IO_TIMEOUT_S``."""
    with address.reached(address.socket_path(Path("records"))) as name:
        idle = socket.socket(socket.AF_UNIX)
        idle.connect(name)
    try:
        idle.sendall(b"{")
        answered = cli("validate", "--records", "records")
        assert answered.exit_code == 0 and "valid:" in answered.output
        assert " validate: incremental run" in watcher.heard()
        idle.settimeout(60)
        cut = address.receive(idle)
        assert cut is not None and "no whole request within 10 s" in cut["error"]
    finally:
        idle.close()


def test_a_stopped_watcher_is_not_waited_for(cli, watcher: Running, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """A watcher that stopped (SIGSTOP, or hung) once made 'registry validate' wait for ever: the client now gives
    up after ``IO_TIMEOUT_S`` without a byte, and validates itself."""
    monkeypatch.setattr(client, "IO_TIMEOUT_S", 0.5)
    os.kill(watcher.process.pid, signal.SIGSTOP)
    try:
        answered = cli("validate", "--records", "records")
        assert f"{answered.exit_code}\n{answered.output}" == cold(cli)
    finally:
        os.kill(watcher.process.pid, signal.SIGCONT)


def test_two_watchers_started_at_once(cli, records_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """Two watchers of one folder started together once both ran, racing for the socket: one now holds the
    folder's lock, the other is refused; --stop waits for the one that runs to end."""
    monkeypatch.chdir(records_dir.parent)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = [subprocess.Popen([sys.executable, "-m", "registry", "watch", "--records", "records"],
                                cwd=records_dir.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True) for _ in range(2)]
    try:
        deadline = time.monotonic() + 120
        while all(process.poll() is None for process in started) and time.monotonic() < deadline:
            time.sleep(0.1)
        [loser] = [process for process in started if process.poll() is not None]
        [winner] = [process for process in started if process is not loser]
        out, err = loser.communicate()
        assert loser.returncode == 1 and "a watcher already answers for records" in " ".join((out + err).split())
        while "watching records" not in (winner.stderr.readline() or "watching records"):  # type: ignore[union-attr]
            pass
        stopped = cli("watch", "--records", "records", "--stop")
        assert stopped.exit_code == 0 and f"Stopped the watcher of records (process {winner.pid})." in stopped.output
        assert cli("watch", "--records", "records", "--status").exit_code == 3
        assert winner.wait(60) == 0
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
                process.wait()


def test_a_folder_at_the_sockets_path(cli, records_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """A folder where the socket goes once gave an unexpected IsADirectoryError: the watcher now refuses with what
    to do, and validate runs as without a watcher."""
    monkeypatch.chdir(records_dir.parent)
    address.private_folder()
    path = address.socket_path(Path("records"))
    path.mkdir()
    refused = cli("watch", "--records", "records")
    assert refused.exit_code == 1 and f"{path} is not a socket: remove it" in " ".join(refused.output.split())
    answered = cli("validate", "--records", "records")
    assert f"{answered.exit_code}\n{answered.output}" == cold(cli)


def test_a_write_stat_cannot_see_is_found_by_verify(cli, watcher: Running, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A hard link made from outside the records folder after the watcher started, written through: no event
    reaches the watcher (documented in 'validate --help'); --verify reads every file, asks no watcher, and gives
    the cold run's report."""
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    outside = tmp_path / "outside.yaml"
    os.link(result, outside)
    with open(outside, "r+b") as file:
        text = file.read()
        file.seek(0)
        file.write(text.replace(b"numeric_value: '11.49'", b"numeric_value: '11.50'"))
    verified = cli("validate", "--records", "records", "--verify")
    assert f"{verified.exit_code}\n{verified.output}" == cold(cli) and verified.exit_code == 1
    assert "value-mismatch" in verified.output
    helped = cli("validate", "--help")
    said = " ".join(helped.output.split())
    assert "shared memory map" in said and "hard link" in said and "--verify" in said


def test_a_second_write_through_a_memory_map_is_found_by_verify(cli, records_dir: Path,  # type: ignore[no-untyped-def]
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A second write through a shared memory map leaves the file's size and times as they were: the kept report
    and the index cannot see it; --verify does, and gives the cold run's report."""
    monkeypatch.chdir(records_dir.parent)
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    with open(result, "r+b") as file, mmap.mmap(file.fileno(), 0) as mapped:
        mapped[0:1] = mapped[0:1]  # the first write: the page made writable, the times set
        time.sleep(memo.RACY_NS / 1e9 + 0.5)
        assert cli("validate", "--records", "records").exit_code == 0  # kept: the report and the index
        before = os.stat(result)
        at = mapped.find(b"numeric_value: '11.49'")
        mapped[at:at + 22] = b"numeric_value: '11.40'"  # the second write: no fault, no new time
        after = os.stat(result)
        plain = cli("validate", "--records", "records")
        verified = cli("validate", "--records", "records", "--verify")
        fresh = cli("validate", "--records", "records", "--no-cache")
    assert (verified.exit_code, verified.output) == (fresh.exit_code, fresh.output) and fresh.exit_code == 1
    unseen = (before.st_size, before.st_mtime_ns, before.st_ctime_ns) == (after.st_size, after.st_mtime_ns,
                                                                          after.st_ctime_ns)
    assert (plain.exit_code, plain.output) == (fresh.exit_code, fresh.output) or unseen  # stale only where stat is blind


def test_a_fifo_where_an_entry_is_kept_does_not_block(cli, records_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """The kept report and the index replaced by FIFOs once blocked 'registry validate' for ever: they are now
    refused as not regular files, without waiting, and the run is the cold run's."""
    monkeypatch.chdir(records_dir.parent)
    assert cli("validate", "--records", "records").exit_code == 0
    for folder, suffix in (("reports", ".json"), ("incremental", ".msgpack")):
        kept = memo.entry_path(Path("records"), folder, suffix)
        kept.unlink(missing_ok=True)  # (the report is kept only once the files are two seconds old)
        os.mkfifo(kept)
    done: list[object] = []
    runner = threading.Thread(target=lambda: done.append(cli("validate", "--records", "records")), daemon=True)
    runner.start()
    runner.join(120)
    assert done, "validate blocked on a FIFO"
    answered = done[0]
    assert f"{answered.exit_code}\n{answered.output}" == cold(cli)  # type: ignore[attr-defined]
