"""Claims about table cells, captions and footnotes.

A record whose locator names a table, a row and a column (``Locator.row``/``column``; levels
joined by ' / ') is checked in the table itself (``review.tables.read``), not on the page at large:

- **table cell**: the printed value is the number in the cell where that row and that column
  meet. A value from another cell fails, naming where it is printed and what the cited cell holds:
  "0.681 is printed in row 'NT 500M', column 'Histone marks / H3K4me3'; row 'NT 2.5B' has 0.702 there".
  Bold and footnote marks ('0.702†') are read and reported, not compared. A locator's ``subtable``
  ('(b)') looks the row up in that sub-table only (``review.tables.subtables``), in the grid and in the crossing.
  A cell's first number is its value: a bracketed note or pair after it ('397 (1F)', '(14.1, .000)') is
  reported, and a record citing one of its other numbers cannot be checked (``review.tables.figures``); a cell printing
  'name = value' in a table of parameters is read under its header where grid and crossing cannot
  (``review.tables.keyvalue``);
- **uncertainty** and **unit**: in ``registry.checking.uncertainty`` and ``registry.checking.cell_units``;
- **in caption / in footnote**: a locator with ``caption: true`` must quote that table's or
  figure's caption, and one with ``footnote`` the note printed under that mark.

Each cited cell is found again through ``review.tables.cited`` (the grid, the crossing, the key-value reading).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from registry.checking.ambiguous import cells_named, none_prints
from registry.checking.claims import Assertion, Claim
from registry.checking.other_tables import in_other_table, on_other_page
from registry.numbers import SIGN, SUPERSCRIPT, TIMES, glued_unit, parse_printed
from review.pdf.matching import find_text
from review.pdf.pdftext import Extraction
from review.tables.captions import caption_texts, footnote_texts
from review.tables.cell import CellText
from review.tables.cited import Absent, CellLookup, Located, Unread, _value, same_number, tables_on
from review.tables.figures import second_figures
from review.tables.table import Column, Row

if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class CellAt(Claim, CellLookup):
    """Shared by the claims that read one cited cell."""

    page: int
    table: str
    row: str
    column: str
    subtable: str | None = field(default=None, kw_only=True)
    """The sub-table's mark the locator names ('(b)'): the row is looked up in that sub-table only
    (``review.tables.subtables``)."""


def _cannot(claim: CellAt, doc: Extraction, expected: str, spot: str, prefix: str = "") -> Assertion | None:
    """The assertion for a cell that could not be found: cannot check where it could not be read, with the witness
    of a failure (``absent``) where the cited row or column is printed nowhere in the table, or where it is one of
    another captioned table's on the page (``registry.checking.other_tables``)."""
    if isinstance(spot, Unread) and not isinstance(spot, Absent) and claim.subtable is None:
        spot = in_other_table(doc, claim.page, claim.table, claim.row, claim.column) or spot
    if isinstance(spot, Unread):
        return claim._unreadable(expected, claim.page, prefix + spot, absent=isinstance(spot, Absent))
    return None


