"""A column of a results table, and the columns read off the models: each one's description, one per field.

``registry.curate.table`` declares the columns that are the import's own (names, ids, values it reads)
and those that fill a field with words of their own to add; their help starts with the model's
description of the field. Every other plain field of a result (text, a number, a choice, a list of
these) is a column of its own, named for the field and described by the model: a field added to
``Result`` is a column of ``registry import`` with no edit here. The fields no column fills are listed
with why (``not_imported``), in the table of docs/curating.md too.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any

#: The fields of a result the import writes itself, from the row as a whole or the command line, with how.
WRITTEN_BY_THE_IMPORT = {
    "id": "derived by the batch convention",
    "kind": "result",
    "evaluation": "the evaluation the row's model, dataset, protocol and split name",
    "source": "`--source`",
    "derivation": "names the table and row it came from",
    "missing_metadata": "from the empty cells and absent columns of reportable fields",
    "bound": "read from `value`: `< 0.001`",
    "range_upper": "read from `value`: `12–15`",
}
#: Why a field of a result no column fills is not a column: it is an object, or a list of objects.
AN_OBJECT = "an object, or a list of them: set it in the record file"


@dataclass(frozen=True)
class Column:
    """One column of a results table: its name, the record field it fills, and what to write in it.

    Its help is the model's description of the field it fills, then ``note`` (what the import adds: the
    cell's form, its default); a column that is the import's own (a name or an id, a value read rather
    than copied) says everything in ``note`` (``own``).
    """

    name: str
    fills: tuple[str, ...]
    """Where its value goes, as 'kind.field[.subfield]' (the first; the others are read from it)."""
    note: str = ""
    required: bool = False
    aliases: tuple[str, ...] = ()
    own: bool = False
    many: bool = False
    """It fills a list of plain values: a cell holds several, separated by ';'."""

    @property
    def help(self) -> str:
        if self.own:
            return self.note
        description = description_of(self.fills[0]).strip()
        several = "Several values separated by `;`." if self.many else ""
        return " ".join(part for part in (description, self.note, several) if part)


def description_of(path: str) -> str:
    """The model's description of the field at 'kind.field[.subfield]' (a list's item type is walked into)."""
    from registry.models import KIND_MODELS

    kind, *names = path.split(".")
    model: Any = KIND_MODELS[kind]
    description = ""
    for name in names:
        info = model.model_fields[name]
        description = info.description or ""
        model = _item(info.annotation)
    return description


def _item(annotation: Any) -> Any:
    """The plain type under ``X | None``, ``Annotated[X, ...]`` and ``list[X]``."""
    from registry.curate.form import plain_type  # pydantic and the models: loaded only when columns are read

    return plain_type(annotation, into_lists=True)


def _unfilled(declared: tuple[Column, ...]) -> list[str]:
    """The result's fields that no declared column fills (nor any below them) and the import does not write."""
    from registry.models import KIND_MODELS

    fills = [fill for column in declared for fill in column.fills]
    return [name for name in KIND_MODELS["result"].model_fields if name not in WRITTEN_BY_THE_IMPORT
            and not any(fill == f"result.{name}" or fill.startswith(f"result.{name}.") for fill in fills)]


def _is_object(name: str) -> bool:
    from pydantic import BaseModel

    from registry.models import KIND_MODELS

    item = _item(KIND_MODELS["result"].model_fields[name].annotation)
    return (isinstance(item, type) and issubclass(item, BaseModel)) or typing.get_origin(item) is dict


def field_columns(declared: tuple[Column, ...]) -> tuple[Column, ...]:
    """A column for each plain field of a result that ``declared`` leaves unfilled, named for the field (prefixed
    'result_' where a declared column has the name), its help the model's description."""
    from registry.curate.form import plain_type
    from registry.models import KIND_MODELS

    names = {column.name for column in declared} | {alias for column in declared for alias in column.aliases}
    made = []
    for name in _unfilled(declared):
        if _is_object(name):
            continue
        many = typing.get_origin(plain_type(KIND_MODELS["result"].model_fields[name].annotation)) is list
        made.append(Column(f"result_{name}" if name in names else name, (f"result.{name}",), many=many))
    return tuple(made)


def not_imported(declared: tuple[Column, ...]) -> dict[str, str]:
    """The fields of a result no column fills, with why: those the import writes, and the objects."""
    return {**WRITTEN_BY_THE_IMPORT, **{name: AN_OBJECT for name in _unfilled(declared) if _is_object(name)}}
