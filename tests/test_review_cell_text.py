"""What a table cell prints besides one bare number, read from the coordinates the extractors give: a relation sign
set with math spacing, a unit set against the number ('88s'), a figure in brackets after the value ('397 (1F)'), a
pair in brackets ('(14.1, .000)'), and cells that print 'name = value'."""

from __future__ import annotations

import pytest

from registry.numbers import glued_unit
from review.tables import find_columns, find_rows, read_tables
from review.words import PageWords, Word


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
