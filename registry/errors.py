"""Domain exceptions: failures a user can act on, carrying the facts a caller may want.

The CLI turns each exception into a message and an exit status; no traceback. Library text
never names a command-line flag: a message or hint refers to an input the caller gave with a
placeholder such as ``{records}`` (``registry.text``: ``INPUTS`` and ``worded``), which the CLI
spells as its flags (``registry/cli/_errors.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from registry.text import INPUTS, a_kind, worded

if TYPE_CHECKING:
    from registry.issues.codes import Code

__all__ = ["INPUTS", "InvalidRegistryError", "RecordFileError", "RegistryError", "UnknownRecordError",
           "WrongKindError", "worded"]


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
    """A record file that cannot be read as one YAML mapping; ``code`` is one of ``registry.issues.codes``."""

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
        super().__init__(f"{record_id!r} is {a_kind(found)}, not {a_kind(expected)}",
                         f"give the id of {a_kind(expected)}", expected=expected, found=found)
        self.record_id = record_id


class InvalidRegistryError(RegistryError):
    """The registry failed validation; carries the report so callers can print it."""

    def __init__(self, report: object) -> None:
        super().__init__("the registry is not valid", "fix the problems the validation report lists")
        self.report = report
