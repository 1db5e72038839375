"""A table as a document's source states it: cells in a grid with their spans, read into named rows and columns.

Every format's reader (``latex``, ``html``, ``jats``, ``docx``) gives its tables as a ``Grid``: rows of cells, each
with its text as printed (``\\pm`` as '±', ``$10^{-4}$`` as '10⁻⁴'), whether it is bold, its row and column span,
and whether the source marks it as a header (``<th>``, ``<thead>``, the rows above booktabs' ``\\midrule``).
``table_of`` turns a grid into a ``SourceTable`` the way the PDF reader names a printed table's cells
(``review.tables.read``): a column by its header levels, outermost first; a row by its group (a line spanning the body,
or a label set once beside several rows) and its label; so that the names a record cites find the same cell in
either witness.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from registry.numbers import SIGN, SUPERSCRIPT
from review.pdf.words import Word, squeezed
from review.tables.cell import CellText, read_cell


@dataclass(frozen=True)
class GridCell:
    """One cell as the source writes it, before its spans are laid out."""

    text: str
    bold: bool = False
    colspan: int = 1
    rowspan: int = 1
    header: bool = False
    fill_columns: int = 1
    """Columns the cell's text covers to its right, where the source writes their (empty) cells (NiceTabular's
    ``\\Block{2-3}``): filled, not shifted, as a ``\\multirow`` fills the rows below."""


@dataclass
class Grid:
    """One table's cells, row by row, as the source writes them, with its label and caption."""

    label: str
    caption: str
    rows: list[list[GridCell]]
    header_rows: int | None = None
    """How many leading rows the source marks as the header (``<thead>``, the rows above ``\\midrule``); None where
    it marks none (then the rows above the first row printing a number are the header)."""
    where: str = ""
    """Where in the source the table is written ('paper.tex:120'), for messages."""
    label_given: bool = False
    """Whether the source prints the label itself (JATS ``<label>``, HTML's 'Table 2:'), not counted from floats."""
    group: str = ""
    """A title the source sets over this table's rows, under the caption (a heading between caption and table):
    the outermost level of every row's name."""
    breakable: bool = True
    """Whether the table may go on over the next pages (a LaTeX ``longtable``, any HTML or Word table); a LaTeX
    float is set on one page."""
    caption_below: bool = False
    """Whether the caption is set below the table (Typst's figures): a table that breaks across pages then begins
    on a page before its caption's."""
    unread: str = ""
    """Why the source's table could not be read, where it could not (a Typst table built with a package the reader
    does not have): the witness then cannot check its cells, and says why."""
    reserve: bool = True
    """Whether a cell spanning rows takes its place in the rows below (HTML, JATS, Word), or the rows below write
    an empty cell there (LaTeX's ``\\multirow``)."""


_KEYED = re.compile(rf"^([^=<>\d][^=<>]*?)\s*=\s*({SIGN}?[\d.].*)$")

_TO_SUPERSCRIPT = str.maketrans("0123456789-+\u2212", SUPERSCRIPT + "\u207b\u207a\u207b")


def raised(text: str) -> str:
    """A superscript as printed: digits (and their sign) as superscript digits ('-4' is '⁻⁴', so that '10' with it
    reads as a power of ten); any other superscript ('a', '*', '†') as its text, a mark."""
    plain = text.strip()
    return plain.translate(_TO_SUPERSCRIPT) if plain.lstrip("-+\u2212").isdigit() else text


@dataclass(frozen=True)
class SourceCell:
    """A cell of a source table, read as the PDF reader reads a printed cell (``review.tables.cell.read_cell``)."""

    text: str
    bold: bool = False

    @property
    def key(self) -> str | None:
        """The name a cell prints before its value, where it prints 'name = value' ('S_max = 96'), else None."""
        found = _KEYED.match(self.text)
        return found.group(1).strip() if found else None

    @property
    def reading(self) -> CellText:
        """The cell read as a printed cell is (its value after the '=' of 'name = value')."""
        found = _KEYED.match(self.text)
        text = found.group(2) if found else self.text
        return read_cell([Word(text, 0.0, 0.0, 0.0, 0.0, self.bold)]) if text else CellText("", None)


