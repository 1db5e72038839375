"""Records as table rows, field by field, by the naming convention of ``tables``.

``field_homes`` says, from a record model alone, which columns or child table each field must
have; ``check_tables`` compares that with the tables and names every difference, so that a field
added to a model and not to the tables stops a build with a clear message (and fails a test)
instead of silently dropping data. ``record_rows`` turns one record into its rows.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterator
from decimal import Decimal
from enum import Enum
from functools import cache
from typing import Any

from pydantic import BaseModel

from registry.db.tables import KIND_TABLES, Child, child_of
from registry.errors import RegistryError
from registry.models import KIND_MODELS, Record

Row = dict[str, Any]

#: Fields whose home is the ``record`` table, not the kind's own table.
RECORD_TABLE_FIELDS = {"id": "record.id", "kind": "record.kind"}


class SchemaMismatchError(RegistryError):
    """The tables no longer mirror the record models."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(
            "the database tables do not match the record kinds: " + "; ".join(problems),
            "add the missing columns or child tables to registry/db/tables.py (see its docstring for the "
            "naming convention); this is a bug in the registry, not in your records",
        )
        self.problems = problems


# -- the convention -------------------------------------------------------------------------


def _unwrap(annotation: Any) -> Any:
    """``X | None`` -> ``X``; other unions stay as they are."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return _unwrap(args[0])
    return annotation


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _is_collection(annotation: Any) -> bool:
    return typing.get_origin(annotation) in (list, dict)


def scalar_columns(name: str, annotation: Any) -> list[str] | None:
    """The columns a non-collection field is stored in, or None if it needs a child table."""
    annotation = _unwrap(annotation)
    if _is_collection(annotation):
        return None
    if annotation is Decimal:
        return [name, f"{name}_float"]
    if _is_model(annotation):
        columns: list[str] = []
        for sub, info in annotation.model_fields.items():
            inner = scalar_columns(f"{name}_{sub}", info.annotation)
            if inner is None:
                raise TypeError(f"{annotation.__name__}.{sub}: lists inside nested objects need a child table")
            columns.extend(inner)
        return columns
    return [name]


def field_homes(kind: str) -> dict[str, str | list[str]]:
    """Where each field of ``kind`` lives: a list of its columns, or the name of its child table."""
    homes: dict[str, str | list[str]] = {}
    for name, info in KIND_MODELS[kind].model_fields.items():
        if name in RECORD_TABLE_FIELDS:
            homes[name] = RECORD_TABLE_FIELDS[name]
            continue
        child = child_of(kind, name)
        if child is not None:
            homes[name] = child.name
            continue
        columns = scalar_columns(name, info.annotation)
        homes[name] = columns if columns is not None else f"<no child table for {kind}.{name}>"
    return homes


def _columns(table: Any) -> list[str]:
    return [column.name for column in table.__table__.columns]


def _child_problems(where: str, child: Child, annotation: Any) -> list[str]:
    """What a child table lacks to hold the items of a list or mapping field."""
    annotation = _unwrap(annotation)
    columns = set(_columns(child.table))
    wanted = set(child.owner)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    item: Any = _unwrap(args[-1]) if args else Any
    if origin is dict:
        wanted |= {child.key or "<key>"}
    else:
        wanted.add("position")
    problems = []
    if _is_model(item):
        for sub, info in item.model_fields.items():
            if sub in child.children:
                problems += _child_problems(f"{where}.{sub}", child.children[sub], info.annotation)
                continue
            inner = scalar_columns(sub, info.annotation)
            if inner is None:
                problems.append(f"{where}.{sub} has no child table")
            else:
                wanted |= set(inner)
        extra_children = set(child.children) - set(item.model_fields)
        problems += [f"{where}.{sub} no longer exists but has a child table" for sub in sorted(extra_children)]
    else:
        wanted.add(child.value or "<value>")
        if typing.get_origin(item) in (typing.Union, types.UnionType):
            wanted.add("value_type")
    problems += [f"{child.name} lacks column {c!r} for {where}" for c in sorted(wanted - columns)]
    problems += [f"{child.name}.{c} mirrors no field of {where}" for c in sorted(columns - wanted)]
    return problems


def check_tables() -> list[str]:
    """Every difference between the record models and the tables (empty when they agree)."""
    problems: list[str] = []
    for kind, model in KIND_MODELS.items():
        table = KIND_TABLES.get(kind)
        if table is None:
            problems.append(f"kind {kind!r} has no table")
            continue
        columns = set(_columns(table))
        wanted = {"id"}  # the record's id is also its kind row's primary key
        for name, home in field_homes(kind).items():
            if isinstance(home, list):
                wanted |= set(home)
            elif home.startswith("<"):
                problems.append(f"{kind}.{name} is a list or mapping without a child table")
            elif home.startswith("record."):
                continue
            else:
                child = child_of(kind, name)
                assert child is not None
                problems += _child_problems(f"{kind}.{name}", child, model.model_fields[name].annotation)
        problems += [f"table {table.__tablename__!r} lacks column {c!r} for {kind}" for c in sorted(wanted - columns)]
        problems += [f"column {table.__tablename__}.{c} mirrors no field of {kind}" for c in sorted(columns - wanted)]
    return problems


def ensure_tables_match() -> None:
    problems = check_tables()
    if problems:
        raise SchemaMismatchError(problems)


# -- conversion -----------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def typed_text(value: Any) -> tuple[str, str]:
    """A value that may be text, a whole number or a flag, as (text, type): (True -> 'true', 'boolean')."""
    if isinstance(value, bool):
        return ("true" if value else "false"), "boolean"
    if isinstance(value, int):
        return str(value), "integer"
    return str(value), "string"


Setter = Callable[[Row, Any], None]


def _setter(name: str, annotation: Any) -> Setter:
    """A function that stores one field's value into a row under the convention's column names."""
    annotation = _unwrap(annotation)
    if annotation is Decimal:
        float_name = f"{name}_float"

        def put_decimal(row: Row, value: Any) -> None:
            if value is not None:
                row[name] = value
                row[float_name] = float(value)

        return put_decimal
    if _is_model(annotation):
        subs = [(sub, _setter(f"{name}_{sub}", info.annotation)) for sub, info in annotation.model_fields.items()]

        def put_nested(row: Row, value: Any) -> None:
            if value is not None:
                for sub, put in subs:
                    put(row, getattr(value, sub))

        return put_nested

    if _may_be_enum(annotation):

        def put_enum(row: Row, value: Any) -> None:
            row[name] = value.value if isinstance(value, Enum) else value

        return put_enum

    def put_scalar(row: Row, value: Any) -> None:
        row[name] = value

    return put_scalar


def _may_be_enum(annotation: Any) -> bool:
    """Whether a field's values can be enum members (stored as their values)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return any(_may_be_enum(arg) for arg in typing.get_args(annotation))
    return not (isinstance(annotation, type) and not issubclass(annotation, Enum)) and annotation is not type(None)


