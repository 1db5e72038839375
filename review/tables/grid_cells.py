"""A page's tables cell by cell, as ``registry table`` shows them: each cell's row and column paths, what it prints
(value, ± or interval, marks, bold, the printed form), whether a record citing its row and column finds it again, and
what the second extractor reads there; and why a cell is not offered for import (``why_not_imported``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from registry.errors import RegistryError
from review.pdf.pdftext import Extraction
from review.pdf.words import ANNOTATION, squeezed
from review.tables.cell import CellText
from review.tables.cited import CitedCell, Located, same_number, tables_on
from review.tables.table import Table


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
    (``review.tables.crossing``), as a record citing them is looked up, and shown only where both extractors read the
    cell
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
            probe = CitedCell(table.page, table.label, row, column)
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
    probe = CitedCell(table.page, table.label, row.name, column.name)
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


#: What the reader glued after a value as a raised annotation ('⟨+10.8%⟩', ``review.pdf.words.ANNOTATION``), alone.
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


def _second_reading(cell: CellText, probe: CitedCell, second: Extraction) -> str | None:
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
