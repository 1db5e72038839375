"""Where 'site build', 'export' and 'db build' write: one rule for every output path, and for interruptions.

All three build their output beside the target (a hidden ``.<name>.*.tmp`` folder or file) and
rename it into place when complete. This module holds what they share:

- ``check_output``: the output is refused inside the records folder (a site there would be read
  back as records) or when it would replace the records folder; a symbolic link, a FIFO or a device
  gets a message that names it, instead of being followed, replaced or read.
- ``remove_leftovers``: a killed run leaves its hidden folders (the one it was filling, ``.tmp``,
  and the earlier output it was removing, ``.old``). Each run holds an ``flock`` on its folders for
  as long as it lives (its forked workers too), so the next run removes every one no run holds.
- ``stopped_by_signals``: SIGTERM is handled as Ctrl-C is, so the command's ``finally`` blocks run
  (workers stopped, the unfinished folder removed) and it ends with a message, not a traceback.
- ``in_forked_workers``: forked workers that die with their parent (Linux), ignore Ctrl-C (the
  parent stops them) and are killed before the parent removes what they were writing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from registry.errors import RegistryError
from registry.store.atomic import NEW, OLD, TMP
from registry.store.filetypes import special_kind

try:
    import fcntl as _fcntl
except ImportError:  # pragma: no cover - Windows: no locks, so leftovers are never removed
    _fcntl = None  # type: ignore[assignment]
fcntl: Any = _fcntl

def prepare_output(out: Path, records: Path, *, folder: bool) -> None:
    """Check ``out`` (``check_output``), then remove what killed runs left beside it."""
    check_output(out, records, folder=folder)
    remove_leftovers(out)


def check_output(out: Path, records: Path, *, folder: bool) -> None:
    """Refuse an output path that would write into the records folder, or that is a link, pipe or device."""
    base = records.resolve()
    where = out.resolve()
    if where == base or where.is_relative_to(base):
        raise RegistryError(f"{str(out)!r} is inside the records folder {str(records)!r}; what is written there "
                            "would be read back as records, so nothing was written",
                            "choose a folder outside the records folder for {out}", path=out)
    if base.is_relative_to(where):
        raise RegistryError(f"{str(out)!r} holds the records folder {str(records)!r}, which replacing it would "
                            "remove; nothing was written", "choose another path for {out}", path=out)
    try:
        info = out.lstat()
    except OSError:
        return  # nothing there yet
    if stat.S_ISLNK(info.st_mode):
        link = os.readlink(out)
        state = "which does not exist" if not out.exists() else "which is left as it is"
        raise RegistryError(f"{str(out)!r} is a symbolic link to {link!r}, {state}; a link is never followed or "
                            "replaced, so nothing was written",
                            f"give {{out}} the path itself: {out.resolve()}" if out.exists() else
                            "remove the link, or give {out} another path", path=out)
    kind = special_kind(info.st_mode)
    if kind is not None:
        raise RegistryError(f"{str(out)!r} is {kind}, not a {'folder' if folder else 'file'}; it was not read "
                            "or written", "give {out} another path", path=out)


def remove_leftovers(out: Path) -> list[Path]:
    """Remove the hidden folders beside ``out`` that killed runs left (no live run holds their lock)."""
    if fcntl is None:
        return []
    prefix = f".{out.name}."
    removed: list[Path] = []
    try:
        with os.scandir(out.parent if str(out.parent) else ".") as entries:
            candidates = [Path(e.path) for e in entries if e.name.startswith(prefix)
                          and e.name.endswith((TMP, OLD, NEW)) and e.is_dir(follow_symlinks=False)]
    except OSError:
        return removed
    for folder in candidates:
        try:
            handle = os.open(folder, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_DIRECTORY", 0))
        except OSError:
            continue
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # fails while the run that made it (or a worker) lives
        except OSError:
            os.close(handle)
            continue
        try:
            if folder.name.endswith(NEW) and _younger_than(folder, 60):
                continue  # made an instant ago, and not yet locked by its run
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
        finally:
            os.close(handle)
    return removed


def _younger_than(folder: Path, seconds: float) -> bool:
    import time

    try:
        return time.time() - folder.lstat().st_mtime < seconds
    except OSError:
        return False


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so that clean-up runs as for Ctrl-C."""

    exit_status = 128 + signal.SIGTERM


@contextlib.contextmanager
def stopped_by_signals() -> Iterator[None]:
    """While the block runs, SIGTERM raises ``Terminated`` (a KeyboardInterrupt) in the main thread, as Ctrl-C does."""
    owner = os.getpid()

    def terminated(signum: int, _frame: Any) -> None:
        if os.getpid() != owner:  # a forked worker (a parsing pool's) inherited the handler: end as SIGTERM ends
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise Terminated()

    try:
        previous = signal.signal(signal.SIGTERM, terminated)
    except ValueError:  # not the main thread: signals stay as they are
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


#: The signals that stop a command, held back while its workers are forked.
STOPPING = {signal.SIGINT, signal.SIGTERM}


def in_forked_workers(job: Callable[[int], None], count: int) -> list[int]:
    """Run ``job(share)`` for each share in its own forked process; the shares whose process failed.

    Each worker dies with its parent (Linux's parent-death signal), ignores Ctrl-C and SIGTERM's
    handler (the parent stops it), and leaves without running the parent's clean-up. If the parent
    is interrupted while it waits, every worker is killed and waited for before the exception goes on,
    so nothing writes into a folder the parent is about to remove.
    """
    parent = os.getpid()
    children: dict[int, int] = {}
    try:
        # Ctrl-C and SIGTERM wait while the workers are forked: one that came inside os.fork's own clean-up
        # (its at-fork hooks) would be printed as 'Exception ignored' and lost, leaving the build running.
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
        try:
            for share in range(count):
                pid = os.fork()
                if pid == 0:
                    _worker(job, share, parent, mask)
                children[pid] = share
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a signal that came meanwhile acts here
        failed = []
        for pid, share in list(children.items()):
            if os.waitpid(pid, 0)[1] != 0:
                failed.append(share)
            del children[pid]
        return failed
    finally:
        for pid in children:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for pid in children:
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)


def _worker(job: Callable[[int], None], share: int, parent: int, mask: set[int | signal.Signals]) -> None:
    status = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        _die_with_parent()
        if os.getppid() != parent:  # the parent died before the signal was asked for
            os._exit(1)
        job(share)
    except Exception:  # noqa: BLE001 - reported to the parent through the exit status
        import traceback

        traceback.print_exc()
        status = 1
    except BaseException:  # noqa: BLE001 - stopped (by the parent): nothing to report
        status = 1
    finally:
        os._exit(status)


def _die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (prctl PR_SET_PDEATHSIG); nothing elsewhere."""
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - no C library
        pass
