"""Update a SQLite build to the records as they are now, in place of rebuilding it: only what changed is written.

The database says what it holds (``registry.db.manifest``): each record's id and the digest of the
file content its rows came from, its path (the ``record`` table), the code that made the rows, the
records folder, and a seal that any later write by another program breaks. A record whose digest
or path differs, or that is new or gone, is *changed*: all its rows (its kind's table, its child
tables, the tables every record shares, ``record``, the manifest) are deleted and, unless it is
gone, made again as a full build makes them. Rows that come from no record (``unit``,
``registry_meta``) are all written again: they are few. The only rows that read other records
are the full-text search's (``registry.db.search``: a result's row holds its evaluation's,
configuration's, family's, dataset's, protocol's and source's names, and a result that a
correction or retraction names has none); which results need theirs made again is found from the
references themselves (the foreign keys), not from a list of them kept here: the results that
reach a changed record, or a record a changed one names, by following references backwards,
before the change and after it. Views are queries, computed when read.

Where the answer would not be exact, nothing is updated and the build is a full one, for a reason
it says (``NotUpdatable``). The update is written as a full build is: into a copy of the database
in a temporary file beside it, renamed into place once complete, so a crash leaves the old file
untouched and readers never see half an update (an update in place under SQLite's rollback journal
would be as safe for writers, but a reader that opens the file read-only, as 'registry query'
does, cannot roll back a crash's hot journal and would fail until someone wrote to it). Copying
costs about 0.4 s for 400 MiB (100,000 results).
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Connection

from registry.db.freshness import RECORDS_FOLDER_KEY
from registry.db.manifest import (
    CODE_KEY,
    MANIFEST_TABLE,
    NO_DIGEST,
    SEAL_KEY,
    Folders,
    build_state,
    change_counter,
    digest_of,
    folders_of,
    manifest_rows,
    read_folders,
    write_folders,
    write_manifest,
)
from registry.db.rows import relative_path
from registry.db.search import refill_search
from registry.db.tables import SCHEMA_VERSION, Mirror, mirror
from registry.packed import differing, places_of
from registry.store.loader import Registry

#: Above this share of the records changed, a full build is about as fast, and it is the one made.
UPDATE_AT_MOST = 0.25


class NotUpdatable(Exception):  # noqa: N818 - a reason to rebuild, not an error
    """Why the database is built anew rather than updated (``reason`` completes 'a full build: ...')."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class EveryRecordNeeded(NotUpdatable):
    """The database can be updated, but only from every record loaded, not from the incremental index alone."""


@dataclass(frozen=True)
class Changes:
    """What an update found changed, and what it wrote."""

    added: int = 0
    edited: int = 0
    renamed: int = 0
    removed: int = 0
    rows_deleted: int = 0
    rows_inserted: int = 0
    searched: int = 0
    """Full-text search rows made again (each result's row that reads a changed record)."""

    @property
    def records(self) -> int:
        return self.added + self.edited + self.renamed + self.removed

    @property
    def nothing(self) -> bool:
        """Nothing changed, and nothing was written."""
        return self == Changes()


@dataclass(frozen=True)
class Plan:
    """The records to store again (added, edited, renamed) and to remove, by id."""

    changed: set[str]
    removed: set[str]
    counts: tuple[int, int, int, int]
    """(added, edited, renamed, removed)."""
    files: dict[str, tuple[str, bytes | None]] = field(default_factory=dict)
    """The changed records' files now: id -> (path below the records folder, digest or None)."""
    folders: dict[str, tuple[str, bytes] | None] = field(default_factory=dict)
    """The folders whose files differ, as they are now (None: gone), for the database's listing of them."""


