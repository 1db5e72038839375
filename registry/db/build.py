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

import datetime as dt
import itertools
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, replace
from functools import cache
from operator import itemgetter
from pathlib import Path
from typing import Any

from sqlalchemy import Date, Index, create_engine, event, insert, text
from sqlalchemy import Table as SaTable
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.schema import CreateIndex, CreateTable

from registry.db import update
from registry.db.coltypes import ExactDecimal, UtcTimestamp
from registry.db.freshness import RECORDS_FOLDER_KEY
from registry.db.manifest import digest_of, manifest_ddl, manifest_rows, seal, write_folders, write_manifest
from registry.db.rows import Row, record_row, record_rows, relative_path
from registry.db.search import create_search, search_ddl
from registry.db.server import connection_error, first_line, server_engine, shown_url
from registry.db.tables import SCHEMA_VERSION, mirror
from registry.db.views import create_views, drop_views, views
from registry.errors import InvalidRegistryError, RegistryError
from registry.models import KIND_MODELS, Record
from registry.models.unit import UnitRecord
from registry.site.links import SITE_URL_KEY
from registry.store.atomic import TargetChangedError, install, sync_folder, temporary_beside
from registry.store.cache import ParseCache
from registry.store.cache import enabled as cache_enabled
from registry.store.loader import Registry, gc_paused
from registry.units import BUILT_IN

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


def ordered_tables() -> list[SaTable]:
    """Every table (derived from the record models), each after the tables its foreign keys point to."""
    return mirror().tables()


def registry_rows(registry: Registry) -> Iterator[tuple[str, Row]]:
    """Every (table, row) of the registry: kinds in dependency order, ids sorted within a kind."""
    tables = mirror()
    for record, relative in records_in_order(registry):
        yield from record_rows(record, relative, tables)
    yield from _fixed_rows(registry)


def records_in_order(registry: Registry, only: set[str] | None = None) -> Iterator[tuple[Record, str]]:
    """(record, its path below the records folder) of every record (or of those in ``only``): kinds in dependency
    order, ids sorted."""
    by_kind: dict[str, list[str]] = {kind: [] for kind in KIND_MODELS}
    for record_id in registry.records if only is None else only:
        by_kind[registry.records[record_id].kind_token].append(record_id)
    for ids in by_kind.values():
        for record_id in sorted(ids):
            yield registry.records[record_id], relative_path(registry, record_id)


def _fixed_rows(registry: Registry, count: int | None = None) -> Iterator[tuple[str, Row]]:
    """The rows that come from no record: the units (built-in ones and the registry's unit records'), and what
    the database holds (``count`` records: default, as many as ``registry`` holds; an update's registry holds
    only the records it stores again, and every unit record)."""
    declared = {record.token: record.id for record in registry.of_kind(UnitRecord)}
    for token, unit in registry.units.specs.items():
        yield "unit", {"token": token, "dimension": unit.dimension.value, "symbol": unit.symbol, "scale": unit.scale,
                       "scale_float": None if unit.scale is None else float(unit.scale),
                       "record_id": declared.get(token) if token not in BUILT_IN else None}
    yield "registry_meta", {"key": "schema_version", "value": str(SCHEMA_VERSION)}
    yield "registry_meta", {"key": "records", "value": str(len(registry.records) if count is None else count)}
    yield "registry_meta", {"key": RECORDS_FOLDER_KEY, "value": str(registry.root.resolve())}  # for 'registry query'


def sqlite_rows(registry: Registry, store: ParseCache | None = None) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """``registry_rows`` as the values SQLite stores (``as_sqlite``), in the same order.

    A record's rows (but its ``record`` row, which holds its path) depend only on its file's content
    and the code that types and converts it, so ``store`` keeps them by the content's digest and
    ``rows_version``: an unchanged record is not converted again. They are the same values either way
    (text, numbers, flags and None come back from the store exactly), so the database is the same,
    byte for byte.
    """
    yield from record_values(registry, records_in_order(registry), store)
    yield from fixed_values(registry)


def fixed_values(registry: Registry, count: int | None = None) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """``_fixed_rows`` as the values SQLite stores."""
    stored_as = _stored_as()
    for name, row in _fixed_rows(registry, count):
        yield name, stored_as[name](row)


def _stored_as() -> dict[str, Callable[[Row], tuple[Any, ...]]]:
    return {name: _sqlite_values(table) for name, table in mirror().metadata.tables.items()}


