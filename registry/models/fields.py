"""What the field markers say about a kind: which fields hold references, reportable values, dates.

The markers (``x-references``, ``x-reportable``; see ``registry.models.base``) and the field
types are read once per kind, not once per record: a registry can hold hundreds of thousands
of records, and every whole-registry rule, the back links on a record's page and the release
name all ask the same questions of each of them.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from registry.models.base import Record

FieldPath = tuple[str | int, ...]


@dataclass(frozen=True)
class FieldPlan:
    """The fields of one kind that each question looks at."""

    references: list[tuple[str, list[str]]]
    """(field, kinds it may name) for every field marked ``x-references``, groups resolved (``resolve_kinds``)."""
    reportable: list[str]
    """Fields marked ``x-reportable``: empty only with a missing-metadata entry."""
    date_fields: list[str]
    """Fields whose type can hold a date or a time anywhere inside it."""


@functools.cache
def field_plan(model: type[BaseModel]) -> FieldPlan:
    """The plan of ``model``, worked out on first use and kept."""
    references: list[tuple[str, list[str]]] = []
    reportable: list[str] = []
    date_fields: list[str] = []
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        kinds = extra.get("x-references")
        if isinstance(kinds, list):
            references.append((name, resolve_kinds([str(kind) for kind in kinds])))
        if extra.get("x-reportable"):
            reportable.append(name)
        if _may_hold_dates(info.annotation):
            date_fields.append(name)
    return FieldPlan(references, reportable, date_fields)


def resolve_kinds(kinds: list[str]) -> list[str]:
    """A reference marker's kinds with its groups spelled out: '@transcribed' is every transcribed kind."""
    from registry.models import TRANSCRIBED_KINDS

    resolved: list[str] = []
    for kind in kinds:
        for token in (TRANSCRIBED_KINDS if kind == "@transcribed" else (kind,)):
            if token not in resolved:
                resolved.append(token)
    return resolved


def references_in(record: Record) -> Iterator[tuple[FieldPath, str, list[str]]]:
    """Every (path, id, kinds allowed there) that ``record`` refers to."""
    for name, kinds in field_plan(type(record)).references:
        value = getattr(record, name)
        if isinstance(value, list):
            for index, item in enumerate(value):
                yield (name, index), item, kinds
        elif value is not None:
            yield (name,), value, kinds


def dates_in(record: Record) -> Iterator[tuple[FieldPath, dt.date | dt.datetime, dt.date]]:
    """Every date or time a record holds, with its path and its day (in UTC for a time with a zone)."""
    for name in field_plan(type(record)).date_fields:
        for path, value in _walk(getattr(record, name), (name,)):
            if isinstance(value, dt.datetime):
                day = value.astimezone(dt.UTC).date() if value.tzinfo is not None else value.date()
            elif isinstance(value, dt.date):
                day = value
            else:
                continue
            yield path, value, day


def _walk(value: Any, path: FieldPath = ()) -> Iterator[tuple[FieldPath, Any]]:
    """Every (path, leaf value) inside a model, depth first."""
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _walk(getattr(value, name), (*path, name))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, (*path, key))
    else:
        yield path, value


def _may_hold_dates(annotation: Any) -> bool:
    """Whether a field's type can hold a date or a time anywhere inside it (per its JSON Schema)."""
    from pydantic import TypeAdapter

    def formats(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            if isinstance(node.get("format"), str):
                yield node["format"]
            for value in node.values():
                yield from formats(value)
        elif isinstance(node, list):
            for value in node:
                yield from formats(value)

    try:
        schema = TypeAdapter(annotation).json_schema()
    except Exception:  # noqa: BLE001 - a type without a schema: look at its values to be safe
        return True
    return any(f in ("date", "date-time") for f in formats(schema))
