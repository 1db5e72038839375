"""How producers other than TeX set tables, read from extractors' word coordinates (``review.tables.read``).

Each test is a synthetic page (words with boxes, as PDFium or poppler give them) holding one phenomenon of
typesetting seen on pages printed by a browser, a word processor, Typst or a publisher's pipeline: a row label
wrapped over several lines, rows set far apart by cell padding, a heading over a table, a caption typed with a
hyphen, an oblique face. Each fails with its rule switched off.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from review.pdf.words import PageWords, Word, _quarter_turned
from review.tables import blocks
from review.tables import read as tables
from review.tables import rows as row_labels
from review.tables.read import read_tables
from review.tables.table import Table, find_columns, find_rows

CHAR = 5.0


def _line(top: float, *words: tuple[str, float], height: float = 7.0) -> list[Word]:
    return [Word(text, x0, top, x0 + CHAR * len(text), top + height) for text, x0 in words]


def _page(*lines: list[Word]) -> PageWords:
    return PageWords(1, 600.0, 800.0, tuple(w for line in lines for w in line))


CAPTION = _line(100, ("Table", 150), ("1.", 180), ("Average", 195), ("precision", 235), ("per", 285),
                ("model.", 305))
HEADER = _line(120, ("Model", 150), ("N", 240), ("AP", 300))


def _table(page: PageWords) -> Table:
    read = read_tables(page, "Table 1")
    assert len(read) == 1, read
    return read[0]


def _value(table: Table, row: str, column: str) -> str:
    rows, columns = find_rows(table, row), find_columns(table, column)
    assert len(rows) == 1 and len(columns) == 1, ([r.name for r in table.rows], [c.name for c in table.columns])
    return table.cell(rows[0], columns[0]).text


# A Typst table with cell padding: each model's name wraps after its hyphen, its second line 5 points under the
# first, the next row 10 points further down.
WRAPPED = [_line(140, ("Llama-3.1-8B-", 150), ("2652", 240), ("0.877", 300)),
           _line(152, ("Instruct", 150)),
           _line(169, ("Llama-3.2-3B-", 150), ("1946", 240), ("0.915", 300)),
           _line(181, ("Instruct", 150)),
           _line(198, ("Qwen3-8B", 150), ("1544", 240), ("0.878", 300))]


def test_a_row_label_wrapped_under_its_row_is_one_label() -> None:
    table = _table(_page(CAPTION, HEADER, *WRAPPED))
    assert [r.name for r in table.rows] == ["Llama-3.1-8B-Instruct", "Llama-3.2-3B-Instruct", "Qwen3-8B"]
    assert _value(table, "Llama-3.2-3B-Instruct", "AP") == "0.915"


def test_without_the_rule_a_wrapped_label_is_read_as_a_group(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "unwrapped_labels", lambda body, data_lo: body)
    table = _table(_page(CAPTION, HEADER, *WRAPPED))
    assert "Llama-3.2-3B-Instruct" not in [r.name for r in table.rows]


def test_a_row_label_centred_on_its_row_over_three_lines_is_one_label() -> None:
    """A browser centres a cell's lines on its row: the label's first line above the numbers, its last below."""
    page = _page(CAPTION, _line(128, ("Model", 150), ("N", 240), ("AP", 300)),
                 _line(140, ("Synaptoso", 150)), _line(149, ("me", 150), ("C1", 165), ("0.44", 300), ("223", 240)),
                 _line(158, ("(train)", 150)),
                 _line(180, ("Synaptoso", 150)), _line(189, ("me", 150), ("C2", 165), ("0.80", 300), ("105", 240)),
                 _line(198, ("(train)", 150)),
                 _line(220, ("Average", 150), ("0.62", 300), ("164", 240)))
    table = _table(page)
    assert [r.name for r in table.rows] == ["Synaptoso me C1 (train)", "Synaptoso me C2 (train)", "Average"]
    assert _value(table, "Synaptosome C2 (train)", "AP") == "0.80"  # names compare without spaces


def test_a_group_label_set_at_the_rows_spacing_stays_a_group() -> None:
    """TeX sets a group's label on a line of its own at the rows' own spacing: no wrapped label."""
    page = _page(CAPTION, HEADER,
                 _line(132, ("Zero-shot", 150)),
                 _line(144, ("Ours", 150), ("120", 240), ("0.61", 300)),
                 _line(156, ("Base", 150), ("118", 240), ("0.58", 300)),
                 _line(168, ("Fine-tuned", 150)),
                 _line(180, ("Ours", 150), ("121", 240), ("0.73", 300)),
                 _line(192, ("Base", 150), ("119", 240), ("0.70", 300)))
    table = _table(page)
    assert [r.name for r in table.rows] == ["Zero-shot / Ours", "Zero-shot / Base", "Fine-tuned / Ours",
                                            "Fine-tuned / Base"]


def test_a_group_label_closer_to_its_first_row_than_rows_are_to_each_other_stays_a_group() -> None:
    """A group label after a rule: farther from the row above than from its first row, yet set at the rows'
    own spacing from it, as every row is from the next: not a wrapped label."""
    page = _page(CAPTION, HEADER,
                 _line(132, ("Ours", 150), ("120", 240), ("0.61", 300)),
                 _line(144, ("Base", 150), ("118", 240), ("0.58", 300)),
                 _line(160, ("Fine-tuned", 150)),
                 _line(172, ("Ours", 150), ("121", 240), ("0.73", 300)),
                 _line(184, ("Base", 150), ("119", 240), ("0.70", 300)))
    assert [r.name for r in _table(page).rows] == ["Ours", "Base", "Fine-tuned / Ours", "Fine-tuned / Base"]


# A word processor's boxed table: its rows 36 points apart, its header as far under the caption and over them.
PADDED = [_line(150, ("Model", 150), ("N", 240), ("AP", 300)),
          *[_line(186 + 36 * k, (name, 150), (f"{100 + k}", 240), (f"0.9{k}", 300))
            for k, name in enumerate(["MobileNet", "ResNet50", "Xception", "VGG16"])]]


def test_rows_set_far_apart_at_one_pitch_are_one_table() -> None:
    table = _table(_page(CAPTION, *PADDED))
    assert [r.name for r in table.rows] == ["MobileNet", "ResNet50", "Xception", "VGG16"]
    assert _value(table, "VGG16", "AP") == "0.93"


def test_without_the_pitch_rows_set_far_apart_are_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(blocks, "_paces", lambda items, values=2: [0.0] * len(items))
    assert read_tables(_page(CAPTION, *PADDED), "Table 1") == []


def test_a_number_line_far_under_a_table_is_not_one_of_its_rows() -> None:
    """Two lines of numbers at another pitch, far under the rows: no part of the table."""
    page = _page(CAPTION, *PADDED, _line(360, ("12", 150), ("13", 240)), _line(400, ("14", 150), ("15", 240)))
    assert [r.name for r in _table(page).rows] == ["MobileNet", "ResNet50", "Xception", "VGG16"]


def test_a_heading_in_larger_letters_over_a_table_names_its_rows() -> None:
    page = _page(CAPTION,
                 _line(118, ("Train", 145), ("Dataset", 175), height=10.5),
                 _line(134, ("Dataset", 150), ("N", 240), ("AP", 300)),
                 _line(148, ("C1", 150), ("223", 240), ("0.44", 300)),
                 _line(160, ("C2", 150), ("105", 240), ("0.80", 300)))
    table = _table(page)
    assert [c.name for c in table.columns] == ["N", "AP"]
    assert _value(table, "Train Dataset / C2", "AP") == "0.80"


def test_a_first_header_line_in_the_tables_own_letters_is_a_header() -> None:
    page = _page(CAPTION,
                 _line(118, ("Train", 145), ("Dataset", 175)),
                 _line(130, ("Dataset", 150), ("N", 240), ("AP", 300)),
                 _line(142, ("C1", 150), ("223", 240), ("0.44", 300)))
    assert [r.name for r in _table(page).rows] == ["C1"]


@pytest.mark.parametrize(("first", "second", "caption"), [
    ("Table", "1-", True),  # 'Table 1- Evaluation of ...' as a web page's paragraph types it
    ("Table", "1.", True),
    ("Table", "1-3", False),  # a range of tables in running text
])
def test_a_caption_typed_with_a_hyphen_after_its_number(first: str, second: str, caption: bool) -> None:
    page = _page(_line(100, (first, 150), (second, 180), ("Evaluation", 200)),
                 _line(120, ("Model", 150), ("N", 240), ("AP", 300)),
                 _line(132, ("Ours", 150), ("120", 240), ("0.61", 300)))
    assert bool(read_tables(page, "Table 1")) is caption


@pytest.mark.parametrize(("angle", "turned"), [
    (0.0, False),
    (0.245, False),  # a synthetic oblique (14 degrees), as Chromium prints an italic header
    (2 * math.pi - 0.245, False),
    (math.pi / 4, True),
    (math.pi / 2, True),
    (3 * math.pi / 2, True),
    (-1.0, False),  # PDFium cannot tell
])
def test_an_oblique_face_is_no_turned_word(angle: float, turned: bool) -> None:
    assert _quarter_turned(angle) is turned


def test_a_label_line_that_the_next_line_goes_on_from_in_lower_case_is_its_first_line() -> None:
    """A table set without padding: a label's two lines as close to each other as to the row above, the values on
    the label's last line. The lower-case start says which line goes on from which."""
    page = _page(CAPTION, HEADER,
                 _line(130, ("Coal", 150), ("output", 175), ("6732.9", 240), ("8016.3", 300)),
                 _line(139, ("The", 150), ("difference", 170)),
                 _line(148, ("from", 150), ("the", 175), ("mean", 195), ("1283.3", 240), ("459.1", 300)))
    table = _table(page)
    assert [r.name for r in table.rows] == ["Coal output", "The difference from the mean"]


