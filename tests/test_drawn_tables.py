"""Drawn grids: a table's cells as the rules drawn around them state them (review.pdf.drawn, review.tables.tagged).

The LibreOffice fixture with every cell's borders drawn and printed untagged (tests/data/producers/libreoffice-ruled,
generate.py there) and pages built here from rules and word coordinates (as PDFium and poppler give them) test each
rule; the real Typst paper of the corpus (../shared/papers/becker-injections-2025, boxed tables) where present.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from review.pdf import drawn, poppler
from review.pdf.drawn import Rule
from review.pdf.words import PageWords, Word, pdfium_words
from review.tables.tagged import read_ruled
from tests.conftest import DATA

RULED = DATA / "producers" / "libreoffice-ruled" / "paper.pdf"
UNRULED = DATA / "producers" / "libreoffice" / "paper.pdf"
PAPERS = Path(__file__).resolve().parents[2] / "shared" / "papers"
if not PAPERS.is_dir():
    PAPERS = Path("/work/shared/papers")
TYPST_PAPER = PAPERS / "becker-injections-2025" / "paper.pdf"


# -- the rules as PDFium reads them ----------------------------------------------------------------------------------


def test_the_drawn_borders_state_rows_cells_and_spans() -> None:
    page = pdfium_words(RULED.read_bytes())[0]
    assert len(page.ruled) == 1
    rows = page.ruled[0].rows
    assert [len(row) for row in rows] == [4, 1, 4, 4, 1, 4, 4]  # header, group, two rows, group, two rows
    assert rows[1][0].column_span == 4  # the group label's row: no rule between its columns
    label = rows[2][0].box  # 'Small encoder distilled from the base model', wrapped over three lines: one cell
    assert label is not None and label[3] - label[1] > 25


def test_a_table_without_borders_draws_no_grid() -> None:
    assert pdfium_words(UNRULED.read_bytes())[0].ruled == ()


def test_a_rule_missing_between_two_rectangles_merges_them() -> None:
    across = [Rule(True, y, 0, 300) for y in (0, 20, 40, 60)]
    down = [Rule(False, x, 0, 60) for x in (0, 100, 300)] + [Rule(False, 200, 20, 60)]  # none in the first row
    grid = drawn._grid(across + down)
    assert grid is not None
    assert [[(c.column_span, c.row_span) for c in row] for row in grid.rows] == [
        [(1, 1), (2, 1)], [(1, 1), (1, 1), (1, 1)], [(1, 1), (1, 1), (1, 1)]]


def test_rules_that_frame_no_two_by_two_cells_are_no_grid() -> None:
    across = [Rule(True, y, 0, 300) for y in (0, 20, 40)]  # booktabs: horizontal rules only
    assert drawn._grid(across) is None
    assert drawn._grid(across + [Rule(False, x, 0, 40) for x in (0, 300)]) is None  # a frame: one column


# -- the grid read with each extractor's words -------------------------------------------------------------------------


@pytest.mark.skipif(poppler.find_pdftotext() is None, reason="poppler-utils is not installed")
def test_both_extractors_read_the_drawn_grid_with_wrapped_labels_whole() -> None:
    from review.pdf.extract import read_pdf
    from review.tables.cited import tables_on

    readings = read_pdf(RULED.read_bytes(), name="paper.pdf")
    for doc in (readings.primary, readings.second):
        assert doc is not None
        table = tables_on(doc, 1, "Table 1")[0]
        assert [c.name for c in table.columns] == ["Batch 1", "Batch 8", "Peak"]
        assert [r.name for r in table.rows] == [
            "Encoder-only models / Small encoder distilled from the base model", "Encoder-only models / Base encoder",
            "Decoder-only models / Tiny decoder",
            "Decoder-only models / Large decoder trained with a long context window"], doc.extractor


def _word(text: str, x0: float, top: float) -> Word:
    return Word(text, x0, top, x0 + 6 * len(text), top + 10)


def _ruled_page(ys: tuple[float, ...], words: list[Word]) -> PageWords:
    across = [Rule(True, y, 50, 350) for y in ys]
    down = [Rule(False, x, ys[0], ys[-1]) for x in (50, 150, 250, 350)]
    grid = drawn._grid(across + down)
    assert grid is not None
    caption = [_word("Table", 50, 60), _word("1:", 90, 60), _word("Latency.", 110, 60)]
    return PageWords(1, 612, 792, tuple(caption + words), ruled=(grid,))


_HEADER = [_word("Model", 55, 104), _word("Batch", 155, 104), _word("1", 195, 104), _word("Peak", 255, 104)]


def test_a_label_wrapped_in_its_drawn_cell_is_one_label_and_a_worded_row_heads_the_table() -> None:
    words = _HEADER + [_word("Small", 55, 124), _word("encoder", 95, 124), _word("distilled", 55, 136),
                       _word("12.4", 155, 130), _word("0.52", 255, 130), _word("Base", 55, 154),
                       _word("18.9", 155, 154), _word("1.25", 255, 154)]
    table = read_ruled(_ruled_page((100, 118, 150, 168), words), "Table 1")[0]
    assert [c.name for c in table.columns] == ["Batch 1", "Peak"]  # '1' in a header: no number, a word beside it
    assert [r.name for r in table.rows] == ["Small encoder distilled", "Base"]


def test_rules_that_do_not_set_the_rows_apart_leave_the_page_to_its_geometry() -> None:
    words = _HEADER + [_word("Small", 55, 124), _word("12.4", 155, 124), _word("0.52", 255, 124),
                       _word("Base", 55, 140), _word("18.9", 155, 140), _word("1.25", 255, 140)]
    page = _ruled_page((100, 118, 160), words)  # rules under the header and round the body only
    assert read_ruled(page, "Table 1") == []


def test_a_tagged_table_keeps_priority_over_its_drawn_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    from review.pdf.extract import read_pdf
    from review.tables import cited

    doc = read_pdf(RULED.read_bytes(), name="paper.pdf", second=False).primary
    page = doc.page_words(1)
    assert page is not None and page.ruled
    both = dataclasses.replace(page, tagged=page.ruled)  # the grid stated by a tree as well as drawn

    def unasked(page: PageWords, label: str) -> list[object]:
        raise AssertionError("the drawn grid was read where the tree states the table")

    monkeypatch.setattr(cited, "read_ruled", unasked)
    assert cited.tables_on(dataclasses.replace(doc, words=(both,)), 1, "Table 1")[0].rows


@pytest.mark.skipif(not TYPST_PAPER.is_file(), reason="the corpus paper is not present")
def test_the_typst_papers_boxed_table_is_read_from_its_rules() -> None:
    page = pdfium_words(TYPST_PAPER.read_bytes())[17]  # page 18: Table 7, its header repeated ('95% CI')
    table = read_ruled(page, "Table 7")[0]
    assert [c.name for c in table.columns] == ["N", "Δ𝑝(Unable)", "95% CI"]
    assert "Llama-3.2-3B-Instruct / Ignore-Completion" in [r.name for r in table.rows]


def test_rules_round_groups_of_columns_leave_the_page_to_its_geometry() -> None:
    words = _HEADER + [_word("Small", 55, 124), _word("12.4", 155, 124), _word("31.7", 190, 124),
                       _word("0.52", 255, 124)]
    page = _ruled_page((100, 118, 138), words)  # two numbers side by side in one drawn cell
    assert read_ruled(page, "Table 1") == []
    raised = _ruled_page((100, 118, 138), _HEADER + [_word("Small", 55, 124), _word("3.2", 155, 124),
                                                     Word("\u22124", 176, 121, 186, 129), _word("0.52", 255, 124)])
    assert [r.name for r in read_ruled(raised, "Table 1")[0].rows] == ["Small"]  # a raised exponent is no number


def test_a_heading_between_the_caption_and_the_rules_leaves_the_page_to_its_geometry() -> None:
    words = [_word("Train", 55, 85)] + _HEADER + [_word("Small", 55, 124), _word("12.4", 155, 124),
                                                   _word("0.52", 255, 124)]
    assert read_ruled(_ruled_page((100, 118, 138), words), "Table 1") == []
    assert read_ruled(_ruled_page((100, 118, 138), words[1:]), "Table 1")
