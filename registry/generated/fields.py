"""The record format as docs/records.md shows it: every kind's fields, and the fields of the values they hold,
read off the models (``registry.models.KINDS_IN_ORDER``), so that a field added to a model is documented with no
other edit (``python -m registry.cli.docs --write``; a test keeps the document in step).
"""

from __future__ import annotations

import enum
import types
import typing
from typing import Any

from pydantic import BaseModel

#: How plain types read in the tables, by name.
PLAIN = {"str": "text", "int": "integer", "float": "number", "bool": "yes/no", "Decimal": "exact decimal",
         "date": "date", "AwareDatetime": "time with its UTC offset", "datetime": "time"}


def markdown_tables() -> str:
    """One table per kind, then one per value (a nested model) any kind holds, in the order first met."""
    from registry import models

    values: list[type[BaseModel]] = []
    parts = []
    for model in models.KINDS_IN_ORDER:
        parts.append(_table(f"`{model.kind_token}`", model, values))
    seen = 0
    while seen < len(values):  # a value's fields may name further values
        value = values[seen]
        parts.append(_table(f"value `{value.__name__}`", value, values))
        seen += 1
    return "\n\n".join(parts)


def _table(title: str, model: type[BaseModel], values: list[type[BaseModel]]) -> str:
    summary = (model.__doc__ or "").strip().splitlines()[0] if model.__doc__ else ""
    rows = [f"#### {title}", "", summary, "", "| field | required | type | what it holds |", "|---|---|---|---|"]
    for name, field in model.model_fields.items():
        kind = _type(field.annotation, values)
        description = " ".join((field.description or "").split()).replace("|", "\\|")
        rows.append(f"| `{name}` | {'yes' if field.is_required() else ''} | {kind} | {description} |")
    return "\n".join(rows)


def _type(annotation: Any, values: list[type[BaseModel]]) -> str:
    """How a field's annotation reads: 'text', 'list of `Hardware`', 'one of `lower`, `higher`'."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _type(args[0], values)
    if origin in (typing.Union, types.UnionType):
        kept = [arg for arg in args if arg is not type(None)]
        return " or ".join(_type(arg, values) for arg in kept)
    if origin is typing.Literal:
        return "`" + "`, `".join(str(arg) for arg in args) + "`"
    if origin in (list, tuple, set, frozenset):
        return "list of " + _type(args[0], values) if args else "list"
    if origin is dict:
        return f"mapping of {_type(args[0], values)} to {_type(args[1], values)}" if args else "mapping"
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "one of " + ", ".join(f"`{member.value}`" for member in annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation not in values:
            values.append(annotation)
        return f"`{annotation.__name__}`"
    name = getattr(annotation, "__name__", str(annotation))
    return PLAIN.get(name, name.replace("|", "\\|"))
