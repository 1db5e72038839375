"""Writing many record files as one batch: all of them or none, across a failure or a kill.

A batch is staged first. Every file's new text is written (atomically, synced) into a hidden folder,
``.registry-batch``, inside the records folder, which the loader skips (hidden names are never
records), beside a journal that lists each target, whether it replaces a file (a link to the old
file is kept beside it) and the SHA-256 of its new text. Only then are the files put in place, one by
one, and the staging folder is removed last. While that folder exists the batch is unfinished: if
the process dies part-way, the next batch writer (or ``recover``) undoes what the batch had put in
place, using the journal and touching only files whose content is still what the batch wrote, and
the registry is as it was. Until then ``registry validate`` reports the unfinished batch
(``interrupted-batch``), so that nobody builds a database from half of one.

One writer at a time: a batch holds an exclusive ``flock`` on the records folder itself. A lock dies
with its process, so recovery never undoes a batch that is still being written.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from registry.errors import RegistryError
from registry.store.journal import JOURNAL, JOURNAL_VERSION, JournalError, read_journal, read_regular
from registry.store.yamlio import sync_folder, write_atomic

try:
    import fcntl as _fcntl
except ImportError:  # pragma: no cover - Windows: no locking, so no recovery of another run's batch
    _fcntl = None  # type: ignore[assignment]
fcntl: Any = _fcntl

#: The staging folder, inside the records folder; hidden, so never read as records.
STAGING = ".registry-batch"

#: Called with (files done, files in the batch) as a batch is staged and as it is put in place.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Write:
    """One file of a batch: a new record file, or (``replaces``) new text for one that exists."""

    path: Path
    text: str
    replaces: str | None = None
    """For a file that exists: the SHA-256 of the text it held when it was read; refused if it changed since."""


@dataclass(frozen=True)
class Recovery:
    """What undoing an unfinished batch did."""

    started_at: str
    undone: list[Path] = field(default_factory=list)
    """Files the batch had put in place, removed again (or given back their old text)."""
    kept: list[Path] = field(default_factory=list)
    """Files the journal names whose content is no longer the batch's (changed since): left as they are."""


@dataclass(frozen=True)
class Pending:
    """An unfinished batch, as ``registry validate`` reports it."""

    journal: Path
    files: int
    in_place: int
    running: bool
    """Whether the run writing it is still alive (it holds the lock)."""
    refused: str | None = None
    """Why its journal is never acted on (one this registry did not write); None for a journal it wrote."""


def sha256(text: str | bytes) -> str:
    return hashlib.sha256(text.encode("utf-8") if isinstance(text, str) else text).hexdigest()


@dataclass(frozen=True)
class Written:
    """What a batch wrote, and what it undid first."""

    paths: list[Path]
    recovered: Recovery | None
    """The unfinished batch of an earlier run that was undone before this one (None: there was none)."""


def write_batch(root: Path, writes: list[Write], *, progress: Progress | None = None,
                check: Callable[[], None] | None = None) -> Written:
    """Write every file of ``writes`` under ``root``, or none of them.

    An unfinished batch of an earlier run is undone first. Nothing is written if any new file's
    target exists or any replaced file changed since it was read, or if ``check`` raises: it runs
    under the lock, before anything is staged, so that it sees the records folder as this batch
    will change it (``registry.curate.precheck.write_checked`` validates the new records there).
    """
    with batch_lock(root):
        recovered = _recover_locked(root)
        _check_targets(root, writes)
        if check is not None:
            check()
        staging = root / STAGING
        entries = _stage(staging, root, writes, progress)
        try:
            _place(root, staging, entries, progress)
        except BaseException:
            _recover_locked(root)  # a failure part-way (a full disk, a file that appeared): undo what was placed
            raise
        _finish(root, staging)
    return Written([write.path for write in writes], recovered)


def recover(root: Path) -> Recovery | None:
    """Undo an unfinished batch under ``root`` (None: there was none)."""
    with batch_lock(root):
        return _recover_locked(root)


def pending(root: Path) -> Pending | None:
    """The unfinished batch under ``root``, if any (``in_place`` 0: killed while staging); reads only, keeps no lock.

    A journal this registry did not write is reported (``refused``), never followed.
    """
    staging = root / STAGING
    if not os.path.lexists(staging):
        return None
    try:
        journal = read_journal(root, staging)
    except JournalError as exc:
        return Pending(staging / JOURNAL, 0, 0, running=False, refused=str(exc))
    entries = journal.entries if journal is not None else []
    in_place = sum(1 for entry in entries if _holds(entry.target, entry.sha256))
    return Pending(staging / JOURNAL, len(entries), in_place, running=not _lock_free(root))


# -- the steps ------------------------------------------------------------------------------------


def _check_targets(root: Path, writes: list[Write]) -> None:
    seen: set[Path] = set()
    base = root.resolve()
    for write in writes:
        target = write.path.resolve()
        if not target.is_relative_to(base) or target.name.startswith("."):
            raise RegistryError(f"{write.path} is not a record file inside {{records}}; nothing was written")
        if target in seen:
            raise RegistryError(f"the batch writes {write.path} twice; nothing was written")
        seen.add(target)
        if write.replaces is None and write.path.exists():
            raise RegistryError(f"{write.path} already exists; records are never overwritten, so nothing was written",
                                "give the new record another id", path=write.path)
        if write.replaces is not None and not _holds(target, write.replaces):
            raise RegistryError(f"{write.path} changed while the batch was prepared; nothing was written",
                                "run the command again", path=write.path)


