"""The scoring of ``benchmarks/bench_table_finders.py`` (issue 22: other table finders measured against the review's
reader): which grid is the cited table, how a grid's rows and columns are named, and the three verdicts, on
hand-made grids; then one finder end to end on one real paper (skipped where the corpus or pdfplumber is absent).
"""

from __future__ import annotations

import importlib.util

import pytest

from benchmarks.bench_table_finders import (
    CANNOT,
    FAIL,
    FINDERS,
    PAPERS,
    PASS,
    Caption,
    Finder,
    Grid,
    candidates,
    locate,
    main,
    read_gold,
    read_grid,
    run_finder,
    score,
)

#: A hand-made table (a test fixture, invented numbers): a spanning header over two columns, a stub of two label
#: columns whose outer label is set once (a \multirow), a label line over a row group, and a label printed twice.
RESULTS = Grid(100.0, 200.0, 400.0, 320.0, (
    ("Model", "", "Set A", "", "Set B"),
    ("", "", "Acc", "F1", "Acc"),
    ("Zero-shot", "Base", "71.4", "0.52", "\u221212.5"),
    ("", "Large", "73.1\u2020", "0.61", "68.0 \u00b1 0.3"),
    ("Fine-tuned", "", "", "", ""),
    ("", "Base", "80.2", "0.70", "75.5"),
    ("", "Base", "81.0", "0.71", "76.1"),
))
CAPTION = Caption("Table 2", 100.0, 180.0, 400.0, 190.0)  # set over the table


def test_row_and_column_paths_of_a_grid() -> None:
    read = read_grid(RESULTS)
    assert [levels for levels, _ in read.rows] == [
        ("Zero-shot", "Base"), ("Zero-shot", "Large"), ("Fine-tuned", "Base"), ("Fine-tuned", "Base")]
    assert [levels for levels, _ in read.columns] == [("Set A", "Acc"), ("Set A", "F1"), ("Set B", "Acc")]


@pytest.mark.parametrize(("row", "column", "value", "expected"), [
    ("Zero-shot / Base", "Set A / Acc", "71.4", PASS),  # found, equal
    ("Large", "F1", "0.61", PASS),  # the last levels of a path name it, as in the review
    ("Zero-shot / Large", "Set A / Acc", "73.1", PASS),  # a mark after the value is no part of it
    ("Zero-shot / Base", "Set B / Acc", "-12.5", PASS),  # a U+2212 minus is a minus
    ("Zero-shot / Large", "Set B / Acc", "68.0", PASS),  # the value before its ±
    ("Zero-shot / Base", "Set A / Acc", "73.1", FAIL),  # found, another number: the neighbouring row's value
    ("Zero-shot / Base", "Set A / F1", "71.4", FAIL),  # the neighbouring column's
    ("Zero-shot / Base", "Set B / Acc", "12.5", FAIL),  # the sign counts
    ("Fine-tuned / Base #2", "Set B / Acc", "76.1", PASS),  # the Nth printing of a repeated label
    ("Fine-tuned / Base #1", "Set B / Acc", "76.1", FAIL),
    ("Zero-shot / Huge", "Set A / Acc", "71.4", CANNOT),  # no such row
    ("Zero-shot / Base", "Set C / Acc", "71.4", CANNOT),  # no such column
    ("Fine-tuned / Base", "Set A / Acc", "80.2", CANNOT),  # two rows match and no #N says which
    ("Base #3", "Set A / Acc", "81.0", PASS),  # N counts the label's rows from the top of the table
    ("Base #4", "Set A / Acc", "80.2", CANNOT),
    ("Zero-shot / Base", "Acc", "71.4", CANNOT),  # 'Acc' is under both sets
])
def test_scoring_a_cell(row: str, column: str, value: str, expected: str) -> None:
    found = locate(candidates([RESULTS], [CAPTION], "Table 2"), row, column)
    assert score(found, value) == expected, found
    if expected == CANNOT:
        assert found.why  # says what was read instead


