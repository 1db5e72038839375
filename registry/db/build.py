"""Write a validated registry into a database: a SQLite file, or a PostgreSQL server a team shares.

A SQLite database is built in a temporary file beside the target and renamed into place only once
it is complete, so a failure or a kill part-way leaves the previous database untouched. A server
database is rebuilt in one transaction (PostgreSQL's DDL is transactional): readers see the old
tables until the new ones are committed, and a failure rolls everything back. Rows are inserted in
a fixed order (kinds in dependency order, ids sorted), so two builds from the same records give
the same content, byte for byte; so the build time is not stored inside the file, but as the
file's modification time, set to when the records were read (``registry query`` compares the
record files against it). An existing file is replaced only when it is a database built here.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from registry.db import update
from registry.db.build_rows import (
    fixed_values,
    insert_rows,
    record_values,
    records_in_order,
    registry_rows,
    rows_version,
    sqlite_rows,
)
from registry.db.manifest import manifest_ddl, manifest_rows, seal, write_folders, write_manifest
from registry.db.replaceable import ensure_replaceable, not_replaceable, replaceable
from registry.db.schema import create_indexes, create_schema, ordered_tables
from registry.db.search import create_search
from registry.db.server import connection_error, first_line, server_engine, shown_url
from registry.db.views import create_views, drop_views, views
from registry.errors import InvalidRegistryError, RegistryError
from registry.models.unit import UnitRecord
from registry.site.links import SITE_URL_KEY
from registry.store.atomic import TargetChangedError, install, sync_folder, temporary_beside
from registry.store.cache import ParseCache
from registry.store.cache import enabled as cache_enabled
from registry.store.loader import Registry, gc_paused

#: Rows buffered before they are written; bounds memory on large registries.
FLUSH_ROWS = 50_000


@dataclass(frozen=True)
class BuildSummary:
    """What a build wrote, for the command to report."""

    target: str
    records: int
    rows: int
    tables: int
    views: int
    seconds: float
    changes: Any = None
    """What an update changed (``registry.db.update.Changes``); None for a full build."""
    full_because: str | None = None
    """Why a SQLite build was a full one rather than an update (None for an update, and for a server)."""
    validated: str = ""
    """How the records were validated where not by loading every one: 'by the watcher' or 'incrementally'."""
    watcher_failed: str | None = None
    """Why a watcher that answered could not serve, for the command to say (the records were validated without it)."""
    cache_refused: object | None = None
    """Why the cache's folders could not be used, for the command to say (nothing was kept)."""


def _fill(connection: Connection, registry: Registry, store: ParseCache | None = None) -> int:
    """Insert every row, in table order, a bounded batch at a time; returns the number of rows.

    On SQLite the rows are the values it stores (``sqlite_rows``, unchanged records' from ``store``).
    """
    tables = {str(table.name): table for table in ordered_tables()}
    buffers: dict[str, list[Any]] = {name: [] for name in tables}
    pending = 0
    written = 0

    def flush() -> None:
        nonlocal pending, written
        for name, rows in buffers.items():
            if rows:
                insert_rows(connection, tables[name], rows)
                written += len(rows)
                rows.clear()
        pending = 0

    made = sqlite_rows(registry, store) if connection.dialect.name == "sqlite" else registry_rows(registry)
    for name, row in made:
        buffers[name].append(row)
        pending += 1
        if pending >= FLUSH_ROWS:
            flush()
    flush()
    return written


def _populate(connection: Connection, registry: Registry, store: ParseCache | None = None,
              site_url: str | None = None) -> int:
    """Tables, rows, indexes, views and search; ``site_url`` (where the site is published) is kept in
    ``registry_meta`` for the views' page links (``registry.site.links.page_url_sql``)."""
    create_schema(connection)
    written = _fill(connection, registry, store)
    if site_url is not None:
        connection.execute(text("INSERT INTO registry_meta (key, value) VALUES (:key, :value)"),
                           {"key": SITE_URL_KEY, "value": site_url})
        written += 1
    if connection.dialect.name == "postgresql":
        # Check the deferred foreign keys now: PostgreSQL indexes no table with checks still pending.
        connection.execute(text("SET CONSTRAINTS ALL IMMEDIATE"))
    create_indexes(connection)
    create_views(connection)
    create_search(connection)
    if connection.dialect.name == "sqlite":  # what the next build reads to update this one (manifest.py)
        for statement in manifest_ddl():
            connection.exec_driver_sql(statement)
        raw = connection.connection.driver_connection
        write_manifest(raw, manifest_rows(registry, registry.records), rows_version())  # type: ignore[arg-type]
        write_folders(raw, update.of_registry(registry).folders())  # type: ignore[arg-type]
    return written