@dataclass(frozen=True)
class SourceRow:
    levels: tuple[str, ...]
    cells: tuple[SourceCell, ...]
    """One per column of the table (``SourceTable.columns``)."""

    @property
    def name(self) -> str:
        return " / ".join(self.levels)


@dataclass(frozen=True)
class SourceColumn:
    levels: tuple[str, ...]

    @property
    def name(self) -> str:
        return " / ".join(self.levels)


@dataclass
class SourceTable:
    """A source's table with its rows and columns named: what the source witness checks a cited cell against."""

    label: str
    caption: str
    columns: tuple[SourceColumn, ...]
    rows: tuple[SourceRow, ...]
    where: str = ""
    label_given: bool = False
    breakable: bool = True
    unread: str = ""
    """Why the source's table could not be read (``Grid.unread``); empty where it was."""
    caption_below: bool = False
    others: list[SourceTable] = field(default_factory=list, repr=False)
    """The other tabulars under the same caption (sub-tables)."""

    def values(self) -> list[tuple[SourceRow, SourceColumn, SourceCell]]:
        return [(row, column, cell) for row in self.rows for column, cell in zip(self.columns, row.cells,
                                                                                  strict=True) if cell.text]


def _numeric(text: str) -> bool:
    """Whether a cell prints a number as its value (a label like 'BERT-2' or 'k = 5' is no number)."""
    if not text:
        return False
    reading = SourceCell(text).reading
    return reading.value is not None and not re.search(r"[A-Za-z]{2,}", reading.rest or "")


def _expanded(rows: list[list[GridCell]], reserve: bool) -> list[list[GridCell | None]]:
    """The grid with its spans laid out: each position holds the cell covering it (None where none does).

    ``reserve``: a cell spanning rows takes its place in the rows below, which leave it out (HTML's ``rowspan``,
    Word's merged cells); otherwise the rows below write an empty cell there, which the spanning cell's text fills
    (LaTeX's ``\\multirow``; a negative span reaches up)."""
    matrix: list[list[GridCell | None]] = []
    pending: dict[tuple[int, int], GridCell] = {}
    for r, row in enumerate(rows):
        line: list[GridCell | None] = []
        c = 0
        for cell in row:
            while reserve and (r, c) in pending:
                line.append(pending.pop((r, c)))
                c += 1
            for dc in range(max(cell.colspan, 1)):
                line.append(cell)
                if reserve:
                    for dr in range(1, max(cell.rowspan, 1)):
                        pending[(r + dr, c + dc)] = cell
            c += max(cell.colspan, 1)
        while reserve and (r, c) in pending:
            line.append(pending.pop((r, c)))
            c += 1
        matrix.append(line)
    width = max((len(line) for line in matrix), default=0)
    matrix = [line + [None] * (width - len(line)) for line in matrix]
    if not reserve:
        _fill_multirows(matrix)
    return matrix


def _fill_multirows(matrix: list[list[GridCell | None]]) -> None:
    """A multirow's text over the empty cells it spans, below it (or above it, for a negative span)."""
    for r, line in enumerate(matrix):
        for c, cell in enumerate(line):
            if cell is None or (cell.rowspan in (0, 1) and cell.fill_columns == 1) or not cell.text.strip() or (
                    c and line[c - 1] is cell):
                continue
            step = 1 if cell.rowspan > 0 else -1
            for k in range(0, max(abs(cell.rowspan), 1)):
                rr = r + step * k
                if not 0 <= rr < len(matrix):
                    break
                for cc in range(c, c + max(cell.colspan, cell.fill_columns, 1)):
                    other = matrix[rr][cc] if cc < len(matrix[rr]) else None
                    if other is not cell and (other is None or not other.text.strip()) and cc < len(matrix[rr]):
                        matrix[rr][cc] = cell


