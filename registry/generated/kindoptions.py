"""The options of ``registry new KIND`` that name a kind's fields, as typer is given them (generated).

A kind's options are read off its model (``registry.curate.form``: one per value a record holds).
Reading them builds Pydantic and the model with every model it refers to (about 0.2 s), which
``registry new KIND --help`` would pay on every call; so they are written out ahead of time into
``kindoptions.json`` beside this module, generated from the models, and ``tests/test_kinds.py``
checks that the file still says what the models do. After changing a kind's fields, their
descriptions or the defaults ``registry.curate.new.FILLED`` gives, regenerate it:
``python -m registry.generated.kindoptions --write``.
"""

from __future__ import annotations

import functools
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from registry.curate.form import Leaf
    from registry.models import Record

#: The generated file: every built-in kind's field options, and the reasons a field may be empty.
TABLE = Path(__file__).with_name("kindoptions.json")


@dataclass(frozen=True)
class FieldOption:
    """One option of ``registry new KIND`` that sets one value of the record."""

    path: tuple[str, ...]
    """Where the value goes in the record (``('uncertainty', 'half_width')``)."""
    declaration: str
    """What typer is given to name it: ``--metric``, or ``--flag/--no-flag`` for a yes-or-no value."""
    help: str
    shape: str
    """``text`` (one value), ``texts`` (a list: the option repeats) or ``flag`` (yes or no)."""

    @property
    def param(self) -> str:
        """A Python name for it (as the command's parameter)."""
        return "field__" + "__".join(self.path)

    @property
    def flag(self) -> str:
        return self.declaration.split("/")[0]


@dataclass(frozen=True)
class KindOptions:
    """What every built-in kind's command is built from without the models."""

    kinds: dict[str, tuple[FieldOption, ...]]
    missing_reasons: tuple[str, ...]
    """The values of ``registry.models.MissingReason``, which ``--missing``'s help lists."""


@functools.cache
def written() -> KindOptions:
    """The table as generated into ``kindoptions.json``."""
    data = json.loads(TABLE.read_text(encoding="utf-8"))
    kinds = {token: tuple(FieldOption(tuple(o["path"]), o["declaration"], o["help"], o["shape"]) for o in options)
             for token, options in data["kinds"].items()}
    return KindOptions(kinds, tuple(data["missing_reasons"]))


def of_models() -> KindOptions:
    """What the table must say: read off the built-in models (this builds them)."""
    from registry import models

    return KindOptions({model.kind_token: of_model(model) for model in models.KINDS_IN_ORDER},
                       tuple(reason.value for reason in models.MissingReason))


def of_model(model: type[Record]) -> tuple[FieldOption, ...]:
    """The field options of one kind's command, from its form."""
    from registry.curate.form import form

    leaves, _ = form(model)
    return tuple(FieldOption(leaf.path, _declaration(leaf), _help(leaf, model.kind_token), _shape(leaf))
                 for leaf in leaves)


def _declaration(leaf: Leaf) -> str:
    return f"{leaf.flag}/--no-{leaf.flag[2:]}" if leaf.is_flag else leaf.flag


def _shape(leaf: Leaf) -> str:
    return "texts" if leaf.many else "flag" if leaf.is_flag else "text"


def kinds_named(leaf: Leaf) -> str:
    """The kinds of record a reference names, as words ('an evaluation', 'any record')."""
    from registry.curate.form import reference_kinds
    from registry.ids import a_kind

    kinds = reference_kinds(leaf)
    return "any record" if "*" in kinds else a_kind(" or ".join(kinds))


def _help(leaf: Leaf, kind: str) -> str:
    from registry.curate.new import FILLED

    description = leaf.description.strip()
    words = [description if description.endswith(".") else description + "."]
    if leaf.choices:
        words.append(f"One of: {', '.join(leaf.choices)}.")
    if leaf.references:
        words.append(f"The id of {kinds_named(leaf)}; part of one is completed.")
    if leaf.many:
        words.append("Repeatable.")
    filled = FILLED.get((kind, leaf.dotted))
    if leaf.required:
        words.append(f"Required (default: {filled})." if filled else "Required.")
    elif filled:
        words.append(f"Default: {filled}.")
    elif leaf.reportable:
        words.append("Reportable: if not given, listed under missing_metadata.")
    return " ".join(words)


def render(table: KindOptions) -> str:
    """The text of ``kindoptions.json`` for ``table``: one option a line, so that a change reads as a diff."""
    lines = ["{", f'  "missing_reasons": {json.dumps(list(table.missing_reasons))},', '  "kinds": {']
    for k, (token, options) in enumerate(table.kinds.items()):
        lines.append(f"    {json.dumps(token)}: [")
        lines += [f"      {json.dumps(asdict(option), ensure_ascii=False)}" + ("," if i < len(options) - 1 else "")
                  for i, option in enumerate(options)]
        lines.append("    ]" + ("," if k < len(table.kinds) - 1 else ""))
    return "\n".join([*lines, "  }", "}", ""])


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python -m registry.generated.kindoptions --write (regenerates kindoptions.json from "
                         "the models)")
    from registry.store.atomic import write_atomic

    write_atomic(TABLE, render(of_models()), overwrite=True)
