"""Typed records made smaller in memory: equal texts, field sets and small values shared between records, not copied.

A registry of 100,000 results holds about 300,000 typed records, and each Pydantic model carries its own set
of the fields its file gave (``__pydantic_fields_set__``, a few hundred bytes) and its own copy of every text,
though most texts are the same across records (units, reasons, hardware, the ids records name), and so are
many small values inside them (a ``missing_metadata`` entry 'uncertainty: unreported'). Sharing them cuts what
a loaded registry holds by about half and changes no value: a shared text is an equal one; a frozen model never
changes its field set in place (assigning to it is refused, and Pydantic's ``model_copy`` copies the set before
it adds to it); and a value inside a record is shared only where it is frozen and holds nothing but texts,
integers, booleans, members of enumerations and None, compared with their types (``1`` is not ``True``; a
decimal, a float or a time, whose equal values can print differently, is never shared). A model that is not
frozen keeps its own set and its own values.
"""

from __future__ import annotations

import sys
from enum import Enum
from types import NoneType
from typing import Any

from pydantic import BaseModel

#: Field sets shared at most: the kinds give a few dozen combinations; a folder of odd records cannot grow it past.
MAX_FIELD_SETS = 4096

#: Values inside records shared at most (a run of many distinct ones shares those it met first).
MAX_SHARED_VALUES = 16_384

_field_sets: dict[frozenset[str], set[str]] = {}
_shared: dict[tuple[Any, ...], BaseModel] = {}
_frozen: dict[type, bool] = {}
_models: dict[type, bool] = {}
_plain: dict[type, bool] = {str: True, int: True, bool: True, type(None): True}
_intern = sys.intern


def compact(model: BaseModel) -> None:
    """Share ``model``'s texts (interned) and, where it is frozen, its field set, and those of the models inside it."""
    cls = type(model)
    frozen = _frozen.get(cls)
    if frozen is None:
        frozen = _frozen[cls] = bool(cls.model_config.get("frozen"))
    if frozen:
        _share_field_set(model)
    values = model.__dict__
    for name, value in values.items():  # assigning to a key already there leaves the iteration valid
        kind = type(value)
        if kind is str:
            values[name] = _intern(value)
        elif kind is list:
            _compact_list(value)
        elif kind is not NoneType and _is_model(kind):
            values[name] = _inner(value)


def _compact_list(items: list[Any]) -> None:
    for index, item in enumerate(items):
        if type(item) is str:
            items[index] = _intern(item)
        elif _is_model(type(item)):
            items[index] = _inner(item)


def _is_model(kind: type) -> bool:
    """Whether values of ``kind`` are models (asked once per type: ``isinstance`` of Pydantic's metaclass is slow)."""
    found = _models.get(kind)
    if found is None:
        found = _models[kind] = issubclass(kind, BaseModel)
    return found


def _inner(model: BaseModel) -> BaseModel:
    """A model inside a record: an equal one met before where it may be shared (looked up before it is compacted:
    most are found), else itself, compacted."""
    key = _key(model)
    if key is not None:
        shared = _shared.get(key)
        if shared is not None:
            return shared
    compact(model)
    if key is not None and len(_shared) < MAX_SHARED_VALUES:
        _shared[_key(model) or key] = model  # the key again, its texts interned now
    return model


def _key(model: BaseModel) -> tuple[Any, ...] | None:
    """What an equal value to share ``model`` with has: its class, its values and their types, the fields given;
    None where it may not be shared (not frozen, or holding a value other than a text, integer, boolean, member of
    an enumeration or None)."""
    cls = type(model)
    frozen = _frozen.get(cls)
    if frozen is None:
        frozen = _frozen[cls] = bool(cls.model_config.get("frozen"))
    if not frozen or model.__pydantic_extra__ or model.__pydantic_private__:
        return None
    values = tuple(model.__dict__.values())
    kinds = tuple(map(type, values))
    for kind in kinds:
        plain = _plain.get(kind)
        if plain is None:
            plain = _plain[kind] = issubclass(kind, Enum)
        if not plain:
            return None
    return (cls, kinds, values, frozenset(model.__pydantic_fields_set__))


def _share_field_set(model: BaseModel) -> None:
    fields = model.__pydantic_fields_set__
    key = frozenset(fields)
    shared = _field_sets.get(key)
    if shared is None:
        if len(_field_sets) >= MAX_FIELD_SETS:
            return
        shared = _field_sets[key] = set(key)
    object.__setattr__(model, "__pydantic_fields_set__", shared)
