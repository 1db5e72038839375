"""One way to read a PDF, under one set of limits: what ``registry review``, ``registry table`` and a table
imported from a PDF all read through.

The reading itself (pypdf's text, PDFium's words, poppler's ``pdftotext``) runs in a child process
(``registry.sandbox``) killed past the time allowed, its address space capped (``pdftotext``, started from
there, inherits the cap and dies with it); one page may hold so many characters of text; the file so
many bytes, refused before it is read (``review.pdf.fetch.read_pdf``). ``run_reading`` runs a reading and says
what stopped it: a limit reached is a ``ReviewLimitError`` naming the limit and the option that raises it,
never a damaged file.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from registry import limits
from registry.errors import RegistryError
from registry.textsafe import excerpt
from review.errors import PdfError, ReviewLimitError


@dataclass(frozen=True)
class ReviewLimits:
    """What one reading may take: the PDF is read (and a review's claims checked) in a process of its own,
    killed past these."""

    timeout: float = limits.REVIEW_TIMEOUT_S
    """Seconds for the whole run: getting the PDF, reading its text, checking every claim."""
    max_memory_mb: int = limits.REVIEW_MAX_MEMORY_MB
    """Megabytes the process that reads the PDF (and checks the claims) may use."""
    max_page_chars: int = limits.REVIEW_MAX_PAGE_CHARS
    """The most characters of text one page may hold."""
    max_pdf_bytes: int = limits.REVIEW_MAX_PDF_BYTES
    """The largest PDF read."""
    max_source_bytes: int = limits.REVIEW_MAX_SOURCE_BYTES
    """The largest source file read (``review.sources.limited``), read too under the time and memory above."""


def run_reading(target: str, request: Any, limits: ReviewLimits, *, what: str, doing: str | None = None,
                started: float | None = None) -> Any:
    """``module:function`` called with ``request`` in a child process under ``limits`` (the time left since
    ``started``, a ``time.monotonic()``); what it returned, as plain data.

    ``what`` names what ran ('the review', 'reading page 3 of paper.pdf') and ``doing`` what it was doing, for the
    message of a limit reached.
    The child's ``PdfError``, ``ReviewLimitError`` and ``RegistryError``s come back as themselves (the
    same message and hint), anything else as a ``RegistryError`` that asks for a report."""
    from registry.sandbox import ChildFailed, LimitExceeded, run_limited

    remaining = limits.timeout - (time.monotonic() - started if started is not None else 0.0)
    if remaining <= 0:
        raise ReviewLimitError(over_time(what, limits, doing))
    try:
        return run_limited(target, request, timeout=remaining, memory_mb=limits.max_memory_mb)
    except LimitExceeded as exc:
        if exc.kind == "time":
            raise ReviewLimitError(over_time(what, limits, doing)) from None
        raise ReviewLimitError(f"{doing or what} needed more than {limits.max_memory_mb:,} MB of memory and was "
                               "stopped", "allow more with {max_memory} MB, if this is the pinned paper") from None
    except ChildFailed as exc:
        if exc.error_type == "PdfError":
            raise PdfError(Path(getattr(request, "name", "the PDF")), exc.message, exc.hint) from None
        if exc.error_type == "ReviewLimitError":
            raise ReviewLimitError(exc.message, *([exc.hint] if exc.hint else [])) from None
        if exc.hint is not None:  # a RegistryError of the reading's own (no such page, no such table)
            raise RegistryError(exc.message, exc.hint) from None
        raise RegistryError(f"{what} failed: {exc.error_type}: {excerpt(exc.message, 300)[1:-1]}",
                            "run again with {debug} for the details, and report it") from None


def over_time(what: str, limits: ReviewLimits, doing: str | None = None) -> str:
    return f"{what} ran longer than {limits.timeout:g} s{f' ({doing})' if doing else ''} and was stopped"


def page_chars_checked(count: int, page: int, name: str, max_page_chars: int) -> None:
    """Refuse a page of more than ``max_page_chars`` characters of text: a limit, the option that raises it."""
    if count > max_page_chars:
        raise ReviewLimitError(f"page {page} of {name} holds {count:,} characters of text, more than the "
                               f"{max_page_chars:,} a page is allowed (a dense page of a paper holds about 5,000): "
                               "it is not a paper's page", "if this is the pinned paper, allow more with "
                               "{max_page_chars}")
