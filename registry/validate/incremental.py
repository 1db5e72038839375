"""Exact incremental validation: a run after an edit reads and checks again only what the edit can change.

The report is always exactly what a cold run over the whole registry gives (``checks.validate``); what
the last run found is used again only where everything it read is as it was, as in ``registry.validate.memo``:

- **per file**, kept by its path with its size, times, inode and content digest: what loading it gave
  (the id of the record it typed, or the id it did not load under) and its own issues (parse, schema).
  A file whose status is unchanged is not read; one changed within ``RACY_NS`` of the run that kept it,
  or a link, is read and its digest decides.
- **per id**, worked out from the files alone: which file holds it where several do (the loader's rule,
  ``loader._duplicate``, run again for every id a changed file held or holds), the files that did not
  load under it, and its place in the loader's order (the first file that typed it).
- **per record**, what ``checks.check_record`` found, with every fact it read through the registry
  (``_Tracked``): each record it looked up (which file holds it and that file's content, or that none
  does, or that it did not load), each record's back links it asked for (``links_to``: the records
  naming it and their content), whether it listed ids (for "did you mean"), whether the registry holds a
  correction or retraction. It is kept while none of those changed; a record whose check went through
  the whole registry is checked on every run.
- **the clock**: findings that name now or today (``CLOCK_CODES``: a date in the future, an id's date
  that is no day) are worked out on every run; every other finding stays exact as time moves forward (a
  date in the past stays there). A clock set back runs in full.

The rules over the whole folder (``rules_registry.registry_rules``) and the warning on a record that did not
load (``checks.report_unchecked``) run on every run, from what is kept. Anything this cannot answer
exactly (another code version, folder or working folder; a damaged entry or one under another key; a
file changed between being listed and read; more than ``_Suggestions.LIMIT`` ids to suggest for, where
a cold run's order decides which get a suggestion) runs in full, and keeps what that run found. The
index lives beside the parse cache (one file per records folder, MessagePack behind the cache's MAC,
written to a temporary file renamed into place).
"""

from __future__ import annotations

import datetime as dt
import os
import time
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator
from itertools import accumulate
from pathlib import Path
from typing import Any

from registry.errors import RecordFileError
from registry.models import KIND_MODELS, Record
from registry.models.fields import references_in
from registry.models.unit import UnitRecord
from registry.store import cache as cache_module
from registry.store import cacheformat
from registry.store.cache import ParseCache
from registry.store.cachekey import key_is_kept
from registry.store.collector import gc_paused
from registry.store.loader import R, Registry, _duplicate, _load_file, no_records
from registry.store.reading import documents
from registry.store.yamlio import LoadedYaml, content_digest, read_record
from registry.units import BUILT_IN, UnitTable, use
from registry.validate import codes
from registry.validate import runner as checks
from registry.validate.memo import Folder, context, entry_path, remove_stale, tree_state, write_entry
from registry.validate.report import Issue, Report, Severity

#: Bump when what is kept changes meaning.
FORMAT = 3
#: Findings whose words or presence depend on the moment of the run: worked out again on every run.
CLOCK_CODES = frozenset({codes.DATE_IN_FUTURE.code, codes.ID_DATE_IN_FUTURE.code, codes.ID_DATE_INVALID.code})
#: A file modified this close to the run that kept it may change again unseen within the same time stamp.
RACY_NS = cache_module.RACY_NS
#: The largest index read back.
MAX_INDEX_BYTES = 2 << 30

# The index is kept compact (a registry of 100,000 results has 295,100 files): an index of many small objects
# costs more to read back than the run it saves. A file's entry is its status and digest as 48 bytes (``_blob``)
# where it typed the record its name says and has no issue of its own, else [those bytes, typed?, id, kind, issue
# rows]; each folder's listing as the last run saw it is kept too (its names joined, its statuses packed), so that
# a folder listed as kept is passed whole (``_Run._changed``). A record's entry, kept as its own MessagePack bytes
# and opened only when read (``_Units``), is [place in the loader's order (None: its file's), its file (None:
# '<kind>/<id>.yaml'), kind, referenced ids and facts read (each one string, ``_joined``), issue rows, {unloaded
# id: references}, suggestions asked (None where empty), FLAGS].
ORDER, FILE, UKIND, REFS, READS, UISSUES, UNCHECKED, ASKED, FLAGS = range(9)
#: Flags of a record: what it found names the clock; its check read the whole registry (both: checked every run).
CLOCK, WHOLE = 1, 2
#: Facts besides a record's (``r``) and back links' (``l``): the whole registry, the list of ids, "holds a kind".
ALL, IDS, HOLDS = "a", "i", "h"
#: Separates the items of a joined list (an item holding it keeps the list as a list).
SEP = "\n"


#: What the last run in this process did: "full" or "incremental", files read, records checked (for tests and
#: benchmarks: they show which path ran).
last_run: dict[str, Any] = {}


#: The kind of a unit record (``registry.models.unit``), whose units every result's checks read.
UNIT_KIND = UnitRecord.kind_token


