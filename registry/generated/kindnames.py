"""The kind tokens and what each kind is, in one line: what help texts show without building the models.

The kinds are declared by their model classes (``registry.models.KINDS_IN_ORDER``: each one's
``kind_token`` and the first line of its docstring). Importing those builds Pydantic and every model
(about 0.2 s), which ``registry --help``, ``registry list --help`` and ``registry new --help`` must not
pay for; this table is generated from them, and ``tests/test_kinds.py`` checks that it still agrees.
After adding or renaming a kind, or rewording the first line of its docstring, regenerate it:
``python -m registry.generated.kindnames --write``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from registry.models import Record

#: Kind token -> the first line of its model's docstring, in the order of ``KINDS_IN_ORDER`` (generated).
KIND_SUMMARIES: dict[str, str] = {
    "source": "A published document, pinned to one exact file by its SHA-256.",
    "family": "A family of models, for example the Nucleotide Transformer.",
    "config": "One tested configuration: a model in a specific setup, as one source ran it.",
    "protocol": "How an evaluation is carried out, as the source describes it.",
    "benchmark": "A benchmark shared across papers: its name, task and split, and the identifiers others know it by.",
    "dataset": "The data an evaluation runs on.",
    "evaluation": "One configuration run under one protocol on one dataset.",
    "result": "One number as a source printed it, with what it measures and where it was printed.",
    "review": "One dated check of one or more records against the pinned source.",
    "evidence": "One statement of a record tied to one place in one source, and the review that checked it.",
    "release": "A named, published state of the registry.",
    "recipe": "How to re-run the experiment behind a result.",
    "reproduction": "One run of one setting of a recipe: a value we measured or estimated ourselves.",
    "correction": "One record superseded by another that holds the corrected values; both stay in the registry.",
    "retraction": "One record withdrawn without a replacement (a value the source does not print, a duplicate); it "
                  "stays.",
    "unit": "A unit the registry declares beside the built-in ones: its token, dimension, scale and printed forms.",
    "attestation": "One person's dated statement that confirms, disputes or corrects one value.",
}

#: Every built-in kind token, in order.
KIND_TOKENS: tuple[str, ...] = tuple(KIND_SUMMARIES)


def summaries_of_models() -> dict[str, str]:
    """What ``KIND_SUMMARIES`` must say: read off the built-in models (this builds them)."""
    from registry import models

    return {model.kind_token: summary(model) for model in models.KINDS_IN_ORDER}


def summary(model: type[Record]) -> str:
    """What a kind is, in one line: the first line of its model's docstring."""
    return (model.__doc__ or "").strip().splitlines()[0]


def render(summaries: dict[str, str]) -> str:
    """This module's text with ``summaries`` as its table."""
    text = Path(__file__).read_text(encoding="utf-8")
    start = text.index("KIND_SUMMARIES: dict[str, str] = {")
    end = text.index("\n}\n", start) + 3
    rows = "".join(_row(token, line) for token, line in summaries.items())
    return text[:start] + "KIND_SUMMARIES: dict[str, str] = {\n" + rows + "}\n" + text[end:]


def _row(token: str, line: str) -> str:
    """One entry of the table, as ruff formats it: wrapped at a space where it would pass 120 characters."""
    head = f"    {json.dumps(token)}: "
    if len(head) + len(json.dumps(line, ensure_ascii=False)) + 1 <= 120:
        return f"{head}{json.dumps(line, ensure_ascii=False)},\n"
    cut = line.rfind(" ", 0, 120 - len(head) - 4) + 1
    first, rest = (json.dumps(part, ensure_ascii=False) for part in (line[:cut], line[cut:]))
    return f"{head}{first}\n{' ' * len(head)}{rest},\n"

if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python -m registry.generated.kindnames --write "
                         "(regenerates the table from the models)")
    Path(__file__).write_text(render(summaries_of_models()), encoding="utf-8")
