"""Rules of the table reader that need no PDF: how multirow labels name runs of rows, how a header set on two
lines is joined, and what counts as running text."""

from __future__ import annotations

import pytest

from review.pdf.words import Line, Word, lines_of
from review.tables.cell import read_cell
from review.tables.headers import _columns
from review.tables.lines import _thousands, is_prose, joined_lines
from review.tables.rows import _runs
from review.tables.table import matches

ROWS = [100.0, 110.0, 120.0, 130.0, 140.0, 150.0, 160.0, 170.0]


@pytest.mark.parametrize(("labels", "expected"), [
    # centred (\multirow): 'A' halfway between the 3rd and 4th rows names six rows, 'B' the last two
    ([(125.0, "A"), (165.0, "B")], ["A"] * 6 + ["B"] * 2),
    # centred on a row's line: 'A' on the 2nd row names three rows, 'B' on the 5th the next three, 'C' the rest
    ([(110.0, "A"), (140.0, "B"), (165.0, "C")], ["A"] * 3 + ["B"] * 3 + ["C"] * 2),
    # top-aligned: each label on the first row of its run
    ([(100.0, "A"), (130.0, "B")], ["A"] * 3 + ["B"] * 5),
    ([], [""] * 8),
])
def test_multirow_labels_name_runs_of_rows(labels: list[tuple[float, str]], expected: list[str]) -> None:
    assert _runs(ROWS, labels) == expected


@pytest.mark.parametrize(("upper", "lower", "joined"), [
    ("Non High-", "light-based", "Non Highlight-based"),
    ("Highlight", "-based", "Highlight-based"),
    ("Splice sites", "(acceptor)", "Splice sites (acceptor)"),
    ("Model-", "B/16", "Model-B/16"),
])
def test_a_header_on_two_lines_is_joined(upper: str, lower: str, joined: str) -> None:
    assert joined_lines(upper, lower) == joined


def _line(texts: list[str], gap: float, x: float = 72.0) -> Line:
    words = []
    for text in texts:
        words.append(Word(text, x, 100.0, x + 6 * len(text), 109.0))
        x += 6 * len(text) + gap
    return Line(tuple(words))


def test_running_text_is_a_wide_line_of_words_without_gaps_between_cells() -> None:
    prose = _line("the model is trained with different seeds and the mean is shown here".split(), 3.0)
    assert is_prose(prose, prose.x1 - prose.x0)
    row = _line(["snaive", "0.881", "0.005", "0.357", "0.007", "0.011", "0.358"], 30.0)
    assert not is_prose(row, row.x1 - row.x0)
    short = _line("the mean is shown".split(), 3.0)
    assert not is_prose(short, 400.0)


def _words(spec: list[tuple[str, float, float]]) -> tuple[Word, ...]:
    return tuple(Word(text, x0, 100.0, x1, 109.0) for text, x0, x1 in spec)


def test_thousands_set_apart_by_a_thin_space_are_one_number() -> None:
    row = _words([("45", 100.0, 109.0), ("000", 110.7, 124.0), ("11.3%", 150.0, 170.0),
                  ("453", 200.0, 213.0), ("291", 214.6, 228.0), ("17", 260.0, 269.0)])
    assert [w.text for w in _thousands(row)] == ["45 000", "11.3%", "453 291", "17"]
    apart = _words([("45", 100.0, 109.0), ("000", 120.0, 133.0)])  # a column gap: two cells
    assert [w.text for w in _thousands(apart)] == ["45", "000"]


def _header_line(spec: list[tuple[str, float, float]], top: float) -> Line:
    return Line(tuple(Word(text, x0, top, x1, top + 9.0) for text, x0, x1 in spec))


