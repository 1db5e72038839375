"""Record files as the incremental index keeps them: keys, statuses, and what loading one file gives alone.

A file's entry in the index (``registry.validate.incremental_index``) is its status and digest, with what
loading it gave where that is not simply the record its name says; a folder's listing is kept whole.
These functions turn a walk of the records folder into keys and entries and find which files of a
folder listed as kept may have changed, apart from the run that decides what to check again.
"""

from __future__ import annotations

import os
from array import array
from bisect import bisect_left
from functools import partial
from itertools import compress
from operator import is_not
from pathlib import Path
from typing import Any

from registry.errors import RecordFileError
from registry.models import Record
from registry.packed import differing
from registry.store.loader import Registry, _load_file
from registry.store.yamlio import LoadedYaml, content_digest, read_record
from registry.validate.incremental_index import as_row
from registry.validate.memo import Folder, newest_ns, tree_state
from registry.validate.report import Report


def walk(root: Path) -> list[Folder]:
    """The record files under ``root``, folder by folder, as ``memo.tree_state`` lists them."""
    folders: list[Folder] = []
    tree_state(root, folders)
    return folders


#: A record file as a run lists it: (key, parts, path, status or None for a link).
Listed = tuple[str, tuple[str, ...], str, bytes | None]


def record_files(folders: list[Folder]) -> list[Listed]:
    """(key, parts, path, status or None for a link) of every record file, in the loader's order."""
    found = [(key_prefix(folder.parts) + name, parts, path, status if status != NO_STATUS else None)
             for folder in folders for (parts, path, status), name in zip(folder.files(), folder.names, strict=True)]
    found.sort(key=lambda item: item[1])
    return found


#: The status of a file whose status is not known (a link): no file has it.
NO_STATUS = bytes(32)


def key_prefix(parts: tuple[str, ...]) -> str:
    """What the keys of a folder's files start with ('<kind>\0' for the folder of a kind)."""
    return "".join(f"{part}\0" for part in parts)


def split_names(joined: str) -> list[str]:
    return joined.split("\0") if joined else []


def kept_folders(folders: list[Folder]) -> dict[str, list[Any]]:
    """Each folder's listing as the index keeps it: its names, joined, and its files' statuses."""
    return {key_prefix(folder.parts): [folder.joined, folder.status] for folder in folders}


def suspects(kept: bytes, status: bytes, settled_before: int) -> list[int]:
    """The files of a folder listed under the names it was kept with whose status differs from the kept one
    (found by halving: two equal runs of bytes are compared at once) or is not settled, in order."""
    found = differing(kept, status, 32)
    if not settled(status, settled_before):
        times = array("q", status)
        found.update(_at_or_after(times[1::4], settled_before, unknown=0))
        found.update(_at_or_after(times[2::4], settled_before))
    return sorted(found)


def _at_or_after(column: array, moment: int, unknown: int | None = None) -> list[int]:  # type: ignore[type-arg]
    """The places in ``column`` of the values at or after ``moment`` (or equal to ``unknown``). After an edit only
    a few files of a folder of 100,000 are that recent: each value is found by the array's own search, not by a
    loop over every file in Python."""
    ordered = sorted(column)
    wanted = set(ordered[bisect_left(ordered, moment):])
    if unknown is not None and ordered and ordered[0] == unknown:
        wanted.add(unknown)
    places = []
    for value in wanted:
        at = column.index(value)
        while True:
            places.append(at)
            try:
                at = column.index(value, at + 1)
            except ValueError:
                break
    return places


def settled(status: bytes, settled_before: int) -> bool:
    """Whether every file of ``status`` (``memo.Folder.status``) is known and was last modified or changed
    before ``settled_before``: a later change within the same time stamp would not show."""
    newest = newest_ns(status)
    return newest is not None and newest < settled_before


def changed_files(files: dict[str, Any], kept: dict[str, list[Any]], folders: list[Folder], root: Path,
                  settled_before: int) -> tuple[list[Listed], list[str], bool]:
    """The files that are new or whose content may differ from the index's entries (``files``) and listings
    (``kept``), in the loader's order; those no longer there; and whether anything differs from what was kept.
    A folder listed as it was kept, none of its files modified since ``settled_before``, is passed whole: two
    comparisons of its columns, not one per file."""
    changed: list[Listed] = []
    removed: list[str] = []
    seen = set()
    dirty = False
    for folder in folders:
        prefix = key_prefix(folder.parts)
        seen.add(prefix)
        joined = folder.joined
        was = kept.get(prefix)
        if (was is not None and was[1] == folder.status and was[0] == joined and folder.newest_ns is not None
                and folder.newest_ns < settled_before):  # ``settled``, worked out once per listed folder
            continue
        dirty = True
        names = folder.names
        for i in (suspects(was[1], folder.status, settled_before) if was is not None and was[0] == joined
                  else range(len(names))):
            name = names[i]
            key, status = prefix + name, folder.status[32 * i:32 * i + 32]
            if not _same(files, key, os.path.join(folder.path, name), status, settled_before, root):
                changed.append((key, (*folder.parts, name), os.path.join(folder.path, name), status or None))
        if was is not None and was[0] != joined:
            now_there = set(names)
            removed.extend(prefix + name for name in split_names(was[0]) if name not in now_there)
    for prefix, was in kept.items():
        if prefix not in seen:
            dirty = True
            removed.extend(prefix + name for name in split_names(was[0]))
    changed.sort(key=lambda item: item[1])
    return changed, [key for key in removed if key in files], dirty