@cache
def _plan(kind: str) -> tuple[str, tuple[str, ...], list[tuple[str, Setter]], list[tuple[str, Child]]]:
    """For one kind: its table, its columns, a setter per stored field, and its child tables."""
    table = KIND_TABLES[kind]
    setters: list[tuple[str, Setter]] = []
    children: list[tuple[str, Child]] = []
    for name, info in KIND_MODELS[kind].model_fields.items():
        if name in RECORD_TABLE_FIELDS:
            if name == "id":
                setters.append((name, _setter(name, info.annotation)))
            continue
        child = child_of(kind, name)
        if child is not None:
            children.append((name, child))
        else:
            setters.append((name, _setter(name, info.annotation)))
    return str(table.__tablename__), tuple(_columns(table)), setters, children


@cache
def _table_columns(table: Any) -> tuple[str, ...]:
    return tuple(_columns(table))


@cache
def _item_setters(model: Any) -> tuple[tuple[str, Setter], ...]:
    return tuple((sub, _setter(sub, info.annotation)) for sub, info in model.model_fields.items())


def _child_rows(child: Child, owner: tuple[Any, ...], value: Any) -> Iterator[tuple[str, Row]]:
    columns = _table_columns(child.table)
    typed = "value_type" in columns
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        row: Row = dict.fromkeys(columns)
        row.update(zip(child.owner, owner, strict=True))
        row[child.key or "position"] = key
        nested: list[tuple[str, Row]] = []
        if child.value is not None:
            if typed:
                row[child.value], row["value_type"] = typed_text(item)
            else:
                row[child.value] = _plain(item)
        else:
            for sub, put in _item_setters(type(item)):  # type: ignore[arg-type]
                if sub in child.children:
                    nested.extend(_child_rows(child.children[sub], (*owner, key), getattr(item, sub)))
                else:
                    put(row, getattr(item, sub))
        yield child.name, row
        yield from nested


def record_rows(record: Record, path: str) -> Iterator[tuple[str, Row]]:
    """Every (table, row) that stores ``record``: its ``record`` row, its kind's row, its child rows."""
    kind = record.kind_token
    yield "record", {"id": record.id, "kind": kind, "path": path}
    table, columns, setters, children = _plan(kind)
    row: Row = dict.fromkeys(columns)
    values = record.__dict__
    for name, put in setters:
        put(row, values[name])
    yield table, row
    for name, child in children:
        if values[name]:
            yield from _child_rows(child, (record.id,), values[name])
