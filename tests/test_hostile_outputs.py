"""Issue 28, items 6, 7 and 8: the output path of 'site build', 'export' and 'db build' (registry/store/outputs.py).

--out inside the records folder is refused, a symbolic link, FIFO or device gets a message, leftovers of
killed runs are removed by the next run (never a live run's), and SIGTERM or SIGINT stops the page
writers with no traceback.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from registry.store.outputs import remove_leftovers
from tests.conftest import ROOT

#: The three commands that write an output path, each with the arguments before --out.
WRITERS = {
    "site": ["site", "build"],
    "export": ["export", "--format", "every-eval-ever"],
    "db": ["db", "build", "--no-cache"],
}


def tree(root: Path) -> dict[str, str]:
    """Every entry under ``root`` (links as their target, files as their SHA-256)."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            found[str(path)] = "-> " + os.readlink(path)
        elif path.is_file():
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            found[str(path)] = "folder" if path.is_dir() else "other"
    return found


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("inside", ["site", "result/out"])
def test_out_inside_the_records_folder_is_refused(cli, records_dir: Path, tmp_path: Path, writer: str,  # type: ignore[no-untyped-def]
                                                  inside: str) -> None:
    before = tree(tmp_path)
    result = cli(*WRITERS[writer], "--records", records_dir, "--out", records_dir / inside)
    assert result.exit_code == 1, result.output
    assert "is inside the records folder" in result.output and "nothing was written" in result.output
    assert "unexpected" not in result.output
    assert tree(tmp_path) == before
    assert cli("validate", "--records", records_dir).exit_code == 0


@pytest.mark.parametrize("writer", ["site", "export"])  # db build's --out is a file: a folder is refused anyway
def test_out_holding_the_records_folder_is_refused(cli, records_dir: Path, tmp_path: Path, writer: str) -> None:  # type: ignore[no-untyped-def]
    before = tree(tmp_path)
    result = cli(*WRITERS[writer], "--records", records_dir, "--out", tmp_path)
    assert result.exit_code == 1 and "holds the records folder" in result.output, result.output
    assert tree(tmp_path) == before


@pytest.mark.parametrize("writer", WRITERS)
def test_out_a_dangling_link_gets_a_message(cli, records_dir: Path, tmp_path: Path, writer: str) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    out.symlink_to(tmp_path / "nowhere")
    before = tree(tmp_path)
    result = cli(*WRITERS[writer], "--records", records_dir, "--out", out)
    assert result.exit_code == 1, result.output
    assert f"is a symbolic link to {str(tmp_path / 'nowhere')!r}, which does not exist" in result.output
    assert "unexpected" not in result.output and tree(tmp_path) == before


@pytest.mark.parametrize("writer", WRITERS)
def test_out_a_link_to_an_earlier_output_is_left_as_it_is(cli, records_dir: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                          writer: str) -> None:
    real = tmp_path / ("real.db" if writer == "db" else "real")
    assert cli(*WRITERS[writer], "--records", records_dir, "--out", real).exit_code == 0
    out = tmp_path / "out"
    out.symlink_to(real)
    before = tree(tmp_path)
    result = cli(*WRITERS[writer], "--records", records_dir, "--out", out)
    assert result.exit_code == 1 and "is a symbolic link" in result.output, result.output
    assert f"give --out the path itself: {real}" in result.output
    assert tree(tmp_path) == before, "the link, its target and no hidden '.out.*.old' folder"


@pytest.mark.parametrize("writer", WRITERS)
def test_out_a_fifo_gets_a_message(cli, records_dir: Path, tmp_path: Path, writer: str) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "pipe"
    os.mkfifo(out)
    result = cli(*WRITERS[writer], "--records", records_dir, "--out", out)
    assert result.exit_code == 1 and "is a named pipe (FIFO)" in result.output, result.output
    assert out.exists() and not out.is_dir()


@pytest.mark.sandbox
def test_leftovers_of_killed_runs_are_removed_but_not_a_live_runs(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "site"
    dead = [tmp_path / ".site.a1b2.tmp", tmp_path / ".site.c3d4.old"]
    for folder in dead:
        (folder / "result").mkdir(parents=True)
        (folder / "result" / "page.html").write_text("half a page")
    live = tmp_path / ".site.e5f6.tmp"
    live.mkdir()
    held = os.open(live, os.O_RDONLY)
    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    unrelated = tmp_path / ".other.x.tmp"
    unrelated.mkdir()
    try:
        assert cli("site", "build", "--records", records_dir, "--out", out).exit_code == 0
        assert not any(folder.exists() for folder in dead), "a killed run's folders are removed"
        assert live.exists() and unrelated.exists(), "a live run's folder, and another output's, are kept"
    finally:
        os.close(held)
    assert remove_leftovers(out) == [live]


#: Runs 'registry site build' with page writers that say they started and then wait (to be interrupted).
_SLOW_SITE = """
import os, sys, time
from registry.site import build
build.WORKERS[0] = 3
def slow(site, root, ids, copies, common):
    with open(os.path.join(sys.argv[2], f"worker-{os.getpid()}"), "w") as marker:
        marker.write("started")
    time.sleep(120)
build._write_records = slow
from registry.cli import app
app(["site", "build", "--records", sys.argv[1], "--out", sys.argv[3]])
"""


def started_build(records: Path, tmp_path: Path) -> tuple[subprocess.Popen[str], list[int]]:
    markers = tmp_path / "markers"
    markers.mkdir()
    # Ctrl-C as a terminal gives it: a suite started in the background ('cmd &' in a script) passes SIGINT on
    # ignored, and Python then installs no KeyboardInterrupt handler, so the build would never hear it.
    child = subprocess.Popen([sys.executable, "-c", _SLOW_SITE, str(records), str(markers), str(tmp_path / "site")],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    for _ in range(3000):  # five minutes at most, on a loaded machine
        workers = [int(p.name.split("-")[1]) for p in markers.iterdir()]
        if len(workers) == 3:
            return child, workers
        time.sleep(0.1)
    child.kill()
    raise AssertionError(f"the workers did not start: {child.communicate()}")


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie, not yet reaped by whoever adopted it, has ended too)."""
    for _ in range(600):
        try:
            os.kill(pid, 0)
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (ProcessLookupError, FileNotFoundError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.sandbox
@pytest.mark.parametrize(("sent", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_to_the_build_stops_its_workers_without_a_traceback(records_dir: Path, tmp_path: Path,
                                                                     sent: int, status: int) -> None:
    child, workers = started_build(records_dir, tmp_path)
    child.send_signal(sent)  # the parent alone, as 'kill' does
    _, err = child.communicate(timeout=60)
    assert child.returncode == status, err
    assert "Traceback" not in err and "Interrupted" in err, err
    assert all(gone(pid) for pid in workers), "no page writer goes on after the build stopped"
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")], "no hidden folder is left"


@pytest.mark.sandbox
def test_a_killed_build_leaves_debris_the_next_build_removes(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    child, workers = started_build(records_dir, tmp_path)
    child.kill()
    child.communicate(timeout=60)
    assert all(gone(pid) for pid in workers), "the workers die with their parent"
    assert [p for p in tmp_path.iterdir() if p.name.startswith(".site.")], "a SIGKILL leaves the unfinished folder"
    assert cli("site", "build", "--records", records_dir, "--out", tmp_path / "site").exit_code == 0
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")]