@dataclass(frozen=True)
class TableCell(CellAt):
    """The printed value must be the number in the cell where the record's row and column meet."""

    value: str
    upper: str | None = field(default=None, kw_only=True)
    """The record's range's upper end (``range_upper``), where it files a range: the cell must print that range."""
    bound: str | None = field(default=None, kw_only=True)
    """The record's bound's sign ('<', '≤', '>', '≥'), where it files a bound: the cell must print that bound."""

    def check(self, doc: Extraction) -> Assertion:
        cited = f"{self.table} {self.subtable}" if self.subtable else self.table
        filed = (f"{self.value}\u2013{self.upper}" if self.upper else
                 f"{self.bound} {self.value}" if self.bound else self.value)
        expected = f"'{filed}' in {cited}, row '{self.row}', column '{self.column}'"
        spot = self.locate(doc)
        if isinstance(spot, str):
            if not isinstance(spot, Absent) and self.subtable is None:
                spot = on_other_page(doc, self.page, self.table, self.row, self.column, self.value) or spot
            return (self._in_none_named(doc, expected, cited) or _cannot(self, doc, expected, spot)
                    or self._result(expected, False, self.page, detail=spot))
        if spot.cell.value is not None and same_number(spot.cell.value, self.value):
            shape = self._form_verdict(expected, spot)
            return shape if shape is not None else self._passed(expected, spot)
        return self._not_the_value(doc, expected, spot, cited)

    def _in_none_named(self, doc: Extraction, expected: str, cited: str) -> Assertion | None:
        """A failure where the row and column name several cells (a name printed twice) and every one of them prints
        another number (``registry.checking.ambiguous``); None otherwise."""
        named = cells_named(doc, self.page, self.table, self.row, self.column) if self.subtable is None else []
        if not none_prints(named, self.value):
            return None
        holds = "; ".join(f"{where} has {cell.printed_value}" for where, cell in named)
        return self._result(expected, False, self.page, named[0][1].text, (
            f"{self.value} is not printed in {cited} on page {self.page} where row '{self.row}' and column "
            f"'{self.column}' can cross: they name {len(named)} cells, and none prints it ({holds})"), named[0][0])

    def _passed(self, expected: str, spot: Located) -> Assertion:
        """The cell prints the record's number: a pass, noting how it is printed (its form, an annotation, bold,
        marks, what follows it, its group printed on the page where the table begins)."""
        cell = spot.cell
        notes = [f"in {spot.where} of {self.table}"]
        if cell.form is not None and (cell.upper or cell.bound or cell.form.approximate):
            notes.append(f"printed as '{cell.form.shown}'")
        if cell.form is not None and cell.form.annotation:
            notes.append(f"with '{cell.form.annotation}' set after it, an annotation, not compared")
        if cell.bold:
            notes.append("printed in bold")
        if cell.marks:
            notes.append(f"with the mark {cell.marks}")
        after = _printed_after(cell)
        if after:
            notes.append(after)
        if spot.row.group_page is not None:
            notes.append(f"its group '{spot.row.levels[0]}' is printed on page {spot.row.group_page}, where the "
                         "table begins")
        return self._result(expected, True, self.page, cell.text, "; ".join(notes), spot.where)

    def _not_the_value(self, doc: Extraction, expected: str, spot: Located, cited: str) -> Assertion:
        """The cell prints another number or none: a fail naming where the value is printed instead (and the slip
        that explains it), or cannot check where the cell holds no number or more than one."""
        cell = spot.cell
        wanted = _value(self.value)
        if cell.upper is not None and same_number(cell.upper, self.value):
            return self._result(expected, False, self.page, cell.text, (
                f"{spot.where} of {self.table} prints the range '{cell.form.shown if cell.form else cell.text}', "
                f"whose upper end is {self.value}: file a range, printed_value {cell.printed_value!r} (its lower "
                f"end) and range_upper: {{printed_value: {cell.upper!r}}}"), spot.where)
        second = next((f for f in second_figures(cell.rest) if _value(f) == wanted), None)
        if cell.value is not None and second is not None:
            return self._unreadable(expected, self.page, (
                f"{spot.where} of {self.table} prints more than one number, '{cell.text}': {cell.printed_value}, read "
                f"as the cell's value, and {second}; the review reads a cell's first number as its value and cannot "
                "tell which one the record cites"))
        holds = cell.printed_value if cell.value is not None else (f"'{cell.text}'" if cell.text else "nothing")
        for row in spot.table.rows:
            for column in spot.table.columns:
                other = spot.table.cell(row, column)
                if other.value is not None and same_number(other.value, self.value):
                    here = f"row '{row.name}', column '{column.name}'"
                    said = f"{self.value} is printed in {here}; {self._cited(spot, row, column)} has {holds} there"
                    if cell.value is None:  # no number where the two cross: no witness of another value
                        return self._unreadable(expected, self.page, f"{said}, no number, so the cited cell may be "
                                                "read out of its place")
                    return self._result(expected, False, self.page, cell.text, said, here)
        if cell.value is None:
            return self._unreadable(expected, self.page, (
                f"{spot.where} of {self.table} holds {holds}, no number, so the value cannot be compared there (a "
                f"failure needs another number printed where the row and the column cross)"))
        slip = ""
        if cell.value is not None and _value(cell.value).lstrip("+-") == wanted.lstrip("+-"):
            slip = (f" (the same digits with {'a minus sign' if cell.value.startswith('-') else 'no minus sign'}"
                    "; a printed value keeps the sign the source prints)")
        elif _dropped_power(cell, self.value):
            slip = (f" (the same digits with a power the record drops: write printed_value {cell.printed_value!r}, "
                    "keeping the power)")
        return self._result(expected, False, self.page, cell.text,
                            f"{self.value} is not printed in {cited} on page {self.page}; {spot.where} has "
                            f"{holds}{slip}{self._in_other_subtable(doc, spot, wanted)}", spot.where)

    def _form_verdict(self, expected: str, spot: Located) -> Assertion | None:
        """Where the cell's number is the record's: a range, a bound or a value as the cell prints it against the
        record's (``registry.printed_forms``). A failure where the cell prints another shape (a range the record
        files as a point value, a bound it files as a value or flips); cannot check where the record files a range
        or a bound and the cell is read without one (its other end or sign may be set apart); None where they
        agree."""
        cell = spot.cell
        shown = cell.form.shown if cell.form is not None else cell.text
        where = f"{spot.where} of {self.table}"
        if (cell.upper and self.upper is None and cell.form is not None and cell.form.paired
                and _PAIR_HEADER.search(spot.column.name)):
            return None  # a pair of figures its header names ('(t-value, p-value)'): the first is the value
        if cell.upper and self.upper is None and cell.form is not None and cell.form.paired:
            return self._unreadable(expected, self.page, (
                f"{where} prints '{cell.text}', an interval or a pair of figures (as under '(t-value, p-value)'); "
                f"whether the record's point value {self.value} is the cell's value cannot be told there: where the "
                f"cell prints an interval, file it as a range, with range_upper: {{printed_value: {cell.upper!r}}}"))
        if cell.upper and self.upper is None:
            return self._result(expected, False, self.page, cell.text, (
                f"{where} prints the range '{shown}'; the record files its lower end {self.value} as a point value: "
                f"file the range, with range_upper: {{printed_value: {cell.upper!r}}}"), spot.where)
        if cell.upper and self.upper is not None and not same_number(cell.upper, self.upper):
            return self._result(expected, False, self.page, cell.text, (
                f"{where} prints the range '{shown}', whose upper end is {cell.upper}, not the record's "
                f"{self.upper}"), spot.where)
        if self.upper is not None and not cell.upper:
            return self._unreadable(expected, self.page, (
                f"{where} is read as '{cell.text}', no range, so the record's upper end {self.upper} cannot be "
                "compared there"))
        if cell.bound and cell.bound != self.bound:
            said = (f"the record files {self.value} as a value: file the bound, with bound: '{cell.bound}'"
                    if self.bound is None else f"a bound '{cell.bound}', not the record's '{self.bound}'")
            return self._result(expected, False, self.page, cell.text, f"{where} prints '{shown}', {said}",
                                spot.where)
        if self.bound is not None and not cell.bound:
            return self._unreadable(expected, self.page, (
                f"{where} is read as '{cell.text}', with no bound's sign, so the record's bound '{self.bound}' "
                "cannot be compared there"))
        return None

    def _in_other_subtable(self, doc: Extraction, spot: Located, wanted: str) -> str:
        """Where another sub-table under the caption prints the value, for a value cited in the wrong one."""
        if self.subtable is None or spot.crossed:
            return ""
        for table in tables_on(doc, self.page, self.table):
            if table.subcaption is None or table.subcaption == spot.table.subcaption:
                continue
            for row in table.rows:
                for column in table.columns:
                    other = table.cell(row, column)
                    if other.value is not None and same_number(other.value, self.value):
                        return (f"; it is printed in another sub-table, row '{row.name}', column '{column.name}': "
                                "correct the locator's subtable")
        return ""

    @staticmethod
    def _cited(spot: Located, row: Row, column: Column) -> str:
        if column == spot.column:
            return f"row '{spot.row.name}'"
        if row == spot.row:
            return f"column '{spot.column.name}'"
        return spot.where