def _text(cell: GridCell | None) -> str:
    return cell.text.strip() if cell is not None else ""


def _levels(texts: list[str]) -> tuple[str, ...]:
    out: list[str] = []
    for text in texts:
        if text and (not out or squeezed(out[-1]) != squeezed(text)):
            out.append(text)
    return tuple(out)


def _path(title: str, group: str | None, labels: list[str]) -> tuple[str, ...]:
    """A row's name, outermost first: the title over its table, the group line over it, its labels (a label the
    same as its group's is printed twice, and named twice: 'Clean / Clean')."""
    return tuple(level for level in (title, group or "", *labels) if level)


def _extent(line: list[GridCell | None], c: int) -> tuple[int, int]:
    cell = line[c]
    lo = hi = c
    while lo > 0 and line[lo - 1] is cell:
        lo -= 1
    while hi + 1 < len(line) and line[hi + 1] is cell:
        hi += 1
    return lo, hi


def _header_levels(header: list[list[GridCell | None]], c: int) -> tuple[str, ...]:
    """A column's header levels, outermost first: one per span; the text of cells over the same columns in
    consecutive header rows is one header set on several lines ('Non High-' over 'light-based')."""
    from review.tables.lines import joined_lines

    levels: list[tuple[tuple[int, int], str, GridCell | None]] = []
    for line in header:
        cell, text = line[c], _text(line[c])
        if not text:
            continue
        extent = _extent(line, c)
        if levels and levels[-1][2] is cell:
            continue
        if levels and levels[-1][0] == extent and extent[0] != extent[1]:
            levels[-1] = (extent, joined_lines(levels[-1][1], text), cell)
            continue
        levels.append((extent, text, cell))
    return _levels([text for _, text, _ in levels])


def _group_line(line: list[GridCell | None], width: int) -> str | None:
    """The text of a body line that names a group of the rows under it: one cell (or one spanning several columns)
    holding text, no number, the rest of the line empty."""
    owners = [cell for i, cell in enumerate(line) if cell is not None and cell.text.strip()
              and (i == 0 or line[i - 1] is not cell)]
    if len(owners) != 1 or width < 2:
        return None
    text = owners[0].text.strip()
    return None if _numeric(text) or SourceCell(text).key is not None else text


def _cell(line: list[GridCell | None], c: int, stub: int) -> SourceCell:
    cell = line[c]
    if cell is None or (c > stub and line[c - 1] is cell):
        return SourceCell("")
    return SourceCell(_text(cell), cell.bold)


def _down(body: list[list[GridCell | None]], at: int, c: int) -> int:
    """How many body lines from ``at`` the cell at column ``c`` spans down (0: it began on a line above)."""
    cell = body[at][c]
    if cell is None or not cell.text.strip():
        return 1
    if at and body[at - 1][c] is cell:
        return 0
    n = 1
    while at + n < len(body) and body[at + n][c] is cell:
        n += 1
    return n


def _spanning(body: list[list[GridCell | None]], at: int, stub: int) -> tuple[int, set[int]] | None:
    """The data cells of line ``at`` merged down several lines, where a label is merged over the same lines."""
    width = len(body[at])
    down = {c: _down(body, at, c) for c in range(stub, width)}
    for extent in sorted({d for d in down.values() if d > 1}):
        if any(_down(body, at, c) == extent for c in range(stub)):
            return extent, {c for c, d in down.items() if d == extent}
    return None


def _prose(lines: list[list[GridCell | None]], c: int) -> bool:
    """Whether a column holds sentences (a summary, an example): text the table reports, not its rows' labels."""
    texts = [_text(line[c]) for line in lines if _text(line[c])]
    return bool(texts) and sum(len(t.split()) > 6 for t in texts) * 2 > len(texts)


