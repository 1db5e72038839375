"""The database schema, derived from the record models: every table, column, key and index.

Nothing here lists a record's fields; ``mirror()`` reads them off ``registry.models.KIND_MODELS``
(the field types, the ``x-references`` markers and the ``Sql`` markers), so a field added to a
model reaches the tables, the rows and ``results_flat`` with no second edit. The rule:

- each kind has a table named for its token, keyed by the record's id (also a foreign key to
  ``record``); ``record`` lists every record (id, kind, file), so that references to records of
  any kind have a foreign key; ``registry_meta`` holds the schema version and the record count;
- a scalar field ``f`` is column ``f``; the kind's own fields come first, in the order the model
  declares them, then the ones every record shares (``derivation``);
- a nested object ``f`` is flattened into ``f_<subfield>`` columns (recursively); an object that
  may be one of several types (a union: a typed uncertainty, a typed locator) spreads over the
  columns of all of them, a field they share (a ``kind`` tag) being one column;
- an exact decimal ``f`` is stored twice: ``f`` exactly (NUMERIC on PostgreSQL, the decimal's text
  on SQLite, whose NUMERIC would round it) and ``f_float`` as a double, for arithmetic and sorting;
- a value that may be text, a whole number or a flag (a knob's value) is ``f`` as text and
  ``f_type`` ('string', 'integer' or 'boolean');
- a list or mapping field has a child table ``<owner table>_<singular>``, one row per item, keyed
  by the owner's key columns and the item's ``position`` (a list) or its key (a mapping: column
  ``key``, or as ``Sql(key=...)`` names it). An item that is a plain value goes in column
  ``<singular>`` (or ``Sql(value=...)``); an item that is an object spreads over its fields'
  columns, and its own lists and mappings get grandchild tables, keyed by the owner's key with the
  parent's own key renamed ``<parent singular>_<key>`` (``recipe_knob_candidate`` is keyed by
  ``recipe_id, knob_position, position``). A list inside a nested object is named by its path
  (``<owner>_<object>_<singular>``). The singular is the field's name unless ``Sql(singular=...)``
  gives one (``authors`` -> ``source_author.author``). A list or mapping every record has
  (declared on ``Record``: ``missing_metadata``) has one table for all kinds, keyed by ``record_id``;
- a reference (``x-references``) is a foreign key to the table of the kind it names, or to
  ``record.id`` where it may name several kinds, and it is indexed; ``Sql(index=True)`` indexes
  any other column;
- timestamps are stored in UTC; every integer is 64-bit (seeds and byte counts outgrow 32 bits).

``tests/data/golden/schema.*.sql`` hold the DDL this derives, so that a change shows up in a diff. The column
types are in ``registry.db.coltypes``, and how a value is stored into a row in ``registry.db.setters``.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum
from functools import cache
from typing import Any, TypeGuard

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from sqlalchemy import (
    BigInteger,
    Column,
    Double,
    ForeignKey,
    ForeignKeyConstraint,
    MetaData,
    String,
    Table,
)
from sqlalchemy.types import TypeEngine

from registry.db.coltypes import ExactDecimal, UtcTimestamp, column_type
from registry.db.setters import Put, Row, put_by_type, put_decimal, put_enum, put_fields, put_plain, put_typed
from registry.models import KIND_MODELS, Record
from registry.models.base import Sql
from registry.models.fields import field_plan

__all__ = ["SCHEMA_VERSION", "ExactDecimal", "Mirror", "Row", "Stored", "UtcTimestamp", "derive", "mirror"]

#: Foreign keys are checked when the build commits, not row by row: a result derived from a result with a later
#: id (or any record naming one of its own kind) goes in before what it names.
DEFERRED: dict[str, Any] = {"deferrable": True, "initially": "DEFERRED"}

#: Bumped when tables or views change incompatibly; stored in ``registry_meta``.
SCHEMA_VERSION = 1

#: Fields whose home is the ``record`` table rather than the kind's own table (the id is both).
RECORD_FIELDS = ("id", "kind")

# -- what the rule produces -----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Stored:
    """One table of the mirror, and how a record (or one item of a list or mapping) becomes its rows.

    ``owner`` names the columns holding the owner's key (none for a kind's own table); ``key`` is
    ``position`` for a list, the key column for a mapping, None for a kind's table. ``put`` fills a
    row from the record or item; ``children`` are the child tables, each with the attribute path
    that leads from the record or item to its list or mapping.
    """

    table: Table
    owner: tuple[str, ...]
    key: str | None
    put: Put
    children: tuple[tuple[tuple[str, ...], Stored], ...]
    columns_of: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The columns each field is stored in (fields stored in child tables are absent)."""
    name: str = field(init=False)
    columns: tuple[str, ...] = field(init=False)
    """The table's column names, in order (kept: rows are made from them hundreds of thousands of times)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", str(self.table.name))
        object.__setattr__(self, "columns", tuple(column.name for column in self.table.columns))

    def walk(self) -> Iterator[Stored]:
        """This table and every table below it, each parent before its children."""
        yield self
        for _, child in self.children:
            yield from child.walk()


@dataclass(frozen=True, eq=False)
class Mirror:
    """Every table of the database, derived from one set of record models."""

    metadata: MetaData
    kinds: dict[str, Stored]
    """The table of each kind (its children hang below it), by kind token."""
    shared: tuple[Stored, ...]
    """Child tables of the fields every record has, keyed by ``record_id``."""
    record: Table
    meta: Table
    unit: Table
    """Every unit of the registry: the built-in ones (``registry.units.UNITS``) and its unit records' (whose id is
    ``record_id``; empty for a built-in unit): token, dimension, symbol and scale."""

    def tables(self) -> list[Table]:
        """Every table, each after the tables its foreign keys point to, in the order they are made."""
        children = [stored.table for stored in self.shared]
        for stored in self.kinds.values():
            children += [child.table for _, top in stored.children if all(top is not s for s in self.shared)
                         for child in top.walk()]
        return [self.record, self.unit, *(stored.table for stored in self.kinds.values()), *children, self.meta]

    def own_columns(self, kind: str) -> list[tuple[str, tuple[str, ...]]]:
        """(field, its columns) for each of the kind's own fields stored in its table, in field order."""
        stored = self.kinds[kind]
        shared = set(Record.model_fields)
        return [(name, columns) for name, columns in stored.columns_of.items() if name not in shared]


