"""What can go wrong while source checking, each with the next thing to try.

All are ``RegistryError``s, so the CLI's one translation layer prints them as
'Error: ... / Hint: ...' with exit status 1.
"""

from __future__ import annotations

from pathlib import Path

from registry.errors import RegistryError


class FetchError(RegistryError):
    """The pinned PDF could not be obtained (network, refusal, size, scheme)."""


class BlockedDownloadError(FetchError):
    """The host answered a scripted download with a web page or a refusal instead of the PDF."""


class HashMismatchError(RegistryError):
    """A file is not the pinned artifact: its SHA-256 differs from the source's."""

    def __init__(self, message: str, hint: str, *, expected: str, found: str) -> None:
        super().__init__(message, hint)
        self.expected = expected
        self.found = found


class PdfError(RegistryError):
    """The file is the pinned artifact but cannot be read as a PDF (not a PDF, corrupt, encrypted)."""

    def __init__(self, path: Path, message: str, hint: str | None = None) -> None:
        super().__init__(message, hint)
        self.path = path


class NotCheckableError(RegistryError):
    """A record cannot be source checked: its locator names no page or quotes no text."""


class ReviewLimitError(RegistryError):
    """A review stopped at one of its limits (time, memory): the PDF is not what a paper is, or the limit too low."""

    def __init__(self, message: str, hint: str = "allow more time with {timeout} SECONDS, if this is the pinned "
                 "paper") -> None:
        super().__init__(message, hint)