def test_columns_named_by_their_numbers_are_a_header() -> None:
    page = _page(CAPTION,
                 _line(120, ("Month", 150), ("1", 240), ("2", 270), ("3", 300), ("Mean", 330)),
                 _line(132, ("Coal", 150), ("6732.9", 230), ("6732.9", 260), ("8282.8", 290), ("7249.2", 325)),
                 _line(144, ("Oil", 150), ("12.5", 235), ("13.1", 265), ("12.9", 295), ("12.8", 330)))
    table = _table(page)
    assert [c.name for c in table.columns] == ["1", "2", "3", "Mean"]
    assert _value(table, "Oil", "2") == "13.1"


def test_a_first_row_of_values_that_do_not_count_up_is_a_row() -> None:
    page = _page(CAPTION,
                 _line(120, ("Model", 150), ("A", 240), ("B", 270), ("C", 300)),
                 _line(132, ("Ours", 150), ("1", 240), ("2", 270), ("4", 300)),
                 _line(144, ("Base", 150), ("3", 240), ("5", 270), ("6", 300)))
    assert [r.name for r in _table(page).rows] == ["Ours", "Base"]


def _running_text(top: float, x0: float, text: str) -> list[Word]:
    """A line of running text: its words one space (3 points) apart."""
    placed = []
    for word in text.split():
        placed.append((word, x0))
        x0 += CHAR * len(word) + 3
    return _line(top, *placed)


