"""What the field markers say about a kind: which fields hold references, reportable values, dates.

The markers (``x-references``, ``x-reportable``; see ``registry.models.base``) and the field
types are read once per kind, not once per record: a registry can hold hundreds of thousands
of records, and every whole-registry rule, the back links on a record's page and the release
name all ask the same questions of each of them.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pydantic import BaseModel

from registry.models.base import Record
from registry.textsafe import UNSAFE, escaped, excerpt, named

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
    names: frozenset[str]
    """Every field of the kind."""
    nested: tuple[str, ...] = ()
    """Fields that hold a model (or a list of models) with references of its own (a result's ``derived``)."""


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
    nested = tuple(name for name, info in model.model_fields.items() if any(
        plan.references or plan.nested for plan in map(field_plan, _models_in(info.annotation))))
    return FieldPlan(references, reportable, date_fields, frozenset(model.model_fields), nested)


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The model classes a field's type holds: itself, or inside ``X | None``, ``list[X]``, ``Annotated[X, ...]``."""
    if isinstance(annotation, type):
        return [annotation] if issubclass(annotation, BaseModel) else []
    return [model for arg in typing.get_args(annotation) for model in _models_in(arg)]


#: The transcribed kinds, as ``registry.models`` registers them: it sets them here (this module sits below the
#: registration, so it is told rather than asking) and clears ``field_plan``'s cache.
transcribed_kinds: list[str] = []


def resolve_kinds(kinds: list[str]) -> list[str]:
    """A reference marker's kinds with its groups spelled out: '@transcribed' is every transcribed kind."""
    resolved: list[str] = []
    for kind in kinds:
        for token in (transcribed_kinds if kind == "@transcribed" else (kind,)):
            if token not in resolved:
                resolved.append(token)
    return resolved


def references_in(record: BaseModel, prefix: FieldPath = ()) -> Iterator[tuple[FieldPath, str, list[str]]]:
    """Every (path, id, kinds allowed there) that ``record`` refers to, inside its nested values too (the inputs
    of a result's ``derived``), so that every rule and back link that follows references sees them all."""
    plan = field_plan(type(record))
    for name, kinds in plan.references:
        value = getattr(record, name)
        if isinstance(value, list):
            for index, item in enumerate(value):
                yield (*prefix, name, index), item, kinds
        elif value is not None:
            yield (*prefix, name), value, kinds
    for name in plan.nested:
        value = getattr(record, name)
        if isinstance(value, BaseModel):
            yield from references_in(value, (*prefix, name))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, BaseModel):
                    yield from references_in(item, (*prefix, name, index))


def dates_in(record: Record) -> Iterator[tuple[FieldPath, dt.date | dt.datetime, dt.date]]:
    """Every date or time a record holds, with its path and its day (in UTC for a time with a zone).

    A time whose UTC equivalent lies outside the years 1 to 9999 (9999-12-31T23:59:59-23:59) gets
    the last (or first) day there is; ``unstorable_in`` reports it.
    """
    for name in field_plan(type(record)).date_fields:
        for path, value in _walk(getattr(record, name), (name,)):
            if isinstance(value, dt.datetime):
                day = utc_day(value)
            elif isinstance(value, dt.date):
                day = value
            else:
                continue
            yield path, value, day


def utc_day(value: dt.datetime) -> dt.date:
    """The day of ``value`` in UTC (its own day when it has no zone), clamped to the days a date can hold."""
    if value.tzinfo is None:
        return value.date()
    try:
        return value.astimezone(dt.UTC).date()
    except OverflowError:
        offset = value.utcoffset() or dt.timedelta(0)
        return dt.date.max if offset < dt.timedelta(0) else dt.date.min


#: What the databases store an integer in: a 64-bit signed integer (SQLite's INTEGER, PostgreSQL's BIGINT).
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
#: Exact decimals the registry computes with (differences, ratios, rounding for display): Python's
#: default of 28 significant digits, below 10^28; and no more places than PostgreSQL's NUMERIC holds.
DECIMAL_DIGITS, DECIMAL_MAX_PLACES = 28, 16_383