def record_values(registry: Registry, ordered: Iterator[tuple[Record, str]], store: ParseCache | None = None
                  ) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """The rows (as SQLite stores them) of the records ``ordered`` gives, in that order (see ``sqlite_rows``)."""
    tables = mirror()
    stored_as = _stored_as()
    version = rows_version() if store is not None else ""
    as_record = stored_as["record"]
    while chunk := list(itertools.islice(ordered, ROWS_LOOKUP)):
        digests = [_digest_of(registry, record) for record, _ in chunk]
        known = store.derived(version, [d for d in digests if d is not None]) if store is not None else {}
        for (record, relative), digest in zip(chunk, digests, strict=True):
            yield "record", as_record(record_row(record, relative))
            rows = known.get(digest) if digest is not None else None
            if rows is None:
                made = record_rows(record, relative, tables)
                next(made)  # the 'record' row, made above
                rows = [(name, stored_as[name](row)) for name, row in made]
                if store is not None and digest is not None:
                    store.remember_derived(version, digest, rows)
            yield from rows


#: Records whose stored rows are looked up at once.
ROWS_LOOKUP = 1000


def _digest_of(registry: Registry, record: Record) -> bytes | None:
    return digest_of(registry, record.id) or None


def rows_version() -> str:
    """What a record's rows depend on beyond its file's content: the tables as SQLite makes them, and the
    code that types records and turns them into rows (every module of the package, every kind's model,
    Pydantic and Python). The parse cache's store is itself kept per version of the parsing code."""
    import hashlib
    import inspect
    import sys

    import pydantic_core

    import registry

    digest = hashlib.sha256(f"{ROWS_FORMAT} {sys.version} {pydantic_core.__version__}".encode())
    digest.update(schema_ddl("sqlite").encode())
    package = Path(registry.__file__).resolve().parent
    sources = {*package.rglob("*.py")}
    for model in KIND_MODELS.values():  # a kind registered from outside the package (a plugin, a test)
        source = inspect.getsourcefile(model)
        if source is not None:
            sources.add(Path(source).resolve())
    for path in sorted(sources):
        digest.update(str(path.relative_to(package) if path.is_relative_to(package) else path).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


#: Bump when what ``sqlite_rows`` stores changes meaning.
ROWS_FORMAT = 1


def _create_schema(connection: Connection) -> None:
    """Tables first; indexes (after the rows go in, indexes build faster) and views come after ``_fill``."""
    for table in ordered_tables():
        connection.execute(CreateTable(table))


def _indexes() -> list[Index]:
    return [index for table in ordered_tables() for index in sorted(table.indexes, key=lambda i: str(i.name))]


def _create_indexes(connection: Connection) -> None:
    for index in _indexes():
        connection.execute(CreateIndex(index))


def schema_ddl(dialect: str) -> str:
    """The statements a build runs to make its tables, indexes and views, as ``dialect`` ('sqlite' or
    'postgresql') words them; no server is needed. ``tests/data/golden/`` keeps them, so that a change
    to the derivation shows up in a diff."""
    from sqlalchemy.dialects import postgresql, sqlite

    compiler = {"sqlite": sqlite.dialect, "postgresql": postgresql.dialect}[dialect]()
    statements = [str(CreateTable(table).compile(dialect=compiler)).strip() for table in ordered_tables()]
    statements += [str(CreateIndex(index).compile(dialect=compiler)).strip() for index in _indexes()]
    statements += [f"CREATE VIEW {name} AS{select}" for name, (_, select) in views(dialect).items()]
    statements += [search_ddl(), *manifest_ddl()] if dialect == "sqlite" else []
    script = "\n\n".join(f"{statement};" for statement in statements)
    return "\n".join(line.rstrip() for line in script.splitlines()) + "\n"


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


def insert_rows(connection: Connection, table: SaTable, rows: list[Any]) -> None:
    """One executemany for a batch of rows of one table (on SQLite, rows may be the values it stores)."""
    if connection.dialect.name == "sqlite":
        # SQLAlchemy's per-row parameter processing costs more than SQLite's insert itself; on SQLite the
        # rows go straight to the driver, converted the way the column types would convert them.
        values = rows if rows and isinstance(rows[0], tuple) else list(map(_sqlite_values(table), rows))
        connection.connection.driver_connection.executemany(_sqlite_insert(table)[0], values)  # type: ignore[union-attr]
    else:
        connection.execute(insert(table), rows)


def _sqlite_values(table: SaTable) -> Callable[[Row], tuple[Any, ...]]:
    """What turns a row of ``table`` into the values SQLite stores, in column order, converted as the column
    types would convert them."""
    _, getter, converters = _sqlite_insert(table)
    if not converters:
        return getter  # type: ignore[no-any-return]
    return lambda row: _convert(getter(row), converters)


def _convert(value: tuple[Any, ...], converters: list[tuple[int, Any]]) -> tuple[Any, ...]:
    items = list(value)
    for index, convert in converters:
        if items[index] is not None:
            items[index] = convert(items[index])
    return tuple(items)


def _sqlite_timestamp(value: dt.datetime) -> str:
    """As SQLAlchemy stores a DateTime on SQLite, in UTC (see ``coltypes.UtcTimestamp``)."""
    return value.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


@cache
def _sqlite_insert(table: SaTable) -> tuple[str, Any, list[tuple[int, Any]]]:
    """The INSERT statement of a table, a function picking a row's values in column order, and converters."""
    names = [column.name for column in table.columns]
    quoted = ", ".join(f'"{name}"' for name in names)
    sql = f'INSERT INTO "{table.name}" ({quoted}) VALUES ({", ".join("?" * len(names))})'
    getter = itemgetter(*names) if len(names) > 1 else (lambda row: (row[names[0]],))
    converters: list[tuple[int, Any]] = []
    for index, column in enumerate(table.columns):
        if isinstance(column.type, ExactDecimal):
            converters.append((index, str))
        elif isinstance(column.type, UtcTimestamp):
            converters.append((index, _sqlite_timestamp))
        elif isinstance(column.type, Date):
            converters.append((index, dt.date.isoformat))
    return sql, getter, converters


def _populate(connection: Connection, registry: Registry, store: ParseCache | None = None,
              site_url: str | None = None) -> int:
    """Tables, rows, indexes, views and search; ``site_url`` (where the site is published) is kept in
    ``registry_meta`` for the views' page links (``registry.site.links.page_url_sql``)."""
    _create_schema(connection)
    written = _fill(connection, registry, store)
    if site_url is not None:
        connection.execute(text("INSERT INTO registry_meta (key, value) VALUES (:key, :value)"),
                           {"key": SITE_URL_KEY, "value": site_url})
        written += 1
    if connection.dialect.name == "postgresql":
        # Check the deferred foreign keys now: PostgreSQL indexes no table with checks still pending.
        connection.execute(text("SET CONSTRAINTS ALL IMMEDIATE"))
    _create_indexes(connection)
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
    return build_sqlite(registry, target, records_read_at=read_at, site_url=site_url,
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
                 site_url: str | None = None, full: bool = False,
                 full_because: str | None = None) -> BuildSummary:
    """Build the database into ``out`` atomically: a temporary file beside it, renamed into place when complete.

    Where ``out`` is a database this code built from the same records folder, untouched since, it is
    updated instead (``registry.db.update``): a copy of it, in the temporary file, gets only the rows
    of what changed; ``full`` builds anew all the same, and so does a ``full_because`` (why, said in the
    summary: an update from the incremental index found it could not be one). The summary says which,
    and why not an update. ``records_read_at`` (nanoseconds since the epoch, when reading the records
    began; default: now) becomes the file's modification time, which ``registry query`` compares the
    record files against. A full build makes every record's rows (``_built_anew``).
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
                return _built_anew(tmp, registry, site_url), None, exc.reason
        return _built_anew(tmp, registry, site_url), None, because

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


def _built_anew(tmp: Path, registry: Registry, site_url: str | None) -> int:
    """A full build into ``tmp``, every record's rows made afresh: keeping them in the parse cache cost a first
    build more than it saved a later full one (at 10,000 results about 2.6 processor seconds to encode and store
    them against 0.4 s saved; docs/design/cold-path.md)."""
    return _build_into(tmp, registry, None, site_url)


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
            install(tmp, out, replaceable=_replaceable)
            sync_folder(out.parent)
        except TargetChangedError as exc:
            raise _not_replaceable(out, "while the build ran") from exc
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


def is_registry_database(path: Path) -> bool:
    """Whether ``path`` is a SQLite database that a build wrote: it has ``registry_meta`` with a schema version."""
    try:
        connection = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    except (sqlite3.Error, OSError):
        return False
    try:
        row = connection.execute("SELECT value FROM registry_meta WHERE key = 'schema_version'").fetchone()
    except (sqlite3.Error, UnicodeDecodeError):  # a damaged file: SQLite's message about it may not be UTF-8
        return False
    finally:
        connection.close()
    return row is not None


def ensure_replaceable(out: Path) -> None:
    """Refuse to replace a file that is not a database built here: '--out README.md' must not destroy a README.

    A database from any earlier build may be replaced (that is what rebuilding is), and so may an
    empty file (it holds nothing to lose); any other file is left exactly as it is.
    """
    try:
        if not out.exists() or out.is_dir():
            return  # nothing there yet; a folder gets its own message
    except OSError:
        return  # the write itself will report what is wrong
    if not _replaceable(out):
        raise _not_replaceable(out)


def _replaceable(path: Path) -> bool:
    """Whether a build may replace the file at ``path``: an empty file, or a database a build wrote."""
    try:
        info = path.stat()
    except OSError:
        return not path.is_symlink()  # gone meanwhile: nothing to lose (a dangling link is kept)
    return stat.S_ISREG(info.st_mode) and (info.st_size == 0 or is_registry_database(path))


def _not_replaceable(out: Path, when: str = "") -> RegistryError:
    return RegistryError(
        f"{str(out)!r} {'was written ' + when + ' and ' if when else 'already exists and '}is not a database that "
        "'registry db build' wrote; it was left untouched",
        "choose another file for {out} (for example registry.db), or move that file away first",
    )


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
