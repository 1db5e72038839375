"""Reading a table as its tagged PDF states it: the structure tree's rows and cells (``review.pdf.structtree``), filled
with one extractor's own words.

Where a caption of the cited label has a tagged table right under or over it, that table's grid is the producer's:
which words are one cell (a row label wrapped over four lines is one cell), which cells one row, and which rows
head the table. Columns are placed by the cells' boxes: the rows with the most cells set the columns, and a cell of a
row with fewer (a header spanning several columns, a row group's label) covers the columns its box overlaps, so a
tree that declares no ``/ColSpan`` reads as one that does. What is printed in each cell stays each extractor's
reading: a word belongs to the cell whose box holds its centre.

A ruled table's grid, as its drawn rules state it (``review.pdf.drawn``), is read the same way (``read_ruled``),
where no tagged table sits beside the caption: its cells' boxes are the rectangles between the rules.

The reading is the grid ``review.tables`` reads geometrically, in the same classes, so every check after it is the
same. A tagged table that is no table of numbers (a layout frame, a table of words), or that no caption of the
label sits beside, gives nothing, and the page is read from its geometry (``review.tables.read_tables``).
"""

from __future__ import annotations

import dataclasses
import functools
import re

from registry.numbers import SIGN
from review.pdf.structtree import Box, TaggedCell, TaggedTable
from review.pdf.words import Line, PageWords, Word, lines_of
from review.tables.captions import find_captions
from review.tables.cell import read_cell
from review.tables.lines import joined_lines
from review.tables.table import Column, Row, Table

#: Points: a word belongs to a cell whose box, widened by this, holds its centre (the two extractors' boxes of a
#: glyph differ by a point or so).
SLACK = 1.5
#: Points: a header's text is centred over the columns it heads where its middle is within this of theirs.
CENTRED = 6.0
#: A word that starts a number: digits, after a sign or a decimal point.
_NUMBER_START = re.compile(rf"^{SIGN}?\.?\d")
#: A tagged table is a caption's where it starts (or ends) within this many of the caption's line heights of it.
NEAR_LINES = 6.0


def read_tagged(page: PageWords, label: str) -> list[Table]:
    """The tables of ``label`` on ``page`` as its structure tree states them, one per caption that has a tagged
    table of numbers beside it; empty where none has (the page is then read from its geometry)."""
    return read_stated(page, label, page.tagged, drawn=False)


def read_ruled(page: PageWords, label: str) -> list[Table]:
    """The tables of ``label`` on ``page`` as the rules drawn around their cells state them
    (``review.pdf.drawn``), read as a structure tree's tables are; empty where no caption of the label has a ruled
    grid of numbers beside it enclosing the whole table, or where a grid's rules do not set its rows and columns
    apart (a cell holds numbers on two lines, or two numbers side by side)."""
    return [table for table in read_stated(page, label, page.ruled, drawn=True) if _cells_apart(table)]


def read_stated(page: PageWords, label: str, stated: tuple[TaggedTable, ...], drawn: bool) -> list[Table]:
    """The tables of ``label`` on ``page`` as the grids ``stated`` (a structure tree's, or the drawn rules') give
    their cells, one per caption that has such a grid of numbers beside it. ``drawn``: the grid is drawn rules,
    whose cells tile the table: it names no header cell, so its first rows whose every data cell prints a word
    ('95% CI', 'Batch 1', 'N') head it, and a word is in the cell that holds its middle (a word's box as poppler
    gives it, the font's ascent and descent, runs past its line into the cell below)."""
    if not stated:
        return []
    tables = []
    for line, start in find_captions(page, label):
        caption = _caption(page, line, start, stated)
        tagged = _beside(stated, caption)
        if drawn and tagged is not None and _between(page, caption, tagged.box):
            continue  # words between the caption and the rules: the grid does not enclose the whole table
        read = (_table(tagged, page, label, " ".join(ln.text for ln in caption), drawn)
                if tagged is not None else None)
        if read is not None:
            tables.append(read)
    return tables