def test_a_spanning_header_spans_the_columns_it_is_centred_over_never_the_stub() -> None:
    # The fixture paper's Table 1 as PDFium places it: 'Histone marks' is centred over 'H3K4me3' and 'H3K27ac',
    # and also (by chance) over the run from the stub 'Model' to 'Promoter'.
    header = [
        _header_line([("Histone", 239.0, 269.6), ("marks", 272.5, 296.3)], 100.0),
        _header_line([("Splice", 417.3, 441.6), ("sites", 444.8, 461.6)], 110.0),
        _header_line([("Model", 144.7, 170.4), ("H3K4me3", 213.3, 253.9), ("H3K27ac", 284.9, 322.5),
                      ("Promoter", 353.2, 390.2), ("(acceptor)", 419.7, 459.1)], 120.0),
    ]
    columns, stub = _columns(header, [], 144.7)
    assert stub is not None and stub.levels == ("Model",)
    assert [c.levels for c in columns] == [("Histone marks", "H3K4me3"), ("Histone marks", "H3K27ac"),
                                           ("Promoter",), ("Splice sites (acceptor)",)]


def test_a_raised_smaller_number_after_a_number_is_its_superscript() -> None:
    # poppler gives the superscript of '2.10³' and '10⁴' a word of its own, raised and smaller
    words = [Word("2.10", 100.0, 101.3, 117.7, 110.2), Word("3", 117.8, 99.5, 121.5, 105.8),
             Word("10", 150.0, 101.3, 160.0, 110.2), Word("4", 160.1, 99.5, 163.8, 105.8),
             Word("7", 170.0, 101.3, 175.0, 110.2)]  # a number of its own, full size
    (line,) = lines_of(words)
    assert [w.text for w in line.words] == ["2.10\u00b3", "10\u2074", "7"]
    apart = [Word("2.10", 100.0, 101.3, 117.7, 110.2), Word("3", 124.0, 99.5, 127.7, 105.8)]  # set apart: no
    assert [w.text for w in lines_of(apart)[0].words] == ["2.10", "3"]


@pytest.mark.parametrize(("printed", "value", "marks"), [
    ("2.10\u00b3", "2.10", "\u00b3"),  # a superscript after a decimal number is a mark, never glued on
    ("1 \u00b7 10\u2074", "1 \u00b7 10\u2074", ""),  # a power of ten, read whole
    ("10\u207b\u00b3", "10\u207b\u00b3", ""),
    ("0.681\u00b9", "0.681", "\u00b9"),
    ("0.702\u2020", "0.702", "\u2020"),
])
def test_a_cell_reads_superscripts_as_printed(printed: str, value: str, marks: str) -> None:
    cell = read_cell([Word(printed, 100.0, 100.0, 130.0, 109.0)])
    assert (cell.value, cell.marks) == (value, marks)


def test_headers_set_flush_right_over_their_numbers_are_fitted_to_the_columns() -> None:
    # kshirsagar-multitask-2016 Table 1 as PDFium places it: three narrow columns set close, each header flush
    # right over its numbers, 'Hepatitis' and 'C' set apart as two cells
    header = [_header_line([("Task", 220.8, 239.2), ("\u2192", 243.0, 251.2), ("Influenza", 317.2, 359.1),
                            ("A", 363.2, 369.8), ("Hepatitis", 373.7, 413.6), ("C", 418.8, 425.5),
                            ("Ebola", 429.3, 453.4)], 100.0)]
    body = [_header_line([("number", 174.0, 204.0), ("848", 356.8, 369.8), ("981", 412.5, 425.2),
                          ("90", 445.0, 453.5)], 140.0),
            _header_line([("negatives", 174.0, 214.0), ("10,000", 347.6, 370.0), ("10,000", 403.3, 425.6),
                          ("1,000", 435.8, 453.5)], 150.0)]
    columns, _ = _columns(header, [], 158.5, body)
    assert [c.name for c in columns][-3:] == ["Influenza A", "Hepatitis C", "Ebola"]
    # wilde-kmodes-2020 Table 2: 'No.' over no numbers, 'classes' flush right over its column: one header
    header = [_header_line([("m", 175.1, 182.1), ("No.", 192.5, 205.3), ("classes", 210.4, 235.6),
                            ("Missing", 246.2, 275.7), ("values", 279.0, 302.5)], 100.0)]
    body = [_header_line([("Mushroom", 77.3, 120.0), ("22", 173.6, 181.9), ("2", 231.8, 235.5)], 140.0),
            _header_line([("Nursery", 77.3, 115.0), ("8", 177.9, 181.9), ("5", 231.8, 235.5)], 150.0)]
    columns, _ = _columns(header, [], 77.3, body)
    assert [c.name for c in columns] == ["m", "No. classes", "Missing values"]
    # a header over one column whose words are set apart but not flush with it stays as the page sets it
    header = [_header_line([("m", 175.1, 182.1), ("Acc", 192.5, 205.3), ("(%)", 210.4, 225.0)], 100.0)]
    columns, _ = _columns(header, [], 77.3, body)
    assert [c.name for c in columns] == ["m", "Acc", "(%)"]
    # two columns of numbers set close under 'Prec' and 'Rec' (hardy-highres-2019 Table 2) stay two
    header = [_header_line([("Model", 313.4, 337.5), ("Prec", 370.4, 387.4), ("Rec", 393.8, 407.8)], 100.0)]
    body = [_header_line([("PTGEN", 313.4, 340.0), ("57.42", 370.5, 387.0), ("49.95", 391.0, 413.1)], 140.0)]
    columns, _ = _columns(header, [], 313.4, body)
    assert [c.name for c in columns] == ["Prec", "Rec"]


