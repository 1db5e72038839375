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
from dataclasses import dataclass

from registry.numbers import FIGURES, SIGN
from review.pdf.words import Line, PageWords, Word, squeezed
from review.tables.captions import _continues, caption_columns, upright
from review.tables.cell import MARKS, is_value, read_cell
from review.tables.figures import opens_bracket, within_brackets
from review.tables.lines import _GROUP, CELL_GAP, LABEL_GAP, _numbers_line, _thousands, is_prose, starts_caption
from review.tables.subtables import mark_of, names
from review.tables.table import Column, Row, Table, levels_of, plain_glyphs

#: A vertical gap (points) wider than this ends a table's region: sub-tables stacked under one caption are set
#: closer, the running head or a float above or below is set farther.
REGION_GAP = 36.0
#: Points: two labels start at the same place (a column of labels) when their left edges are this close.
ALIGNED = 3.0

_REPEAT = re.compile(r"^(?P<label>.*\S)\s+#(?P<n>\d+)$")


class NotCrossed(str):
    """Why the crossing could not be read, naming what was read instead."""


@dataclass(frozen=True)
class Region:
    """The lines of one cited table's block beside its caption, top to bottom."""

    caption: str
    lines: tuple[Line, ...]
    rotated: tuple[Word, ...] = ()
    """The words turned a quarter beside the lines (a ``\\rotatebox`` group label), which belong to no line."""


@dataclass(frozen=True)
class _Label:
    """Where a row's label is printed: its line, and its first and last word on that line."""

    line: int
    start: int
    end: int


@dataclass(frozen=True)
class _Header:
    """One level's header words: their line and their extent, and the extent the level spans."""

    line: int
    x0: float
    x1: float
    lo: float
    hi: float
    stacked: bool = False
    """Set on two lines, the last of them ``line``."""


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


# -- the region -------------------------------------------------------------------------------------


_REGIONS: dict[tuple[int, str], tuple[PageWords, list[Region]]] = {}


def _regions(page: PageWords, label: str) -> list[Region]:
    """``table_regions``, kept for the page's words it was read from (every claim on a cell reads the same)."""
    held = _REGIONS.get((id(page), label))
    if held is None or held[0] is not page:
        if len(_REGIONS) > 64:
            _REGIONS.clear()
        held = _REGIONS[(id(page), label)] = (page, table_regions(page, label))
    return held[1]


def table_regions(page: PageWords, label: str) -> list[Region]:
    """The block of lines beside each caption of ``label`` (above it, below it, or both where neither side
    belongs to another caption set closer to it) that holds a line of numbers."""
    page = upright(page)
    regions: list[Region] = []
    for lines, at, _ in caption_columns(page, label):
        end = at
        while (end + 1 < len(lines) and _continues(lines[end], lines[end + 1], lines[at])
               and _running_on(lines[end + 1])):
            end += 1  # a caption goes on in running text; a header centred close under it is the table's
        caption = " ".join(ln.text for ln in lines[at:end + 1])
        width = max(ln.x1 for ln in lines) - min(ln.x0 for ln in lines)
        for block in (_side(lines, end + 1, 1, lines[end].bottom, width),
                      _side(lines, at - 1, -1, lines[at].top, width)):
            if block is not None and any(any(is_value(w) for w in ln.words) for ln in block):
                regions.append(Region(caption, tuple(sorted(block, key=lambda ln: ln.top)), _turned(page, block)))
    return regions


def _turned(page: PageWords, block: list[Line]) -> tuple[Word, ...]:
    """The page's words turned a quarter that lie beside the block of lines: within its height, and within its width
    or left of it by up to ``TURNED_MARGIN`` (a turned group label is set left of the row labels it groups)."""
    top, bottom = min(ln.top for ln in block), max(ln.bottom for ln in block)
    x0, x1 = min(ln.x0 for ln in block), max(ln.x1 for ln in block)
    return tuple(w for w in page.words if w.rotated and top <= w.top and w.bottom <= bottom
                 and x0 - TURNED_MARGIN <= w.x0 and w.x1 <= x1)


