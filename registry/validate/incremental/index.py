"""The incremental run's index: what it keeps of each file and each record, and the index on disk.

The index is what lets ``registry.validate.incremental`` check again only what an edit can change: per
file, what loading it gave; per record, what its check found and every fact it read. Its layout, the
records' entries (kept packed, opened only when read), issues as rows, and reading and writing it are
one concern apart from the run that fills it: the run, the tracked registry
(``registry.validate.incremental.tracking``) and the files' entries (``registry.validate.incremental.files``)
all read this layout.
"""

from __future__ import annotations

import datetime as dt
import hmac
import struct
from array import array
from bisect import bisect_right
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from registry.models import Record
from registry.models.fields import references_in
from registry.store import cacheformat
from registry.store.cachekey import MAC_BYTES, key_is_kept, mac_hasher
from registry.validate.incremental.files import Files
from registry.validate.memo import context, entry_path, open_entry, remove_stale, write_entry_with

#: Bump when what is kept changes meaning.
FORMAT = 5
#: The largest index read back.
MAX_INDEX_BYTES = 2 << 30

# The index is kept compact (a registry of 100,000 results has 295,100 files): an index of many small objects
# costs more to read back, and to hold, than the run it saves. A file's entry is its status and digest as 48 bytes
# where it typed the record its name says and has no issue of its own, else [those bytes, typed?, id, kind, issue
# rows]; the first kind is held in columns beside each folder's listing as the last run saw it (its names joined,
# its statuses packed, a 16-byte digest a file: ``incremental.files.Files``), so that no file costs an object, and
# a folder listed as kept is passed whole (``incremental.files.changed_files``). A record's entry (``RecordEntry``)
# is kept as MessagePack bytes in one buffer with every other record's, and opened only when read
# (``RecordEntries``). On disk the columns (the entries' buffer, each folder's names, statuses and digests) are
# written raw before the rest, and read back each straight into the object that holds it (``recall``).

#: Flags of a record (``RecordEntry.flags``): what it found names the clock; its check read the whole registry
#: (either: it is checked on every run).
NAMES_THE_CLOCK, READ_THE_WHOLE_REGISTRY = 1, 2

# The facts a record's check may read, as its entry keeps them (``RecordEntry.facts_read``): short, since every
# record keeps its own, and each one line of text, so that the records that read a fact are found by searching the
# entries' bytes for it (``RecordEntries.holding``).
#: The whole registry (a check that went through every record).
FACT_WHOLE_REGISTRY = "a"
#: The list of ids (what "did you mean" suggests from).
FACT_ID_LIST = "i"
#: Whether the registry holds records of a kind.
FACT_KINDS_HELD = "h"


def record_fact(record_id: str) -> str:
    """The fact of one record looked up: which file holds it and its content, or that none holds the id."""
    return f"r\0{record_id}"


def referrers_fact(record_id: str) -> str:
    """The fact of the records naming ``record_id`` (its back links) and their content."""
    return f"l\0{record_id}"


#: Separates the items of a joined list (an item holding it keeps the list as a list).
SEP = "\n"


class Unsure(Exception):
    """Something the kept index cannot answer exactly: the run goes in full."""



def join_items(items: list[str], *, padded: bool = False) -> str | list[str]:
    """Items as one string (fewer objects to keep and read back), or as a list where one holds the separator."""
    if any(SEP in item for item in items):
        return items
    text = SEP.join(items)
    return f"{SEP}{text}{SEP}" if padded and items else text


def split_items(joined: str | list[str]) -> list[str]:
    return joined if isinstance(joined, list) else joined.strip(SEP).split(SEP) if joined else []


def referenced_ids(record: Record) -> list[str]:
    return sorted({value for _, value, _ in references_in(record)})


# -- records' entries as kept --------------------------------------------------------------------


def _field(place: int, doc: str) -> Any:
    return property(lambda entry: entry[place], lambda entry, value: entry.__setitem__(place, value), doc=doc)


