"""What a table cell prints besides one bare number, read from the coordinates the extractors give (word lists with
boxes, as PDFium or pdftotext place them on the real pages named): a relation sign set with math spacing, a unit set
against the number ('88s'), a figure in brackets after the value ('397 (1F)'), a pair in brackets ('(14.1, .000)'),
and cells that print 'name = value'."""

from __future__ import annotations

import pytest

from registry.checking.cell_units import CellUnit
from registry.checking.cells import TableCell
from registry.checking.claims import CANNOT_CHECK, FAIL, PASS
from registry.numbers import glued_unit
from review.pdf.pdftext import Extraction
from review.pdf.words import Line, PageWords, Word
from review.tables.crossing import read_crossing
from review.tables.crossing_region import NotCrossed
from review.tables.figures import note_words, second_figures, within_brackets
from review.tables.keyvalue import read_keyed
from review.tables.lines import _numbers_line
from review.tables.read import read_tables
from review.tables.table import Table, find_columns, find_rows


def _words(spec: list[tuple[str, float, float]], top: float, height: float = 8.0) -> list[Word]:
    return [Word(text, x0, top, x1, top + height) for text, x0, x1 in spec]


@pytest.mark.parametrize(("printed", "expected"), [
    ("88s", ("88", "s")),
    ("12ms", ("12", "ms")),
    ("3.2x", ("3.2", "x")),
    ("10m", ("10", "m")),
    ("\u221270mV", ("\u221270", "mV")),
    ("5k", ("5", "k")),
    ("45%", None),  # a percentage is a value of its own (``is_value``)
    ("16 mins", None),  # a number and a word
    ("T11", None),  # a name
    ("12", None),
    ("28\u00d728", None),  # a product
    ("0.681*", None),  # a footnote mark
])
def test_a_unit_set_against_a_number_is_read_apart_from_it(printed: str, expected: tuple[str, str] | None) -> None:
    assert glued_unit(printed) == expected


def test_a_relation_set_with_thick_math_spaces_is_no_boundary_between_header_cells() -> None:
    # san-qbestd-2021 Table 2 as PDFium places it: 'H1: b. > a.' has 4.6 points before '>' and 3.7 after it
    # (TeX's thick math space), more than an interword space; the pair '(14.1, .000)' under it is one cell
    words = _words([("Table", 54.7, 77.7), ("2.", 81.3, 87.9), ("Results", 94.2, 122.9), ("of", 126.9, 135.4),
                    ("one-sided", 138.5, 176.8), ("t-tests", 180.5, 203.7), ("for", 207.6, 219.0), ("the", 222.4, 234.3),
                    ("alternative", 238.1, 279.2), ("hypothesis", 282.7, 324.8), ("(H1)", 328.9, 347.4),
                    ("that", 351.2, 366.1), ("the", 369.4, 381.3), ("Maximum", 384.9, 426.2), ("Term", 429.7, 450.4),
                    ("Weighted", 453.7, 491.5), ("Value", 495.0, 517.4), ("(MTWV)", 521.3, 558.5)], 509.9)
    words += _words([("Dataset", 93.3, 123.0), ("MTWV:", 184.9, 217.5), ("mean", 221.0, 242.2), ("One-sided", 366.6,
                     407.1), ("paired", 409.8, 434.5), ("t-test", 437.5, 457.2)], 548.9)
    words += _words([("(N", 85.1, 96.7), ("queries)", 99.7, 131.1), ("a.", 167.9, 173.8), ("BNF", 177.7, 196.9),
                     ("b.", 221.2, 227.6), ("LS960-T11", 231.5, 276.2), ("H1:", 366.7, 381.0), ("b.", 384.9, 391.3),
                     (">", 395.9, 402.0), ("a.", 405.7, 411.5), ("H1:", 425.2, 439.5), ("c.", 443.7, 449.6),
                     (">", 454.2, 460.3), ("a.", 464.0, 469.9)], 560.9)
    words += _words([("gbb-pd", 84.9, 112.7), ("(397)", 115.8, 136.4), ("0.612", 155.5, 177.5), ("(0.383)", 180.7,
                     208.8), ("0.849", 222.5, 244.3), ("(0.248)", 247.7, 275.8), ("(14.1,", 366.5, 388.7),
                     (".000)", 392.4, 412.0), ("(11.1,", 424.9, 447.1), (".000)", 450.9, 470.5)], 582.6)
    words += _words([("wrm-pd", 84.8, 116.1), ("(383)", 119.1, 139.7), ("0.713", 155.5, 177.0), ("(0.361)", 180.7,
                     208.8), ("0.853", 222.5, 244.0), ("(0.256)", 247.7, 275.8), ("(8.7,", 369.0, 386.2),
                     (".000)", 389.9, 409.5), ("(8.2,", 427.4, 444.7), (".000)", 448.4, 468.0)], 594.6)
    (table,) = read_tables(PageWords(5, 612.0, 792.0, tuple(words)), "Table 2")
    assert [c.name for c in table.columns][-2:] == ["One-sided paired t-test / H1: b. > a.",
                                                     "One-sided paired t-test / H1: c. > a."]
    (row,) = find_rows(table, "wrm-pd (383)")
    (column,) = find_columns(table, "One-sided paired t-test / H1: b. > a.")
    assert table.cell(row, column).value == "8.7"