#: Points: a turned group label stands this far left of the block's lines at most (its own width, one line's
#: height, and a column gap).
TURNED_MARGIN = 24.0


def _side(lines: list[Line], index: int, step: int, edge: float, width: float) -> list[Line] | None:
    """The lines from ``index`` on, going ``step``, up to another caption, running text or a wide gap; None
    where they run up to another caption set closer to them than this one (or as close)."""
    kept: list[Line] = []
    reach = edge
    while 0 <= index < len(lines):
        line = lines[index]
        gap = line.top - reach if step > 0 else reach - line.bottom
        if gap > REGION_GAP:
            break
        if _caption_in(line):
            if kept:
                own = kept[0].top - edge if step > 0 else edge - kept[0].bottom
                if gap <= own + 1.0:
                    # the other caption's table, or as much the other's as this one's
                    return _ours_before(kept, line, own) if step > 0 else None
            break
        if is_prose(line, width) and 2 * sum(is_value(w) for w in line.words) < len(line.words):
            break  # running text (a row of numbers set close is none)
        kept.append(line)
        reach = line.bottom if step > 0 else line.top
        index += step
    return kept or None


def _ours_before(kept: list[Line], caption: Line, own: float) -> list[Line] | None:
    """Of lines below a caption that run up to another caption as close to them: this caption's table where its
    last line of numbers is farther from the other caption than its first line is from this one (the lines after
    it, a figure's labels set close under a ``table*``, are the other caption's float); else None."""
    last = max((i for i, ln in enumerate(kept) if _numbers_line(ln)), default=None)
    if last is None or caption.top - kept[last].bottom <= own + 1.0:
        return None
    return kept[:last + 1]


def _caption_in(line: Line) -> bool:
    """Whether a line starts a caption, or holds one where a column of the page begins (a line that runs across
    two columns of text: 'tasks and Table 5: Results ...')."""
    words = line.words
    return any(starts_caption(Line(words[j:])) for j in range(len(words))
               if j == 0 or words[j].x0 - words[j - 1].x1 >= _GUTTER)


#: A gap (points) at least this wide between two words of a line is the gutter between two columns of the page.
_GUTTER = 8.0


def _running_on(line: Line) -> bool:
    """Whether a line's words run on as text does, with no gap between cells."""
    return all(b.x0 - a.x1 < _GUTTER for a, b in zip(line.words, line.words[1:], strict=False))


# -- reading one cell in a region -------------------------------------------------------------------


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


def _key(text: str) -> str:
    """Text compared as printed: squeezed, marks after it and TeX's sub- and superscript signs left out (a curator
    types 'RMSE_CV' for the 'RMSE' and lowered 'CV' the page prints)."""
    return _TEX.sub("", plain_glyphs(squeezed(text))).rstrip(MARKS).lower()


_TEX = re.compile(r"[_^{}]")
#: What joins two numbers into one cell, at a word's end or start: a '±' (however wide it is set), the dot of a
#: power of ten ('1 · 10⁴'); not '×', which tables print as a cross mark as often as a product.
_JOINER = re.compile(r"^(?:\u00b1|\+/-|\+-|\u00b7)|(?:\u00b1|\+/-|\+-|\u00b7)$")
_SPREAD = re.compile(rf"^\({SIGN}?{FIGURES}\)$")


def _runs(line: Line, wanted: str) -> list[tuple[int, int]]:
    """Every run of whole words of ``line`` that prints ``wanted`` (compared squeezed, marks after it left out)."""
    key = _key(wanted)
    words = line.words
    out = []
    for i in range(len(words)):
        text = ""
        for j in range(i, len(words)):
            text += plain_glyphs(squeezed(words[j].text))
            if len(text.rstrip(MARKS)) > len(key) + 4:
                break
            if _TEX.sub("", text).rstrip(MARKS).lower() == key:
                out.append((i, j))
                break
    return out


