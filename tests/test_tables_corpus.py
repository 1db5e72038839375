"""The table reader on real published papers (``../shared/papers``, read in place; skipped where absent).

Each case is one table of one paper whose typesetting exercises a rule of the reader: every gold
cell of it (``cells.tsv``, transcribed from the LaTeX source) must pass the review's cell check with
both extractors, and the value of the neighbouring row must fail. The whole corpus is measured by
``benchmarks/bench_tables.py``; these cases keep what it reads from going back.
"""

from __future__ import annotations

import csv
import functools
import re
from pathlib import Path

import pytest

from registry.checking.agreement import check_both
from registry.checking.cells import TableCell
from registry.checking.claims import PASS
from registry.checking.uncertainty import CellUncertainty
from review.pdf import poppler
from review.pdf.extract import Readings, read_pdf

ROOT = Path(__file__).resolve().parent.parent
PAPERS = next((p for p in (ROOT.parent / "shared" / "papers", Path("/work/shared/papers")) if p.is_dir()),
              ROOT.parent / "shared" / "papers")

pytestmark = [
    pytest.mark.pdf,
    pytest.mark.skipif(not PAPERS.is_dir(), reason=f"the corpus of real papers is not at {PAPERS}"),
    pytest.mark.skipif(poppler.find_pdftotext() is None, reason="poppler-utils is not installed"),
]


@functools.cache
def _readings(slug: str) -> Readings:
    return read_pdf(PAPERS / slug / "paper.pdf")