class _Store:
    """The parse cache, opened only when a file must be read: opening and closing it settles every row it holds
    (about 0.9 of the 1.4 processor seconds of a run that reads nothing, at 10,000 results)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.store: ParseCache | None = None
        self.tried = False

    def opened(self) -> ParseCache | None:
        if not self.tried:
            self.tried = True
            self.store = ParseCache.open(self.root)
        return self.store

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


class Unsure(Exception):
    """Something the kept index cannot answer exactly: the run goes in full."""


def validate(root: Path, now: dt.datetime, listed: list[Folder] | None = None) -> Report:
    """The report of ``root`` exactly as a cold run gives it, checking again only what changed since the last run.

    ``listed``: the record files under ``root`` as ``memo.tree_state`` found them, where it has walked it already.
    """
    started = time.time_ns()
    store = _Store(root)
    try:
        with gc_paused():
            index = _recall(root)
            try:
                if index is None:
                    raise Unsure
                run = _Run(root, now, index, store)
                report = run.incremental(listed)
            except Unsure:
                index = _empty_index()
                run = _Run(root, now, index, store)
                report = run.full(listed)
            last_run.clear()
            last_run.update(run.done)
    finally:
        store.close()
    if run.dirty:
        _keep(root, index, now, started)
    return report


# -- the run -------------------------------------------------------------------------------------


class _Run:
    """One validation of ``root`` that reads and updates ``index``."""

    def __init__(self, root: Path, now: dt.datetime, index: dict[str, Any], store: _Store) -> None:
        self.root, self.now, self.index, self._store = root, now, index, store
        self.files: dict[str, Any] = index["files"]
        self.units: _Units = index["units"]
        self.reads = _Reads()
        self.registry = _Tracked(root, self.reads, self._load)
        self.registry.attach(self)
        self.suggestions = _Asked(self.registry, self.reads)
        self.rules = checks.RuleTable()
        self._links: dict[str, list[str]] = {}
        self._kinds: set[str] | None = None
        self._ids: dict[tuple[str, ...] | None, list[str]] = {}
        self.done: dict[str, Any] = {"run": "full", "read": 0, "checked": 0}
        #: Whether the index differs from what was kept (else it is not written again: it stays exact, its moment
        #: the earlier one, which the checks that name the clock, run every time, do not read).
        self.dirty = True

    @property
    def store(self) -> ParseCache | None:
        return self._store.opened()

    # -- in full ---------------------------------------------------------------------------------

    def full(self, listed: list[Folder] | None = None) -> Report:
        """Load and check everything, keeping each file's and each record's findings in the index."""
        folders = _walk(self.root) if listed is None else listed
        found = _files(folders)
        self.index["folders"] = _kept_folders(folders)
        typed: dict[str, list[str]] = {}
        loaded: dict[str, tuple[Record, LoadedYaml]] = {}
        for (key, _, _, sig), (path, doc) in zip(found, documents([(p, n) for _, p, n, _ in found],
                                                                             self.store, inside=self.root),
                                                        strict=True):
            entry, record = _outcome(self.root, key, path, doc, sig)
            self.files[key] = entry
            if record is not None:
                loaded[key] = (record, doc)  # type: ignore[assignment]
                typed.setdefault(record.id, []).append(key)
        for record_id, keys in typed.items():
            self._settle(record_id, keys, [loaded[key] for key in keys])
        self._fill_failed()
        use(self.registry.units)  # as load_registry does: the units every check, page and number reads
        checker = self._checker()
        checker.suggestions = self.suggestions  # the cold run's own suggestions, with its limit, in its order
        for record_id in list(dict.keys(self.registry.records)):
            self._check(checker, record_id)
        self.done.update(read=len(found), checked=len(self.units))
        return self._report(len(found))

    # -- incremental -----------------------------------------------------------------------------

    def incremental(self, listed: list[Folder] | None) -> Report:
        """Read the files that changed, settle the ids they hold or held, check the records whose facts changed."""
        kept_at = dt.datetime.fromisoformat(self.index["now"])
        if self.now < kept_at or self._asked() > checks._Suggestions.LIMIT:
            raise Unsure
        if UNIT_KIND in self.units.kinds():
            raise Unsure  # every result's checks read the unit records: a registry with its own units runs in full
        folders = _walk(self.root) if listed is None else listed
        changed, removed = self._changed(folders)
        count = sum(len(folder.names) for folder in folders)
        new: dict[str, Any] = {}
        loaded: dict[str, tuple[Record, LoadedYaml]] = {}
        wanted = [(parts, name) for _, parts, name, _ in changed]
        read = documents(wanted, self.store, inside=self.root, some=True) if wanted else iter(())
        for (key, _, _, sig), (path, doc) in zip(changed, read, strict=True):
            new[key], record = _outcome(self.root, key, path, doc, sig)
            if record is not None:
                loaded[key] = (record, doc)  # type: ignore[assignment]
        touched = ({_id(key, self.files[key]) for key in (*removed, *new) if key in self.files}
                   | {_id(key, entry) for key, entry in new.items()})
        before = {record_id: self._facts(record_id) for record_id in touched}
        kinds_before = self.units.kinds()
        for key in removed:
            del self.files[key]
        self.files.update(new)
        by_id = _files_of(self.files, touched) if touched else {}
        self._fill_failed(again=bool(removed or new))
        for record_id in touched:
            old = self.units.pop(record_id, None)
            self.index["dups"].pop(record_id, None)
            keys = by_id.get(record_id, [])
            if keys:
                self._settle(record_id, keys, [loaded.get(key) or self._read(key, record_id) for key in keys])
            before[record_id] = (before[record_id], old)
        if UNIT_KIND in self.units.kinds():
            raise Unsure  # a unit record added
        use(self.registry.units)
        facts = self._changed_facts(before, kinds_before)
        again = {record_id for record_id in touched if record_id in self.units}
        again |= self.units.summary("flags").keys()
        again |= self._reading(facts)
        checker = self._checker()
        was = {record_id: list(self.units[record_id]) for record_id in again}
        for record_id in sorted(again, key=self.order):
            self.registry.records.get(record_id)  # loaded (and checked against the index) before it is checked
            self._check(checker, record_id)
        if self._asked() > checks._Suggestions.LIMIT:
            raise Unsure
        self.dirty = self.dirty or any(self.units[record_id] != unit for record_id, unit in was.items())
        self.done.update(run="incremental", read=len(changed), checked=len(again))
        return self._report(count)

    def _changed(self, folders: list[Folder]) -> tuple[list[tuple[str, tuple[str, ...], str, bytes | None]], list[str]]:
        """The files that are new or whose content may differ from what the index holds (in the loader's order),
        and those no longer there. A folder listed as it was kept, none of its files modified within ``RACY_NS``
        of the run that kept it, is passed whole: two comparisons of its columns, not one per file."""
        settled_before = self.index["at_ns"] - RACY_NS
        kept: dict[str, list[Any]] = self.index["folders"]
        changed: list[tuple[str, tuple[str, ...], str, bytes | None]] = []
        removed: list[str] = []
        seen = set()
        self.dirty = False
        for folder in folders:
            prefix = _prefix(folder.parts)
            seen.add(prefix)
            joined = "\0".join(folder.names)
            was = kept.get(prefix)
            if was is not None and was[0] == joined and was[1] == folder.status and _settled(folder.status,
                                                                                              settled_before):
                continue
            self.dirty = True
            names = folder.names
            for i in (_suspects(was[1], folder.status, settled_before) if was is not None and was[0] == joined
                      else range(len(names))):
                name = names[i]
                key, status = prefix + name, folder.status[32 * i:32 * i + 32]
                if not self._same(key, os.path.join(folder.path, name), status, settled_before):
                    changed.append((key, (*folder.parts, name), os.path.join(folder.path, name), status or None))
            if was is not None and was[0] != joined:
                now_there = set(names)
                removed.extend(prefix + name for name in _names(was[0]) if name not in now_there)
        for prefix, was in kept.items():
            if prefix not in seen:
                self.dirty = True
                removed.extend(prefix + name for name in _names(was[0]))
        self.index["folders"] = _kept_folders(folders)
        changed.sort(key=lambda item: item[1])
        return changed, [key for key in removed if key in self.files]

    def _same(self, key: str, path: str, status: bytes, settled_before: int) -> bool:
        """Whether the file ``key``, seen with ``status``, holds what the index says (its digest decides where the
        status alone cannot: a link, or a file modified within ``RACY_NS`` of the run that kept it)."""
        old = self.files.get(key)
        if old is None or status == _NONE:
            return False
        blob = old if type(old) is bytes else old[0]
        if blob[:32] == status and _settled(status, settled_before):
            return True
        if len(blob) > 32 and _digest_of(path, self.root) == blob[32:]:  # touched, not changed
            if type(old) is bytes:
                self.files[key] = status + blob[32:]
            else:
                old[0] = status + blob[32:]
            return True
        return False

    def _facts(self, record_id: str) -> tuple[Any, ...]:
        """What a check that looks ``record_id`` up reads: the file that holds it, its content, its place, and
        the file it did not load from."""
        unit = self.units.get(record_id)
        failed = self.index["failed"].get(record_id)
        if unit is None:
            return (None, None, None, failed)
        key = self.file_of(record_id)
        return (key, _digest(self.files[key]), self.order(record_id), failed)

    def _reading(self, facts: set[str]) -> set[str]:
        """The records whose checks read any of ``facts``: each found in its entry's bytes as kept (the joined
        facts it read hold ``\n<fact>\n``; a match elsewhere in them costs a check, never a miss), or in its
        list where it is open or kept what it read as a list."""
        if not facts:
            return set()
        patterns = [f"{SEP}{fact}{SEP}" for fact in facts]
        needles = [pattern.encode("utf-8", "surrogatepass") for pattern in patterns]
        listed = self.units.summary("listed")
        found = {record_id for needle in needles for record_id in self.units.holding(needle)
                 if record_id not in listed}
        for record_id in [*listed, *self.units.open_ids()]:
            reads = self.units[record_id][READS]
            if any(p in reads for p in patterns) if type(reads) is str else not facts.isdisjoint(reads):
                found.add(record_id)
        return found

    def _asked(self) -> int:
        """How many different suggestions the records' checks asked for."""
        return len({key for keys in self.units.summary("asked").values() for key in keys})

    def _changed_facts(self, before: dict[str, Any], kinds_before: set[str]) -> set[str]:
        """The facts (``_Reads`` keys) a changed file may have changed."""
        facts: set[str] = set()
        for record_id, (was, old) in before.items():
            unit = self.units.get(record_id)
            if was == self._facts(record_id):
                continue
            facts.add(f"r\0{record_id}")
            if (old is None) != (unit is None) or (old is not None and unit is not None and old[UKIND] != unit[UKIND]):
                facts.add(IDS)
            referenced = set(_split(old[REFS])) if old is not None else set()
            if unit is not None:
                record = self.registry.records.get(record_id)
                referenced |= {value for _, value, _ in references_in(record)} if record is not None else set()
            facts |= {f"l\0{value}" for value in referenced}
        if facts and self.units.kinds() != kinds_before:
            facts.add(HOLDS)
        return facts

    # -- ids ---------------------------------------------------------------------------------------

    def _settle(self, record_id: str, keys: list[str], records: list[tuple[Record, LoadedYaml]]) -> None:
        """Which of the files typing ``record_id`` holds it, as the loader decides, and the issues of the others."""
        scratch = Registry(root=self.root)
        report = Report()
        for key, (record, doc) in zip(keys, records, strict=True):
            path = _path(self.root, key)
            if record_id in scratch.records:
                _duplicate(path, doc, scratch, report, record)
            else:
                scratch.records[record_id], scratch.paths[record_id], scratch.docs[record_id] = record, path, doc
        if report.issues:
            self.index["dups"][record_id] = [_row(issue) for issue in report.issues]
        held = next(key for key in keys if _path(self.root, key) == scratch.paths[record_id])
        dict.__setitem__(self.registry.records, record_id, scratch.records[record_id])
        dict.__setitem__(self.registry.paths, record_id, scratch.paths[record_id])
        dict.__setitem__(self.registry.docs, record_id, scratch.docs[record_id])
        record = scratch.records[record_id]
        kind = record.kind_token
        self.units[record_id] = [None if keys[0] == held else keys[0], None if held == f"{kind}\0{record_id}.yaml"
                                 else held, kind, _joined(_references(record)), "", None, None, None, WHOLE]

    def _fill_failed(self, *, again: bool = True) -> None:
        """The records that did not load, by id: the first file (in the loader's order) for each (found again
        where files were added, changed or removed; else as kept)."""
        failed: dict[str, str] = self.index["failed"]
        if again:
            failed = {}
            for key in sorted(key for key, entry in self.files.items() if type(entry) is not bytes and not entry[1]):
                failed.setdefault(self.files[key][2], key)
            self.index["failed"] = failed
        dict.clear(self.registry.failed)
        for record_id, key in failed.items():
            dict.__setitem__(self.registry.failed, record_id, _path(self.root, key))

    def _load(self, record_id: str) -> bool:
        """Bring the record held under ``record_id`` into the registry (False: no file holds one)."""
        unit = self.units.get(record_id)
        if unit is None:
            return False
        key = self.file_of(record_id)
        record, doc = self._read(key, record_id)
        path = _path(self.root, key)
        dict.__setitem__(self.registry.records, record_id, record)
        dict.__setitem__(self.registry.paths, record_id, path)
        dict.__setitem__(self.registry.docs, record_id, doc)
        return True

    def _read(self, key: str, record_id: str) -> tuple[Record, LoadedYaml]:
        """The record and document of the file ``key``, which must hold what the index says it holds."""
        parts = tuple(key.split("\0"))
        [(path, doc)] = list(documents([(parts, str(_path(self.root, key)))], self.store, inside=self.root,
                                       some=True))
        entry, record = _outcome(self.root, key, path, doc, None)
        if record is None or record.id != record_id or _digest(entry) != _digest(self.files[key]):
            raise Unsure  # changed since it was listed
        return record, doc  # type: ignore[return-value]

    # -- checks ------------------------------------------------------------------------------------

    def _checker(self) -> checks._Checker:
        checker = checks.start(self.registry, Report(), self.now)
        checker.suggestions = _Asked(self.registry, self.reads, limit=None)
        return checker

    def _check(self, checker: checks._Checker, record_id: str) -> None:
        """Check one record, keeping what it found with every fact it read."""
        unit = self.units[record_id]
        record = dict.__getitem__(self.registry.records, record_id)
        checker.report, checker.unchecked = Report(), {}
        self.reads.start(record_id)
        try:
            checks.check_record(checker, record, self.rules)
        finally:
            read, asked = self.reads.stop()
        read.discard(f"r\0{record_id}")  # its own: a changed record is always checked again
        unit[REFS] = _joined(_references(record))
        unit[READS] = _joined(sorted(read), padded=True)
        unit[UISSUES] = [_row(issue) for issue in checker.report.issues] or None
        unit[UNCHECKED] = {value: len(names) for value, names in checker.unchecked.items()} or None
        unit[ASKED] = sorted(asked) or None
        unit[FLAGS] = ((CLOCK if any(issue.code in CLOCK_CODES for issue in checker.report.issues) else 0)
                       | (WHOLE if ALL in read else 0))

    def _report(self, files: int) -> Report:
        """The report a cold run gives, from what each file and record holds, and the rules over the folder."""
        report = Report(files=files, records=len(self.units))
        for entry in self.files.values():
            if type(entry) is not bytes:
                for row in entry[4]:
                    report.add(_issue(row))
        for rows in self.index["dups"].values():
            for row in rows:
                report.add(_issue(row))
        issues = self.units.summary("issues")
        for record_id in self.units:
            for row in issues.get(record_id, ()):
                report.add(_issue(row))
        for rule in checks.registry_rules:
            rule(self.registry, report)
        waiting: dict[str, list[str]] = {}
        for _, record_id, unchecked in sorted((self.order(i), i, u) for i, u in
                                              self.units.summary("unchecked").items()):
            for value, count in unchecked.items():
                waiting.setdefault(value, []).extend([record_id] * count)
        checks.report_unchecked(self.registry, report, waiting)
        if not files:
            report.add(no_records(self.root))
        return report

    def file_of(self, record_id: str) -> str:
        """The key of the file that holds ``record_id``."""
        unit = self.units[record_id]
        return unit[FILE] or f"{unit[UKIND]}\0{record_id}.yaml"

    def order(self, record_id: str) -> str:
        """The record's place in the loader's order: the key of the first file that typed its id."""
        return self.units[record_id][ORDER] or self.file_of(record_id)

    def kinds(self) -> set[str]:
        """The kinds of the records held (once per run: asked while checking, when no record changes)."""
        if self._kinds is None:
            self._kinds = self.units.kinds()
        return self._kinds

    def ids(self, kinds: tuple[str, ...] | None) -> list[str]:
        """The ids held (of ``kinds``), in order (once per run and kinds)."""
        if kinds not in self._ids:
            self._ids[kinds] = sorted(i for i, unit in self.units.items() if kinds is None or unit[UKIND] in kinds)
        return self._ids[kinds]

    def linking(self, record_id: str) -> list[str]:
        """The ids of the records naming ``record_id``, from what the index keeps (once per run and id): the
        entries whose bytes hold the id, opened and read."""
        if record_id not in self._links:
            needle = record_id.encode("utf-8", "surrogatepass")
            candidates = {*self.units.holding(needle), *self.units.open_ids()}
            self._links[record_id] = [other for other in candidates
                                      if record_id in _split(self.units[other][REFS])]
        return self._links[record_id]


