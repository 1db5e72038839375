"""A cited table cell found again in a page's tables: by the whole grid's reading, else where the row's line and the
column's header cross (``review.tables.crossing``), else as the cell printing 'row = value' under the header
(``review.tables.keyvalue``); and why it cannot be found, naming what the page has instead.

The claims about table cells (``registry.checking.cells``) look a cell up here, and ``registry table``
(``review.tables.grid``) asks the same of every cell it shows, so that a cell it lists is one a record citing its row
and column finds again. Tables are read once per page and label, and cached per extraction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from registry.numbers import parse_printed
from review.pdf.matching import normalize_quote
from review.pdf.pdftext import Extraction
from review.pdf.words import squeezed
from review.tables import subtables
from review.tables.captions import find_captions, label_at_line_start, upright
from review.tables.cell import CellText
from review.tables.read import continued_tables, read_tables, runs_to_foot
from review.tables.table import Column, Row, Table, find_columns, find_rows, plain_glyphs
from review.tables.tagged import continued_tagged, read_ruled, read_tagged


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
        held[key] = (read_tagged(words, label) or read_ruled(words, label) or read_tables(words, label, previous)
                     ) if words is not None else []
        if not held[key] and words is not None and previous is not None:
            before = tables_on(doc, page - 1, label)  # a table broken across pages, its caption on one of them
            held[key] = (continued_tagged(words, previous, before[-1])
                         or continued_tables(words, label, before[-1], previous)) if before else []
    return held[key]


def _value(text: str) -> str:
    return squeezed(normalize_quote(text)).replace(",", "")


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


@dataclass(frozen=True)
class Located:
    """A cited cell, found: its table, row and column, and what it prints."""

    table: Table
    row: Row
    column: Column
    crossed: bool = False
    """Read where the row's line and the column's header cross (``review.tables.crossing``), the grid being unread."""
    keyed: bool = False
    """Read as the cell under the column's header that prints 'row = value' (``review.tables.keyvalue``)."""

    @property
    def where(self) -> str:
        how = (" (read as the cell printing 'name = value' under the header)" if self.keyed else
               " (read where the two cross)" if self.crossed else "")
        return f"row '{self.row.name}', column '{self.column.name}'{how}"

    @property
    def cell(self) -> CellText:
        return self.table.cell(self.row, self.column)


class CellLookup:
    """Finding a cited cell again: mixed into a class that gives the cell's address (``page``, ``table``, the table's
    label, ``row``, ``column`` and ``subtable``), as the cell claims and ``CitedCell`` do."""

    page: int
    table: str
    row: str
    column: str
    subtable: str | None
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
        from review.tables.crossing import read_crossing

        crossing = read_crossing(words, self.table, self.row, self.column, self.subtable)
        if isinstance(crossing, str):
            if isinstance(found, Absent):  # a name printed nowhere in the table: where it crosses adds nothing
                return self._keyed(doc, found)
            return self._keyed(doc, type(found)(f"{found}; nor where the row and the column cross: {crossing}"))
        return Located(crossing, crossing.rows[0], crossing.columns[0], crossed=True)

    def _keyed(self, doc: Extraction, unread: Unread) -> Located | str:
        """Where neither the grid nor the crossing reads the cell, a table of parameters' cell that prints
        'row = value' under the column's header (``review.tables.keyvalue``); ``unread`` where the table prints no such
        cells."""
        from review.tables.keyvalue import read_keyed

        words = doc.page_words(self.page)
        keyed = read_keyed(words, self.table, self.row, self.column) if words and self.subtable is None else None
        if keyed is None:
            return unread
        if isinstance(keyed, str):
            return type(unread)(f"{unread}; nor as a cell printing 'name = value': {keyed}")
        return Located(keyed, keyed.rows[0], keyed.columns[0], crossed=True, keyed=True)

    def _find_in_grid(self, doc: Extraction) -> Located | str:
        if doc.page(self.page) is None:
            return doc.missing(self.page)
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


@dataclass(frozen=True)
class CitedCell(CellLookup):
    """A cell as a locator cites it: a page, a table's label, a row and a column (and a sub-table's mark)."""

    page: int
    table: str
    row: str
    column: str
    subtable: str | None = None


class Unread(str):
    """Why a cited cell could not be read, naming what was read instead: the claim cannot be checked (neither
    passed nor failed)."""


class Absent(Unread):
    """A cited row or column printed nowhere in the table that was read: a word of its name is not among the
    table's words at all. Cannot check on one reading; the witness of a failure where both extractors read the
    table alike (``registry.checking.agreement``)."""


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