def unfit_values(record: Record) -> Iterator[tuple[FieldPath, str, str]]:
    """Every value of ``record`` the database cannot hold or a terminal cannot print, as (path, problem, why).

    ``problem`` is ``"unstorable"``: an integer beyond 64 bits, a number that is not finite, a decimal
    beyond PostgreSQL's NUMERIC, a time without a UTC equivalent (times are stored in UTC), each of
    which a build would fail on; or ``"unprintable"``: text (mapping keys included) holding a
    character that does not print as it reads, such as a terminal escape sequence ('\\x1b[2J'),
    another control character, a bidirectional override or a lone surrogate
    (``registry.textsafe.UNSAFE``; tabs and line breaks are text). Every field is looked at, so a
    new field is covered without a word here; one pass, since every record of a large registry goes
    through it.
    """
    if not _any_unfit(record, UNSAFE):
        return  # nearly every record: one quick pass without paths, then nothing to say
    stack: list[tuple[FieldPath, Any]] = [((), record)]
    while stack:
        path, value = stack.pop()
        kind = type(value)
        if kind is str:
            found = UNSAFE.search(value)
            if found is not None:
                name = named(found.group())
                yield path, "unprintable", (
                    f"the text holds {escaped(found.group())} ({name + ', ' if name else ''}at character "
                    f"{found.start() + 1}), which a terminal acts on instead of printing, or which cannot be seen, so "
                    "that two different texts look the same (a control character, an escape sequence, a "
                    "bidirectional mark or override, an invisible mark); remove it (tabs and line breaks are fine)")
        elif kind is int:
            if not INT64_MIN <= value <= INT64_MAX:
                yield path, "unstorable", (f"{excerpt(value)} is too large for the database, which stores integers in "
                                           f"64 bits (from {INT64_MIN:,} to {INT64_MAX:,}); check the value")
        elif kind is float:
            if not math.isfinite(value):
                yield path, "unstorable", f"{value!r} is not a finite number; write the number it stands for"
        elif kind is Decimal:
            if value.is_finite() and (value.adjusted() >= DECIMAL_DIGITS or len(value.as_tuple().digits) >
                                      DECIMAL_DIGITS or -int(value.as_tuple().exponent) > DECIMAL_MAX_PLACES):
                yield path, "unstorable", (
                    f"{excerpt(value)} has more digits than the registry computes with exactly ({DECIMAL_DIGITS} "
                    f"significant digits, below 10^{DECIMAL_DIGITS}); check the value")
        elif kind is dt.datetime:
            if value.tzinfo is not None and _outside_utc(value):
                yield path, "unstorable", (f"{value.isoformat()} has no UTC equivalent between the years 1 and 9999 "
                                           "(times are kept in UTC); check the date and its zone")
        elif isinstance(value, BaseModel):
            stack.extend(((*path, name), getattr(value, name)) for name in reversed(type(value).model_fields))
        elif isinstance(value, (list, tuple)):
            stack.extend(((*path, index), item) for index, item in reversed(list(enumerate(value))))
        elif isinstance(value, dict):
            for key, item in reversed(list(value.items())):
                stack.append(((*path, key), item))
                stack.append(((*path, key), key))


def _any_unfit(record: Record, unsafe: Any) -> bool:
    """Whether ``unfit_values`` has anything to say: the same tests, without keeping paths.

    Each value is looked at by its exact type, found in one table (``_ROLES``; a type seen for the first
    time gets its role there), and the texts of a record are searched in one go, joined by line breaks
    (which ``UNSAFE`` does not hold, so no match can span two texts). As ``unfit_values``: text,
    integers, decimals, floats and times with a zone are tested; models, lists, tuples and mappings
    (keys too) are entered; anything else (None, flags, enumeration members, days) holds nothing unfit.
    """
    texts: list[str] = []
    text = texts.append
    stack: list[Any] = [record]
    pop, extend = stack.pop, stack.extend
    roles = _ROLES
    while stack:
        value = pop()
        role = roles.get(type(value))
        if role is None:
            role = _role_of(type(value))
        if role is _TEXT:
            text(value)
        elif role is _NOTHING:
            continue
        elif role is _MODEL:
            extend(value.__dict__.values())
        elif role is _ITEMS:
            extend(value)
        elif role is _MAPPING:
            extend(value)
            extend(value.values())
        elif role is _INTEGER:
            if not INT64_MIN <= value <= INT64_MAX:
                return True
        elif role is _DECIMAL:
            if value.is_finite() and (value.adjusted() >= DECIMAL_DIGITS or len(value.as_tuple().digits) >
                                      DECIMAL_DIGITS or -int(value.as_tuple().exponent) > DECIMAL_MAX_PLACES):
                return True
        elif role is _FLOAT:
            if not math.isfinite(value):
                return True
        elif role is _MOMENT:
            if value.tzinfo is not None and _outside_utc(value):
                return True
    return unsafe.search("\n".join(texts)) is not None


#: What ``_any_unfit`` does with a value of each exact type.
_TEXT, _INTEGER, _FLOAT, _DECIMAL, _MOMENT, _MODEL, _ITEMS, _MAPPING, _NOTHING = (
    "text", "integer", "float", "decimal", "moment", "model", "items", "mapping", "nothing")
_ROLES: dict[type, str] = {str: _TEXT, int: _INTEGER, float: _FLOAT, Decimal: _DECIMAL, dt.datetime: _MOMENT,
                           list: _ITEMS, tuple: _ITEMS, dict: _MAPPING, type(None): _NOTHING, bool: _NOTHING}


def _role_of(kind: type) -> str:
    """The role of a type not in ``_ROLES`` yet (a model class, an enumeration), kept there."""
    role = _MODEL if issubclass(kind, BaseModel) else _NOTHING
    _ROLES[kind] = role
    return role


def _outside_utc(value: dt.datetime) -> bool:
    try:
        value.astimezone(dt.UTC)
    except OverflowError:
        return True
    return False


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
