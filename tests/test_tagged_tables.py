"""Tagged PDFs: the structure tree's tables read as the grid (review.pdf.structtree, review.tables.tagged).

The LibreOffice fixture exported tagged (tests/data/producers/libreoffice-tagged, generate.py there) and pages built
here with words and a tree (the boxes as PDFium gives them) test each rule; the real Word paper of the corpus
(../shared/papers/samyuktha-leukemia-2024) is checked where it is present.
"""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import pytest

from review.pdf import poppler
from review.pdf.structtree import TaggedCell, TaggedTable
from review.pdf.words import PageWords, Word, pdfium_words
from review.tables.tagged import read_tagged
from tests.conftest import DATA

TAGGED = DATA / "producers" / "libreoffice-tagged" / "paper.pdf"
UNTAGGED = DATA / "producers" / "libreoffice" / "paper.pdf"
PAPERS = Path(__file__).resolve().parents[2] / "shared" / "papers"
if not PAPERS.is_dir():
    PAPERS = Path("/work/shared/papers")
WORD_PAPER = PAPERS / "samyuktha-leukemia-2024" / "paper.pdf"


def _gold(name: str) -> list[dict[str, str]]:
    with (DATA / "producers" / name / "cells.tsv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


# -- the tree as PDFium reads it -------------------------------------------------------------------------------


def test_the_tree_states_rows_cells_and_declared_spans() -> None:
    page = pdfium_words(TAGGED.read_bytes())[0]
    assert len(page.tagged) == 1
    rows = page.tagged[0].rows
    assert [len(row) for row in rows] == [4, 1, 4, 4, 1, 4, 4]  # header, group, two rows, group, two rows
    assert rows[1][0].column_span == 4 and rows[2][1].column_span == 1
    label = rows[2][0].box  # 'Small encoder distilled from the base model', wrapped over three lines: one cell
    assert label is not None and label[3] - label[1] > 25


def test_an_untagged_pdf_states_no_table() -> None:
    assert pdfium_words(UNTAGGED.read_bytes())[0].tagged == ()


# -- the grid read from the tree, with each extractor's words ------------------------------------------------------


@pytest.mark.skipif(poppler.find_pdftotext() is None, reason="poppler-utils is not installed")
@pytest.mark.parametrize("producer", ["libreoffice-tagged", "html", "typst"])  # LibreOffice, Chromium, Typst tag
def test_both_extractors_read_the_tagged_grid_with_wrapped_labels_whole(producer: str) -> None:
    from review.pdf.extract import read_pdf
    from review.tables.cited import tables_on

    gold = {(g["row"], g["column"]): g["printed"] for g in _gold(producer)}
    readings = read_pdf(DATA / "producers" / producer / "paper.pdf")
    assert readings.second is not None
    for doc in readings.all:
        assert doc.page_words(1).tagged, f"{producer}: no structure tree read"
        (table,) = tables_on(doc, 1, "Table 1")
        assert [c.name for c in table.columns] == ["Batch 1", "Batch 8", "Peak"]
        assert {r.name for r in table.rows} == {row for row, _ in gold}
        for row in table.rows:
            for column in table.columns:
                printed = gold[(row.name, column.name)]
                read = table.cell(row, column).text.replace("^-4", "\u207b\u2074")  # a raised exponent, on the line
                assert read.replace(" ", "") == printed.replace(" ", ""), (doc.extractor, row.name, column.name)


def test_without_its_tree_the_page_is_read_from_its_geometry_and_loses_the_wrapped_labels() -> None:
    """The rule switched off: the same page, its tree left out, is the geometric reading (the wrapped labels' lines
    read apart), which is why the tree is read first."""
    from review.pdf.pdftext import Extraction
    from review.tables.cited import tables_on

    page = pdfium_words(TAGGED.read_bytes())[0]
    gold_rows = {g["row"] for g in _gold("libreoffice-tagged")}
    bare = Extraction(pages=("",), extractor="PDFium (tree left out)", words=(dataclasses.replace(page, tagged=()),))
    assert not read_tagged(bare.words[0], "Table 1")
    assert not {r.name for t in tables_on(bare, 1, "Table 1") for r in t.rows} >= gold_rows


# -- rules, on pages built here -----------------------------------------------------------------------------------


def _cell(text: str, x0: float, top: float, header: bool = False, span: int = 1) -> tuple[TaggedCell, list[Word]]:
    words, x = [], x0
    for part in text.split():
        words.append(Word(part, x, top, x + 5.0 * len(part), top + 8.0))
        x += 5.0 * len(part) + 3.0
    box = (words[0].x0, top, words[-1].x1, top + 8.0)
    return TaggedCell(header, box, column_span=span), words


def _page(rows: list[list[tuple[TaggedCell, list[Word]]]], caption_top: float = 100.0) -> PageWords:
    caption = [Word("Table", 60, caption_top, 85, caption_top + 8), Word("1:", 88, caption_top, 96, caption_top + 8),
               Word("Runs.", 99, caption_top, 124, caption_top + 8)]
    words = caption + [w for row in rows for _, ws in row for w in ws]
    return PageWords(1, 600.0, 800.0, tuple(words), (TaggedTable(tuple(tuple(c for c, _ in row) for row in rows)),))


def _runs(header_x: float) -> PageWords:
    """A Word table that declares no span: 'Runs' set once over three columns (at ``header_x``), the runs' numbers
    in a header row of their own whose label cell is spanned from above, then two rows of values."""
    return _page([
        [_cell("Algorithm", 60, 120, header=True), _cell("Runs", header_x, 120, header=True)],
        [_cell("1", 160, 132), _cell("2", 200, 132), _cell("3", 240, 132)],
        [_cell("A", 60, 144), _cell("16", 158, 144), _cell("19", 198, 144), _cell("17", 238, 144)],
        [_cell("B", 60, 156), _cell("21", 158, 156), _cell("22", 198, 156), _cell("20", 238, 156)],
    ])


def test_a_header_centred_over_columns_heads_each_of_them() -> None:
    (table,) = read_tagged(_runs(header_x=192.0), "Table 1")  # 'Runs' centred over the three columns
    assert [c.name for c in table.columns] == ["Runs / 1", "Runs / 2", "Runs / 3"]
    assert [r.name for r in table.rows] == ["A", "B"]
    assert table.cell(table.rows[1], table.columns[2]).text == "20"


def test_a_header_off_the_middle_heads_its_own_column_alone() -> None:
    (table,) = read_tagged(_runs(header_x=236.0), "Table 1")  # over the last column only
    assert [c.name for c in table.columns] == ["1", "2", "Runs / 3"]


def test_row_groups_and_a_serial_number_column_make_the_row_label() -> None:
    page = _page([
        [_cell("No.", 60, 120, True), _cell("Model", 90, 120, True), _cell("Accuracy", 200, 120, True)],
        [_cell("Encoders", 60, 132, span=3)],
        [_cell("1", 60, 144), _cell("Small", 90, 144), _cell("0.91", 200, 144)],
        [_cell("2", 60, 156), _cell("Base", 90, 156), _cell("0.93", 200, 156)],
    ])
    (table,) = read_tagged(page, "Table 1")
    assert [r.name for r in table.rows] == ["Encoders / 1 / Small", "Encoders / 2 / Base"]
    assert [c.name for c in table.columns] == ["Accuracy"]


def test_a_layout_frame_around_the_caption_is_no_table() -> None:
    page = _runs(header_x=192.0)
    frame = TaggedTable(((TaggedCell(False, (50.0, 90.0, 300.0, 170.0)), TaggedCell(False, (310.0, 90.0, 400.0, 170.0))),))
    framed = dataclasses.replace(page, tagged=(frame,))
    assert read_tagged(framed, "Table 1") == []
    assert read_tagged(dataclasses.replace(page, tagged=(frame, *page.tagged)), "Table 1")


def test_a_tagged_table_far_from_the_caption_or_without_numbers_is_left_to_the_geometry() -> None:
    assert read_tagged(_runs(header_x=192.0), "Table 2") == []  # no caption of that label
    far = _page([[_cell("Algorithm", 60, 420, True), _cell("Runs", 192, 420, True)],
                 [_cell("A", 60, 444), _cell("16", 158, 444), _cell("19", 198, 444)],
                 [_cell("B", 60, 456), _cell("21", 158, 456), _cell("22", 198, 456)]])
    assert read_tagged(far, "Table 1") == []  # 300 points under the caption: some other table
    words = _page([[_cell("Term", 60, 120, True), _cell("Meaning", 160, 120, True)],
                   [_cell("MRS", 60, 132), _cell("medical relief shelter", 160, 132)]])
    assert read_tagged(words, "Table 1") == []  # a table of words, no number to check


# -- the real Word paper of the corpus ------------------------------------------------------------------------------


@pytest.mark.skipif(not WORD_PAPER.is_file(), reason="the corpus paper samyuktha-leukemia-2024 is not here")
@pytest.mark.skipif(poppler.find_pdftotext() is None, reason="poppler-utils is not installed")
@pytest.mark.parametrize(("table", "page", "row", "column", "value", "slip"), [
    ("Table 5", 12, "MobileNet after cross validation (model 1)", "Precision", "0.80", "0.97"),  # wrapped label
    ("Table 4", 10, "Benign", "Number of Images / Data Augmented", "975", "504"),  # a header over two columns
    ("Table 4", 11, "Total", "Number of Images / Data Augmented", "3826", "3256"),  # carried on, no caption
])
def test_the_word_paper_is_read_from_its_tree(table: str, page: int, row: str, column: str, value: str,
                                              slip: str) -> None:
    from registry.checking.agreement import check_both
    from registry.checking.cells import TableCell
    from review.pdf.extract import read_pdf

    readings = _word_readings(read_pdf)
    where = ("test", "table cell", page, table, row, column)
    assert check_both(TableCell(*where, value), readings).passed  # type: ignore[arg-type]
    assert not check_both(TableCell(*where, slip), readings).passed  # type: ignore[arg-type]


_READ: dict[str, object] = {}


def _word_readings(read_pdf):  # type: ignore[no-untyped-def]
    if "word" not in _READ:
        _READ["word"] = read_pdf(WORD_PAPER)
    return _READ["word"]


def test_table_parts_written_loose_are_read_as_one_table_each() -> None:
    """PDFlib from Arbortext writes an empty Table element, then the table's THead, TBody and TFoot as its siblings
    (li-train-2023): each run of parts is one table, and a row group holds no table of its own."""
    from review.pdf.structtree import _Element

    def element(kind: str, *children: _Element, mcid: int | None = None) -> _Element:
        return _Element(kind, () if mcid is None else (mcid,), children, 1, 1)

    def row(*mcids: int) -> _Element:
        return element("TR", *(element("TD", mcid=m) for m in mcids))

    loose = element("P", element("Table", mcid=0), element("THead", row(1, 2)), element("TBody", row(3, 4), row(5, 6)),
                    element("TFoot"), element("Table", mcid=7), element("THead", row(8, 9)),
                    element("TBody", row(10, 11)))
    tables = element("Document", loose).tables()
    assert [len(t.rows()) for t in tables] == [3, 2]
    assert [[c.mcids for c in r.children] for r in tables[1].rows()] == [[(8,), (9,)], [(10,), (11,)]]
    nested = element("Document", element("Table", element("TBody", row(1, 2)), element("Table")))
    assert [len(t.rows()) for t in nested.tables()] == [1]  # the empty Table inside is no table


# -- Word's math: letters outside the BMP, their /ActualText given twice, and a math font's tall boxes ---------------


class _Codes:
    """What ``review.words._char_texts`` asks of PDFium: each character's UTF-16 code, and its text (PDFium gives
    none for a generated character's mark, 2 or 3)."""

    def __init__(self, codes: list[int]) -> None:
        self.codes = codes

    def FPDFText_GetUnicode(self, handle: object, index: int) -> int:  # noqa: N802 - PDFium's name
        return self.codes[index]

    def get_text_range(self, index: int, count: int) -> str:
        return "".join(chr(c) for c in self.codes[index:index + count] if c > 3)


def test_pdfium_reads_a_character_outside_the_bmp_whole() -> None:
    """PDFium counts '𝐼' (U+1D43C) as its two UTF-16 halves; read one by one they were lost ('| |' for |I|)."""
    from review.pdf.words import _char_texts

    halves = _Codes([0x7C, 0xD835, 0xDC3C, 0xD835, 0xDC3C, 0x7C, 2, 0x0C])
    assert _char_texts(halves, halves, None, 8) == ["|", "\U0001d43c", None, "\U0001d43c", None, "|", " ", "\x0c"]
    alone = _Codes([0xDC3C, 0x41])
    assert _char_texts(alone, alone, None, 2) == [" ", "A"]  # a half alone is no character


@pytest.mark.skipif(not (PAPERS / "zhou-shelter-2020" / "paper.pdf").is_file(),
                    reason="the corpus paper zhou-shelter-2020 is not here")
def test_word_math_letters_are_read_once_by_pdfium() -> None:
    """Word gives each math letter its text twice (/ActualText <FEFF D835DC3C D835DC3C>) at one glyph's box: read
    once, as printed."""
    words = [w.text for w in pdfium_words((PAPERS / "zhou-shelter-2020" / "paper.pdf").read_bytes())[8].words]
    assert "|\U0001d43c|" in words and "|\U0001d43c\U0001d43c|" not in words and "|" not in words[:80]


def test_poppler_words_with_every_math_letter_doubled_are_halved() -> None:
    from review.pdf.poppler import undoubled

    assert undoubled("|\U0001d43c\U0001d43c|") == "|\U0001d43c|"
    assert undoubled("\U0001d443\U0001d443\U0001d459\U0001d459") == "\U0001d443\U0001d459"
    assert undoubled("\U0001d465\U0001d465\U0001d466") == "\U0001d465\U0001d465\U0001d466"  # 𝑦 once: as printed
    assert undoubled("\U0001d465\U0001d466") == "\U0001d465\U0001d466"
    assert undoubled("Batch") == "Batch"


def test_a_math_font_box_is_set_back_on_its_line() -> None:
    """poppler boxes a Cambria Math word by the font's ascent and descent, several lines high: on a line of
    ordinary words it gets their height at their foot, so that it joins no line above or below."""
    from review.pdf.poppler import _on_the_line

    line = [Word("the", 10, 100, 25, 109), Word("|\U0001d43c|", 28, 98, 38, 132), Word("is", 41, 100, 50, 109)]
    moved = _on_the_line(line)
    assert moved[0] == line[0] and moved[2] == line[2]
    assert (moved[1].top, moved[1].bottom) == (100, 109) and moved[1].text == line[1].text
    alone = [Word("|\U0001d43c|", 28, 98, 38, 132)]
    assert _on_the_line(alone) == alone  # nothing on the line to measure it by


def test_a_cell_takes_a_tall_word_whose_top_is_near_its_own() -> None:
    """A math word boxed from its glyphs' top to far below (poppler, turned for its tall and narrow box) belongs
    to the cell whose top is nearest its own, upright, not to the row of values its box runs into."""
    page = _page([
        [_cell("Problem", 60, 120, True), _cell("Size", 158, 120, True)],
        [_cell("e1", 60, 134), _cell("100", 158, 134)],
        [_cell("e2", 60, 146), _cell("200", 158, 146)],
    ])
    tall = Word("|\U0001d43c|", 158, 119, 170, 150, rotated=True)
    words = tuple(tall if w.text == "Size" else w for w in page.words)
    (table,) = read_tagged(dataclasses.replace(page, words=words), "Table 1")
    assert [c.name for c in table.columns] == ["|\U0001d43c|"]
    assert [table.cell(r, table.columns[0]).text for r in table.rows] == ["100", "200"]
