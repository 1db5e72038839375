"""A cell cited in the wrong table fails where the page witnesses it: its row (or column) is one of another captioned
table's on the same page, and the cited table, read whole alike by both extractors, has none such
(``registry.checking.other_tables``). Tests on word coordinates as the extractors give them (invented fixture pages,
not any paper's).

Each failing case fails with the rule switched off (it was 'cannot check': the name's words are printed on the page
outside the cited table, so the reading was taken to have missed part of it); a right claim in a table that shares
a row name with another table passes, and a cited table the two extractors read differently stays 'cannot check'.
"""

from __future__ import annotations

import pytest

import registry.checking.cells as cells
from registry.checking.agreement import check_both
from registry.checking.cells import TableCell
from registry.checking.claims import CANNOT_CHECK, FAIL, PASS
from review.pdf.extract import Readings
from review.pdf.pdftext import Extraction
from review.pdf.words import PageWords, Word
from tests.placed_words import placed_line, placed_text

_line, _words = placed_line, placed_text


def _sizes(top: float, *, shared: bool = True) -> list[list[Word]]:
    """Table 1: win rates by model size; its last row 'Ours' (a name Table 2 prints too, where ``shared``)."""
    return [_words(top, "Table 1: Win rates of the models, a fixture typeset for the tests."),
            _line(top + 15, ("Model", 100), ("7B", 200), ("13B", 260)),
            _line(top + 28, ("Baseline", 100), ("71.3", 200), ("72.1", 260)),
            _line(top + 40, ("Ours" if shared else "Tuned", 100), ("73.4", 200), ("74.0", 260))]


def _retrieval(top: float, *, cut: bool = False) -> list[list[Word]]:
    """Table 2: retrieval scores; ``cut`` leaves its first row out (one extractor's reading of a table cut short)."""
    rows = [_line(top + 28, ("Sparse", 100), ("55.2", 200), ("61.8", 280)),
            _line(top + 40, ("Ours", 100), ("58.9", 200), ("64.5", 280))]
    return [_words(top, "Table 2: Retrieval scores on the test split, a fixture typeset for the tests."),
            _line(top + 15, ("Method", 100), ("Recall", 200), ("Precision", 280)),
            *(rows[1:] if cut else rows)]


def _prose(top: float) -> list[list[Word]]:
    return [_words(top + 12 * i, "the models were trained for three days on eight machines with the same data "
                                 "and the same settings as before") for i in range(5)]


def _doc(lines: list[list[Word]], extractor: str) -> Extraction:
    words = PageWords(1, 600.0, 800.0, tuple(w for line in lines for w in line))
    return Extraction(pages=("\n".join(" ".join(w.text for w in line) for line in lines),), extractor=extractor,
                      words=(words,))


def _both(first: list[list[Word]], second: list[list[Word]] | None = None) -> Readings:
    return Readings(_doc(first, "pypdf 5"), _doc(first if second is None else second, "pdftotext 24"))


def _page(*, shared: bool = True) -> list[list[Word]]:
    return [*_prose(60), *_sizes(150, shared=shared), *_prose(230), *_retrieval(320), *_prose(400)]


def _cite(readings: Readings, table: str, row: str, column: str, value: str):  # type: ignore[no-untyped-def]
    return check_both(TableCell("r", "table cell", 1, table, row, column, value), readings)


def test_a_row_of_another_table_on_the_page_cited_in_this_one_fails_naming_where_it_is() -> None:
    readings = _both(_page())
    assert _cite(readings, "Table 1", "Baseline", "7B", "71.3").outcome == PASS
    got = _cite(readings, "Table 2", "Baseline", "Recall", "71.3")
    assert got.outcome == FAIL  # rule off: cannot check ('baseline' is printed on the page outside Table 2)
    assert got.detail.startswith("no row 'Baseline' in Table 2 on page 1; read whole, it has rows 'Sparse', 'Ours' and "
                              "columns 'Recall', 'Precision'")
    assert "'Baseline' is a row of Table 1 on the same page: the record cites the wrong table" in got.detail
    assert got.detail.endswith("pdftotext reads the same rows and columns")


