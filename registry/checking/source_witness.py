"""The source witness: a cited table cell checked against the table as the document's source states it.

The PDF is what readers see and cite; the source it was typeset from (LaTeX, JATS XML, HTML, Word) is a second,
independent witness of the same numbers. A claim about a table cell (``registry.checking.cells.TableCell``,
``registry.checking.uncertainty.CellUncertainty``) is checked here against the source's tables:

- **which table**: the source's floats are numbered as the typesetter numbers them; each is matched to the PDF's
  caption by its label and the first words of its caption (``review.sources.labels``), so that a table the PDF prints as
  'Table 3' is the source's 'Table 3' even where an earlier float was not counted as the reader counts;
- **which page**: the source has no pages; the cited page must be where the PDF prints the table's caption, or a
  page after it that prints the row's label and the cell (a table continued): a table whose caption is found on
  other pages only is cited on the wrong page, a fail;
- **which cell**: the row and the column by the names the PDF reader matches (``review.tables.table.matches``; a
  repeated label's ' #N' counts its rows from the top); the cell read as the PDF reader reads a printed cell.

Verdicts: **pass** where the cell prints the value (or its ±); **fail** where it prints another, where the table
prints the value nowhere while the cited row or column is not in it, or where the page is wrong; **cannot check**
where the source has no such table, or the row or column is not found but the value is printed somewhere in the
table (a name the curator spelled otherwise), or the row is ambiguous.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from registry.checking.cells import TableCell
from registry.checking.claims import CANNOT_CHECK, FAIL, PASS, Assertion, Claim
from registry.checking.uncertainty import CellUncertainty
from registry.checking.witnesses import Witness, with_source
from review.pdf.words import squeezed
from review.sources.labels import NTH, SourceTables, named, named_columns, named_rows, same_label
from review.sources.model import SourceCell, SourceColumn, SourceRow, SourceTable
from review.tables.cited import _value, same_number  # the one comparison of a cited number with a cell's


@dataclass(frozen=True)
class _Spot:
    table: SourceTable
    row: SourceRow
    column: SourceColumn
    cell: SourceCell

    @property
    def where(self) -> str:
        return f"row '{self.row.name}', column '{self.column.name}' of {self.table.label} ({self.table.where})"


def check_cell(source: SourceTables, claim: object) -> Witness:
    """The source witness's verdict on a table cell claim (``TableCell`` or ``CellUncertainty``)."""
    table_label: str = claim.table
    page: int = claim.page
    row_name: str = claim.row
    column_name: str = claim.column
    value = getattr(claim, "value", None)
    candidates, unreadable = _cited_tables(source, table_label)
    if unreadable is not None:
        return unreadable
    spots: list[_Spot] = []
    missing: list[str] = []
    lines: list[tuple[SourceTable, list[SourceRow], list[int]]] = []
    for _, table in candidates:
        rows = named_rows(table, row_name)
        columns = named_columns(table, column_name)
        if not rows:
            missing.append(f"no row '{row_name}'")
        if not columns:
            missing.append(f"no column '{column_name}'")
        lines.append((table, rows, columns))
        spots += [_Spot(table, row, table.columns[c], row.cells[c]) for row in rows for c in columns]
        if not rows:  # a cell printing 'name = value' under the column, the name the row's
            spots += [_Spot(table, row, table.columns[c], row.cells[c]) for row in table.rows for c in columns
                      if row.cells[c].key is not None and named((row.cells[c].key,), row_name)]
    if not spots:
        wrong_page = _float_elsewhere(source, candidates, page, value)
        if wrong_page:  # the cell is not found by its names, but the table is not on the cited page at all
            return _witness(source, FAIL, detail=wrong_page)
        return _not_found(source, candidates, lines, value, (table_label, row_name, column_name),
                          " and ".join(dict.fromkeys(missing)))
    spots = [s for s in spots if s.cell.text] or spots  # a column named twice where a merged cell covers one
    page_verdict, why = _page_check(source, candidates, page, spots, row_name)
    if page_verdict:
        return _witness(source, page_verdict, detail=why)
    if len(spots) > 1 and len({(s.cell.text) for s in spots}) > 1:
        return _ambiguous(source, candidates, spots, value, f"{len(spots)} cells of {table_label} in the source are "
                          f"named row '{row_name}', column '{column_name}'", page)
    spot = spots[0]
    reading = spot.cell.reading
    if value is not None:
        if reading.value is not None and same_number(reading.value, value):  # however a power of ten is set
            disagreement = _form(claim, spot)
            if disagreement:
                return _witness(source, disagreement[0], spot.cell.text, disagreement[1])
            return _witness(source, PASS, spot.cell.text, f"in {spot.where}")
        printed = spot.cell.text or "nothing"
        return _witness(source, FAIL, spot.cell.text, f"the source prints {printed!r} in {spot.where}, not "
                        f"'{value}'")
    return _uncertainty(source, claim, spot)