def continued_tagged(page: PageWords, previous: PageWords, before: Table) -> list[Table]:
    """The rows a tagged table ``before`` (read from the tree on ``previous``) carries on with at the top of
    ``page``, where no caption is printed again: the page's first tagged table, under the same columns (as many as
    ``before`` reads past its label columns), its rows read as on the page before. Empty where ``before`` was not
    read from the tree, or the page's first tagged table has another number of columns."""
    if not page.tagged or not read_tagged(previous, before.label):
        return []
    tagged = min(page.tagged, key=lambda t: t.box[1])
    if any(line.bottom <= tagged.box[1] and line.text.lower().startswith(("table", "fig"))
           for line in lines_of(page.words)):
        return []  # a caption over it: another table or figure, not the one carried on
    cells = _placed(tagged, page.words)
    if cells is None:
        return []
    width = max(c.last for c in cells) + 1
    stub_width = width - len(before.columns)
    if stub_width < 1:
        return []
    extents = _extents(cells, width)
    columns = tuple(_column([], 0, k, extents, levels=before.columns[k - stub_width].levels)
                    for k in range(stub_width, width))
    rows = _rows(cells, list(range(len(tagged.rows))), stub_width)
    if not rows:
        return []
    return [Table(before.label, page.number, before.caption, True, (), columns, before.stub, tuple(rows), (),
                  words=tuple(w for c in cells for w in c.words))]


def _between(page: PageWords, caption: list[Line], box: Box) -> bool:
    """Whether a word is printed across the grid's width between the caption and the grid (a heading titling the
    rows, a header line set above the top rule): the grid holds only part of the table."""
    top, bottom = caption[0].top, caption[-1].bottom
    lo, hi = (bottom, box[1]) if box[1] >= bottom - 1 else (box[3], top)
    return any(lo + SLACK < (w.top + w.bottom) / 2 < hi - SLACK and box[0] - SLACK <= w.centre <= box[2] + SLACK
               for w in page.words)


def _cells_apart(table: Table) -> bool:
    """Whether every cell of the table's rows prints one number: its numbers on one line, and no two numbers side by
    side on it (a raised exponent after a number, '10' '−4', is part of it). A grid whose rules frame several rows or
    columns of numbers in one cell (rules round the table, or round groups of columns, only) sets them apart no more
    than the word gaps do."""
    for row in table.rows:
        for column in table.columns:
            lines = lines_of([w for w in row.cells if column.lo <= w.centre <= column.hi])
            numbered = [ln for ln in lines if any(ch.isdigit() for ch in ln.text)]
            if len(numbered) > 1 or any(_side_by_side(a, b) for ln in numbered
                                        for a, b in zip(ln.words, ln.words[1:], strict=False)):
                return False
    return True


def _side_by_side(first: Word, second: Word) -> bool:
    """Whether two words of a line are two numbers set side by side on one baseline."""
    return (_NUMBER_START.match(first.text) is not None and _NUMBER_START.match(second.text) is not None
            and second.bottom > (first.top + first.bottom) / 2)


def _caption(page: PageWords, line: Line, start: int, stated: tuple[TaggedTable, ...]) -> list[Line]:
    """The caption's lines: its first, and the lines that follow it closely at its left edge or inside it, up to a
    tagged table's first row."""
    first = Line(line.words[start:])
    found = [first]
    lines = lines_of([w for w in page.words if w.top > first.bottom - 1])
    boxes = [t.box for t in stated]
    for following in lines:
        last, middle = found[-1], (following.top + following.bottom) / 2
        if (following.top - last.bottom > last.height * 0.8 or following.x0 < first.x0 - 2
                or any(box[1] - SLACK <= middle <= box[3] + SLACK for box in boxes)):
            break
        found.append(following)
    return found


def _beside(tagged: tuple[TaggedTable, ...], caption: list[Line]) -> TaggedTable | None:
    """The tagged table set right under the caption, else right over it, overlapping it across; none where it
    holds the caption (a layout frame) or is farther than ``NEAR_LINES`` lines."""
    top, bottom = caption[0].top, caption[-1].bottom
    x0, x1 = min(ln.x0 for ln in caption), max(ln.x1 for ln in caption)
    near = NEAR_LINES * caption[0].height
    best: tuple[float, TaggedTable] | None = None
    for table in tagged:
        t_x0, t_top, t_x1, t_bottom = table.box
        if t_x1 < x0 or t_x0 > x1:
            continue
        gap = t_top - bottom if t_top >= bottom - 1 else top - t_bottom if t_bottom <= top + 1 else None
        if gap is not None and gap <= near and (best is None or gap < best[0]):
            best = (gap, table)
    return best[1] if best is not None else None