# -- what a check reads --------------------------------------------------------------------------


class _Reads:
    """The facts the record being checked has read through the registry (none while no record is checked)."""

    def __init__(self) -> None:
        self.keys: set[str] | None = None
        self.asked: set[str] = set()

    def start(self, record_id: str) -> None:
        self.keys, self.asked = {f"r\0{record_id}"}, set()

    def stop(self) -> tuple[set[str], set[str]]:
        read, asked = self.keys or set(), self.asked
        self.keys, self.asked = None, set()
        return read, asked

    def add(self, key: str) -> None:
        if self.keys is not None:
            self.keys.add(key)


_ABSENT: Any = object()


class _Lookups(dict):  # type: ignore[type-arg]
    """A mapping by id that notes each id looked up, and brings a record in from its file when first asked for."""

    def __init__(self, reads: _Reads, load: Callable[[str], bool], everything: Callable[[], None]) -> None:
        super().__init__()
        self._reads, self._load, self._everything = reads, load, everything

    def get(self, key: Any, default: Any = None) -> Any:
        self._reads.add(f"r\0{key}")
        if dict.__contains__(self, key) or (isinstance(key, str) and self._load(key)):
            return dict.__getitem__(self, key)
        return default

    def __getitem__(self, key: Any) -> Any:
        found = self.get(key, _ABSENT)
        if found is _ABSENT:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return self.get(key, _ABSENT) is not _ABSENT

    def __iter__(self) -> Iterator[Any]:
        self._everything()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._everything()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._everything()
        return dict.keys(self)

    def values(self) -> Any:
        self._everything()
        return dict.values(self)

    def items(self) -> Any:
        self._everything()
        return dict.items(self)