def _cited_tables(source: SourceTables, table_label: str) -> tuple[list[tuple[int, SourceTable]], Witness | None]:
    """The source's readable tables labelled as the claim cites, or why there are none (cannot check)."""
    if source.unread:
        return [], _witness(source, CANNOT_CHECK, detail=f"the source {source.document} was not read: "
                            f"{source.unread}")
    candidates = [(i, t) for i, t in enumerate(source.tables) if same_label(t.label, table_label)]
    if not candidates:
        return [], _witness(source, CANNOT_CHECK, detail=f"the source has no {table_label} (it has "
                            f"{', '.join(sorted({t.label for t in source.tables}, key=_order)) or 'no tables'})")
    readable = [(i, t) for i, t in candidates if not t.unread]
    if not readable:
        return [], _witness(source, CANNOT_CHECK, detail=f"{table_label} of the source could not be read: "
                            f"{candidates[0][1].unread}")
    return readable, None


def _page_prints(source: SourceTables, page: int, value: str) -> bool:
    """Whether the cited page of the PDF prints the value anywhere (then a source silent about it may be read short
    of what it prints: a rounding the reader does not apply, a version of the source apart from the PDF's)."""
    text = source.page_texts[page - 1] if 0 < page <= len(source.page_texts) else ""
    return _number_printed(unicodedata.normalize("NFKC", text).replace("\u2212", "-"), SourceCell(value))


def _ambiguous(source: SourceTables, candidates: list[tuple[int, SourceTable]], spots: list[_Spot],
               value: str | None, named_so: str, page: int) -> Witness:
    """Several cells a name could mean: a fail where the cited table, its caption printed by the PDF under the cited
    label (so that it is the PDF's table, not one the count numbers alike), prints the value in no cell at all
    (whichever cell the record means, the source prints another value there); cannot check otherwise: the cell the
    record means may be one the source names otherwise (a group the name leaves out), not among these."""
    confirmed = all(i in source.pages for i, _ in candidates)  # the PDF prints each one's caption under its label
    if value is not None and confirmed and not _page_prints(source, page, value) and not _printed_anywhere(
            candidates, value) and not any(
            _number_printed(cell.text, SourceCell(value)) for _, t in candidates for _, _, cell in t.values()):
        shown = ", ".join(f"{s.cell.text or 'nothing'!r} in row '{s.row.name}'" for s in spots[:4])
        return _witness(source, FAIL, detail=f"{named_so}, none prints '{value}' ({shown}), nor does any other cell "
                        "of the table")
    return _witness(source, CANNOT_CHECK, detail=f"{named_so}: name the row with its group")