def test_a_row_of_numbers_with_units_set_against_them_is_a_row_of_the_body() -> None:
    # ellis-library-2018 Table 3 as PDFium places it: 'Solve time 88s 39s ...' prints no bare number, yet it is a
    # row (a dash for an empty cell among its cells), not a row group's label or a note
    words = _words([("Ours", 337.0, 356.0), ("No", 361.0, 373.0), ("NN", 376.0, 390.0), ("SE", 399.0, 410.0),
                    ("NPS", 419.0, 436.0)], 430.3)
    words += _words([("%", 289.3, 296.0), ("solved", 300.0, 325.0), ("94%", 337.0, 355.0), ("79%", 367.0, 384.0),
                     ("71%", 396.0, 413.0), ("35%", 419.0, 436.0)], 441.1)
    words += _words([("Solve", 289.1, 311.0), ("time", 313.9, 331.2), ("88s", 340.0, 352.9), ("\u2013", 372.0, 377.0),
                     ("11s", 398.7, 411.0), ("35s", 421.3, 434.3)], 451.7)
    words += _words([("Table", 286.0, 308.0), ("3:", 311.0, 317.0), ("%", 322.0, 329.0), ("held-out", 332.0, 365.0),
                     ("test", 367.0, 381.0), ("tasks", 384.0, 403.0), ("solved.", 406.0, 434.0)], 471.0)
    (table,) = read_tables(PageWords(8, 612.0, 792.0, tuple(words)), "Table 3")
    assert [r.name for r in table.rows] == ["% solved", "Solve time"]
    (row,) = find_rows(table, "Solve time")
    cell = table.cell(row, find_columns(table, "Ours")[0])
    assert (cell.value, cell.rest) == ("88", "s")
    assert table.cell(row, find_columns(table, "No NN")[0]).value is None


def test_a_header_of_settings_with_units_does_not_start_the_body() -> None:
    # vieira-isklearn-2021 TABLE III: the header names its columns '20m', '5k'; the body's last row prints '10m'
    words = _words([("setup", 300.0, 322.0), ("reg.", 335.0, 350.0), ("20m", 362.0, 377.0), ("5k", 392.0, 401.0)],
                   100.0)
    words += _words([("p", 316.0, 321.0), ("1", 340.0, 345.0), ("1", 367.0, 372.0), ("1", 394.0, 399.0)], 111.0)
    words += _words([("budget", 296.0, 322.0), ("2000", 334.0, 352.0), ("2000", 361.0, 379.0),
                     ("5000", 388.0, 406.0)], 122.0)
    words += _words([("cutoff", 298.0, 322.0), ("10m", 335.0, 350.0), ("20m", 362.0, 377.0), ("10m", 390.0, 404.0)],
                    133.0)
    words += _words([("TABLE", 300.0, 330.0), ("III:", 333.0, 345.0), ("Setups", 348.0, 380.0)], 80.0)
    (table,) = read_tables(PageWords(7, 612.0, 792.0, tuple(words)), "TABLE III")
    assert [c.name for c in table.columns] == ["reg.", "20m", "5k"]
    assert [r.name for r in table.rows] == ["p", "budget", "cutoff"]
    (cutoff,) = find_rows(table, "cutoff")
    assert table.cell(cutoff, find_columns(table, "20m")[0]).value == "20"


