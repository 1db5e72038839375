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
under the cache's per-user key (``registry.store.cache``), written to a temporary file renamed into place.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from registry.store import cache as cache_module
from registry.store.filetypes import RECORD_SUFFIXES
from registry.validate import codes
from registry.validate.report import Issue, Report, Severity

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


def tree_state(root: Path, records: list[Any] | None = None) -> Tree:
    """A digest of every entry under ``root`` (sorted walk, links not followed but their targets described).

    With ``records``, each record file seen on the way is added to it as (parts below root, path, (size,
    modification and change times, inode); None for a link), the files ``loader.scan_record_files`` would
    yield: the incremental run needs no second walk.
    """
    digest = hashlib.blake2b(digest_size=32)
    newest = 0
    pending: list[tuple[str, str, tuple[str, ...] | None]] = [(str(root), "", ())]
    while pending:
        folder, shown, parts = pending.pop()
        try:
            with os.scandir(folder) as entries:
                listed = sorted(entries, key=lambda entry: entry.name)
        except OSError as exc:
            digest.update(f"unreadable\0{shown}\0{exc.errno}\n".encode("utf-8", "surrogatepass"))
            continue
        for entry in reversed(listed):  # popped in name order
            name = f"{shown}/{entry.name}"
            try:
                status = entry.stat(follow_symlinks=False)
            except OSError as exc:
                digest.update(f"gone\0{name}\0{exc.errno}\n".encode("utf-8", "surrogatepass"))
                continue
            newest = max(newest, status.st_mtime_ns, status.st_ctime_ns)
            line = (f"{name}\0{status.st_mode}\0{status.st_size}\0{status.st_mtime_ns}\0{status.st_ctime_ns}\0"
                    f"{status.st_ino}")
            inner = None if parts is None or entry.name.startswith(".") else (*parts, entry.name)  # hidden: no records
            if stat.S_ISLNK(status.st_mode):
                line += f"\0{_link(entry.path)}"
            elif stat.S_ISDIR(status.st_mode):
                pending.append((entry.path, name, inner))
            if records is not None and inner is not None and entry.name.endswith(RECORD_SUFFIXES):
                _record_file(records, entry, inner, status)
            digest.update(f"{line}\n".encode("utf-8", "surrogatepass"))
    return Tree(digest.hexdigest(), newest)


def _record_file(records: list[Any], entry: os.DirEntry[str], parts: tuple[str, ...], status: os.stat_result,
                 ) -> None:
    """Add a record file as ``loader.scan_record_files`` tells them (a file, or a link to one)."""
    if stat.S_ISREG(status.st_mode):
        records.append((parts, entry.path, (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)))
        return
    try:
        if stat.S_ISLNK(status.st_mode) and entry.is_file():
            records.append((parts, entry.path, None))
    except OSError:
        pass


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


def write_entry(path: Path, payload: bytes) -> None:
    """Put a kept entry in place: a temporary file beside it renamed over it, in a folder only its user reads.

    No fsync: an entry lost in a crash costs the next run its time, never its result. Raises OSError.
    """
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(payload)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _entry_path(root: Path) -> Path:
    return entry_path(root, "reports", ".json")


def _context(root: Path) -> bytes:
    return context(root, "report")


def recall(root: Path, tree: Tree, now: dt.datetime) -> Report | None:
    """The report kept for ``root`` if it is exactly what a run now would give (see the module's docstring)."""
    path = _entry_path(root)
    try:
        with open(path, "rb") as file:
            payload = file.read(MAX_ENTRY_BYTES + 1)
        if len(payload) > MAX_ENTRY_BYTES:
            return None
        entry = cache_module.decode(tree.digest.encode(), payload, _context(root))
        kept_at = dt.datetime.fromisoformat(entry["now"])
        if (entry["format"] != FORMAT or entry["tree"] != tree.digest or now < kept_at
                or now.astimezone(dt.UTC).date() != kept_at.astimezone(dt.UTC).date()):
            return None
        report = Report(files=entry["files"], records=entry["records"])
        for item in entry["issues"]:
            report.add(Issue(item["file"], item["line"], item["code"], item["message"], Severity(item["severity"]),
                             item["record_id"], item["field"]))
        return report
    except (OSError, ValueError, KeyError, TypeError, cache_module.CorruptEntry):
        return None


def keep(root: Path, tree: Tree, now: dt.datetime, report: Report) -> None:
    """Keep ``report`` for ``root`` where a later run may take it exactly; otherwise remove what was kept."""
    path = _entry_path(root)
    remove_stale(path.parent)
    reusable = (tree.newest_ns < now.timestamp() * 1e9 - RACY_NS
                and not any(issue.code in UNSETTLED_CODES for issue in report.issues) and cache_module.key_is_kept())
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
        write_entry(path, cache_module.encode(tree.digest.encode(), entry, _context(root)))
    except OSError:
        pass  # a cache that cannot be written costs the next run its time, never its result


def remove_stale(folder: Path) -> None:
    """Remove the kept reports of folders no run has validated for ``cache.STALE_S`` (moved, deleted, renamed)."""
    oldest = dt.datetime.now(dt.UTC).timestamp() - cache_module.STALE_S
    try:
        listed = list(os.scandir(folder))
    except OSError:
        return
    for entry in listed:
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < oldest:
                os.unlink(entry.path)
        except OSError:
            pass
