"""How a value is stored into a row: one setter per shape of value, under the columns the rule gives it."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from pydantic import BaseModel

from registry.db.coltypes import typed_text

Row = dict[str, Any]
Put = Callable[[Row, Any], None]
"""Stores one value into a row, under the columns the rule gives it."""


def put_plain(column: str) -> Put:
    def put(row: Row, value: Any) -> None:
        row[column] = value

    return put


def put_enum(column: str) -> Put:
    def put(row: Row, value: Any) -> None:
        row[column] = value._value_ if isinstance(value, Enum) else value

    return put


def put_decimal(column: str) -> Put:
    float_column = f"{column}_float"

    def put(row: Row, value: Any) -> None:
        if value is not None:
            row[column] = value
            row[float_column] = float(value)

    return put


def put_typed(column: str) -> Put:
    type_column = f"{column}_type"

    def put(row: Row, value: Any) -> None:
        if value is not None:
            row[column], row[type_column] = typed_text(value)

    return put


def put_fields(puts: list[tuple[str, Put]]) -> Put:
    """Stores an object's fields (nothing for an empty optional object or item)."""

    def put(row: Row, value: Any) -> None:
        if value is not None:
            values = value.__dict__
            for name, put_field in puts:
                put_field(row, values[name])

    return put


def put_by_type(puts: dict[type[BaseModel], Put]) -> Put:
    """Stores an object that may be one of several types, by its type's fields."""

    def put(row: Row, value: Any) -> None:
        if value is not None:
            found = puts.get(type(value)) or next(p for model, p in puts.items() if isinstance(value, model))
            found(row, value)

    return put