def _gold(slug: str, table: str, page: int) -> list[dict[str, str]]:
    with (PAPERS / slug / "cells.tsv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [r for r in rows if r["table"] == table and int(r["page"]) == page]


def _printed_value(printed: str) -> str:
    found = re.search(r"[-+\u2212\u2013]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?:[eE][-+\u2212]?\d+)?", printed)
    assert found is not None, printed
    return found.group(0)


CASES = [
    # multirow labels in two outer label columns, centred between rows and on a row's line; ± in the cell
    ("vieira-isklearn-2021", "TABLE II", 6),
    # a spanning header whose arrow an extractor sets apart ('MASE ↓' over 'mean' and 'std'); header and body
    # apart by more than a line
    ("david-hermes-2023", "Table 2", 11),
    # spanning headers narrower than the two columns they span ('Black (B)' over 'BF' and 'BM')
    ("robinson-facebias-2020", "Table 1", 3),
    # a sideways (landscape) table of 323 cells, 'mean (s.d.)' in each, under a header that holds numbers
    ("kaiser-simple-2019", "Table 3", 15),
    # each label set once, centred beside two lines of numbers ('AF #1', 'AF #2'), in a column beside running text
    ("robinson-facebias-2020", "Table 3", 7),
    # four sub-tables side by side, numbers for row labels, each group ('N = 2000') over its stub; two such blocks
    ("seita-minibatch-2017", "Table 3", 14),
    # a table* over a figure whose labels run on to its caption; a text cell wider than its header; a spanning
    # header narrower than the headers centred under it
    ("robinson-facebias-2020", "Table 2", 4),
    # cells that print a count and a bracketed note ('397 (1F; 16 mins)') under two-line headers, beside a stub
    # header an extractor sets on a line between the header's halves
    ("san-qbestd-2021", "Table 1", 3),
    # pairs in brackets ('(14.1, .000)': the t-value is the cell's value) under 'H1: b. > a.' set with math spaces
    ("san-qbestd-2021", "Table 2", 5),
    # rows of times with their unit set against the number ('88s'), a dash for an empty cell among them
    ("ellis-library-2018", "Table 3", 8),
    # a header of settings named with units ('20m', '5k') over a last row of times ('10m')
    ("vieira-isklearn-2021", "TABLE III", 7),
    # a table of parameters: every cell prints 'name = value' ('S_max = 96', 'p_elim−pot = 1.36e−4')
    ("lim-plasticity-2024", "Table 1", 9),
    # papers not made by TeX (docs/table-reading.md):
    # Chromium: 'Table 1-' caption, a heading over the table naming its rows, an oblique header, rows set far apart,
    # labels centred on their rows over two lines ('Synaptoso' / 'me C1')
    ("khosrozadeh-vesicles-2022", "Table 1", 6),
    # Chromium: the same table broken across pages, its caption on the page before; a heading carried over
    ("khosrozadeh-vesicles-2022", "Table 1", 8),
    # Elsevier (Acrobat Distiller): 'Table 2' alone on its line, its caption across both columns; group headers set
    # flush left over their columns
    ("li-rsad-2025", "Table 2", 6),
    # Typst: model names wrapped after a hyphen under their rows
    ("becker-injections-2025", "Table 1", 8),
    # Arbortext/PDFlib: columns named 1 ... 12; a label whose first line has no values ('The difference' / 'from
    # the mean')
    ("li-train-2023", "Table 7", 12),
    # Word: one count a row, rows 21 points apart, group labels centred on their rows beside a total
    ("samyuktha-leukemia-2024", "Table 3", 8),
]


@pytest.mark.parametrize(("slug", "table", "page"), CASES)
def test_every_gold_cell_of_the_table_passes_and_the_next_rows_value_fails(slug: str, table: str, page: int) -> None:
    if not (PAPERS / slug).is_dir():
        pytest.skip(f"{slug} is not in the corpus at {PAPERS}")
    readings = _readings(slug)
    gold = _gold(slug, table, page)
    assert gold, f"no gold cells of {table} on page {page}"
    failed = []
    for cell in gold:
        where = ("t", "table cell", page, table, cell["row"], cell["column"])
        claims = [TableCell(*where, _printed_value(cell["printed"]))]  # type: ignore[arg-type]
        if cell["plus_minus"]:
            printed = re.search(r"\u00b1\s*([\d.]+)|\(([\d.]+)\)", cell["printed"])
            spread = (printed.group(1) or printed.group(2)) if printed else cell["plus_minus"]
            claims.append(CellUncertainty("t", "uncertainty", *where[2:], f"\u00b1 {spread}", False))
        for claim in claims:
            assertion = check_both(claim, readings)
            if assertion.outcome != PASS:
                failed.append((cell["row"], cell["column"], claim.claim, assertion.outcome, assertion.detail))
    assert failed == []
    by_column: dict[str, list[dict[str, str]]] = {}
    for cell in gold:
        by_column.setdefault(cell["column"], []).append(cell)
    slipped = []
    for cells in by_column.values():
        for cell, below in zip(cells, cells[1:], strict=False):
            value = _printed_value(below["printed"])
            if value.replace(",", "") == _printed_value(cell["printed"]).replace(",", ""):
                continue
            assertion = check_both(TableCell("t", "table cell", page, table, cell["row"], cell["column"], value),
                                   readings)
            if assertion.passed:
                slipped.append((cell["row"], cell["column"], value))
    assert slipped == []


def test_two_tables_stacked_on_a_page_are_each_read_under_their_own_caption() -> None:
    """Tables 2 and 3 of hardy-highres-2019 stand one above the other on page 7, captions above: Table 2's cells
    are read in Table 2, not in the block over Table 3's caption."""
    slug = "hardy-highres-2019"
    if not (PAPERS / slug).is_dir():
        pytest.skip(f"{slug} is not in the corpus at {PAPERS}")
    readings = _readings(slug)
    for table in ("Table 2", "Table 3"):
        for cell in _gold(slug, table, 7):
            claim = TableCell("t", "table cell", 7, table, cell["row"], cell["column"], _printed_value(cell["printed"]))
            assertion = check_both(claim, readings)
            assert assertion.outcome == PASS, (table, cell["row"], cell["column"], assertion.detail)


def test_a_fraction_in_a_header_and_a_turned_group_label() -> None:
    """macha-classification-2023's Table 6.2 heads its shares '\\frac{n^+}{n}' beside a count headed 'n', both
    under 'Train', 'Validation' and 'Test'; robinson-facebias-2020's Table 4 sets its row group 'Human' turned a
    quarter beside rows CM to WM (its CF row, above the turned words, is left out here: see the history of
    benchmarks/RESULTS-tables.md in git)."""
    cases = [("macha-classification-2023", "Table 6.2", 68, lambda c: c["column"].endswith("n+/n")),
             ("robinson-facebias-2020", "Table 4", 8, lambda c: c["row"].startswith("Human /")
              and c["row"] != "Human / CF")]
    for slug, table, page, chosen in cases:
        if not (PAPERS / slug).is_dir():
            pytest.skip(f"{slug} is not in the corpus at {PAPERS}")
        readings = _readings(slug)
        cells = [c for c in _gold(slug, table, page) if chosen(c)]
        assert len(cells) >= 15
        for cell in cells:
            claim = TableCell("t", "table cell", page, table, cell["row"], cell["column"],
                              _printed_value(cell["printed"]))
            assertion = check_both(claim, readings)
            assert assertion.outcome == PASS, (table, cell["row"], cell["column"], assertion.detail)