class _Tracked(Registry):
    """The registry as the checks see it: every fact they read is noted, and records are read only when asked for."""

    def __init__(self, root: Path, reads: _Reads, load: Callable[[str], bool]) -> None:
        super().__init__(root=root)
        self._reads = reads
        self._run: _Run | None = None
        self._whole = False
        self.records = _Lookups(reads, load, self._everything)
        self.paths = _Lookups(reads, load, self._everything)
        self.docs = _Lookups(reads, load, self._everything)
        self.failed = _Lookups(reads, lambda _: False, lambda: None)

    def attach(self, run: _Run) -> None:
        self._run = run

    def _everything(self) -> None:
        """Every record, in the loader's order: a check that goes through them all reads the whole registry."""
        self._reads.add(ALL)
        run = self._run
        if run is None or self._whole:
            return
        self._whole = True
        order = sorted(run.units, key=run.order)
        for record_id in order:
            if not dict.__contains__(self.records, record_id):
                run._load(record_id)
        mappings: tuple[dict[str, Any], ...] = (self.records, self.paths, self.docs)
        for mapping in mappings:
            held = {record_id: dict.__getitem__(mapping, record_id) for record_id in order}
            dict.clear(mapping)
            dict.update(mapping, held)

    def links_to(self, record_id: str) -> list[tuple[Record, Any]]:
        self._reads.add(f"l\0{record_id}")
        run = self._run
        if run is None:
            return super().links_to(record_id)
        found: list[tuple[Record, Any]] = []
        for other_id in sorted(run.linking(record_id), key=run.order):
            other = self.records.get(other_id)
            if other is None:
                raise Unsure  # the index names a record no file holds now
            found.extend((other, path) for path, value, _ in references_in(other) if value == record_id)
        return found

    def referrers(self, record_id: str, model: type[R], field_name: str) -> list[R]:
        """Found afresh each time, never from the loader's kept answers: each record's checks must note the back
        links they read (``links_to``), and the kept answers' key counts every record."""
        return self._find_referrers(record_id, model, field_name)

    @property
    def units(self) -> UnitTable:
        """The built-in units where the registry holds no unit record, which is the only case an incremental run
        checks (``_Run.incremental`` runs in full where one is held now or was last time); else the loader's."""
        run = self._run
        if run is not None and UNIT_KIND not in run.kinds():
            return BUILT_IN
        return super().units

    def _sorted_ids(self, kinds: tuple[str, ...] | None) -> list[str]:
        self._reads.add(IDS)
        run = self._run
        if run is None:
            return super()._sorted_ids(kinds)
        return run.ids(kinds)

    def holds(self, *models: type[Record]) -> bool:
        self._reads.add(HOLDS)
        run = self._run
        if run is None:
            return super().holds(*models)
        return any(issubclass(KIND_MODELS[kind], models) for kind in run.kinds())


