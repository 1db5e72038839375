"""A table as read: its columns, rows and cells, and a row or a column found by the name a record cites (header
levels joined by ' / ', the last levels enough, glyphs a source and a page set differently made alike).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from review.pdf.words import Line, Word, squeezed
from review.tables.cell import MARKS, CellText, read_cell

T = TypeVar("T")


@dataclass(frozen=True)
class Column:
    """One bottom-level column: its header levels (outermost first), its header's extent and its boundaries."""

    levels: tuple[str, ...]
    x0: float
    x1: float
    lo: float = float("-inf")
    hi: float = float("inf")

    @property
    def name(self) -> str:
        return " / ".join(self.levels)


@dataclass(frozen=True)
class Row:
    """One body line: its label (its group first, where rows are grouped), and the words after the label."""

    levels: tuple[str, ...]
    line: Line
    cells: tuple[Word, ...]
    group_page: int | None = None
    """Where the row's group label is printed, if on another page (a continued table)."""

    @property
    def name(self) -> str:
        return " / ".join(self.levels)


@dataclass(frozen=True)
class Table:
    """A table read off one page."""

    label: str
    page: int
    caption: str
    continued: bool
    header: tuple[Line, ...]
    columns: tuple[Column, ...]
    stub: Column | None
    rows: tuple[Row, ...]
    notes: tuple[str, ...]
    open_group: str | None = None
    """The group of the last rows, which a continuation on the next page carries on."""
    carried_from: int | None = None
    words: tuple[Word, ...] = field(default=(), repr=False)
    others: tuple[Row, ...] = field(default=(), repr=False)
    """The rows of the other subtables under the same caption: a row label they print too is ambiguous."""
    subcaption: str | None = None
    """The caption or title of the subtable this is, under the table's caption ('(a) Sequence models'); none where
    the caption holds one table."""

    def cell(self, row: Row, column: Column) -> CellText:
        return read_cell([w for w in row.cells if column.lo <= w.centre < column.hi])


def levels_of(name: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in name.split(" / ") if part.strip())


#: How a curator types a sub- or superscript that the page prints as smaller letters on the line ('M_N', 'x^{2}'):
#: left out when names are compared, on both sides.
_SCRIPT_MARKUP = str.maketrans("", "", "_^{}")


#: Math fonts' glyphs that print as a letter or sign a curator types otherwise, and that NFKC keeps apart: the
#: increment sign for a capital delta ('∆Acc' for 'ΔAcc'), the asterisk operator for an asterisk ('∆∗').
_LOOKALIKES = str.maketrans({"\u2206": "\u0394", "\u2217": "*"})


def plain_glyphs(text: str) -> str:
    """``text`` with math fonts' look-alike glyphs as a curator types them (``_LOOKALIKES``)."""
    return text.translate(_LOOKALIKES)


def _same(a: str, b: str) -> bool:
    """Whether two names are one printed name: compared squeezed, without trailing marks, in any case, with a
    sub- or superscript typed as markup ('M_N') the same as printed ('MN'), and a math font's look-alike glyph
    the same as the letter typed ('∆' and 'Δ')."""
    return (plain_glyphs(squeezed(a)).rstrip(MARKS).lower().translate(_SCRIPT_MARKUP)
            == plain_glyphs(squeezed(b)).rstrip(MARKS).lower().translate(_SCRIPT_MARKUP))


def matches(levels: tuple[str, ...], wanted: str, same: Callable[[str, str], bool] | None = None) -> bool:
    """Whether a header or row named ``levels`` is the one a record names ``wanted`` (its last levels may do)."""
    same = same or _same
    asked = levels_of(wanted)
    if not asked or len(asked) > len(levels):
        return same(" ".join(levels), wanted)
    return all(same(a, b) for a, b in zip(levels[-len(asked):], asked, strict=True)) or same(
        " ".join(levels), wanted)


def _same_but_hyphens(a: str, b: str) -> bool:
    """``_same``, hyphens aside: a label wrapped in a narrow column ('fine-' over 'tuning') is read with the hyphen
    at the line's end dropped (``joined_lines``: TeX sets one where it breaks a word), though TeX breaks at a
    hyphen the name prints too, and the page cannot tell which it was. Only a hyphen inside a word ('fine-tuning')
    is set aside: dashes around a name ('std----', a rule read as text) are part of what is printed."""
    return _same(_INNER_HYPHEN.sub("", a), _INNER_HYPHEN.sub("", b))


_INNER_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")


def _named(items: Iterable[T], levels: Callable[[T], tuple[str, ...]], wanted: str) -> list[T]:
    """The items named ``wanted``; where none is, those named so hyphens aside (``_same_but_hyphens``)."""
    items = list(items)
    exact = [item for item in items if matches(levels(item), wanted)]
    return exact or [item for item in items if matches(levels(item), wanted, _same_but_hyphens)]


def find_rows(table: Table, wanted: str) -> list[Row]:
    """The rows of ``table`` named ``wanted``, and, where there are any, those of its sibling subtables named so
    too (a label printed in two subtables, cited without its subcaption, is ambiguous)."""
    own = _named(table.rows, lambda row: row.levels, wanted)
    return own + _named(table.others, lambda row: row.levels, wanted) if own else own


def find_columns(table: Table, wanted: str) -> list[Column]:
    return _named(table.columns, lambda column: column.levels, wanted)