def _stage(staging: Path, root: Path, writes: list[Write], progress: Progress | None) -> list[dict[str, Any]]:
    """Every new text, and a link to every file it replaces, in the staging folder; then the journal."""
    staging.mkdir()
    sync_folder(root)
    entries: list[dict[str, Any]] = []
    for number, write in enumerate(writes):
        staged = f"{number:06d}.yaml"
        _write_staged(staging / staged, write.text)
        entry: dict[str, Any] = {"target": write.path.resolve().relative_to(root.resolve()).as_posix(),
                                 "staged": staged, "sha256": sha256(write.text), "old": None}
        if write.replaces is not None:
            entry["old"] = f"{number:06d}.old"
            _link_or_copy(write.path, staging / entry["old"])
        entries.append(entry)
        if progress is not None:
            progress(number + 1, 2 * len(writes))
    sync_folder(staging)
    journal = {"version": JOURNAL_VERSION, "started_at": dt.datetime.now(dt.UTC).isoformat(), "pid": os.getpid(),
               "files": entries}
    write_atomic(staging / JOURNAL, json.dumps(journal, indent=1) + "\n")  # the journal is whole, or absent
    return entries


def _write_staged(path: Path, text: str) -> None:
    """A staged file, synced to disk. No temporary file is needed: a staged file is only put in place once the
    journal, written after every staged file, names it, and the staging folder is ours alone (we hold the lock)."""
    with open(path, "x", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


def _place(root: Path, staging: Path, entries: list[dict[str, Any]], progress: Progress | None) -> None:
    folders: set[Path] = set()
    for number, entry in enumerate(entries):
        target = root / entry["target"]
        target.parent.mkdir(parents=True, exist_ok=True)
        if entry["old"] is None:
            _link_new(staging / entry["staged"], target)
        else:
            os.replace(staging / entry["staged"], target)
        folders.add(target.parent)
        if progress is not None:
            progress(len(entries) + number + 1, 2 * len(entries))
    for folder in sorted(folders):
        sync_folder(folder)


def _finish(root: Path, staging: Path) -> None:
    """The end of a batch: once its journal is gone, nothing is left to undo (then the folder goes too)."""
    (staging / JOURNAL).unlink(missing_ok=True)
    sync_folder(staging)
    shutil.rmtree(staging)
    sync_folder(root)


def _recover_locked(root: Path) -> Recovery | None:
    """Undo the batch staged under ``root``, after checking its whole journal (``JournalError``: nothing is done)."""
    staging = root / STAGING
    if not os.path.lexists(staging):
        return None
    journal = read_journal(root, staging)  # None: killed while staging (nothing in place) or finishing (all of it)
    if journal is not None:
        for entry in journal.entries:
            if entry.old is not None and read_regular(staging / entry.old) is None and _holds(entry.target,
                                                                                              entry.sha256):
                raise JournalError(f"{staging / entry.old}, the old text of {entry.target}, is not a regular file "
                                   "the batch writer made (a link, a pipe or a larger file); nothing was undone",
                                   f"look at it, then remove the staging folder by hand: rm -r {staging}",
                                   path=staging / entry.old)
    recovery = Recovery(journal.started_at if journal is not None else "an unknown time")
    for entry in reversed(journal.entries if journal is not None else []):
        target = entry.target
        if not _holds(target, entry.sha256):
            if os.path.lexists(target) and entry.old is None:
                recovery.kept.append(target)
            continue  # not put in place yet (or changed since by someone else: left alone)
        if entry.old is None:
            target.unlink()
        else:
            restored = staging / f"{entry.old}.restore"
            _link_or_copy(staging / entry.old, restored)
            os.replace(restored, target)
        sync_folder(target.parent)
        recovery.undone.append(target)
    _finish(root, staging)
    return recovery


# -- helpers -----------------------------------------------------------------------------------------


def _holds(path: Path, digest: str) -> bool:
    """Whether ``path`` is a regular file (not a link, pipe or device) holding the text of SHA-256 ``digest``."""
    data = read_regular(path)
    return data is not None and sha256(data) == digest


def _link_new(source: Path, target: Path) -> None:
    """Put ``source`` at ``target`` only if nothing is there (a hard link; a look-then-rename without links)."""
    try:
        os.link(source, target)
    except FileExistsError:
        raise RegistryError(f"{target} appeared while the batch was written; the batch was undone",
                            "run the command again", path=target) from None
    except OSError:
        if target.exists():
            raise RegistryError(f"{target} appeared while the batch was written; the batch was undone",
                                "run the command again", path=target) from None
        shutil.copyfile(source, target)


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


@contextmanager
def batch_lock(root: Path) -> Iterator[None]:
    """Hold the records folder's batch lock, or fail at once if another run holds it."""
    if not root.is_dir():
        raise RegistryError(f"records folder {str(root)!r} does not exist",
                            "run the command from the project folder, or point {records} at a folder of record files")
    if fcntl is None:  # pragma: no cover - Windows
        yield
        return
    handle = os.open(root, os.O_RDONLY)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise RegistryError(f"another run is writing a batch into {str(root)!r}",
                                "wait for it to finish, then run the command again") from None
        yield
    finally:
        os.close(handle)  # closing the descriptor releases the lock


def _lock_free(root: Path) -> bool:
    if fcntl is None:  # pragma: no cover - Windows
        return True
    handle = os.open(root, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(handle)
    return True