def test_a_header_over_spanning_headers_spans_them_whole() -> None:
    # koyama-green-2024 Table 2 as PDFium places it: 'Corpus-Level Metrics' is centred over the six columns under
    # 'CoNLL', 'SEEDA-S' and 'SEEDA-E', and also (by chance) over the four in the middle
    header = [
        _header_line([("Corpus-Level", 187.6, 246.6), ("Metrics", 249.7, 282.4)], 100.0),
        _header_line([("CoNLL", 153.4, 186.8), ("SEEDA-S", 213.3, 256.5), ("SEEDA-E", 278.0, 322.4)], 110.0),
        _header_line([("r", 151.5, 155.9), ("\u03c1", 183.8, 188.9), ("r", 216.5, 220.9), ("\u03c1", 248.8, 254.0),
                      ("r", 281.5, 286.0), ("\u03c1", 313.8, 319.0)], 120.0),
    ]
    columns, _ = _columns(header, [], 75.0)
    assert [c.name for c in columns] == [f"Corpus-Level Metrics / {group} / {name}"
                                         for group in ("CoNLL", "SEEDA-S", "SEEDA-E") for name in ("r", "\u03c1")]


def test_a_row_groups_name_may_run_on_over_the_first_columns() -> None:
    # koyama-green-2024 Table 2: 'Alignment-based F-score' (75-188) runs on past where the first column's header
    # starts (151.5), in less than half the table's width; the rows under it are its group
    from review.pdf.words import PageWords
    from review.tables.read import read_tables

    def words(spec: list[tuple[str, float, float]], top: float) -> list[Word]:
        return [Word(text, x0, top, x1, top + 8.0) for text, x0, x1 in spec]

    numbers = [(f"0.{600 + k}", 151.0 + 32.5 * k, 165.0 + 32.5 * k) for k in range(12)]
    page = PageWords(6, 595.0, 842.0, tuple(
        words([("Table", 75.0, 97.0), ("2:", 99.0, 107.0), ("Correlations", 110.0, 160.0), ("of", 163.0, 171.0),
               ("metrics", 174.0, 204.0), ("with", 207.0, 225.0), ("human", 228.0, 255.0), ("judgements", 258.0, 305.0),
               ("on", 308.0, 318.0), ("three", 321.0, 342.0), ("data", 345.0, 363.0), ("sets.", 366.0, 520.0)], 40.0)
        + words([(name, 150.0 + 32.5 * k, 157.0 + 32.5 * k) for k, name in enumerate(["r", "\u03c1"] * 6)], 100.0)
        + words([("Alignment-based", 75.0, 150.0), ("F-score", 153.0, 187.7)], 114.0)
        + words([("M2", 75.0, 90.0), *numbers], 126.0)
        + words([("ERRANT", 75.0, 110.0), *numbers], 140.0)
        + words([("n-gram-based", 75.0, 135.0), ("precision", 138.0, 178.5)], 154.0)
        + words([("wordGLEU", 75.0, 118.0), *numbers], 168.0)))
    (table,) = read_tables(page, "Table 2")
    assert [r.name for r in table.rows] == ["Alignment-based F-score / M2", "Alignment-based F-score / ERRANT",
                                            "n-gram-based precision / wordGLEU"]


