"""A second reading of one cited cell: where the row's line and the column's header cross.

The grid reader (``review.tables.read.read_tables``) reads a whole table before any cell can be looked up, and
one misread line (a header it cannot place, a row group it cannot see) leaves every cell of the table
unread. Checking one cited cell needs less: the line that prints the row's label, the span of the
column's header, and the number printed where the two cross. ``review.tables.cited`` asks this reading only
where the grid could not read the cell, never to overrule a grid that found it.

1. **Region**: the cited caption (``find_captions``; its paragraph goes on in running text only, so a header
   centred close under it is the table's) and the lines next to it, below it or above it, in the caption's
   column of the page, up to another caption, a line of running text or a gap wider than ``REGION_GAP``. A
   block that runs up to another caption belongs to the caption set closer to it; where both are as close,
   to neither, unless its last line of numbers is farther from the other caption than its first line is from
   its own (a figure's labels set close under a ``table*`` are the figure's). So a value cited in the wrong
   table or on the wrong page is not read there.
2. **Row**: a line that prints the record's label before numbers; each outer level of the row path printed
   before the label on the line, on the nearest line of one label above (a group's name, or a sub-table's
   title over its header), as a top-aligned ``\\multirow`` label beside the first line of its run, or as a
   label turned a quarter set left of the row's label beside its line. The
   label must be the nearest one before the column (a table set beside prints a label before each half;
   a text cell under its own header, or a check mark, between them is no label); of sub-tables set side by
   side, each printing its labels again, the nearest one before the column is the row's. An upper header
   line's cell over the row labels of the row's own block names its group ('N = 2000' over the stub 'λ').
   A label printed more than once is read as the record's ``#N`` where it is printed once per row, and a
   label set once centred beside several lines (``\\multirow{2}``) names them ``#1``, ``#2`` from the top;
   a label set at the first of its lines is not counted (which lines below are its rows is unknown). A
   record citing a sub-table ('(b)') keeps the lines under that sub-table's caption only (the nearest one
   above them), or cannot be read where none names it.
3. **Column**: the header words of each level of the column path, outermost first, each level printed
   under the span of the level above it (its words' extent widened to the midpoints to the next words of
   its line: a spanning header narrower than its columns still spans them); a level may be set on two lines
   ('Number of queries' over '(Speakers)'), and spans the headers centred under its span. A header repeated
   over a later block of rows heads that block. A level written 'n+/n' is also read as a fraction, its
   numerator set right over its denominator; of two headers of one name, one a half of such a stack, the
   other is the header.
4. **Crossing**: the row's cell under the bottom header's words (or, where none is, centred in its span),
   read by ``read_cell`` (±, spread in parentheses, marks, bold, superscripts), so that every cell claim
   reads it as it reads a grid's cell. A number after a cell's number starts a cell of its own, however
   tight; a '±' joins the numbers on both sides, however wide; a number's digit groups ('45 000') are one
   cell where set closer than a gap between cells, and a crossing next to a group set farther than that
   is not read (one number or two cells).

Anything matched twice, and a crossing that holds two numbers or none, is a reason (``NotCrossed``, which
``review.tables.cited`` reports as ``Unread``), not a guess: the claim cannot be checked.
"""

from __future__ import annotations

import re

from registry.numbers import FIGURES, SIGN
from review.pdf.words import PageWords, Word, squeezed
from review.tables.cell import is_value, read_cell
from review.tables.crossing_header import _Header
from review.tables.crossing_region import NotCrossed, Region, _regions
from review.tables.crossing_row import _row_line
from review.tables.figures import opens_bracket, within_brackets
from review.tables.lines import _GROUP, CELL_GAP, LABEL_GAP, _thousands
from review.tables.table import Column, Row, Table, levels_of


def read_crossing(page: PageWords, label: str, row: str, column: str, subtable: str | None = None
                  ) -> Table | NotCrossed:
    """The cited cell read where ``row``'s line and ``column``'s header cross in ``label`` on ``page``: a table of
    that one row and one column (so that every cell claim reads it as a grid's), or why it cannot be read. A
    ``subtable`` ('(b)') keeps the row's lines under that sub-table's caption or title only (``_in_subtable``)."""
    regions = _regions(page, label)
    if not regions:
        return NotCrossed(f"no block of lines beside a caption of {label} on page {page.number}")
    found: list[Table] = []
    why: list[str] = []
    for region in regions:
        read = _cross(region, label, page.number, row, column, subtable)
        (found if isinstance(read, Table) else why).append(read)  # type: ignore[arg-type]
    if len(found) > 1:
        return NotCrossed(f"row '{row}' and column '{column}' cross in {len(found)} blocks beside captions of "
                          f"{label} on page {page.number}")
    if found:
        return found[0]
    return NotCrossed("; ".join(dict.fromkeys(why)))