@pytest.mark.parametrize(("texts", "notes"), [
    (["397", "(1F)", "397", "(1F;", "16", "mins)", "Same"], {1, 3, 4, 5}),
    (["725", "(5M,", "2F;", "32", "mins)"], {1, 2, 3, 4}),
    (["0.612", "(0.383)", "0.849"], set()),  # a spread, read as the value's ±
    (["gbb-pd", "(Speakers)", "12"], set()),  # a bracket after a name is the name's
    (["12", "(open", "13"], set()),  # a bracket never closed is no note
])
def test_a_bracketed_note_after_a_number_is_part_of_its_cell(texts: list[str], notes: set[int]) -> None:
    assert note_words(texts) == notes


@pytest.mark.parametrize(("rest", "opened_before", "inside", "figures"), [
    ("(1F;16mins)", False, True, ["1", "16"]),
    (",.000)", True, True, [".000"]),
    ("/72.0", False, False, ["72.0"]),
    ("s", False, True, []),
])
def test_the_figures_a_cell_prints_after_its_value(rest: str, opened_before: bool, inside: bool,
                                                   figures: list[str]) -> None:
    assert within_brackets(rest, opened_before) is inside
    assert second_figures(rest) == figures


def test_a_row_whose_numbers_carry_bracketed_notes_is_a_row_of_numbers() -> None:
    # san-qbestd-2021 Table 1 as PDFium places a row: half its words are no numbers, unless the notes are the cells'
    row = Line(tuple(_words([("gbb-pd", 108.9, 136.7), ("Kaytetye", 155.7, 191.2), ("397", 242.6, 256.6),
                             ("(1F)", 260.1, 276.3), ("397", 318.6, 332.6), ("(1F;", 336.1, 351.7),
                             ("16", 355.8, 364.4), ("mins)", 367.3, 389.4), ("Same", 418.7, 440.2),
                             ("Same", 471.5, 493.0)], 142.8)))
    assert _numbers_line(row)


CAPTION = _words([("Table", 100.0, 125.0), ("1:", 128.0, 136.0), ("Datasets", 139.0, 179.0), ("(a", 182.0, 190.0),
                  ("fixture", 193.0, 228.0), ("typeset", 231.0, 266.0), ("for", 269.0, 284.0), ("the", 287.0, 302.0),
                  ("tests).", 305.0, 340.0), ("Parentheticals", 343.0, 413.0), ("give", 416.0, 436.0),
                  ("speakers.", 439.0, 484.0)], 90.0)
# pdftotext's lines of san-qbestd-2021 Table 1: the stub header 'Dataset Language', centred on the two-line header,
# is a line of its own between 'Number of queries' and '(Speakers)'
STACKED = PageWords(3, 612.0, 792.0, tuple(CAPTION + _words(
    [("Number", 222.1, 254.8), ("of", 257.3, 265.6), ("queries", 268.1, 296.8), ("Number", 312.1, 344.8),
     ("of", 347.3, 355.6), ("test", 358.0, 371.9), ("items", 374.4, 396.0)], 109.1) + _words(
    [("Dataset", 108.6, 138.5), ("Language", 155.4, 194.7)], 115.1) + _words(
    [("(Speakers)", 238.2, 280.7), ("(Speakers;", 312.5, 354.4), ("Duration)", 356.9, 395.6)], 121.1) + _words(
    [("gbb-pd", 108.6, 136.8), ("Kaytetye", 155.4, 191.4), ("397", 242.2, 257.1), ("(1F)", 259.6, 276.8),
     ("397", 318.2, 333.1), ("(1F;", 335.6, 352.2), ("16", 354.7, 364.7), ("mins)", 367.2, 389.9)], 142.8) + _words(
    [("wrl-mb", 108.6, 137.9), ("Warlmanpa", 155.4, 201.1), ("23", 244.7, 254.6), ("(1F)", 257.1, 274.3),
     ("162", 318.2, 333.1), ("(1F;", 335.6, 352.2), ("11", 354.7, 364.7), ("mins)", 367.2, 389.9)], 154.8)))


