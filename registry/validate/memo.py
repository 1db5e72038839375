"""The report of a registry that has not changed since the last ``validate``, given again without a run.

Exact by construction, not by estimate: a kept report is given only when everything the run could
have read is as it was. That is

- every entry under the records folder, hidden ones and non-record files included: its path, type,
  size, modification and change times, inode and mode, and for a link its target and the target's
  status (``tree_state``); a file changed within two seconds of the run is never trusted, since a
  second change within the same time stamp would not show;
- the code: every file of the ``registry`` package, and the versions of Python and the libraries
  that parse and type the records (``code_version``);
- where the command runs and how the folder was named (reported paths are relative to it);
- the clock: the run's checks compare dates with now only to find dates in the future (an id's
  date, a date or moment field, a release's date) and name today in one message. Time only moves
  forward, so a report without any such finding stays exact for the rest of its UTC day; a report
  with one is never reused;
- other processes: a batch write in progress is found by its lock, which no file shows, so a report
  naming an unfinished batch is never reused either.

Anything else (another folder, ``--no-cache``, a damaged or foreign entry) runs validation in full.
Entries live in the parse cache's folder, one small file per records folder (MessagePack), behind a MAC
under the cache's per-user key (``registry.store.cachekey``), written to a temporary file renamed into place.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import os
import stat
import struct
import sys
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import Any, BinaryIO

from registry.issues import codes
from registry.issues.report import Issue, Report, Severity
from registry.store import cache as cache_module
from registry.store import cacheformat, private
from registry.store.cachekey import key_is_kept
from registry.store.filetypes import RECORD_SUFFIXES

#: Bump when what is kept changes meaning.
FORMAT = 1
#: A file modified this close to the run may change again unseen within the same time stamp.
RACY_NS = cache_module.RACY_NS
#: Findings that depend on the clock or on another process: a report holding one is never reused.
UNSETTLED_CODES = frozenset({codes.DATE_IN_FUTURE.code, codes.ID_DATE_IN_FUTURE.code, codes.INTERRUPTED_BATCH.code})
#: The largest entry read back (a report of a large, broken registry can be long).
MAX_ENTRY_BYTES = 256 << 20


def now() -> dt.datetime:
    """The moment a run checks dates against (one function, so that a test can move the clock)."""
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class Tree:
    """What the records folder holds now, as one digest; ``newest_ns`` the latest time stamp seen in it."""

    digest: str
    newest_ns: int


@dataclass(frozen=True)
class Folder:
    """The record files of one folder as ``loader.scan_record_files`` would yield them, in name order: their
    names and, for each, its size, modification and change times and inode as 32 bytes (``STATUS``; zeros for a
    link, whose target may change unseen). Kept as columns, not as an object per file: a registry of 100,000
    results has 295,100 files, and a run after one edit must not pay for each of them more than its ``stat``."""

    parts: tuple[str, ...]
    path: str
    names: list[str]
    status: bytes

    @functools.cached_property
    def joined(self) -> str:
        """Its names joined by NUL, as the incremental index keeps a folder's listing (worked out once: a watcher
        hands the same ``Folder`` to every run until the folder changes)."""
        return "\0".join(self.names)

    @functools.cached_property
    def newest_ns(self) -> int | None:
        """``newest_ns`` of its files' statuses."""
        return newest_ns(self.status)

    def files(self) -> list[tuple[tuple[str, ...], str, bytes]]:
        """(parts below root, path, status) of each file: the listing one file at a time."""
        return [((*self.parts, name), os.path.join(self.path, name), self.status[32 * i:32 * i + 32])
                for i, name in enumerate(self.names)]


def newest_ns(status: bytes) -> int | None:
    """The latest modification or change time of the files whose statuses are packed in ``status`` (-1: none;
    None: one of them has none known, a link)."""
    times = array("q", status)
    modified, changed = times[1::4], times[2::4]
    if not times:
        return -1
    return None if 0 in modified else max(max(modified), max(changed))


#: A file's size, modification and change times and inode, packed (``Folder.status``).
STATUS = struct.Struct("<4q")
_NAME = attrgetter("name")
_SIZE, _MTIME, _CTIME, _INO, _MODE = (attrgetter(name) for name in (
    "st_size", "st_mtime_ns", "st_ctime_ns", "st_ino", "st_mode"))