def _table(tagged: TaggedTable, page: PageWords, label: str, caption: str, drawn: bool = False
           ) -> Table | None:
    cells = _placed(tagged, page.words, drawn)
    if cells is None:
        return None
    width = max(c.last for c in cells) + 1
    row_count = len(tagged.rows)
    numeric = {(c.row, column) for c in cells if c.words and read_cell(list(c.words)).value is not None
               for column in range(c.first, c.last + 1)}
    header_rows = _header_rows(tagged, cells, numeric, row_count, drawn)
    extents = _extents([c for c in cells if c.row >= header_rows], width, _extents(cells, width))
    _widened(cells, header_rows, extents)
    body = [r for r in range(header_rows, row_count)]
    counted = 1 if _counts_rows(cells, body) else 0
    stub_width = next((k for k in range(counted, width) if any((r, k) in numeric for r in body)), width)
    if stub_width == 0 or stub_width == width or not body:
        return None  # no label column, or no number in any column: not a table of numbers to read as a grid
    columns = tuple(_column(cells, header_rows, k, extents) for k in range(stub_width, width))
    stub = _column(cells, header_rows, 0, extents, last=stub_width - 1)
    rows = _rows(cells, body, stub_width)
    if not rows:
        return None
    header_words = [w for c in cells if c.row < header_rows for w in c.words]
    return Table(label, page.number, caption, False, tuple(lines_of(header_words)), columns, stub, tuple(rows), (),
                 words=tuple(w for c in cells for w in c.words))


def _counts_rows(cells: list[_Cell], body: list[int]) -> bool:
    """Whether the first column numbers the body's rows 1, 2, 3, ... (a serial number, part of the row's label;
    the rows of one cell, a row group's label, left out)."""
    rows = [r for r in body if sum(c.row == r for c in cells) > 1]
    firsts = [next((c for c in cells if c.row == r and c.first == c.last == 0), None) for r in rows]
    texts = [c.text if c is not None else "" for c in firsts]
    return len(texts) > 1 and texts == [str(n) for n in range(1, len(texts) + 1)]


class _Cell:
    """A tagged cell placed in the grid: its row, the columns it covers, and this extractor's words in it."""

    def __init__(self, row: int, first: int, last: int, tagged: TaggedCell, words: tuple[Word, ...],
                 by_box: bool) -> None:
        self.row, self.first, self.last, self.tagged, self.words = row, first, last, tagged, words
        self.by_box = by_box
        """Placed by its box alone: its row declares no span and has fewer cells than the full rows."""

    @property
    def text(self) -> str:
        texts = [line.text for line in lines_of(self.words)]
        return functools.reduce(joined_lines, texts) if texts else ""  # a line-end hyphen as the geometry reads it


def _placed(tagged: TaggedTable, words: tuple[Word, ...], drawn: bool = False) -> list[_Cell] | None:
    """Every cell with a box, in its row, over the columns it covers; None where the rows set no columns (no row
    of two cells or more with boxes). A full row's cells are its columns in turn; a row of fewer cells is placed by
    the spans its cells declare where it declares any (``/ColSpan``, ``/RowSpan`` above it), else by its boxes."""
    full = max(len(row) for row in tagged.rows)
    if full < 2:
        return None
    spans = _column_spans(tagged, full)
    if spans is None:
        return None
    placed = []
    below: dict[int, set[int]] = {}  # the columns each row leaves to a cell spanning down from a row above
    for r, row in enumerate(tagged.rows):
        logical = _logical(row, below.get(r, set()), full, r, below)
        for k, cell in enumerate(row):
            if cell.box is None:
                continue
            first, last = (k, k) if len(row) == full else logical[k] if logical else _covered(cell.box, spans)
            placed.append(_Cell(r, first, last, cell, (), logical is None))
    _fill(placed, words, tagged.box, drawn)
    return placed


def _fill(cells: list[_Cell], words: tuple[Word, ...], table: Box, drawn: bool = False) -> None:
    """Each word of the table's box into one cell: among the cells whose box holds its middle across and meets it
    down the page, the one whose top is nearest its own (a word boxed by a math font's ascent and descent runs
    lines past its glyphs, its top near theirs). A word poppler calls turned, for its tall and narrow box, is upright
    where its box runs past the glyphs of its cell (a font's box, not a turned line). In a ``drawn`` grid (cells
    that tile the table) a word is in the cell that holds its middle, and outside the table where none does."""
    found: dict[int, list[Word]] = {}
    for word in words:
        if not _meets(table, word):
            continue
        middle = (word.top + word.bottom) / 2
        near = [(abs(cell.tagged.box[1] - word.top), i) for i, cell in enumerate(cells)
                if cell.tagged.box is not None and _meets(cell.tagged.box, word)
                and (not drawn or cell.tagged.box[1] <= middle <= cell.tagged.box[3])]
        if near:
            cell = cells[min(near)[1]]
            box = cell.tagged.box
            if word.rotated and box is not None and box[3] - box[1] < word.height:
                word = dataclasses.replace(word, rotated=False)  # a tall font box past its cell's glyphs, not turned
            found.setdefault(min(near)[1], []).append(word)
    for i, cell in enumerate(cells):
        cell.words = tuple(found.get(i, ()))