class _Asked(checks._Suggestions):
    """'Did you mean', noting which were asked (a cold run answers only the first ``LIMIT``, in its order)."""

    def __init__(self, registry: Registry, reads: _Reads, limit: int | None = checks._Suggestions.LIMIT) -> None:
        super().__init__(registry)
        self.reads = reads
        if limit is None:
            self.LIMIT = 1 << 62  # an incremental run answers every one; more than LIMIT in all runs in full

    def suggest(self, value: str, kinds: list[str]) -> str | None:
        self.reads.asked.add("\0".join((value, *kinds)))
        self.reads.add(IDS)  # read even where an earlier record's answer is given again: it comes from the ids
        return super().suggest(value, kinds)


# -- files ---------------------------------------------------------------------------------------


def _walk(root: Path) -> list[Folder]:
    """The record files under ``root``, folder by folder, as ``memo.tree_state`` lists them."""
    folders: list[Folder] = []
    tree_state(root, folders)
    return folders


def _files(folders: list[Folder]) -> list[tuple[str, tuple[str, ...], str, bytes | None]]:
    """(key, parts, path, status or None for a link) of every record file, in the loader's order."""
    found = [(_prefix(folder.parts) + name, parts, path, status if status != _NONE else None)
             for folder in folders for (parts, path, status), name in zip(folder.files(), folder.names, strict=True)]
    found.sort(key=lambda item: item[1])
    return found


