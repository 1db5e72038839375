"""The figures a table cell prints besides its value: a note in brackets after it, a pair in brackets.

A cell may print more than one number: a value and a bracketed note about it (a count, a rank, who or how long:
'397 (1F)', '725 (5M, 2F; 32 mins)'), or a bracketed pair whose first member is the column's value ('(14.1, .000)'
under '(t-value, p-value)'). Typesetting keeps a bracket opened in a cell inside that cell, so the words up to the
closing bracket are the cell's, however far apart they are set, and a number inside the bracket is no cell of its
own. A spread in parentheses ('0.612 (0.383)') and an interval ('[0.61, 0.67]') are read as ± and interval by
``review.tables.cell.read_cell``, not here.

The review reads a cell's first number as its value; the others are reported, never compared silently: a record
citing one of them cannot be checked (``second_figures``), since the page does not say which one a record means.
"""

from __future__ import annotations

import re

from registry.numbers import FIGURES, SIGN

_OPENING, _CLOSING = "([", ")]"
_FIGURE = re.compile(rf"(?<![\w.]){SIGN}?{FIGURES}")


def depth(text: str) -> int:
    """How many brackets ``text`` leaves open (negative where it closes more than it opens)."""
    return sum(1 for c in text if c in _OPENING) - sum(1 for c in text if c in _CLOSING)


def opens_bracket(texts: list[str]) -> bool:
    """Whether a cell's words so far leave a bracket open ('397', '(1F;'): the words up to its closing one are the
    cell's, a number among them included ('16 mins)')."""
    return depth("".join(texts)) > 0


def note_words(texts: list[str]) -> set[int]:
    """The indices of the words of a row that print a bracketed note after a number ('(1F)' after '397', or
    '(1F;' '16' 'mins)'): words that are part of a cell's value, not cells of their own. A bracket that holds one
    number alone ('(0.383)', a spread) is no note: it is read as the value's spread."""
    notes: set[int] = set()
    i = 0
    while i < len(texts):
        text = texts[i]
        if i > 0 and text[:1] in _OPENING and _FIGURE.search(texts[i - 1]) and not _FIGURE.fullmatch(text[1:-1]):
            end, open_ = i, depth(text)
            while open_ > 0 and end + 1 < len(texts):
                end += 1
                open_ += depth(texts[end])
            if open_ <= 0:
                notes.update(range(i, end + 1))
                i = end + 1
                continue
        i += 1
    return notes


def second_figures(rest: str) -> list[str]:
    """The numbers a cell prints after its value (``CellText.rest``), as printed: the figures of a bracketed
    note or of the second member of a pair ('1' of '(1F)', '.000' of ', .000)')."""
    return _FIGURE.findall(rest)


def within_brackets(rest: str, opened_before: bool) -> bool:
    """Whether every number in the rest of a cell lies inside a bracket the cell opened: a note after the value
    ('(1F; 16 mins)') or the value's own bracket ('(14.1, .000)', ``opened_before``), so that the cell is one cell
    printing a value and figures about it, not two cells read as one."""
    level = 1 if opened_before else 0
    for c in rest:
        if c in _OPENING:
            level += 1
        elif c in _CLOSING:
            level -= 1
        elif c.isdigit() and level <= 0:
            return False
    return True
