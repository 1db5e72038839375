"""The rows a build writes: every record's and the fixed ones (units, what the database holds), in a fixed order
(kinds in dependency order, ids sorted), as the values SQLite stores; a record's rows kept in the parse cache by its
content's digest and the code's version (``rows_version``), and a batch of one table's rows inserted at once."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Iterator
from functools import cache
from operator import itemgetter
from pathlib import Path
from typing import Any

from sqlalchemy import Date, insert
from sqlalchemy import Table as SaTable
from sqlalchemy.engine import Connection

from registry.db.coltypes import ExactDecimal, UtcTimestamp
from registry.db.freshness import RECORDS_FOLDER_KEY
from registry.db.manifest import digest_of
from registry.db.rows import Row, record_row, record_rows, relative_path
from registry.db.schema import schema_ddl
from registry.db.tables import SCHEMA_VERSION, mirror
from registry.models import KIND_MODELS, Record
from registry.models.unit import UnitRecord
from registry.store.cache import ParseCache
from registry.store.loader import Registry
from registry.units import BUILT_IN


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