#: The status of a file whose status is not known (a link): no file has it.
_NONE = bytes(32)


def _prefix(parts: tuple[str, ...]) -> str:
    """What the keys of a folder's files start with ('<kind>\0' for the folder of a kind)."""
    return "".join(f"{part}\0" for part in parts)


def _names(joined: str) -> list[str]:
    return joined.split("\0") if joined else []


def _kept_folders(folders: list[Folder]) -> dict[str, list[Any]]:
    """Each folder's listing as the index keeps it: its names, joined, and its files' statuses."""
    return {_prefix(folder.parts): ["\0".join(folder.names), folder.status] for folder in folders}


def _suspects(kept: bytes, status: bytes, settled_before: int) -> list[int]:
    """The files of a folder listed under the names it was kept with whose status differs from the kept one
    (found by halving: two equal runs of bytes are compared at once) or is not settled, in order."""
    found = set()
    pending = [(0, len(status) // 32)]
    while pending:
        low, high = pending.pop()
        if kept[32 * low:32 * high] == status[32 * low:32 * high]:
            continue
        if high - low == 1:
            found.add(low)
            continue
        middle = (low + high) // 2
        pending += [(low, middle), (middle, high)]
    if not _settled(status, settled_before):
        times = array("q", status)
        found.update(i for i, (modified, changed) in enumerate(zip(times[1::4], times[2::4], strict=True))
                     if modified == 0 or modified >= settled_before or changed >= settled_before)
    return sorted(found)


def _settled(status: bytes, settled_before: int) -> bool:
    """Whether every file of ``status`` (``memo.Folder.status``) is known and was last modified or changed
    before ``settled_before``: a later change within the same time stamp would not show."""
    if not status:
        return True
    times = array("q", status)
    modified, changed = times[1::4], times[2::4]
    return 0 not in modified and max(modified) < settled_before and max(changed) < settled_before


def _outcome(root: Path, key: str, path: Path, doc: LoadedYaml | RecordFileError, sig: bytes | None,
             ) -> tuple[bytes | list[Any], Record | None]:
    """What loading one file gives, alone: its entry for the index, and the record it typed (or None)."""
    scratch = Registry(root=root)
    report = Report()
    _load_file(path, doc, scratch, report)
    digest = doc.digest if isinstance(doc, LoadedYaml) else None
    blob = _status(sig) + (digest or b"")
    rows = [_row(issue) for issue in report.issues]
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
    return sig or _NONE


def _digest(entry: bytes | list[Any]) -> bytes | None:
    blob: bytes = entry if isinstance(entry, bytes) else entry[0]
    return blob[32:] or None


def _named(key: str) -> tuple[str, str] | None:
    """(id, kind) that a file's place names: '<kind>/<id>.yaml'."""
    parts = key.split("\0")
    return (parts[-1][:-5], parts[-2]) if len(parts) >= 2 and parts[-1].endswith(".yaml") else None


def _id(key: str, entry: bytes | list[Any]) -> str:
    """The id a file typed or did not load under."""
    if isinstance(entry, bytes):
        return key[key.rfind("\0") + 1:-5]  # '<kind>\0<id>.yaml' (``_named``)
    return str(entry[2])


def _joined(items: list[str], *, padded: bool = False) -> str | list[str]:
    """Items as one string (fewer objects to keep and read back), or as a list where one holds the separator."""
    if any(SEP in item for item in items):
        return items
    text = SEP.join(items)
    return f"{SEP}{text}{SEP}" if padded and items else text


def _split(joined: str | list[str]) -> list[str]:
    return joined if isinstance(joined, list) else joined.strip(SEP).split(SEP) if joined else []


def _digest_of(name: str, root: Path) -> bytes | None:
    try:
        raw, _ = read_record(Path(name), inside=root)
    except (OSError, RecordFileError):
        return None
    return content_digest(raw)


def _path(root: Path, key: str) -> Path:
    return Path(os.path.join(root, *key.split("\0")))


def _files_of(files: dict[str, Any], ids: set[str]) -> dict[str, list[str]]:
    """The files that typed each of ``ids``, in the loader's order."""
    found: dict[str, list[str]] = {}
    for key, entry in files.items():
        if type(entry) is bytes:
            named = key[key.rfind("\0") + 1:-5]  # '<kind>\0<id>.yaml': its id without a new list
            if named in ids:
                found.setdefault(named, []).append(key)
        elif entry[1] and entry[2] in ids:
            found.setdefault(entry[2], []).append(key)
    return {record_id: sorted(keys) for record_id, keys in found.items()}


def _references(record: Record) -> list[str]:
    return sorted({value for _, value, _ in references_in(record)})


# -- records' entries as kept --------------------------------------------------------------------


class _Units(dict):  # type: ignore[type-arg]
    """Every record's entry by id: each kept as its own MessagePack bytes, opened (into the list ``_check`` and
    ``_settle`` write) only when asked for, so that a run after one edit builds objects for the records it
    reads, not for all of them. What a run needs of every record (its kind, whether it is checked every run,
    the ids it asked suggestions for, its findings) is kept beside them (``summary``), and taken from there for
    every record not opened in this run."""

    def __init__(self, packed: dict[str, Any] | None = None, summary: dict[str, Any] | None = None) -> None:
        super().__init__(packed or {})
        kept = summary or {}
        self.kept_kinds: dict[str, int] = kept.get("kinds", {})
        self.kept: dict[str, dict[str, Any]] = {name: kept.get(name, {}) for name in _SUMMARIES}
        #: The entry as kept (None: none) of each record opened, replaced or removed in this run.
        self.opened: dict[str, list[Any] | None] = {}
        self._joined: tuple[list[str], bytes, list[int]] | None = None

    def _open(self, record_id: str) -> None:
        if record_id not in self.opened:
            value = dict.get(self, record_id)
            self.opened[record_id] = (_unpacked(value) if type(value) is bytes
                                      else None if value is None else list(value))

    def __getitem__(self, record_id: str) -> list[Any]:
        value = dict.__getitem__(self, record_id)
        if type(value) is bytes:
            self._open(record_id)
            value = _unpacked(value)
            dict.__setitem__(self, record_id, value)
        return value  # type: ignore[no-any-return]

    def get(self, record_id: str, default: Any = None) -> Any:
        return self[record_id] if dict.__contains__(self, record_id) else default

    def __setitem__(self, record_id: str, unit: list[Any]) -> None:
        self._open(record_id)
        dict.__setitem__(self, record_id, unit)

    def pop(self, record_id: str, default: Any = None) -> Any:
        if not dict.__contains__(self, record_id):
            return default
        unit = self[record_id]
        dict.pop(self, record_id)
        return unit

    def values(self) -> Any:
        return [self[record_id] for record_id in self]

    def items(self) -> Any:
        return [(record_id, self[record_id]) for record_id in self]

    def open_ids(self) -> list[str]:
        """The ids of the records held whose entries are open (lists) now."""
        return [record_id for record_id in self.opened if type(dict.get(self, record_id)) is list]

    def holding(self, needle: bytes) -> list[str]:
        """The ids of the records whose entries, as kept and not opened since, hold ``needle``: one search of their
        bytes joined (a match across two entries costs a check, never a miss)."""
        if self._joined is None:
            ids = [record_id for record_id, value in dict.items(self) if type(value) is bytes]
            blobs = [dict.__getitem__(self, record_id) for record_id in ids]
            self._joined = (ids, b"".join(blobs), list(accumulate(map(len, blobs))))
        ids, joined, ends = self._joined
        found = []
        at = joined.find(needle)
        while at != -1:
            index = bisect_right(ends, at)
            record_id = ids[index]
            if type(dict.get(self, record_id)) is bytes:
                found.append(record_id)
            at = joined.find(needle, ends[index])
        return found

    def counts(self) -> dict[str, int]:
        """How many records of each kind are held: as kept, less what the records opened in this run were, plus
        what they are."""
        counts = dict(self.kept_kinds)
        for record_id, was in self.opened.items():
            if was is not None:
                counts[was[UKIND]] -= 1
            if dict.__contains__(self, record_id):
                kind = self[record_id][UKIND]
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

    def kept_form(self) -> tuple[dict[str, bytes], dict[str, Any]]:
        """The entries and the summary as the index keeps them."""
        packed = {record_id: value if type(value) is bytes else _packed(value) for record_id, value in
                  dict.items(self)}
        summary: dict[str, Any] = {"kinds": self.counts()}
        summary.update((name, self.summary(name)) for name in _SUMMARIES)
        return packed, summary


def _unpacked(value: bytes) -> list[Any]:
    return cacheformat.unpack(value)  # type: ignore[no-any-return]


def _packed(unit: list[Any]) -> bytes:
    return cacheformat.pack(unit)


#: What is kept of every record beside its entry: whether it is checked on every run, the suggestions it
#: asked for, its findings, and whether what it read is kept as a list (which a search of its bytes cannot find).
_SUMMARIES: dict[str, Callable[[list[Any]], Any]] = {
    "flags": lambda unit: unit[FLAGS] or None,
    "asked": lambda unit: unit[ASKED],
    "issues": lambda unit: unit[UISSUES],
    "unchecked": lambda unit: unit[UNCHECKED],
    "listed": lambda unit: 1 if type(unit[READS]) is list else None,
}


# -- issues as kept ------------------------------------------------------------------------------


def _row(issue: Issue) -> list[Any]:
    return [issue.file, issue.line, issue.code, issue.message, issue.severity.value, issue.record_id, issue.field]


def _issue(row: list[Any]) -> Issue:
    return Issue(row[0], row[1], row[2], row[3], Severity(row[4]), row[5], row[6])


# -- the index on disk ---------------------------------------------------------------------------


def _empty_index() -> dict[str, Any]:
    return {"format": FORMAT, "files": {}, "folders": {}, "units": _Units(), "dups": {}, "failed": {}}


def _entry_path(root: Path) -> Path:
    return entry_path(root, "incremental", ".msgpack")


def _context(root: Path) -> bytes:
    return context(root, "incremental", str(FORMAT))


def _recall(root: Path) -> dict[str, Any] | None:
    """The index kept for ``root`` by this code, or None (none, damaged, or another user's)."""
    try:
        with open(_entry_path(root), "rb") as file:
            payload = file.read(MAX_INDEX_BYTES + 1)
        if len(payload) > MAX_INDEX_BYTES:
            return None
        index = cacheformat.decode(b"incremental", payload, _context(root))
        if not isinstance(index, dict) or index.get("format") != FORMAT:
            return None
        index["units"] = _Units(index["units"], index.pop("summary"))
        return index
    except (OSError, KeyError, TypeError, cacheformat.CorruptEntry):
        return None


def _keep(root: Path, index: dict[str, Any], now: dt.datetime, started: int) -> None:
    """Write ``index`` for the next run (a temporary file renamed into place); a cache that cannot be written
    costs the next run its time, never its result."""
    path = _entry_path(root)
    remove_stale(path.parent)  # the indexes of folders no run has validated for two weeks (moved, deleted)
    if not key_is_kept():
        return
    index["units"]._joined = None  # the entries searched, joined: not kept while the index is packed beside it
    units, summary = index["units"].kept_form()
    kept = {**index, "units": units, "summary": summary, "now": now.isoformat(), "at_ns": started}
    try:
        write_entry(path, *cacheformat.encoded(b"incremental", kept, _context(root)))
    except OSError:
        pass