def _form(claim: object, spot: _Spot) -> tuple[str, str] | None:
    """Where the cell's number is the claim's: the range or bound the source prints against the one the record files
    (the PDF witness's rule, ``review.cells.TableCell._form_verdict``): a fail where the source prints a range the
    record files as a point value, another upper end, or another bound; cannot check where the record files a range
    or bound the cell prints without (its other end or sign may be in a cell of its own), or where the cell prints
    a pair of figures that may be an interval; None where they agree."""
    from registry.checking.cells import _PAIR_HEADER

    reading = spot.cell.reading
    upper, bound = getattr(claim, "upper", None), getattr(claim, "bound", None)
    shown = spot.cell.text
    if reading.upper and upper is None:
        if reading.form is not None and reading.form.paired:
            if _PAIR_HEADER.search(spot.column.name):
                return None
            return CANNOT_CHECK, (f"the source prints {shown!r} in {spot.where}, an interval or a pair of figures: "
                                  "whether the point value is the cell's cannot be told")
        return FAIL, (f"the source prints the range {shown!r} in {spot.where}; the record files its lower end as a "
                      f"point value (file the range, with range_upper: {reading.upper!r})")
    if reading.upper and not same_number(reading.upper, upper):
        return FAIL, f"the source prints the range {shown!r} in {spot.where}, whose upper end is not {upper!r}"
    if upper is not None and not reading.upper:
        return CANNOT_CHECK, f"the source prints {shown!r} in {spot.where}, no range ending at {upper!r}"
    if reading.bound and reading.bound != bound:
        said = "the record files it as a value" if bound is None else f"not the record's '{bound}'"
        return FAIL, f"the source prints {shown!r} in {spot.where}, a bound '{reading.bound}': {said}"
    if bound is not None and not reading.bound:
        return CANNOT_CHECK, f"the source prints {shown!r} in {spot.where}, with no bound's sign"
    return None


def _not_found(source: SourceTables, candidates: list[tuple[int, SourceTable]],
               lines: list[tuple[SourceTable, list[SourceRow], list[int]]], value: str | None,
               cited: tuple[str, str, str], missing: str) -> Witness:
    """A cited row or column the source's table does not have. The source states the table whole: where the row
    (or the column) is there and prints the value in none of its cells, or neither is there and the table prints
    the value in no cell, the claim is wrong (fail); where neither is there and another table of the source has
    both, printing the value where they cross, the value is that table's (fail: the wrong table cited); where the
    value is printed in the row or column that is there, or anywhere in a table where neither is, a name may be
    spelled otherwise (cannot check). Numbers are compared as numbers ('2.6e-3' is '2.6 × 10⁻³')."""
    label, row_name, column_name = cited
    if value is None:
        return _witness(source, CANNOT_CHECK, detail=f"{label} in the source has {missing}")
    named = any(rows or columns for _, rows, columns in lines)
    other = None if named else _in_another_table(source, candidates, row_name, column_name, value)
    if other is not None:
        return _witness(source, FAIL, other.cell.text, f"{label} in the source has {missing}; the source prints "
                        f"'{value}' at {other.where}: the value of another table")
    found = _printed_anywhere(candidates, value)
    near = [s for s in found for table, rows, columns in lines if s.table is table and (
        s.row in rows or any(s.column is table.columns[c] for c in columns))]
    if not found:  # a cell the reader could not split (a table nested in a cell) may print it among others
        found = [_Spot(t, row, column, cell) for _, t in candidates for row, column, cell in t.values()
                 if _number_printed(cell.text, SourceCell(value))]
    if not named and found:  # neither name is in the table, which prints the value: names spelled otherwise
        return _witness(source, CANNOT_CHECK, detail=f"{label} in the source has {missing}; '{value}' is printed at "
                        f"{found[0].where}")
    if not named:
        return _witness(source, FAIL, detail=f"{label} in the source has {missing}, and prints '{value}' in no "
                        "cell")
    if near:
        return _witness(source, CANNOT_CHECK, detail=f"{label} in the source has {missing}; '{value}' is printed at "
                        f"{(near or found)[0].where}")
    return _witness(source, FAIL, detail=f"{label} in the source has {missing}, and prints '{value}' in no cell of "
                    "the row or column it has")


def _float_elsewhere(source: SourceTables, candidates: list[tuple[int, SourceTable]], page: int,
                     value: str | None) -> str:
    """Why the cited page cannot hold the cell, where the table is a float (set on one page: it cannot break across
    pages) whose caption the PDF prints on other pages only, and the cited page prints the value nowhere (a caption
    the PDF's text garbles, found only where another page quotes it, is no evidence alone); '' otherwise."""
    pages = sorted({p for i, _ in candidates for p in source.pages.get(i, ())})
    if not pages or page in pages or any(t.breakable for _, t in candidates) or value is None:
        return ""
    if _page_prints(source, page, value):
        return ""
    label = candidates[0][1].label
    return (f"the PDF prints the caption of {label} on page {', '.join(map(str, pages))}, and {label} is a float, "
            f"set on one page: page {page} does not hold it (it prints '{value}' nowhere)")


