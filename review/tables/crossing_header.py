"""The column's header in a crossing's region: the header words of each level of the cited column path, outermost
first, each printed under the span of the level above it, a level set on two lines, a header repeated over a later
block of rows, a level printed as a fraction ('n+/n'); and the labels' keys and runs the row reading shares.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from review.pdf.words import Line, Word, squeezed
from review.tables.cell import MARKS, is_value
from review.tables.crossing_region import NotCrossed, Region
from review.tables.lines import CELL_GAP, _numbers_line
from review.tables.table import levels_of, plain_glyphs


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


def _key(text: str) -> str:
    """Text compared as printed: squeezed, marks after it and TeX's sub- and superscript signs left out (a curator
    types 'RMSE_CV' for the 'RMSE' and lowered 'CV' the page prints)."""
    return _TEX.sub("", plain_glyphs(squeezed(text))).rstrip(MARKS).lower()


_TEX = re.compile(r"[_^{}]")


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
