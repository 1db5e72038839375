"""The form of a record kind: every value a curator can give, read off the model's fields.

Each plain value a record holds, at any depth of nested objects, is a *leaf* with a path
(``('uncertainty', 'half_width')``), the flag that sets it (``--uncertainty-half-width``), its type,
whether it is required, reportable or a reference, its choices and its description, all from the
model. ``registry new KIND`` makes one option per leaf, and its prompts ask for them. Values the leaves
cannot reach (items of a list of objects, a mapping's entries) are set by path: ``--set
hardware[0].accelerator='NVIDIA H100'`` (``set_path``).
"""

from __future__ import annotations

import enum
import functools
import re
import types
import typing
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from registry.errors import RegistryError
from registry.models.base import Record
from registry.models.fields import resolve_kinds
from registry.textsafe import excerpt

#: Fields no form asks for: the kind and id (the command knows them) and missing metadata (its own option).
NOT_ASKED = ("kind", "id", "missing_metadata")


@dataclass(frozen=True)
class Leaf:
    """One value a record of a kind can hold, and how it is asked for."""

    path: tuple[str, ...]
    annotation: Any
    """The plain type of the value (an item's type, for a list)."""
    description: str
    required: bool
    """The field and every object above it are required."""
    many: bool = False
    """A list of plain values (the option repeats)."""
    reportable: bool = False
    """A reportable field of the record: empty only with a missing-metadata entry."""
    references: tuple[str, ...] = ()
    """The kinds of record it names, for a reference."""

    @property
    def flag(self) -> str:
        return "--" + "-".join(self.path).replace("_", "-")

    @property
    def dotted(self) -> str:
        return ".".join(self.path)

    @property
    def choices(self) -> list[str]:
        if isinstance(self.annotation, type) and issubclass(self.annotation, enum.Enum):
            return [str(member.value) for member in self.annotation]
        if typing.get_origin(self.annotation) is typing.Literal:
            return [str(value) for value in typing.get_args(self.annotation)]
        return []

    @property
    def is_flag(self) -> bool:
        return self.annotation is bool


@dataclass(frozen=True)
class Branch:
    """A field the leaves do not reach (a list of objects, a mapping): set by path with ``--set``."""

    path: tuple[str, ...]
    description: str
    reportable: bool


@functools.cache
def form(model: type[BaseModel]) -> tuple[tuple[Leaf, ...], tuple[Branch, ...]]:
    """Every leaf and branch of ``model``, in field order."""
    leaves: list[Leaf] = []
    branches: list[Branch] = []
    _walk(model, (), True, leaves, branches, top=True)
    return tuple(leaves), tuple(branches)


def _walk(model: type[BaseModel], prefix: tuple[str, ...], required: bool, leaves: list[Leaf],
          branches: list[Branch], *, top: bool) -> None:
    shared = set(Record.model_fields) if top else set()
    names = [n for n in model.model_fields if n not in shared] + [n for n in model.model_fields if n in shared]
    for name in names:  # the kind's own fields first, then those every record has (derivation)
        info = model.model_fields[name]
        if top and name in NOT_ASKED:
            continue
        path = (*prefix, name)
        annotation = plain_type(info.annotation)
        needed = required and info.is_required()
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        reportable = top and bool(extra.get("x-reportable"))  # the markers of registry.models.base, read directly:
        kinds = extra.get("x-references")  # field_plan would also work out dates, which a form never needs
        references = {name: [str(k) for k in kinds]} if isinstance(kinds, list) else {}
        description = info.description or ""
        origin = typing.get_origin(annotation)
        if _is_model(annotation):
            _walk(annotation, path, needed, leaves, branches, top=False)
            if reportable:
                branches.append(Branch(path, description, reportable=True))
        elif origin is list and not _is_model(plain_type(typing.get_args(annotation)[0])):
            leaves.append(Leaf(path, plain_type(typing.get_args(annotation)[0]), description, needed, many=True,
                               reportable=reportable, references=tuple(references.get(name, ()))))
        elif origin in (list, dict):
            branches.append(Branch(path, description, reportable))
        else:
            leaves.append(Leaf(path, annotation, description, needed, reportable=reportable,
                               references=tuple(references.get(name, ()))))


