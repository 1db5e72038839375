"""Both readings of the verified bytes: pypdf's text with PDFium's words, and poppler's.

The *primary* reading is pypdf's page text (its SHA-256 is the review's ``extraction_sha256``)
with PDFium's positioned words for table cells. The *second* reading is poppler's ``pdftotext``
(``review.pdf.poppler``), fed the same bytes on its standard input: no extractor opens a file by name,
so what both parse is what was hashed. pdftotext starts first and works while pypdf and PDFium
do, so the check costs the slower of the two.

A review calls ``read_pdf`` inside its child process (``registry.checking.review.check_pdf``, run by
``registry.sandbox`` within the review's time and memory limits): pdftotext, started from there,
inherits the memory limit (``RLIMIT_AS``) and is killed with the child. A file that is not a
PDF, is encrypted, damaged, or has no text at all (a scan) gets a ``PdfError`` with what to do.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from registry.textsafe import excerpt
from review.errors import PdfError
from review.pdf.pdftext import MAX_PAGE_CHARS, Extraction, extract_pdf, pdf_bytes


@dataclass(frozen=True)
class Readings:
    """The primary extraction, the second one (None where poppler is missing or not asked for), and why it is
    missing."""

    primary: Extraction
    second: Extraction | None
    second_missing: str | None = None

    @property
    def all(self) -> tuple[Extraction, ...]:
        return (self.primary,) if self.second is None else (self.primary, self.second)

    def plain(self) -> tuple[Any, ...]:
        """The page texts and what a review records of each extraction, as plain values (no positioned words)."""
        return (_plain(self.primary), None if self.second is None else _plain(self.second), self.second_missing)

    @classmethod
    def from_plain(cls, fields: tuple[Any, ...] | list[Any]) -> Readings:
        """The readings ``plain`` gave, without their positioned words (the claims that read them were checked)."""
        primary, second, missing = fields
        return cls(_extraction(primary), None if second is None else _extraction(second), missing)


def _plain(extraction: Extraction) -> tuple[Any, ...]:
    return (list(extraction.pages), extraction.extractor, extraction.creation_date, extraction.creation_date_utc,
            extraction.creation_date_unread)


def _extraction(fields: tuple[Any, ...] | list[Any]) -> Extraction:
    pages, extractor, created, created_utc, unread = fields
    return Extraction(pages=tuple(pages), extractor=extractor, creation_date=created, creation_date_utc=created_utc,
                      creation_date_unread=unread)


def read_pdf(source: Path | bytes, *, name: str | None = None, max_page_chars: int = MAX_PAGE_CHARS,
             second: bool = True, timeout: float | None = None) -> Readings:
    """Both readings of ``source`` (the file's bytes, or a path to read them from; the second reading only
    where ``second`` and pdftotext is installed). ``timeout``: the seconds pdftotext may take."""
    from review.pdf import poppler

    source, name = pdf_bytes(source, name)
    name = name or "the PDF"
    program = poppler.find_pdftotext() if second else None
    if program is None:
        why = None if not second else (f"poppler's {poppler.PROGRAM} is not installed (Debian package "
                                       f"{poppler.PACKAGE}), so every claim was checked with one extractor only")
        return Readings(primary_reading(source, name, max_page_chars), None, why)
    with poppler.Reading(source, program, name, timeout) as other:  # working while pypdf and PDFium read
        primary = primary_reading(source, name, max_page_chars)  # its error (not a PDF, ...) is the one to report
        return Readings(primary, tagged_as(other.result(), primary))


def primary_reading(data: bytes, name: str, max_page_chars: int = MAX_PAGE_CHARS) -> Extraction:
    """pypdf's text of every page and PDFium's words; PdfError for what is not readable."""
    from review.pdf.words import pdfium_words

    path = Path(name)
    text = extract_pdf(data, name=name, max_page_chars=max_page_chars)
    if not any(page.strip() for page in text.pages):
        raise PdfError(path, f"{name} has no text to check: none of its {text.page_count} pages holds any (a scanned "
                       "image without a text layer?)",
                       "a source check reads the PDF's text; check this source by hand against the pages, since an "
                       "OCR'd copy would be another file with another hash")
    try:
        words = pdfium_words(data)
    except MemoryError:
        raise
    except Exception as exc:  # noqa: BLE001 - PDFium's errors have no common class beyond its own
        raise PdfError(path, f"PDFium cannot read the positioned text of {name}: {type(exc).__name__}: "
                       f"{excerpt(str(exc), 200)[1:-1]}",
                       "the file may be damaged; download the PDF again, or check it opens in a PDF viewer") from exc
    return dataclasses.replace(text, extractor=f"{text.extractor} (words: {pdfium_version()})", words=words)


def tagged_as(other: Extraction, primary: Extraction) -> Extraction:
    """The second extraction with the tagged tables PDFium read from the PDF's structure tree
    (``review.pdf.structtree``) and the grids its drawn rules enclose (``review.pdf.drawn``) on its pages: both are
    the PDF's own, whichever extractor's words fill their cells."""
    from review.pdf.words import with_tags

    if not any(page.tagged or page.ruled for page in primary.words):
        return other
    return dataclasses.replace(other, words=with_tags(other.words, primary.words))


def pdfium_version() -> str:
    from pypdfium2.version import PYPDFIUM_INFO

    return f"pypdfium2 {PYPDFIUM_INFO}"
