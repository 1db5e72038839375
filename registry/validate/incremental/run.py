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
  (``incremental.tracking.Tracked``): each record it looked up (which file holds it and its content, or that none
  does, or that it did not load), each record's back links it asked for (``links_to``: the records
  naming it and their content), whether it listed ids (for "did you mean"), whether the registry holds a
  correction or retraction. It is kept while none of those changed; a record whose check went through
  the whole registry is checked on every run.
- **the clock**: findings that name now or today (``CLOCK_CODES``: a date in the future, an id's date
  that is no day) are worked out on every run; every other finding stays exact as time moves forward (a
  date in the past stays there). A clock set back runs in full.

The rules over the whole folder (``rules_registry.registry_rules``) and the warning on a record that did not
load (``checks.report_unchecked``) run on every run, from what is kept. Anything this cannot answer exactly
(another code version, folder or working folder; a damaged entry or one under another key; a file changed between
being listed and read; more than ``_Suggestions.LIMIT`` ids to suggest for) runs in full, and keeps what it found.

This module holds the run: what to read, settle and check again; what it keeps and the index on disk are in
``index`` (beside the parse cache, behind its MAC), the files' entries in ``files``, and the registry that notes
what each check reads in ``tracking``, what the index answers about the registry in ``view``.
docs/design/incremental.md says the same for a reader.
"""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any

from registry.issues import codes
from registry.issues.report import Report
from registry.models import Record
from registry.models.fields import references_in
from registry.store import cache as cache_module
from registry.store.cache import ParseCache
from registry.store.collector import gc_paused
from registry.store.loader import Registry, _duplicate, no_records
from registry.store.reading import documents
from registry.store.typedfiles import Typed
from registry.store.yamlio import LoadedYaml
from registry.units import use
from registry.validate import runner as checks
from registry.validate.incremental.files import (
    Listed,
    as_row,
    changed_files,
    entry_digest,
    files_of,
    from_row,
    id_of,
    key_prefix,
    outcome,
    path_of,
    record_files,
    walk,
)
from registry.validate.incremental.index import (
    FACT_ID_LIST,
    FACT_KINDS_HELD,
    FACT_WHOLE_REGISTRY,
    NAMES_THE_CLOCK,
    READ_THE_WHOLE_REGISTRY,
    SEP,
    RecordEntry,
    Unsure,
    empty_index,
    join_items,
    keep,
    recall,
    record_fact,
    referenced_ids,
    referrers_fact,
    split_items,
)
from registry.validate.incremental.tracking import UNIT_KIND, Asked, Reads, Tracked
from registry.validate.incremental.view import IndexView
from registry.validate.memo import Folder

#: Findings whose words or presence depend on the moment of the run: worked out again on every run.
CLOCK_CODES = frozenset({codes.DATE_IN_FUTURE.code, codes.ID_DATE_IN_FUTURE.code, codes.ID_DATE_INVALID.code})
#: A file modified this close to the run that kept it may change again unseen within the same time stamp.
RACY_NS = cache_module.RACY_NS


#: ``settled_before`` of a run that takes no file as unchanged by its status (``--verify``): every file is read and
#: its digest compared with the kept one (a write through a shared memory map, or through a hard link made outside
#: the records folder, can leave a file's size, times and inode as they were).
VERIFY = -(1 << 62)

#: What the last run in this process did: "full" or "incremental", files read, records checked (for tests and
#: benchmarks: they show which path ran).
last_run: dict[str, Any] = {}


class _Store:
    """The parse cache, opened only when a file must be read: opening and closing it settles every row it holds
    (about 0.9 of the 1.4 processor seconds of a run that reads nothing, at 10,000 results)."""

    def __init__(self, root: Path, *, verify: bool = False) -> None:
        self.root, self.verify = root, verify
        self.store: ParseCache | None = None
        self.tried = False

    def opened(self) -> ParseCache | None:
        if not self.tried:
            self.tried = True
            self.store = ParseCache.open(self.root, verify=self.verify)
        return self.store

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


def validate(root: Path, now: dt.datetime, listed: list[Folder] | None = None, *, verify: bool = False) -> Report:
    """The report of ``root`` exactly as a cold run gives it, checking again only what changed since the last run.

    ``listed``: the record files under ``root`` as ``memo.tree_state`` found them, where it has walked it already.
    ``verify``: every file is read and its digest, not its status, says whether it changed (``VERIFY``).
    """
    return validated(root, now, listed, verify=verify)[0]


def validated(root: Path, now: dt.datetime, listed: list[Folder] | None = None, *,
              started: int | None = None, verify: bool = False) -> tuple[Report, dict[str, Any]]:
    """``validate``'s report, and the index it kept (what ``registry db build`` reads the records' files from).
    ``started``: when the caller began, before it walked ``listed`` (as ``time.time_ns``; default: now)."""
    started = time.time_ns() if started is None else started
    report, index, dirty = run(root, now, recall(root), listed, started=started, verify=verify)
    if dirty:
        keep(root, index, now, started)
    return report, index


def run(root: Path, now: dt.datetime, index: dict[str, Any] | None, listed: list[Folder] | None, *,
        started: int, verify: bool = False) -> tuple[Report, dict[str, Any], bool]:
    """The report of ``root`` from ``index`` (None: none kept), the index now, and whether it differs from ``index``
    as given. ``started``: when the run began (before ``listed`` was made), as ``time.time_ns``.

    The index given is updated in place where the run can go on from it (a process that keeps it in memory, as
    ``registry watch`` does, passes it to the next run as it is returned: what ``keep`` would write, unwritten)."""
    store = _Store(root, verify=verify)
    try:
        with gc_paused():
            try:
                if index is None:
                    raise Unsure
                work = _Run(root, now, index, store)
                if verify:
                    work.settled_before = VERIFY
                report = work.incremental(listed)
            except Unsure:
                index = empty_index()
                work = _Run(root, now, index, store)
                report = work.full(listed)
            last_run.clear()
            last_run.update(work.done)
    finally:
        store.close()
    index["now"], index["at_ns"] = now.isoformat(), started
    return report, index, work.dirty


# -- the run -------------------------------------------------------------------------------------


class _Run(IndexView):
    """One validation of ``root`` that reads and updates ``index``."""

    def __init__(self, root: Path, now: dt.datetime, index: dict[str, Any], store: _Store) -> None:
        super().__init__(index)
        self.root, self.now, self._store = root, now, store
        self.reads = Reads()
        self.registry = Tracked(root, self.reads, self._load)
        self.registry.attach(self)
        self.suggestions = Asked(self.registry, self.reads)
        self.rules = checks.RuleTable()
        self.done: dict[str, Any] = {"run": "full", "read": 0, "checked": 0}
        #: Files whose status is as kept and was last changed before this moment are taken as unchanged unread.
        self.settled_before: int = index.get("at_ns", 0) - RACY_NS
        #: Whether the index differs from what was kept (else it is not written again: it stays exact, its moment
        #: the earlier one, which the checks that name the clock, run every time, do not read).
        self.dirty = True

    @property
    def store(self) -> ParseCache | None:
        return self._store.opened()

    # -- in full ---------------------------------------------------------------------------------

    def full(self, listed: list[Folder] | None = None) -> Report:
        """Load and check everything, keeping each file's and each record's findings in the index.

        What only the loading needs (the listing, the records by file) is let go before the checks, and the
        records themselves once the report is made: the index is packed after, and its bytes would sit beside them.
        """
        folders = walk(self.root) if listed is None else listed
        found = record_files(folders)
        count = len(found)
        self.files.settle(folders)
        typed: dict[str, list[str]] = {}
        loaded: dict[str, tuple[Record, LoadedYaml, Path]] = {}
        read = documents([(p, n) for _, p, n, _ in found], self.store, inside=self.root, typed=True)
        for (key, _, _, sig), (path, doc) in zip(found, read, strict=True):
            entry, record = outcome(self.root, key, path, doc, sig)
            self.files[key] = entry
            if record is not None:
                loaded[key] = (record, doc.doc if type(doc) is Typed else doc, path)  # type: ignore[assignment]
                typed.setdefault(record.id, []).append(key)
        del found
        for record_id, keys in typed.items():
            held = [loaded.pop(key) for key in keys]
            self._settle(record_id, keys, [(record, doc) for record, doc, _ in held], [path for *_, path in held])
        del typed, loaded
        self._fill_failed()
        use(self.registry.units)  # as load_registry does: the units every check, page and number reads
        checker = self._checker()
        checker.suggestions = self.suggestions  # the cold run's own suggestions, with its limit, in its order
        for record_id in list(dict.keys(self.registry.records)):
            self._check(checker, record_id)
        self.done.update(read=count, checked=len(self.entries))
        report = self._report(count)
        mappings: tuple[dict[str, Any], ...] = (self.registry.records, self.registry.paths, self.registry.docs)
        for mapping in mappings:
            dict.clear(mapping)
        return report

    # -- incremental -----------------------------------------------------------------------------

    def incremental(self, listed: list[Folder] | None) -> Report:
        """Read the files that changed, settle the ids they hold or held, check the records whose facts changed."""
        kept_at = dt.datetime.fromisoformat(self.index["now"])
        if self.now < kept_at or self._asked() > checks._Suggestions.LIMIT:
            raise Unsure
        if UNIT_KIND in self.entries.kinds():
            raise Unsure  # every result's checks read the unit records: a registry with its own units runs in full
        folders = walk(self.root) if listed is None else listed
        self.files.use_names(folders)
        changed, removed = self._changed(folders)
        count = sum(len(folder.names) for folder in folders)
        new: dict[str, Any] = {}
        loaded: dict[str, tuple[Record, LoadedYaml]] = {}
        wanted = [(parts, name) for _, parts, name, _ in changed]
        read = documents(wanted, self.store, inside=self.root, some=True) if wanted else iter(())
        for (key, _, _, sig), (path, doc) in zip(changed, read, strict=True):
            new[key], record = outcome(self.root, key, path, doc, sig)
            if record is not None:
                loaded[key] = (record, doc)  # type: ignore[assignment]
        touched = ({id_of(key, self.files[key]) for key in (*removed, *new) if key in self.files}
                   | {id_of(key, entry) for key, entry in new.items()})
        before = {record_id: self._facts(record_id) for record_id in touched}
        kinds_before = self.entries.kinds()
        for key in removed:
            del self.files[key]
        self.files.update(new)
        prefixes = [key_prefix(folder.parts) for folder in folders]
        by_id = files_of(self.files, touched, prefixes, self.list_keys()) if touched else {}
        self._fill_failed(again=bool(removed or new))
        for record_id in touched:
            old = self.entries.pop(record_id, None)
            self.index["dups"].pop(record_id, None)
            keys = by_id.get(record_id, [])
            if keys:
                self._settle(record_id, keys, [loaded.get(key) or self._read(key, record_id) for key in keys])
            before[record_id] = (before[record_id], old)
        if UNIT_KIND in self.entries.kinds():
            raise Unsure  # a unit record added
        use(self.registry.units)
        facts = self._changed_facts(before, kinds_before)
        again = {record_id for record_id in touched if record_id in self.entries}
        again |= self.entries.summary("flags").keys()
        again |= self._reading(facts)
        checker = self._checker()
        was = {record_id: list(self.entries[record_id]) for record_id in again}
        for record_id in sorted(again, key=self.order):
            self.registry.records.get(record_id)  # loaded (and checked against the index) before it is checked
            self._check(checker, record_id)
        if self._asked() > checks._Suggestions.LIMIT:
            raise Unsure
        self.dirty = self.dirty or any(self.entries[record_id] != entry for record_id, entry in was.items())
        self.done.update(run="incremental", read=len(changed), checked=len(again))
        self.files.settle(folders)
        return self._report(count)

    def _changed(self, folders: list[Folder]) -> tuple[list[Listed], list[str]]:
        """The files that are new or whose content may differ from what the index holds (in the loader's order),
        and those no longer there (the files' columns are lined up with ``folders`` at the end of the run)."""
        changed, removed, self.dirty = changed_files(self.files, self.files.folders, folders, self.root,
                                                     self.settled_before)
        return changed, removed

    def _facts(self, record_id: str) -> tuple[Any, ...]:
        """What a check that looks ``record_id`` up reads: the file that holds it, its content, its place, and
        the file it did not load from."""
        failed = self.index["failed"].get(record_id)
        if self.entries.get(record_id) is None:
            return (None, None, None, failed)
        key = self.file_of(record_id)
        return (key, entry_digest(self.files[key]), self.order(record_id), failed)

    def _reading(self, facts: set[str]) -> set[str]:
        """The records whose checks read any of ``facts``: each found in its entry's bytes as kept (the joined
        facts it read hold ``\n<fact>\n``; a match elsewhere in them costs a check, never a miss), or in its
        list where it is open or kept what it read as a list."""
        if not facts:
            return set()
        patterns = [f"{SEP}{fact}{SEP}" for fact in facts]
        needles = [pattern.encode("utf-8", "surrogatepass") for pattern in patterns]
        listed = self.entries.summary("listed")
        found = {record_id for needle in needles for record_id in self.entries.holding(needle)
                 if record_id not in listed}
        for record_id in [*listed, *self.entries.open_ids()]:
            reads = self.entries[record_id].facts_read
            if any(p in reads for p in patterns) if type(reads) is str else not facts.isdisjoint(reads):
                found.add(record_id)
        return found

    def _asked(self) -> int:
        """How many different suggestions the records' checks asked for."""
        return len({key for keys in self.entries.summary("asked").values() for key in keys})

    def _changed_facts(self, before: dict[str, Any], kinds_before: set[str]) -> set[str]:
        """The facts (``Reads`` keys) a changed file may have changed."""
        facts: set[str] = set()
        for record_id, (was, old) in before.items():
            entry = self.entries.get(record_id)
            if was == self._facts(record_id):
                continue
            facts.add(record_fact(record_id))
            if (old is None) != (entry is None) or (old is not None and entry is not None and old.kind != entry.kind):
                facts.add(FACT_ID_LIST)
            referenced = set(split_items(old.references)) if old is not None else set()
            if entry is not None:
                record = self.registry.records.get(record_id)
                referenced |= {value for _, value, _ in references_in(record)} if record is not None else set()
            facts |= {referrers_fact(value) for value in referenced}
        if facts and self.entries.kinds() != kinds_before:
            facts.add(FACT_KINDS_HELD)
        return facts

    # -- ids ---------------------------------------------------------------------------------------

    def _settle(self, record_id: str, keys: list[str], records: list[tuple[Record, LoadedYaml]],
                paths: list[Path] | None = None) -> None:
        """Which of the files typing ``record_id`` holds it, as the loader decides, and the issues of the others.

        ``paths``: the files' paths, where the caller has them (one ``Path`` a file, not two, in a full run).
        """
        scratch = Registry(root=self.root)
        report = Report()
        if paths is None:
            paths = [path_of(self.root, key) for key in keys]
        for path, (record, doc) in zip(paths, records, strict=True):
            if record_id in scratch.records:
                _duplicate(path, doc, scratch, report, record)
            else:
                scratch.records[record_id], scratch.paths[record_id], scratch.docs[record_id] = record, path, doc
        if report.issues:
            self.index["dups"][record_id] = [as_row(issue) for issue in report.issues]
        held = next(key for key, path in zip(keys, paths, strict=True) if path == scratch.paths[record_id])
        dict.__setitem__(self.registry.records, record_id, scratch.records[record_id])
        dict.__setitem__(self.registry.paths, record_id, scratch.paths[record_id])
        dict.__setitem__(self.registry.docs, record_id, scratch.docs[record_id])
        record = scratch.records[record_id]
        kind = record.kind_token
        self.entries[record_id] = RecordEntry.new(
            loader_order=None if keys[0] == held else keys[0],
            file=None if held == f"{kind}\0{record_id}.yaml" else held, kind=kind,
            references=join_items(referenced_ids(record)), facts_read="", flags=READ_THE_WHOLE_REGISTRY)

    def _fill_failed(self, *, again: bool = True) -> None:
        """The records that did not load, by id: the first file (in the loader's order) for each (found again
        where files were added, changed or removed; else as kept)."""
        failed: dict[str, str] = self.index["failed"]
        if again:
            failed = {}
            for key in sorted(key for key in self.list_keys() if not self.files[key][1]):
                failed.setdefault(self.files[key][2], key)
            self.index["failed"] = failed
        dict.clear(self.registry.failed)
        for record_id, key in failed.items():
            dict.__setitem__(self.registry.failed, record_id, path_of(self.root, key))

    def _load(self, record_id: str) -> bool:
        """Bring the record held under ``record_id`` into the registry (False: no file holds one)."""
        if self.entries.get(record_id) is None:
            return False
        key = self.file_of(record_id)
        record, doc = self._read(key, record_id)
        path = path_of(self.root, key)
        dict.__setitem__(self.registry.records, record_id, record)
        dict.__setitem__(self.registry.paths, record_id, path)
        dict.__setitem__(self.registry.docs, record_id, doc)
        return True

    def _read(self, key: str, record_id: str) -> tuple[Record, LoadedYaml]:
        """The record and document of the file ``key``, which must hold what the index says it holds."""
        parts = tuple(key.split("\0"))
        [(path, doc)] = list(documents([(parts, str(path_of(self.root, key)))], self.store, inside=self.root,
                                       some=True))
        entry, record = outcome(self.root, key, path, doc, None)
        if record is None or record.id != record_id or entry_digest(entry) != entry_digest(self.files[key]):
            raise Unsure  # changed since it was listed
        return record, doc  # type: ignore[return-value]

    # -- checks ------------------------------------------------------------------------------------

    def _checker(self) -> checks._Checker:
        checker = checks.start(self.registry, Report(), self.now)
        checker.suggestions = Asked(self.registry, self.reads, limit=None)
        return checker

    def _check(self, checker: checks._Checker, record_id: str) -> None:
        """Check one record, keeping what it found with every fact it read."""
        entry = self.entries[record_id]
        record = dict.__getitem__(self.registry.records, record_id)
        checker.report, checker.unchecked = Report(), {}
        self.reads.start(record_id)
        try:
            checks.check_record(checker, record, self.rules)
        finally:
            read, asked = self.reads.stop()
        read.discard(record_fact(record_id))  # its own: a changed record is always checked again
        entry.references = join_items(referenced_ids(record))
        entry.facts_read = join_items(sorted(read), padded=True)
        entry.issues = [as_row(issue) for issue in checker.report.issues] or None
        entry.unchecked = {value: len(names) for value, names in checker.unchecked.items()} or None
        entry.suggestions_asked = sorted(asked) or None
        entry.flags = ((NAMES_THE_CLOCK if any(issue.code in CLOCK_CODES for issue in checker.report.issues) else 0)
                       | (READ_THE_WHOLE_REGISTRY if FACT_WHOLE_REGISTRY in read else 0))

    def _report(self, files: int) -> Report:
        """The report a cold run gives, from what each file and record holds, and the rules over the folder."""
        report = Report(files=files, records=len(self.entries))
        for key in self.list_keys():
            for row in self.files[key][4]:
                report.add(from_row(row))
        for rows in self.index["dups"].values():
            for row in rows:
                report.add(from_row(row))
        issues = self.entries.summary("issues")
        for record_id in self.entries if issues else ():  # in the records' order: a cold run's
            for row in issues.get(record_id, ()):
                report.add(from_row(row))
        for rule in checks.registry_rules:
            rule(self.registry, report)
        waiting: dict[str, list[str]] = {}
        for _, record_id, unchecked in sorted((self.order(i), i, u) for i, u in
                                              self.entries.summary("unchecked").items()):
            for value, count in unchecked.items():
                waiting.setdefault(value, []).extend([record_id] * count)
        checks.report_unchecked(self.registry, report, waiting)
        if not files:
            report.add(no_records(self.root))
        return report