def _in_another_table(source: SourceTables, candidates: list[tuple[int, SourceTable]], row_name: str,
                      column_name: str, value: str) -> _Spot | None:
    """The cell of another table of the source that has both the cited row and the cited column and prints the value
    where they cross, where exactly one does."""
    cited = {id(t) for _, t in candidates}
    found = [_Spot(t, row, t.columns[c], row.cells[c]) for t in source.tables if id(t) not in cited and not t.unread
             for row in named_rows(t, row_name) for c in named_columns(t, column_name)
             if row.cells[c].reading.value is not None and _same_number(row.cells[c].reading.value, value)]
    return found[0] if len({id(s.table) for s in found}) == 1 else None


def _uncertainty(source: SourceTables, claim: object, spot: _Spot) -> Witness:
    from registry.numbers_in_text import numbers_in
    from review.pdf.matching import normalize_quote

    reading = spot.cell.reading
    interval = bool(getattr(claim, "interval", False))
    own = bool(getattr(claim, "own_column", False))
    found = (reading.interval if interval else (reading.plus_minus,) if reading.plus_minus else
             (reading.value,) if own and reading.value else None)
    wanted = [_value(n) for n in numbers_in(normalize_quote(claim.printed))][: 2 if interval else 1]
    if found is not None and [_value(f) for f in found] == wanted:
        return _witness(source, PASS, spot.cell.text, f"printed with the value in {spot.where}")
    return _witness(source, FAIL, spot.cell.text, f"the source prints {spot.cell.text!r} in {spot.where}, not "
                    f"{claim.printed!r}")


def _page_check(source: SourceTables, candidates: list[tuple[int, SourceTable]], page: int, spots: list[_Spot],
                row_name: str) -> tuple[str, str]:
    """Whether the cited page is where the PDF prints the cell. The source has no pages, so the PDF's text says:

    - the page printing the table's caption is the table's, unless the table breaks across pages (a LaTeX
      ``longtable``, any HTML or Word table) and a page after it prints this row's label with its numbers;
    - a page after the caption's (up to three, none printing another table's caption) is the table's where the
      table breaks across pages and the page prints the row's label with its numbers; where the caption is set
      below the table (Typst's figures), a page before it (up to three) is;
    - any other page: a fail where the PDF prints the table's caption elsewhere; where the PDF's text gives no
      caption of the table, the page must print the row's label with its numbers, else cannot check.

    Returns ('', '') for the table's page, else (FAIL or CANNOT_CHECK, why)."""
    if not source.page_texts:
        return CANNOT_CHECK, "the PDF's text was not given, so the page cannot be matched to the source's table"
    pages = sorted({p for i, _ in candidates for p in source.pages.get(i, ())})
    label_name = candidates[0][1].label
    breakable = all(t.breakable for _, t in candidates)
    text = source.page_texts[page - 1] if 0 < page <= len(source.page_texts) else ""
    if not pages:
        if _prints(text, spots, row_name):
            return "", ""
        return CANNOT_CHECK, (f"the PDF's text gives no caption of {label_name} beginning as the source's does, and "
                              f"page {page} does not print this cell's label and text")
    others = {p for i, pp in source.pages.items() if all(i != c for c, _ in candidates) for p in pp}
    below = all(t.caption_below for _, t in candidates)
    reach = {q for p in pages for q in range(p - (3 if breakable and below else 0), p + (
        1 if below or not breakable else 4)) if q == p or below or q not in others}
    elsewhere = [q for q in sorted(reach - {page}) if 0 < q <= len(source.page_texts) and q not in pages
                 and _prints(source.page_texts[q - 1], spots, row_name)] if breakable else []
    if page in pages and not elsewhere:
        return "", ""
    if page in reach and page not in pages and _prints(text, spots, row_name):
        return "", ""  # a table that breaks across pages, going on to this one
    if elsewhere:
        return FAIL, f"the PDF prints this cell of {label_name} on page {', '.join(map(str, elsewhere))}, not {page}"
    return FAIL, (f"the PDF prints the caption of {label_name} on page {', '.join(map(str, pages))}, and page {page} "
                  "does not print this cell")