def test_a_header_set_on_two_lines_is_one_name() -> None:
    grid = Grid(0.0, 0.0, 10.0, 10.0, (("", "No.", "Set"), ("Data", "classes", "A"), ("Iris", "3", "0.97"),
                                       ("Wine", "3", "0.91")))
    assert score(locate([grid], "Wine", "No. classes"), "3") == PASS
    assert score(locate([grid], "Iris", "Set A"), "0.97") == PASS
    assert score(locate([grid], "Iris", "Set B"), "0.97") == CANNOT


def test_a_spanning_header_set_centred_spans_the_columns_nearest_it() -> None:
    grid = Grid(0.0, 0.0, 10.0, 10.0, (("", "", "MSE Loss", "", "", "TV Loss", ""),
                                       ("Quantity", "MAE", "SMAPE", "R2", "MAE", "SMAPE", "R2"),
                                       ("id (A)", "28.1351", "0.9702%", "0.6572", "27.9123", "0.4619%", "0.9224"),
                                       ("iq (A)", "26.8912", "2.3925%", "0.9507", "26.5234", "1.9014%", "0.9631")))
    assert [levels for levels, _ in read_grid(grid).columns] == [
        ("MSE Loss", "MAE"), ("MSE Loss", "SMAPE"), ("MSE Loss", "R2"), ("TV Loss", "MAE"), ("TV Loss", "SMAPE"),
        ("TV Loss", "R2")]
    assert score(locate([grid], "id (A)", "MSE Loss / MAE"), "28.1351") == PASS
    assert score(locate([grid], "id (A)", "MSE Loss / MAE"), "27.9123") == FAIL


def test_a_cell_that_prints_no_number_fails() -> None:
    grid = Grid(0.0, 0.0, 10.0, 10.0, (("", "Acc", "F1"), ("Base", "71.4", "0.52"), ("Large", "n/a", "0.61")))
    assert score(locate([grid], "Large", "Acc"), "73.1") == FAIL


def test_which_grid_is_the_cited_table() -> None:
    """Two tables stacked on a page, captions above: each grid is its nearest caption's; a caption with no grid
    near it gets none; a page with no caption of the label (a continued table) tries the unclaimed grids."""
    first = Grid(100.0, 110.0, 400.0, 200.0, (("", "Acc"), ("Base", "1.0")))
    second = Grid(100.0, 260.0, 400.0, 360.0, (("", "Acc"), ("Base", "2.0")))
    beside = Grid(450.0, 100.0, 550.0, 400.0, (("", "Acc"), ("Base", "3.0")))  # the other column of the page
    captions = [Caption("Table 1", 100.0, 95.0, 400.0, 105.0), Caption("Table 2", 100.0, 245.0, 400.0, 255.0)]
    assert candidates([second, first, beside], captions, "Table 1") == [first]
    assert candidates([second, first, beside], captions, "Table 2") == [second]
    assert score(locate(candidates([first, second], captions, "Table 2"), "Base", "Acc"), "2.0") == PASS
    assert score(locate(candidates([first, second], captions, "Table 2"), "Base", "Acc"), "1.0") == FAIL
    assert candidates([beside], captions, "Table 1") == []
    assert score(locate([], "Base", "Acc"), "1.0") == CANNOT
    assert candidates([second, beside], [], "Table 3") == [beside, second]  # top first