def _logical(row: tuple[TaggedCell, ...], occupied: set[int], full: int, r: int, below: dict[int, set[int]]
             ) -> list[tuple[int, int]] | None:
    """The columns of each cell of a row as its declared spans place them (the cells in turn, in the columns no cell
    above spans down into), noting the columns its own row spans take below; None where the row declares no span
    and is not full, or its spans run past the table's columns."""
    if not occupied and len(row) < full and all(c.column_span == 1 for c in row):
        return None
    found, column = [], 0
    for cell in row:
        while column in occupied:
            column += 1
        found.append((column, column + cell.column_span - 1))
        for down in range(1, cell.row_span):
            below.setdefault(r + down, set()).update(range(column, column + cell.column_span))
        column += cell.column_span
    return found if column <= full else None


def _widened(cells: list[_Cell], header_rows: int, extents: list[tuple[float, float]]) -> None:
    """A header cell placed by its box alone (its producer declares no span) widened over the columns beside it that
    no header cell of its row or the rows above covers, as far as its text heads them (``_heads``): a header set
    once over the columns it heads ('Runs' centred over runs 1 to 10, 'Number of Images' flush left over two)."""
    width = len(extents)
    for r in range(header_rows):
        covered = {k for c in cells if c.row <= r for k in range(c.first, c.last + 1)}
        own = sorted((c for c in cells if c.row == r), key=lambda c: c.first)
        for i, cell in enumerate(own):
            if not cell.by_box or cell.tagged.box is None or cell.first == 0:
                continue  # (the label column's header heads that column alone)
            left = own[i - 1].last + 1 if i else 0
            right = own[i + 1].first - 1 if i + 1 < len(own) else width - 1
            free = [k for k in range(left, right + 1) if k not in covered or cell.first <= k <= cell.last]
            centre = (cell.tagged.box[0] + cell.tagged.box[2]) / 2
            best = (cell.first, cell.last)
            for a in (k for k in free if k <= cell.first):
                for b in (k for k in free if k >= cell.last):
                    if any(k not in free for k in range(a, b + 1)) or b - a <= best[1] - best[0]:
                        continue
                    if _heads(cell.tagged.box, centre, extents[a], extents[b], a == cell.first):
                        best = (a, b)
            cell.first, cell.last = best
            covered.update(range(cell.first, cell.last + 1))


def _heads(box: Box, centre: float, first: tuple[float, float], last: tuple[float, float], own: bool) -> bool:
    """Whether a header's text heads the columns from ``first`` to ``last``: centred over them, or set flush left
    at the first (its own) and running past it."""
    if abs((first[0] + last[1]) / 2 - centre) <= CENTRED:
        return True
    return own and abs(box[0] - first[0]) <= SLACK and box[2] > first[1] + SLACK


def _column_spans(tagged: TaggedTable, full: int) -> list[tuple[float, float]] | None:
    """Each column's extent across, from the rows that have a cell in every column."""
    spans = []
    for k in range(full):
        boxes = [box for row in tagged.rows if len(row) == full and (box := row[k].box) is not None]
        if not boxes:
            return None
        spans.append((min(b[0] for b in boxes), max(b[2] for b in boxes)))
    return spans


def _covered(box: Box, spans: list[tuple[float, float]]) -> tuple[int, int]:
    """The first and last column a cell's box overlaps across (the nearest one where it overlaps none)."""
    over = [k for k, (lo, hi) in enumerate(spans) if box[0] < hi and box[2] > lo]
    if over:
        return over[0], over[-1]
    centre = (box[0] + box[2]) / 2
    nearest = min(range(len(spans)), key=lambda k: abs((spans[k][0] + spans[k][1]) / 2 - centre))
    return nearest, nearest


def _meets(box: Box, word: Word) -> bool:
    """Whether the box, widened by ``SLACK``, holds the word's middle across and meets the word down the page."""
    return (box[0] - SLACK <= word.centre <= box[2] + SLACK
            and word.top < box[3] + SLACK and word.bottom > box[1] - SLACK)