def _prints(page_text: str, spots: list[_Spot], row_name: str) -> bool:
    """Whether a page's text prints the row's label with the cell's number after it, and every other number of the
    row, close by (the rest of the row's line: ``_ROW_REACH`` characters): the label's letters and digits compared
    alone (``_label_ends``)."""
    if not spots:
        return False
    import unicodedata

    text = unicodedata.normalize("NFKC", page_text).lower().replace("\u2212", "-")
    label = NTH.sub(r"\g<name>", row_name).split(" / ")[-1]
    for start in _label_ends(text, label):
        after = text[start:start + _ROW_REACH]
        for spot in spots:
            numbers = [spot.cell] if spot.cell.key is not None else [
                c for c in spot.row.cells if c.reading.value is not None and c.key is None]
            if spot.cell.text and _number_printed(after, spot.cell) and all(_number_printed(after, c) for c in numbers):
                return True
    return False


#: How far after a row's label its cells are looked for in a page's text: a row of a wide table, as extractors
#: write it (a label broken over lines, the cells after it).
_ROW_REACH = 600


def _label_ends(text: str, label: str) -> list[int]:
    """Where a label printed in a page's (normalised) text ends: its letters and digits in order, anything but
    letters and digits between them (a line break inside a word, 'S_max' printed 'Smax'), none just before or
    after."""
    import unicodedata

    characters = [c for c in unicodedata.normalize("NFKC", label).lower() if c.isalnum()]
    if not characters:
        return [0]
    pattern = r"[\W_]*".join(re.escape(c) for c in characters)
    return [m.end() for m in re.finditer(rf"(?<![^\W_]){pattern}(?![^\W_])", text)]


def _number_printed(page_text: str, cell: SourceCell) -> bool:
    """Whether a (normalised) text prints a cell's number (not as part of a longer one), or its whole text."""
    text = page_text
    value = (cell.reading.value or "").lstrip("+-\u2212")
    if value and re.search(rf"(?<![\d.]){re.escape(value)}(?!\d)", text):
        return True
    return bool(cell.text) and squeezed(cell.text).lower() in squeezed(text)


def _printed_anywhere(candidates: list[tuple[int, SourceTable]], value: str) -> list[_Spot]:
    return [_Spot(t, row, column, cell) for _, t in candidates for row, column, cell in t.values()
            if cell.reading.value is not None and _same_number(cell.reading.value, value)]


def _same_number(printed: str, wanted: str) -> bool:
    """Whether two printed numbers are one: as printed, or as the project's one reading of numbers reads them."""
    if _value(printed) == _value(wanted):
        return True
    from registry.numbers import read_number

    one, other = read_number(printed).value, read_number(wanted).value
    return one is not None and one == other


def _witness(source: SourceTables, outcome: str, matched: str = "", detail: str = "") -> Witness:
    return Witness("source", outcome, matched, detail, source.document, source.reader)


def _order(label: str) -> tuple[int, str]:
    digits = "".join(c for c in label if c.isdigit())
    return (int(digits) if digits else 0, label)


def witness(claims: list[Claim], assertions: list[Assertion], sources: list[SourceTables],
            pdf_name: str) -> list[Assertion]:
    """Every table cell claim's assertion with the source witness's verdict beside the PDF's
    (``registry.checking.witnesses``): the first source file that holds the cited table is the one read."""
    out: list[Assertion] = []
    for claim, assertion in zip(claims, assertions, strict=True):
        if not sources or not isinstance(claim, TableCell | CellUncertainty):
            out.append(assertion)
            continue
        holding = next((s for s in sources if any(same_label(t.label, claim.table) for t in s.tables)), sources[0])
        out.append(with_source(assertion, check_cell(holding, claim), pdf_name))
    return out
