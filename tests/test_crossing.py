"""The targeted reading of one cited cell: where the row's line and the column's header cross (``review.tables.crossing``).

Synthetic pages (word lists with boxes, as an extractor gives them) hold one rule each; real papers of
``../shared/papers`` (read in place, skipped where absent) hold the typesetting the grid reader leaves unread
and the crossing reads: row groups on label lines above their rows, a top-aligned ``\\multirow`` beside them,
headers on three levels. Through ``CellAt`` the crossing is asked only where the grid cannot read the cell,
and the verdict says it was read where the two cross.
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
from registry.checking.uncertainty import CellUncertainty
from review.pdf import poppler
from review.pdf.extract import Readings, read_pdf
from review.pdf.pdftext import Extraction
from review.pdf.words import PageWords, Word
from review.tables import cited
from review.tables.cited import Unread
from review.tables.crossing import read_crossing
from review.tables.crossing_region import NotCrossed, table_regions
from review.tables.table import Table

HEIGHT = 8.0
CHAR = 5.0


def _line(top: float, *words: tuple[str, float]) -> list[Word]:
    return [Word(text, x0, top, x0 + CHAR * len(text), top + HEIGHT) for text, x0 in words]


def _page(*lines: list[Word], number: int = 1) -> PageWords:
    return PageWords(number, 600.0, 800.0, tuple(w for line in lines for w in line))


def _text(top: float, *texts: str) -> list[Word]:
    """A line of running text: words one space apart from the left margin."""
    x = 100.0
    placed = []
    for text in texts:
        placed.append((text, x))
        x += CHAR * len(text) + 3
    return _line(top, *placed)


def _caption(top: float, number: int, *words: str) -> list[Word]:
    """A caption line across the middle of the page (a one-column page: the table may take its whole width)."""
    return _text(top, "Table", f"{number}:", *words, "(a", "fixture", "typeset", "for", "the", "tests).")


CAPTION = _caption(100, 1, "Results")
HEADER = _line(115, ("Model", 100), ("Acc", 200), ("F1", 260))
ROWS = [_line(128, ("Baseline", 100), ("71.4", 200), ("0.50", 260)),
        _line(140, ("Ours", 100), ("73.1", 200), ("0.52", 260))]


def _cell(read: Table | NotCrossed) -> str:
    assert isinstance(read, Table), read
    return read.cell(read.rows[0], read.columns[0]).text


def test_reads_the_number_where_the_row_and_the_column_cross() -> None:
    page = _page(CAPTION, HEADER, *ROWS)
    assert _cell(read_crossing(page, "Table 1", "Ours", "F1")) == "0.52"
    assert _cell(read_crossing(page, "Table 1", "Baseline", "Acc")) == "71.4"


def test_a_spanning_header_narrower_than_its_columns_spans_them() -> None:
    page = _page(CAPTION,
                 _line(115, ("Set", 215), ("A", 235), ("Set", 335), ("B", 355)),
                 _line(127, ("Model", 100), ("PPL", 190), ("Hit@1", 250), ("PPL", 310), ("Hit@1", 370)),
                 _line(140, ("Ours", 100), ("12.1", 190), ("71.4", 250), ("13.9", 310), ("69.2", 370)))
    assert _cell(read_crossing(page, "Table 1", "Ours", "Set B / Hit@1")) == "69.2"
    assert _cell(read_crossing(page, "Table 1", "Ours", "Set A / PPL")) == "12.1"
    missing = read_crossing(page, "Table 1", "Ours", "Set C / PPL")
    assert isinstance(missing, NotCrossed) and "no header 'Set C / PPL'" in missing


def test_a_header_set_on_two_lines_is_one_header() -> None:
    page = _page(CAPTION,
                 _line(115, ("Model", 100), ("Number", 190), ("of", 225), ("queries", 238), ("Items", 320)),
                 _line(124, ("(Speakers)", 198), ("(Speakers)", 310)),
                 _line(137, ("Ours", 100), ("120", 215), ("45", 330)))
    assert _cell(read_crossing(page, "Table 1", "Ours", "Number of queries (Speakers)")) == "120"
    assert _cell(read_crossing(page, "Table 1", "Ours", "Items (Speakers)")) == "45"
    assert isinstance(read_crossing(page, "Table 1", "Ours", "Items (Queries)"), NotCrossed)


def test_a_row_group_on_a_label_line_above_its_rows() -> None:
    page = _page(CAPTION, HEADER,
                 _line(128, ("Zero-shot", 100)), _line(140, ("Ours", 100), ("61.0", 200), ("0.40", 260)),
                 _line(152, ("Fine-tuned", 100)), _line(164, ("Ours", 100), ("73.1", 200), ("0.52", 260)))
    assert _cell(read_crossing(page, "Table 1", "Zero-shot / Ours", "Acc")) == "61.0"
    assert _cell(read_crossing(page, "Table 1", "Fine-tuned / Ours", "Acc")) == "73.1"
    ambiguous = read_crossing(page, "Table 1", "Ours", "Acc")
    assert isinstance(ambiguous, NotCrossed) and "2 lines print the row label 'Ours'" in ambiguous
    other = read_crossing(page, "Table 1", "Few-shot / Ours", "Acc")
    assert isinstance(other, NotCrossed) and "not under the group 'Few-shot'" in other


def test_a_sub_tables_title_over_its_header_names_its_group() -> None:
    page = _page(CAPTION,
                 _line(115, ("TPR@K", 180), ("=", 208), ("10", 216)),
                 _line(127, ("Model", 100), ("Acc", 200), ("F1", 260)),
                 _line(140, ("Baseline", 100), ("71.4", 200), ("0.50", 260)),
                 _line(152, ("Ours", 100), ("73.1", 200), ("0.52", 260)),
                 _line(165, ("TPR@K", 180), ("=", 208), ("20", 216)),
                 _line(177, ("Model", 100), ("Acc", 200), ("F1", 260)),
                 _line(190, ("Ours", 100), ("81.0", 200), ("0.62", 260)))
    assert _cell(read_crossing(page, "Table 1", "TPR@K = 10 / Ours", "Acc")) == "73.1"
    assert _cell(read_crossing(page, "Table 1", "TPR@K = 20 / Ours", "Acc")) == "81.0"
    assert isinstance(read_crossing(page, "Table 1", "TPR@K = 30 / Ours", "Acc"), NotCrossed)


def test_a_label_of_a_table_set_beside_is_no_cell_but_a_check_mark_is() -> None:
    page = _page(CAPTION,
                 _line(115, ("Set", 180), ("A", 200), ("Set", 390), ("B", 410)),
                 _line(128, ("Model", 100), ("VQ", 160), ("Acc", 200), ("F1", 240), ("Acc", 400), ("F1", 440)),
                 _line(140, ("Ours", 100), ("X", 162), ("73.1", 200), ("0.52", 240), ("Base", 320), ("70.2", 400),
                       ("0.48", 440)),
                 _line(152, ("Base", 100), ("X", 162), ("60.5", 200), ("0.44", 240), ("Ours", 320), ("71.0", 400),
                       ("0.50", 440)))
    assert _cell(read_crossing(page, "Table 1", "Ours", "Set A / Acc")) == "73.1"  # past the check mark
    assert _cell(read_crossing(page, "Table 1", "Ours", "Set B / Acc")) == "71.0"  # not the first half's 'Ours'
    assert _cell(read_crossing(page, "Table 1", "Base", "Set B / F1")) == "0.48"


def test_a_top_aligned_multirow_group_beside_its_rows() -> None:
    page = _page(CAPTION, HEADER,
                 _line(128, ("A", 60), ("Base", 100), ("61.0", 200), ("0.40", 260)),
                 _line(140, ("Ours", 100), ("62.0", 200), ("0.41", 260)),
                 _line(152, ("B", 60), ("Base", 100), ("71.0", 200), ("0.50", 260)),
                 _line(164, ("Ours", 100), ("73.1", 200), ("0.52", 260)))
    assert _cell(read_crossing(page, "Table 1", "A / Ours", "F1")) == "0.41"
    assert _cell(read_crossing(page, "Table 1", "B / Ours", "F1")) == "0.52"


def test_a_multirow_group_centred_on_its_rows_is_not_guessed() -> None:
    page = _page(CAPTION, HEADER,
                 _line(128, ("Base", 100), ("61.0", 200), ("0.40", 260)),
                 _line(140, ("A", 60), ("Ours", 100), ("62.0", 200), ("0.41", 260)),
                 _line(152, ("Big", 100), ("63.0", 200), ("0.42", 260)),
                 _line(164, ("Base", 100), ("71.0", 200), ("0.50", 260)),
                 _line(176, ("B", 60), ("Ours", 100), ("73.1", 200), ("0.52", 260)),
                 _line(188, ("Big", 100), ("74.0", 200), ("0.53", 260)))
    assert _cell(read_crossing(page, "Table 1", "B / Ours", "F1")) == "0.52"  # printed on the row's own line
    above = read_crossing(page, "Table 1", "B / Base", "F1")  # above its centred group label: which run is unknown
    assert isinstance(above, NotCrossed) and "not under the group 'B'" in above


def test_plus_minus_marks_and_bold_are_read_as_in_a_grid_cell() -> None:
    page = _page(CAPTION, _line(115, ("Model", 100), ("LZ", 232), ("GL", 330)),
                 _line(128, ("Ours", 100), ("58.96", 175), ("+/-", 205), ("1.8", 230), ("68.10\u2020", 300)))
    read = read_crossing(page, "Table 1", "Ours", "LZ")  # the header stands over the ± only
    assert isinstance(read, Table)
    cell = read.cell(read.rows[0], read.columns[0])
    assert (cell.value, cell.plus_minus) == ("58.96", "1.8")
    marked = read_crossing(page, "Table 1", "Ours", "GL")
    assert isinstance(marked, Table)
    assert marked.cell(marked.rows[0], marked.columns[0]).marks == "\u2020"


def test_a_crossing_holding_two_numbers_or_none_is_not_read() -> None:
    page = _page(CAPTION, _line(115, ("Model", 100), ("Acc", 200), ("F1", 260), ("t-test", 330)),
                 _line(128, ("Ours", 100), ("71.4", 190), ("72.0", 212), ("\u2013", 262), ("(14.1,", 320),
                       (".000)", 352)))
    two = read_crossing(page, "Table 1", "Ours", "Acc")  # two numbers set tight under one header: two cells
    assert isinstance(two, NotCrossed) and "prints 2 cells ('71.4', '72.0')" in two
    pair = read_crossing(page, "Table 1", "Ours", "t-test")  # a pair in brackets is one cell, its first its value
    assert isinstance(pair, Table) and pair.cell(pair.rows[0], pair.columns[0]).value == "14.1"
    loose = _page(CAPTION, _line(115, ("Model", 100), ("Acc", 200), ("F1", 260)),
                  _line(128, ("Ours", 100), ("71.4/72.0", 190), ("0.52", 260)),
                  _line(140, ("Base", 100), ("70.1", 200), ("0.50", 260)))
    two = read_crossing(loose, "Table 1", "Ours", "Acc")  # a second number outside any bracket: not one value
    assert isinstance(two, NotCrossed) and "at '71.4/72.0', which holds more than one number" in two
    none = read_crossing(page, "Table 1", "Ours", "F1")
    assert isinstance(none, NotCrossed) and "holds no number" in none


def test_a_spread_in_parentheses_and_a_power_of_ten_are_one_cell() -> None:
    page = _page(CAPTION, _line(115, ("Model", 100), ("Iterations", 190), ("|D|", 300)),
                 _line(128, ("Ours", 100), ("4.00", 185), ("(0.817)", 215), ("1", 292), ("\u00b7", 300),
                       ("10\u2074", 308)))
    read = read_crossing(page, "Table 1", "Ours", "Iterations")
    assert isinstance(read, Table)
    cell = read.cell(read.rows[0], read.columns[0])
    assert (cell.value, cell.plus_minus) == ("4.00", "0.817")
    assert _cell(read_crossing(page, "Table 1", "Ours", "|D|")) == "1 \u00b7 10\u2074"


def test_two_headers_of_one_name_in_one_header_are_ambiguous() -> None:
    page = _page(CAPTION, _line(115, ("Model", 100), ("n", 200), ("n", 260)),
                 _line(128, ("Ours", 100), ("71.4", 200), ("0.52", 260)))
    read = read_crossing(page, "Table 1", "Ours", "n")
    assert isinstance(read, NotCrossed) and "2 headers 'n'" in read


def test_a_header_repeated_over_a_later_block_heads_that_block() -> None:
    page = _page(CAPTION, HEADER, *ROWS,
                 _line(160, ("Metric", 250), ("two", 285)),
                 _line(172, ("Model", 100), ("Acc", 200), ("F1", 260)),
                 _line(185, ("Other", 100), ("51.0", 200), ("0.30", 260)))
    assert _cell(read_crossing(page, "Table 1", "Other", "Acc")) == "51.0"
    assert _cell(read_crossing(page, "Table 1", "Ours", "Acc")) == "73.1"


def test_the_region_ends_at_the_next_caption_and_at_running_text() -> None:
    second = [_caption(170, 2, "Other", "results."),
              _line(185, ("Model", 100), ("Acc", 200), ("F1", 260)),
              _line(198, ("Other", 100), ("51.0", 200), ("0.30", 260))]
    prose = _text(70, "As", "the", "table", "below", "shows,", "the", "model", "Other", "reaches", "51.0", "in",
                  "accuracy", "here", "and", "more", "than", "that", "elsewhere.")
    page = _page(prose, CAPTION, HEADER, *ROWS, *second)
    wrong = read_crossing(page, "Table 1", "Other", "Acc")  # a row of Table 2 cited in Table 1
    assert isinstance(wrong, NotCrossed) and "no line" in wrong and "'Other'" in wrong
    assert _cell(read_crossing(page, "Table 2", "Other", "Acc")) == "51.0"
    assert [len(r.lines) for r in table_regions(page, "Table 1")] == [3]


def test_a_caption_between_two_tables_takes_the_one_set_closer() -> None:
    # Table 1 above its caption, Table 2 under its own caption set closer to it than to Table 1's caption
    page = _page(HEADER, *ROWS,
                 _caption(152, 1, "First."),
                 _caption(180, 2, "Second."),
                 _line(196, ("Model", 100), ("Acc", 200), ("F1", 260)),
                 _line(208, ("Ours", 100), ("51.0", 200), ("0.30", 260)))
    assert _cell(read_crossing(page, "Table 1", "Ours", "Acc")) == "73.1"
    assert _cell(read_crossing(page, "Table 2", "Ours", "Acc")) == "51.0"


def test_a_header_centred_close_under_the_caption_is_the_tables() -> None:
    caption = _caption(100, 1, "Scores")
    centre = (caption[0].x0 + caption[-1].x1) / 2
    page = _page(caption,  # the header's gaps between cells tell it from a caption's second line
                 _line(113, ("System", centre - 60), ("Parse", centre - 5), ("Tag", centre + 40)),
                 _line(126, ("Tuned", centre - 60), ("64.8", centre - 5), ("90.1", centre + 40)))
    assert _cell(read_crossing(page, "Table 1", "Tuned", "Tag")) == "90.1"


def test_no_caption_on_the_page_reads_nothing() -> None:
    read = read_crossing(_page(HEADER, *ROWS, number=4), "Table 1", "Ours", "Acc")
    assert isinstance(read, NotCrossed) and "no block of lines beside a caption of Table 1 on page 4" in read


def test_a_repeated_label_is_read_by_its_number_only_where_printed_per_row() -> None:
    page = _page(CAPTION, HEADER,
                 _line(128, ("AF", 100), ("0.990", 200), ("0.50", 260)),
                 _line(140, ("AF", 100), ("1.000", 200), ("0.52", 260)))
    assert _cell(read_crossing(page, "Table 1", "AF #2", "Acc")) == "1.000"
    assert isinstance(read_crossing(page, "Table 1", "AF #3", "Acc"), NotCrossed)
    beside = _page(CAPTION, HEADER,  # 'AF' set once beside two lines of numbers: the record must say which
                   _line(128, ("0.990", 200), ("0.50", 260)),
                   _line(134, ("AF", 100)),
                   _line(137, ("1.000", 200), ("0.52", 260)))
    read = read_crossing(beside, "Table 1", "AF", "Acc")
    assert isinstance(read, NotCrossed) and "beside more than one line" in read


def test_a_label_centred_beside_its_lines_names_each_by_its_number() -> None:
    # \multirow{2}{*}{AF}: the label set once, centred on its two lines (the extractors join it to one of them);
    # '#N' counts its lines from the top, and a line nearer the next label is that one's
    page = _page(CAPTION, HEADER,
                 _line(128, ("0.990", 200), ("0.50", 260)),
                 _line(134, ("AF", 100)),
                 _line(137, ("1.000", 200), ("0.52", 260)),
                 _line(152, ("0.994", 200), ("0.54", 260)),
                 _line(158, ("AM", 100)),
                 _line(161, ("1.001", 200), ("0.56", 260)))
    assert _cell(read_crossing(page, "Table 1", "AF #1", "Acc")) == "0.990"
    assert _cell(read_crossing(page, "Table 1", "AF #2", "F1")) == "0.52"
    assert _cell(read_crossing(page, "Table 1", "AM #1", "Acc")) == "0.994"
    assert _cell(read_crossing(page, "Table 1", "AM #2", "Acc")) == "1.001"
    third = read_crossing(page, "Table 1", "AF #3", "Acc")
    assert isinstance(third, NotCrossed) and "names 2 row(s)" in third


def test_a_label_set_at_the_first_of_its_lines_is_not_counted() -> None:
    # top-aligned: the label's middle is its own line's, not the middle of the lines beside it, so whether the
    # lines below are its rows or the next label's is not read
    page = _page(CAPTION, HEADER,
                 _line(128, ("AF", 100), ("0.990", 200), ("0.50", 260)),
                 _line(137, ("1.000", 200), ("0.52", 260)),
                 _line(146, ("1.002", 200), ("0.53", 260)))
    read = read_crossing(page, "Table 1", "AF #2", "Acc")
    assert isinstance(read, NotCrossed) and "not centred on them" in read


def test_sub_tables_side_by_side_with_numbers_for_row_labels() -> None:
    # four sub-tables set side by side, each with a stub of numbers under 'λ' and its group over it ('N = 2000');
    # a second block of them under another group below: the label read is the one nearest before the column,
    # and the group the one over the stub of the row's own block
    def block(top: float, n: str, values: list[tuple[str, str]]) -> list[list[Word]]:
        head = [(w, x + dx) for x, s in ((100, "0.8"), (300, "0.9")) for w, dx in (("N", 0), ("=", 8), (n, 16),
                                                                                    ("\u03c3", 60), ("=", 68), (s, 76))]
        return [_line(top, *head),
                _line(top + 12, ("\u03bb", 100), ("L\u221e", 160), ("error", 178), ("\u03bb", 300),
                      ("L\u221e", 360), ("error", 378)),
                *[_line(top + 24 + 10 * i, (label, 100), (a, 160), (label, 300), (b, 360))
                  for i, (label, (a, b)) in enumerate(zip(("100", "10"), values, strict=True))]]

    page = _page(CAPTION, *block(115, "2000", [("2.6e-3", "3.3e-3"), ("4.0e-4", "6.4e-4")]),
                 *block(175, "4000", [("8.3e-4", "1.2e-3"), ("1.3e-4", "2.6e-4")]))
    assert _cell(read_crossing(page, "Table 1", "N = 2000 / 100", "\u03c3 = 0.8 / L\u221e error")) == "2.6e-3"
    assert _cell(read_crossing(page, "Table 1", "N = 2000 / 10", "\u03c3 = 0.9 / L\u221e error")) == "6.4e-4"
    assert _cell(read_crossing(page, "Table 1", "N = 4000 / 100", "\u03c3 = 0.9 / L\u221e error")) == "1.2e-3"
    assert _cell(read_crossing(page, "Table 1", "N = 4000 / 10", "\u03c3 = 0.8 / L\u221e error")) == "1.3e-4"
    other = read_crossing(page, "Table 1", "N = 8000 / 10", "\u03c3 = 0.8 / L\u221e error")
    assert isinstance(other, NotCrossed) and "not under the group 'N = 8000'" in other


# -- through the review's cell check ---------------------------------------------------------------------


def _doc(page: PageWords) -> Extraction:
    return Extraction(pages=(" ".join(w.text for w in page.words),), extractor="synthetic", words=(page,))


# The grid reader cannot place this header: 'Acc' and 'F1' stand over cells it reads as one column
GRID_UNREAD = _page(CAPTION, _line(115, ("Model", 100), ("Acc", 200), ("F1", 260)),
                    _line(122, ("Zero-shot", 100)),
                    _line(134, ("Ours", 100), ("61.0", 200), ("0.40", 260)),
                    _line(146, ("Fine-tuned", 100)),
                    _line(158, ("Ours", 100), ("73.1", 200), ("0.52", 260)))


def test_the_review_reads_the_crossing_where_the_grid_cannot_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _doc(GRID_UNREAD)
    monkeypatch.setattr(cited, "READINGS", ("grid", "crossing"))
    monkeypatch.setattr(cells.CellAt, "_find_in_grid", lambda self, doc: Unread("the grid could not"))
    passed = TableCell("r", "table cell", 1, "Table 1", "Fine-tuned / Ours", "Acc", "73.1").check(doc)
    assert passed.outcome == PASS
    assert "read where the two cross" in passed.detail
    slip = TableCell("r", "table cell", 1, "Table 1", "Fine-tuned / Ours", "Acc", "61.0").check(doc)
    assert slip.outcome == FAIL and "has 73.1" in slip.detail and "read where the two cross" in slip.detail
    unit = CellUnit("r", "unit", 1, "Table 1", "Zero-shot / Ours", "F1", "dimensionless", ()).check(doc)
    assert unit.outcome == PASS
    unread = TableCell("r", "table cell", 1, "Table 1", "Ours", "Acc", "73.1").check(doc)
    assert unread.outcome == CANNOT_CHECK
    assert "the grid could not; nor where the row and the column cross: 2 lines print" in unread.detail


def test_the_crossing_never_overrules_a_grid_that_found_the_cell() -> None:
    doc = _doc(_page(CAPTION, HEADER, *ROWS))
    spot = cells.CellAt("r", "table cell", 1, "Table 1", "Ours", "F1").locate(doc)
    assert isinstance(spot, cited.Located) and not spot.crossed
    assert "read where" not in spot.where


def test_without_the_crossing_the_grid_leaves_the_cell_unread(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _doc(GRID_UNREAD)
    monkeypatch.setattr(cited, "READINGS", ("grid",))
    monkeypatch.setattr(cells.CellAt, "_find_in_grid", lambda self, doc: Unread("the grid could not"))
    assert TableCell("r", "table cell", 1, "Table 1", "Fine-tuned / Ours", "Acc", "73.1").check(doc).outcome == (
        CANNOT_CHECK)


# -- real papers ---------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
PAPERS = next((p for p in (ROOT.parent / "shared" / "papers", Path("/work/shared/papers")) if p.is_dir()),
              ROOT.parent / "shared" / "papers")
corpus = pytest.mark.skipif(not PAPERS.is_dir() or poppler.find_pdftotext() is None,
                            reason=f"the corpus of real papers is not at {PAPERS}, or poppler-utils is not installed")


@functools.cache
def _readings(slug: str) -> Readings:
    return read_pdf(PAPERS / slug / "paper.pdf")


def _gold(slug: str, table: str, page: int) -> list[dict[str, str]]:
    with (PAPERS / slug / "cells.tsv").open(encoding="utf-8", newline="") as handle:
        return [r for r in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
                if r["table"] == table and int(r["page"]) == page]


REAL = [
    # tables with cells one extractor's grid leaves unread (measured after the grid reader's third round, which
    # reads koyama Table 2, murrell Table 1, macha Table 6.4 and kumar Table 1 whole): rows under a group label
    # run on over the first columns
    ("koyama-green-2024", "Table 4", 8),
    # narrow tables of two-level headers, and one beside running text
    ("wilde-kmodes-2020", "Table 3", 11),
    ("sinha-systematic-2021", "Table 5", 14),
    ("david-hermes-2023", "Table 5", 15),
]


@pytest.mark.pdf
@corpus
@pytest.mark.parametrize(("slug", "table", "page"), REAL)
def test_every_gold_cell_the_grid_leaves_unread_is_read_where_the_two_cross(slug: str, table: str,
                                                                            page: int) -> None:
    if not (PAPERS / slug).is_dir():
        pytest.skip(f"{slug} is not in the corpus at {PAPERS}")
    readings = _readings(slug)
    gold = _gold(slug, table, page)
    assert gold
    crossed = 0
    for cell in gold:
        value = cell["printed"].split()[0].replace("\u2212", "-")
        assertion = check_both(TableCell("t", "table cell", page, table, cell["row"], cell["column"], value),
                               readings)
        assert assertion.outcome == PASS, (cell, assertion.detail)
        # the verdict, or the second extractor's opinion, says which reading found the cell
        said = (assertion.detail or "") + (assertion.second.detail if assertion.second is not None else "")
        crossed += "read where the two cross" in said
    assert crossed > 0  # one extractor's grid leaves these cells unread


@pytest.mark.pdf
@corpus
def test_on_a_real_page_a_neighbours_value_fails_and_so_do_the_wrong_table_and_page() -> None:
    slug, table, page = "koyama-green-2024", "Table 4", 8
    if not (PAPERS / slug).is_dir():
        pytest.skip(f"{slug} is not in the corpus at {PAPERS}")
    readings = _readings(slug)
    row, column = "Alignment-based F-score / M2", "AMU"
    right = check_both(TableCell("t", "table cell", page, table, row, column, "35.01"), readings)
    assert right.outcome == PASS and right.second is not None and "read where the two cross" in right.second.detail
    neighbour = check_both(TableCell("t", "table cell", page, table, row, column, "31.97"), readings)
    assert neighbour.outcome == FAIL and "has 35.01" in neighbour.second.detail  # type: ignore[union-attr]
    # the right value in the wrong table, or on the wrong page: both extractors read that the page prints no such
    # table, and name where its caption is printed
    wrong_table = check_both(TableCell("t", "table cell", page, "Table 3", row, column, "35.01"), readings)
    assert wrong_table.outcome == FAIL and wrong_table.detail.startswith("Table 3 is printed on page 6, not on page 8")
    wrong_page = check_both(TableCell("t", "table cell", page + 1, table, row, column, "35.01"), readings)
    assert wrong_page.outcome == FAIL and wrong_page.detail.startswith("Table 4 is printed on page 8, not on page 9")
    pm = check_both(CellUncertainty("t", "uncertainty", page, table, row, column, "\u00b1 0.1", False), readings)
    assert pm.outcome == CANNOT_CHECK and "read with no \u00b1 value" in pm.detail  # no ± printed: no witness


def _fraction_page(stacked: list[Word], *row: Word) -> PageWords:
    header = [Word("Model", 100, 115, 130, 123), Word("Train", 205, 115, 235, 123)]
    return PageWords(1, 600.0, 800.0, (*CAPTION, *header, *stacked, Word("Ours", 100, 155, 120, 163), *row))


def test_a_fraction_in_a_header_is_read_as_its_numerator_over_its_denominator() -> None:
    # '\frac{n^+}{n}' beside a count headed 'n', both under 'Train': one extractor gives the numerator, the count's
    # header (centred on both) and the denominator three lines, the other one line of four words
    row = (Word("45", 190, 155, 200, 163), Word("000", 204, 155, 219, 163), Word("11.3%", 238, 155, 262, 163))
    three_lines = [Word("n+", 246, 130, 254, 135.5), Word("n", 196, 134, 201, 139), Word("n", 248, 138.8, 252, 142.6)]
    one_line = [Word("n", 244, 127.8, 249, 136.3), Word("+", 249, 130.5, 252.5, 137.2),
                Word("n", 195, 130.8, 201, 142.1), Word("n", 246.5, 136.4, 251, 145)]
    for stacked in (three_lines, one_line):
        page = _fraction_page(stacked, *row)
        assert _cell(read_crossing(page, "Table 1", "Ours", "Train / n+/n")) == "11.3%"
        assert _cell(read_crossing(page, "Table 1", "Ours", "Train / n")) == "45 000"  # the count's: digit groups
        assert isinstance(read_crossing(page, "Table 1", "Ours", "Train / n/n+"), NotCrossed)


def test_digit_groups_set_apart_as_wide_as_two_cells_are_not_read() -> None:
    # '151 097' whose groups one extractor sets 4.8 points apart: one number or two cells is not told apart
    stacked = [Word("n", 196, 134, 201, 139)]
    page = _fraction_page(stacked, Word("151", 180, 155, 195, 163), Word("097", 199.8, 155, 215, 163))
    read = read_crossing(page, "Table 1", "Ours", "Train / n")
    assert isinstance(read, NotCrossed) and "'151' and '097' close together" in read


def test_a_figure_set_close_under_a_table_belongs_to_its_own_caption() -> None:
    # a table* over a figure whose labels are set close under the table's last row: the block under the table's
    # caption runs up to the figure's caption, but its rows are set farther from it than from their own caption
    page = _page(CAPTION, HEADER, *ROWS,
                 _line(154, ("All", 100), ("A", 160), ("B", 220)),
                 _text(164, "Figure", "3:", "Crops", "of", "faces", "(a", "fixture", "typeset", "for", "the", "tests)."))
    assert _cell(read_crossing(page, "Table 1", "Ours", "F1")) == "0.52"
    assert [len(r.lines) for r in table_regions(page, "Table 1")] == [3]  # the figure's labels left out


def test_a_spanning_header_stands_over_the_columns_centred_under_it() -> None:
    # 'Subgroups' is wider than the share of the line 'Number of' spans, but centred under it
    page = _page(CAPTION,
                 _line(115, ("Database", 100), ("Number", 200), ("of", 240), ("Balanced", 320)),
                 _line(127, ("Name", 100), ("Faces", 190), ("IDs", 225), ("Subgroups", 245), ("ID", 325)),
                 _line(140, ("Ours", 100), ("10", 192), ("600", 225), ("6", 265), ("3", 326)))
    assert _cell(read_crossing(page, "Table 1", "Ours", "Number of / Subgroups")) == "6"
    assert _cell(read_crossing(page, "Table 1", "Ours", "Balanced / ID")) == "3"
    assert isinstance(read_crossing(page, "Table 1", "Ours", "Balanced / Subgroups"), NotCrossed)


def test_a_turned_group_label_names_the_rows_beside_it() -> None:
    # \multirow{2}{*}{\rotatebox{90}{Human}} left of the row labels: the rows its words are set beside are in its
    # group; a row under it (a summary row) is not
    turned = Word("Human", 90, 125, 97, 152, rotated=True)
    page = _page(CAPTION, HEADER,
                 _line(128, ("CF", 100), ("52.9", 200), ("0.50", 260)),
                 _line(140, ("CM", 100), ("45.6", 200), ("0.52", 260)),
                 _line(160, ("Avg", 100), ("49.2", 200), ("0.51", 260)), [turned])
    assert _cell(read_crossing(page, "Table 1", "Human / CM", "Acc")) == "45.6"
    assert _cell(read_crossing(page, "Table 1", "Human / CF", "F1")) == "0.50"
    below = read_crossing(page, "Table 1", "Human / Avg", "Acc")
    assert isinstance(below, NotCrossed) and "not under the group 'Human'" in below


def test_a_row_label_named_as_a_column_is_no_header() -> None:
    # a table of subgroups against subgroups: the label 'CM' of the row above is not the column 'CM''s header
    page = _page(CAPTION,
                 _line(115, ("Acc", 100), ("CF", 200), ("CM", 260)),
                 _line(128, ("CF", 100), ("52.9", 200), ("48.0", 260)),
                 _line(140, ("CM", 100), ("45.6", 200), ("50.4", 260)),
                 _line(152, ("WF", 100), ("44.7", 200), ("43.8", 260)))
    assert _cell(read_crossing(page, "Table 1", "WF", "CM")) == "43.8"
    assert _cell(read_crossing(page, "Table 1", "CM", "CF")) == "45.6"


def test_a_text_cell_wider_than_its_header_is_no_label() -> None:
    # 'CASIA VGG &VGG2' under 'Source', wider than it: a cell between the row's label and the column, not the label
    # of a table set beside
    page = _page(CAPTION,
                 _line(115, ("Name", 100), ("Source", 180), ("Faces", 300)),
                 _line(128, ("Demog", 100), ("CASIA", 150), ("VGG", 178), ("&VGG2", 196), ("10,800", 300)))
    assert _cell(read_crossing(page, "Table 1", "Demog", "Faces")) == "10,800"


def test_a_math_fonts_look_alike_glyph_is_the_letter_typed() -> None:
    # the page prints '∆Acc' (U+2206, the increment sign) where the curator types 'ΔAcc' (U+0394, delta)
    page = _page(CAPTION, _line(115, ("Model", 100), ("\u2206Acc", 200)), _line(128, ("Ours", 100), ("2.1", 200)))
    assert _cell(read_crossing(page, "Table 1", "Ours", "\u0394Acc")) == "2.1"
    assert isinstance(read_crossing(page, "Table 1", "Ours", "\u0394F1"), NotCrossed)
