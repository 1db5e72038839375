"""The column types of the database: an exact decimal, a UTC timestamp, and the type of each plain Python type.

``registry.db.tables`` gives each plain field the type ``column_type`` names; ``typed_text`` is how a
value that may be text, a whole number or a flag is stored (text and its type).
"""

from __future__ import annotations

import datetime as dt
import typing
from collections.abc import Callable
from decimal import Decimal
from enum import Enum
from typing import Any

from pydantic import AwareDatetime
from sqlalchemy import BigInteger, Boolean, Date, DateTime, Double, Numeric, String, TypeDecorator
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeEngine


class ExactDecimal(TypeDecorator[Decimal]):
    """An exact decimal: NUMERIC on PostgreSQL; elsewhere its canonical text ('33.88'), never a float."""

    impl = String
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> Any:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(Numeric(asdecimal=True))
        return dialect.type_descriptor(String())

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None or dialect.name == "postgresql":
            return value
        return str(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Decimal | None:
        return None if value is None else Decimal(str(value))


class UtcTimestamp(TypeDecorator[dt.datetime]):
    """A point in time, stored in UTC (SQLite keeps no time zone, so every value is converted first)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        utc = value.astimezone(dt.UTC)
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: Any, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value


#: Column type of each plain Python type, most specific first (a bool is an int, a datetime a date).
_TYPES: tuple[tuple[type, Callable[[], TypeEngine[Any]]], ...] = (
    (bool, Boolean),
    (int, BigInteger),
    (float, Double),
    (dt.datetime, UtcTimestamp),
    (AwareDatetime, UtcTimestamp),
    (dt.date, Date),
    (str, String),
)


def column_type(annotation: Any, where: str) -> TypeEngine[Any]:
    """The column type of a plain value: an enum or a literal by the type of its values."""
    if typing.get_origin(annotation) is typing.Literal:
        value_types = {type(value) for value in typing.get_args(annotation)}
        annotation = value_types.pop() if len(value_types) == 1 else str
    elif isinstance(annotation, type) and issubclass(annotation, Enum):
        value_types = {type(member.value) for member in annotation}
        annotation = value_types.pop() if len(value_types) == 1 else str
    for python_type, column_type in _TYPES:
        if isinstance(annotation, type) and issubclass(annotation, python_type):
            return column_type()
    raise TypeError(f"{where}: no column type for {annotation!r}; add one to _TYPES in registry/db/coltypes.py")


def typed_text(value: Any) -> tuple[str, str]:
    """A value that may be text, a whole number or a flag, as (text, type): (True -> 'true', 'boolean')."""
    if isinstance(value, bool):
        return ("true" if value else "false"), "boolean"
    if isinstance(value, int):
        return str(value), "integer"
    return str(value), "string"
