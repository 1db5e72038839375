"""A page's tables as the review reads them: every cell with its row path, column path, value, ± or interval,
marks and bold, and where the second extractor reads it otherwise.

``registry table`` prints this, so that a curator can see whose mistake a failed cell check is (the
reader's or the transcription's), and can import a table straight from the pinned PDF instead of
retyping its numbers (``import_rows``). Every cell is looked up exactly as a record citing it would be
(``review.cells.CellAt.locate``), in both extractions: a cell the review could not find again by its
row and column, or that the two extractors read differently, is shown but never offered for import.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from registry.errors import RegistryError
from review.cells import CellAt, Located, same_number, tables_on
from review.extract import pdfium_version, tagged_as
from review.limited import ReviewLimits, page_chars_checked, run_reading
from review.pdftext import Extraction
from review.tables import CellText, Table
from review.words import ANNOTATION, PageWords, lines_of, squeezed

#: A table's label as captions print it: 'Table 3', 'TABLE II', 'Table 6.2', 'Table A1', 'Tab. 2'.
_LABEL = re.compile(r"^(?P<word>table|tab\.)(?P<number>(?:[A-Z]?\d+(?:\.\d+)*[a-z]?|[IVXLC]+))?[:.|]?$",
                    re.IGNORECASE)
_NUMBER = re.compile(r"^(?:[A-Z]?\d+(?:\.\d+)*[a-z]?|[IVXLC]+)[:.|]?$")


class GridError(RegistryError):
    """The page cannot be shown as tables: no such page, no table on it, or none with the label asked for."""

    def __init__(self, message: str, hint: str | None = None, *, found: tuple[str, ...] = ()) -> None:
        super().__init__(message, hint)
        self.labels = found


@dataclass(frozen=True)
class GridCell:
    """One cell of a table as read: where (row and column paths), what it prints, and the second reading."""

    row: str
    column: str
    text: str
    value: str | None
    plus_minus: str | None
    interval: tuple[str, str] | None
    marks: str
    bold: bool
    rest: str
    """What the cell prints after its number, ± and interval (a unit, '· 10⁴'), as read."""
    found_again: str | None
    """None where a record citing this row and column would be looked up in this very cell; else why not."""
    second: str | None
    """None where the second extractor reads the same; else what it reads there (or why it finds no cell)."""
    number: str | None = None
    """The number the review reads in the cell ('-0.04e-2' for '−0.04 e−2'; ``value`` is its first number as
    printed), where it reads one."""

    @property
    def as_printed(self) -> str:
        """The value as the page prints it, for an import: the cell's text before its ± or interval, without its
        marks, its spaces as one ('< 0.001', '12–15', '−0.04 e−2' kept whole; '0.702† ± 0.021' gives '0.702')."""
        text = " ".join(self.text.split())
        if self.only_interval:  # '[0.61, 0.67]' alone: a range of two numbers, no point value claimed
            return text
        cut = [text.find(sign) for sign in ("\u00b1", "+/-", "+-") if sign in text] if self.plus_minus else []
        if (self.interval is not None or (self.plus_minus is not None and not cut)) and text.rfind(" ") > 0:
            cut.append(max(text.rfind(" [", 0), text.rfind(" (", 0), text.rfind("[", 1), text.rfind("(", 1)))
        cut = [at for at in cut if at > 0]
        text = text[:min(cut)].strip() if cut else text
        marks = self.marks
        glued = re.search(rf"{_GLUED_ANNOTATIONS.pattern}$", text)  # a raised annotation: with the marks
        if glued is not None and glued.start() > 0:
            text = text[:glued.start()].rstrip()
            for annotation in re.findall(_ONE_ANNOTATION, glued.group()):
                marks = marks.replace(annotation, "")
        marks = marks.replace(" ", "")
        while text and marks and text[-1] in marks:
            text = text[:-1].rstrip()
        return text

    @property
    def only_interval(self) -> bool:
        """Whether the cell prints an interval and no value before it ('[0.61, 0.67]')."""
        return self.interval is not None and self.text.lstrip()[:1] in "[("

    @property
    def uncertainty(self) -> str | None:
        """The ± or interval as an import table writes it ('± 0.019', '[0.61, 0.67]', '(0.61, 0.67)')."""
        if self.plus_minus is not None:
            return f"\u00b1 {self.plus_minus}"
        if self.interval is not None:
            opening = next((c for c in self.text if c in "[("), "[")  # the brackets the page prints
            return f"{opening}{self.interval[0]}, {self.interval[1]}{']' if opening == '[' else ')'}"
        return None


@dataclass(frozen=True)
class GridTable:
    """One reading of a table: its caption, its header paths, its row paths and its cells."""

    label: str
    page: int
    caption: str
    continued: bool
    stub: str | None
    columns: tuple[str, ...]
    rows: tuple[str, ...]
    cells: tuple[GridCell, ...]
    notes: tuple[str, ...]
    second: str | None
    """None where the second extractor reads the same rows and columns; else how its reading differs."""
    reading: int = 1
    """Which reading of the label this is: a caption may have a table of numbers under it and over it, and a
    record's row is looked up in the first reading that has it."""