def build_database(records: Path, *, out: Path | None = None, url: str | None = None,
                   cache: bool | None = None, site_url: str | None = None, full: bool = False) -> BuildSummary:
    """Validate the records under ``records``, then build them into ``url`` (a server) or the file ``out``.

    ``cache`` is passed to ``registry.validate.runner.validate`` (False: read every file, not the parse cache).
    ``site_url``, where the site is published, makes the views' ``*_page`` columns links to its pages.
    A SQLite file this code built is updated rather than rebuilt unless ``full``: with the cache on, from what
    the incremental index holds (``update_sqlite``: the report from a running ``registry watch`` or an
    incremental run, and only the changed records read); else, or where that index cannot serve, from the
    records loaded in full (``build_sqlite``). A server database is always built anew.

    Raises ``InvalidRegistryError`` (carrying the report) when the registry is not valid: nothing is built.
    """
    from registry.validate.runner import validate

    target = Path(out) if out is not None else Path("registry.db")
    # A bad URL or a file that must not be replaced is reported before a long validation.
    if url is not None:
        server_engine(url).dispose()
    else:
        from registry.store.outputs import prepare_output

        prepare_output(target, records, folder=False)
        ensure_replaceable(target)
    read_at = time.time_ns()  # before the first record is read: an edit from now on makes the database stale
    full_because = FULL_ASKED if full else None
    if url is None and not full and (cache_enabled() if cache is None else cache) and records.is_dir():
        try:
            return update_sqlite(records, target, records_read_at=read_at, site_url=site_url)
        except update.EveryRecordNeeded:
            pass  # an update all the same, from the records loaded in full
        except update.NotUpdatable as exc:
            full_because = exc.reason
    with gc_paused():  # records make no reference cycles; the collector would rescan them all, often
        registry, report = validate(records, cache=cache)
    if not report.valid:
        raise InvalidRegistryError(report)
    if url is not None:
        return build_server(registry, url, site_url=site_url)
    return build_sqlite(registry, target, records_read_at=read_at, cache=cache, site_url=site_url,
                        full_because=full_because)


# -- SQLite ---------------------------------------------------------------------------------


def _sqlite_engine(path: Path) -> Engine:
    engine = create_engine(f"sqlite:///{path}")

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        # The file is temporary until renamed: no rollback journal, no fsync per commit (one at the end).
        cursor.execute("PRAGMA journal_mode = OFF")
        cursor.execute("PRAGMA synchronous = OFF")
        # Every row is checked against its foreign keys as it goes in: a dangling reference fails the build.
        cursor.execute("PRAGMA foreign_keys = ON")
        # Room to build indexes in memory (256 MiB at most) instead of in temporary files.
        cursor.execute("PRAGMA cache_size = -262144")
        cursor.execute("PRAGMA temp_store = MEMORY")
        cursor.close()

    return engine


def build_sqlite(registry: Registry, out: Path, *, records_read_at: int | None = None,
                 cache: bool | None = None, site_url: str | None = None, full: bool = False,
                 full_because: str | None = None) -> BuildSummary:
    """Build the database into ``out`` atomically: a temporary file beside it, renamed into place when complete.

    Where ``out`` is a database this code built from the same records folder, untouched since, it is
    updated instead (``registry.db.update``): a copy of it, in the temporary file, gets only the rows
    of what changed; ``full`` builds anew all the same, and so does a ``full_because`` (why, said in the
    summary: an update from the incremental index found it could not be one). The summary says which,
    and why not an update. ``records_read_at`` (nanoseconds since the epoch, when reading the records
    began; default: now) becomes the file's modification time, which ``registry query`` compares the
    record files against. Unchanged records' rows come from the parse cache (``sqlite_rows``);
    ``cache=False`` converts every record, ``None`` follows ``$REGISTRY_NO_CACHE``.
    """
    because = FULL_ASKED if full else full_because

    def write(tmp: Path, code: str) -> tuple[int, Any, str | None]:
        changes = None
        if because is None:
            try:  # a few records' rows are made as fast as they are looked up: no parse cache
                with gc_paused():
                    changes = _update(update.of_registry(registry), out, tmp, code, site_url)
                return changes.rows_inserted, changes, None
            except update.NotUpdatable as exc:
                os.truncate(tmp, 0)
                return _built_anew(tmp, registry, cache, site_url), None, exc.reason
        return _built_anew(tmp, registry, cache, site_url), None, because

    return _written(out, records_read_at, len(registry.records), write)