def test_a_cell_wider_than_its_header_is_no_part_of_the_row_label() -> None:
    # thiry-patches-2021 Table 1: '1 · 10⁴' starts left of its header '|D|' (313.1); its '1' is the cell's
    from review.tables.lines import _label_end

    row = _words([("Coates", 159.3, 186.0), ("et", 188.0, 196.0), ("al.", 198.0, 208.0), ("1", 300.0, 305.0),
                  ("\u00b7", 307.0, 309.5), ("10\u00b3", 311.5, 326.0), ("85.6", 435.0, 452.0)])
    assert _label_end(row, 314.1) == 3
    label_and_number = _words([("ResNet", 159.3, 186.0), ("50", 190.0, 200.0), ("85.6", 316.0, 330.0)])
    assert _label_end(label_and_number, 314.1) == 2  # a number in the label, set apart from the cells


def _spec_words(spec: list[tuple[str, float, float]], top: float, height: float = 8.0) -> list[Word]:
    return [Word(text, x0, top, x1, top + height) for text, x0, x1 in spec]


def test_a_caption_set_beside_running_text_bounds_its_table_at_the_gap() -> None:
    # ellis-library-2018 Table 3 (a wraptable) as PDFium places it: the caption starts mid-line, after the
    # paragraph's line that runs on beside the table; the table lies right of the gap between them
    from review.pdf.words import PageWords
    from review.tables.captions import _page_column

    caption = _spec_words([("a", 108.4, 112.0), ("view", 115.0, 135.0), ("of", 138.0, 147.0), ("the", 149.0, 161.0),
                           ("recognition", 164.0, 210.0), ("model", 213.0, 238.0), ("as", 242.0, 249.0),
                           ("a", 253.0, 257.0), ("way", 260.0, 276.0), ("Table", 286.0, 308.0), ("3:", 311.0, 317.0),
                           ("%", 322.0, 329.0), ("held-out", 332.0, 365.0), ("test", 367.0, 381.0),
                           ("tasks", 384.0, 403.0), ("solved.", 406.0, 434.0)], 561.2)
    page = PageWords(8, 612.0, 792.0, tuple(caption))
    (line,) = lines_of(caption)
    lo, hi = _page_column(page, line, 9)
    assert 276.0 < lo < 286.0 and hi == 612.0
    # a caption at the start of its line is bounded by its column only
    alone = _spec_words([("Table", 108.0, 130.0), ("3:", 133.0, 140.0), ("Results.", 143.0, 180.0)], 561.2)
    assert _page_column(PageWords(8, 612.0, 792.0, tuple(alone)), lines_of(alone)[0], 0)[0] == 0.0


@pytest.mark.parametrize(("spec", "numbers"), [
    # lim-plasticity-2024 Table 3's header as PDFium places it: each number names a column with the word before
    # it, an interword space of 4.6 points apart
    ([("Case", 266.9, 289.6), ("1", 294.2, 297.5), ("Case", 323.1, 345.7), ("2", 349.3, 354.6),
      ("Case", 379.2, 401.8), ("3", 405.6, 410.2)], False),
    # the uncertainty-columns layout's header: '95%' starts its cell, and the word 'CI' goes on from it
    ([("Method", 211.0, 242.0), ("Accuracy", 274.0, 312.0), ("SE", 329.0, 340.0), ("95%", 363.0, 380.0),
      ("CI", 384.0, 393.0)], False),
    ([("Best", 190.3, 211.0), ("0.83", 256.0, 276.0), ("0.8", 319.0, 333.0), ("0.79", 382.0, 402.0)], True),
    # ellis-library-2018 Table 3: percentages are numbers
    ([("%", 289.3, 296.0), ("solved", 300.0, 325.0), ("94%", 337.0, 355.0), ("79%", 367.0, 384.0),
      ("71%", 396.0, 413.0)], True),
])
def test_a_line_whose_numbers_are_all_part_of_names_is_a_header(spec: list[tuple[str, float, float]],
                                                                 numbers: bool) -> None:
    from review.tables.lines import _numbers_line

    assert _numbers_line(Line(tuple(_spec_words(spec, 100.0)))) is numbers