def mirror() -> Mirror:
    """The tables of the record models as they are now (a test may swap a model for a wider one)."""
    return derive(tuple(KIND_MODELS.items()))


@cache
def derive(kinds: tuple[tuple[str, type[Record]], ...]) -> Mirror:
    """The tables that store records of these kinds."""
    metadata = MetaData()
    record = Table(
        "record", metadata,
        Column("id", String, primary_key=True),
        Column("kind", String, nullable=False, index=True),
        Column("path", String, nullable=False),
    )
    deriver = _Deriver(metadata, {token for token, _ in kinds})
    record_key = _Key("record", "record", (("id", String()),))
    shared = {
        name: deriver.child(Record, name, record_key, prefix="")
        for name, info in Record.model_fields.items()
        if _is_collection(_unwrap(info.annotation)[0])
    }
    tables = {token: deriver.kind_table(token, model, shared) for token, model in kinds}
    meta = Table(
        "registry_meta", metadata,
        Column("key", String, primary_key=True),
        Column("value", String, nullable=False),
    )
    unit = Table(
        "unit", metadata,
        Column("token", String, primary_key=True),
        Column("dimension", String, nullable=False, index=True),
        Column("symbol", String, nullable=False),
        Column("scale", ExactDecimal, nullable=True),
        Column("scale_float", Double, nullable=True),
        Column("record_id", String, nullable=True),
    )
    return Mirror(metadata, tables, tuple(shared.values()), record, meta, unit)


# -- the rule -------------------------------------------------------------------------------


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """(the type, whether it may be None): ``X | None`` -> (X, True); ``Annotated[X, ...]`` -> X."""
    nullable = False
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
            continue
        if origin in (typing.Union, types.UnionType):
            args = typing.get_args(annotation)
            present = tuple(arg for arg in args if arg is not type(None))
            nullable = nullable or len(present) < len(args)
            if len(present) == 1:
                annotation = present[0]
                continue
            return typing.Union[present], nullable  # noqa: UP007 - several types: a typed value
        return annotation, nullable


def _is_model(annotation: Any) -> TypeGuard[type[BaseModel]]:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _is_collection(annotation: Any) -> bool:
    return typing.get_origin(annotation) in (list, dict)