def test_a_grid_that_holds_a_caption_is_cut_there() -> None:
    """Captions under their tables (wilde-kmodes-2020's layout): a finder's grid that starts at Table 1's caption
    holds Table 2's body; cut at the caption, Table 1 is the grid over its caption and Table 2 the one over its."""
    first = Grid(100.0, 100.0, 400.0, 140.0, (("", "Cost"), ("Cao", "3118.00 (0.000)"), ("Huang", "2856.50 (104.245)")),
                 ((100.0, 112.0), (114.0, 126.0), (128.0, 140.0)))
    joined = Grid(100.0, 142.0, 400.0, 200.0, (("", "Table 1: Results on breast cancer.", ""), ("", "Cost", ""),
                                              ("Cao", "20381.00 (0.000)", ""), ("Huang", "23027.24 (1209.753)", "")),
                  ((142.0, 152.0), (160.0, 172.0), (174.0, 186.0), (188.0, 200.0)))
    captions = [Caption("Table 1", 120.0, 143.0, 380.0, 151.0), Caption("Table 2", 120.0, 205.0, 380.0, 213.0)]
    assert score(locate(candidates([first, joined], captions, "Table 1"), "Cao", "Cost"), "3118.00") == PASS
    assert score(locate(candidates([first, joined], captions, "Table 2"), "Cao", "Cost"), "20381.00") == PASS
    # without the row positions the grid stays whole, and its caption row is read as a header level
    whole = Grid(joined.x0, joined.top, joined.x1, joined.bottom, joined.cells)
    assert score(locate(candidates([first, whole], captions, "Table 2"), "Cao", "Cost"), "20381.00") == PASS


def test_a_finder_whose_library_is_missing_is_skipped_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    absent = Finder("nothing-here", "no_such_table_finder_module", lambda path, pdf, page: [])
    assert absent.missing() == ("nothing-here: skipped, no_such_table_finder_module is not installed "
                                "(pip install -e '.[bench]')")
    monkeypatch.setattr("benchmarks.bench_table_finders.FINDERS", (absent,))
    if not PAPERS.is_dir():
        pytest.skip(f"the corpus of real papers is not at {PAPERS}")
    assert main(["--finders", "nothing-here", "--only", "kula-mixture-2018"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    skipped = [line for line in out if "skipped" in line]
    assert len(skipped) == 1 and "not installed" in skipped[0], out


def test_without_pdfplumber_every_finder_is_skipped_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    if not PAPERS.is_dir():
        pytest.skip(f"the corpus of real papers is not at {PAPERS}")
    real = importlib.util.find_spec
    monkeypatch.setattr("importlib.util.find_spec",
                        lambda name, *rest: None if name.split(".")[0] == "pdfplumber" else real(name, *rest))
    assert main(["--finders", "pdfplumber-text,camelot-stream", "--only", "kula-mixture-2018"]) == 0
    assert capsys.readouterr().out.strip().splitlines() == [
        "pdfplumber-text, camelot-stream: skipped, pdfplumber is not installed (pip install -e '.[bench]'); it finds "
        "the captions for every finder"]


@pytest.mark.pdf
@pytest.mark.skipif(not PAPERS.is_dir(), reason=f"the corpus of real papers is not at {PAPERS}")
@pytest.mark.skipif(importlib.util.find_spec("pdfplumber") is None,
                    reason="pdfplumber is not installed (pip install -e '.[bench]')")
def test_pdfplumber_text_strategy_on_a_real_paper() -> None:
    """giordano-covariances-2018 (JMLR, one column, booktabs): its Table 2 is read by pdfplumber's text strategy;
    every gold cell gets one verdict and none of its neighbour slips passes."""
    finder = next(f for f in FINDERS if f.name == "pdfplumber-text")
    result = run_finder(finder, PAPERS / "giordano-covariances-2018")
    gold = read_gold(PAPERS / "giordano-covariances-2018" / "cells.tsv")
    assert sum(result.right.values()) == len(gold)
    assert result.right[PASS] > 0 and result.right[FAIL] == 0
    assert result.slips["passed"] == 0 and sum(result.slips.values()) > 0
    assert result.pages == len({c.page for c in gold})
    passed = {(c.table, c.row, c.column) for c in gold} - {(c.table, c.row, c.column) for c, _, _ in result.unpassed}
    assert ("Table 2", "\u03b22", "MCMC") in passed