def _row_line(region: Region, row: str, column: str, subtable: str | None = None
              ) -> tuple[_Label, _Header] | NotCrossed:
    """The line that prints the row's label, in the row's groups (and the cited sub-table), once (the ``#N`` one
    of a repeated label), with the column's header above it; the label the nearest one before that header on its
    line (tables set side by side print a label before each half)."""
    levels = levels_of(row)
    if not levels:
        return NotCrossed("the record names no row")
    *groups, own = levels
    repeat = _REPEAT.match(own)
    nth = int(repeat["n"]) if repeat else None
    own = repeat["label"] if repeat else own
    printed = [label for i, line in enumerate(region.lines) for label in _labels_of(line, i, own)]
    if not printed:
        return NotCrossed(f"no line of {_described(region)} prints the row label '{own}' before numbers")
    grouped = [p for p in printed if _in_groups(region, p, groups)]
    if not grouped and not groups:
        shown = region.lines[printed[0].line].text[:60]
        return NotCrossed(f"the row label '{own}' is printed after other words only ('{shown}')")
    if not grouped:
        return NotCrossed(f"the row label '{own}' is printed, but not under the group '{' / '.join(groups)}'")
    if subtable is not None:
        grouped = [p for p in grouped if _in_subtable(region, p.line, subtable)]
        if not grouped:
            read = [ln.text for ln in region.lines if _subcaption(ln)]
            shown = ("the sub-tables' captions read are " + ", ".join(f"'{t}'" for t in read) if read else
                     "no sub-table's caption is read over its rows")
            return NotCrossed(f"the row label '{own}' is printed, but under no sub-table {subtable} ({shown})")
    headed: list[tuple[_Label, _Header]] = []
    why = ""
    for label in grouped:
        header = _header(region, column, label.line)
        if isinstance(header, NotCrossed):
            why = why or header
        elif _heads(region, label, header):
            headed.append((label, header))
    if not headed:
        return NotCrossed(why or f"the row label '{own}' is not the label nearest before the header '{column}' on "
                          "its line")
    headed = _nearest_before(headed)
    beside = [h for h in headed if _beside_several(region, h[0])]
    if beside and nth is None:
        return NotCrossed(f"the row label '{own}' is printed beside more than one line of numbers, so which line "
                          "is the row cannot be read")
    if nth is not None:
        named = _rows_named(region, headed)
        if named is None:
            return NotCrossed(f"the row label '{own}' is printed beside more than one line of numbers but not "
                              "centred on them, so which lines are its rows cannot be read")
        if len(named) < 2 or nth > len(named):
            return NotCrossed(f"the row label '{own}' names {len(named)} row(s) under the header "
                              f"'{column}', so row '{row}' cannot be told apart")
        return named[nth - 1]
    if len(headed) > 1:
        shown = ", ".join(f"'{region.lines[h[0].line].text[:40]}'" for h in headed[:4])
        return NotCrossed(f"{len(headed)} lines print the row label '{row}' ({shown})")
    return headed[0]


def _nearest_before(headed: list[tuple[_Label, _Header]]) -> list[tuple[_Label, _Header]]:
    """Of the places one line prints the row label before the column's header, the nearest one: sub-tables set side
    by side print their labels again before each one's columns ('100' beside each of four sub-tables), and a label
    that is a number is no word between a label and its header for ``_heads``."""
    nearest: dict[int, tuple[_Label, _Header]] = {}
    for held in headed:
        if held[0].line not in nearest or held[0].end > nearest[held[0].line][0].end:
            nearest[held[0].line] = held
    return [h for h in headed if nearest[h[0].line] is h]


