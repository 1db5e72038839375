"""A validation report: every problem found, each with a stable code and a location.

Problems are collected, never raised one at a time, so that a curator fixes a whole
batch in one pass. Codes are stable: tools and tests match on them, not on wording.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum

from registry.text import INPUTS, worded


class Severity(StrEnum):
    ERROR = "error"
    """The registry is not valid until this is fixed."""
    WARNING = "warning"
    """Worth a look; the registry stays valid."""


@dataclass(frozen=True, order=True)
class Issue:
    """One problem, located as precisely as the reader can: file, line, record and field path."""

    file: str
    line: int | None
    code: str
    message: str
    severity: Severity = Severity.ERROR
    record_id: str | None = None
    field: str | None = None

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.line is not None else self.file

    def text(self, names: Mapping[str, str] = INPUTS) -> str:
        """The message with the inputs it refers to named by ``names`` (see ``registry.text.worded``)."""
        return worded(self.message, names)


@dataclass
class Report:
    """Every issue found in one validation run."""

    files: int = 0
    records: int = 0
    issues: list[Issue] = field(default_factory=list)

    def add(self, issue: Issue) -> None:
        self.issues.append(issue)

    @property
    def errors(self) -> list[Issue]:
        return [issue for issue in self.issues if issue.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Issue]:
        return [issue for issue in self.issues if issue.severity is Severity.WARNING]

    @property
    def valid(self) -> bool:
        return not self.errors

    def sorted_issues(self) -> list[Issue]:
        return sorted(self.issues, key=lambda i: (i.file, i.line or 0, i.code, i.field or "", i.message))

    def to_dict(self, names: Mapping[str, str] = INPUTS) -> dict[str, object]:
        return {
            "valid": self.valid,
            "files": self.files,
            "records": self.records,
            "errors": len(self.errors),
            "warnings": len(self.warnings),
            "issues": [{**asdict(issue), "message": issue.text(names), "severity": issue.severity.value}
                       for issue in self.sorted_issues()],
        }


def format_path(path: tuple[str | int, ...]) -> str:
    """('missing_metadata', 0, 'reason') -> 'missing_metadata[0].reason'."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text