def update_sqlite(records: Path, out: Path, *, records_read_at: int | None = None,
                  site_url: str | None = None) -> BuildSummary:
    """Update the database at ``out`` to the records under ``records`` from what the incremental index holds
    (``registry.db.current``): the report (a watcher's answer, or an incremental run's, exactly a cold run's)
    and every record's file and digest; only the records that changed are read and typed.

    Raises ``InvalidRegistryError`` for an invalid registry, ``NotUpdatable`` where the database cannot be
    updated (a full build must be made, for the reason it gives), and ``EveryRecordNeeded`` where an update
    must read every record (the registry declares its own units, which every record's rows may read)."""
    from registry.db.current import records_now

    code = rows_version()
    update.check_updatable(out, records, code)  # before the records are read: a first build loads them in full
    if update.held_of_kind(out, UnitRecord.kind_token):
        raise update.EveryRecordNeeded("the registry declares its own units")
    current = records_now(records)

    def write(tmp: Path, code: str) -> tuple[int, Any, str | None]:
        with gc_paused():
            changes = _update(current, out, tmp, code, site_url)
        return changes.rows_inserted, changes, None

    summary = _written(out, records_read_at, current.count, write, current.validated, code)
    return replace(summary, watcher_failed=current.watcher_failed, cache_refused=current.cache_refused)


def _built_anew(tmp: Path, registry: Registry, cache: bool | None, site_url: str | None) -> int:
    """A full build into ``tmp``, unchanged records' rows taken from the parse cache where it is on."""
    store = ParseCache.open(registry.root) if (cache_enabled() if cache is None else cache) else None
    try:
        return _build_into(tmp, registry, store, site_url)
    finally:
        if store is not None:
            store.close()


def _written(out: Path, records_read_at: int | None, count: int,
             write: Callable[[Path, str], tuple[int, Any, str | None]], validated: str = "",
             code: str | None = None) -> BuildSummary:
    """Make the database at ``out`` with ``write`` (into a temporary file beside it, given the code's version,
    ``code`` where it was worked out already; it returns the rows written, the update's changes or None, and why
    a full build), then seal it and rename it into place; a database found up to date is left as it is, but for
    its time."""
    started = time.perf_counter()
    read_at = time.time_ns() if records_read_at is None else records_read_at
    out = Path(out)
    if out.is_dir():
        raise RegistryError(f"{str(out)!r} is a folder", "give {out} a file name, for example registry.db")
    ensure_replaceable(out)
    if code is None:
        with gc_paused():  # the records are still held: a collection would rescan them all, often
            code = rows_version()
    with ExitStack() as cleanup:  # the temporary file goes, whatever happens
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = cleanup.enter_context(temporary_beside(out))
        except OSError as exc:
            raise RegistryError(
                f"cannot write the database next to {str(out)!r}: {exc.strerror}",
                "choose a writable folder with {out}",
            ) from exc
        try:
            written, changes, full_because = write(tmp, code)
            if changes is not None and changes.nothing:  # up to date: only the time the records were read is new
                os.utime(out, ns=(time.time_ns(), read_at))
                return _summary(count, out, written, started, changes, full_because, validated)
            seal(tmp)
            os.utime(tmp, ns=(time.time_ns(), read_at))
            with open(tmp, "rb+") as handle:
                os.fsync(handle.fileno())
            # Replaced only if it is still a database a build wrote (or nothing, or an empty file): a file
            # put at ``out`` while this build ran is judged as it is replaced, and kept.
            install(tmp, out, replaceable=replaceable)
            sync_folder(out.parent)
        except TargetChangedError as exc:
            raise not_replaceable(out, "while the build ran") from exc
        except SQLAlchemyError as exc:
            raise RegistryError(
                f"building {str(out)!r} failed: {first_line(exc)}; the previous database, if any, is untouched",
                "run again with {debug} for the details, and report it",
            ) from exc
        except OSError as exc:
            raise RegistryError(
                f"cannot write the database {str(out)!r}: {exc.strerror or exc}; the previous database, if any, "
                "is untouched",
                "check the free disk space and that the folder is writable",
            ) from exc
    return _summary(count, out, written, started, changes, full_because, validated)