def _rows_named(region: Region, headed: list[tuple[_Label, _Header]]) -> list[tuple[_Label, _Header]] | None:
    """The rows a label printed more than once or set once beside several lines names, top to bottom, for its
    ``#N``: each label's own line, or the lines of numbers it is centred on (``_centred_run``); None where a label
    set beside several lines is centred on no run of them (a top-aligned label's rows are not told apart)."""
    named: list[tuple[_Label, _Header]] = []
    for label, header in headed:
        if not _beside_several(region, label):
            named.append((label, header))
            continue
        run = _centred_run(region, label)
        if run is None:
            return None
        line = region.lines[label.line]
        right = line.words[label.end].x1
        for index in run:
            before = sum(1 for w in region.lines[index].words if w.x1 <= right)
            named.append((label if index == label.line else _Label(index, 0, before - 1), header))
    return named


def _label_middle(line: Line, x0: float) -> float | None:
    """The vertical middle of the label a line of numbers prints where the label column starts at ``x0``, if any."""
    first = line.words[0]
    if is_value(first) or abs(first.x0 - x0) > ALIGNED:
        return None
    return (first.top + first.bottom) / 2


def _numbers_middle(line: Line) -> float:
    """The vertical middle of a line's numbers (a taller label joined to the line is left out)."""
    values = [w for w in line.words if is_value(w)] or list(line.words)
    return (min(w.top for w in values) + max(w.bottom for w in values)) / 2


def _centred_run(region: Region, label: _Label) -> list[int] | None:
    """The lines of numbers a label set once beside several is centred on (``\\multirow{2}{*}{AF}``), top to
    bottom: its own line and the lines next to it that print no label of their own and lie nearer to it than to
    the next label up or down; None where the label's middle is not the middle of that run (a label set at the
    first line of its run, whose lines below might as well be the next label's, is not guessed)."""
    line = region.lines[label.line]
    words = line.words[label.start:label.end + 1]
    x0 = words[0].x0
    middle = (min(w.top for w in words) + max(w.bottom for w in words)) / 2
    run = [label.line]
    for step in (-1, 1):
        index, loose = label.line + step, []
        other = None
        while 0 <= index < len(region.lines) and _numbers_line(region.lines[index]):
            other = _label_middle(region.lines[index], x0)
            if other is not None:
                break
            loose.append(index)
            index += step
        for i in loose:
            centre = _numbers_middle(region.lines[i])
            if other is not None and abs(centre - other) <= abs(centre - middle):
                break
            run.append(i)
    run.sort()
    centres = [_numbers_middle(region.lines[i]) for i in run]
    if len(run) < 2:
        return None
    pitch = (centres[-1] - centres[0]) / (len(run) - 1)
    return run if abs(middle - (centres[0] + centres[-1]) / 2) <= CENTRED * pitch else None


#: A label is centred on a run of lines when its middle is within this share of the lines' pitch of the run's
#: middle (a label set at the run's first line is half a pitch off for two lines).
CENTRED = 0.35


def _heads(region: Region, label: _Label, header: _Header) -> bool:
    """Whether the label is the row's label where the header's column is: set before it, with no other label
    between them. A word between them is a cell where a header stands over it other than the one over the row
    labels ('Kaytetye' under 'Language'), or a check mark ('X', '✓'); under no header ('stlm') or under another
    'Model' it is the label of a table set beside."""
    line = region.lines[label.line]
    if line.words[label.end].x1 > header.x0:
        return False
    heads = [w for ln in region.lines[:label.line] if not _numbers_line(ln) for w in ln.words]

    def over(x0: float, x1: float) -> set[str]:
        return {_key(h.text) for h in heads if h.x0 < x1 and x0 < h.x1}

    stub = over(line.words[label.start].x0, line.words[label.end].x1)
    between = [cell for cell in _text_cells([w for w in line.words[label.end + 1:] if w.x1 <= header.x0])
               if any(sum(c.isalpha() for c in w.text) > 1 for w in cell)]
    return all(over(c[0].x0, c[-1].x1) and not over(c[0].x0, c[-1].x1) & stub for c in between)


