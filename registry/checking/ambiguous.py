"""The witness against a value cited at a row or column whose name the table prints more than once.

A cell is cited by its row's and its column's names; where the table prints a name twice (a column 'bh' under
'CER' and again under 'WER', a row label repeated in two groups), the locator names several cells and cannot tell
which it means ('cannot check', with the advice to name the group). Yet the page still witnesses a wrong value:
where *every* cell the names can mean prints a number and none of them prints the record's (nor a second figure,
nor a range's end equal to it), the value is not printed where the record cites it, whichever cell it means. Where
one of them prints it, or one holds no number, it stays 'cannot check'. Both extractors check it alike
(``registry.checking.agreement``).
"""

from __future__ import annotations

from review.pdf.pdftext import Extraction
from review.tables.cell import CellText
from review.tables.cited import _value, same_number, tables_on
from review.tables.figures import second_figures
from review.tables.table import find_columns, find_rows


def cells_named(doc: Extraction, page: int, label: str, row: str, column: str) -> list[tuple[str, CellText]]:
    """Every cell of ``label`` on ``page`` that ``row`` and ``column`` can name, with where it is, where they name
    more than one; else an empty list."""
    named = [(f"row '{r.name}', column '{c.name}'", t.cell(r, c))
             for t in (tables_on(doc, page, label) if doc.page_words(page) is not None else [])
             for r in find_rows(t, row) for c in find_columns(t, column)]
    return named if len(named) > 1 else []


def none_prints(named: list[tuple[str, CellText]], filed: str) -> bool:
    """Whether every named cell prints a number and none of them prints ``filed`` (as its value, a range's end or a
    figure after its value)."""
    wanted = _value(filed)
    return bool(named) and all(
        cell.value is not None and not same_number(cell.value, filed)
        and not (cell.upper is not None and same_number(cell.upper, filed))
        and all(_value(f) != wanted for f in second_figures(cell.rest))
        for _, cell in named)