class RecordEntry(list):  # type: ignore[type-arg]
    """What the index keeps of one record, read and written by name. It is a list in the order of ``FIELDS``, which
    is how MessagePack keeps it (without the names: an index holds one for every record)."""

    __slots__ = ()
    FIELDS = ("loader_order", "file", "kind", "references", "facts_read", "issues", "unchecked",
              "suggestions_asked", "flags")

    loader_order = _field(0, "The key of the first file that typed its id, where that is not the file holding it.")
    file = _field(1, "The key of the file that holds it, where that is not '<kind>/<id>.yaml'.")
    kind = _field(2, "The record's kind token.")
    references = _field(3, "The ids it references (``join_items``).")
    facts_read = _field(4, "Every fact its checks read (``join_items``, padded): ``record_fact``, ``FACT_ID_LIST``...")
    issues = _field(5, "What its checks found, as issue rows (``incremental.files.as_row``); None where nothing.")
    unchecked = _field(6, "{id that did not load: how many of its references went unchecked}; None where none.")
    suggestions_asked = _field(7, "The ids its checks asked suggestions for; None where none.")
    flags = _field(8, "``NAMES_THE_CLOCK`` and ``READ_THE_WHOLE_REGISTRY``, or-ed.")

    @classmethod
    def new(cls, *, kind: str, references: str | list[str], loader_order: str | None = None, file: str | None = None,
            facts_read: str | list[str] = "", issues: list[Any] | None = None, unchecked: dict[str, int] | None = None,
            suggestions_asked: list[str] | None = None, flags: int = 0) -> RecordEntry:
        """An entry with the fields given (one made for every record of a full run: kept cheap)."""
        return cls((loader_order, file, kind, references, facts_read, issues, unchecked, suggestions_asked, flags))


