"""Claims about table cells, uncertainties, units in headers, captions and footnotes.

A record whose locator names a table, a row and a column (``Locator.row``/``column``; levels
joined by ' / ') is checked in the table itself (``review.tables``), not on the page at large:

- **table cell**: the printed value is the number in the cell where that row and that column
  meet. A value from another cell fails, naming where it is printed and what the cited cell holds:
  "0.681 is printed in row 'NT 500M', column 'Histone marks / H3K4me3'; row 'NT 2.5B' has 0.702 there".
  Bold and footnote marks ('0.702†') are read and reported, not compared. A locator's ``subtable``
  ('(b)') looks the row up in that sub-table only (``review.subtables``), in the grid and in the crossing.
  A cell's first number is its value: a bracketed note or pair after it ('397 (1F)', '(14.1, .000)') is
  reported, and a record citing one of its other numbers cannot be checked (``review.figures``); a cell printing
  'name = value' in a table of parameters is read under its header where grid and crossing cannot
  (``review.keyvalue``);
- **uncertainty**: the ± value or interval printed with the value equals the record's (in the cell,
  or right after the value in the quoted text), and the words the header, the row label, the caption,
  a table note or the sentence use ('s.d.', 'standard error', '95% CI') name the record's kind (and
  its level, and the number of folds or seeds where the record gives one): the nearest that names
  a kind decides, and it must name that one alone;
- **unit**: the unit printed in the cell, the column header ('Throughput (Sequences/s)') or the row
  label ('Max. input length (tokens)'), the first of them that prints one, else in the caption, a table
  note or the sentence the locator quotes; a unit set after a number there ('Mix 50%', '95% CI') is that
  number's, not the column's. A count or a dimensionless score must find none in the first three; a unit
  set against the cell's number ('88s') is the cell's, and one the table of units does not read ('10m')
  cannot be checked. Another unit printed there fails; none printed anywhere is 'unit not printed';
- **in caption / in footnote**: a locator with ``caption: true`` must quote that table's or
  figure's caption, and one with ``footnote`` the note printed under that mark.

Tables are read once per page and label, and cached per extraction.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from registry.models.uncertainty_kinds import REPEAT_WORDS, kind_words, kinds_in
from registry.models.values import UncertaintyKind
from registry.numbers import SIGN, SUPERSCRIPT, TIMES, glued_unit, parse_printed
from registry.units import UnitTable
from registry.units import table as unit_table
from review import subtables
from review.claims import Assertion, Citation, Claim, declared_unit, is_cell, unit_symbols
from review.figures import second_figures
from review.pdftext import Extraction, find_text, normalize, normalize_quote, number_pattern, unit_pattern
from review.tables import (
    CellText,
    Column,
    Row,
    Table,
    caption_texts,
    continued_tables,
    find_captions,
    find_columns,
    find_rows,
    footnote_texts,
    label_at_line_start,
    plain_glyphs,
    read_tables,
    runs_to_foot,
    upright,
)
from review.tagged import continued_tagged, read_tagged
from review.words import squeezed

if TYPE_CHECKING:
    from registry.models import Result
    from registry.models.values import Uncertainty
    from registry.store.loader import Registry

#: The words papers use for each kind of uncertainty, and for what it is taken over (declared once, in
#: ``registry.models.uncertainty_kinds``; ``kinds_in`` reads the kinds' words longest first).
KIND_WORDS = kind_words()
OVER_WORDS: dict[str, tuple[str, ...]] = {repeats.value: words for repeats, words in REPEAT_WORDS.items()}

@dataclass
class _Read:
    """What has been read of one extraction: its tables per page and label, and its cells per locator (a cell is
    cited by its value's, its uncertainty's and its unit's claims alike)."""

    doc: Extraction
    tables: dict[tuple[int, str], list[Table]] = field(default_factory=dict)
    spots: dict[tuple[int, str, str, str, str | None], Located | str] = field(default_factory=dict)
    missing: dict[tuple[int, str], Unread] = field(default_factory=dict)
    """Why a page holds no reading of a table, per page and label (``CellAt._no_table``)."""


_CACHE: dict[int, _Read] = {}
#: The readings of a cited cell, tried in turn: the whole grid, then (where it cannot read the cell) the crossing of
#: the row's line and the column's header. ``benchmarks/bench_tables.py --reader`` measures each alone.
READINGS: tuple[str, ...] = ("grid", "crossing")


def _read(doc: Extraction) -> _Read:
    held = _CACHE.get(id(doc))
    if held is None or held.doc is not doc:
        if len(_CACHE) > 8:
            _CACHE.clear()
        held = _CACHE[id(doc)] = _Read(doc)
    return held


def tables_on(doc: Extraction, page: int, label: str) -> list[Table]:
    """Every reading of ``label`` on ``page`` of this extraction (cached)."""
    held = _read(doc).tables
    key = (page, label)
    if key not in held:
        words = doc.page_words(page)
        previous = doc.page_words(page - 1) if page > 1 else None
        held[key] = (read_tagged(words, label) or read_tables(words, label, previous)) if words is not None else []
        if not held[key] and words is not None and previous is not None:
            before = tables_on(doc, page - 1, label)  # a table broken across pages, its caption on one of them
            held[key] = (continued_tagged(words, previous, before[-1])
                         or continued_tables(words, label, before[-1], previous)) if before else []
    return held[key]


def _value(text: str) -> str:
    return squeezed(normalize_quote(text)).replace(",", "")


@dataclass(frozen=True)
class Located:
    """A cited cell, found: its table, row and column, and what it prints."""

    table: Table
    row: Row
    column: Column
    crossed: bool = False
    """Read where the row's line and the column's header cross (``review.crossing``), the grid being unread."""
    keyed: bool = False
    """Read as the cell under the column's header that prints 'row = value' (``review.keyvalue``)."""

    @property
    def where(self) -> str:
        how = (" (read as the cell printing 'name = value' under the header)" if self.keyed else
               " (read where the two cross)" if self.crossed else "")
        return f"row '{self.row.name}', column '{self.column.name}'{how}"

    @property
    def cell(self) -> CellText:
        return self.table.cell(self.row, self.column)


@dataclass(frozen=True)
class CellAt(Claim):
    """Shared by the claims that read one cited cell."""

    page: int
    table: str
    row: str
    column: str
    subtable: str | None = field(default=None, kw_only=True)
    """The sub-table's mark the locator names ('(b)'): the row is looked up in that sub-table only
    (``review.subtables``)."""

    def locate(self, doc: Extraction) -> Located | str:
        """The cell, or why it cannot be found (a sentence naming what the page has instead); cached."""
        held = _read(doc).spots
        key = (self.page, self.table, self.row, self.column, self.subtable)
        if key not in held:
            held[key] = self._find(doc)
        return held[key]

    def _find(self, doc: Extraction) -> Located | str:
        """The grid's reading of the cell; where the grid cannot read it, the crossing's (never the other way)."""
        found = self._find_in_grid(doc) if "grid" in READINGS else Unread("the grid reading is left out")
        words = doc.page_words(self.page)
        if not isinstance(found, Unread) or "crossing" not in READINGS or words is None:
            return found
        from review.crossing import read_crossing

        crossing = read_crossing(words, self.table, self.row, self.column, self.subtable)
        if isinstance(crossing, str):
            if isinstance(found, Absent):  # a name printed nowhere in the table: where it crosses adds nothing
                return self._keyed(doc, found)
            return self._keyed(doc, type(found)(f"{found}; nor where the row and the column cross: {crossing}"))
        return Located(crossing, crossing.rows[0], crossing.columns[0], crossed=True)

    def _keyed(self, doc: Extraction, unread: Unread) -> Located | str:
        """Where neither the grid nor the crossing reads the cell, a table of parameters' cell that prints
        'row = value' under the column's header (``review.keyvalue``); ``unread`` where the table prints no such
        cells."""
        from review.keyvalue import read_keyed

        words = doc.page_words(self.page)
        keyed = read_keyed(words, self.table, self.row, self.column) if words and self.subtable is None else None
        if keyed is None:
            return unread
        if isinstance(keyed, str):
            return type(unread)(f"{unread}; nor as a cell printing 'name = value': {keyed}")
        return Located(keyed, keyed.rows[0], keyed.columns[0], crossed=True, keyed=True)

    def _find_in_grid(self, doc: Extraction) -> Located | str:
        if doc.page(self.page) is None:
            return self._missing_page(doc, self.page)
        if doc.page_words(self.page) is None:
            return Unread(f"{doc.extractor} gives no positioned words, so the cell cannot be read")
        tables = tables_on(doc, self.page, self.table)
        if not tables:
            return self._no_table(doc)
        page_text = doc.page(self.page) or ""
        if self.subtable is not None:
            return self._find_in_subtable(tables, page_text)
        for table in tables:
            rows = find_rows(table, self.row)
            if rows:
                break
        else:
            return _not_found(f"no row '{self.row}' in {self.table} on page {self.page}; read {_shape(tables[0])}",
                              self.row, tables, page_text)
        return self._cell(table, rows, page_text, tables)

    def _no_table(self, doc: Extraction) -> Unread:
        """Why the cited page holds no reading of the table: ``Absent`` (the witness of a wrong page, where both
        extractors say so alike) where the page prints no caption of the label (``label_at_line_start``: no line
        starts with it), cannot hold a part of it (``_may_hold_part``), and another page prints its caption; else
        ``Unread``."""
        held = _read(doc).missing
        key = (self.page, self.table)
        if key not in held:
            held[key] = self._why_no_table(doc)
        return held[key]

    def _why_no_table(self, doc: Extraction) -> Unread:
        elsewhere = [n for n in range(1, doc.page_count + 1) if n != self.page and tables_on(doc, n, self.table)]
        hint = f"; it is on page {', '.join(map(str, elsewhere))}" if elsewhere else ""
        why = f"no caption of {self.table} on page {self.page} (and no table of numbers under or over one){hint}"
        captioned = [n for n in elsewhere if any(not t.continued for t in tables_on(doc, n, self.table))]
        words = doc.page_words(self.page)
        if not captioned or words is None or label_at_line_start(words, self.table) or self._may_hold_part(doc):
            return Unread(why)
        pages = " and ".join(map(str, captioned))
        return Absent(f"{self.table} is printed on page {pages}, not on page {self.page}: page {self.page} prints no "
                      f"caption of it and no part of it carried on from another page")

    def _may_hold_part(self, doc: Extraction) -> bool:
        """Whether the cited page may hold a part of the table whose caption another page prints: the table on the
        page before runs to its foot (a continuation, read by ``continued_tables`` where it can be), or the table
        on the page after is set above its caption (it may begin on the cited page)."""
        before = doc.page_words(self.page - 1) if self.page > 1 else None
        after = doc.page_words(self.page + 1) if self.page < doc.page_count else None
        if before is not None and any(runs_to_foot(t, before) for t in tables_on(doc, self.page - 1, self.table)):
            return True
        if after is None:
            return False
        tops = [line.top for line, _ in find_captions(upright(after), self.table)]
        return any(t.words and min(w.top for w in t.words) < max(tops, default=0.0)
                   for t in tables_on(doc, self.page + 1, self.table))

    def _find_in_subtable(self, tables: list[Table], page_text: str) -> Located | str:
        """The row looked up in the cited sub-table only: a sub-table the reader did not find cannot be checked; a
        row printed in another sub-table but not in the cited one is a fail naming where it is printed."""
        mark = self.subtable or ""
        inside = subtables.cited(tables, mark)
        if isinstance(inside, str):
            return Unread(f"{inside} (page {self.page})")
        rows = subtables.rows_in(inside, self.row)
        if not rows:
            elsewhere = subtables.printed_elsewhere(tables, inside, self.row, mark)
            if elsewhere is not None:
                return elsewhere
            return Unread(f"no row '{self.row}' in sub-table {mark} of {self.table} on page {self.page}; read "
                          f"{_shape(inside[0])}")
        table = next(t for t in inside if rows[0] in t.rows)
        return self._cell(table, rows, page_text)

    def _cell(self, table: Table, rows: list[Row], page_text: str, tables: list[Table] | None = None
              ) -> Located | str:
        if len(rows) > 1:
            names = ", ".join(f"'{r.name}'" for r in rows)
            return Unread(f"row '{self.row}' is printed {len(rows)} times in {self.table} ({names}); name the row "
                          "with its group, as 'group / label'")
        columns = find_columns(table, self.column)
        if len(columns) != 1:
            read = f"in {self.table} on page {self.page}; read {_shape(table)}"
            if columns:
                return Unread(f"{len(columns)} columns are named '{self.column}' {read}")
            return _not_found(f"no column '{self.column}' {read}", self.column, tables or [table], page_text)
        return Located(table, rows[0], columns[0])


class Unread(str):
    """Why a cited cell could not be read, naming what was read instead: the claim cannot be checked (neither
    passed nor failed)."""


class Absent(Unread):
    """A cited row or column printed nowhere in the table that was read: a word of its name is not among the
    table's words at all. Cannot check on one reading; the witness of a failure where both extractors read the
    table alike (``review.agreement``)."""


#: Words of a cited name shorter than this are not looked for (a lone 'a' or 's' is printed in every table).
_SHORTEST_WORD = 2


def _not_found(why: str, name: str, tables: list[Table], page_text: str) -> Unread:
    """Why a row or column is not found: ``Absent`` where a word of ``name`` is printed nowhere in the tables read
    under the caption on the page (nor could be on another: a table continued from the page before may print its
    groups there) and nowhere else on the page either, else ``Unread``. A word printed elsewhere on the page may be
    part of the table that the reading did not take in (a header set apart, a table wider than the block read): no
    witness. Words are compared squeezed and lower-case, so that an extractor's spacing and a label wrapped over lines
    change nothing."""
    if any(t.continued or t.carried_from is not None or not t.words for t in tables):
        return Unread(why)
    printed = _flat(" ".join([*(t.caption for t in tables), *(w.text for t in tables for w in t.words)]))
    words = [word for word in re.findall(r"[^\W_]+", plain_glyphs(normalize_quote(name)).lower())
             if len(word) >= _SHORTEST_WORD]
    missing = [word for word in words if _flat(word) not in printed]
    if not missing:
        return Unread(why)
    on_page = _flat(page_text)
    elsewhere = [word for word in missing if _flat(word) in on_page]
    if elsewhere:
        return Unread(f"{why}; '{elsewhere[0]}' is printed on the page outside the table as read, so the reading may "
                      "have missed part of the table")
    return Absent(f"{why}; '{missing[0]}' is printed nowhere in {tables[0].label}, nor elsewhere on page "
                  f"{tables[0].page}")


def _flat(text: str) -> str:
    return plain_glyphs(squeezed(text)).lower()


def _shape(table: Table, most: int = 12) -> str:
    """What was read of a table, for a message: its rows and its columns (the first ``most`` of each)."""

    def names(items: tuple[Row, ...] | tuple[Column, ...], what: str) -> str:
        listed = ", ".join(f"'{item.name}'" for item in items[:most])
        more = f" and {len(items) - most} more" if len(items) > most else ""
        return f"{len(items)} {what}{'' if len(items) == 1 else 's'}" + (f" ({listed}{more})" if items else "")

    return f"{names(table.rows, 'row')} and {names(table.columns, 'column')}"


def _cannot(claim: CellAt, expected: str, spot: str, prefix: str = "") -> Assertion | None:
    """The assertion for a cell that could not be found: cannot check where it could not be read."""
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
            return _cannot(self, expected, spot) or self._result(expected, False, self.page, detail=spot)
        cell = spot.cell
        wanted = _value(self.value)
        if cell.value is not None and same_number(cell.value, self.value):
            shape = self._form_verdict(expected, spot)
            if shape is not None:
                return shape
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


def same_number(printed: str, filed: str) -> bool:
    """Whether a cell's number and a record's are the same printed number: the same characters (spaces, minus
    signs and thousands commas aside), or the same digits at the same place however a power is set ('3.2×10−⁴'
    and '3.2 × 10^-4', '2−6' read as '2^-6' and '2^-6'; '0.70' is not '0.7')."""
    if _value(printed) == _value(filed):
        return True
    ours, theirs = _exact(printed), _exact(filed)
    return ours is not None and theirs is not None and ours.as_tuple() == theirs.as_tuple()


def _exact(text: str) -> Decimal | None:
    return parse_printed(text) if parse_printed(text) is not None else parse_printed(normalize_quote(text))


def _numbers(text: str) -> list[str]:
    from registry.numbers_in_text import numbers_in

    return [_value(n) for n in numbers_in(normalize_quote(text))]


@dataclass(frozen=True)
class CellUncertainty(CellAt):
    """The ± value or interval printed in the cell must be the record's.

    ``own_column``: the source prints it in a column of its own ('SE'), named by the locator's
    ``uncertainty_column``; ``column`` is then that column, and its cell in the value's row prints the number
    itself (or an interval), with or without a '±'."""

    printed: str
    interval: bool
    own_column: bool = False

    def check(self, doc: Extraction) -> Assertion:
        expected = f"'{self.printed}' in column '{self.column}'" if self.own_column else f"'{self.printed}' in the cell"
        spot = self.locate(doc)
        if isinstance(spot, str):
            return _cannot(self, expected, spot, "the cell cannot be read: ") or self._result(
                expected, False, self.page, detail=f"the cited cell is not on the page: {spot}")
        cell = spot.cell
        found: tuple[str, ...] | None = (cell.interval if self.interval else
                                         ((cell.plus_minus,) if cell.plus_minus else
                                          (cell.value,) if self.own_column and cell.value else None))
        wanted = _numbers(self.printed)[: 2 if self.interval else 1]
        if found is not None and [_value(f) for f in found] == wanted:
            where = f"printed in its own column, {spot.where}" if self.own_column else \
                f"printed with the value in {spot.where}"
            return self._result(expected, True, self.page, cell.text, where, spot.where)
        what = "interval" if self.interval else "± value"
        if found is None:  # an uncertainty that cannot be read is no witness of another one
            return self._unreadable(expected, self.page, f"{spot.where} prints '{cell.text}', read with no {what}, "
                                    f"so the record's '{self.printed}' cannot be compared there")
        shown = f"[{', '.join(found)}]" if self.interval else f"± {found[0]}"
        return self._result(expected, False, self.page, cell.text,
                            f"the cell prints '{cell.text}': {shown}, not the record's '{self.printed}'", spot.where)


@dataclass(frozen=True)
class TextUncertainty(Claim):
    """The ± value or interval printed right after the value in the quoted text must be the record's."""

    page: int
    quote: str
    value: str
    printed: str
    interval: bool

    def check(self, doc: Extraction) -> Assertion:
        expected = f"'{self.printed}' with '{self.value}'"
        page_text = doc.page(self.page)
        if page_text is None:
            return self._result(expected, False, self.page, detail=self._missing_page(doc, self.page))
        match = find_text(page_text, self.quote)
        hit = match.search(number_pattern(self.value)) if match is not None else None
        if match is None or hit is None:
            return self._result(expected, False, self.page,
                                detail=f"'{self.value}' is not printed in the quoted text, so its uncertainty cannot "
                                       "be read")
        after = hit.string[hit.end():hit.end() + 60]
        number = r"[-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)"
        shape = (rf"[^\[\]]{{0,30}}?[\[(]\s*({number})\s*[,;\u2013-]\s*({number})\s*[\])]" if self.interval
                 else rf"\s*(?:\u00b1|\+/-|\+-)\s*({number})")
        printed = re.match(shape, after)
        wanted = _numbers(self.printed)[: 2 if self.interval else 1]
        if printed is not None and [_value(g) for g in printed.groups()] == wanted:
            return self._result(expected, True, self.page, hit.string[hit.start():hit.end() + printed.end()],
                                "printed right after the value")
        shown = f"'{hit.string[hit.start():hit.end() + printed.end()]}'" if printed else "no " + (
            "interval" if self.interval else "± value")
        return self._result(expected, False, self.page, hit.string[hit.start():hit.end() + 30].strip(),
                            f"the page prints {shown} with '{self.value}', not the record's '{self.printed}'")


@dataclass(frozen=True)
class UncertaintyStated(Claim):
    """The words printed with the value (caption, header, row label, table note, sentence) name the record's kind.

    The places are read nearest first (a column header before the caption), and the first that names any
    kind decides: it must name the record's kind and no other, since a caption that says both 's.d.' and
    'standard error' does not say which of the two a ± is. A record may cite where the source states the kind,
    level or count away from the value (``Uncertainty.stated_at``: a sentence, another page, a header such as
    '[N=1000]'): those words are read first, and the level and count may be printed there or in the place that
    names the kind. Kind 'other' has no words to find: it passes on the value alone, and says so."""

    page: int
    kind: UncertaintyKind
    level: str | None
    over: tuple[int, str] | None
    table: str | None = None
    row: str | None = None
    column: str | None = None
    subtable: str | None = None
    quote: str | None = None
    stated_at: tuple[int, str] | None = None
    """The page and the words the record cites as stating the kind, level or count."""
    note: str | None = None

    def check(self, doc: Extraction) -> Assertion:
        expected = self.kind.value + (f" ({self.level}%)" if self.level else "") + (
            f" over {self.over[0]} {self.over[1]}" if self.over else "")
        if self.kind is UncertaintyKind.OTHER:
            return self._result(expected, True, self.page, detail=f"kind 'other' ({self.note or 'no note'}): the "
                                "registry has no words for it to find on the page, so it passes on the printed value "
                                "and its uncertainty alone")
        cited = self._cited(doc)
        if isinstance(cited, str):
            return self._result(expected, False, self.stated_at[0] if self.stated_at else self.page, detail=cited)
        places = self._places(doc)
        if isinstance(places, Unread):
            return self._unreadable(expected, self.page, str(places))
        if isinstance(places, str):
            return self._result(expected, False, self.page, detail=places)
        places = cited + places
        for name, text in places:
            printed = normalize(text).text
            kinds = kinds_in(printed)
            if not kinds:
                continue
            named = " and ".join(f"'{w}' ({k.value})" for k, w in kinds.items())
            if self.kind not in kinds:
                return self._result(expected, False, self.page, text[:160],
                                    f"the {name} says {named}, not {self.kind.value}")
            if len(kinds) > 1:
                return self._result(expected, False, self.page, text[:160],
                                    f"the {name} names more than one kind of uncertainty, {named}, so it does not say "
                                    f"which one is printed with the value; quote the words that say {self.kind.value} "
                                    "of this value, or check the record's kind")
            word = kinds[self.kind]
            also = [normalize(t).text for _, t in cited]
            problems = []
            if self.level and not any(self._level_in(t) for t in (printed, *also)):
                problems.append(f"but not the level {self.level}%")
            if self.over and not any(self._over_in(t) for t in (printed, *also)):
                problems.append(f"but not '{self.over[0]} {self.over[1]}'")
            if problems:
                elsewhere = "" if cited else "; where the source states it elsewhere, cite that place as the " \
                    "uncertainty's stated_at (page and quote)"
                return self._result(expected, False, self.page, text[:160],
                                    f"the {name} says '{word}' " + " and ".join(problems) + elsewhere)
            where = f"the {name} says '{word}'"
            if cited and name != cited[0][0]:
                where += f", and the {cited[0][0]} gives the rest"
            return self._result(expected, True, self.page, text[:160], where)
        searched = ", ".join(name for name, _ in places) or "nothing"
        return self._result(expected, False, self.page,
                            detail=f"no words for {self.kind.value} ({', '.join(KIND_WORDS.get(self.kind, ()))}) in "
                                   f"the {searched}; the record's kind of uncertainty is not what the source states "
                                   "where the value is printed" + ("" if self.stated_at else "; where the source "
                                   "states it elsewhere, cite that place as the uncertainty's stated_at (page and "
                                   "quote)"))

    def _cited(self, doc: Extraction) -> list[tuple[str, str]] | str:
        """The words the record cites as stating the kind, level or count, as printed on their page."""
        if self.stated_at is None:
            return []
        page, quote = self.stated_at
        text = doc.page(page)
        if text is None:
            return f"the place the record cites for what its uncertainty is: {self._missing_page(doc, page)}"
        match = find_text(text, quote)
        if match is None:
            return (f"the words the record cites for what its uncertainty is, '{quote}', are not printed on page "
                    f"{page}")
        return [(f"quote cited on page {page}", match.normalized)]

    def _level_in(self, text: str) -> bool:
        return bool(re.search(rf"(?<![\d.]){re.escape(self.level or '')}\s*%", text))

    def _over_in(self, text: str) -> bool:
        count, kind = self.over  # type: ignore[misc]
        words = "|".join(re.escape(w) for w in OVER_WORDS.get(kind, (kind,)))
        printed = f"(?:{count}|{count:,})"
        return bool(re.search(rf"(?<![\d.,]){printed}\s+(?:\w+\s+){{0,2}}(?:{words})\b", text) or re.search(
            rf"\bn\s*=\s*{printed}\b", text, re.IGNORECASE))

    def _places(self, doc: Extraction) -> list[tuple[str, str]] | str:
        if self.table is not None and self.row is not None and self.column is not None:
            spot = CellAt(self.record_id, self.claim, self.page, self.table, self.row, self.column,
                          subtable=self.subtable).locate(doc)
            if isinstance(spot, str):
                why = f"the cell cannot be read: {spot}"
                return Unread(why) if isinstance(spot, Unread) else why
            return [(f"column header '{spot.column.name}'", spot.column.name), (f"row label '{spot.row.name}'",
                                                                                   spot.row.name),
                    (f"caption of {self.table}", spot.table.caption),
                    *((f"note under {self.table}", note) for note in spot.table.notes)]
        page_text = doc.page(self.page)
        if page_text is None:
            return self._missing_page(doc, self.page)
        match = find_text(page_text, self.quote or "")
        if match is None:
            return "the quoted text is not on the page, so the words around the value cannot be read"
        places = [("quoted text and the sentence it comes from", match.before[-30:] + match.normalized + match.after)]
        if self.table is not None:
            places += [(f"caption of {self.table}", text) for text in _captions(doc, self.page, self.table)]
        return places


def _captions(doc: Extraction, page: int, label: str) -> list[str]:
    words = doc.page_words(page)
    return caption_texts(words, label) if words is not None else []


@functools.lru_cache(maxsize=16)  # per table of units (a registry's own units print forms too) and shape
def _unit_forms(units: UnitTable, bare: bool) -> re.Pattern[str]:
    """The printed forms of every unit that say the unit of a value: at the start of a cell's text after the value
    (``bare``: '17.4 ms'), or in parentheses in a header or a label ('Latency (ms)', 'Params (M)'). Longest first,
    so that '(ms)' is never read as its 's'. Lowercase single letters are left out: '(s)' in 'model(s)', '(a)' and
    '(d)' label parts and panels as often as they print seconds or days."""
    forms = {form for form in units.every_form() if len(form) > 1 or not form.islower()}
    either = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    return re.compile(rf"^(?:{either})(?![A-Za-z])" if bare else rf"\(\s*({either})\s*\)")


@dataclass(frozen=True)
class CellUnit(CellAt):
    """The unit must be the one printed in the cell, its column header or its row label, or else in the caption.

    These are read nearest first, and the first of the three that prints a unit decides: a column header
    'Latency (ms)' says the cell is in milliseconds, whatever a row label ('NT 500M') or the caption holds.
    A unit printed without a symbol (``symbols`` empty: a count, a dimensionless score) must find no unit
    there at all."""

    unit: str
    symbols: tuple[str, ...]
    quote: str | None = field(default=None, kw_only=True)
    """The sentence the locator quotes, where it quotes one: a unit it prints confirms the cell's."""

    def check(self, doc: Extraction) -> Assertion:
        expected = f"{' or '.join(self.symbols)} ({self.unit})" if self.symbols else f"no unit ({self.unit})"
        spot = self.locate(doc)
        if isinstance(spot, str):
            return _cannot(self, expected, spot) or self._result(expected, False, self.page, detail=spot)
        glued = self._glued_unit(expected, spot)
        if glued is not None:
            return glued
        near = [("cell", spot.cell.rest), (f"column header '{spot.column.name}'", spot.column.name),
                (f"row label '{spot.row.name}'", spot.row.name)]
        for name, text in near:
            symbol = self._symbol_in(text, declared=name != "cell")
            if symbol is not None:
                return self._result(expected, True, self.page, text[:120], f"'{symbol}' printed in the {name}",
                                    spot.where)
            other = self._other_unit(text, bare=name == "cell")
            if other is not None:
                printed, units = other
                shown = f"'{printed}'" if name == "cell" else f"'({printed})'"
                mine = f"not {expected}" if self.symbols else f"but the unit {self.unit} is printed without one"
                return self._result(expected, False, self.page, text[:120],
                                    f"the {name} prints {shown} ({' or '.join(units)}), {mine}; correct the record's "
                                    "unit (or unit_detail) to the printed one", spot.where)
        if not self.symbols:
            return self._result(expected, True, self.page, spot.cell.text,
                                "no unit is printed in the cell, its column header or its row label", spot.where)
        farther = [(f"caption of {self.table}", spot.table.caption),
                   *((f"note under {self.table}", note) for note in spot.table.notes),
                   *(("citing sentence", sentence) for sentence in self._sentence(doc))]
        for name, text in farther:
            symbol = declared_unit(text, self.symbols)
            if symbol is not None:
                return self._result(expected, True, self.page, text[:120], f"'{symbol}' printed in the {name}",
                                    spot.where)
        searched = ", ".join(name for name, _ in farther)
        return self._unprinted(expected, self.page, (
            f"unit not printed on the page: no {expected} is printed in the cell, its column header, its row label, "
            f"the {searched} (a unit set after a number, as the % of '95%', is that number's); the value is not "
            "failed by it: cite where the source says the unit (unit_detail), or leave it reported"),
            spot.cell.text, spot.where)

    def _sentence(self, doc: Extraction) -> list[str]:
        """The sentence the record's locator quotes, where it quotes one, as printed on the page."""
        page_text = doc.page(self.page) if self.quote else None
        match = find_text(page_text, self.quote or "") if page_text is not None else None
        if match is None:
            return []
        return [match.before[match.before.rfind(". ") + 1:] + match.normalized + match.after.split(". ")[0]]

    def _glued_unit(self, expected: str, spot: Located) -> Assertion | None:
        """The unit a cell prints set against its number ('88s', '10m'), checked against the record's: its own
        symbol or a form the table of units reads as the record's unit passes, a form of another unit fails, and a
        form the table does not know ('m': minutes or metres) cannot be checked. None where the cell prints none:
        the header, the label and the caption are read then."""
        cell = spot.cell
        letters = _glued(cell)
        if not letters:
            return None
        if letters in self.symbols:
            return self._result(expected, True, self.page, cell.text, f"'{letters}' printed in the cell, set against "
                                "its number", spot.where)
        units = unit_table().unit_printed_as(letters)
        if self.unit in units:
            return self._result(expected, True, self.page, cell.text, f"'{letters}' printed in the cell, set against "
                                f"its number ({self.unit})", spot.where)
        if units:
            return self._result(expected, False, self.page, cell.text,
                                f"the cell prints '{cell.text}', '{letters}' ({' or '.join(units)}) set against its "
                                f"number, not {expected}; correct the record's unit (or unit_detail) to the printed "
                                "one", spot.where)
        return self._unreadable(expected, self.page, (
            f"the cell prints '{cell.text}', '{letters}' set against its number, a sign the registry's table of units "
            f"does not read; whether it is {expected} cannot be checked: where it is, write '{letters}' in the "
            "record's unit_printed"))

    def _symbol_in(self, text: str, *, declared: bool = True) -> str | None:
        """The record's symbol printed in ``text``: in a header or label as its unit, not after a number of it
        ('Mix 50%'); in the cell's text after its value (``declared`` False), anywhere."""
        if declared:
            return declared_unit(text, self.symbols)
        printed = normalize_quote(text)
        return next((s for s in self.symbols if unit_pattern(s).search(printed)), None)

    def _other_unit(self, text: str, *, bare: bool) -> tuple[str, list[str]] | None:
        """A unit other than the record's printed in ``text``: at its start (a cell's text after the value), or
        in parentheses (a header, a label); the form and the units it stands for."""
        known = unit_table()
        for hit in _unit_forms(known, bare).finditer(normalize_quote(text)):
            form = hit.group(0) if bare else hit.group(1)
            units = known.unit_printed_as(form)
            if self.unit not in units:
                return form, units
        return None


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


# -- claims from a result ---------------------------------------------------------------------------


def cell_claims(registry: Registry, result: Result, citations: list[Citation]) -> list[Claim]:
    """A table cell's value, uncertainty and unit, or the uncertainty printed with a value in a sentence."""
    locator = result.source_locator
    uncertainty = result.uncertainty
    page = locator.page
    if page is None:
        return []
    claims: list[Claim] = []
    if is_cell(locator):
        label = locator.table or locator.figure or ""
        where = (result.id, page, label, locator.row or "", locator.column or "")
        subtable = locator.subtable  # the row is looked up in that sub-table only (``review.subtables``)
        upper = result.range_upper.printed_value if result.range_upper is not None else None
        bound = result.bound.value if result.bound is not None else None
        claims.append(TableCell(where[0], "table cell", *where[1:], result.printed_value, subtable=subtable,
                                upper=upper, bound=bound))
        if uncertainty is not None:
            beside = locator.uncertainty_column  # the ± in a column of its own, in the value's row
            claims.append(CellUncertainty(where[0], "uncertainty", *where[1:4], beside or where[4], uncertainty.printed,
                                          uncertainty.is_interval, own_column=beside is not None, subtable=subtable))
            claims.append(_stated(result, uncertainty, page, table=label, row=locator.row, column=locator.column,
                                  subtable=subtable))
        symbols, agree = unit_symbols(result)
        return [*claims, *agree, CellUnit(where[0], "unit", *where[1:], str(result.unit), symbols, subtable=subtable,
                                          quote=" ".join(locator.quote.split()) if locator.quote else None)]
    if uncertainty is not None and citations:
        from review.claims import _citing

        cited = _citing(citations, result.printed_value)
        claims.append(TextUncertainty(result.id, "uncertainty", cited.page, cited.quote, result.printed_value,
                                      uncertainty.printed, uncertainty.is_interval))
        claims.append(_stated(result, uncertainty, cited.page, table=locator.table if locator.caption else None,
                              quote=cited.quote))
    return claims


def _stated(result: Result, uncertainty: Uncertainty, page: int, **where: str | None) -> UncertaintyStated:
    aggregate = uncertainty.over
    over = (aggregate.count, aggregate.kind.value) if aggregate is not None and aggregate.count else None
    level = format(uncertainty.level.normalize(), "f") if uncertainty.level is not None else None
    cited = uncertainty.stated_at
    stated_at = (cited.page or page, " ".join(cited.quote.split())) if cited is not None else None
    return UncertaintyStated(result.id, "uncertainty kind", page, uncertainty.kind, level, over, **where,
                             stated_at=stated_at, note=uncertainty.note)


def place_claims(result: Result) -> list[Claim]:
    """A caption or footnote locator: the quote must be printed in that caption or note."""
    locator = result.source_locator
    if locator.page is None or locator.quote is None:
        return []
    quote = " ".join(locator.quote.split())
    if locator.footnote:
        return [InPlace(result.id, "in footnote", locator.page, quote, mark=locator.footnote)]
    if locator.caption:
        return [InPlace(result.id, "in caption", locator.page, quote, label=locator.table or locator.figure)]
    return []