def _cross(region: Region, label: str, page: int, row: str, column: str, subtable: str | None = None
           ) -> Table | NotCrossed:
    found = _row_line(region, row, column, subtable)
    if isinstance(found, NotCrossed):
        return found
    where, header = found
    line = region.lines[where.line]
    cell = _under(list(line.words[where.end + 1:]), header)
    if isinstance(cell, NotCrossed):
        return NotCrossed(f"row '{row}' and column '{column}' cross in {label} on page {page}, {cell}")
    read = read_cell(cell)
    if read.value is None:
        return NotCrossed(f"row '{row}' and column '{column}' cross in {label} on page {page} at '{read.text}', "
                          "which holds no number")
    if not within_brackets(read.rest, opened_before=read.text.lstrip()[:1] in "(["):  # '(14.1, .000)' is one cell
        return NotCrossed(f"row '{row}' and column '{column}' cross in {label} on page {page} at '{read.text}', "
                          "which holds more than one number")
    found_row = Row(levels_of(row), line, tuple(cell))
    found_column = Column(levels_of(column), header.x0, header.x1)
    return Table(label, page, region.caption, False, (), (found_column,), None, (found_row,), ())


#: What joins two numbers into one cell, at a word's end or start: a '±' (however wide it is set), the dot of a
#: power of ten ('1 · 10⁴'); not '×', which tables print as a cross mark as often as a product.
_JOINER = re.compile(r"^(?:\u00b1|\+/-|\+-|\u00b7)|(?:\u00b1|\+/-|\+-|\u00b7)$")
_SPREAD = re.compile(rf"^\({SIGN}?{FIGURES}\)$")


def _under(words: list[Word], header: _Header) -> list[Word] | NotCrossed:
    """The row's words under the header: those overlapping its words, or else those centred in its span; one
    cell (words within ``CELL_GAP`` of each other)."""
    under = [w for w in words if w.x1 > header.x0 and w.x0 < header.x1]
    if not under:
        under = [w for w in words if header.lo <= w.centre < header.hi]
    if not under:
        return NotCrossed("where the row prints nothing")
    cells = _cells(words)
    hit = [cell for cell in cells if any(w.x0 < u.x1 and u.x0 < w.x1 for w in cell for u in under)]  # '45 000' is
    # one word of a cell once its thousands are joined
    if len(hit) > 1:
        shown = ", ".join(f"'{' '.join(w.text for w in c)}'" for c in hit)
        return NotCrossed(f"where the row prints {len(hit)} cells ({shown})")
    at = cells.index(hit[0])
    for left, right in [(cells[i], cells[i + 1]) for i in (at - 1, at) if 0 <= i < len(cells) - 1]:
        if _digit_gap(left[-1], right[0]):
            return NotCrossed(f"where the row prints '{' '.join(w.text for w in left)}' and "
                              f"'{' '.join(w.text for w in right)}' close together: one number in digit groups or "
                              "two cells cannot be told apart")
    return hit[0]


def _digit_gap(left: Word, right: Word) -> bool:
    """Whether two cells might be one number's digit groups ('151' '097') set apart wider than ``_digit_groups``
    joins: closer than a gap between label columns, a group of three digits after a number of one to three."""
    return bool(right.x0 - left.x1 < LABEL_GAP and _GROUP.match(right.text) and _GROUPED.match(left.text))


def _digit_groups(words: tuple[Word, ...]) -> tuple[Word, ...]:
    """A row's words with a number's thousands joined where set apart by less than a gap between cells: one
    extractor's tight glyph boxes widen a thin space ('45 000') past ``THIN_SPACE``, and a header over the lead
    group only would read '45'."""
    out: list[Word] = []
    for word in _thousands(words):
        last = out[-1] if out else None
        if (last is not None and _GROUP.match(word.text) and word.x0 - last.x1 <= CELL_GAP
                and _GROUPED.match(last.text)):
            out[-1] = Word(f"{last.text} {word.text}", last.x0, min(last.top, word.top), word.x1,
                           max(last.bottom, word.bottom), last.bold and word.bold)
        else:
            out.append(word)
    return tuple(out)


_GROUPED = re.compile(rf"^{SIGN}?\d{{1,3}}(?: \d{{3}})*$")


def _cells(words: list[Word]) -> list[list[Word]]:
    """A row's words in cells: words within ``CELL_GAP`` of each other, a '±' with the numbers on both sides of
    it however wide it is set ('58.96 +/- 1.8' under a header over its '1.8'), and a spread in parentheses with
    the number before it ('4.00 (0.000)'); but a number after a cell's number (and no '±' or '·' between)
    starts a cell of its own, however close ('0.779±.02 0.362±.01' set tight)."""
    cells: list[list[Word]] = []
    for word in _digit_groups(tuple(words)):
        last = cells[-1] if cells else None
        if last is None:
            cells.append([word])
            continue
        joiner = _JOINER.search(last[-1].text) or _JOINER.match(word.text)
        spread = _SPREAD.match(squeezed(word.text)) and is_value(last[-1])
        fresh = is_value(word) and any(is_value(w) for w in last) and not joiner and not opens_bracket(
            [w.text for w in last])  # a bracket opened in a cell closes in it: '397 (1F; 16 mins)'
        if (word.x0 - last[-1].x1 <= CELL_GAP or joiner or spread) and not fresh:
            last.append(word)
        else:
            cells.append([word])
    return cells