def _two_column_page(*lines: list[Word]) -> PageWords:
    """A two-column page: running text in each column (words that never cross the middle, at x = 300)."""
    text = [_line(400 + 12 * k, *((w, 40 + 45 * j) for j, w in enumerate(["left", "column", "text", "runs", "on"])))
            for k in range(12)]
    text += [_line(400 + 12 * k, *((w, 320 + 45 * j) for j, w in enumerate(["right", "column", "text", "runs"])))
             for k in range(12)]
    return _page(*lines, *text)


# A publisher's table across both columns: 'Table 1' alone on its line in the left column, its caption running on
# under it across the page; its group headers set flush left over their columns.
ACROSS = [_line(100, ("Table", 40), ("1", 70)),
          _running_text(110, 40, "Comparison of image-level AUROC for anomaly detection on the MPDD dataset."),
          _line(124, ("Type", 44), ("Reconstruction", 108), ("Embedding-based", 300), ("Ours", 500)),
          _line(136, ("Model", 44), ("DMAD", 108), ("DDAD", 170), ("GLAD", 232), ("MemKD", 300), ("CFLOW", 370),
                ("PatchCore", 430), ("RSAD", 500)),
          _line(148, ("Black", 44), ("80.5", 108), ("98.7", 170), ("98.0", 232), ("95.7", 300), ("72.7", 370),
                ("81.9", 430), ("94.3", 500)),
          _line(160, ("Brown", 44), ("94.5", 108), ("92.7", 170), ("90.7", 232), ("98.9", 300), ("88.8", 370),
                ("78.4", 430), ("99.7", 500))]