def _text_cells(words: list[Word]) -> list[list[Word]]:
    """The cells of words that are no number, words within ``CELL_GAP`` of each other: a text cell wider than its
    header ('CASIA-W [41], VGG [30] &VGG2 [6]' under 'Source Data') stands under it as a whole."""
    cells: list[list[Word]] = []
    last: Word | None = None
    for word in words:
        if is_value(word):
            last = None
            continue
        if last is not None and word.x0 - last.x1 <= CELL_GAP:
            cells[-1].append(word)
        else:
            cells.append([word])
        last = word
    return cells


def _labels_of(line: Line, index: int, own: str) -> list[_Label]:
    """Each place ``line`` prints the row label ``own``, numbers after it."""
    return [_Label(index, start, end) for start, end in _runs(line, own)
            if any(is_value(w) for w in line.words[end + 1:])]


def _described(region: Region) -> str:
    labels = [ln.words[0].text for ln in region.lines if any(is_value(w) for w in ln.words[1:])]
    shown = ", ".join(f"'{t}'" for t in labels[:8])
    return f"the table's block ({len(region.lines)} lines; rows starting {shown})" if labels else "the table's block"


def _beside_several(region: Region, label: _Label) -> bool:
    """Whether a label is set once beside more than one line of numbers (a label centred on two rows): a line
    next to it holds numbers but no label where the label column is."""
    line = region.lines[label.line]
    x0 = line.words[label.start].x0
    for other in (label.line - 1, label.line + 1):
        if not 0 <= other < len(region.lines):
            continue
        near = region.lines[other]
        close = min(abs(near.top - line.bottom), abs(line.top - near.bottom)) < 0.8 * line.height
        if close and is_value(near.words[0]) and near.words[0].x0 > x0 + ALIGNED:
            return True
    return False


def _single(line: Line) -> bool:
    """A line of one cluster of words (a group's name, a title): no gap between cells in it."""
    return all(b.x0 - a.x1 <= CELL_GAP for a, b in zip(line.words, line.words[1:], strict=False))


def _in_groups(region: Region, label: _Label, groups: list[str]) -> bool:
    """Whether the row's line stands in ``groups`` (outermost first): each printed on the row's line before the
    label, on the nearest line of one label above, or as a top-aligned label beside the first line of the run."""
    pending = list(groups)
    line = region.lines[label.line]
    own = line.words[:label.start]
    values = [i for i, w in enumerate(own) if is_value(w)]
    before = " ".join(w.text for w in own[values[-1] + 1 if values else 0:]  # after a table set beside, if any
                      if any(c.isalnum() for c in w.text))  # a dash for an empty cell is no group
    if before:
        taken = next((k for k in range(len(pending)) if _key(" ".join(pending[k:])) == _key(before)), None)
        if taken is None:
            return False
        pending = pending[:taken]
    turned = _turned_beside(region, line, label)
    if pending and turned and _key(turned) == _key(pending[-1]):
        pending.pop()
    index = label.line
    heads = 0  # header lines passed over the row's own block of rows; none once above another block
    stub = line.words[label.start].x0, line.words[label.end].x1
    while pending:
        index -= 1
        if index < 0:
            return False
        above = region.lines[index]
        if _single(above):  # a group's name or a sub-table's title ('TPR@K = 10'), not a row of cells
            if _key(above.text) != _key(pending[-1]):
                return False  # another group's line
            pending.pop()
        elif _numbers_line(above):
            heads = -1 if heads else heads
            outer = _label_clusters(above)[:-1]
            if not outer:
                continue  # a row of the same run
            if not _top_aligned(region, index) or _key(" ".join(w.text for c in outer for w in c)) != _key(
                    pending[-1]):
                return False
            pending.pop()
        elif heads >= 0:  # a header line of the row's own block: a sub-table's title may be printed over it
            heads += 1
            if heads > 1 and _key(_over_stub(above, *stub)) == _key(pending[-1]):
                pending.pop()
    return True