def tree_state(root: Path, records: list[Folder] | None = None) -> Tree:
    """A digest of every entry under ``root`` (sorted walk, links not followed but their targets described).

    With ``records``, the record files seen on the way are added to it, one ``Folder`` per folder that holds
    any: the incremental run needs no second walk. Each folder's entries are described column by column
    (names, modes, sizes, times, inodes), each column built and hashed by the interpreter's own loops: a
    line per file formatted in Python cost most of the run where nothing changed.
    """
    digest = hashlib.blake2b(digest_size=32)
    newest = 0
    pending: list[tuple[str, str, tuple[str, ...] | None]] = [(str(root), "", ())]
    while pending:
        folder, shown, parts = pending.pop()
        try:
            with os.scandir(folder) as entries:
                listed = sorted(entries, key=_NAME)
            stats = [entry.stat(follow_symlinks=False) for entry in listed]
        except OSError:
            again, stats = _one_by_one(folder, shown, digest)
            if again is None:
                continue
            listed = again
        names = list(map(_NAME, listed))
        modes = list(map(_MODE, stats))
        columns = (names, modes, list(map(_SIZE, stats)), list(map(_MTIME, stats)), list(map(_CTIME, stats)),
                   list(map(_INO, stats)))
        digest.update(f"{shown}\0{columns!r}\n".encode("utf-8", "surrogatepass"))
        if stats:
            newest = max(newest, max(columns[3]), max(columns[4]))
        regular = [(mode & 0o170000) == stat.S_IFREG for mode in modes]
        for index in [i for i, plain in enumerate(regular) if not plain]:
            entry, mode = listed[index], modes[index]
            inner = None if parts is None or entry.name.startswith(".") else (*parts, entry.name)
            if stat.S_ISLNK(mode):
                digest.update(f"{shown}/{entry.name}\0{_link(entry.path)}\n".encode("utf-8", "surrogatepass"))
            elif stat.S_ISDIR(mode):
                pending.append((entry.path, f"{shown}/{entry.name}", inner))
        if records is not None and parts is not None:
            _record_files(records, folder, parts, listed, stats, regular)
    return Tree(digest.hexdigest(), newest)


def _one_by_one(folder: str, shown: str, digest: Any) -> tuple[list[os.DirEntry[str]] | None, list[os.stat_result]]:
    """A folder whose listing or an entry's status failed: each failure described, the rest kept."""
    try:
        with os.scandir(folder) as entries:
            listed = sorted(entries, key=_NAME)
    except OSError as exc:
        digest.update(f"unreadable\0{shown}\0{exc.errno}\n".encode("utf-8", "surrogatepass"))
        return None, []
    kept, stats = [], []
    for entry in listed:
        try:
            stats.append(entry.stat(follow_symlinks=False))
            kept.append(entry)
        except OSError as exc:
            digest.update(f"gone\0{shown}/{entry.name}\0{exc.errno}\n".encode("utf-8", "surrogatepass"))
    return kept, stats


def _record_files(records: list[Folder], folder: str, parts: tuple[str, ...], listed: list[os.DirEntry[str]],
                  stats: list[os.stat_result], regular: list[bool]) -> None:
    """Add a folder's record files as ``loader.scan_record_files`` tells them (a file, or a link to one; no
    hidden name) to ``records``."""
    chosen = [i for i, entry in enumerate(listed)
              if entry.name.endswith(RECORD_SUFFIXES) and not entry.name.startswith(".")
              and (regular[i] or _links_to_file(entry, stats[i]))]
    if not chosen:
        return
    picked = [stats[i] for i in chosen]
    values = [0] * (4 * len(picked))
    for column, field in enumerate((_SIZE, _MTIME, _CTIME, _INO)):
        values[column::4] = map(field, picked)
    for slot, i in enumerate(chosen):
        if not regular[i]:
            values[4 * slot:4 * slot + 4] = (0, 0, 0, 0)  # a link: none known
    status = struct.pack(f"<{len(values)}q", *values)
    records.append(Folder(parts, folder, [listed[i].name for i in chosen], status))


def _links_to_file(entry: os.DirEntry[str], status: os.stat_result) -> bool:
    try:
        return stat.S_ISLNK(status.st_mode) and entry.is_file()
    except OSError:
        return False


def _link(path: str) -> str:
    """A link's target and the status of what it leads to (or why nothing)."""
    try:
        target = os.readlink(path)
        status = os.stat(path)
        return (f"{target}\0{status.st_mode}\0{status.st_size}\0{status.st_mtime_ns}\0{status.st_ctime_ns}\0"
                f"{status.st_ino}\0{os.path.realpath(path)}")
    except OSError as exc:
        return f"broken\0{exc.errno}"