def test_a_label_alone_on_its_line_heads_a_caption_and_a_table_across_the_page() -> None:
    table = _table(_two_column_page(*ACROSS))
    assert _value(table, "Brown", "Ours / RSAD") == "99.7"


def test_group_headers_set_flush_left_span_their_columns_up_to_the_next_group() -> None:
    table = _table(_two_column_page(*ACROSS))
    assert [c.name for c in table.columns] == [
        "Reconstruction / DMAD", "Reconstruction / DDAD", "Reconstruction / GLAD", "Embedding-based / MemKD",
        "Embedding-based / CFLOW", "Embedding-based / PatchCore", "Ours / RSAD"]
    assert _value(table, "Black", "Reconstruction / GLAD") == "98.0"


def test_two_line_headers_set_flush_left_span_no_more_than_their_own_column() -> None:
    page = _page(CAPTION,
                 _line(118, ("Number", 200), ("of", 235), ("Mean", 320)),
                 _line(127, ("Model", 150), ("queries", 200), ("Acc", 260), ("scores", 320)),
                 _line(140, ("Ours", 150), ("120", 200), ("71.4", 260), ("0.61", 320)))
    assert [c.name for c in _table(page).columns] == ["Number of queries", "Acc", "Mean scores"]


def test_a_table_of_one_column_of_numbers_set_far_apart_is_read_whole() -> None:
    """A word processor's table of counts: one number a row, the rows 21 points apart, and the last one after a
    row set between two others (a group's total on its middle line) as far from the row before it."""
    lines = [_line(120, ("Class", 150), ("Images", 240), ("Total", 300))]
    tops = [141, 162, 183, 194, 204, 225]
    for k, top in enumerate(tops):
        if k == 3:
            lines.append(_line(top, ("Test", 110), ("385", 300)))
        else:
            lines.append(_line(top, (f"Class{k}", 150), (f"{90 + k}", 240)))
    table = _table(_page(CAPTION, *lines))
    assert _value(table, "Class5", "Images") == "95"


def _raised(text: str, x0: float, top: float) -> Word:
    """A superscript: smaller letters whose foot is raised above the value's."""
    return Word(text, x0, top - 2.0, x0 + 3.5 * len(text), top + 3.0)


@pytest.mark.parametrize("annotation", ["+10.8%", "\u221242.3%", "(+2.1)"])
def test_a_raised_annotation_after_a_value_is_part_of_its_cell(annotation: str) -> None:
    """A relative change set as a superscript after each value: the value is the cell's, the annotation is no
    cell of its own, and a minus in it is no subtraction."""
    row = [*_line(140, ("Ours", 150), ("71.2", 240)), _raised(annotation, 260.5, 140),
           *_line(140, ("0.61", 320))]
    page = _page(CAPTION, _line(120, ("Model", 150), ("Acc", 240), ("F1", 320)),
                 _line(130, ("Base", 150), ("64.3", 240), ("0.55", 320)), row)
    table = _table(page)
    assert [c.name for c in table.columns] == ["Acc", "F1"]
    cell = table.cell(find_rows(table, "Ours")[0], find_columns(table, "Acc")[0])
    assert cell.value == "71.2" and annotation.strip("()").lstrip("+\u2212") in cell.rest
    assert _value(table, "Ours", "F1") == "0.61"


def test_a_raised_annotation_is_glued_to_its_value_word() -> None:
    from review.pdf.words import ANNOTATION, lines_of

    words = [*_line(140, ("71.2", 240)), _raised("\u221242.3%", 260.5, 140)]
    assert [w.text for w in lines_of(words)[0].words] == [f"71.2{ANNOTATION[0]}\u221242.3%{ANNOTATION[1]}"]


def test_a_number_on_the_line_in_the_values_own_letters_is_no_annotation() -> None:
    from review.pdf.words import lines_of

    words = _line(140, ("71.2", 240), ("-42.3", 262))
    assert [w.text for w in lines_of(words)[0].words] == ["71.2", "-42.3"]


