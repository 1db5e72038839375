"""A table's block of lines: the caption's paragraph and the lines next to it, below or above, up to a gap, running
text or another caption (``_block``); headings in larger letters and sub-tables under one caption (``(a) ...``,
centred titles over one repeated header) each read as a table of its own.
"""

from __future__ import annotations

import re
from dataclasses import replace

from review.pdf.words import Line, Word, squeezed
from review.tables.cell import is_value
from review.tables.lines import _label_clusters, _larger, _number_cell, _numbers_line, is_prose, starts_caption
from review.tables.table import Table

#: A vertical gap (points) wider than this ends a table: rules and spacing inside tables stay under it.
GAP = 12.5


def _headings(lines: list[Line]) -> list[int]:
    """The lines of a block that are headings over the tables under them: one label in larger letters than the
    block's other lines (``_larger``), a line of numbers after it."""
    words = [w for ln in lines for w in ln.words]
    return [i for i, ln in enumerate(lines[:-1]) if _larger(ln, words) and any(
        _numbers_line(after) for after in lines[i + 1:])]


def _siblings(tables: list[Table]) -> list[Table]:
    """Subtables under one caption, each knowing the others' rows (``Table.others``), so that a row label printed
    in several of them is found ambiguous rather than looked up in the first."""
    if len(tables) < 2:
        return tables
    return [replace(t, others=tuple(r for o in tables if o is not t for r in o.rows)) for t in tables]


def _title(line: Line, lines: list[Line]) -> bool:
    """Whether a line is a subtable's title ('AUC', 'TPR@K = 10'): one cell that is no number, centred on the
    block's ``lines`` (stacked subtables, each under its title and its own header)."""
    cells = _label_clusters(line.words)
    if len(cells) != 1 or _number_cell(cells[0]) or len(lines) < 2:
        return False
    left, right = min(ln.x0 for ln in lines), max(ln.x1 for ln in lines)
    return abs((line.x0 + line.x1) - (left + right)) / 2 < max(3.0, 0.03 * (right - left)) and (
        line.x1 - line.x0 < 0.5 * (right - left))


#: A sub-table's mark, without its parentheses: a letter or a roman numeral ('b' of '(b)', 'iv' of '(iv)'); read
#: from a locator's ``subtable`` by ``review.tables.subtables``.
SUBTABLE_MARK = r"(?:[a-z]|[ivx]+)"


_SUBCAPTION = re.compile(rf"^\({SUBTABLE_MARK}\)\S", re.IGNORECASE)


def _is_subcaption(line: Line) -> bool:
    """Whether a line is a subtable's caption ('(a) Sequence models'): one cell, no number, starting with a
    subfigure's letter or numeral in parentheses."""
    return (len(_label_clusters(line.words)) == 1 and not any(is_value(w) for w in line.words)
            and bool(_SUBCAPTION.match("".join(squeezed(w.text) for w in line.words[:2]))))


def _titled(lines: list[Line]) -> list[int]:
    """The lines that title stacked subtables: two or more titles (``_title``), each over the same header line
    (the header each subtable repeats); none where the block is one table."""
    found = [i for i, line in enumerate(lines[:-1]) if _title(line, lines) and not _numbers_line(lines[i + 1])]
    heads = {squeezed(lines[i + 1].text) for i in found}
    return found if len(found) >= 2 and len(heads) == 1 else []


def _subtables(lines: list[Line]) -> list[tuple[list[Line], str | None]]:
    """A block's subtables, each with its caption ('(a) Sequence models'), or the whole block with none.
    Subtables under one caption (``subcaption``, ``subfloat``) set their own header and columns under their
    own captions: each is read as a table of its own, its caption the group of its rows; lines over the first
    subcaption (a header the subtables share) head each of them."""
    starts = [i for i, line in enumerate(lines) if _is_subcaption(line)]
    if not starts:
        starts = _titled(lines)
    if not starts:
        return [(lines, None)]
    shared = lines[:starts[0]]
    return [(shared + lines[i + 1:end], lines[i].text) for i, end in zip(starts, [*starts[1:], len(lines)],
                                                                          strict=True)
            if end > i + 1]