@dataclass(frozen=True)
class PageGrid:
    """The tables of one page of one PDF, read by both extractors."""

    pdf: str
    page: int
    page_count: int
    extractors: tuple[str, ...]
    second_missing: str | None
    tables: tuple[GridTable, ...] = field(default=())


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

    Read as the review reads a PDF (``review.limited``): the file refused past ``limits.max_pdf_bytes``
    before it is read, the reading done in a process of its own killed past ``limits.timeout`` or
    ``limits.max_memory_mb`` (``pdftotext`` with it), a page of more than ``limits.max_page_chars``
    characters refused; a limit reached is a ``ReviewLimitError``. Only the page and the one before it (where
    a continued table's open row group is printed) are read, by PDFium and by poppler's ``pdftotext
    -bbox-layout``, the two readings the review's cell checks use. Raises ``PdfError`` for a file that is no
    readable PDF, ``RegistryError`` for a page past the end, a page without a table, or a label not on the
    page (naming the tables that are, or the pages it is on)."""
    import time

    from review.errors import FetchError, PdfError
    from review.fetch import read_pdf

    started = time.monotonic()
    try:
        data = read_pdf(pdf, limits.max_pdf_bytes)
    except FetchError as exc:
        raise FetchError(exc.message, "give the PDF of the source; a paper's PDF is a few megabytes") from None
    except OSError as exc:
        raise PdfError(pdf, f"cannot read {pdf}: {exc.strerror}", "check the file's permissions") from exc
    request = PageRequest(data, str(pdf), page, label, second, limits.timeout - (time.monotonic() - started),
                          limits.max_page_chars)
    plain = run_reading("review.grid:page_grid", request, limits, what=f"reading page {page} of {pdf}",
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
    """``value`` with every text of a ``str`` subclass (``review.cells.Unread``, why a cell cannot be read) made a
    plain ``str``, inside lists, tuples and dicts: the reading process may answer with plain values only."""
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
    from review import poppler

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
    from review.fetch import sniff
    from review.words import pdfium_tagged, pdfium_words

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
    from review.words import pdfium_words

    words = pdfium_words(data)
    doc = _extraction(len(words), list(words), "PDFium")
    pages = [n for n in range(1, doc.page_count + 1) if n != page and tables_on(doc, n, label)]
    if pages:
        return f"{label} is on page {', '.join(map(str, pages))}"
    return "check the label as the caption prints it ('Table 2', 'TABLE II') and the page (counted from 1)"


def _grids(primary: Extraction, second: Extraction | None, page: int, label: str) -> list[GridTable]:
    readings = tables_on(primary, page, label)
    others = tables_on(second, page, label) if second is not None else []
    grids = []
    for index, table in enumerate(readings):
        other = others[index] if index < len(others) else None
        cells = tuple(_cell(primary, second, table, row_index, column_index)
                      for row_index, row in enumerate(table.rows) for column_index, column in enumerate(table.columns)
                      if table.cell(row, column).text)
        crossed = _crossed(primary, second, table, other, cells) if index == 0 else ()
        grids.append(GridTable(label, page, table.caption, table.continued,
                               table.stub.name if table.stub is not None else None,
                               _names([c.name for c in table.columns], [c.column for c in crossed]),
                               _names([r.name for r in table.rows], [c.row for c in crossed]), cells + crossed,
                               table.notes, _shape_differs(table, other, second), index + 1))
    return grids


def _crossed(primary: Extraction, second: Extraction | None, table: Table, other: Table | None,
             cells: tuple[GridCell, ...]) -> tuple[GridCell, ...]:
    """The cells the review finds in the first reading's rows under a column name only the second extractor's grid
    reads (a header 'Batch 1' that PDFium's grid splits in two): read where the row and the column cross
    (``review.crossing``), as a record citing them is looked up, and shown only where both extractors read the cell
    alike and the CSV does not carry the same text in that row already (the same cell under the split name). Row
    names only the second reading has are not tried: a row misread there would name cells the page never labels
    so."""
    if other is None or second is None:
        return ()
    mine = {c.name for c in table.columns}
    columns = [c.name for c in other.columns if c.name not in mine]
    carried = {(c.row, c.text) for c in cells if why_not_imported(c) is None}  # the grid's, under a split name
    found = []
    for row in (r.name for r in table.rows):
        for column in columns:
            probe = CellAt("", "table cell", table.page, table.label, row, column)
            spot = probe.locate(primary)
            if not isinstance(spot, Located) or spot.row.name != row or spot.column.name != column:
                continue
            cell = spot.cell
            if cell.value is None or (row, cell.text) in carried or _second_reading(cell, probe, second) is not None:
                continue
            found.append(GridCell(row, column, cell.text, cell.printed_value, cell.plus_minus, cell.interval,
                                  cell.marks, cell.bold, cell.rest.strip(), None, None, cell.value))
    return tuple(found)


def _names(first: list[str], more: list[str]) -> tuple[str, ...]:
    """``first``, then each name of ``more`` not among them, in order."""
    return tuple(dict.fromkeys([*first, *more]))


def _shape_differs(table: Table, other: Table | None, second: Extraction | None) -> str | None:
    if second is None:
        return None
    name = second.extractor.split(" ")[0]
    if other is None:
        return f"{name} finds no table under or over this caption"
    pairs = (("columns", [c.name for c in table.columns], [c.name for c in other.columns]),
             ("rows", [r.name for r in table.rows], [r.name for r in other.rows]))
    problems = [f"its {what} as " + ", ".join(f"'{t}'" for t in theirs) for what, mine, theirs in pairs
                if [squeezed(t) for t in mine] != [squeezed(t) for t in theirs]]
    return f"{name} reads " + "; and ".join(problems) if problems else None


def _cell(primary: Extraction, second: Extraction | None, table: Table, row_index: int, column_index: int
          ) -> GridCell:
    row, column = table.rows[row_index], table.columns[column_index]
    cell = table.cell(row, column)
    probe = CellAt("", "table cell", table.page, table.label, row.name, column.name)
    spot = probe.locate(primary)
    if isinstance(spot, str):
        again: str | None = spot
    elif spot.table != table or spot.row != row or spot.column != column:  # equal, not the same: caches are cleared
        again = f"a record citing row '{row.name}', column '{column.name}' is looked up in {spot.where}" + (
            "" if spot.table == table else f" of another reading of {table.label}")
    else:
        again = None
    value, marks, rest = printed_form(cell)
    return GridCell(row.name, column.name, cell.text, value, cell.plus_minus, cell.interval, marks, cell.bold, rest,
                    again, _second_reading(cell, probe, second) if second is not None else None, cell.value)


def printed_form(cell: CellText) -> tuple[str | None, str, str]:
    """A cell's value as an import table writes it, its marks, and what else it prints (which keeps it out of the
    import): a range whole ('0.61–0.67', filed with range_upper), a bound with its sign ('< 12', filed with bound),
    a power of ten whole ('3.2×10−⁴', '-0.04 e-2'), an annotation after the value ('+10.8%') kept with its marks;
    an approximation ('~0.5') is no value to import and stays in what else it prints (``registry.printed_forms``)."""
    form = cell.form
    if form is None or cell.value is None:
        return _annotated(cell.printed_value, cell.marks, cell.rest.strip())
    value = cell.printed_value
    if cell.upper:
        value = f"{value}\u2013{cell.upper}"
    elif cell.bound:
        value = f"{cell.bound} {value}"
    marks = " ".join(part for part in (cell.marks, form.annotation) if part)
    rest = cell.rest.strip()
    if cell.upper or form.annotation:
        rest = form.rest if not (cell.plus_minus or cell.interval) else rest
    if form.approximate:
        rest = f"{form.approximate} (approximate) {rest}".strip()
    return _annotated(value, marks, rest)


#: What the reader glued after a value as a raised annotation ('⟨+10.8%⟩', ``review.words.ANNOTATION``), alone.
_ONE_ANNOTATION = rf"{ANNOTATION[0]}([^{ANNOTATION[1]}]*){ANNOTATION[1]}"
_GLUED_ANNOTATIONS = re.compile(rf"(?:{_ONE_ANNOTATION}\s*)+")


def _annotated(value: str | None, marks: str, rest: str) -> tuple[str | None, str, str]:
    """An annotation the reader found raised after the value ('73.1⟨+10.8%⟩') goes with the marks, as a set-after
    one does: it is no part of the value, and nothing else the cell prints."""
    glued: list[str] = []
    end = re.search(rf"{_GLUED_ANNOTATIONS.pattern}$", value) if value else None
    if value and end is not None and end.start() > 0:
        glued += re.findall(_ONE_ANNOTATION, end.group())
        value = value[:end.start()].rstrip()
    if rest and _GLUED_ANNOTATIONS.fullmatch(rest):
        glued += re.findall(_ONE_ANNOTATION, rest)
        rest = ""
    return value, " ".join(part for part in (marks, *glued) if part), rest


def _second_reading(cell: CellText, probe: CellAt, second: Extraction) -> str | None:
    spot = probe.locate(second)
    if not isinstance(spot, Located):
        return f"finds no such cell: {spot}"
    other = spot.cell
    if _same_reading(cell, other):
        return None
    return f"reads '{other.text}'" if other.text else "reads nothing there"


def _plain(text: str | None) -> str | None:
    return squeezed(text).replace(",", "") if text is not None else None


def _same_reading(one: CellText, other: CellText) -> bool:
    def key(c: CellText) -> tuple[object, ...]:
        plain = _plain
        return (plain(c.plus_minus), tuple(map(plain, c.interval)) if c.interval else None, squeezed(c.rest))

    # one number however the extractor sets a power ('2−⁶' and '2⁻⁶', read as 2^-6 both)
    values = one.value == other.value or (one.value is not None and other.value is not None and same_number(
        one.value, other.value))
    return values and key(one) == key(other)


# -- a table to import ----------------------------------------------------------------------------

#: The import columns a reading fills from the page, and how.
FILLED_FROM_PAGE = ("model", "value", "uncertainty", "table", "row", "column", "page")
#: What a ``--set`` value may name, filled per cell: '{row}', '{column}', their last levels, the table, the page.
FIELDS = ("row", "column", "row_last", "column_last", "model", "table", "page")


@dataclass(frozen=True)
class ImportTable:
    """A page's cells as rows of an import table (``registry import``), and the cells left out, with why."""

    header: tuple[str, ...]
    rows: tuple[dict[str, str], ...]
    left_out: tuple[tuple[GridCell, str], ...]


def import_rows(grid: PageGrid, settings: Mapping[str, str] | None = None) -> ImportTable:
    """One import row per cell that holds a number and nothing else beside its ±, interval and marks, that a
    record citing its row and column finds again, and that both extractors read alike.

    ``settings`` fills whole columns the page cannot ('dataset', 'metric', 'unit'), each value a template over
    ``FIELDS`` ('{column_last}'); a column given there overrides what the page fills."""
    from registry.curate.table import BY_NAME, COLUMNS

    settings = dict(settings or {})
    unknown = [name for name in settings if name not in BY_NAME]
    if unknown:
        raise GridError(f"no import column {', '.join(map(repr, unknown))}",
                        "the columns are: " + ", ".join(c.name for c in COLUMNS))
    kept: list[dict[str, str]] = []
    left_out: list[tuple[GridCell, str]] = []
    for table in grid.tables:
        for cell in table.cells:
            why = why_not_imported(cell)
            if why is not None:
                left_out.append((cell, why))
                continue
            kept.append(_row(table, cell, settings))
    wanted = {name for row in kept for name, value in row.items() if value}
    wanted |= {c.name for c in COLUMNS if c.required}
    wanted |= {BY_NAME[name].name for name in settings}
    if "uncertainty" in wanted:
        wanted.add("uncertainty_kind")  # needed with an uncertainty: the curator says which (or --set)
    header = tuple(c.name for c in COLUMNS if c.name in wanted)
    rows = tuple({name: row.get(name, "") for name in header} for row in kept)
    return ImportTable(header, rows, tuple(left_out))


def why_not_imported(cell: GridCell) -> str | None:
    """Why ``import_rows`` leaves the cell out of the CSV; None where it writes it."""
    if cell.value is None:
        return "no number"
    inexact = _read_exactly(cell)
    if inexact is not None:
        return inexact
    if cell.found_again is not None:
        return f"a record citing it would not find it: {cell.found_again}"
    if cell.second is not None:
        return f"the second extractor {cell.second}"
    return None


def _read_exactly(cell: GridCell) -> str | None:
    """Why the import would not read the cell's printed value as the number the review reads there; None where it
    would. The CSV writes the value as printed ('< 0.001', '12–15', '3.2 × 10⁻⁴'), never a part of it: a cell
    printing '−0.04 e−2' is never written '−0.04'."""
    from registry.curate.values import split_printed
    from registry.numbers import parse_printed

    printed = cell.as_printed
    bound, value, ends = split_printed(printed)
    imported = parse_printed(value)
    if imported is None and cell.rest and bound is None and ends is None:
        return f"it prints more than a number and its uncertainty: '{cell.rest}'"
    if imported is None:
        return (f"the import cannot read '{printed}' as one number exactly, and writing '{cell.value}' alone would "
                "change what the page prints; transcribe it by hand")
    read = parse_printed(cell.number or cell.value or "")
    if imported != read:
        return (f"the import would read '{printed}' as {imported}, the review reads the cell as "
                f"{cell.number or cell.value}; transcribe it by hand")
    return None


def _row(table: GridTable, cell: GridCell, settings: Mapping[str, str]) -> dict[str, str]:
    row_last = cell.row.split(" / ")[-1]
    fields = {"row": cell.row, "column": cell.column, "row_last": row_last,
              "column_last": cell.column.split(" / ")[-1], "model": row_last, "table": table.label,
              "page": str(table.page)}
    row = {"model": row_last, "value": cell.as_printed,
           "uncertainty": "" if cell.only_interval else cell.uncertainty or "",
           "table": table.label, "row": cell.row, "column": cell.column, "page": str(table.page)}
    from registry.curate.table import BY_NAME

    for name, template in settings.items():
        try:
            row[BY_NAME[name].name] = template.format_map(fields)
        except (KeyError, ValueError, IndexError) as exc:
            raise GridError(f"cannot fill column {name!r} from {template!r}: {exc}",
                            "a value may name " + ", ".join("{" + f + "}" for f in FIELDS) + "; write '{{' for a "
                            "brace") from None
    return row
