"""Domain exceptions, and how library text refers to what the caller gave it.

The CLI turns each exception into a message and an exit status; no traceback. Library text
never names a command-line flag: where a message or hint refers to an input the caller gave
(the records folder, the output file, ...), it writes a placeholder such as ``{records}``,
which ``worded`` spells out, as ``INPUTS`` names it for a library caller, or as the CLI's
flags (``registry/cli/_errors.py``) for a command-line user.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from registry.codes import Code

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


class RegistryError(Exception):
    """A failure the user can act on; ``hint`` says what to do next.

    ``message`` and ``hint`` may hold ``{input}`` placeholders (see ``worded``); ``expected``,
    ``found`` and ``path`` carry the facts for callers that want them without parsing text.
    """

    def __init__(self, message: str, hint: str | None = None, *, expected: str | None = None,
                 found: str | None = None, path: str | Path | None = None) -> None:
        super().__init__(worded(message))
        self.message = message
        self.hint = hint
        self.expected = expected
        self.found = found
        self.path = path

    def worded(self, names: Mapping[str, str] = INPUTS) -> tuple[str, str | None]:
        """(message, hint) with their placeholders spelled out by ``names``."""
        return worded(self.message, names), (worded(self.hint, names) if self.hint else None)


class RecordFileError(RegistryError):
    """A record file that cannot be read as one YAML mapping; ``code`` is one of ``registry.codes``."""

    def __init__(self, code: Code, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.line = line


class UnknownRecordError(RegistryError):
    """An id that names no record; carries the closest ids for a 'did you mean'."""

    def __init__(self, record_id: str, suggestions: list[str]) -> None:
        hint = ("did you mean: " + ", ".join(suggestions)) if suggestions else "no id is close to it"
        super().__init__(f"no record has the id {record_id!r}", hint, found=record_id)
        self.record_id = record_id
        self.suggestions = suggestions


class WrongKindError(RegistryError):
    """An id that names a record of another kind than the one asked for."""

    def __init__(self, record_id: str, *, found: str, expected: str) -> None:
        from registry.ids import a_kind

        super().__init__(f"{record_id!r} is {a_kind(found)}, not {a_kind(expected)}",
                         f"give the id of {a_kind(expected)}", expected=expected, found=found)
        self.record_id = record_id


class InvalidRegistryError(RegistryError):
    """The registry failed validation; carries the report so callers can print it."""

    def __init__(self, report: object) -> None:
        super().__init__("the registry is not valid", "fix the problems the validation report lists")
        self.report = report
