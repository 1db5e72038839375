"""What a line of a page is to the table reader: running text (``is_prose``), a caption (``starts_caption``), a
line of numbers, a row of units or ordinals, a heading in larger letters; its words clustered at the gaps between
cells (``_clusters``, ``_label_clusters``), thousands set apart by a thin space joined, and two lines of one label
or header joined (``joined_lines``).
"""

from __future__ import annotations

import re

from registry.numbers import FIGURES, SIGN, glued_unit
from review.pdf.words import Line, Word, squeezed
from review.tables.cell import MARKS, is_value
from review.tables.figures import note_words

#: A horizontal gap (points) wider than this separates header cells (an interword space is 2-3.5 points).
CELL_GAP = 4.2


def _larger(line: Line, words: tuple[Word, ...] | list[Word]) -> bool:
    """Whether a line of one label is set in larger letters (``LARGER``) than ``words``: a heading."""
    if len(_label_clusters(line.words)) != 1 or _numbers_line(line) or not words:
        return False
    size = sorted(w.height for w in line.words)[len(line.words) // 2]
    return size > LARGER * sorted(w.height for w in words)[len(words) // 2]


#: A gap (points) between words wider than this is no space of running text, even justified.
PROSE_GAP = 8.0


def is_prose(line: Line, width: float) -> bool:
    """Whether a line is running text: at least six words, no wide gap between them, fewer than half of them
    numbers, and nearly as wide as the text column (``width``), which a table's line spanning the column is not
    without gaps between its cells (a row of numbers set as close as words, 8 points apart, is no prose)."""
    words = line.words
    if len(words) < 6 or width <= 0 or line.x1 - line.x0 < 0.8 * width:
        return False
    return 2 * sum(1 for w in words if is_value(w)) < len(words) and _running(line)


_ANY_CAPTION = re.compile(r"^(?:table|figure|fig\.|tab\.)\S*?[:.|]", re.IGNORECASE)


def starts_caption(line: Line) -> bool:
    """Whether a line starts some table's or figure's caption ('Figure 1:', 'Table 2.')."""
    return bool(_ANY_CAPTION.match("".join(squeezed(w.text) for w in line.words[:3])))


#: A table's label set alone on its line, its caption's text on the lines under it ('TABLE II', as IEEEtran sets
#: it).
_LABEL_ALONE = re.compile(r"^(?:table|tab\.)(?:[A-Z]?\d+(?:\.\d+)*[a-z]?|[IVXLC]+)[:.|]?$", re.IGNORECASE)


def label_alone(line: Line) -> bool:
    """Whether a line is a table's label and nothing else ('TABLE II'): the first line of a caption set in two
    parts, the label centred over the caption's text."""
    return bool(_LABEL_ALONE.match("".join(squeezed(w.text) for w in line.words)))


def captioned_above(lines: list[Line], first: Line) -> bool:
    """Whether the paragraph set just above ``first`` (the top line of a block over a caption) is another caption:
    a table whose caption stands above it (IEEE's style, and any ``\\caption`` typed before its tabular) is that
    caption's, not the one under it. The paragraph is the lines set at a caption's line spacing going up from
    ``first``: one that starts a caption ('Table 1:') or holds a label alone ('TABLE I') makes it one."""
    above = [ln for ln in lines if ln.bottom <= first.top + 0.5]
    reach = first.top
    for line in sorted(above, key=lambda ln: -ln.bottom)[:4]:
        if reach - line.bottom > 3 * line.height:  # the skip between a caption and its table
            return False
        if starts_caption(line) or label_alone(line):
            return True
        reach = line.top
    return False


def _clusters(line: Line) -> list[list[Word]]:
    clusters: list[list[Word]] = []
    for word in line.words:
        if clusters and word.x0 - clusters[-1][-1].x1 <= _join_gap(clusters[-1][-1], word):
            clusters[-1].append(word)
        else:
            clusters.append([word])
    return clusters


#: Relation signs, which math mode sets with a thick space on each side ('H1: b. > a.', 'S = 96').
RELATIONS = frozenset("<>=\u2264\u2265\u2248\u223c\u2260\u2192")


def _join_gap(left: Word, right: Word) -> float:
    """The widest gap at which two words of a line are one cell: an interword space (``CELL_GAP``), or on either
    side of a relation sign set alone, TeX's thick math space (up to ``LABEL_GAP``): no cell starts or ends with a
    relation, so a '>' set apart is never where a header or a cell ends."""
    if left.text in RELATIONS or right.text in RELATIONS:
        return LABEL_GAP
    return CELL_GAP


def _text(words: list[Word]) -> str:
    return " ".join(w.text for w in words)


#: A title is set in letters at least this much taller than the table's own.
LARGER = 1.25


def _heading(line: Line, rest: list[Line], left_edge: float) -> bool:
    """Whether a table's first line is a heading over it, not a header: one label, no number, from the table's
    left edge, in larger letters than every line after it (a document's heading set between the caption and the
    table, as a web page or a word processor sets one over each of several tables under one caption). It titles
    the table's rows, as a subcaption does."""
    if len(_label_clusters(line.words)) != 1 or _numbers_line(line) or line.x0 > left_edge + 3:
        return False
    size = sorted(w.height for w in line.words)[len(line.words) // 2]
    return all(size > LARGER * sorted(w.height for w in ln.words)[len(ln.words) // 2] for ln in rest)


_BRACKETED = re.compile(rf"^[(\[]?{SIGN}?{FIGURES}%?[)\],;]*$")


def _numbers_line(line: Line) -> bool:
    """Whether a line is a row of numbers: after its label (the words before its first number), at least half
    its words are numbers (bracketed ones too: '(85.5)', '[0.61,'), and some cell (words within ``LABEL_GAP``,
    as wide as an interword space of a large font gets) prints a number (``_number_cell``). A header that holds
    a number ('SD γ = 0.90' among names of columns), or whose every number is part of a name in its cell ('Case 1
    Case 2  Case 3', '95% CI'), is not one."""
    words = line.words
    first = next((i for i, w in enumerate(words) if is_value(w)), None)
    if first is None or not any(_number_cell(cell) for cell in _label_clusters(words)):
        return False  # every number is part of a name in its cell ('Case 1', '95% CI'): a header
    rest = _without_notes(words[first:])
    return 2 * sum(1 for w in rest if is_value(w) or _BRACKETED.match(squeezed(w.text))) >= len(rest)


#: Column numbers counted this far (1, 2, 3) name columns.
ORDINALS = 3


def _ordinals(line: Line) -> bool:
    """Whether a line's numbers count columns, 1, 2, 3 ... (at least ``ORDINALS`` of them, each one more than the
    one before): a header that names columns by their number (a run, a month, a fold), not a row of values."""
    numbers = [w.text for w in line.words if is_value(w)]
    return len(numbers) >= ORDINALS and all(t.isdigit() for t in numbers) and [int(t) for t in numbers] == list(
        range(int(numbers[0]), int(numbers[0]) + len(numbers))) and int(numbers[0]) in (0, 1)


def _without_notes(words: tuple[Word, ...]) -> list[Word]:
    """A row's words less those of a bracketed note after a number ('397 (1F)', '725 (5M, 2F; 32 mins)'): the note
    is part of its value's cell (``review.tables.figures``), no word of a name."""
    notes = note_words([w.text for w in words])
    return [w for k, w in enumerate(words) if k not in notes]


def _number_cell(cell: tuple[Word, ...]) -> bool:
    """Whether a cell's words print a number, not a name holding one: it starts with a
    number that no word goes on from ('71.2 ± 0.8', '1 · 10⁴'; not 'Case 1', '95% CI')."""
    return is_value(cell[0]) and not (len(cell) > 1 and cell[1].text[:1].isalpha())


def _unit_row(line: Line) -> bool:
    """Whether a body line is a row whose cells print numbers with a unit set against them ('Solve time 24s 40s
    28s', 'cutoff 10m 20m'): after its label, two or more words, every one a number with letters glued on
    (``registry.numbers.glued_unit``), a dash for an empty cell aside. It holds no value word as ``is_value`` reads
    one, yet it is no row group's label nor a note, which print names. Such a line never starts a body: a header
    may name its columns so ('20m', '5k')."""
    words = line.words
    first = next((i for i, w in enumerate(words) if glued_unit(w.text) is not None), None)
    if first is None or first == 0:
        return False
    rest = [w for w in words[first:] if any(c.isalnum() for c in w.text)]  # a dash for an empty cell is no name
    return len(rest) >= 2 and all(glued_unit(w.text) is not None for w in rest)


#: A gap (points) narrower than this between digit groups is a thin space inside one number ('45 000').
THIN_SPACE = 3.0


_LEAD_GROUP = re.compile(rf"^{SIGN}?\d{{1,3}}$")


_GROUP = re.compile(r"^\d{3}(?:[.,]\d+)?[%" + re.escape(MARKS) + r"]*$")


def _thousands(words: tuple[Word, ...]) -> tuple[Word, ...]:
    """A row's words with numbers whose thousands are set apart by a thin space ('45 000', '453 291') joined into
    one word, so that the groups are read as one value in one cell."""
    out: list[Word] = []
    for word in words:
        last = out[-1] if out else None
        if (last is not None and _GROUP.match(word.text) and word.x0 - last.x1 < THIN_SPACE
                and (_LEAD_GROUP.match(last.text) or re.match(rf"^{SIGN}?\d{{1,3}}(?: \d{{3}})+$", last.text))):
            out[-1] = Word(f"{last.text} {word.text}", last.x0, min(last.top, word.top), word.x1,
                           max(last.bottom, word.bottom), last.bold and word.bold)
        else:
            out.append(word)
    return tuple(out)


def _running(line: Line) -> bool:
    """Whether a line's words run on without a gap between cells (a note, not a row that starts with '#')."""
    words = line.words
    return all(b.x0 - a.x1 <= PROSE_GAP for a, b in zip(words, words[1:], strict=False))


def _label_end(words: tuple[Word, ...], data_lo: float) -> int:
    """How many of a row's first words are its label: those left of the first data column (a label word that
    is no number may run on past the column's header start). A number set close to words that reach over the
    first column is that column's cell, wider than its header ('1 · 10⁴' under '|D|')."""
    n = 0
    while n < len(words) and (words[n].x1 <= data_lo or not is_value(words[n]) and words[n].x0 < data_lo - 2):
        if is_value(words[n]) and _cell_end(words, n) > data_lo:
            break
        n += 1
    return n


def _cell_end(words: tuple[Word, ...], start: int) -> float:
    """Where the cell a row's word starts ends: the words after it set within ``CELL_GAP`` are the same cell."""
    end = start
    while end + 1 < len(words) and words[end + 1].x0 - words[end].x1 <= CELL_GAP:
        end += 1
    return words[end].x1


#: A gap (points) wider than this between a row's label words separates label columns (an interword space is
#: 2-3.5 points).
LABEL_GAP = 7.0


def _label_clusters(words: tuple[Word, ...]) -> list[tuple[Word, ...]]:
    clusters: list[list[Word]] = []
    for word in words:
        if clusters and word.x0 - clusters[-1][-1].x1 <= LABEL_GAP:
            clusters[-1].append(word)
        else:
            clusters.append([word])
    return [tuple(c) for c in clusters]


def _middle(words: tuple[Word, ...] | list[Word]) -> float:
    """The height of words' middle: a row's height is its values', not that of a multirow label its line took in."""
    return (min(w.top for w in words) + max(w.bottom for w in words)) / 2


def _merged(spans: list[list[float]]) -> list[list[float]]:
    merged: list[list[float]] = []
    for a, b in sorted(spans):
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return merged


def joined_lines(upper: str, lower: str) -> str:
    """A header's text set on two lines, read as one: a hyphen at the line's end before a lower-case letter is a
    word broken there ('Non High-' 'light-based'); another hyphen at either side joins without a space
    ('Model-' 'B/16')."""
    if upper.endswith("-") and lower[:1].islower():
        return upper[:-1] + lower
    if upper.endswith("-") or lower.startswith("-"):
        return upper + lower
    return f"{upper} {lower}"
