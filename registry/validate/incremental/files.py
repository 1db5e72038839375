"""Record files as the incremental index keeps them: keys, statuses, and what loading one file gives alone.

A file's entry in the index (``registry.validate.incremental.index``) is its status and digest, with what
loading it gave where that is not simply the record its name says; a folder's listing is kept whole.
These functions turn a walk of the records folder into keys and entries and find which files of a
folder listed as kept may have changed, apart from the run that decides what to check again.
"""

from __future__ import annotations

import os
from array import array
from bisect import bisect_left
from pathlib import Path
from typing import Any

from registry.errors import RecordFileError
from registry.issues.report import Issue, Report, Severity
from registry.models import Record
from registry.packed import differing, places_of
from registry.store.loader import Registry, _load_file
from registry.store.typedfiles import Typed
from registry.store.yamlio import LoadedYaml, content_digest, read_record
from registry.validate.memo import Folder, newest_ns, tree_state

# -- issues as kept ------------------------------------------------------------------------------


def as_row(issue: Issue) -> list[Any]:
    return [issue.file, issue.line, issue.code, issue.message, issue.severity.value, issue.record_id, issue.field]


def from_row(row: list[Any]) -> Issue:
    return Issue(row[0], row[1], row[2], row[3], Severity(row[4]), row[5], row[6])


# -- files and folders ---------------------------------------------------------------------------


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


#: A plain file entry's content digest where its column holds none.
NO_DIGEST = bytes(16)