def test_cells_wider_than_their_headers_are_read_between_the_gaps_of_the_body() -> None:
    # sinha-systematic-2021 Table 5 as PDFium places it: '91.17 +/- 2.6' (341-394) under 'LZ' (382-394) reaches
    # left of the midpoint to the stub 'Model', and '68.66 +/- 11.6' (405-464) left of the midpoint between
    # 'LZ' and 'GL'; the gaps between the body's columns set the cells apart
    from review.pdf.words import PageWords
    from review.tables.read import read_tables
    from review.tables.table import find_columns, find_rows

    rows = [("MN", [("91.17", 341.0, 363.0), ("+/-", 367.0, 378.0), ("2.6", 382.0, 394.0), ("68.66", 405.0, 428.0),
                    ("+/-", 431.0, 443.0), ("11.6", 447.0, 464.0), ("88.05", 480.0, 503.0), ("+/-", 506.0, 518.0),
                    ("6.5", 521.0, 533.0)]),
            ("M4", [("66.93", 341.0, 363.0), ("+/-", 367.0, 378.0), ("3.2", 382.0, 394.0), ("69.47", 411.0, 433.0),
                    ("+/-", 437.0, 448.0), ("4.9", 451.0, 464.0), ("70.66", 475.0, 498.0), ("+/-", 501.0, 513.0),
                    ("12.5", 517.0, 533.0)])]
    words = _spec_words([("Model", 303.0, 330.0), ("LZ", 382.0, 394.0), ("GL", 451.0, 464.0), ("MA", 517.0, 534.0)],
                        618.9)
    for k, (label, cells) in enumerate(rows):
        words += _spec_words([(label, 303.0, 319.0), *cells], 636.4 + 13.0 * k)
    words += _spec_words([("Table", 297.0, 323.0), ("5:", 326.0, 334.0), ("Accuracy", 339.0, 380.0),
                          ("on", 383.0, 393.0), ("probing", 396.0, 430.0), ("tasks.", 433.0, 460.0)], 680.0)
    (table,) = read_tables(PageWords(14, 595.0, 842.0, tuple(words)), "Table 5")
    (mn,) = find_rows(table, "M_N")  # a subscript typed as markup names the row printed 'MN'
    (lz,), (gl,) = find_columns(table, "LZ"), find_columns(table, "GL")
    assert (table.cell(mn, lz).value, table.cell(mn, lz).plus_minus) == ("91.17", "2.6")
    assert (table.cell(mn, gl).value, table.cell(mn, gl).plus_minus) == ("68.66", "11.6")


def test_a_header_much_wider_than_the_one_column_it_overlaps_spans_the_run_centred_under_it() -> None:
    # kshirsagar-multitask-2016 Table 2 as PDFium places it: '10% training' overlaps only 'Hep-C' and is centred
    # over it, and also over 'Ebola', 'Hep-C', 'Influenza', the three columns it spans
    header = [_header_line([("10%", 249.4, 267.0), ("training", 272.0, 308.0), ("30%", 389.0, 408.0),
                            ("training", 412.0, 448.5)], 123.9),
              _header_line([("Ebola", 221.9, 243.0), ("Hep-C", 266.0, 291.0), ("Influenza", 306.0, 343.0),
                            ("Ebola", 362.0, 384.0), ("Hep-C", 406.0, 432.0), ("Influenza", 446.0, 483.1)], 137.4)]
    body = [_header_line([("STL", 137.0, 153.0), ("(Ridge", 158.0, 183.0), ("Reg.)", 187.0, 207.0),
                          ("0.189\u00b1.09", 213.0, 252.0), ("0.702\u00b1.08", 259.0, 298.0),
                          ("0.286\u00b1.02", 305.0, 344.0), ("0.220\u00b1.03", 353.0, 393.0),
                          ("0.802\u00b1.03", 399.0, 439.0), ("0.428\u00b1.03", 445.0, 484.0)], 155.0)]
    columns, _ = _columns(header, [], 137.0, body)
    assert [c.name for c in columns] == [f"{setting} / {task}" for setting in ("10% training", "30% training")
                                         for task in ("Ebola", "Hep-C", "Influenza")]