#: A header naming the two figures its cells print in brackets: '(t-value, p-value)', '(mean, sd)'.
_PAIR_HEADER = re.compile(r"\(\s*[^\W\d][^,()]*,\s*[^\W\d][^,()]*\)")


def _printed_after(cell: CellText) -> str:
    """What a cell prints after its value, for a passing claim's note: a unit set against the number ('88s', checked
    by the unit's claim) or a bracketed note ('397 (1F)'), reported, never compared."""
    glued = _glued(cell)
    if glued:
        return f"with the unit '{glued}' set against it"
    shaped = cell.form is not None and (cell.upper or cell.form.annotation)  # its figures named already
    if not second_figures(cell.form.rest if shaped and cell.form is not None else cell.rest):
        return ""
    return f"the cell prints '{cell.text}', its first number the value, the figures after it not compared"


def _glued(cell: CellText) -> str:
    """The letters a cell's number is printed with, set against it ('s' of '88s'), if any."""
    first = next((w for w in cell.text.split() if any(c.isdigit() for c in w)), "")
    found = glued_unit(first)
    return found[1] if found else ""


def _dropped_power(cell: CellText, filed: str) -> bool:
    """Whether a cell prints the record's number with a power of ten or an exponent after it ('3.2×10−⁴', '2^-6',
    '-0.04 e-2' for '3.2', '2', '-0.04'): the slip that files a value the power times off."""
    printed = cell.printed_value or ""
    mantissa = re.match(rf"\S+?(?=\s?[{TIMES}^]|\s?e{SIGN}|[\u207b\u207a{SUPERSCRIPT}])", printed)
    return (mantissa is not None and parse_printed(printed) is not None and same_number(mantissa.group(0), filed))


@dataclass(frozen=True)
class InPlace(Claim):
    """A quote must be printed in the caption of its table or figure, or in the note under its mark."""

    page: int
    quote: str
    label: str | None = None
    mark: str | None = None

    def check(self, doc: Extraction) -> Assertion:
        where = f"note {self.mark}" if self.mark else f"caption of {self.label}"
        expected = f"'{self.quote}' in the {where}"
        words = doc.page_words(self.page)
        if words is None:
            detail = (self._missing_page(doc, self.page) if doc.page(self.page) is None else
                      f"{doc.extractor} gives no positioned words, so the {where} cannot be read")
            return self._result(expected, False, self.page, detail=detail)
        texts = footnote_texts(words, self.mark) if self.mark else caption_texts(words, self.label or "")
        for text in texts:
            match = find_text(text, self.quote)
            if match is not None:
                return self._result(expected, True, self.page, match.shown, f"in the {where} on page {self.page}")
        if not texts:
            return self._result(expected, False, self.page, detail=f"no {where} on page {self.page}")
        return self._result(expected, False, self.page, texts[0][:160].replace("\n", " "),
                            f"the {where} on page {self.page} does not print the quote")