def test_a_column_of_another_table_cited_in_this_one_fails() -> None:
    got = _cite(_both(_page()), "Table 1", "Ours", "Recall", "58.9")  # 'Ours' is a row of both tables
    assert got.outcome == FAIL  # rule off: cannot check
    assert "'Recall' is a column of Table 2 on the same page" in got.detail


def test_with_the_rule_off_the_wrong_table_cannot_be_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cells, "in_other_table", lambda *args: None)
    assert _cite(_both(_page()), "Table 2", "Baseline", "Recall", "71.3").outcome == CANNOT_CHECK


def test_right_claims_in_tables_that_share_a_row_name_pass() -> None:
    readings = _both(_page())
    assert _cite(readings, "Table 1", "Ours", "7B", "73.4").outcome == PASS
    assert _cite(readings, "Table 2", "Ours", "Recall", "58.9").outcome == PASS
    assert _cite(readings, "Table 2", "Ours", "Precision", "64.5").outcome == PASS


def test_a_cited_table_the_extractors_read_differently_cannot_be_checked() -> None:
    page = _page(shared=False)
    cut = [*_prose(60), *_sizes(150, shared=False), *_prose(230), *_retrieval(320, cut=True), *_prose(400)]
    got = _cite(_both(page, cut), "Table 2", "Tuned", "Recall", "73.4")
    assert got.outcome == CANNOT_CHECK  # one extractor read Table 2 without its first row: no witness


def test_a_name_printed_only_in_running_text_cannot_be_checked() -> None:
    page = [*_sizes(100), *_prose(180), *_retrieval(260)]  # 'machines' is printed in the prose, in no table
    got = _cite(_both(page), "Table 2", "machines", "Recall", "58.9")
    assert got.outcome == CANNOT_CHECK


# -- the wrong page, where the cited page may hold a part of the table -------------------------------------------------


def _pages(first: list[list[Word]], second: list[list[Word]]) -> Readings:
    def doc(extractor: str) -> Extraction:
        pages = (first, second)
        return Extraction(pages=tuple("\n".join(" ".join(w.text for w in line) for line in p) for p in pages),
                          extractor=extractor,
                          words=tuple(PageWords(n, 600.0, 800.0, tuple(w for line in p for w in line))
                                      for n, p in enumerate(pages, start=1)))
    return Readings(doc("pypdf 5"), doc("pdftotext 24"))


def test_a_value_cited_on_the_page_after_a_table_that_runs_to_its_foot_fails_where_its_page_prints_it() -> None:
    readings = _pages([*_prose(100), *_sizes(600)], _prose(100))  # nothing under Table 1: it may go on on page 2
    got = check_both(TableCell("r", "table cell", 2, "Table 1", "Ours", "7B", "73.4"), readings)
    assert got.outcome == FAIL  # rule off: cannot check (page 2 may hold a part of Table 1)
    assert got.detail.startswith("Table 1 is printed on page 1, not on page 2: row 'Ours', column '7B' prints 73.4")


def test_another_value_cited_there_cannot_be_checked() -> None:
    readings = _pages([*_prose(100), *_sizes(600)], _prose(100))  # page 2 may print the row again, with this value
    got = check_both(TableCell("r", "table cell", 2, "Table 1", "Ours", "7B", "75.0"), readings)
    assert got.outcome == CANNOT_CHECK


def test_with_the_rule_off_the_page_after_cannot_be_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cells, "on_other_page", lambda *args: None)
    readings = _pages([*_prose(100), *_sizes(600)], _prose(100))
    assert check_both(TableCell("r", "table cell", 2, "Table 1", "Ours", "7B", "73.4"), readings).outcome \
        == CANNOT_CHECK