def _turned_beside(region: Region, line: Line, label: _Label) -> str:
    """The group label turned a quarter (``\\multirow`` with ``\\rotatebox{90}``) set left of the row's label and
    beside the row's line: the nearest one, its words read as the page turned reads them (bottom up, line by
    line); '' where none is. A row above or below the turned words is not taken to be in their group: the
    turned label's height is its text's width, which says nothing of its run's."""
    start = line.words[label.start].x0
    beside = [w for w in region.rotated if w.x1 <= start and w.top < line.bottom and line.top < w.bottom]
    if not beside:
        return ""
    nearest = max(beside, key=lambda w: w.x1)
    column = [w for w in region.rotated if w.x0 < nearest.x1 and nearest.x0 < w.x1]
    return " ".join(w.text for w in sorted(column, key=lambda w: (w.x0, -w.bottom)))


def _over_stub(line: Line, x0: float, x1: float) -> str:
    """The cell of an upper header line set over the row labels (``x0``..``x1``): the group of the rows under that
    header ('N = 2000' over the stub header 'λ' of each of four sub-tables set side by side); '' where none or two
    are."""
    cells: list[list[Word]] = []
    for word in line.words:
        if cells and word.x0 - cells[-1][-1].x1 <= CELL_GAP:
            cells[-1].append(word)
        else:
            cells.append([word])
    over = [c for c in cells if c[0].x0 < x1 and x0 < c[-1].x1]
    return " ".join(w.text for w in over[0]) if len(over) == 1 else ""


def _subcaption(line: Line) -> bool:
    """A sub-table's caption ('(b) Factorization models'): a line of one cluster, no number, starting with a mark."""
    return _single(line) and not any(is_value(w) for w in line.words) and mark_of(line.text, bare=False) is not None


def _in_subtable(region: Region, index: int, subtable: str) -> bool:
    """Whether the row's line ``index`` stands under the sub-table ``subtable`` names: the nearest sub-table's
    caption above it ('(b) ...') is that one's; for a sub-table cited by its title ('AUC'), the nearest line of one
    label above it is that title (a row group between them leaves it unread, never guessed)."""
    marked = mark_of(subtable) is not None
    for above in reversed(region.lines[:index]):
        if _subcaption(above) or not marked and _single(above) and not any(is_value(w) for w in above.words):
            return names(above.text, subtable)
    return False


def _label_clusters(line: Line) -> list[list[Word]]:
    """A row's label words (before its first number) in label columns: clusters apart by more than ``LABEL_GAP``."""
    clusters: list[list[Word]] = []
    for word in line.words:
        if is_value(word):
            break
        if not any(c.isalnum() for c in word.text):
            continue  # a dash for an empty cell
        if clusters and word.x0 - clusters[-1][-1].x1 <= LABEL_GAP:
            clusters[-1].append(word)
        else:
            clusters.append([word])
    return clusters


def _top_aligned(region: Region, index: int) -> bool:
    """Whether the labels beside the row labels are set at the first line of their runs (a top-aligned
    ``\\multirow``), not centred on them: the first line of numbers of the block ``index`` is in has one."""
    first = index
    while first > 0 and _numbers_line(region.lines[first - 1]):
        first -= 1
    return len(_label_clusters(region.lines[first])) > 1