def plain_type(annotation: Any, *, into_lists: bool = False) -> Any:
    """``X | None`` and ``Annotated[X, ...]`` as ``X`` (and ``list[X]`` too with ``into_lists``); a union of
    several plain types stays a union."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated or (into_lists and origin is list):
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            present = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            if len(present) != 1:
                return annotation
            annotation = present[0]
        else:
            return annotation


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def reference_kinds(leaf: Leaf) -> list[str]:
    return resolve_kinds(list(leaf.references))


# -- values by path --------------------------------------------------------------------------------

_PART = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]")


def parse_path(text: str) -> tuple[str | int, ...]:
    """'hardware[0].accelerator' or 'hardware.0.accelerator' -> ('hardware', 0, 'accelerator')."""
    parts: list[str | int] = []
    for piece in text.strip().split("."):
        if piece.isdigit():
            parts.append(int(piece))
            continue
        position = 0
        for match in _PART.finditer(piece):
            if match.start() != position:
                break
            parts.append(match.group(1) if match.group(1) else int(match.group(2)))
            position = match.end()
        if position != len(piece) or not piece:
            raise RegistryError(f"{text!r} is not a field path", "write a path such as uncertainty.half_width or "
                                "hardware[0].accelerator")
    return tuple(parts)


def set_path(data: dict[str, Any], path: tuple[str | int, ...], value: Any) -> None:
    """Put ``value`` at ``path`` in nested ``data``, making the mappings and lists on the way."""
    here: Any = data
    for part, after in zip(path, (*path[1:], None), strict=True):
        if after is None:
            _put(here, part, value)
            return
        child = _get(here, part)
        if child is None:
            child = [] if isinstance(after, int) else {}
            _put(here, part, child)
        here = child


def _get(container: Any, part: str | int) -> Any:
    if isinstance(container, list) and isinstance(part, int):
        return container[part] if part < len(container) else None
    if isinstance(container, dict):
        return container.get(part)
    raise RegistryError(f"cannot set {part!r} inside a value that is not a mapping or a list")


def _put(container: Any, part: str | int, value: Any) -> None:
    if isinstance(container, list) and isinstance(part, int):
        if part > len(container):
            raise RegistryError(f"item [{part}] comes after item [{len(container)}], which is not set",
                                "set the items of a list in order, from [0]")
        if part == len(container):
            container.append(value)
        else:
            container[part] = value
    elif isinstance(container, dict):
        container[part] = value
    else:
        raise RegistryError(f"cannot set {part!r} inside a value that is not a mapping or a list")


def typed_text(text: str) -> Any:
    """A value given as text: YAML for a list or mapping ('[a, b]', '{...}'), 'null' for none, else the text.

    Every scalar stays text (YAML's base loader types nothing), so that the model types it exactly: a
    decimal is never read as a float on the way.
    """
    stripped = text.strip()
    if stripped == "null":
        return None
    if stripped[:1] in "[{":
        import yaml

        from registry.store.yamlio import MAX_DEPTH

        too_deep = RegistryError(f"{excerpt(text)} nests lists or mappings more than {MAX_DEPTH} levels deep; "
                                 "records are shallow", "write the value flatter")
        if _nesting(stripped) > MAX_DEPTH:
            raise too_deep  # PyYAML builds nested values by recursion: thousands of levels would exhaust the stack
        try:
            return yaml.load(stripped, Loader=yaml.BaseLoader)  # noqa: S506 - the base loader builds only text
        except yaml.YAMLError as exc:
            raise RegistryError(f"{excerpt(text)} is not a YAML list or mapping: {exc}") from None
        except RecursionError:
            raise too_deep from None
    return text


def _nesting(text: str) -> int:
    """How deep flow brackets nest in ``text`` (those inside quotes left out); an escaped quote may make it more."""
    depth = deepest = 0
    quote = ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
