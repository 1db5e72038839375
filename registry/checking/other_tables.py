"""The witness of a cell cited in the wrong table: its row (or column) is one of another table's on the same page.

Papers set each table under its own caption, in a block of its own: a row label (a column header) printed in one
table's block is that table's. A record that cites a row or column its table does not print, where another captioned
table on the same page prints it as a row (a column), has cited the wrong table (``Table 2`` for ``Table 3``), and the
page itself is the witness. It is one only where nothing the reader may have cut could be the name (docs/review-
verdicts.md):

- the cited table was read whole under its caption on this page (not carried on from another page, nor read in
  parts), and the name is none of its rows (columns), in any reading under the caption;
- another label's table, read under its own caption on the same page, has it as a row (a column) once, and its block
  lies apart from the cited table's (no word of one inside the other's box): a header word printed above a table the
  reader cut is printed next to that table, not in another captioned block;
- and both extractors say so with the same rows and columns of the cited table (``registry.checking.agreement``
  compares the two accounts): the witness is an ``Absent`` on each reading, a failure only where they agree.

Where the cited table was not read whole, or it prints the name too, it stays 'cannot check'.
"""

from __future__ import annotations

from review.pdf.pdftext import Extraction
from review.pdf.words import Word, squeezed
from review.tables.captions import label_at_line_start
from review.tables.cited import Absent, same_number, tables_on
from review.tables.table import Table, find_columns, find_rows


def in_other_table(doc: Extraction, page: int, label: str, row: str, column: str) -> Absent | None:
    """The witness that ``row`` (or, where the row is found, ``column``) of ``label`` on ``page`` is printed in another
    captioned table on the page and not in ``label``'s; None where the page shows no such thing."""
    words = doc.page_words(page)
    cited = tables_on(doc, page, label) if words is not None else []
    if not cited or any(t.continued or t.carried_from is not None or not t.words or t.subcaption for t in cited):
        return None
    missing = _missing(cited, row, column)
    if missing is None:
        return None
    kind, name = missing
    from review.tables.grid import labels_on

    for other in labels_on(words):  # type: ignore[arg-type]
        if squeezed(other).lower() == squeezed(label).lower():
            continue
        holder = next((t for t in tables_on(doc, page, other) if _holds(t, kind, name) and _apart(t, cited)), None)
        if holder is not None:
            return Absent(f"no {kind} '{name}' in {label} on page {page}; read whole, it has {_listed(cited)}; "
                          f"'{name}' is a {kind} of {holder.label} on the same page: the record cites the wrong "
                          "table")
    return None


def _missing(cited: list[Table], row: str, column: str) -> tuple[str, str] | None:
    """('row', row) where no reading under the caption has the row; ('column', column) where the one that has the row
    has no such column, nor any other reading; None where both are found (or the row is printed more than once)."""
    holding = [t for t in cited if find_rows(t, row)]
    if not holding:
        return "row", row
    if len(holding) > 1 or len(find_rows(holding[0], row)) > 1:
        return None
    if any(find_columns(t, column) for t in cited):
        return None
    return "column", column


def _holds(table: Table, kind: str, name: str) -> bool:
    """Whether a table read under its own caption on the page prints the name as one of its rows (columns)."""
    if table.continued or table.carried_from is not None or not table.words:
        return False
    found = find_rows(table, name) if kind == "row" else find_columns(table, name)
    return len(found) == 1


def _apart(table: Table, cited: list[Table]) -> bool:
    """Whether ``table``'s block lies apart from every cited reading's: no word of either inside the other's box."""
    return all(not _inside(table.words, other.words) and not _inside(other.words, table.words) for other in cited)


def _inside(words: tuple[Word, ...], block: tuple[Word, ...]) -> bool:
    x0, x1 = min(w.x0 for w in block), max(w.x1 for w in block)
    top, bottom = min(w.top for w in block), max(w.bottom for w in block)
    return any(w.centre > x0 and w.centre < x1 and (w.top + w.bottom) / 2 > top and (w.top + w.bottom) / 2 < bottom
               for w in words)


def _listed(tables: list[Table]) -> str:
    """Every row and column of the cited table's readings, for the witness (both extractors' must be the same)."""
    return "; ".join(f"rows {', '.join(repr(r.name) for r in t.rows)} and columns "
                     f"{', '.join(repr(c.name) for c in t.columns)}" for t in tables)



def on_other_page(doc: Extraction, page: int, label: str, row: str, column: str, value: str) -> Absent | None:
    """The witness of a value cited on the wrong page: the cited page holds no reading of ``label`` at all (no
    caption, no part carried on, no line that starts with the label), and the one other page whose table has the
    cited row and column prints the record's value there. A table's body prints each row once, so the cell is that
    page's; a page holding another part of the table under the same names prints another value there, and then
    there is no witness. None otherwise."""
    words = doc.page_words(page)
    if words is None or tables_on(doc, page, label) or label_at_line_start(words, label):
        return None  # a line that starts with the label may be a caption in a form the reader does not know
    found = []
    for other in range(1, doc.page_count + 1):
        if other == page or doc.page_words(other) is None:
            continue
        for table in tables_on(doc, other, label):
            rows, columns = find_rows(table, row), find_columns(table, column)
            found += [(other, table, r, c) for r in rows for c in columns]
    if len(found) != 1:
        return None
    other, table, r, c = found[0]
    cell = table.cell(r, c)
    if cell.value is None or not same_number(cell.value, value):
        return None
    return Absent(f"{label} is printed on page {other}, not on page {page}: row '{r.name}', column '{c.name}' prints "
                  f"{cell.printed_value} there, and page {page} holds no reading of {label}")