def _header_rows(tagged: TaggedTable, cells: list[_Cell], numeric: set[tuple[int, int]], count: int,
                 drawn: bool = False) -> int:
    """How many rows head the table: the first rows whose cells are all header cells (TH; where
    ``drawn``, whose data cells all print a word), hold no number past the first column, or leave the
    first column to a header cell spanning down into them; up to a row of one data cell from the first column on
    (a row group's label)."""
    rows = 0
    for r in range(count):
        own = [c for c in cells if c.row == r]
        all_th = bool(own) and all(c.tagged.header for c in own)
        if drawn and not all_th:
            data = [c.text for c in own if c.first > 0 and c.text]
            all_th = bool(data) and all(any(ch.isalpha() for ch in text) for text in data)
        spanned = r == rows > 0 and not any(c.first == 0 for c in own)  # its label cell spanned from a header row
        last = max((c.last for c in own), default=0)
        if not all_th and not spanned and any((r, k) in numeric for k in range(1, 1 + last)):
            break
        if r and len(own) == 1 and own[0].first == 0 and not own[0].tagged.header:
            break
        rows += 1
    return rows if rows < count else 0


def _extents(cells: list[_Cell], width: int, otherwise: list[tuple[float, float]] | None = None
             ) -> list[tuple[float, float]]:
    """Each column's extent across, from the cells that cover it alone (``otherwise``'s, or none, where none
    does)."""
    found = []
    for k in range(width):
        boxes = [c.tagged.box for c in cells if c.first == c.last == k and c.tagged.box is not None]
        none = otherwise[k] if otherwise is not None else (float("nan"), float("nan"))
        found.append((min(b[0] for b in boxes), max(b[2] for b in boxes)) if boxes else none)
    return found


def _column(cells: list[_Cell], header_rows: int, first: int, extents: list[tuple[float, float]],
            last: int | None = None, levels: tuple[str, ...] | None = None) -> Column:
    """Column ``first`` (to ``last``, for the stub): its header levels top to bottom, its extent and its bounds, half
    way across the gutters beside it."""
    last = first if last is None else last
    stacked: list[str] = list(levels or ())
    for r in range(header_rows):
        for c in cells:
            if c.row == r and c.first <= last and c.last >= first and c.text and (not stacked or stacked[-1] != c.text):
                stacked.append(c.text)
    x0, x1 = extents[first][0], extents[last][1]
    before = extents[first - 1][1] if first > 0 else float("nan")
    after = extents[last + 1][0] if last + 1 < len(extents) else float("nan")
    lo = (before + x0) / 2 if before == before and x0 == x0 else float("-inf")
    hi = (x1 + after) / 2 if after == after and x1 == x1 else float("inf")
    return Column(tuple(stacked), x0, x1, lo, hi)


def _rows(cells: list[_Cell], body: list[int], stub_width: int) -> list[Row]:
    """The body's rows: each labelled by its stub cells (a stub cell left empty or spanned over carries the label
    above it, as a row group's label set once beside its rows), under the row group a row of one label alone
    opens."""
    rows: list[Row] = []
    group: str | None = None
    above: list[str] = [""] * stub_width
    for r in body:
        own = [c for c in cells if c.row == r]
        data = [c for c in own if c.last >= stub_width]
        if len(own) == 1 and own[0].text and (not data or read_cell(list(own[0].words)).value is None):
            group = own[0].text  # a row that only names a group of the rows under it
            above = [""] * stub_width
            continue
        labels = []
        for k in range(stub_width):
            text = " ".join(c.text for c in own if c.first <= k <= c.last and c.last < stub_width and c.text)
            labels.append(text or (above[k] if k < stub_width - 1 else ""))
        above = labels
        levels = tuple(t for t in ([group] if group else []) + _distinct(labels) if t)
        words = tuple(w for c in data for w in c.words)
        if not levels or not words:
            continue
        line = Line(tuple(sorted((w for c in own for w in c.words), key=lambda w: (w.x0, w.top))))
        rows.append(Row(levels, line, tuple(sorted(words, key=lambda w: (w.x0, w.top)))))
    return rows


def _distinct(labels: list[str]) -> list[str]:
    """The stub's labels, one level each, a label spanning two stub columns counted once."""
    return [t for i, t in enumerate(labels) if i == 0 or t != labels[i - 1]]
