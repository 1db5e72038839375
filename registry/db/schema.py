"""The database's schema, derived from the record models: its tables in foreign-key order, their indexes, and the
statements that make them with the views and the search (``schema_ddl``, kept in ``tests/data/golden/``)."""

from __future__ import annotations

from sqlalchemy import Index
from sqlalchemy import Table as SaTable
from sqlalchemy.engine import Connection
from sqlalchemy.schema import CreateIndex, CreateTable

from registry.db.manifest import manifest_ddl
from registry.db.search import search_ddl
from registry.db.tables import mirror
from registry.db.views import views


def ordered_tables() -> list[SaTable]:
    """Every table (derived from the record models), each after the tables its foreign keys point to."""
    return mirror().tables()


def create_schema(connection: Connection) -> None:
    """Tables first; indexes (after the rows go in, indexes build faster) and views come after the rows
    (``registry.db.build``)."""
    for table in ordered_tables():
        connection.execute(CreateTable(table))


def _indexes() -> list[Index]:
    return [index for table in ordered_tables() for index in sorted(table.indexes, key=lambda i: str(i.name))]


def create_indexes(connection: Connection) -> None:
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