def _block(lines: list[Line], rotated: list[Word], edge: float, *, down: bool, width: float = 0.0
           ) -> tuple[list[Line], list[Word], bool] | None:
    """The lines and rotated words next to the caption (below it, or above it going up) up to a wide gap or a
    line of running text.

    The gap allowed is ``GAP``, or 2.2 line heights before a line of two numbers or more (rows set wide
    apart); between the header and the first line of numbers (a line of no number and a
    line of numbers, in either order), three line heights: the space around the rule there grows with the
    font. A line of running text (``is_prose``, as wide as the text column) ends the block whatever the gap.
    The flag says whether the block ran up to another caption (tables stacked on a page: the block may be that
    caption's table)."""
    spans: list[tuple[float, float, Line | Word]] = [(ln.top, ln.bottom, ln) for ln in lines]
    spans += [(w.top, w.bottom, w) for w in rotated if (w.top >= edge if down else w.bottom <= edge)]
    spans.sort(key=lambda s: s[0] if down else -s[1])
    kept: list[Line | Word] = []
    reach: float | None = None
    paces = _paces([item for _, _, item in spans], 1 if down else 2)
    spacing = 0.0  # the widest gap kept between two lines of numbers
    numbers = False  # whether the block holds a line of numbers yet
    previous = False  # whether the line kept last holds numbers
    bounded = False
    for index, (top, bottom, item) in enumerate(spans):
        if down and top < edge - 0.5 or not down and bottom > edge + 0.5:
            continue
        if isinstance(item, Line) and (starts_caption(item) or is_prose(item, width)):
            bounded = starts_caption(item) and (reach is None or (top - reach if down else reach - bottom) <= 80)
            break
        if reach is None:
            if (top - edge if down else edge - bottom) > 80:
                return None  # nothing close to the caption on this side
        else:
            valued = isinstance(item, Line) and any(is_value(w) for w in item.words)
            rule = numbers != valued if down else (previous and not valued)
            lines_kept = [k for k in kept if isinstance(k, Line)]
            if numbers and lines_kept and (isinstance(item, Line) and _title(item, lines_kept)
                                           or isinstance(kept[-1], Line) and _title(kept[-1], lines_kept)):
                rule = True  # a subtable's title, set apart from the subtables around it as a header is
            row = isinstance(item, Line) and sum(is_value(w) for w in item.words) >= 2
            allowed = max(GAP, 3 * (bottom - top)) if rule else max(GAP, 2.2 * (bottom - top)) if row else GAP
            gap = top - reach if down else reach - bottom
            valued_line = isinstance(item, Line) and any(is_value(w) for w in item.words)
            if gap > max(allowed, paces[index], spacing if valued_line else 0.0):
                break
            if valued_line and previous:
                spacing = max(spacing, gap)  # rows already kept this far apart: the table's own spacing
        previous = isinstance(item, Line) and any(is_value(w) for w in item.words)
        numbers = numbers or previous
        kept.append(item)
        reach = bottom if reach is None else (max(reach, bottom) if down else min(reach, top))
        if reach is not None and not down:
            reach = min(reach, top)
    if not kept:
        return None
    block_lines = sorted((k for k in kept if isinstance(k, Line)), key=lambda ln: ln.top)
    return block_lines, [k for k in kept if isinstance(k, Word)], bounded


#: Rows of numbers set at one pitch, this many in a row, are a table's body whatever the pitch.
PACED_ROWS = 3


def _paces(items: list[Line | Word], values: int = 2) -> list[float]:
    """For each item of a block's lines (in reading order away from the caption): the pitch of the run of
    ``PACED_ROWS`` rows of numbers it leads up to or lies in, where they are set at one pitch (within a tenth),
    else 0. A
    table drawn with cell padding (a word processor's, a web page's) sets its rows farther apart than ``GAP``, and
    its header and titles as far from them: a gap no wider than the pitch of the rows that follow it is inside the
    table. A row is a line of ``values`` numbers or more: under a caption, one (a table of one column of numbers,
    as word processors set it under its caption); over one, two (a figure's axis prints one number a line)."""
    rows: list[tuple[int, float]] = []
    for i, item in enumerate(items):
        if isinstance(item, Line) and sum(is_value(w) for w in item.words) >= values and _numbers_line(item):
            if rows and abs(item.top - rows[-1][1]) < item.height:
                continue  # a line of the same row (a label's number under its values, '133' of 'Neuron 133')
            rows.append((i, item.top))
    paces = [0.0] * len(items)
    for k in range(len(rows) - PACED_ROWS + 1):
        tops = [top for _, top in rows[k:k + PACED_ROWS]]
        steps = [abs(b - a) for a, b in zip(tops, tops[1:], strict=False)]
        if max(steps) <= 1.1 * min(steps):
            start = rows[k - 1][0] + 1 if k else 0
            for i in range(start, rows[k + PACED_ROWS - 1][0] + 1):
                paces[i] = max(paces[i], min(steps))
    return paces