def _header(region: Region, column: str, row_line: int) -> _Header | NotCrossed:
    """The bottom level of ``column``'s header, under each of its upper levels; of the lines above the row that
    print it so, the nearest."""
    levels = levels_of(column)
    if not levels:
        return NotCrossed("the record names no column")
    chains = [bottom for index in range(row_line) for bottom in _printed(region, index, levels[-1])
              if not _a_rows_label(region, bottom) and _under_levels(region, bottom, levels[:-1])]
    if not chains:
        return NotCrossed(f"no header '{column}' above the row in {_header_text(region, row_line)}")
    nearest = max(h.line for h in chains)
    rows_between = [i for i in range(row_line) if _data(region.lines[i])]
    # a header repeated over a later block of rows heads that block; two in one header are ambiguous
    block = [h for h in chains if not any(h.line < i < nearest for i in rows_between)]
    alone = [h for h in block if not h.stacked and not _in_stack(region, h)]
    if len(block) > 1 and len(alone) == 1:
        return alone[0]  # the other is a stacked fraction's numerator or denominator ('n' of 'n+' over 'n')
    if len(block) > 1:
        shown = ", ".join(f"'{region.lines[h.line].text[:40]}'" for h in block[:4])
        return NotCrossed(f"{len(block)} headers '{column}' are printed above the row ({shown})")
    return block[0]


def _middle_y(word: Word) -> float:
    return (word.top + word.bottom) / 2


def _header_words(region: Region, near: int) -> list[tuple[int, Word]]:
    """The words of the header lines within three lines of line ``near`` (a fraction's numerator, its bar's
    denominator and a header centred beside them are three lines to one extractor, one line to another)."""
    return [(i, w) for i in range(max(0, near - 3), min(len(region.lines), near + 4))
            if not _numbers_line(region.lines[i]) for w in region.lines[i].words]


def _stacked_on(word: Word, other: Word) -> bool:
    """Whether ``other`` is set right over or under ``word`` as in a fraction: across it and no wider than it by
    much more than its own width (a spanning header over it is wider), its middle a part of a line's height to two
    heights away (a header on the line above is farther, a word of the same line nearer)."""
    reach = word.x1 - word.x0 + CELL_GAP
    if not (other.x0 < word.x1 and word.x0 < other.x1 and word.x0 - reach <= other.x0 and other.x1 <= word.x1 + reach):
        return False
    height = max(word.bottom - word.top, other.bottom - other.top)
    return STACKED * height < abs(_middle_y(other) - _middle_y(word)) < 2 * height


#: Points per point of height: a word set this much higher or lower than another across it is stacked on it
#: (a superscript on the same line is raised less than this share of the taller word's height).
STACKED = 0.25


def _in_stack(region: Region, header: _Header) -> bool:
    """Whether a header's words are one half of a stacked fraction ('n' of 'n+' over 'n'): a header word is set
    right over or under one of them."""
    line = region.lines[header.line]
    own = [w for w in line.words if header.x0 <= w.x0 and w.x1 <= header.x1]
    return any(_stacked_on(word, other) for word in own for _, other in _header_words(region, header.line)
               if other not in own)


def _fractions(region: Region, index: int, text: str) -> list[_Header]:
    """Where line ``index`` prints ``text`` as a fraction, its numerator set over a bar and its denominator
    (``\\frac{n^+}{n}``, which a record writes 'n+/n'): the denominator's word on this line, the numerator's words
    right over it (on this line or one above it, as the extractor groups them)."""
    numerator, _, denominator = text.partition("/")
    if not numerator.strip() or not denominator.strip():
        return []
    found = []
    near = _header_words(region, index)
    for under in region.lines[index].words:
        if _key(under.text) != _key(denominator):
            continue
        over = sorted(((i, w) for i, w in near if w is not under and _stacked_on(under, w)
                       and _middle_y(w) < _middle_y(under)), key=lambda iw: iw[1].x0)
        if not over or _key("".join(w.text for _, w in over)) != _key(numerator):
            continue
        words = [under, *(w for _, w in over)]
        x0, x1 = min(w.x0 for w in words), max(w.x1 for w in words)
        left = [w.x1 for _, w in near if w.x1 <= x0]
        right = [w.x0 for _, w in near if w.x0 >= x1]
        found.append(_Header(index, x0, x1, (max(left) + x0) / 2 if left else float("-inf"),
                             (x1 + min(right)) / 2 if right else float("inf"),
                             stacked=min(i for i, _ in over) < index))
    return found