class Files:
    """Every record file's entry (``outcome``) by key, kept as columns beside each folder's listing: a 295,100-file
    registry must not hold an object per file. Each folder's listing as the last run saw it (``folders``: its names
    joined, its files' statuses packed, and a column of 16-byte content digests) holds the entries that are the
    file's status and digest alone (``outcome``'s bytes: most of them), the status being the listing's; the others
    are kept by key (``odd``: the lists; ``plain``: bytes entries the columns cannot hold: no digest known, a status
    other than the listing's, a folder not listed). ``settle`` lines the columns up with a new listing at the end
    of a run; until then a key deleted is hidden from them (``gone``). Read and written as a mapping by key."""

    def __init__(self, folders: dict[str, list[Any]] | None = None, odd: dict[str, list[Any]] | None = None,
                 plain: dict[str, bytes] | None = None) -> None:
        #: Per folder ('<kind>\0'): [names joined by NUL, statuses (32 bytes a file), digests (16 bytes a file)].
        self.folders: dict[str, list[Any]] = {prefix: [joined, status, bytearray(digests)]
                                              for prefix, (joined, status, digests) in (folders or {}).items()}
        self.odd: dict[str, list[Any]] = odd or {}
        self.plain: dict[str, bytes] = plain or {}
        self.gone: set[str] = set()
        #: Each folder's names as a list, where one is at hand (the listing's) or was split once.
        self._names: dict[str, list[str]] = {}

    def use_names(self, folders: list[Folder]) -> None:
        """Look names up in the listing's own lists where a folder's names are as the columns have them, and hold
        one copy of the names and statuses that are the listing's (not a second one read back from the index)."""
        for folder in folders:
            kept = self.folders.get(key_prefix(folder.parts))
            if kept is not None and kept[0] == folder.joined:
                self._names[key_prefix(folder.parts)] = folder.names
                kept[0] = folder.joined
                if kept[1] == folder.status:
                    kept[1] = folder.status

    def _place(self, prefix: str, name: str) -> int | None:
        """Where ``name`` is in the folder's columns (None: not there)."""
        names = self._names.get(prefix)
        if names is None:
            names = self._names[prefix] = split_names(self.folders[prefix][0])
        at = bisect_left(names, name)
        return at if at < len(names) and names[at] == name else None

    def _column(self, key: str) -> tuple[list[Any], int] | None:
        """The folder's columns and the file's place in them."""
        cut = key.rfind("\0") + 1
        kept = self.folders.get(key[:cut])
        if kept is None:
            return None
        at = self._place(key[:cut], key[cut:])
        return None if at is None else (kept, at)

    def get(self, key: str, default: Any = None) -> Any:
        listed = self.odd.get(key)
        if listed is not None:
            return listed
        blob = self.plain.get(key)
        if blob is not None:
            return blob
        if key in self.gone:
            return default
        column = self._column(key)
        if column is None:
            return default
        (_, status, digests), at = column
        digest = digests[16 * at:16 * at + 16]
        return default if digest == NO_DIGEST else status[32 * at:32 * at + 32] + bytes(digest)

    def __getitem__(self, key: str) -> Any:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __setitem__(self, key: str, entry: bytes | list[Any]) -> None:
        self._hide(key)
        if type(entry) is list:
            self.odd[key] = entry
            return
        column = self._column(key)
        if column is not None and len(entry) == 48 and entry[32:] != NO_DIGEST:
            (_, status, digests), at = column
            if status[32 * at:32 * at + 32] == entry[:32]:
                digests[16 * at:16 * at + 16] = entry[32:]
                self.gone.discard(key)
                return
        self.plain[key] = entry  # type: ignore[assignment]

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        self._hide(key)

    def _hide(self, key: str) -> None:
        """No entry for ``key`` any more, until one is set."""
        self.odd.pop(key, None)
        self.plain.pop(key, None)
        self.gone.add(key)

    def update(self, entries: dict[str, Any]) -> None:
        for key, entry in entries.items():
            self[key] = entry

    def suspects(self, prefix: str, folder: Folder, settled_before: int) -> list[int]:
        """The places in ``folder``, listed under other names than the folder's columns, of the files whose entries
        the columns do not vouch for (``changed_files``): a name new to the folder, a status other than the column's
        or not settled, an entry not in the column. The names both hold are lined up as sets, and their statuses
        compared in runs (``differing``): a file added, removed or renamed in a folder of 100,000 costs no step per
        file in Python beyond building those lists."""
        kept = self.folders[prefix]
        old_names = self._names.get(prefix) or split_names(kept[0])
        names = folder.names
        new_only = set(names).difference(old_names)
        old_only = set(old_names).difference(names)
        here = [at for at, name in enumerate(names) if name not in new_only]
        there = [at for at, name in enumerate(old_names) if name not in old_only]
        status, old_status, old_digests = folder.status, kept[1], kept[2]
        found = {at for at, name in enumerate(names) if name in new_only}
        found.update(here[k] for k in differing(b"".join([old_status[32 * at:32 * at + 32] for at in there]),
                                                b"".join([status[32 * at:32 * at + 32] for at in here]), 32))
        digests = b"".join([old_digests[16 * at:16 * at + 16] for at in there])
        found.update(here[at] for at in places_of(NO_DIGEST, digests))
        for key in (*self.odd, *self.plain, *self.gone):
            if key.startswith(prefix) and "\0" not in key[len(prefix):]:
                place = bisect_left(names, key[len(prefix):])
                if place < len(names) and names[place] == key[len(prefix):]:
                    found.add(place)
        if not (folder.newest_ns is not None and folder.newest_ns < settled_before):
            times = array("q", status)
            found.update(_at_or_after(times[1::4], settled_before, unknown=0))
            found.update(_at_or_after(times[2::4], settled_before))
        return sorted(found)

    def columns(self) -> list[tuple[str, list[str], bytes, bytearray]]:
        """(prefix, names, statuses, digests) of each folder's columns, the entries deleted since left out."""
        found = []
        for prefix, (_, status, digests) in self.folders.items():
            names = self._names.get(prefix) or split_names(self.folders[prefix][0])
            hidden = [key for key in self.gone if key.startswith(prefix) and "\0" not in key[len(prefix):]]
            if hidden:
                digests = bytearray(digests)
                for key in hidden:
                    at = self._place(prefix, key[len(prefix):])
                    if at is not None:
                        digests[16 * at:16 * at + 16] = NO_DIGEST
            found.append((prefix, names, status, digests))
        return found

    def settle(self, listing: list[Folder]) -> None:
        """Line the columns up with ``listing`` (the folders as this run listed them), moving what the entries set
        in this run hold into them where they can: the entries stay exactly what they were."""
        pending: dict[str, list[str]] = {}
        for key in {*self.plain, *self.gone}:
            pending.setdefault(key[:key.rfind("\0") + 1], []).append(key)
        folders: dict[str, list[Any]] = {}
        names: dict[str, list[str]] = {}
        for folder in listing:
            prefix = key_prefix(folder.parts)
            kept = self.folders.get(prefix)
            names[prefix] = folder.names
            if kept is not None and prefix not in pending and kept[0] == folder.joined and kept[1] == folder.status:
                folders[prefix] = [folder.joined, folder.status, kept[2]]
                continue
            if kept is not None and kept[0] == folder.joined:
                digests = self._moved(prefix, kept, folder, pending.get(prefix, []))
            else:
                digests = bytearray(16 * len(folder.names))
                if kept is not None:
                    self._carry(prefix, kept, folder, digests)
            folders[prefix] = [folder.joined, folder.status, digests]
        for prefix, kept in self.folders.items():
            if prefix not in folders:  # a folder no longer listed: what its columns held stays, by key
                self._carry(prefix, kept, None, bytearray())
        self.folders, self._names, self.gone = folders, names, set()
        for key in [key for keys in pending.values() for key in keys if key in self.plain]:
            entry = self.plain.pop(key)
            self[key] = entry

    def _moved(self, prefix: str, kept: list[Any], folder: Folder, pending: list[str]) -> bytearray:
        """``kept``'s digests for ``folder``, whose names are ``kept``'s: the entries whose status changed, and those
        deleted or set since (``pending``), taken out (the ones set are put back once the columns are lined up)."""
        digests = bytearray(kept[2])
        for at in differing(kept[1], folder.status, 32):
            digest = digests[16 * at:16 * at + 16]
            key = prefix + folder.names[at]
            if digest != NO_DIGEST and key not in self.gone and key not in self.plain and key not in self.odd:
                self.plain[key] = kept[1][32 * at:32 * at + 32] + bytes(digest)
            digests[16 * at:16 * at + 16] = NO_DIGEST
        for key in pending:
            place = self._place(prefix, key[len(prefix):])
            if place is not None:
                digests[16 * place:16 * place + 16] = NO_DIGEST
        return digests

    def _carry(self, prefix: str, kept: list[Any], folder: Folder | None, digests: bytearray) -> None:
        """Put the entries of ``kept``'s columns into ``digests`` (the columns of ``folder``'s listing), each at its
        name's place where its status is the listing's; any other, by key in ``plain``."""
        old_names = self._names.get(prefix) or split_names(kept[0])
        names = folder.names if folder is not None else []
        status = folder.status if folder is not None else b""
        at = 0
        for old_at, name in enumerate(old_names):
            digest = kept[2][16 * old_at:16 * old_at + 16]
            key = prefix + name
            if digest == NO_DIGEST or key in self.gone or key in self.plain or key in self.odd:
                continue
            old_status = kept[1][32 * old_at:32 * old_at + 32]
            while at < len(names) and names[at] < name:
                at += 1
            if at < len(names) and names[at] == name and status[32 * at:32 * at + 32] == old_status:
                digests[16 * at:16 * at + 16] = digest
            else:
                self.plain[key] = old_status + bytes(digest)

    def folder_digests(self) -> dict[str, tuple[str, bytes]]:
        """Each listed folder's files as a ``registry db build`` compares them with what its database holds
        (``registry.db.manifest.Folders``): the folder's path below the records folder ('/' between its parts),
        its files' names (sorted, as listed: a NUL after each) and their contents' digests in that order (16 bytes
        each, from whatever entry the file has; ``NO_DIGEST`` where none is known). The columns as they are,
        with the few entries kept by key put in their places: no object per file."""
        by_prefix: dict[str, list[str]] = {}
        for key in (*self.plain, *self.odd):
            by_prefix.setdefault(key[:key.rfind("\0") + 1], []).append(key)
        found: dict[str, tuple[str, bytes]] = {}
        for prefix, names, _, digests in self.columns():
            if not names:
                continue
            column = bytearray(digests)
            for key in by_prefix.get(prefix, ()):
                at = self._place(prefix, key[len(prefix):])
                if at is not None:
                    blob: bytes = self.plain[key] if key in self.plain else self.odd[key][0]
                    column[16 * at:16 * at + 16] = blob[32:] or NO_DIGEST
            found[prefix[:-1].replace("\0", "/")] = (f"{self.folders[prefix][0]}\0", bytes(column))
        return found

    def kept_form(self) -> tuple[dict[str, list[Any]], dict[str, list[Any]], dict[str, bytes]]:
        """The columns, the lists and the other entries, as the index keeps them (``settle`` first)."""
        return ({prefix: [joined, status, bytes(digests)] for prefix, (joined, status, digests) in
                 self.folders.items()}, self.odd, self.plain)