def _members(annotation: Any) -> tuple[Any, ...]:
    """The types a union may hold (a plain type holds only itself)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return typing.get_args(annotation)
    return (annotation,)


def _objects(annotation: Any, where: str) -> tuple[type[BaseModel], ...]:
    """The object types a value may be (one, or each of a union of them); none for a plain value."""
    members = _members(annotation)
    objects = tuple(member for member in members if _is_model(member))
    if objects and len(objects) != len(members):
        raise TypeError(f"{where}: a value that may be an object or a plain value has no table rule; "
                        "make every choice an object")
    return objects


def _is_typed_union(annotation: Any) -> bool:
    """A value that may be one of several plain types (text, a whole number, a flag)."""
    return len(_members(annotation)) > 1


def _marker(info: FieldInfo) -> Sql:
    return next((item for item in info.metadata if isinstance(item, Sql)), Sql())


@dataclass(frozen=True)
class _Key:
    """The key of a table's rows, for the tables below it: the table, what one row is called, its key columns."""

    table: str
    singular: str
    columns: tuple[tuple[str, TypeEngine[Any]], ...]

    def below(self) -> list[tuple[str, TypeEngine[Any]]]:
        """A child's columns for this key: the inherited ones as they are, the row's own named for the owner."""
        *inherited, (own, own_type) = self.columns
        return [*inherited, (f"{self.singular}_{own}", own_type)]


@dataclass
class _Shape:
    """What the fields of one object contribute to one table: columns, setters, child tables."""

    columns: list[Column[Any]] = field(default_factory=list)
    puts: list[tuple[str, Put]] = field(default_factory=list)
    children: list[tuple[tuple[str, ...], Stored]] = field(default_factory=list)
    columns_of: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass
