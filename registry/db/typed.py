"""Typed rows for Python: SQLModel classes derived from the record models, and a read-only session on a build.

The classes come from the same derivation as the tables (``registry.db.tables.mirror``): one class per
table, one attribute per column with the column's Python type (an exact decimal is a ``Decimal``, a
timestamp an aware ``datetime``), so a field added to a model reaches them with no edit here. The
references between records become relationships, derived from the foreign keys:

- ``<column>_record`` follows a reference to the record it names (``result.evaluation_record``);
- the record named gets the rows that name it, ``<table>s`` (``evaluation.results``), or
  ``<table>s_by_<column>`` where a table names it through two columns (and a source's reviews by
  their ``source`` field, ``reviews_by_source``, since ``reviews`` are the reviews that check it);
- a record's lists are its child tables' rows, in order (``result.hardware``, ``source.author``);
- every record has ``reviews``: the reviews that list it among their subjects.

    from sqlmodel import select
    from registry.db.typed import open_read_only, rows

    with open_read_only("registry.db") as session:
        for result in session.exec(select(rows.result).where(rows.result.metric == "peak-memory")):
            print(result.printed_value, result.evaluation_record.name, [r.reviewer for r in result.reviews])

Relationships are view-only and the database is opened read-only (SQLite ``mode=ro``; PostgreSQL
sessions with ``default_transaction_read_only``): nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Optional

from registry.errors import RegistryError

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlmodel import Session

    from registry.db.tables import Mirror

#: The table of review subjects, and its columns, through which every record finds its reviews.
REVIEW_SUBJECTS = ("review_subject", "review_id", "subject")
#: The relationship every record has to the reviews that check it (a source's reviews by their 'source' field
#: are ``reviews_by_source``).
REVIEWS = "reviews"


class _Rows(SimpleNamespace):
    """The row classes by table name (``rows.result``, ``rows.result_hardware``); built on first use."""

    def __getattr__(self, name: str) -> Any:
        classes = row_classes()
        if name not in classes:
            raise AttributeError(f"no table {name!r}; the tables are: {', '.join(sorted(classes))}")
        return classes[name]


rows = _Rows()


def row_classes() -> dict[str, type[Any]]:
    """One SQLModel class per table of the database, with its relationships, by table name."""
    from registry.db.tables import mirror

    return _classes(mirror())


@cache
def _classes(derived: Mirror) -> dict[str, type[Any]]:
    from sqlalchemy import MetaData
    from sqlalchemy.orm import registry
    from sqlmodel import SQLModel

    base = type("RegistryRow", (SQLModel,), {"__doc__": "A row of a built registry database."},
                registry=registry(metadata=MetaData()))
    classes = {table.name: _row_class(base, table) for table in derived.tables()}
    _relate(derived, classes)
    return classes


def _row_class(base: type[Any], table: Table) -> type[Any]:
    from sqlmodel import Field

    annotations: dict[str, Any] = {}
    namespace: dict[str, Any] = {"__tablename__": table.name, "__annotations__": annotations,
                                 "__doc__": f"A row of the {table.name} table."}
    for column in table.columns:
        try:
            python: Any = column.type.python_type
        except NotImplementedError:
            python = Any
        annotations[column.name] = Optional[python]  # noqa: UP045 (pydantic evaluates it at class creation)
        namespace[column.name] = Field(default=None, sa_column=column._copy())
    name = "".join(part.capitalize() for part in table.name.split("_")) + "Row"
    return type(name, (base,), namespace, table=True)


def _relate(derived: Mirror, classes: dict[str, type[Any]]) -> None:
    """The relationships the foreign keys give, and each record's reviews, added to the mapped classes."""
    from sqlalchemy.orm import foreign, relationship

    kind_tables = {stored.name for stored in derived.kinds.values()} | {"record"}
    named: dict[tuple[str, str], list[str]] = {}
    for stored in derived.kinds.values():
        table = stored.table
        for column in table.columns:
            for key in column.foreign_keys:
                target = key.column.table.name
                if target not in kind_tables or column.primary_key:
                    continue
                named.setdefault((target, table.name), []).append(column.name)
    for (target, source), names in named.items():
        for name in names:
            here, there = classes[source], classes[target]
            join = foreign(getattr(here, name)) == there.id
            here.__mapper__.add_property(f"{name}_record", relationship(there, primaryjoin=join, viewonly=True))
            back = f"{source}s" if len(names) == 1 and f"{source}s" != REVIEWS else f"{source}s_by_{name}"
            there.__mapper__.add_property(back, relationship(here, primaryjoin=join, viewonly=True,
                                                             order_by=here.id))
    for stored in derived.kinds.values():
        owner = classes[stored.name]
        for _, child in stored.children:
            if len(child.owner) != 1 or child.name not in classes:
                continue
            item = classes[child.name]
            prefix = f"{stored.name}_"
            attribute = child.name[len(prefix):] if child.name.startswith(prefix) else child.name
            order = [getattr(item, child.key)] if child.key else []
            owner.__mapper__.add_property(attribute, relationship(
                item, primaryjoin=foreign(getattr(item, child.owner[0])) == owner.id, viewonly=True,
                order_by=order))
    subjects_table, review_column, subject_column = REVIEW_SUBJECTS
    subjects = classes[subjects_table].__table__
    review = classes["review"]
    for stored in derived.kinds.values():
        owner = classes[stored.name]
        owner.__mapper__.add_property(REVIEWS, relationship(
            review, secondary=subjects, primaryjoin=owner.id == foreign(subjects.c[subject_column]),
            secondaryjoin=review.id == foreign(subjects.c[review_column]), viewonly=True, order_by=review.id))


@contextmanager
def open_read_only(database: str | Path) -> Iterator[Session]:
    """A session on a built database, read-only: a SQLite file (a path) or a PostgreSQL server (a URL)."""
    from sqlalchemy import create_engine
    from sqlmodel import Session

    from registry.db.server import server_engine

    text = str(database)
    if "://" in text:
        engine = server_engine(text, read_only=True, file_input="db_file")
    else:
        path = Path(text)
        if not path.is_file():
            raise RegistryError(f"{text!r} is not a database file", "build one with 'registry db build' first")
        engine = create_engine(f"sqlite:///file:{path.resolve().as_posix()}?mode=ro&uri=true")
    row_classes()  # the classes are mapped before the first query
    session = Session(engine, autoflush=False)
    try:
        yield session
    finally:
        session.rollback()
        session.close()
        engine.dispose()