def suspects(kept: bytes, status: bytes, settled_before: int) -> list[int]:
    """The files of a folder listed under the names it was kept with whose status differs from the kept one
    (found by halving: two equal runs of bytes are compared at once) or is not settled, in order."""
    found = set(differing(kept, status, 32))
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
    first = bisect_left(ordered, moment)
    if first == 0:
        return list(range(len(column)))  # every one (``--verify``: no moment is early enough)
    wanted = set(ordered[first:])
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


def changed_files(files: Files, kept: dict[str, list[Any]], folders: list[Folder], root: Path,
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
        for i in (range(len(names)) if was is None else suspects(was[1], folder.status, settled_before)
                  if was[0] == joined else files.suspects(prefix, folder, settled_before)):
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


def _same(files: Files, key: str, path: str, status: bytes, settled_before: int, root: Path) -> bool:
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


def outcome(root: Path, key: str, path: Path, doc: LoadedYaml | RecordFileError | Typed, sig: bytes | None,
             ) -> tuple[bytes | list[Any], Record | None]:
    """What loading one file gives, alone: its entry for the index, and the record it typed (or None)."""
    scratch = Registry(root=root)
    report = Report()
    _load_file(path, doc, scratch, report)
    if type(doc) is Typed:
        doc = doc.doc
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




def file_digest(name: str, root: Path) -> bytes | None:
    try:
        raw, _ = read_record(Path(name), inside=root)
    except (OSError, RecordFileError):
        return None
    return content_digest(raw)


def path_of(root: Path, key: str) -> Path:
    return Path(os.path.join(root, *key.split("\0")))


def files_of(files: Files, ids: set[str], prefixes: list[str], listed: list[str]) -> dict[str, list[str]]:
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


def list_entries(files: Files) -> list[str]:
    """The keys of the files whose entries are lists (what loading them gave is more than their name says)."""
    return list(files.odd)