class _Deriver:
    """Applies the rule on one ``MetaData``; ``kinds`` are the kind tokens a foreign key may name."""

    metadata: MetaData
    kinds: set[str]

    def kind_table(self, token: str, model: type[Record], shared: dict[str, Stored]) -> Stored:
        shape = _Shape()
        shape.columns.append(Column("id", String, ForeignKey("record.id", **DEFERRED), primary_key=True))
        shape.puts.append(("id", put_plain("id")))
        shape.columns_of["id"] = ("id",)
        key = _Key(model.sql_name(), model.sql_name(), (("id", String()),))
        own = [name for name in model.model_fields if name not in Record.model_fields]
        common = [name for name in model.model_fields if name in Record.model_fields]
        for name in own + common:
            if name in RECORD_FIELDS:
                continue
            if name in shared:
                shape.children.append(((name,), shared[name]))
            else:
                self.add_field(shape, model, name, key, prefix="", nullable=False)
        table = self.table(model.sql_name(), shape)
        return Stored(table, (), None, put_fields(shape.puts), tuple(shape.children), shape.columns_of)

    def add_field(self, shape: _Shape, model: type[BaseModel], name: str, key: _Key, *, prefix: str,
                  nullable: bool) -> None:
        """Add what field ``name`` of ``model`` stores (columns, or a child table) to a table of key ``key``."""
        info = model.model_fields[name]
        annotation, optional = _unwrap(info.annotation)
        where = f"{model.__name__}.{name}"
        if _is_collection(annotation):
            shape.children.append(((name,), self.child(model, name, key, prefix=prefix)))
            return
        before = len(shape.columns)
        objects = _objects(annotation, where)
        if objects:
            inner = _Shape()
            put = self.spread(inner, objects, key, prefix=f"{prefix}{name}_", nullable=nullable or optional)
            shape.columns += inner.columns
            shape.children += [((name, *path), child) for path, child in inner.children]
        else:
            put = self.add_value(shape, annotation, f"{prefix}{name}", nullable=nullable or optional, where=where,
                                 marker=_marker(info), references=dict(field_plan(model).references).get(name))
        shape.puts.append((name, put))
        shape.columns_of[name] = tuple(column.name for column in shape.columns[before:])

    def spread(self, shape: _Shape, objects: tuple[type[BaseModel], ...], key: _Key, *, prefix: str,
               nullable: bool) -> Put:
        """Add the columns of an object's fields to ``shape`` and return the function that stores it.

        An object that may be one of several types (a union) spreads over the columns of all of
        them; a field several of them have (a ``kind`` tag) is one column, NOT NULL only where every
        type requires it.
        """
        puts: dict[type[BaseModel], Put] = {}
        merged: dict[str, tuple[Column[Any], int]] = {}
        for model in objects:
            part = _Shape()
            for sub in model.model_fields:
                self.add_field(part, model, sub, key, prefix=prefix, nullable=nullable)
            for column in part.columns:
                if column.name not in merged:
                    merged[column.name] = (column, 0)
                    shape.columns.append(column)
                first, _ = merged[column.name]
                if repr(first.type) != repr(column.type):
                    raise TypeError(f"column {column.name!r} would hold {first.type!r} for one type of "
                                    f"{prefix.rstrip('_')} and {column.type!r} for another; rename one field")
                first.nullable = bool(first.nullable or column.nullable)
                merged[column.name] = (first, merged[column.name][1] + 1)
            shape.children += part.children
            puts[model] = put_fields(part.puts)
        for column, found_in in merged.values():
            if found_in < len(objects):
                column.nullable = True  # some types of the object do not have it
        if len(objects) == 1:
            return puts[objects[0]]
        return put_by_type(puts)

    def add_value(self, shape: _Shape, annotation: Any, column: str, *, nullable: bool, where: str, marker: Sql,
                  references: list[str] | None) -> Put:
        """Add the column(s) of one plain value and return the function that stores it."""
        index = marker.index or bool(references)
        if annotation is Decimal:
            shape.columns.append(Column(column, ExactDecimal(), nullable=nullable, index=index))
            shape.columns.append(Column(f"{column}_float", Double(), nullable=nullable, index=index))
            return put_decimal(column)
        if _is_typed_union(annotation):
            for member in _members(annotation):
                column_type(member, where)  # each must be a plain value
            shape.columns.append(Column(column, String(), nullable=nullable, index=index))
            shape.columns.append(Column(f"{column}_type", String(), nullable=nullable))
            return put_typed(column)
        args: list[Any] = [column_type(annotation, where)]
        if references:
            target = references[0] if len(references) == 1 and references[0] in self.kinds else "record"
            args.append(ForeignKey(f"{target}.id", **DEFERRED))
        shape.columns.append(Column(column, *args, nullable=nullable, index=index))
        if isinstance(annotation, type) and issubclass(annotation, Enum):
            return put_enum(column)
        return put_plain(column)

    def child(self, model: type[BaseModel], name: str, owner: _Key, *, prefix: str) -> Stored:
        """The child table of list or mapping field ``name`` of ``model``, below a table of key ``owner``."""
        info = model.model_fields[name]
        marker = _marker(info)
        annotation, _ = _unwrap(info.annotation)
        singular = marker.singular or name
        table = marker.table or f"{owner.table}_{prefix}{singular}"
        where = f"{model.__name__}.{name}"
        args = typing.get_args(annotation)
        if typing.get_origin(annotation) is dict:
            row_key: tuple[str, TypeEngine[Any]] = (marker.key or "key", column_type(_unwrap(args[0])[0], where))
        else:
            row_key = ("position", BigInteger())
        owner_columns = owner.below()
        key = _Key(table, singular, (*owner_columns, row_key))
        shape = _Shape()
        for column, of_type in key.columns:
            shape.columns.append(Column(column, of_type, primary_key=True))
        item, item_optional = _unwrap(args[-1]) if args else (Any, True)
        if _is_collection(item):
            raise TypeError(f"{where}: a list or mapping of lists has no table rule; make each item an object")
        objects = _objects(item, where)
        if objects:
            put = self.spread(shape, objects, key, prefix="", nullable=item_optional)
        else:
            put = self.add_value(shape, item, marker.value or singular, nullable=item_optional, where=where,
                                 marker=marker, references=dict(field_plan(model).references).get(name))
        foreign = ForeignKeyConstraint([c for c, _ in owner_columns], [f"{owner.table}.{c}" for c, _ in owner.columns],
                                       **DEFERRED)
        stored_table = self.table(table, shape, foreign)
        return Stored(stored_table, tuple(c for c, _ in owner_columns), row_key[0], put, tuple(shape.children),
                      shape.columns_of)

    def table(self, name: str, shape: _Shape, *constraints: Any) -> Table:
        names = [column.name for column in shape.columns]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise TypeError(f"table {name!r}: two fields are stored in column(s) {', '.join(repeated)}; rename one")
        if name in self.metadata.tables:
            raise TypeError(f"two fields are stored in table {name!r}; give one of them Sql(singular=...)")
        return Table(name, self.metadata, *shape.columns, *constraints)
