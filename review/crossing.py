"""A second reading of one cited cell: where the row's line and the column's header cross.

The grid reader (``review.tables.read_tables``) reads a whole table before any cell can be looked up, and
one misread line (a header it cannot place, a row group it cannot see) leaves every cell of the table
unread. Checking one cited cell needs less: the line that prints the row's label, the span of the
column's header, and the number printed where the two cross. ``review.cells`` asks this reading only
where the grid could not read the cell, never to overrule a grid that found it.

1. **Region**: the cited caption (``find_captions``; its paragraph goes on in running text only, so a header
   centred close under it is the table's) and the lines next to it, below it or above it, in the caption's
   column of the page, up to another caption, a line of running text or a gap wider than ``REGION_GAP``. A
   block that runs up to another caption belongs to the caption set closer to it; where both are as close,
   to neither. So a value cited in the wrong table or on the wrong page is not read there.
2. **Row**: a line that prints the record's label before numbers; each outer level of the row path printed
   before the label on the line, on the nearest line of one label above (a group's name, or a sub-table's
   title over its header), or as a top-aligned ``\\multirow`` label beside the first line of its run. The
   label must be the nearest one before the column (a table set beside prints a label before each half;
   a text cell under its own header, or a check mark, between them is no label). A label printed more
   than once is read as the record's ``#N`` only where it is printed once per row. A record citing a
   sub-table ('(b)') keeps the lines under that sub-table's caption only (the nearest one above them), or
   cannot be read where none names it.
3. **Column**: the header words of each level of the column path, outermost first, each level printed
   under the span of the level above it (its words' extent widened to the midpoints to the next words of
   its line: a spanning header narrower than its columns still spans them); a level may be set on two lines
   ('Number of queries' over '(Speakers)'). A header repeated over a later block of rows heads that block.
4. **Crossing**: the row's cell under the bottom header's words (or, where none is, centred in its span),
   read by ``read_cell`` (±, spread in parentheses, marks, bold, superscripts), so that every cell claim
   reads it as it reads a grid's cell. A number after a cell's number starts a cell of its own, however
   tight; a '±' joins the numbers on both sides, however wide.

Anything matched twice, and a crossing that holds two numbers or none, is a reason (``NotCrossed``, which
``review.cells`` reports as ``Unread``), not a guess: the claim cannot be checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from registry.numbers import SIGN
from review.figures import opens_bracket, within_brackets
from review.subtables import mark_of, names
from review.tables import (
    CELL_GAP,
    LABEL_GAP,
    MARKS,
    Column,
    Row,
    Table,
    _continues,
    _numbers_line,
    _thousands,
    caption_columns,
    is_prose,
    is_value,
    levels_of,
    read_cell,
    starts_caption,
    upright,
)
from review.words import Line, PageWords, Word, squeezed

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
                regions.append(Region(caption, tuple(sorted(block, key=lambda ln: ln.top))))
    return regions


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
                    return None  # the other caption's table, or as much the other's as this one's
            break
        if is_prose(line, width) and 2 * sum(is_value(w) for w in line.words) < len(line.words):
            break  # running text (a row of numbers set close is none)
        kept.append(line)
        reach = line.bottom if step > 0 else line.top
        index += step
    return kept or None


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
    return _TEX.sub("", squeezed(text)).rstrip(MARKS).lower()


_TEX = re.compile(r"[_^{}]")
#: What joins two numbers into one cell, at a word's end or start: a '±' (however wide it is set), the dot of a
#: power of ten ('1 · 10⁴'); not '×', which tables print as a cross mark as often as a product.
_JOINER = re.compile(r"^(?:\u00b1|\+/-|\+-|\u00b7)|(?:\u00b1|\+/-|\+-|\u00b7)$")
_SPREAD = re.compile(r"^\(" + SIGN + r"?(?:\d[\d,]*(?:\.\d+)?|\.\d+)\)$")


def _runs(line: Line, wanted: str) -> list[tuple[int, int]]:
    """Every run of whole words of ``line`` that prints ``wanted`` (compared squeezed, marks after it left out)."""
    key = _key(wanted)
    words = line.words
    out = []
    for i in range(len(words)):
        text = ""
        for j in range(i, len(words)):
            text += squeezed(words[j].text)
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
    beside = next((h for h in headed if _beside_several(region, h[0])), None)
    if beside is not None:
        return NotCrossed(f"the row label '{own}' is printed beside more than one line of numbers, so which line "
                          "is the row cannot be read")
    if nth is not None:
        if len(headed) < 2 or nth > len(headed):
            return NotCrossed(f"the row label '{own}' is printed {len(headed)} time(s) under the header "
                              f"'{column}', so row '{row}' cannot be told apart")
        return headed[nth - 1]
    if len(headed) > 1:
        shown = ", ".join(f"'{region.lines[h[0].line].text[:40]}'" for h in headed[:4])
        return NotCrossed(f"{len(headed)} lines print the row label '{row}' ({shown})")
    return headed[0]


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
    between = [w for w in line.words[label.end + 1:] if w.x1 <= header.x0 and not is_value(w)
               and sum(c.isalpha() for c in w.text) > 1]
    return all(over(w.x0, w.x1) and not over(w.x0, w.x1) & stub for w in between)


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
    index = label.line
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
            outer = _label_clusters(above)[:-1]
            if not outer:
                continue  # a row of the same run
            if not _top_aligned(region, index) or _key(" ".join(w.text for c in outer for w in c)) != _key(
                    pending[-1]):
                return False
            pending.pop()
        # a header line: a sub-table's title may be printed over its header
    return True


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
              if _under_levels(region, bottom, levels[:-1])]
    if not chains:
        return NotCrossed(f"no header '{column}' above the row in {_header_text(region, row_line)}")
    nearest = max(h.line for h in chains)
    rows_between = [i for i in range(row_line) if _data(region.lines[i])]
    # a header repeated over a later block of rows heads that block; two in one header are ambiguous
    block = [h for h in chains if not any(h.line < i < nearest for i in rows_between)]
    if len(block) > 1:
        shown = ", ".join(f"'{region.lines[h.line].text[:40]}'" for h in block[:4])
        return NotCrossed(f"{len(block)} headers '{column}' are printed above the row ({shown})")
    return block[0]


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
            if upper.lo <= lower.x0 and lower.x1 <= upper.hi and _under_levels(region, upper, uppers[:-1]):
                return True
    return False


def _printed(region: Region, index: int, text: str) -> list[_Header]:
    """Where line ``index`` prints the header ``text``: on the line, or ending there, set on two lines one over
    the other ('Number of queries' over '(Speakers)')."""
    line = region.lines[index]
    found = [_spanned(line, index, start, end) for start, end in _runs(line, text)]
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
    hit = [cell for cell in cells if any(w in under for w in cell)]
    if len(hit) > 1:
        shown = ", ".join(f"'{' '.join(w.text for w in c)}'" for c in hit)
        return NotCrossed(f"where the row prints {len(hit)} cells ({shown})")
    return hit[0]


def _cells(words: list[Word]) -> list[list[Word]]:
    """A row's words in cells: words within ``CELL_GAP`` of each other, a '±' with the numbers on both sides of
    it however wide it is set ('58.96 +/- 1.8' under a header over its '1.8'), and a spread in parentheses with
    the number before it ('4.00 (0.000)'); but a number after a cell's number (and no '±' or '·' between)
    starts a cell of its own, however close ('0.779±.02 0.362±.01' set tight)."""
    cells: list[list[Word]] = []
    for word in _thousands(tuple(words)):
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