def _on(number: int, *lines: list[Word]) -> PageWords:
    return PageWords(number, 600.0, 800.0, tuple(w for line in lines for w in line))


FIRST_PAGE = [CAPTION, HEADER, *(_line(132 + 12 * k, (f"Run{k}", 150), (f"{100 + k}", 240), (f"0.6{k}", 300))
                                  for k in range(5)),
              _line(760, ("Test", 145), ("set", 170), height=10.5)]  # a heading left alone at the page's foot
NEXT_PAGE = [HEADER,
             *(_line(132 + 12 * k, (f"Run{k}", 150), (f"{200 + k}", 240), (f"0.7{k}", 300)) for k in range(3)),
             _line(180, ("Held-out", 145), ("set", 190), height=10.5),
             _line(196, ("Model", 150), ("N", 240), ("AP", 300)),
             *(_line(208 + 12 * k, (f"Run{k}", 150), (f"{300 + k}", 240), (f"0.8{k}", 300)) for k in range(3))]


def test_a_table_broken_across_pages_is_read_on_the_page_without_its_caption() -> None:
    first = _on(1, *FIRST_PAGE)
    (before,) = read_tables(first, "Table 1")
    assert read_tables(_on(2, *NEXT_PAGE), "Table 1") == []
    parts = tables.continued_tables(_on(2, *NEXT_PAGE), "Table 1", before, first)
    assert [t.subcaption for t in parts] == ["Test set", "Held-out set"]
    assert _value(parts[0], "Test set / Run2", "AP") == "0.72"
    assert _value(parts[1], "Held-out set / Run2", "AP") == "0.82"


def test_a_table_followed_by_running_text_is_not_continued_on_the_next_page() -> None:
    prose = _running_text(700, 150, "The results above show that the method holds across every run we made here.")
    first = _on(1, *FIRST_PAGE[:-1], prose)
    (before,) = read_tables(first, "Table 1")
    assert tables.continued_tables(_on(2, *NEXT_PAGE), "Table 1", before, first) == []


def test_the_review_finds_a_cell_of_a_table_continued_without_a_caption() -> None:
    from review.pdf.pdftext import Extraction
    from review.tables.cited import tables_on

    doc = Extraction(pages=("one", "two"), extractor="test", words=(_on(1, *FIRST_PAGE), _on(2, *NEXT_PAGE)))
    assert [t.subcaption for t in tables_on(doc, 2, "Table 1")] == ["Test set", "Held-out set"]


def test_a_number_set_under_a_label_in_its_cell_is_part_of_the_label() -> None:
    """poppler gives a label wrapped over three lines ('Neuron' over the values' line, '133' under it) as one
    line: the number under the name is no value, and the label column stays a label column."""
    def stacked(top: float, number: str, value: str) -> list[Word]:
        return [Word("Neuron", 150, top - 6, 180, top + 1), Word(number, 150, top + 6, 165, top + 13),
                *_line(top, (value, 240), ("0.5", 300))]

    page = _page(CAPTION, _line(120, ("Dataset", 150), ("N", 240), ("AP", 300)),
                 stacked(140, "133", "523"), stacked(170, "123", "66"), stacked(200, "84", "498"))
    table = _table(page)
    assert [c.name for c in table.columns] == ["N", "AP"]
    assert _value(table, "Neuron 123", "N") == "66"


def test_a_name_holding_a_number_keeps_its_column_a_label_column() -> None:
    """An attack named 'Suffix 3' in a second label column: the number is part of the name, the column labels the
    rows, and its names wrapped over two lines are one name."""
    page = _page(CAPTION, _line(120, ("Model", 150), ("Attack", 200), ("N", 290), ("AP", 330)),
                 _line(132, ("Llama", 150), ("LLM-Attacks", 200), ("101", 290), ("0.09", 330)),
                 _line(141, ("Suffix", 200), ("3", 232)),
                 _line(155, ("StruQ", 200), ("Suffix", 232), ("2", 264), ("62", 290), ("0.21", 330)),
                 _line(169, ("Escape", 200), ("60", 290), ("0.05", 330)))
    table = _table(page)
    assert [c.name for c in table.columns] == ["N", "AP"]
    assert _value(table, "LLM-Attacks Suffix 3", "AP") == "0.09"
    assert _value(table, "StruQ Suffix 2", "N") == "62"


