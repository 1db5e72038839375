"""Domain exceptions. The CLI turns each into a message and an exit status; no traceback."""

from __future__ import annotations


class RegistryError(Exception):
    """A failure the user can act on; ``hint`` says what to do next."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class RecordFileError(RegistryError):
    """A record file that cannot be read as one YAML mapping; ``code`` is stable."""

    def __init__(self, code: str, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.line = line


class UnknownRecordError(RegistryError):
    """An id that names no record; carries the closest ids for a 'did you mean'."""

    def __init__(self, record_id: str, suggestions: list[str]) -> None:
        hint = ("did you mean: " + ", ".join(suggestions)) if suggestions else "run 'registry list' to see the ids"
        super().__init__(f"no record has the id {record_id!r}", hint)
        self.record_id = record_id
        self.suggestions = suggestions


class InvalidRegistryError(RegistryError):
    """The registry failed validation; carries the report so callers can print it."""

    def __init__(self, report: object) -> None:
        super().__init__(
            "the registry is not valid", "run 'registry validate' and fix the problems it lists"
        )
        self.report = report
