"""The region a crossing is read in: the lines of one cited table's block beside its caption, in the caption's column
of the page, up to another caption, a line of running text or a wide gap; a block that runs up to another caption
belongs to the caption set closer to it (``table_regions``). And why a crossing cannot be read (``NotCrossed``).
"""

from __future__ import annotations

from dataclasses import dataclass

from review.pdf.words import Line, PageWords, Word
from review.tables.captions import _continues, caption_columns, upright
from review.tables.cell import is_value
from review.tables.lines import _numbers_line, captioned_above, is_prose, label_alone, starts_caption

#: A vertical gap (points) wider than this ends a table's region: sub-tables stacked under one caption are set
#: closer, the running head or a float above or below is set farther.
REGION_GAP = 36.0


class NotCrossed(str):
    """Why the crossing could not be read, naming what was read instead."""


@dataclass(frozen=True)
class Region:
    """The lines of one cited table's block beside its caption, top to bottom."""

    caption: str
    lines: tuple[Line, ...]
    rotated: tuple[Word, ...] = ()
    """The words turned a quarter beside the lines (a ``\\rotatebox`` group label), which belong to no line."""


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
        below = _side(lines, end + 1, 1, lines[end].bottom, width)
        above = _side(lines, at - 1, -1, lines[at].top, width)
        if below is not None and above is not None and captioned_above(lines, min(above, key=lambda ln: ln.top)):
            above = None  # a table under another caption, this one's table under it: the other's
        for block in (below, above):
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
    two columns of text: 'tasks and Table 5: Results ...'), or is a table's label alone ('TABLE I' over its
    caption's text, as IEEEtran sets it)."""
    words = line.words
    return label_alone(line) or any(starts_caption(Line(words[j:])) for j in range(len(words))
               if j == 0 or words[j].x0 - words[j - 1].x1 >= _GUTTER)


#: A gap (points) at least this wide between two words of a line is the gutter between two columns of the page.
_GUTTER = 8.0


def _running_on(line: Line) -> bool:
    """Whether a line's words run on as text does, with no gap between cells."""
    return all(b.x0 - a.x1 < _GUTTER for a, b in zip(line.words, line.words[1:], strict=False))
