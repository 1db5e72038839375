"""Every cell the review can check, ``registry table`` shows at the same row and column, and its CSV carries.

On each generated layout (the LaTeX layouts of ``tests/data/layouts`` and the producers of
``tests/data/producers``, test fixtures with gold from their sources): each gold cell whose value the review
passes (``check_both``, both extractors) must be a row of the CSV that ``import_rows`` makes of the page's
``read_page``, at the gold's row and column, with the gold's number (a cell printing only an interval is
written whole, a range whose lower end is the gold's value). Where the reader does not yet give
the table command what the review finds, the layout is a strict expected failure naming the phenomenon.
"""

from __future__ import annotations

import functools
from decimal import Decimal
from pathlib import Path

import pytest

from benchmarks.bench_tables import LAYOUTS, PRODUCERS, read_gold, verdict
from review.pdf import poppler

pytestmark = [pytest.mark.pdf, pytest.mark.skipif(poppler.find_pdftotext() is None,
                                                  reason="poppler-utils is not installed")]

FOLDERS = [p for root in (LAYOUTS, PRODUCERS) for p in sorted(root.iterdir()) if (p / "cells.tsv").is_file()]
#: Layouts where a cell the review passes is missing from the CSV, with why (strict expected failures).
GAPS = {
    "threeparttable-notes": "a note's letter set as a superscript against the value ('71.9a') is read as text after "
                            "the number: the review compares the first number and passes, the CSV leaves the cell "
                            "out ('it prints more than a number')",
    "pandoc": "a superscript letter against the value ('12.4a'), as in threeparttable-notes",
    # read from their structure trees (review.tables.tagged), every row and column is the gold's: what is left is the same
    "html": "a superscript letter against the value ('12.4a'), as in threeparttable-notes",
    "typst": "a superscript letter against the value ('12.4a'), as in threeparttable-notes",
    "libreoffice-tagged": "a superscript letter against the value ('12.4a'), as in threeparttable-notes",
    # read from its drawn rules (review.pdf.drawn): the same
    "libreoffice-ruled": "a superscript letter against the value ('12.4a'), as in threeparttable-notes",
}


@functools.cache
def _missing(folder: Path) -> tuple[str, ...]:
    from registry.checking.agreement import check_both
    from registry.checking.cells import TableCell
    from registry.curate.values import split_printed
    from registry.errors import RegistryError
    from registry.numbers import parse_printed
    from review.pdf.extract import read_pdf
    from review.tables.grid import read_page
    from review.tables.grid_import import import_rows

    gold = read_gold(folder / "cells.tsv")
    readings = read_pdf(folder / "paper.pdf")
    written: dict[tuple[int, str, str, str], str] = {}
    for page, label in sorted({(c.page, c.table) for c in gold}):
        try:
            grid = read_page(folder / "paper.pdf", page, label)
        except RegistryError:  # no table read there: every cell the review passes is missing
            continue
        for row in import_rows(grid).rows:
            written[(page, label, row["row"], row["column"])] = row["value"]
    missing = []
    for cell in gold:
        claim = TableCell("gold", "table cell", cell.page, cell.table, cell.row, cell.column, cell.printed_value)
        if verdict(check_both(claim, readings)) != "pass":
            continue
        value = written.get((cell.page, cell.table, cell.row, cell.column))
        if value is None or parse_printed(split_printed(value)[1]) != Decimal(cell.value):  # a range: its lower end
            missing.append(f"{cell.table} p.{cell.page} '{cell.row}' / '{cell.column}' ({cell.printed!r}): "
                           f"{'not in the CSV' if value is None else f'written {value!r}'}")
    return tuple(missing)


@pytest.mark.parametrize("folder", [
    pytest.param(f, id=f.name, marks=pytest.mark.xfail(strict=True, reason=GAPS[f.name])) if f.name in GAPS
    else pytest.param(f, id=f.name) for f in FOLDERS])
def test_every_cell_the_review_passes_is_in_the_csv(folder: Path) -> None:
    assert not _missing(folder), _missing(folder)[:5]


def test_each_gap_names_a_layout_that_is_here() -> None:
    assert set(GAPS) <= {f.name for f in FOLDERS}