def check_updatable(out: Path, root: Path, code: str) -> int:
    """Raise ``NotUpdatable`` unless the database at ``out`` is one this code built from this records folder and
    nothing wrote to since; returns its seal."""
    try:
        if out.stat().st_size == 0:
            raise NotUpdatable("there is no database there yet")
    except FileNotFoundError:
        raise NotUpdatable("there is no database there yet") from None
    except OSError as exc:
        raise NotUpdatable(f"it cannot be read ({exc.strerror})") from exc
    counter = change_counter(out)
    if counter is None:
        raise NotUpdatable("it has a journal beside it or is in WAL mode (another program is writing to it, or "
                           "was stopped while it did)")
    meta, state = _meta(out)
    if meta.get("schema_version") != str(SCHEMA_VERSION) or state.get(CODE_KEY) != code:
        raise NotUpdatable("it was built by another version of the code" if CODE_KEY in state else
                           "it was built before builds kept what they stored")
    if meta.get(RECORDS_FOLDER_KEY) != str(root.resolve()):
        raise NotUpdatable(f"it was built from another records folder ({meta.get(RECORDS_FOLDER_KEY)})")
    if state.get(SEAL_KEY) != str(counter):
        raise NotUpdatable("it was written to since it was built (by another program)")
    return counter


def _meta(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """What ``registry_meta`` and ``build_state`` hold."""
    try:
        connection = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    except (sqlite3.Error, OSError) as exc:
        raise NotUpdatable(f"it cannot be read ({exc})") from exc
    try:
        return dict(connection.execute("SELECT key, value FROM registry_meta").fetchall()), build_state(connection)
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        raise NotUpdatable("it cannot be read (it is damaged)") from exc
    finally:
        connection.close()


def copy_for_update(out: Path, tmp: Path, seal: int) -> None:
    """Copy the database into ``tmp``; raise ``NotUpdatable`` if the copy is not the file that was checked."""
    shutil.copyfile(out, tmp)
    if change_counter(tmp) != seal:
        raise NotUpdatable("it was written to while this build ran")


@dataclass(frozen=True)
class Current:
    """The records as they are now, as an update reads them: how many, their files folder by folder (``folders``:
    ``manifest.Folders``), and ``loaded(wanted)``: a registry holding the records ``wanted`` ({id: (path, digest)}),
    typed, read from those files, which must still hold those digests (``NotUpdatable`` where one changed since).
    From the loaded registry (``of_registry``), or from the incremental index without loading any record that did
    not change (``registry.db.current``)."""

    root: Path
    count: int
    folders: Callable[[], Folders]
    loaded: Callable[[dict[str, tuple[str, bytes | None]]], Registry]
    validated: str = ""
    """How the report was made where not by loading every record: 'by the watcher' or 'incrementally'."""
    watcher_failed: str | None = None
    """Why a watcher that answered could not serve (``registry.validation.Validation.watcher_failed``)."""
    cache_refused: object | None = None
    """Why the cache's folders could not be used (``registry.validation.Validation.cache_refused``)."""


def of_registry(registry: Registry) -> Current:
    """The records of a loaded registry, as an update reads them."""
    def records() -> Iterator[tuple[str, str, bytes | None]]:
        for record_id in registry.records:
            yield record_id, relative_path(registry, record_id), digest_of(registry, record_id) or None

    return Current(registry.root, len(registry.records), lambda: folders_of(records()), lambda _wanted: registry)


def plan(connection: sqlite3.Connection, current: Current) -> Plan:
    """Which records changed since the database was built, found from its record files as it keeps them
    (``manifest.read_folders``) and as they are now: a folder whose names and digests are the same is passed
    whole (two comparisons, where one per record would take most of an update's time at 100,000 results); in
    the others, the files whose digest differs, or that are new or gone. A valid registry's file is named
    '<id>.yaml' (``file-name-mismatch``), so a changed file names its record; what the database holds of those
    records (their paths and digests) then says which were added, edited, renamed or removed. An unknown digest
    never matches, so such a record is always stored again."""
    try:
        records, listed = connection.execute(f"SELECT (SELECT COUNT(*) FROM record), "
                                             f"(SELECT COUNT(*) FROM {MANIFEST_TABLE})").fetchone()
        if records != listed:
            raise NotUpdatable("its manifest does not list exactly its records")
        held = read_folders(connection)
    except sqlite3.Error as exc:
        raise NotUpdatable(f"its manifest cannot be read ({exc})") from exc
    now = current.folders()
    differing = {folder: now.get(folder) for folder in held.keys() | now.keys()
                 if held.get(folder) != now.get(folder) or _unknown(now.get(folder))}
    files_now: dict[str, bytes | None] = {}
    gone: set[str] = set()
    for folder, files in differing.items():
        new, old = _changed_files(folder, held.get(folder, ("", b"")), files or ("", b""))
        files_now.update(new)
        gone.update(old)
    now_of = {file_id(path): (path, digest) for path, digest in files_now.items()}
    before = _held_records(connection, {file_id(path) for path in gone} | set(now_of))
    added = edited = renamed = 0
    for record_id, (path, digest) in now_of.items():
        was = before.get(record_id)
        if was is None:
            added += 1
        elif was[1] != digest or not digest:
            edited += 1
        elif was[0] != path:
            renamed += 1
        else:
            raise NotUpdatable("its listing of record files does not match its records")
    removed = {record_id for record_id, (path, _) in before.items() if record_id not in now_of and path in gone}
    if records + added - len(removed) != current.count:
        raise NotUpdatable("its listing of record files does not match its records")
    changed = set(now_of)
    if len(changed) + len(removed) > UPDATE_AT_MOST * max(current.count, records, 1) and changed:
        raise NotUpdatable(f"{len(changed) + len(removed):,} of {current.count:,} records changed, "
                           "too many for an update to be faster")
    return Plan(changed, removed, (added, edited, renamed, len(removed)), now_of, differing)


def file_id(path: str) -> str:
    """The id a valid registry's file holds: its name without its last suffix ('<kind>/<id>.yaml')."""
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return name[:dot] if dot > 0 else name


def _unknown(files: tuple[str, bytes] | None) -> bool:
    """Whether a folder's files hold a digest not known (``NO_DIGEST``, at a file's place)."""
    return files is not None and bool(places_of(NO_DIGEST, files[1]))


def _changed_files(folder: str, held: tuple[str, bytes], now: tuple[str, bytes],
                   ) -> tuple[dict[str, bytes | None], set[str]]:
    """The files of ``folder`` that are new or whose digest differs (or is not known) now, with their digests;
    and the paths of those no longer there. Where the names are the same (an edit), the differing digests are
    found by halving (two equal runs of bytes compared at once), not file by file."""
    prefix = f"{folder}/" if folder else ""
    names_held, names_now = held[0].split("\0")[:-1], now[0].split("\0")[:-1]
    if len(held[1]) != 16 * len(names_held) or len(now[1]) != 16 * len(names_now):
        raise NotUpdatable("its listing of record files is damaged")
    if held[0] == now[0]:
        places = differing(held[1], now[1], 16) | places_of(NO_DIGEST, now[1])
        return {f"{prefix}{names_now[i]}": _digest(now[1][16 * i:16 * i + 16]) for i in sorted(places)}, set()
    kept = dict(zip(names_held, (held[1][at:at + 16] for at in range(0, len(held[1]), 16)), strict=True))
    new = {}
    for i, name in enumerate(names_now):
        digest = now[1][16 * i:16 * i + 16]
        if kept.get(name) != digest or digest == NO_DIGEST:
            new[f"{prefix}{name}"] = _digest(digest)
    there = set(names_now)
    return new, {f"{prefix}{name}" for name in names_held if name not in there}


def _digest(digest: bytes) -> bytes | None:
    return None if digest == NO_DIGEST else digest


def _held_records(connection: sqlite3.Connection, ids: set[str]) -> dict[str, tuple[str, bytes]]:
    """(path, digest) of each of ``ids`` the database holds."""
    _temporary(connection, "asked", ids)
    return {record_id: (path, digest) for record_id, path, digest in connection.execute(
        f"SELECT r.id, r.path, m.digest FROM record r JOIN {MANIFEST_TABLE} m ON m.record_id = r.id "
        "WHERE r.id IN (SELECT id FROM temp.asked)")}


def read_plan(out: Path, current: Current) -> Plan:
    """``plan`` against the database at ``out``, opened read-only."""
    connection = sqlite3.connect(out.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return plan(connection, current)
    finally:
        connection.close()


def held_of_kind(out: Path, kind: str) -> set[str]:
    """The ids of the records of ``kind`` the database at ``out`` holds."""
    connection = sqlite3.connect(out.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return {record_id for (record_id,) in connection.execute("SELECT id FROM record WHERE kind = ?", (kind,))}
    finally:
        connection.close()


def holds_fixed_rows(out: Path, fixed: list[tuple[str, tuple[Any, ...]]]) -> bool:
    """Whether the rows that come from no record (``unit``, ``registry_meta``) are already ``fixed``
    (as a build would write them): with no record changed, the database is then up to date as it is."""
    expected: dict[str, list[tuple[Any, ...]]] = {"unit": [], "registry_meta": []}
    for name, row in fixed:
        expected[name].append(row)
    connection = sqlite3.connect(out.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        held = {"unit": connection.execute("SELECT * FROM unit").fetchall(),
                "registry_meta": connection.execute("SELECT key, value FROM registry_meta").fetchall()}
    finally:
        connection.close()
    return all(sorted(held[name], key=repr) == sorted(expected[name], key=repr) for name in expected)


def apply(connection: Connection, registry: Registry, planned: Plan, rows: Iterator[tuple[str, tuple[Any, ...]]],
          insert: Callable[[Connection, Any, list[Any]], None]) -> Changes:
    """Write the plan into the database ``connection`` holds open, in its transaction: the changed records' rows
    deleted and ``rows`` (the changed records' and those that come from no record, as SQLite stores them) put in
    with ``insert`` (a batch of one table's rows at a time), and the search rows that read a changed record made
    again."""
    raw: sqlite3.Connection = connection.connection.driver_connection  # type: ignore[assignment]
    tables = mirror()
    gone = planned.changed | planned.removed
    _temporary(raw, "changed", gone)
    edges = references(tables)
    named_before = _named_by_changed(raw, edges)
    read_before = _readers(raw, edges, gone | named_before)
    units_before = raw.execute("SELECT * FROM unit ORDER BY token").fetchall()
    _temporary(raw, "search_stale", read_before)
    raw.execute("DELETE FROM results_search WHERE rowid IN "
                "(SELECT rowid FROM result WHERE id IN (SELECT id FROM temp.search_stale))")
    deleted = 0
    for table, column in record_keys(tables).items():
        deleted += raw.execute(f'DELETE FROM "{table}" WHERE "{column}" IN (SELECT id FROM temp.changed)').rowcount
    raw.execute(f"DELETE FROM {MANIFEST_TABLE} WHERE record_id IN (SELECT id FROM temp.changed)")
    deleted += raw.execute("DELETE FROM unit").rowcount + raw.execute("DELETE FROM registry_meta").rowcount
    inserted = _insert(connection, tables, rows, insert)
    write_manifest(raw, manifest_rows(registry, planned.changed))
    write_folders(raw, planned.folders)
    if raw.execute("SELECT * FROM unit ORDER BY token").fetchall() != units_before:
        searched = refill_search(connection, None)  # a unit's name or dimension: every result may read it
    else:
        named = named_before | _named_by_changed(raw, edges)
        read_after = _readers(raw, edges, gone | named)
        _temporary(raw, "search_stale", read_after - read_before)  # rows of results first found now, still there
        raw.execute("DELETE FROM results_search WHERE rowid IN "
                    "(SELECT rowid FROM result WHERE id IN (SELECT id FROM temp.search_stale))")
        searched = refill_search(connection, read_before | read_after)
    added, edited, renamed, removed = planned.counts
    return Changes(added, edited, renamed, removed, deleted, inserted, searched)


def _insert(connection: Connection, tables: Mirror, rows: Iterator[tuple[str, Any]],
            insert_rows: Callable[[Connection, Any, list[Any]], None]) -> int:
    """Insert rows (as SQLite stores them), a batch per table; returns how many."""
    by_name = {str(table.name): table for table in tables.tables()}
    buffers: dict[str, list[Any]] = {}
    for name, row in rows:
        buffers.setdefault(name, []).append(row)
    for name in by_name:  # each table after those its rows name (deferred keys allow any order; this is the build's)
        if buffers.get(name):
            insert_rows(connection, by_name[name], buffers[name])
    return sum(map(len, buffers.values()))


def record_keys(tables: Mirror) -> dict[str, str]:
    """Every table that holds a record's rows, with the column holding the record's id."""
    keys = {str(tables.record.name): "id"}
    for stored in tables.kinds.values():
        for table in stored.walk():
            keys[table.name] = table.owner[0] if table.owner else "id"
    return keys


def references(tables: Mirror) -> list[tuple[str, str, str]]:
    """(table, column of the record's id, column naming another record) of every reference a record makes: each
    foreign key to a record, but those that tie a row to the record it belongs to."""
    targets = {str(tables.record.name)} | {stored.name for stored in tables.kinds.values()}
    found: dict[tuple[str, str, str], None] = {}
    for stored in tables.kinds.values():
        for table in stored.walk():
            own = table.owner[0] if table.owner else "id"
            for column in table.table.columns:
                if column.name in table.owner or (not table.owner and column.name == "id"):
                    continue
                if any(key.column.table.name in targets for key in column.foreign_keys):
                    found[(table.name, own, column.name)] = None
    return list(found)


def _temporary(raw: sqlite3.Connection, name: str, ids: Iterable[str]) -> None:
    """A temporary table ``temp.<name>`` of ids (made anew)."""
    raw.execute(f"DROP TABLE IF EXISTS temp.{name}")
    raw.execute(f"CREATE TEMP TABLE {name} (id TEXT PRIMARY KEY)")
    raw.executemany(f"INSERT OR IGNORE INTO temp.{name} (id) VALUES (?)", ((i,) for i in ids))


def _named_by_changed(raw: sqlite3.Connection, edges: list[tuple[str, str, str]]) -> set[str]:
    """The records the changed records name, as the database holds them now (a correction's superseded record:
    its status is the correction's doing)."""
    named: set[str] = set()
    for table, own, column in edges:
        named.update(value for (value,) in raw.execute(
            f'SELECT "{column}" FROM "{table}" WHERE "{own}" IN (SELECT id FROM temp.changed) '
            f'AND "{column}" IS NOT NULL'))
    return named


def _readers(raw: sqlite3.Connection, edges: list[tuple[str, str, str]], seeds: set[str]) -> set[str]:
    """The results that reach one of ``seeds`` (or are one) by following references, as the database holds them
    now: those whose search row may read it."""
    reached = set(seeds)
    frontier = set(seeds)
    while frontier:
        _temporary(raw, "frontier", frontier)
        found: set[str] = set()
        for table, own, column in edges:
            found.update(value for (value,) in raw.execute(
                f'SELECT "{own}" FROM "{table}" WHERE "{column}" IN (SELECT id FROM temp.frontier)'))
        frontier = found - reached
        reached |= frontier
    _temporary(raw, "frontier", reached)
    return {value for (value,) in raw.execute("SELECT id FROM result WHERE id IN (SELECT id FROM temp.frontier)")}