def test_a_header_on_two_lines_is_read_across_a_stub_header_line_between_them() -> None:
    read = read_crossing(STACKED, "Table 1", "gbb-pd", "Number of queries (Speakers)")
    assert isinstance(read, Table), read
    assert read.cell(read.rows[0], read.columns[0]).value == "397"


def test_a_number_inside_a_bracket_the_cell_opened_is_no_cell_of_its_own() -> None:
    read = read_crossing(STACKED, "Table 1", "wrl-mb", "Number of test items (Speakers; Duration)")
    assert isinstance(read, Table), read
    cell = read.cell(read.rows[0], read.columns[0])
    assert (cell.text, cell.value) == ("162 (1F; 11 mins)", "162")


def _doc(page: PageWords) -> Extraction:
    """An extraction whose pages before ``page`` are blank."""
    blank = [PageWords(n, page.width, page.height, ()) for n in range(1, page.number)]
    return Extraction(pages=(*("" for _ in blank), " ".join(w.text for w in page.words)), extractor="synthetic",
                      words=(*blank, page))


def test_a_cell_printing_a_value_and_a_note_passes_its_value_and_cannot_check_the_notes_figures() -> None:
    doc = _doc(STACKED)
    column = "Number of test items (Speakers; Duration)"
    passed = TableCell("r", "table cell", 3, "Table 1", "wrl-mb", column, "162").check(doc)
    assert passed.outcome == PASS
    assert "the cell prints '162 (1F; 11 mins)', its first number the value, the figures after it not" in passed.detail
    second = TableCell("r", "table cell", 3, "Table 1", "wrl-mb", column, "11").check(doc)
    assert second.outcome == CANNOT_CHECK
    assert "prints more than one number, '162 (1F; 11 mins)': 162, read as the cell's value, and 11" in second.detail
    slip = TableCell("r", "table cell", 3, "Table 1", "wrl-mb", column, "397").check(doc)
    assert slip.outcome == FAIL and "397 is not printed in Table 1 on page 3" in slip.detail


UNITS = PageWords(8, 612.0, 792.0, tuple(
    _words([("Table", 100.0, 125.0), ("3:", 128.0, 136.0), ("Solve", 139.0, 165.0), ("times", 168.0, 193.0),
            ("(a", 196.0, 204.0), ("fixture", 207.0, 242.0), ("typeset", 245.0, 280.0), ("for", 283.0, 298.0),
            ("the", 301.0, 316.0), ("tests).", 319.0, 354.0)], 90.0)
    + _words([("Ours", 200.0, 220.0), ("Enum", 260.0, 284.0)], 110.0)
    + _words([("Solved", 100.0, 131.0), ("94", 204.0, 214.0), ("37", 265.0, 275.0)], 122.0)
    + _words([("Time", 100.0, 122.0), ("88s", 202.0, 216.0), ("20m", 263.0, 278.0)], 134.0)))


@pytest.mark.parametrize(("column", "unit", "symbols", "outcome", "said"), [
    ("Ours", "second", ("s",), PASS, "'s' printed in the cell, set against its number"),
    ("Ours", "percent", ("%",), FAIL, "'s' (second) set against its number, not % (percent)"),
    ("Ours", "dimensionless", (), FAIL, "'s' (second) set against its number"),
    ("Enum", "minute", ("min",), CANNOT_CHECK, "'m' set against its number, a sign the registry's table of units"),
    ("Enum", "minute", ("m",), PASS, "'m' printed in the cell"),
])
def test_a_unit_set_against_a_cells_number_is_checked_against_the_records(column: str, unit: str,
                                                                         symbols: tuple[str, ...], outcome: str,
                                                                         said: str) -> None:
    doc = _doc(UNITS)
    value = TableCell("r", "table cell", 8, "Table 3", "Time", column, "88" if column == "Ours" else "20").check(doc)
    assert value.outcome == PASS
    checked = CellUnit("r", "unit", 8, "Table 3", "Time", column, unit, symbols).check(doc)
    assert checked.outcome == outcome and said in checked.detail