def test_a_gap_between_a_value_and_its_spread_inside_a_cell_is_no_column_boundary() -> None:
    # the fpdf fixture paper's Table 1 as PDFium places it: '71.3 ± 0.4' under 'Accuracy (%)' leaves a gap
    # between '71.3' and '0.4' ('±' is no number) as well as the gap before the 'Δ vs 6-mer (pp)' column's
    # numbers: two gaps between the headers' centres, so the boundary stays at the headers' midpoint
    from review.tables.headers import _fitted_to_gutters
    from review.tables.table import Column

    columns = [Column(("Accuracy (%)",), 191.9, 257.2, float("-inf"), 275.0),
               Column(("\u0394 vs 6-mer (pp)",), 292.8, 370.6, 275.0, 387.7),
               Column(("Throughput (tokens/s)",), 404.9, 518.0, 387.7, float("inf"))]
    body = [[211.0, 229.9], [244.2, 257.4], [350.4, 370.7], [487.7, 518.1]]
    assert [(c.lo, c.hi) for c in _fitted_to_gutters(columns, body)] == [(c.lo, c.hi) for c in columns]
    # one gap between the centres, numbers under both: the boundary moves into it (sinha-systematic-2021 Table 5)
    narrow = [Column(("LZ",), 382.0, 394.0, float("-inf"), 422.5), Column(("GL",), 451.0, 464.0, 422.5, 490.5)]
    fitted = _fitted_to_gutters(narrow, [[341.0, 394.0], [405.0, 464.0]])
    assert (fitted[0].hi, fitted[1].lo) == (399.5, 399.5)


def test_subtables_under_one_caption_are_read_each_with_its_own_columns() -> None:
    # kula-mixture-2018 Table 2 as PDFium places it: '(a) Sequence models' and '(b) Factorization models' each
    # over a header of its own, set at other widths (Movielens at 123-160, then at 142-179)
    from review.pdf.words import PageWords
    from review.tables.read import read_tables
    from review.tables.table import find_columns, find_rows

    words = _spec_words([("Table", 54.0, 75.0), ("2:", 86.0, 92.0), ("Mean", 102.0, 124.0),
                         ("reciprocal", 134.0, 174.0), ("rank", 184.0, 203.0), ("(MRR).", 213.0, 241.0)], 84.9)
    words += _spec_words([("(a)", 138.0, 146.0), ("Sequence", 149.0, 182.0), ("models", 184.0, 210.0)], 140.7)
    words += _spec_words([("Model", 59.0, 82.0), ("Movielens", 123.0, 160.0), ("Amazon", 171.0, 201.0),
                          ("Goodbooks", 211.0, 252.0)], 160.0)
    words += _spec_words([("LSTM", 59.0, 81.0), ("0.0908", 138.0, 160.0), ("0.1502", 179.0, 201.0),
                          ("0.1158", 230.0, 252.0)], 175.9)
    words += _spec_words([("Mixture-LSTM", 59.0, 113.0), ("0.1001", 136.0, 160.0), ("0.1889", 176.0, 201.0),
                          ("0.1358", 228.0, 252.0)], 186.8)
    words += _spec_words([("(b)", 131.0, 139.0), ("Factorization", 142.0, 189.0), ("models", 191.0, 217.0)], 200.5)
    words += _spec_words([("Model", 59.0, 82.0), ("Movielens", 142.0, 179.0), ("Amazon", 189.0, 220.0),
                          ("Goodbooks", 230.0, 271.0)], 219.8)
    words += _spec_words([("Factorization", 59.0, 107.0), ("0.1053", 157.0, 179.0), ("0.1001", 197.0, 219.0),
                          ("0.0738", 249.0, 271.0)], 235.7)
    tables = read_tables(PageWords(4, 612.0, 792.0, tuple(words)), "Table 2")
    found = [(t, r[0], c[0]) for t in tables if (r := find_rows(t, "(b) Factorization models / Factorization"))
             and (c := find_columns(t, "Movielens"))]
    assert [t.cell(row, column).value for t, row, column in found] == ["0.1053"]
    assert [r.name for t in tables for r in t.rows] == [
        "(a) Sequence models / LSTM", "(a) Sequence models / Mixture-LSTM", "(b) Factorization models / Factorization"]
    # a label printed in both subtables, cited without its subcaption, is ambiguous, not looked up in the first
    words += _spec_words([("LSTM", 59.0, 81.0), ("0.1200", 157.0, 179.0), ("0.1300", 197.0, 219.0),
                          ("0.1400", 249.0, 271.0)], 250.0)
    tables = read_tables(PageWords(4, 612.0, 792.0, tuple(words)), "Table 2")
    assert [[r.name for r in find_rows(t, "LSTM")] for t in tables] == [
        ["(a) Sequence models / LSTM", "(b) Factorization models / LSTM"],
        ["(b) Factorization models / LSTM", "(a) Sequence models / LSTM"]]
    assert [[r.name for r in find_rows(t, "(b) Factorization models / LSTM")] for t in tables] == [
        [], ["(b) Factorization models / LSTM"]]