def _names_each(lines: list[list[GridCell | None]], c: int) -> bool:
    """Whether a column gives every row a label of its own: none empty, none repeated, none spanning rows."""
    cells = [line[c] for line in lines]
    texts = [_text(cell) for cell in cells]
    return all(texts) and len(set(texts)) == len(texts) and len({id(cell) for cell in cells}) == len(cells)


def _keyed(lines: list[list[GridCell | None]], c: int) -> bool:
    """Whether a column's cells print 'name = value' (a table of settings): data, not the rows' labels."""
    texts = [_text(line[c]) for line in lines if _text(line[c])]
    return bool(texts) and sum(SourceCell(t).key is not None for t in texts) * 2 > len(texts)


def _serial(lines: list[list[GridCell | None]], c: int) -> bool:
    """Whether a column counts the rows (1, 2, 3, ...): a serial number, part of the rows' labels."""
    texts = [_text(line[c]) for line in lines if _text(line[c]).isdigit()]
    return len(texts) > 1 and texts == [str(n) for n in range(1, len(texts) + 1)] and len(texts) >= len(lines) - 2


def table_of(grid: Grid) -> SourceTable:
    """A grid's rows and columns named as the PDF reader names a printed table's (module docstring)."""
    matrix = _expanded(grid.rows, grid.reserve)
    width = len(matrix[0]) if matrix else 0
    heads = grid.header_rows
    if heads is None:
        heads = next((r for r, line in enumerate(matrix)
                      if any(_numeric(_text(cell)) for cell in line[1:])), 0)
    header, body = matrix[:heads], matrix[heads:]
    groups = [_group_line(line, width) for line in body]
    data = [line for line, group in zip(body, groups, strict=True) if group is None]
    stub = 0
    while stub < width - 1 and (not any(_numeric(_text(line[stub])) for line in data) or _serial(data, stub)) and (
            not stub or not _prose(data, stub)) and not _keyed(data, stub):
        stub += 1
    stub = max(stub, 1) if width > 1 and not _keyed(data, 0) else stub if width > 1 else 0
    if stub > 1 and _names_each(data, 0) and not _serial(data, 0):
        stub = 1  # the first column names every row alone: the text columns after it are data ('Language')
    columns = tuple(SourceColumn(_header_levels(header, c)) for c in range(stub, width))
    rows: list[SourceRow] = []
    group: str | None = None
    for at, (line, line_group) in enumerate(zip(body, groups, strict=True)):
        if line_group is not None:
            group = line_group
            continue
        labels = [_text(line[c]) for c in range(stub) if not c or line[c] is not line[c - 1]]
        spanning = _spanning(body, at, stub)
        if spanning:  # cells merged down several rows belong to the label merged over the same rows
            extent, columns_down = spanning
            outer = [_text(line[c]) for c in range(stub) if _down(body, at, c) == extent]
            rows.append(SourceRow(_path(grid.group, group, outer), tuple(
                _cell(line, c, stub) if c in columns_down else SourceCell("") for c in range(stub, width))))
        cells = tuple(SourceCell("") if _down(body, at, c) > 1 or _down(body, at, c) == 0 else _cell(line, c, stub)
                      for c in range(stub, width))
        if not any(cell.text for cell in cells) and not any(labels):
            continue
        rows.append(SourceRow(_path(grid.group, group, labels), cells))
    return SourceTable(grid.label, grid.caption, columns, tuple(rows), grid.where, grid.label_given, grid.breakable,
                       grid.unread, grid.caption_below)


def tables_of(grids: list[Grid]) -> list[SourceTable]:
    """Every grid read into a table; the grids under one caption as sibling sub-tables of each other."""
    tables = [table_of(grid) for grid in grids]
    by_caption: dict[tuple[str, str], list[SourceTable]] = {}
    for table in tables:
        by_caption.setdefault((table.label, table.caption), []).append(table)
    for siblings in by_caption.values():
        for table in siblings:
            table.others = [t for t in siblings if t is not table]
    return tables
