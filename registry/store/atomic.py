"""Files (and folders) written whole or not at all: a temporary beside the target, renamed into place.

Every file the registry writes (records, the database, schemas, the review cache) is first written
to a hidden temporary file in the target's folder, named ``.<target name>.<random>.registry.tmp``,
then renamed over the target, so that a failure or a kill part-way leaves the old file or none,
never half a file. A kill also leaves the temporary file. So each temporary file is locked
(``flock``) by the run that writes it, for as long as it exists, and every later write into the
same folder removes the temporaries of that naming that no run holds and that are more than a
minute old (the minute covers the instant between creating a file and locking it). A lock dies
with its process, so a killed run's temporaries are removed by the next one, and a running one's
never are. Where the system has no ``flock`` (Windows), nothing is removed.

A folder (a site, an export) is filled under a hidden name beside its target, ``.<name>.*.tmp``, and
renamed into place; the folder it replaces is moved aside (``.<name>.*.old``) and removed. A run
holds an ``flock`` on each such folder while it lives, so ``registry.store.outputs.remove_leftovers`` can
remove those of killed runs and never a live run's.

``install`` puts a finished temporary file at its target. Where the target must still be what was
checked (the database build replaces only a database it wrote), Linux's ``renameat2`` swaps the
two files in one step and looks at what it displaced: if that is not replaceable after all (a file
written there while the build ran), the swap is undone, so that file is never lost.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

try:
    import fcntl as _fcntl
except ImportError:  # pragma: no cover - Windows
    _fcntl = None  # type: ignore[assignment]
fcntl: Any = _fcntl

TEMP_SUFFIX = ".registry.tmp"
#: The suffixes of the hidden folders made beside an output folder: being made, being filled, being removed.
NEW, TMP, OLD = ".new", ".tmp", ".old"
_LOCKS: dict[str, int] = {}
"""Descriptors holding this process's locks on its folders, by path (closed once the folder is gone)."""
#: A temporary file younger than this is never removed by another run, locked or not.
STALE_AFTER_S = 60.0


class TargetChangedError(OSError):
    """The target of ``install`` is no longer a file it may replace; it was left as it is."""


def current_umask() -> int:
    """The process's umask (reading it means setting it, so it is set straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def sync_folder(folder: Path) -> None:
    """fsync a folder, so that a rename or link inside it is on disk (where the platform allows it)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


@contextmanager
def temporary_beside(target: Path) -> Iterator[Path]:
    """A new, empty, locked temporary file beside ``target``, for the caller to fill and rename.

    The file has the permissions any new file gets under the user's umask (``mkstemp`` makes it
    owner-only, with ``O_CREAT|O_EXCL|O_NOFOLLOW``: nothing already at the name is opened; write it through
    ``reopened``). It stays locked until the block ends; then it is removed if it is still there
    (it is not once it was renamed into place). Stale temporaries of earlier runs in the same
    folder are removed first (see the module docstring).
    """
    remove_stale_temporaries(target.parent)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
    tmp = Path(name)
    lock = _lock(name)
    try:
        try:
            os.fchmod(fd, 0o666 & ~current_umask())
        finally:
            os.close(fd)
        yield tmp
    finally:
        tmp.unlink(missing_ok=True)
        if lock is not None:
            os.close(lock)


def reopened(tmp: Path) -> int:
    """A descriptor writing the temporary ``tmp`` made by ``temporary_beside`` (which ``mkstemp`` opened with
    ``O_CREAT|O_EXCL|O_NOFOLLOW``): opened again by name without following a link, so that a link put in its place
    meanwhile is refused (ELOOP), never written through."""
    return os.open(tmp, os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC)