class RecordEntries(dict):  # type: ignore[type-arg]
    """Every record's entry by id, opened (into the list that the run's ``_check`` and ``_settle`` write:
    ``registry.validate.incremental``) only when asked for, so that a run after one edit builds objects for the
    records it reads, not for all of them. The entries as kept are one buffer (``entries``: each entry's
    MessagePack bytes one after the other, ``ends`` where each ends): a record not opened holds its place in it,
    an int, not an object of its own, and a search of the entries (``holding``) reads the buffer where it lies.
    What a run needs of every record (its kind, whether it is checked every run, the ids it asked suggestions
    for, its findings) is kept beside them (``summary``), and taken from there for every record not opened in
    this run."""

    def __init__(self, ids: list[str] | None = None, entries: bytes = b"", ends: bytes = b"",
                 summary: dict[str, Any] | None = None) -> None:
        places = ids or []
        super().__init__(zip(places, range(len(places)), strict=True))
        #: The id at each place of the buffer, and where each entry ends in it.
        self._ids = places
        self._entries = entries
        self._ends = array("q", ends)
        if not len(self) == len(self._ends) == len(places) or (places and self._ends[-1] != len(entries)):
            raise Unsure("the kept entries do not match their ids")
        kept = summary or {}
        self.kept_kinds: dict[str, int] = kept.get("kinds", {})
        self.kept: dict[str, dict[str, Any]] = {name: kept.get(name, {}) for name in _SUMMARIES}
        #: The entry as kept (None: none) of each record opened, replaced or removed since the index was recalled.
        self.opened: dict[str, RecordEntry | None] = {}

    def _kept_entry(self, place: int) -> bytes:
        return self._entries[self._ends[place - 1] if place else 0:self._ends[place]]

    def _open(self, record_id: str) -> None:
        if record_id not in self.opened:
            value = dict.get(self, record_id)
            self.opened[record_id] = (_unpacked(self._kept_entry(value)) if type(value) is int
                                      else None if value is None else RecordEntry(value))

    def __getitem__(self, record_id: str) -> RecordEntry:
        value = dict.__getitem__(self, record_id)
        if type(value) is int:
            self._open(record_id)
            value = _unpacked(self._kept_entry(value))
            dict.__setitem__(self, record_id, value)
        return value  # type: ignore[no-any-return]

    def get(self, record_id: str, default: Any = None) -> Any:
        return self[record_id] if dict.__contains__(self, record_id) else default

    def __setitem__(self, record_id: str, entry: RecordEntry) -> None:
        self._open(record_id)
        dict.__setitem__(self, record_id, entry if type(entry) is RecordEntry else RecordEntry(entry))

    def pop(self, record_id: str, default: Any = None) -> Any:
        if not dict.__contains__(self, record_id):
            return default
        entry = self[record_id]
        dict.pop(self, record_id)
        return entry

    def values(self) -> Any:
        return [self[record_id] for record_id in self]

    def items(self) -> Any:
        return [(record_id, self[record_id]) for record_id in self]

    def open_ids(self) -> list[str]:
        """The ids of the records held whose entries are open (a ``RecordEntry``, not a place in the buffer) now."""
        return [record_id for record_id in self.opened if type(dict.get(self, record_id)) is RecordEntry]

    def holding(self, needle: bytes) -> list[str]:
        """The ids of the records whose entries, as kept and not opened since, hold ``needle``: one search of the
        buffer (a match across two entries costs a check, never a miss)."""
        entries, ends, ids = self._entries, self._ends, self._ids
        found = []
        at = entries.find(needle)
        while at != -1:
            place = bisect_right(ends, at)
            record_id = ids[place]
            value = dict.get(self, record_id)
            if type(value) is int and value == place:
                found.append(record_id)
            at = entries.find(needle, ends[place])
        return found

    def counts(self) -> dict[str, int]:
        """How many records of each kind are held: as kept, less what the records opened in this run were, plus
        what they are."""
        counts = dict(self.kept_kinds)
        for record_id, was in self.opened.items():
            if was is not None:
                counts[was.kind] -= 1
            if dict.__contains__(self, record_id):
                kind = self[record_id].kind
                counts[kind] = counts.get(kind, 0) + 1
        return {kind: count for kind, count in counts.items() if count > 0}

    def kinds(self) -> set[str]:
        """The kinds of the records held."""
        return set(self.counts())

    def summary(self, name: str) -> dict[str, Any]:
        """One of ``_SUMMARIES`` over every record: as kept, but for the records opened in this run."""
        found = {record_id: value for record_id, value in self.kept[name].items() if record_id not in self.opened}
        pick = _SUMMARIES[name]
        for record_id in self.opened:
            if dict.__contains__(self, record_id):
                value = pick(self[record_id])
                if value is not None:
                    found[record_id] = value
        return found

    def kept_form(self) -> tuple[list[str], list[bytes | memoryview], bytes, dict[str, Any]]:
        """The entries as the index keeps them: the ids in order, the buffer as pieces to write one after the other
        (the entries kept and not opened, in runs of the buffer as it is: never a second buffer in memory), where
        each entry ends in it, and the summary."""
        ids = list(dict.keys(self))
        pieces: list[bytes | memoryview] = []
        ends = array("q")
        buffer = memoryview(self._entries)
        size = run_start = run_end = 0
        for value in dict.values(self):
            if type(value) is int:
                start, end = (self._ends[value - 1] if value else 0), self._ends[value]
                if start != run_end:
                    pieces.append(buffer[run_start:run_end])
                    run_start = start
                run_end = end
                size += end - start
            else:
                pieces.append(buffer[run_start:run_end])
                run_start = run_end = 0
                packed = _packed(value)
                pieces.append(packed)
                size += len(packed)
            ends.append(size)
        pieces.append(buffer[run_start:run_end])
        summary: dict[str, Any] = {"kinds": self.counts()}
        summary.update((name, self.summary(name)) for name in _SUMMARIES)
        return ids, [piece for piece in pieces if len(piece)], ends.tobytes(), summary


def _unpacked(value: bytes) -> RecordEntry:
    return RecordEntry(cacheformat.unpack(value))


def _packed(entry: RecordEntry) -> bytes:
    return cacheformat.pack(list(entry))  # the plain list MessagePack keeps


#: What is kept of every record beside its entry: whether it is checked on every run, the suggestions it
#: asked for, its findings, and whether what it read is kept as a list (which a search of its bytes cannot find).
_SUMMARIES: dict[str, Callable[[RecordEntry], Any]] = {
    "flags": lambda entry: entry.flags or None,
    "asked": lambda entry: entry.suggestions_asked,
    "issues": lambda entry: entry.issues,
    "unchecked": lambda entry: entry.unchecked,
    "listed": lambda entry: 1 if type(entry.facts_read) is list else None,
}


