"""Cells that print 'name = value': a table of parameters whose every cell names its own row.

A table of parameters sets in each column cells such as 'S_max = 96' or 'f_mean = 5Hz' under a header that names
a group of them ('wiring', 'inputs'): the row a record cites is the name printed before '=' in a cell, not a label
at the start of a line, and the cells of one line belong to unrelated parameters. The grid and the crossing look
for a row's label at the start of its line, so they cannot read such a cell; this reading is asked where they
could not. In the cited caption's block (``review.tables.crossing``'s regions), under the column's header (its words'
extent widened to the midpoints to the next headers of its line), the one cell whose words before '=' print the
record's row (compared as the crossing compares labels: squeezed, TeX's '_' and '^' left out); its words after '='
are the cell, read by ``read_cell`` as any cell, so that every cell claim reads it as it reads a grid's cell.

A name printed in two cells under the header, a cell after '=' that prints a second number outside any bracket
('28 × 28'), or none, is a reason, not a guess: the claim cannot be checked.
"""

from __future__ import annotations

from review.pdf.words import Line, PageWords, Word
from review.tables.cell import read_cell
from review.tables.crossing_header import _Header, _key, _runs, _spanned
from review.tables.crossing_region import NotCrossed, Region, _regions
from review.tables.figures import within_brackets
from review.tables.lines import LABEL_GAP
from review.tables.table import Column, Row, Table, levels_of

#: The word a cell prints between a parameter's name and its value.
EQUALS = "="


def read_keyed(page: PageWords, label: str, row: str, column: str) -> Table | NotCrossed | None:
    """The cell under ``column`` that prints '``row`` = value' in ``label`` on ``page``, as a table of that one row
    and column; why it cannot be read; or None where no block of the table prints 'name = value' cells at all."""
    regions = [r for r in _regions(page, label) if any(_assignments(line) for line in r.lines)]
    if not regions:
        return None
    found: list[Table] = []
    why: list[str] = []
    for region in regions:
        read = _keyed(region, label, page.number, row, column)
        (found if isinstance(read, Table) else why).append(read)  # type: ignore[arg-type]
    if len(found) > 1:
        return NotCrossed(f"'{row} = ' is printed under '{column}' in {len(found)} blocks beside captions of {label} "
                          f"on page {page.number}")
    return found[0] if found else NotCrossed("; ".join(dict.fromkeys(why)))


def _keyed(region: Region, label: str, page: int, row: str, column: str) -> Table | NotCrossed:
    levels = levels_of(column)
    if len(levels) != 1:
        return NotCrossed(f"a cell printing '{row} = ' is read under a header of one level, not '{column}'")
    heads = [(index, _spanned(line, index, a, b)) for index, line in enumerate(region.lines)
             if not _assignments(line) for a, b in _runs(line, column)]
    if not heads:
        return NotCrossed(f"no header '{column}' over the cells that print 'name = value' in {label} on page {page}")
    wanted = _key(row)
    cells: list[tuple[int, list[Word], list[Word], _Header]] = []
    for index, line in enumerate(region.lines):
        for name, value in _assignments(line):
            if _key(" ".join(w.text for w in name)) != wanted:
                continue
            over = [head for at, head in heads if at < index and head.lo <= name[0].x0 < head.hi]
            if over:
                cells.append((index, name, value, over[-1]))
    if not cells:
        return NotCrossed(f"no cell under the header '{column}' in {label} on page {page} prints '{row} = '")
    if len(cells) > 1:
        return NotCrossed(f"{len(cells)} cells under the header '{column}' in {label} on page {page} print "
                          f"'{row} = '")
    index, name, value, head = cells[0]
    read = read_cell(value)
    text = " ".join(w.text for w in value)
    printed = f"'{' '.join(w.text for w in name)} = {text}' under '{column}' in {label} on page {page}"
    if read.value is None:
        return NotCrossed(f"the cell {printed} holds no number")
    if not within_brackets(read.rest, opened_before=text.lstrip()[:1] in "(["):
        return NotCrossed(f"the cell {printed} holds more than one number")
    found_row = Row(levels_of(row), region.lines[index], tuple(value))
    return Table(label, page, region.caption, False, (), (Column(levels, head.x0, head.x1),), None, (found_row,), ())


def _assignments(line: Line) -> list[tuple[list[Word], list[Word]]]:
    """The cells of a line that print 'name = value' (words within ``LABEL_GAP`` of each other; a relation is set
    with thick spaces): each cell's words before its first '=' and after it."""
    cells: list[list[Word]] = []
    for word in line.words:
        if cells and word.x0 - cells[-1][-1].x1 <= LABEL_GAP:
            cells[-1].append(word)
        else:
            cells.append([word])
    out = []
    for cell in cells:
        at = next((k for k, w in enumerate(cell) if w.text == EQUALS), None)
        if at is not None and 0 < at < len(cell) - 1:
            out.append((cell[:at], cell[at + 1:]))
    return out