def _lock(name: str) -> int | None:
    """A descriptor of its own holding an exclusive lock on ``name`` (closing the writer's keeps it)."""
    if fcntl is None:
        return None
    try:
        lock = os.open(name, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(lock)
        return None
    return lock


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Remove the temporaries of our naming in ``folder`` that no run holds and that are over a minute old."""
    if fcntl is None:
        return []
    removed: list[Path] = []
    try:
        with os.scandir(folder) as entries:
            candidates = [e for e in entries if e.name.startswith(".") and e.name.endswith(TEMP_SUFFIX)]
    except OSError:
        return removed
    now = time.time()
    for entry in candidates:
        try:
            info = entry.stat(follow_symlinks=False)
            if not entry.is_file(follow_symlinks=False) or now - max(info.st_mtime, info.st_ctime) < STALE_AFTER_S:
                continue
            handle = os.open(entry.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # fails while the run that wrote it lives
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            continue
        finally:
            os.close(handle)
    return removed


def install(tmp: Path, target: Path, *, replaceable: Callable[[Path], bool] | None = None) -> None:
    """Rename ``tmp`` to ``target``, replacing what is there only if ``replaceable`` says so of it.

    Without ``replaceable``, whatever is at ``target`` is replaced. With it, the file that would be
    replaced is judged at the moment it is replaced: on Linux by swapping the two files in one step
    (``renameat2``) and judging the one displaced, which is put back if it may not be replaced; on
    other systems by judging it just before the rename. ``TargetChangedError`` if it may not.
    """
    if replaceable is None:
        os.replace(tmp, target)
        return
    if _renameat2(tmp, target, _RENAME_NOREPLACE):
        return  # nothing was there
    if _renameat2(tmp, target, _RENAME_EXCHANGE):
        if replaceable(tmp):  # ``tmp`` now names what ``target`` held
            tmp.unlink(missing_ok=True)
            return
        _renameat2(tmp, target, _RENAME_EXCHANGE)
        raise TargetChangedError(errno.EEXIST, "the target is no longer a file that may be replaced", str(target))
    if target.exists() and not replaceable(target):  # no renameat2 here: look, then rename
        raise TargetChangedError(errno.EEXIST, "the target is no longer a file that may be replaced", str(target))
    os.replace(tmp, target)


_RENAME_NOREPLACE, _RENAME_EXCHANGE = 1, 2
_AT_FDCWD = -100


def _renameat2(source: Path, target: Path, flags: int) -> bool:
    """Linux's renameat2; False where the system or file system does not have it, or the target exists
    (with RENAME_NOREPLACE); other failures raise as ``os.rename`` would."""
    import ctypes

    function = _renameat2_function()
    if function is None:
        return False
    if function(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target), flags) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EEXIST, errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(target))


_FUNCTION: list[object] = []


def _renameat2_function() -> Callable[..., int] | None:
    """The C library's renameat2 (loaded on first use: only writes need it), or None where there is none."""
    import ctypes

    if not _FUNCTION:
        function = None
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            function = getattr(libc, "renameat2", None)
        except OSError:  # pragma: no cover - no C library to load
            pass
        if function is not None:
            function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
            function.restype = ctypes.c_int
        _FUNCTION.append(function)
    return _FUNCTION[0]  # type: ignore[return-value]


def write_atomic(path: Path, text: str, *, overwrite: bool = False) -> None:
    """Write ``text`` to a temporary file beside ``path``, fsync it, then rename it into place.

    A failure or a kill part-way leaves either the old file or none, never half a file; the
    folder is synced too, so the new name survives a power cut. The file gets the permissions
    any new file gets under the user's umask. With ``overwrite=False`` an existing file is never
    replaced: records are append-only.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path} already exists; records are never overwritten")
    with temporary_beside(path) as tmp:
        with open(reopened(tmp), "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if overwrite:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
        sync_folder(path.parent)


def _link_new(tmp: Path, path: Path) -> None:
    """Put ``tmp`` at ``path`` only if nothing is there, so that a concurrent writer is never clobbered."""
    try:
        os.link(tmp, path)  # fails if the target appeared meanwhile
    except FileExistsError:
        raise FileExistsError(f"{path} already exists; records are never overwritten") from None
    except OSError:
        # A file system without hard links (some network and FAT mounts): look, then rename. Only a
        # second writer of the very same id in the same instant could slip between the two.
        if path.exists():
            raise FileExistsError(f"{path} already exists; records are never overwritten") from None
        os.replace(tmp, path)


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, fsync it, then rename it over ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with temporary_beside(path) as tmp:
        with open(reopened(tmp), "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
        sync_folder(path.parent)


def new_folder_beside(out: Path) -> Path:
    """An empty hidden folder beside ``out``, locked by this run, to fill and then put in place (``replace_folder``).

    It is made under a ``.new`` name, locked, then renamed to ``.tmp``: another run's clean-up removes
    only unlocked ``.tmp`` folders, so it never removes one between its making and its locking.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    made = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=NEW, dir=out.parent))
    os.chmod(made, 0o777 & ~current_umask())
    _hold(made)
    tmp = made.with_name(made.name[: -len(NEW)] + TMP)
    os.rename(made, tmp)
    _moved_lock(made, tmp)
    return tmp


def replace_folder(tmp: Path, out: Path) -> None:
    """Put the complete folder ``tmp`` at ``out``; a folder already there is moved aside (locked), then removed."""
    old: Path | None = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=OLD, dir=out.parent))
        os.rmdir(old)
        _hold(out)
        os.replace(out, old)
        _moved_lock(out, old)
    try:
        os.replace(tmp, out)
    except OSError:
        if old is not None:
            os.replace(old, out)  # put the previous folder back
            release(old)
        raise
    release(tmp)
    sync_folder(out.parent)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
        release(old)


def discard(tmp: Path) -> None:
    """Remove an unfinished folder of this run (after its workers are stopped) and drop its lock."""
    if tmp.exists():
        shutil.rmtree(tmp, ignore_errors=True)
    release(tmp)


def _hold(folder: Path) -> None:
    if fcntl is None:
        return
    handle = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(handle)
        raise
    _LOCKS[str(folder)] = handle


def _moved_lock(before: Path, after: Path) -> None:
    """The lock held on a folder follows it to its new name (the descriptor locks the folder, not its name)."""
    handle = _LOCKS.pop(str(before), None)
    if handle is not None:
        _LOCKS[str(after)] = handle


def release(folder: Path) -> None:
    handle = _LOCKS.pop(str(folder), None)
    if handle is not None:
        os.close(handle)