def _same(files: dict[str, Any], key: str, path: str, status: bytes, settled_before: int, root: Path) -> bool:
    """Whether the file ``key``, seen with ``status``, holds what its entry in ``files`` says (its digest decides
    where the status alone cannot: a link, or a file modified since ``settled_before``); a file touched but not
    changed gets its new status there."""
    old = files.get(key)
    if old is None or status == NO_STATUS:
        return False
    blob = old if type(old) is bytes else old[0]
    if blob[:32] == status and settled(status, settled_before):
        return True
    if len(blob) > 32 and file_digest(path, root) == blob[32:]:  # touched, not changed
        if type(old) is bytes:
            files[key] = status + blob[32:]
        else:
            old[0] = status + blob[32:]
        return True
    return False


def outcome(root: Path, key: str, path: Path, doc: LoadedYaml | RecordFileError, sig: bytes | None,
             ) -> tuple[bytes | list[Any], Record | None]:
    """What loading one file gives, alone: its entry for the index, and the record it typed (or None)."""
    scratch = Registry(root=root)
    report = Report()
    _load_file(path, doc, scratch, report)
    digest = doc.digest if isinstance(doc, LoadedYaml) else None
    blob = _status(sig) + (digest or b"")
    rows = [as_row(issue) for issue in report.issues]
    if scratch.records:
        [(record_id, record)] = scratch.records.items()
        if isinstance(doc, LoadedYaml):
            doc.data = None  # typed now; only its key lines may still be asked for
        if not rows and _named(key) == (record_id, record.kind_token):
            return blob, record
        return [blob, True, record_id, record.kind_token, rows], record
    [record_id] = scratch.failed
    return [blob, False, record_id, None, rows], None


def _status(sig: bytes | None) -> bytes:
    """A file's size, times and inode as 32 bytes (none known: zeros, which no file has)."""
    return sig or NO_STATUS


def entry_digest(entry: bytes | list[Any]) -> bytes | None:
    blob: bytes = entry if isinstance(entry, bytes) else entry[0]
    return blob[32:] or None


def _named(key: str) -> tuple[str, str] | None:
    """(id, kind) that a file's place names: '<kind>/<id>.yaml'."""
    parts = key.split("\0")
    return (parts[-1][:-5], parts[-2]) if len(parts) >= 2 and parts[-1].endswith(".yaml") else None


def id_of(key: str, entry: bytes | list[Any]) -> str:
    """The id a file typed or did not load under."""
    if isinstance(entry, bytes):
        return key[key.rfind("\0") + 1:-5]  # '<kind>\0<id>.yaml' (``_named``)
    return str(entry[2])


def folder_digests(index: dict[str, Any]) -> dict[str, tuple[str, bytes]]:
    """The record files of a valid registry's ``index``, folder by folder, as a ``registry db build`` compares
    them with what its database holds (``registry.db.manifest.Folders``): each folder's path below the records
    folder ('/' between its parts), its files' names (sorted, as listed: a NUL after each) and their contents'
    digests in that order (16 bytes each; zeros where not known). Made from the folders' listings the index keeps
    and one lookup per file: no object per file is kept."""
    files = index["files"]
    found: dict[str, tuple[str, bytes]] = {}
    for prefix, (joined, _) in index["folders"].items():
        if not joined:
            continue
        entries = map(files.__getitem__, [prefix + name for name in split_names(joined)])
        digests = b"".join((entry if type(entry) is bytes else entry[0])[32:] or UNKNOWN_DIGEST for entry in entries)
        found[prefix[:-1].replace("\0", "/")] = (f"{joined}\0", digests)
    return found


#: A digest not known, in ``folder_digests`` (``registry.db.manifest.NO_DIGEST``: no content has it).
UNKNOWN_DIGEST = bytes(16)


def file_digest(name: str, root: Path) -> bytes | None:
    try:
        raw, _ = read_record(Path(name), inside=root)
    except (OSError, RecordFileError):
        return None
    return content_digest(raw)


def path_of(root: Path, key: str) -> Path:
    return Path(os.path.join(root, *key.split("\0")))


def files_of(files: dict[str, Any], ids: set[str], prefixes: list[str], listed: list[str]) -> dict[str, list[str]]:
    """The files that typed each of ``ids``, in the loader's order. A file whose entry is its status alone typed
    the record its name says, '<folder>\0<id>.yaml' (``outcome``): it is found by name under each folder's
    ``prefixes``; the others (``listed``: the keys of entries that are lists) say the id they typed."""
    found: dict[str, list[str]] = {}
    for record_id in ids:
        for prefix in prefixes:
            key = f"{prefix}{record_id}.yaml"
            if prefix and type(files.get(key)) is bytes:
                found.setdefault(record_id, []).append(key)
    for key in listed:
        entry = files[key]
        if entry[1] and entry[2] in ids:
            found.setdefault(entry[2], []).append(key)
    return {record_id: sorted(keys) for record_id, keys in found.items()}


def list_entries(files: dict[str, Any]) -> list[str]:
    """The keys of the files whose entries are lists (what loading them gave is more than their name says), in
    the index's order: one pass over every entry, shared by what a run needs of them, made by the interpreter's
    own iterators (295,100 entries at 100,000 results)."""
    return list(compress(files.keys(), map(partial(is_not, bytes), map(type, files.values()))))
