"""The row's line in a crossing's region: a line that prints the record's label before numbers, each outer level of
the row path printed before it, over it (a group's name, a sub-table's title), beside it (a top-aligned or centred
``\\multirow`` label, a label turned a quarter) or over the stub; a label printed more than once read as the
record's ``#N``; a cited sub-table's lines kept alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from review.pdf.words import Line, Word
from review.tables.cell import is_value
from review.tables.crossing_header import _Header, _header, _key, _runs
from review.tables.crossing_region import NotCrossed, Region
from review.tables.lines import CELL_GAP, LABEL_GAP, _numbers_line
from review.tables.subtables import mark_of, names
from review.tables.table import levels_of

#: Points: two labels start at the same place (a column of labels) when their left edges are this close.
ALIGNED = 3.0


_REPEAT = re.compile(r"^(?P<label>.*\S)\s+#(?P<n>\d+)$")


@dataclass(frozen=True)
class _Label:
    """Where a row's label is printed: its line, and its first and last word on that line."""

    line: int
    start: int
    end: int


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