@pytest.mark.parametrize(("on_rows", "rows", "centred"), [
    ([1, 4], 6, True),  # two labels, each centred on three rows
    ([0, 3], 6, True),
    ([1, 11], 16, False),  # the first row's label was printed on the page before: top-aligned labels
    ([2], 5, True),
])
def test_labels_that_cannot_each_be_centred_on_their_rows_start_their_runs(on_rows: list[int], rows: int,
                                                                           centred: bool) -> None:
    assert row_labels._centred_runs(on_rows, rows) is centred


def test_rows_over_the_first_top_aligned_label_keep_no_label_of_the_rows_under_it() -> None:
    ys = [10.0 * k for k in range(8)]
    assert row_labels._runs(ys, [(10.0, "Llama"), (60.0, "Qwen")]) == ["", "Llama", "Llama", "Llama", "Llama",
                                                                   "Llama", "Qwen", "Qwen"]


def test_a_group_label_with_a_descender_at_the_rows_pitch_stays_a_group() -> None:
    """'HyenaDNA' hangs lower than a line of digits (its 'y'), so its box is closer to the row under it than the
    rows' boxes are to each other, yet it is set at the rows' own pitch: a group, not a wrapped label."""
    rows = [_line(100 + 12 * k, (str(k + 1), 150), (f"0.6{k}", 240), (f"0.9{k}", 300)) for k in range(3)]
    group = [Word("HyenaDNA", 145, 136.0, 190, 145.0)]
    after = [_line(148 + 12 * k, (str(k + 1), 150), (f"0.7{k}", 240), (f"0.8{k}", 300)) for k in range(3)]
    page = _page(_line(70, ("Table", 150), ("1.", 180), ("Per-fold", 195), ("MCC.", 240)),
                 _line(88, ("fold", 150), ("H3K4", 240), ("H3K27", 300)), *rows, group, *after)
    names = [r.name for r in _table(page).rows]
    assert names[3:] == ["HyenaDNA / 1", "HyenaDNA / 2", "HyenaDNA / 3"]


def test_a_cells_text_wrapped_in_its_cell_is_read_with_its_row() -> None:
    """A browser wraps '96.30%' in a narrow cell: '96.30' on a line of its own just over the row, '%' on the row's
    line beside the other cells. The two are one cell of that row, not a row of their own."""
    page = _page(CAPTION, _line(128, ("Model", 150), ("N", 240), ("TP", 300), ("FP", 340)),
                 _line(140, ("Run1", 150), ("77", 240), ("74", 300), ("6", 340)),
                 _line(152, ("Run2", 150), ("78", 240), ("75", 300), ("5", 340)),
                 _line(170, ("96.30", 298)),
                 _line(176, ("Average", 150), ("286.56", 230), ("%", 305), ("6.10%", 335)))
    table = _table(page)
    assert [r.name for r in table.rows] == ["Run1", "Run2", "Average"]
    assert _value(table, "Average", "TP") == "96.30 %"


def test_pdfium_reads_a_raised_annotation_set_against_its_value_apart_from_a_minus_on_the_line(tmp_path: Path) -> None:
    """A PDF printing '71.2' with '−42.3%' raised and smaller right against it, and '3e-5' on the line: PDFium
    starts a word at the raised sign (the annotation, glued back to its value as one), not at the minus on the
    line."""
    from fpdf import FPDF

    from review.pdf.words import ANNOTATION, lines_of, pdfium_words
    from tests.test_review_support import needs_unicode_font

    pdf = FPDF(unit="pt", format="A4")
    pdf.add_page()
    pdf.add_font("Body", "", str(needs_unicode_font()))
    pdf.set_font("Body", size=10)
    pdf.text(100, 100, "71.2")
    width = pdf.get_string_width("71.2")
    pdf.set_font("Body", size=6)
    pdf.text(100 + width, 95, "\u221242.3%")
    pdf.set_font("Body", size=10)
    pdf.text(200, 100, "3e-5")
    path = tmp_path / "raised.pdf"
    pdf.output(str(path))
    (page,) = pdfium_words(path.read_bytes())
    texts = [w.text for w in lines_of(page.words)[0].words]
    assert texts == [f"71.2{ANNOTATION[0]}\u221242.3%{ANNOTATION[1]}", "3e-5"]
