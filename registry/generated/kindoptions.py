"""The options of ``registry new KIND`` that name a kind's fields, as typer is given them (generated).

A kind's options are read off its model (``registry.curate.form``: one per value a record holds).
Reading them builds Pydantic and the model with every model it refers to (about 0.2 s), which
``registry new KIND --help`` would pay on every call; so they are written out ahead of time into
``kindoptions.json`` beside this module, generated from the models, and ``tests/test_kinds.py``
checks that the file still says what the models do.

No hand step keeps it so: ``written()`` regenerates the file where it is stale. Beside it, a stamp
(``.kindoptions.stamp``, not tracked) holds the SHA-256 of the table and of every registry module
that was loaded when it was last generated (the models and what they read, ``FILLED`` included); the
check reads and hashes those files, no model is built. Where one changed (a field added to
``Result``), the options are read off the models again, the file is rewritten if they differ, and the
stamp renewed: the first ``registry new`` after the change pays the 0.2 s, the next ones do not.
``make generate`` (which ``make test`` runs first) and ``python -m registry.generated.kindoptions --write`` do
the same ahead of time, and a folder that cannot be written (an installed package) gets the options
read off the models in memory.
"""

from __future__ import annotations

import functools
import hashlib
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
#: What the table was last generated from: its own hash and those of the registry's modules then loaded.
STAMP = TABLE.with_name(".kindoptions.stamp")


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
    """The table as generated into ``kindoptions.json``, regenerated first where the models changed since."""
    if not fresh():
        return refresh()
    return parse(TABLE.read_text(encoding="utf-8"))


def parse(text: str) -> KindOptions:
    data = json.loads(text)
    kinds = {token: tuple(FieldOption(tuple(o["path"]), o["declaration"], o["help"], o["shape"]) for o in options)
             for token, options in data["kinds"].items()}
    return KindOptions(kinds, tuple(data["missing_reasons"]))


def fresh() -> bool:
    """Whether the table and every module it was generated from are as the stamp recorded them."""
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
        recorded = {TABLE: stamp["table"], **{Path(path): digest for path, digest in stamp["sources"].items()}}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False
    return all(_digest(path) == digest for path, digest in recorded.items())


def refresh() -> KindOptions:
    """Read the options off the models, rewrite the table where it differs, and stamp what it was made from."""
    from registry.store.atomic import write_atomic

    table = of_models()
    text = render(table)
    loaded = [getattr(module, "__file__", None) for name, module in list(sys.modules.items())
              if name == "registry" or name.startswith("registry.")]
    sources: list[str] = sorted({str(path) for path in [*loaded, __file__] if path})  # this module too, run as -m
    try:
        if _digest(TABLE) != hashlib.sha256(text.encode()).hexdigest():
            write_atomic(TABLE, text, overwrite=True)
        stamp = {"table": _digest(TABLE), "sources": {path: _digest(Path(path)) for path in sources}}
        write_atomic(STAMP, json.dumps(stamp, indent=1) + "\n", overwrite=True)
    except OSError:  # an installed package's folder: the options read off the models serve this run
        pass
    return table


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def of_models() -> KindOptions:
    """What the table must say: read off the built-in models (this builds them), as ``KIND_MODELS`` holds them."""
    from registry import models

    return KindOptions({model.kind_token: of_model(models.KIND_MODELS[model.kind_token])
                        for model in models.KINDS_IN_ORDER},
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
                         "the models, and its stamp)")
    refresh()