# lim-plasticity-2024 Table 1 as PDFium places it: a table of parameters whose cells print 'name = value' under
# headers naming groups of them; no line starts with the label of the cell a record cites
PARAMETERS = PageWords(9, 612.0, 792.0, tuple(
    _words([("Table", 209.8, 231.3), ("1:", 235.1, 240.9), ("Parameters", 245.0, 295.0), ("(a", 298.0, 306.0),
            ("fixture", 309.0, 340.0), ("for", 343.0, 356.0), ("the", 359.0, 371.0), ("tests)", 374.0, 400.2)], 135.7)
    + _words([("wiring", 127.5, 155.4), ("inputs", 244.1, 270.1), ("membrane", 327.3, 373.0)], 151.1)
    + _words([("Nlayer", 127.1, 151.2), ("=", 154.8, 162.0), ("28\u00d728", 165.4, 197.8), ("fmean", 244.0, 265.9),
              ("=", 269.7, 276.9), ("5Hz", 280.3, 297.8), ("vrest", 327.4, 343.8), ("=", 347.7, 355.0),
              ("\u221270mV", 358.9, 393.5)], 171.0)
    + _words([("Smax", 127.5, 146.0), ("=", 149.6, 156.8), ("96", 160.2, 170.4), ("tstim", 244.1, 260.2),
              ("=", 263.8, 271.1), ("200ms", 274.5, 302.8), ("eext", 327.5, 341.1), ("=", 345.0, 352.3),
              ("0mV", 355.6, 376.9)], 184.6)
    + _words([("\u03c3f", 128.0, 138.4), ("orm\u2212f", 138.6, 162.2), ("f", 162.1, 166.7), ("=", 170.2, 177.4),
              ("5", 180.8, 185.3), ("Smax", 244.0, 262.0), ("=", 265.0, 272.0), ("12", 275.0, 285.0)], 198.1)
    + _words([("frew", 127.3, 143.8), ("=", 147.5, 154.7), ("10", 159.0, 168.4), ("kHz", 171.5, 189.3)], 211.6)))


@pytest.mark.parametrize(("row", "column", "value"), [
    ("S_max", "wiring", "96"),
    ("S_max", "inputs", "12"),  # the same name under another header is that column's cell
    ("\u03c3_form\u2212ff", "wiring", "5"),  # the name's subscript split into words by the extractor
    ("f_rew", "wiring", "10"),
    ("v_rest", "membrane", "\u221270"),
])
def test_a_cell_printing_name_equals_value_is_read_under_its_header(row: str, column: str, value: str) -> None:
    read = read_keyed(PARAMETERS, "Table 1", row, column)
    assert isinstance(read, Table), read
    assert read.cell(read.rows[0], read.columns[0]).printed_value == value


@pytest.mark.parametrize(("row", "column", "said"), [
    ("S_max", "membrane", "no cell under the header 'membrane' in Table 1 on page 9 prints 'S_max = '"),
    ("N_layer", "wiring", "'Nlayer = 28\u00d728' under 'wiring' in Table 1 on page 9 holds more than one number"),
    ("S_max", "outputs", "no header 'outputs' over the cells"),
])
def test_a_name_not_under_the_header_or_a_product_is_not_read(row: str, column: str, said: str) -> None:
    read = read_keyed(PARAMETERS, "Table 1", row, column)
    assert isinstance(read, NotCrossed) and said in read


def test_the_review_reads_a_name_equals_value_cell_where_grid_and_crossing_cannot() -> None:
    doc = _doc(PARAMETERS)
    passed = TableCell("r", "table cell", 9, "Table 1", "S_max", "wiring", "96").check(doc)
    assert passed.outcome == PASS and "(read as the cell printing 'name = value' under the header)" in passed.detail
    slip = TableCell("r", "table cell", 9, "Table 1", "S_max", "wiring", "5").check(doc)
    assert slip.outcome == FAIL and "has 96" in slip.detail
    unit = CellUnit("r", "unit", 9, "Table 1", "t_stim", "inputs", "millisecond", ("ms",)).check(doc)
    assert unit.outcome == PASS and "'ms' printed in the cell" in unit.detail
    elsewhere = TableCell("r", "table cell", 9, "Table 1", "S_max", "membrane", "96").check(doc)
    assert elsewhere.outcome == CANNOT_CHECK and "nor as a cell printing 'name = value'" in elsewhere.detail