def _site_row(site_url: str | None) -> list[tuple[str, tuple[Any, ...]]]:
    """The ``registry_meta`` row of where the site is published, if it is."""
    return [] if site_url is None else [("registry_meta", (SITE_URL_KEY, site_url))]


def _summary(count: int, out: Path, written: int, started: float, changes: Any,
             full_because: str | None, validated: str = "") -> BuildSummary:
    return BuildSummary(str(out), count, written, len(ordered_tables()), len(views()),
                        time.perf_counter() - started, changes, full_because, validated)


#: Why a build is a full one when the caller asked for it (``full=True``).
FULL_ASKED = "asked for"


def _build_into(tmp: Path, registry: Registry, store: ParseCache | None, site_url: str | None) -> int:
    """A full build into the empty file ``tmp``; returns the number of rows."""
    engine = _sqlite_engine(tmp)
    try:
        with engine.begin() as connection, gc_paused():
            return _populate(connection, registry, store, site_url)
    finally:
        engine.dispose()


def _update(current: update.Current, out: Path, tmp: Path, code: str, site_url: str | None) -> Any:
    """Update a copy of the database at ``out`` in ``tmp`` to the records ``current`` gives
    (``registry.db.update``); ``NotUpdatable`` where it cannot be done exactly, and for an update that fails (the
    full build then says why)."""
    seal_found = update.check_updatable(out, current.root, code)
    try:
        planned = update.read_plan(out, current)
        loaded = current.loaded(planned.files)
        fixed = [*fixed_values(loaded, current.count), *_site_row(site_url)]
        if not planned.changed and not planned.removed and update.holds_fixed_rows(out, fixed):
            return update.Changes()  # up to date as it is: nothing is written
    except sqlite3.Error as exc:
        raise update.NotUpdatable(f"it cannot be read ({exc})") from exc
    update.copy_for_update(out, tmp, seal_found)  # the seal is checked again on the copy: the plan holds for it
    engine = _sqlite_engine(tmp)
    try:
        with engine.begin() as connection, gc_paused():
            made = record_values(loaded, records_in_order(loaded, planned.changed))
            return update.apply(connection, loaded, planned, itertools.chain(made, fixed), insert_rows)
    except SQLAlchemyError as exc:
        raise update.NotUpdatable(f"the update failed ({first_line(exc)})") from exc
    finally:
        engine.dispose()


# -- a server (PostgreSQL) ------------------------------------------------------------------


def build_server(registry: Registry, url: str, *, site_url: str | None = None) -> BuildSummary:
    """Build the same tables, rows and views into a server database, replacing this registry's tables there."""
    started = time.perf_counter()
    engine = server_engine(url)
    try:
        try:
            connection = engine.connect()
        except SQLAlchemyError as exc:
            raise connection_error(url, exc) from exc
        with connection:
            try:
                with connection.begin():
                    drop_views(connection)
                    for table in reversed(ordered_tables()):
                        connection.execute(text(f'DROP TABLE IF EXISTS "{table.name}" CASCADE'))
                    with gc_paused():
                        written = _populate(connection, registry, site_url=site_url)
            except SQLAlchemyError as exc:
                raise RegistryError(
                    f"building into {shown_url(url)} failed: {first_line(exc)}; nothing was changed there",
                    "check that the user may create tables in this database; run again with {debug} for the details",
                ) from exc
    finally:
        engine.dispose()
    return BuildSummary(shown_url(url), len(registry.records), written, len(ordered_tables()), len(views()),
                        time.perf_counter() - started)
