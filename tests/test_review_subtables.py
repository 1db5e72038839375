"""A locator's ``subtable`` ('(b)') checked for real: the cited cell's row is looked up in that sub-table only.

Sub-tables under one caption are read each as a table of its own (``review.tables.read``), the subcaption the outer
level of its rows. A row printed in two sub-tables is found in the one cited; a mark the reader found no
sub-table for is cannot-check naming the sub-tables read; a row not in the cited sub-table but in another is a
fail naming where it is printed. The crossing reading (``review.tables.crossing``) keeps the row's lines under the cited
sub-table's caption, or says it cannot. Synthetic pages (word boxes as an extractor gives them, laid out as
kula-mixture-2018 Table 2 is; stand-ins, not the paper) hold one rule each; the real paper of
``../shared/papers`` (read in place, skipped where absent) holds the typesetting.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path

import pytest

from registry.checking import cells
from registry.checking.agreement import check_both
from registry.checking.cell_units import CellUnit
from registry.checking.cells import TableCell
from registry.checking.claims import CANNOT_CHECK, FAIL, PASS
from review.pdf import poppler
from review.pdf.extract import Readings, read_pdf
from review.pdf.pdftext import Extraction
from review.pdf.words import PageWords, Word
from review.tables import cited
from review.tables.cited import Unread
from review.tables.crossing import read_crossing
from review.tables.crossing_region import NotCrossed
from review.tables.subtables import mark_of, names

ROOT = Path(__file__).resolve().parent.parent
PAPERS = next((p for p in (ROOT.parent / "shared" / "papers", Path("/work/shared/papers")) if p.is_dir()),
              ROOT.parent / "shared" / "papers")
KULA = PAPERS / "kula-mixture-2018"
corpus = pytest.mark.skipif(not KULA.is_dir() or poppler.find_pdftotext() is None,
                            reason=f"kula-mixture-2018 is not in the corpus at {PAPERS}, or poppler-utils is not "
                                   "installed")


@pytest.mark.parametrize(("text", "mark"), [
    ("(b)", "b"), ("b)", "b"), ("b", "b"), ("(B)", "b"), ("(b) Factorization models", "b"), ("(iv)", "iv"),
    ("( c )", "c"), ("AUC", None), ("Factorization models", None), ("TPR@K = 10", None),
])
def test_the_mark_a_subtable_or_a_locator_starts_with(text: str, mark: str | None) -> None:
    assert mark_of(text) == mark


@pytest.mark.parametrize(("subcaption", "wanted", "named"), [
    ("(b) Factorization models", "(b)", True), ("(b) Factorization models", "b)", True),
    ("(b) Factorization models", "b", True), ("(b) Factorization models", "(b) Factorization models", True),
    ("(b) Factorization models", "Factorization models", True), ("(b) Factorization models", "(a)", False),
    ("(a) Sequence models", "(b)", False), ("AUC", "AUC", True), ("AUC", "TPR@K = 10", False),
    ("AUC", "(a)", False),
])
def test_a_locators_subtable_names_a_subtable_by_its_mark_or_its_whole_caption(subcaption: str, wanted: str,
                                                                                 named: bool) -> None:
    assert names(subcaption, wanted) is named


# -- synthetic pages: the grid reader ---------------------------------------------------------------------------


def _words(spec: list[tuple[str, float, float]], top: float) -> list[Word]:
    return [Word(text, x0, top, x1, top + 8.0) for text, x0, x1 in spec]


def _kula_like(*, marked: bool = True) -> PageWords:
    """Two sub-tables under one caption, each with its own header set at its own widths, 'LSTM' printed in both
    (a stand-in laid out as kula-mixture-2018 Table 2 is, with invented numbers). ``marked=False`` leaves the
    subcaptions out: one table with a repeated header."""
    words = _words([("Table", 54.0, 75.0), ("2:", 86.0, 92.0), ("Fixture", 102.0, 130.0), ("table", 134.0, 154.0),
                    ("(test).", 160.0, 190.0)], 125.0)
    if marked:
        words += _words([("(a)", 138.0, 146.0), ("Sequence", 149.0, 182.0), ("models", 184.0, 210.0)], 140.7)
    words += _words([("Model", 59.0, 82.0), ("Movielens", 123.0, 160.0), ("Amazon", 171.0, 201.0),
                     ("Goodbooks", 211.0, 252.0)], 160.0)
    words += _words([("LSTM", 59.0, 81.0), ("0.0908", 138.0, 160.0), ("0.1502", 179.0, 201.0),
                     ("0.1158", 230.0, 252.0)], 175.9)
    words += _words([("Mixture-LSTM", 59.0, 113.0), ("0.1001", 136.0, 160.0), ("0.1889", 176.0, 201.0),
                     ("0.1358", 228.0, 252.0)], 186.8)
    if marked:
        words += _words([("(b)", 131.0, 139.0), ("Factorization", 142.0, 189.0), ("models", 191.0, 217.0)], 200.5)
    words += _words([("Model", 59.0, 82.0), ("Movielens", 142.0, 179.0), ("Amazon", 189.0, 220.0),
                     ("Goodbooks", 230.0, 271.0)], 219.8)
    words += _words([("Factorization", 59.0, 107.0), ("0.1053", 157.0, 179.0), ("0.1001", 197.0, 219.0),
                     ("0.0738", 249.0, 271.0)], 235.7)
    words += _words([("LSTM", 59.0, 81.0), ("0.1200", 157.0, 179.0), ("0.1502", 197.0, 219.0),
                     ("0.1400", 249.0, 271.0)], 250.0)
    return PageWords(4, 612.0, 792.0, tuple(words))


def _doc(page: PageWords) -> Extraction:
    pages = ("",) * (page.number - 1) + (" ".join(w.text for w in page.words),)
    return Extraction(pages=pages, extractor="synthetic", words=(PageWords(1, 612.0, 792.0, ()),) * (page.number - 1)
                      + (page,))


def _cell(value: str, subtable: str | None, row: str = "LSTM", column: str = "Movielens") -> TableCell:
    return TableCell("r", "table cell", 4, "Table 2", row, column, value, subtable=subtable)


def test_a_row_printed_in_two_subtables_is_found_in_the_one_cited() -> None:
    doc = _doc(_kula_like())
    first = _cell("0.0908", "(a)").check(doc)
    assert first.outcome == PASS and "row '(a) Sequence models / LSTM'" in first.detail
    second = _cell("0.1200", "b)").check(doc)
    assert second.outcome == PASS and "row '(b) Factorization models / LSTM'" in second.detail
    # without its sub-table the label is ambiguous, as before: never looked up in the first
    assert _cell("0.0908", None).check(doc).outcome == CANNOT_CHECK
    # the subcaption in the row path is the sub-table too
    assert _cell("0.1200", "(b)", row="(b) Factorization models / LSTM").check(doc).outcome == PASS


def test_the_same_label_cited_in_the_other_subtable_fails_unless_it_prints_the_same_number() -> None:
    doc = _doc(_kula_like())
    wrong = _cell("0.0908", "(b)").check(doc)
    assert wrong.outcome == FAIL
    assert "0.0908 is not printed in Table 2 (b) on page 4; row '(b) Factorization models / LSTM'" in wrong.detail
    assert "has 0.1200" in wrong.detail
    assert "it is printed in another sub-table, row '(a) Sequence models / LSTM', column 'Movielens'" in wrong.detail
    # 'Amazon' prints 0.1502 in both sub-tables' LSTM rows: cited in either, it is printed there
    assert _cell("0.1502", "(a)", column="Amazon").check(doc).outcome == PASS
    assert _cell("0.1502", "(b)", column="Amazon").check(doc).outcome == PASS


def test_a_row_not_in_the_cited_subtable_but_in_another_fails_naming_where_it_is_printed() -> None:
    doc = _doc(_kula_like())
    got = _cell("0.1001", "(a)", row="Factorization", column="Amazon").check(doc)
    assert got.outcome == FAIL
    assert got.detail == ("row 'Factorization' is not printed in sub-table (a) of Table 2 ('(a) Sequence models'); "
                          "it is printed in row '(b) Factorization models / Factorization': correct the locator's "
                          "subtable or row")
    # the unit's claim reads the same cell, and says the same
    unit = CellUnit("r", "unit", 4, "Table 2", "Factorization", "Amazon", "dimensionless", (),
                    subtable="(a)").check(doc)
    assert unit.outcome == FAIL and "is not printed in sub-table (a)" in unit.detail


def test_a_mark_with_no_subtable_read_is_cannot_check_naming_the_subtables_read() -> None:
    doc = _doc(_kula_like())
    got = _cell("0.0908", "(c)").check(doc)
    assert got.outcome == CANNOT_CHECK
    assert ("no sub-table (c) is read under the caption of Table 2; the sub-tables read are '(a) Sequence models', "
            "'(b) Factorization models' (page 4)") in got.detail
    # a row missing from the cited sub-table and from every other is cannot check, naming what the sub-table holds
    missing = _cell("0.0908", "(a)", row="GRU").check(doc)
    assert missing.outcome == CANNOT_CHECK and "no row 'GRU' in sub-table (a) of Table 2 on page 4" in missing.detail


def test_a_table_read_whole_has_no_subtable_to_pass_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cited, "READINGS", ("grid",))
    got = _cell("0.0908", "(a)").check(_doc(_kula_like(marked=False)))
    assert got.outcome == CANNOT_CHECK
    assert "no sub-table (a) is read under the caption of Table 2: it is read as one table" in got.detail


# -- synthetic pages: the crossing reading ------------------------------------------------------------------------


def test_the_crossing_keeps_the_rows_under_the_cited_subtables_caption() -> None:
    page = _kula_like()
    first = read_crossing(page, "Table 2", "LSTM", "Movielens", "(a)")
    assert not isinstance(first, NotCrossed), first
    assert first.cell(first.rows[0], first.columns[0]).value == "0.0908"
    second = read_crossing(page, "Table 2", "LSTM", "Movielens", "b")
    assert not isinstance(second, NotCrossed), second
    assert second.cell(second.rows[0], second.columns[0]).value == "0.1200"
    ambiguous = read_crossing(page, "Table 2", "LSTM", "Movielens")
    assert isinstance(ambiguous, NotCrossed) and "2 lines print the row label 'LSTM'" in ambiguous
    wrong = read_crossing(page, "Table 2", "LSTM", "Movielens", "(c)")
    assert isinstance(wrong, NotCrossed)
    assert wrong == ("the row label 'LSTM' is printed, but under no sub-table (c) (the sub-tables' captions read are "
                     "'(a) Sequence models', '(b) Factorization models')")
    unmarked = read_crossing(_kula_like(marked=False), "Table 2", "Factorization", "Amazon", "(b)")
    assert isinstance(unmarked, NotCrossed) and "no sub-table's caption is read over its rows" in unmarked


def test_the_review_asks_the_crossing_with_the_subtable_where_the_grid_cannot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cited, "READINGS", ("grid", "crossing"))
    monkeypatch.setattr(cells.CellAt, "_find_in_grid", lambda self, doc: Unread("the grid could not"))
    doc = _doc(_kula_like())
    got = _cell("0.1200", "(b)").check(doc)
    assert got.outcome == PASS and "read where the two cross" in got.detail
    assert _cell("0.0908", "(b)").check(doc).outcome == FAIL
    unread = _cell("0.0908", "(c)").check(doc)
    assert unread.outcome == CANNOT_CHECK and "under no sub-table (c)" in unread.detail


# -- the real paper -----------------------------------------------------------------------------------------------


@functools.cache
def _readings() -> Readings:
    return read_pdf(KULA / "paper.pdf")


def _gold() -> list[dict[str, str]]:
    with (KULA / "cells.tsv").open(encoding="utf-8", newline="") as handle:
        return [r for r in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE) if " / " in r["row"]]


def _check(cell: dict[str, str], subtable: str, row: str) -> str:
    claim = TableCell("t", "table cell", int(cell["page"]), cell["table"], row, cell["column"], cell["printed"],
                      subtable=subtable)
    return check_both(claim, _readings()).outcome


@pytest.mark.pdf
@corpus
def test_on_kula_every_subtable_cell_passes_in_its_subtable_and_the_other_fails_unless_it_prints_the_same() -> None:
    gold = _gold()
    assert {c["table"] for c in gold} == {"Table 2", "Table 3"}
    printed = {(c["table"], c["row"], c["column"]): c["printed"] for c in gold}
    marks = {"(a)": "(b)", "(b)": "(a)"}
    crossed = 0
    for cell in gold:
        subcaption, label = cell["row"].split(" / ", 1)
        mark = subcaption.split()[0]
        assert _check(cell, mark, label) == PASS, cell
        other = next((c for c in printed if c[0] == cell["table"] and c[2] == cell["column"]
                      and c[1].startswith(marks[mark]) and c[1].endswith(f" / {label}")), None)
        if other is None:
            # a row printed in one sub-table only, cited in the other: a fail naming where it is printed
            assert _check(cell, marks[mark], label) == FAIL, cell
            continue
        crossed += 1
        expected = PASS if printed[other] == cell["printed"] else FAIL
        assert _check(cell, marks[mark], label) == expected, (cell, other)
    assert crossed >= 12  # Table 3's rows '2', '4', '6', '8' are printed in both sub-tables


@pytest.mark.pdf
@corpus
def test_on_kula_a_wrong_mark_is_cannot_check_naming_the_subtables_read() -> None:
    claim = TableCell("t", "table cell", 4, "Table 3", "2", "Movielens 10M", "0.0882", subtable="(c)")
    got = check_both(claim, _readings())
    assert got.outcome == CANNOT_CHECK
    assert "the sub-tables read are '(a) Sequence models', '(b) Factorization models'" in got.detail
    wrong = check_both(TableCell("t", "table cell", 4, "Table 3", "2", "Movielens 10M", "0.0882", subtable="(b)"),
                       _readings())
    assert wrong.outcome == FAIL and "row '(b) Factorization models / 2', column 'Movielens 10M' has 0.0931" in (
        wrong.detail)