# -- the index on disk ---------------------------------------------------------------------------


def empty_index() -> dict[str, Any]:
    return {"format": FORMAT, "files": Files(), "records": RecordEntries(), "dups": {}, "failed": {}}


def _entry_path(root: Path) -> Path:
    return entry_path(root, "incremental", ".msgpack")


def _context(root: Path) -> bytes:
    return context(root, "incremental", str(FORMAT))


def _columns_subject(root: Path) -> bytes:
    return b"columns\0" + _context(root)


#: Before the index's MessagePack: the MAC of its columns (written raw: ``keep``) and their length.
_PREFIX = struct.Struct(f"<{MAC_BYTES}sQ")


def recall(root: Path) -> dict[str, Any] | None:
    """The index kept for ``root`` by this code, or None (none, damaged, or another user's).

    The file is the MAC and length of the index's columns, the columns (the records' entries, then each folder's
    names, statuses and digests) as raw bytes, then the rest of the index as MessagePack behind its own MAC
    (``keep``). The rest is read and decoded first and its bytes let go, then each column is read into the one
    object that keeps it: the file's bytes and what they decode to are never in memory at once."""
    try:
        with open_entry(_entry_path(root)) as file:
            columns_mac, size = _PREFIX.unpack(file.read(_PREFIX.size))
            if size > MAX_INDEX_BYTES:
                return None
            file.seek(_PREFIX.size + size)
            payload = file.read(MAX_INDEX_BYTES + 1)
            if len(payload) > MAX_INDEX_BYTES:
                return None
            index = cacheformat.decode(b"incremental", payload, _context(root))
            del payload
            if not isinstance(index, dict) or index.get("format") != FORMAT:
                return None
            ids, ends, entries_size = index["records"]
            sizes, odd, plain = index["files"]
            if entries_size + sum(map(sum, sizes.values())) != size:
                return None
            file.seek(_PREFIX.size)
            check = mac_hasher(_columns_subject(root))

            def column(length: int) -> bytes:
                found = file.read(length)
                if len(found) != length:
                    raise ValueError("the index ends early")
                check.update(found)
                return found

            entries = column(entries_size)
            folders = {prefix: [column(names).decode("utf-8", "surrogatepass"), column(status), column(digests)]
                       for prefix, (names, status, digests) in sizes.items()}
        if not hmac.compare_digest(check.digest(), columns_mac):
            return None
        index["files"] = Files(folders, odd, plain)
        index["records"] = RecordEntries(ids, entries, ends, index.pop("summary"))
        return index
    except (OSError, KeyError, TypeError, ValueError, struct.error, Unsure, cacheformat.CorruptEntry):
        return None


def keep(root: Path, index: dict[str, Any], now: dt.datetime, started: int) -> None:
    """Write ``index`` for the next run (a temporary file renamed into place); a cache that cannot be written
    costs the next run its time, never its result."""
    path = _entry_path(root)
    remove_stale(path.parent)  # the indexes of folders no run has validated for two weeks (moved, deleted)
    if not key_is_kept():
        return
    ids, pieces, ends, summary = index["records"].kept_form()
    folders, odd, plain = index["files"].kept_form()
    entries_size = sum(map(len, pieces))
    columns = {prefix: [joined.encode("utf-8", "surrogatepass"), status, digests]
               for prefix, (joined, status, digests) in folders.items()}
    sizes = {prefix: [len(part) for part in parts] for prefix, parts in columns.items()}
    kept = {**index, "files": [sizes, odd, plain], "records": [ids, ends, entries_size], "summary": summary,
            "now": now.isoformat(), "at_ns": started}

    def write(file: BinaryIO) -> None:
        file.write(bytes(_PREFIX.size))  # the columns' MAC and length, written once they are
        check, size = mac_hasher(_columns_subject(root)), 0
        for piece in [*pieces, *(part for parts in columns.values() for part in parts)]:
            check.update(piece)
            file.write(piece)
            size += len(piece)
        cacheformat.write_encoded(file, b"incremental", kept, _context(root))
        file.seek(0)
        file.write(_PREFIX.pack(check.digest(), size))

    try:
        write_entry_with(path, write)
    except OSError:
        pass
