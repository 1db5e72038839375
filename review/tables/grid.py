"""A page's tables as the review reads them: every cell with its row path, column path, value, ± or interval,
marks and bold, and where the second extractor reads it otherwise.

``registry table`` prints this, so that a curator can see whose mistake a failed cell check is (the
reader's or the transcription's), and can import a table straight from the pinned PDF instead of
retyping its numbers (``import_rows``). Every cell is looked up exactly as a record citing it would be
(``review.tables.cited.CellLookup.locate``), in both extractions: a cell the review could not find again by its
row and column, or that the two extractors read differently, is shown but never offered for import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from review.pdf.extract import pdfium_version, tagged_as
from review.pdf.limited import ReviewLimits, page_chars_checked, run_reading
from review.pdf.pdftext import Extraction
from review.pdf.words import PageWords, lines_of, squeezed
from review.tables.cited import tables_on
from review.tables.grid_cells import GridCell, GridError, GridTable, PageGrid, _grids

#: A table's label as captions print it: 'Table 3', 'TABLE II', 'Table 6.2', 'Table A1', 'Tab. 2'.
_LABEL = re.compile(r"^(?P<word>table|tab\.)(?P<number>(?:[A-Z]?\d+(?:\.\d+)*[a-z]?|[IVXLC]+))?[:.|]?$",
                    re.IGNORECASE)
_NUMBER = re.compile(r"^(?:[A-Z]?\d+(?:\.\d+)*[a-z]?|[IVXLC]+)[:.|]?$")


def labels_on(words: PageWords) -> list[str]:
    """The labels of the tables whose captions may be on a page ('Table 2', 'TABLE II'), in reading order.

    Every 'Table N' on the page is a candidate, in prose too; ``read_page`` keeps those the table reader
    finds a caption and a table of numbers for."""
    labels: list[str] = []
    for line in lines_of(words.words):
        texts = [squeezed(w.text) for w in line.words]
        for i, text in enumerate(texts):
            found = _LABEL.match(text)
            if found is None:
                continue
            if found["number"]:
                label = f"{line.words[i].text[:len(found['word'])]} {found['number']}"
            elif i + 1 < len(texts) and _NUMBER.match(texts[i + 1]):
                label = f"{line.words[i].text} {texts[i + 1].rstrip(':.|')}"
            else:
                continue
            if label not in labels:
                labels.append(label)
    return labels


def read_page(pdf: Path, page: int, label: str | None = None, *, second: bool = True,
              limits: ReviewLimits = ReviewLimits()) -> PageGrid:
    """The tables on ``page`` of ``pdf`` (only ``label``'s, where given) as both extractors read them.

    Read as the review reads a PDF (``review.pdf.limited``): the file refused past ``limits.max_pdf_bytes``
    before it is read, the reading done in a process of its own killed past ``limits.timeout`` or
    ``limits.max_memory_mb`` (``pdftotext`` with it), a page of more than ``limits.max_page_chars``
    characters refused; a limit reached is a ``ReviewLimitError``. Only the page and the one before it (where
    a continued table's open row group is printed) are read, by PDFium and by poppler's ``pdftotext
    -bbox-layout``, the two readings the review's cell checks use. Raises ``PdfError`` for a file that is no
    readable PDF, ``RegistryError`` for a page past the end, a page without a table, or a label not on the
    page (naming the tables that are, or the pages it is on)."""
    import time

    from review.errors import FetchError, PdfError
    from review.pdf.fetch import read_pdf

    started = time.monotonic()
    try:
        data = read_pdf(pdf, limits.max_pdf_bytes)
    except FetchError as exc:
        raise FetchError(exc.message, "give the PDF of the source; a paper's PDF is a few megabytes") from None
    except OSError as exc:
        raise PdfError(pdf, f"cannot read {pdf}: {exc.strerror}", "check the file's permissions") from exc
    request = PageRequest(data, str(pdf), page, label, second, limits.timeout - (time.monotonic() - started),
                          limits.max_page_chars)
    plain = run_reading("review.tables.grid:page_grid", request, limits, what=f"reading page {page} of {pdf}",
                        started=started)
    return _from_plain(plain)


@dataclass(frozen=True)
class PageRequest:
    """What the reading process is sent: the file's bytes, how to name them, the page, and its limits."""

    data: bytes = field(repr=False)
    name: str
    page: int
    label: str | None
    second: bool
    timeout: float
    """Seconds left: what pdftotext, run by the reading process, may take at most."""
    max_page_chars: int


def page_grid(request: PageRequest) -> dict[str, Any]:
    """What the reading process runs (``read_page``): the page's tables, as plain data."""
    from dataclasses import asdict

    return plain_data(asdict(grid_of(request)))


def plain_data(value: Any) -> Any:
    """``value`` with every text of a ``str`` subclass (``review.tables.cited.Unread``, why a cell cannot be read)
    made a plain ``str``, inside lists, tuples and dicts: the reading process may answer with plain values only."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {plain_data(k): plain_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain_data(item) for item in value)
    return value


def _from_plain(plain: dict[str, Any]) -> PageGrid:
    tables = tuple(GridTable(**{**table, "cells": tuple(GridCell(**cell) for cell in table["cells"])})
                   for table in plain["tables"])
    return PageGrid(**{**plain, "tables": tables})


def grid_of(request: PageRequest) -> PageGrid:
    """The tables of the page ``request`` names, read in this process."""
    pdf, page, label = Path(request.name), request.page, request.label
    primary, other, missing = page_readings(request)
    found = [name for name in _candidates((primary, other) if other else (primary,), page)
             if tables_on(primary, page, name)]
    if label is not None:
        if not tables_on(primary, page, label):
            if found:
                raise GridError(f"no table {label!r} on page {page} of {pdf}; the tables found there are "
                                + ", ".join(repr(n) for n in found), "give one of them with the table option, or "
                                "leave it out to see them all", found=tuple(found))
            raise GridError(f"no table {label!r} on page {page} of {pdf}, and no other table: no caption of a "
                            "table with a table of numbers under or over it", _elsewhere(request.data, label, page))
        found = [label]
    elif not found:
        raise GridError(f"no table on page {page} of {pdf}: no caption of a table ('Table 1:', 'TABLE II') with a "
                        "table of numbers under or over it", "check the page number (pages count from 1, the "
                        "PDF's first page being page 1, whatever the paper prints on it)")
    tables = tuple(grid for name in found for grid in _grids(primary, other, page, name))
    extractors = (primary.extractor,) + ((other.extractor,) if other is not None else ())
    return PageGrid(str(pdf), page, primary.page_count, extractors, missing, tables)


def page_readings(request: PageRequest) -> tuple[Extraction, Extraction | None, str | None]:
    """PDFium's and pdftotext's positioned words of the page and the page before it, as extractions of the whole
    document whose other pages hold no words; and why the second is missing, where it is. A page of more
    characters than the request allows is refused before pdftotext starts."""
    from review.pdf import poppler

    pdf, page = Path(request.name), request.page
    count, words = _pdfium_pages(request.data, pdf, page)
    if not 1 <= page <= count:
        raise GridError(f"page {page} does not exist: {pdf} has {count} pages", f"give a page from 1 to {count}")
    for of_page in words:
        page_chars_checked(sum(len(w.text) for w in of_page.words), of_page.number, str(pdf), request.max_page_chars)
    primary = _extraction(count, words, f"PDFium ({pdfium_version()})")
    program = poppler.find_pdftotext() if request.second else None
    if program is None:
        why = None if not request.second else (f"poppler's {poppler.PROGRAM} is not installed (Debian package "
                                               f"{poppler.PACKAGE}), so the cells are read by PDFium alone")
        return primary, None, why
    with poppler.Reading(request.data, program, str(pdf), request.timeout, pages=(max(1, page - 1), page),
                         text=False) as reading:
        other = reading.result()
    return primary, tagged_as(_extraction(count, list(other.words), other.extractor), primary), None


def _pdfium_pages(data: bytes, pdf: Path, page: int) -> tuple[int, list[PageWords]]:
    """The page count, and PDFium's words of ``page`` and the page before it (copied into a document of their
    own, so that the rest of the file is never parsed)."""
    import dataclasses

    import pypdfium2 as pdfium

    from review.errors import PdfError
    from review.pdf.fetch import sniff
    from review.pdf.words import pdfium_tagged, pdfium_words

    kind = sniff(data[:1024])
    if kind != "pdf":
        shown = {"empty": "is empty", "html": "is an HTML page"}.get(kind, f"starts with {data[:16]!r}")
        raise PdfError(pdf, f"{pdf} is not a PDF: it {shown}", "give the PDF file of the source")
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise PdfError(pdf, f"{pdf} cannot be opened as a PDF: {exc}", "the file may be damaged or need a password; "
                       "check that it opens in a PDF viewer") from exc
    try:
        count = len(document)
        if not 1 <= page <= count:
            return count, []
        first = max(1, page - 1)
        tagged = pdfium_tagged(document, range(first, page + 1))
        part = pdfium.PdfDocument.new()
        try:
            part.import_pages(document, list(range(first - 1, page)))
            import io

            buffer = io.BytesIO()
            part.save(buffer)
        finally:
            part.close()
    finally:
        document.close()
    return count, [dataclasses.replace(w, number=first + i, tagged=tagged.get(first + i, ()))
                   for i, w in enumerate(pdfium_words(buffer.getvalue()))]


def _extraction(count: int, pages: list[PageWords], extractor: str) -> Extraction:
    """An extraction of ``count`` pages holding only ``pages``' words (the others empty, so no table is read there)."""
    held = {p.number: p for p in pages}
    words = tuple(held.get(n, PageWords(n, 0.0, 0.0, ())) for n in range(1, count + 1))
    return Extraction(pages=("",) * count, extractor=extractor, words=words)


def _candidates(docs: tuple[Extraction, ...], page: int) -> list[str]:
    names: list[str] = []
    for doc in docs:
        words = doc.page_words(page)
        for name in labels_on(words) if words is not None else []:
            if squeezed(name).lower() not in {squeezed(n).lower() for n in names}:
                names.append(name)
    return names


def _elsewhere(data: bytes, label: str, page: int) -> str:
    """Where ``label`` is, read from every page's PDFium words (only on this error's path: the whole file)."""
    from review.pdf.words import pdfium_words

    words = pdfium_words(data)
    doc = _extraction(len(words), list(words), "PDFium")
    pages = [n for n in range(1, doc.page_count + 1) if n != page and tables_on(doc, n, label)]
    if pages:
        return f"{label} is on page {', '.join(map(str, pages))}"
    return "check the label as the caption prints it ('Table 2', 'TABLE II') and the page (counted from 1)"


