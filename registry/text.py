"""How library text refers to what a caller gave it, and the English helpers messages share.

A leaf: it imports nothing of the registry, so errors, the report, ids and every rule can word
their messages with it. Library text never names a command-line flag: where a message or hint
refers to an input the caller gave (the records folder, the output file, ...), it writes a
placeholder such as ``{records}``, which ``worded`` spells out, as ``INPUTS`` names it for a
library caller, or as the CLI's flags (``registry/cli/_errors.py``) for a command-line user.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: Every input a library message may refer to, as a library caller knows it.
INPUTS: dict[str, str] = {
    "records": "the records folder",
    "out": "the output path",
    "db": "the database URL",
    "db_file": "the database file",
    "pdf": "the PDF file given",
    "cache_dir": "the cache folder",
    "timeout": "the time limit",
    "max_rows": "the row limit",
    "max_memory": "the memory limit",
    "max_page_chars": "the limit on a page's text",
    "debug": "debug mode",
    "batch": "the batch name",
    "date": "the batch date",
    "slug": "the slug",
    "reason": "the correction's reason",
    "curator": "who files it",
    "independence": "the table's independence",
    "changes": "the corrected values (FIELD=VALUE)",
    "hub_ids": "the file of Hub ids",
}
_PLACEHOLDER = re.compile(r"\{(" + "|".join(INPUTS) + r")\}")


def worded(text: str, names: Mapping[str, str] = INPUTS) -> str:
    """``text`` with each ``{input}`` placeholder spelled out by ``names`` (unknown names: as ``INPUTS`` says)."""
    if "{" not in text:
        return text
    return _PLACEHOLDER.sub(lambda m: names.get(m[1], INPUTS[m[1]]), text)


def a_kind(kind: str) -> str:
    """'a result', 'an evaluation': a kind (or any noun) with its article, for messages."""
    return f"{'an' if kind.lstrip(chr(39))[:1] in 'aeiou' else 'a'} {kind}"