def test_a_header_row_centred_under_a_one_line_caption_is_no_caption_line() -> None:
    # the twocol-tablestar layout's Table 1 as PDFium places it: 'Model  ms/batch  GiB' sits 3 points under the
    # centred one-line caption, centred alike; its gaps between cells are no spaces of a paragraph's line
    from review.tables.captions import _continues

    caption = Line(tuple(_spec_words([("Table", 72.1, 94.0), ("1:", 97.0, 103.0), ("Invented", 107.0, 141.0),
                                      ("latency", 144.0, 172.0), ("and", 175.0, 189.0), ("memory", 192.0, 225.0),
                                      ("(test", 228.0, 245.0), ("fixture).", 248.0, 278.0)], 226.0, 9.0)))
    header = Line(tuple(_spec_words([("Model", 124.0, 150.0), ("ms/batch", 162.0, 198.0), ("GiB", 211.0, 226.0)],
                                    238.0, 10.1)))
    assert not _continues(caption, header, caption)
    # a centred last line of the caption, set with a paragraph's spaces, goes on with it
    last = Line(tuple(_spec_words([("over", 140.0, 158.0), ("five", 161.0, 176.0), ("seeds.", 179.0, 210.0)],
                                  238.0, 9.0)))
    assert _continues(caption, last, caption)


def test_a_label_centred_across_the_table_names_the_rows_under_it() -> None:
    # ellis-library-2018 Table 3 as PDFium places it: 'List Processing' and 'Text Editing' are centred on the
    # table (289-493), between the header and the rows and amid the rows: row groups
    from review.pdf.words import PageWords
    from review.tables.read import read_tables

    words = _spec_words([("Ours", 337.0, 356.0), ("No", 361.0, 373.0), ("NN", 376.0, 390.0), ("SE", 399.0, 410.0),
                         ("NPS", 419.0, 436.0), ("PCFG", 442.0, 467.0), ("Enum", 472.0, 496.0)], 430.3)
    words += _spec_words([("List", 361.0, 377.0), ("Processing", 379.0, 422.5)], 449.7)
    words += _spec_words([("%", 289.3, 296.0), ("solved", 300.0, 325.0), ("94%", 337.0, 355.0), ("79%", 367.0, 384.0),
                          ("71%", 396.0, 413.0), ("35%", 419.0, 436.0), ("62%", 446.0, 463.0), ("37%", 475.0, 492.2)],
                         463.1)
    words += _spec_words([("Text", 369.0, 384.0), ("Editing", 387.0, 415.8)], 484.9)
    words += _spec_words([("%", 289.3, 296.0), ("solved", 300.0, 325.0), ("74%", 337.0, 355.0), ("43%", 367.0, 384.0),
                          ("30%", 396.0, 413.0), ("33%", 419.0, 436.0), ("0%", 448.0, 460.0), ("4%", 477.0, 489.7)],
                         495.8)
    words += _spec_words([("Table", 286.0, 308.0), ("3:", 311.0, 317.0), ("%", 322.0, 329.0), ("held-out", 332.0, 365.0),
                          ("test", 367.0, 381.0), ("tasks", 384.0, 403.0), ("solved.", 406.0, 434.0)], 515.0)
    (table,) = read_tables(PageWords(8, 612.0, 792.0, tuple(words)), "Table 3")
    assert [r.name for r in table.rows] == ["List Processing / % solved", "Text Editing / % solved"]
    assert [c.name for c in table.columns] == ["Ours", "No NN", "SE", "NPS", "PCFG", "Enum"]