def _a_rows_label(region: Region, header: _Header) -> bool:
    """Whether words read as a header are a row's label: before the first number of a line of numbers (a table
    whose columns and rows are named alike, 'CM' over a column and beside a row, reads the row's as no header)."""
    line = region.lines[header.line]
    first = next((w for w in line.words if is_value(w)), None)
    return _data(line) and first is not None and header.x1 <= first.x0


def _data(line: Line) -> bool:
    """A line of a table's body: two numbers or more."""
    return sum(is_value(w) for w in line.words) >= 2


def _header_text(region: Region, row_line: int) -> str:
    heads = [ln.text for ln in region.lines[:row_line] if not any(is_value(w) for w in ln.words)]
    return "the header lines " + ", ".join(f"'{t[:60]}'" for t in heads[:4]) if heads else "no header line"


def _spanned(line: Line, index: int, start: int, end: int) -> _Header:
    """A header's words and the span they head: their extent widened to the midpoints to the line's words beside."""
    words = line.words
    x0, x1 = words[start].x0, max(w.x1 for w in words[start:end + 1])
    lo = (words[start - 1].x1 + x0) / 2 if start else float("-inf")
    hi = (x1 + words[end + 1].x0) / 2 if end + 1 < len(words) else float("inf")
    return _Header(index, x0, x1, lo, hi)


def _under_levels(region: Region, lower: _Header, uppers: tuple[str, ...]) -> bool:
    """Whether ``lower`` is printed under each upper level in turn (innermost last), each within the span of the
    level above it."""
    if not uppers:
        return True
    top = lower.line - 1 if lower.stacked else lower.line
    for index in range(top):
        for upper in _printed(region, index, uppers[-1]):
            if upper.lo <= (lower.x0 + lower.x1) / 2 <= upper.hi and _under_levels(region, upper, uppers[:-1]):
                return True
    return False


def _printed(region: Region, index: int, text: str) -> list[_Header]:
    """Where line ``index`` prints the header ``text``: on the line, or ending there, set on two lines one over
    the other ('Number of queries' over '(Speakers)')."""
    line = region.lines[index]
    found = [_spanned(line, index, start, end) for start, end in _runs(line, text)]
    if "/" in text:
        found += _fractions(region, index, text)
    words = text.split()
    if index == 0 or len(words) < 2:
        return found
    for above in range(index - 1, max(index - 3, -1), -1):
        over = region.lines[above]
        for k in range(1, len(words)):
            for upper in (_spanned(over, above, a, b) for a, b in _runs(over, " ".join(words[:k]))):
                for lower in (_spanned(line, index, a, b) for a, b in _runs(line, " ".join(words[k:]))):
                    if (upper.lo <= (lower.x0 + lower.x1) / 2 <= upper.hi
                            and lower.lo <= (upper.x0 + upper.x1) / 2 <= lower.hi
                            and _nothing_between(region, above, index, min(upper.x0, lower.x0),
                                                 max(upper.x1, lower.x1))):
                        found.append(_Header(index, min(upper.x0, lower.x0), max(upper.x1, lower.x1),
                                             max(upper.lo, lower.lo), min(upper.hi, lower.hi), stacked=True))
    return found


def _nothing_between(region: Region, upper: int, lower: int, x0: float, x1: float) -> bool:
    """Whether no line between a header's two halves prints a word over them: a stub header set beside a two-line
    header (a multirow label centred on both lines, 'Dataset' beside 'Number of queries' over '(Speakers)')
    is given by an extractor as a line of its own between them, and the header's halves still stand one over the
    other."""
    return not any(w.x0 < x1 and w.x1 > x0 for ln in region.lines[upper + 1:lower] for w in ln.words)


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