@functools.cache
def code_version() -> str:
    """Every source file of the ``registry`` package, and the versions of what parses and types records."""
    from importlib.metadata import PackageNotFoundError, version

    digest = hashlib.blake2b(f"{FORMAT} {sys.version}".encode(), digest_size=16)
    for name in ("pydantic", "pydantic-core", "PyYAML", "yaml-rs", "msgpack"):
        try:
            digest.update(f"{name}={version(name)}\n".encode())
        except PackageNotFoundError:
            digest.update(f"{name}=none\n".encode())
    package = Path(__file__).resolve().parents[1]  # registry/, this module being in registry/validate/
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".json", ".yaml", ".txt") and path.is_file():
            digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def entry_path(root: Path, folder: str, suffix: str) -> Path:
    """Where what is kept for ``root`` goes in the cache's ``folder``: one file per records folder, as named and
    from where the command runs (reported paths are relative to both)."""
    where = f"{os.path.realpath(root)}\0{root}\0{os.getcwd()}"
    name = hashlib.blake2b(where.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    return cache_module.cache_folder() / folder / f"{name}{suffix}"


def context(root: Path, *tag: str) -> bytes:
    """What an entry kept for ``root`` is bound to under the MAC: ``tag``, the code, the folder and where it runs."""
    return "\0".join((*tag, code_version(), os.path.realpath(root), str(root), os.getcwd())).encode(
        "utf-8", "surrogatepass")


def write_entry(path: Path, payload: bytes, *more: bytes) -> None:
    """Put a kept entry (``payload`` and ``more`` one after the other) in place: a temporary file beside it renamed
    over it, in a folder only its user reads.

    No fsync: an entry lost in a crash costs the next run its time, never its result. Raises OSError.
    """
    def write(file: BinaryIO) -> None:
        for part in (payload, *more):
            file.write(part)

    write_entry_with(path, write)


def write_entry_with(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """``write_entry``, with what ``write`` writes to the file (an entry written as it is made, never whole in memory:
    ``cacheformat.write_encoded``)."""
    cache_module.own_cache_folder(path.parent.name)
    temporary = private.temporary_name(path)
    descriptor = private.create_new(temporary)
    try:
        with open(descriptor, "w+b") as file:
            write(file)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def open_entry(path: Path) -> BinaryIO:
    """A kept entry opened for reading: refused (``private.NotRegular``, an OSError) where it is a link or anything
    but a regular file (a FIFO put there would block the run), or where its folder is not this user's alone."""
    cache_module.own_cache_folder(path.parent.name)
    return open(private.open_regular(path), "rb")


def _entry_path(root: Path) -> Path:
    return entry_path(root, "reports", ".json")


def _context(root: Path) -> bytes:
    return context(root, "report")


def recall(root: Path, tree: Tree, now: dt.datetime) -> Report | None:
    """The report kept for ``root`` if it is exactly what a run now would give (see the module's docstring)."""
    path = _entry_path(root)
    try:
        with open_entry(path) as file:
            payload = file.read(MAX_ENTRY_BYTES + 1)
        if len(payload) > MAX_ENTRY_BYTES:
            return None
        entry = cacheformat.decode(tree.digest.encode(), payload, _context(root))
        kept_at = dt.datetime.fromisoformat(entry["now"])
        if (entry["format"] != FORMAT or entry["tree"] != tree.digest or now < kept_at
                or now.astimezone(dt.UTC).date() != kept_at.astimezone(dt.UTC).date()):
            return None
        report = Report(files=entry["files"], records=entry["records"])
        for item in entry["issues"]:
            report.add(Issue(item["file"], item["line"], item["code"], item["message"], Severity(item["severity"]),
                             item["record_id"], item["field"]))
        return report
    except (OSError, ValueError, KeyError, TypeError, cacheformat.CorruptEntry):
        return None


def keep(root: Path, tree: Tree, now: dt.datetime, report: Report) -> None:
    """Keep ``report`` for ``root`` where a later run may take it exactly; otherwise remove what was kept."""
    path = _entry_path(root)
    remove_stale(path.parent)
    reusable = (tree.newest_ns < now.timestamp() * 1e9 - RACY_NS
                and not any(issue.code in UNSETTLED_CODES for issue in report.issues) and key_is_kept())
    try:
        if not reusable:
            path.unlink(missing_ok=True)
            return
        entry: dict[str, Any] = {
            "format": FORMAT, "tree": tree.digest, "now": now.isoformat(), "files": report.files,
            "records": report.records,
            "issues": [{"file": i.file, "line": i.line, "code": i.code, "message": i.message,
                        "severity": i.severity.value, "record_id": i.record_id, "field": i.field}
                       for i in report.issues],
        }
        write_entry(path, cacheformat.encode(tree.digest.encode(), entry, _context(root)))
    except OSError:
        pass  # a cache that cannot be written costs the next run its time, never its result


def remove_stale(folder: Path) -> None:
    """Remove the kept reports of folders no run has validated for ``cache.STALE_S`` (moved, deleted, renamed)."""
    oldest = dt.datetime.now(dt.UTC).timestamp() - cache_module.STALE_S
    try:
        cache_module.own_cache_folder(folder.name)  # nothing is removed from a folder another user could write
        listed = list(os.scandir(folder))
    except OSError:
        return
    for entry in listed:
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < oldest:
                os.unlink(entry.path)
        except OSError:
            pass