def test_a_row_of_numbers_set_as_close_as_words_is_no_running_text() -> None:
    # koyama-green-2024 Table 2 as poppler places it: the numbers of 'wordGREEN' are 8.0 points apart, no wider
    # than a justified line's spaces, and the row spans the text column
    numbers = [(f"0.{741 + k}", 141.5 + 32.5 * k, 166.0 + 32.5 * k) for k in range(12)]
    row = Line(tuple(_spec_words([("wordGREEN", 74.9, 134.0), *numbers], 237.0)))
    assert not is_prose(row, 453.0)


def test_stacked_subtables_each_under_a_centred_title_and_the_same_header_are_read_each() -> None:
    # macha-classification-2023 Table 6.4 as PDFium places it (two of its three subtables, three of its columns):
    # each subtable's title ('TPR@K = 10', 'AUC') is centred over the header it repeats, ~20 points from the
    # subtables around it; the caption is under the last one
    from review.pdf.words import PageWords
    from review.tables.read import read_tables
    from review.tables.table import find_columns, find_rows

    header = [("Formulation", 90.3, 141.0), ("MNIST", 176.0, 206.0), ("FashionMNIST", 216.0, 279.0),
              ("CIFAR10", 289.0, 326.0)]

    def row(label: str, values: list[str]) -> list[tuple[str, float, float]]:
        return [(label, 90.1, 124.0), *((v, x, x + 21.0) for v, x in zip(values, (180.0, 237.0, 297.0), strict=True))]

    words = _spec_words([("TPR@K", 180.0, 218.0), ("=", 222.0, 228.0), ("10", 232.0, 242.0)], 96.5, 7.6)
    words += _spec_words(header, 123.5, 6.7)
    words += _spec_words(row("BinCross", ["68.54", "85.65", "31.25"]), 145.0)
    words += _spec_words(row("TopPush", ["89.38", "93.70", "32.25"]), 161.7)
    words += _spec_words([("AUC", 200.0, 222.0)], 190.0, 7.7)
    words += _spec_words(header, 217.0, 6.8)
    words += _spec_words(row("BinCross", ["99.86", "99.83", "84.00"]), 238.6)
    words += _spec_words(row("TopPush", ["99.78", "99.42", "73.84"]), 255.3)
    words += _spec_words([("Table", 85.3, 111.0), ("6.4:", 116.0, 132.0), ("Primal", 139.0, 172.0),
                          ("formulation.", 177.0, 237.0)], 282.5)
    tables = read_tables(PageWords(73, 595.0, 842.0, tuple(words)), "Table 6.4")
    assert [r.name for t in tables for r in t.rows] == ["TPR@K = 10 / BinCross", "TPR@K = 10 / TopPush",
                                                       "AUC / BinCross", "AUC / TopPush"]
    found = [t.cell(r[0], c[0]).value for t in tables if (r := find_rows(t, "AUC / TopPush"))
             and (c := find_columns(t, "CIFAR10"))]
    assert found == ["73.84"]


def test_a_math_fonts_look_alike_glyph_names_the_letter_typed() -> None:
    # '∆∗' (U+2206, U+2217) as math fonts print 'Δ*'; NFKC keeps them apart
    assert matches(("AustereMH(c) chosen \u2206\u2217 bound",), "AustereMH(c) chosen \u0394* bound")
    assert not matches(("AustereMH(c) chosen \u2206\u2217 bound",), "AustereMH(c) chosen \u0394+ bound")
