"""Every printed form checked where it is printed: in a table cell (word coordinates as extractors give them) and in
a quoted sentence (text as extractors give it).

Each rule has a case that fails with the rule switched off (what it did before is named beside it): a range in a
cell passes the record that files it and fails one end filed as a point value (was: the lower end passed); a bound
likewise (was: its number passed); a power of ten however an extractor breaks it is one number (was: its mantissa
passed, the power failed); a power set on the line ('2−6') is no range and its advice keeps the exponent (was: a
range with no advice, '2' passed); a raised annotation after a value ('+10.8%', '−42.3%') is no second number (was:
a subtraction); bounds in words in a sentence pass the record's bound and fail a flipped one or a point value (was:
every right record failed, a point value passed). Following the advice any refusal or failure gives files a record
that passes, with the value the page prints.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from registry.checking.agreement import check_both
from registry.checking.cells import TableCell
from registry.checking.claims import CANNOT_CHECK, FAIL, PASS, ValueInQuote
from registry.numbers import parse_printed, read_number, why_not_a_number
from registry.printed_forms import BOUND_WORDS, printed_before, range_after, read_printed
from review.pdf import poppler
from review.pdf.extract import Readings
from review.pdf.pdftext import Extraction
from review.pdf.words import PageWords, Word
from review.tables.cell import read_cell

HEIGHT = 8.0
CHAR = 5.0
#: A superscript as extractors place it: smaller, its bottom well above the line's.
RAISED = "^"


def _words(top: float, *spec: tuple[str, float]) -> list[Word]:
    """Words at x positions; a text starting with '^' is set raised and small, as a superscript."""
    out = []
    for text, x0 in spec:
        if text.startswith(RAISED):
            text = text[1:]
            out.append(Word(text, x0, top - 3, x0 + 3.5 * len(text), top + 2.5))
        else:
            out.append(Word(text, x0, top, x0 + CHAR * len(text), top + HEIGHT))
    return out


def _cell_words(top: float, x0: float, parts: tuple[str, ...]) -> list[tuple[str, float]]:
    """A cell's words set from ``x0``, one space (2 points) apart; a raised word set against the one before."""
    placed, x = [], x0
    for part in parts:
        if part.startswith(RAISED):
            x -= 2
        placed.append((part, x))
        x += (3.5 if part.startswith(RAISED) else CHAR) * len(part.lstrip(RAISED)) + 2
    return placed


def _page(cell: tuple[str, ...], header_words: tuple[str, ...] = ("Score",)) -> list[list[Word]]:
    caption = _words(100, ("Table", 100), ("1:", 130), ("Scores", 145), ("of", 180), ("the", 195), ("models.", 215),
                     ("A", 255), ("fixture", 265), ("for", 305), ("the", 325), ("tests.", 345))
    header = _words(115, ("Model", 100), *_cell_words(115, 200, header_words), ("Other", 300))
    first = _words(128, ("Baseline", 100), *_cell_words(128, 200, cell), ("72.1", 300))
    second = _words(140, ("Ours", 100), ("73.4", 200), ("74.0", 300))
    return [caption, header, first, second]


def _readings(cell: tuple[str, ...], header: tuple[str, ...] = ("Score",)) -> Readings:
    lines = _page(cell, header)

    def doc(extractor: str) -> Extraction:
        words = tuple(w for line in lines for w in line)
        text = "\n".join(" ".join(w.text for w in line) for line in lines)
        return Extraction(pages=(text,), extractor=extractor, words=(PageWords(1, 600.0, 800.0, words),))

    return Readings(doc("pypdf 5"), doc("pdftotext 24"))


def _check(cell: tuple[str, ...], value: str, **shape: str) -> tuple[str, str]:
    got = check_both(TableCell("r", "table cell", 1, "Table 1", "Baseline", "Score", value, **shape), _readings(cell))
    return got.outcome, got.detail


# -- ranges and intervals in a cell -----------------------------------------------------------------------------


@pytest.mark.parametrize("cell", [("0.61\u20130.67",), ("0.61", "\u2013", "0.67"), ("0.61\u22120.67",),
                                  ("[0.61,", "0.67]")], ids=["en-dash", "spaced", "minus-sign", "interval"])
def test_a_range_in_a_cell_passes_the_record_that_files_it(cell: tuple[str, ...]) -> None:
    outcome, detail = _check(cell, "0.61", upper="0.67")
    assert outcome == PASS, detail
    assert "printed as '0.61\u20130.67'" in detail


@pytest.mark.parametrize("cell", [("0.61\u20130.67",), ("0.61", "\u2013", "0.67"), ("[0.61,", "0.67]")],
                         ids=["en-dash", "spaced", "interval"])
def test_one_end_of_a_range_filed_as_a_point_value_fails(cell: tuple[str, ...]) -> None:
    outcome, detail = _check(cell, "0.61")
    assert outcome == FAIL  # rule off: pass (the cell's first number)
    assert detail == ("row 'Baseline', column 'Score' of Table 1 prints the range '0.61\u20130.67'; the record files "
                      "its lower end 0.61 as a point value: file the range, with range_upper: {printed_value: "
                      "'0.67'}")
    upper, said = _check(cell, "0.67")
    assert upper == FAIL and "whose upper end is 0.67: file a range, printed_value '0.61'" in said
    other, said = _check(cell, "0.61", upper="0.68")
    assert other == FAIL and said.endswith("whose upper end is 0.67, not the record's 0.68")


def test_a_range_with_its_unit_in_the_cell_is_read_and_its_advice_followed_passes() -> None:
    cell = ("12\u201315", "GB")
    outcome, detail = _check(cell, "12")
    assert outcome == FAIL
    upper = re.search(r"range_upper: \{printed_value: '([^']+)'\}", detail)
    assert upper is not None
    assert _check(cell, "12", upper=upper.group(1))[0] == PASS  # the advice followed: the value the page prints


def test_a_pair_in_parentheses_is_an_interval_or_a_pair_its_header_names() -> None:
    cell = ("(0.25,", "0.75)")
    paired = check_both(TableCell("r", "table cell", 1, "Table 1", "Baseline", "(t, p)", "0.25"),
                        _readings(cell, ("(t,", "p)")))
    assert paired.outcome == PASS, paired.detail  # the header names the two figures: the first is the value
    got = check_both(TableCell("r", "table cell", 1, "Table 1", "Baseline", "Score", "0.25"), _readings(cell))
    assert got.outcome == CANNOT_CHECK  # rule off: fail (a range's lower end filed as a point value)
    assert got.detail == ("row 'Baseline', column 'Score' of Table 1 prints '(0.25, 0.75)', an interval or a pair of "
                          "figures (as under '(t-value, p-value)'); whether the record's point value 0.25 is the "
                          "cell's value cannot be told there: where the cell prints an interval, file it as a range, "
                          "with range_upper: {printed_value: '0.75'}")
    assert _check(cell, "0.25", upper="0.75")[0] == PASS
    assert not getattr(read_printed("(14.1, .000)"), "upper", "")  # descending: a pair, no interval


def test_a_range_filed_where_the_cell_is_read_with_one_number_cannot_be_checked() -> None:
    outcome, detail = _check(("0.61",), "0.61", upper="0.67")
    assert outcome == CANNOT_CHECK
    assert detail == ("row 'Baseline', column 'Score' of Table 1 is read as '0.61', no range, so the record's upper "
                      "end 0.67 cannot be compared there")


# -- powers of ten, however an extractor breaks them ---------------------------------------------------------------


@pytest.mark.parametrize("cell", [("3.2\u00d710\u2212\u2074",), ("3.2", "\u00d7", "10^-4"),
                                  ("3.2", "\u00d7", "10", "\u22124"), ("3.2\u00d710", "^\u22124")],
                         ids=["pdfium", "caret", "flattened-on-the-line", "raised-word"])
def test_a_power_of_ten_in_a_cell_is_one_number(cell: tuple[str, ...]) -> None:
    assert _check(cell, "3.2 \u00d7 10^-4")[0] == PASS  # rule off: fail ('has 3.2')
    outcome, detail = _check(cell, "3.2")
    assert outcome == FAIL  # rule off: pass (the mantissa)
    assert detail.startswith("3.2 is not printed in Table 1 on page 1; row 'Baseline', column 'Score' has 3.2")
    assert re.search(r"has 3\.2 ?\u00d7 ?10", detail)
    advised = re.search(r"\(the same digits with a power the record drops: write printed_value '([^']+)', keeping the "
                        r"power\)$", detail)
    assert advised is not None and parse_printed(advised.group(1)) == Decimal("0.00032")  # the advice keeps it
    assert _check(cell, "3.2 \u00d7 10^-5")[0] == FAIL


def test_a_mantissa_and_its_exponent_set_apart_are_one_number() -> None:
    cell = ("-0.04", "e-2")
    assert _check(cell, "-0.04 e-2")[0] == PASS
    assert _check(cell, "-0.04e-2")[0] == PASS
    assert _check(cell, "-0.04")[0] == FAIL  # 100 times off


def test_a_mantissa_and_exponent_set_apart_is_a_number_as_printed_and_found_in_a_sentence() -> None:
    reading = read_number("-0.04 e-2")
    assert reading.value == Decimal("-0.0004") and reading.alone  # rule off: refused, advice '-0.04'
    assert _sentence("The loss falls by \u22120.04 e\u22122 per step.", "-0.04 e-2")[0]
    passed, detail = _sentence("The loss falls by \u22120.04 e\u22122 per step.", "-0.04")
    assert not passed and "does not print '-0.04'" in detail


# -- digit groups ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cell", [("12\u2009345",), ("12", "345")], ids=["thin-space", "two-words"])
def test_digit_groups_in_a_cell_are_one_number_shown_as_printed(cell: tuple[str, ...]) -> None:
    assert _check(cell, "12 345")[0] == PASS
    assert _check(cell, "12345")[0] == PASS
    outcome, detail = _check(cell, "12 346")
    assert outcome == FAIL and re.search(r"has 12[\u2009 ]345$", detail)  # rule off: 'has 12345' or 'has 12'
    assert read_cell(_words(0, *_cell_words(0, 0, cell))).printed_value in ("12\u2009345", "12 345")


# -- bounds ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cell", [("<12",), ("<", "12"), ("\u2264", "12")], ids=["glued", "spaced", "at-most"])
def test_a_bound_in_a_cell_passes_its_own_bound_and_fails_a_flipped_one_or_a_value(cell: tuple[str, ...]) -> None:
    sign = "\u2264" if "\u2264" in cell else "<"
    assert _check(cell, "12", bound=sign)[0] == PASS
    outcome, detail = _check(cell, "12")
    assert outcome == FAIL  # rule off: pass
    assert detail.endswith(f"the record files 12 as a value: file the bound, with bound: '{sign}'")
    flipped, said = _check(cell, "12", bound=">")
    assert flipped == FAIL and said.endswith(f"a bound '{sign}', not the record's '>'")


def test_a_bound_filed_where_the_cell_prints_none_cannot_be_checked() -> None:
    outcome, detail = _check(("12",), "12", bound="<")
    assert outcome == CANNOT_CHECK and "with no bound's sign" in detail


# -- powers set on the line, annotations --------------------------------------------------------------------------


@pytest.mark.parametrize("cell", [("2\u22126",), ("2", "^\u22126")], ids=["flattened", "raised-word"])
def test_a_power_set_on_the_line_is_no_range_and_its_exponent_is_kept(cell: tuple[str, ...]) -> None:
    assert _check(cell, "2^-6")[0] == PASS  # rule off: fail
    outcome, detail = _check(cell, "2")
    assert outcome == FAIL and re.search("has 2(?:\\^|\u207b)", detail)  # rule off: pass (or a range 2 to 6)
    assert read_printed("2\u22126") is not None and read_printed("2\u22126").upper == ""


def test_a_flattened_power_is_refused_with_advice_that_keeps_the_exponent() -> None:
    advice = why_not_a_number("2\u22126")
    assert "not a range" in advice and "range_upper" not in advice
    written = re.search(r"write printed_value '([^']+)'", advice)
    assert written is not None and parse_printed(written.group(1)) == Decimal(2) ** -6  # never '2'
    passed, detail = _sentence("The learning rate is 2\u22126 in all runs.", "2")
    assert not passed and "write printed_value '2^-6', keeping the exponent" in detail
    assert _sentence("The learning rate is 2\u22126 in all runs.", "2^-6")[0]


@pytest.mark.parametrize("cell", [("73.1", "^+10.8%"), ("73.1", "^\u221242.3%"), ("73.1\u221242.3%",),
                                  ("73.1+10.8%",)], ids=["raised-plus", "raised-minus", "glued-minus", "glued-plus"])
def test_an_annotation_after_a_value_is_no_second_number_of_it(cell: tuple[str, ...]) -> None:
    outcome, detail = _check(cell, "73.1")
    assert outcome == PASS, detail
    # Set after the value (forms) or raised and glued to it by the reader (review.pdf.words.ANNOTATION): never compared.
    assert re.search(r"with '[+\u2212]\d+\.\d%' set after it, an annotation, not compared"
                     r"|\u27e8[+\u2212]\d+\.\d%\u27e9', its first number the value, the figures after it not compared", detail)
    read = read_cell(_words(0, *_cell_words(0, 0, cell)))
    assert read.value == "73.1" and read.upper is None  # never a range 73.1 to 42.3, nor 73.1 - 42.3
    assert _check(cell, "73.2")[0] == FAIL


# -- sentences: bounds in words, ranges ----------------------------------------------------------------------------


def _sentence(sentence: str, value: str) -> tuple[bool, str]:
    doc = Extraction(pages=(f"Results. {sentence} Then we stopped.",), extractor="test")
    got = ValueInQuote("r", "printed value", 1, sentence, value).check(doc)
    return got.passed, got.detail


_FLIPPED = {"<": ">", "\u2264": "\u2265", ">": "<", "\u2265": "\u2264"}


@pytest.mark.parametrize(("words", "sign"), sorted(BOUND_WORDS.items()))
def test_a_bound_in_words_passes_its_bound_and_fails_a_flipped_one_or_a_value(words: str, sign: str) -> None:
    sentence = f"The model fits in {words} 12 GB of memory."
    passed, detail = _sentence(sentence, f"{sign} 12")
    assert passed, detail  # rule off: fail ('< 12' is not printed)
    passed, detail = _sentence(sentence, "12")
    assert not passed  # rule off: pass
    assert detail == (f"the quoted text prints '{words} 12', a bound '{sign}', where the record files 12 as a value: "
                      f"file the bound, with bound: '{sign}'")
    passed, detail = _sentence(sentence, f"{_FLIPPED[sign]} 12")
    assert not passed
    assert detail == f"the record's own quote prints '{words} 12', a bound '{sign}', not the record's bound " \
                     f"'{_FLIPPED[sign]}'"


def test_a_number_printed_about_is_its_value_approximately_and_no_bound() -> None:
    passed, detail = _sentence("It takes about 12 hours.", "12")
    assert passed and detail.endswith("printed as approximate ('about')")
    assert not _sentence("It takes about 12 hours.", "< 12")[0]


def test_a_range_in_a_sentence_passes_the_range_and_fails_its_lower_end_alone() -> None:
    assert _sentence("Peak memory is 12\u201315 GB per GPU.", "12\u201315")[0]
    passed, detail = _sentence("Peak memory is 12\u201315 GB per GPU.", "12")
    assert not passed  # rule off: pass
    assert detail == ("the quoted text prints the range '12\u201315', where the record files its lower end 12 as a "
                      "point value: file the range, with range_upper: {printed_value: '15'}")
    assert _sentence("Memory fell from 33.88 to 11.49 GB.", "33.88")[0]  # a change, no range


@pytest.mark.parametrize(("before", "expected"), [
    ("fits in under ", ("<", "under", "")), ("gains more than ", (">", "more than", "")), ("p < ", ("<", "<", "")),
    ("takes about ", ("", "about", "approximate")), ("Understand ", ("", "", "")), ("in thunder ", ("", "", "")),
])
def test_what_a_sentence_prints_before_a_number(before: str, expected: tuple[str, str, str]) -> None:
    assert printed_before(before) == expected


@pytest.mark.parametrize(("number", "after", "upper"), [
    ("12", "\u201315 GB", "15"), ("12", " to 15", ""), ("33.88", " - 11.49", ""), ("73.1", "\u221242.3%", ""),
    ("0.61", "-0.67 and", "0.67"),
])
def test_a_range_after_a_number_in_a_sentence(number: str, after: str, upper: str) -> None:
    assert range_after(number, after) == upper


# -- a typeset page: the extractors' own words, registry table's CSV, import and review --------------------------

needs_pdftotext = pytest.mark.skipif(poppler.find_pdftotext() is None, reason="poppler-utils is not installed")
FIXTURE = Path(__file__).parent / "data" / "printed-forms" / "paper.pdf"
SOURCE = "fixture-forms-20261207-source-printed-forms"


@functools.cache
def _typeset() -> Readings:
    from review.pdf.extract import read_pdf

    return read_pdf(FIXTURE)


#: Right records of the fixture's Table 1 (pdfTeX; PDFium gives '3.2×10−⁴' and '2−⁶', pdftotext '3.2' '×' '10' and
#: a raised '−4', '2' and a raised '−6'), and slips of each form, none of which may pass.
RIGHT = [("Alpha", "Score", "0.61", {"upper": "0.67"}), ("Beta", "Score", "0.58", {"upper": "0.64"}),
         ("Gamma", "Score", "73.1", {}), ("Delta", "Score", "61.4", {}), ("Alpha", "Memory", "12", {"bound": "<"}),
         ("Beta", "Memory", "15", {"bound": "\u2264"}), ("Gamma", "Memory", "12", {"upper": "15"}),
         ("Delta", "Memory", "40", {"bound": ">"}), ("Alpha", "Rate", "3.2 \u00d7 10^-4", {}),
         ("Beta", "Rate", "2^-6", {}), ("Gamma", "Rate", "-0.04 e-2", {}), ("Delta", "Rate", "2.5 \u00d7 10^-3", {}),
         ("Alpha", "Images", "12 345", {}), ("Delta", "Images", "45 000", {})]
SLIPS = [("Alpha", "Score", "0.61", {}), ("Alpha", "Score", "0.67", {}), ("Gamma", "Memory", "12", {}),
         ("Alpha", "Memory", "12", {}), ("Alpha", "Memory", "12", {"bound": ">"}), ("Delta", "Memory", "40", {}),
         ("Alpha", "Rate", "3.2", {}), ("Beta", "Rate", "2", {}), ("Gamma", "Rate", "-0.04", {}),
         ("Delta", "Rate", "2.5", {}), ("Alpha", "Images", "12", {}), ("Gamma", "Score", "10.8", {})]


def _typeset_check(row: str, column: str, value: str, shape: dict[str, str]) -> tuple[str, str]:
    got = check_both(TableCell("r", "table cell", 1, "Table 1", row, column, value, **shape), _typeset())
    return got.outcome, got.detail


@needs_pdftotext
@pytest.mark.pdf
@pytest.mark.parametrize(("row", "column", "value", "shape"), RIGHT)
def test_every_form_typeset_by_pdftex_passes_its_right_record(row: str, column: str, value: str,
                                                              shape: dict[str, str]) -> None:
    outcome, detail = _typeset_check(row, column, value, shape)
    assert outcome == PASS, detail


@needs_pdftotext
@pytest.mark.pdf
@pytest.mark.parametrize(("row", "column", "value", "shape"), SLIPS)
def test_no_slip_of_a_form_typeset_by_pdftex_passes(row: str, column: str, value: str, shape: dict[str, str]) -> None:
    outcome, detail = _typeset_check(row, column, value, shape)
    assert outcome == FAIL, detail  # each has a witness: the cell prints another form or number


def _source(root: Path) -> None:
    digest = hashlib.sha256(FIXTURE.read_bytes()).hexdigest()
    (root / "source").mkdir(parents=True)
    (root / "source" / f"{SOURCE}.yaml").write_text(f"""\
kind: source
id: {SOURCE}
title: Printed forms fixture
authors:
- Registry Tests
year: 2024
venue: test fixture of the registry (tests/data/printed-forms), invented numbers
role: original
host: this repository, tests/data/printed-forms/paper.pdf
heading: Printed forms fixture
page_count: 1
pdf_creation_date: 2024-06-01
sha256: {digest}
hash_scope: The whole PDF file.
missing_metadata:
- field: retrieval_url
  reason: not-applicable
""", encoding="utf-8")


@needs_pdftotext
@pytest.mark.pdf
def test_table_csv_writes_each_form_as_printed_and_imports_and_reviews(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    made = cli("table", FIXTURE, "--page", "1", "--table", "Table 1", "--format", "csv", "--set", "family=Fixture",
               "--set", "dataset=Fixture set", "--set", "metric={column_last}", "--set", "direction=higher", "--set",
               "unit=dimensionless")
    assert made.exit_code == 0, made.output
    values = {(r["row"], r["column"]): r["value"] for r in csv.DictReader(io.StringIO(made.stdout))}
    assert values[("Alpha", "Score")] == "0.61\u20130.67"  # the range whole, never its lower end alone
    # the bound's sign kept, as printed (glued or spaced)
    assert values[("Alpha", "Memory")].replace(" ", "") == "<12" and values[("Delta", "Memory")].replace(" ", "") == ">40"
    assert parse_printed(values[("Alpha", "Rate")]) == Decimal("0.00032")  # the power of ten kept
    assert parse_printed(values[("Gamma", "Rate")]) == Decimal("-0.0004")  # the spaced exponent kept
    assert parse_printed(values[("Alpha", "Images")]) == 12345  # the digit groups one number
    assert values[("Gamma", "Score")] == "73.1"  # the raised annotation is no part of the value
    records = tmp_path / "records"
    _source(records)
    table = tmp_path / "table-1.csv"
    table.write_text(made.stdout, encoding="utf-8")
    imported = cli("import", table, "--source", SOURCE, "--independence", "developer", "--records", records)
    assert imported.exit_code == 0, imported.output
    review = cli("review", SOURCE, "--pdf", FIXTURE, "--records", records, "--format", "json")
    report = json.loads(review.stdout)
    cells = [a for a in report["assertions"] if a["claim"] == "table cell"]
    assert len(cells) == len(values) and all(a["passed"] for a in cells), [a["detail"] for a in cells
                                                                           if not a["passed"]]


@pytest.mark.parametrize(("cell", "value", "upper"), [
    (("2", "^\u22126"), "2^-6", None), (("3.2\u00d710", "^\u22124"), "3.2\u00d710^-4", None),
    (("10", "^\u22123"), "10^-3", None), (("73.1", "^+10.8%"), "73.1", None), (("0.5", "^2"), "0.5", None),
])
def test_a_word_raised_after_a_number_is_read_as_the_superscript_it_is(cell: tuple[str, ...], value: str,
                                                                        upper: str | None) -> None:
    """A superscript an extractor gives as a word of its own (raised and smaller): an exponent after a whole number
    or the '10' of a power (rule off: '2 −6' read as a range 2 to 6), an annotation or a mark after a decimal."""
    read = read_cell(_words(0, *_cell_words(0, 0, cell)))
    assert (read.value, read.upper) == (value, upper)


def _follow(detail: str, value: str) -> tuple[str, dict[str, str]] | None:
    """The record a failure's advice asks for: its printed value and its form (bound, range_upper); None where the
    message gives no advice."""
    written = re.search(r"printed_value '([^']+)'(?: \(its lower end\))?", detail.split("range_upper")[0])
    upper = re.search(r"range_upper: \{printed_value: '([^']+)'\}", detail)
    bound = re.search(r"with bound: '([^']+)'", detail)
    if not (written or upper or bound):
        return None
    shape = {"upper": upper.group(1)} if upper else {"bound": bound.group(1)} if bound else {}
    return (written.group(1) if written else value), shape


@needs_pdftotext
@pytest.mark.pdf
@pytest.mark.parametrize(("row", "column", "value", "shape"), SLIPS)
def test_following_the_advice_files_the_value_the_page_prints(row: str, column: str, value: str,
                                                              shape: dict[str, str]) -> None:
    """Each failure that advises a record: the record it advises passes, and its value is the cell's (never a
    lower end dropped, an exponent dropped or a bound's number changed)."""
    _, detail = _typeset_check(row, column, value, shape)
    advised = _follow(detail, value)
    if advised is None:
        assert "file" not in detail and "write" not in detail, detail
        return
    number, form = advised
    outcome, said = _typeset_check(row, column, number, form)
    assert outcome == PASS, said
    right = next(r for r in RIGHT if r[:2] == (row, column))
    assert parse_printed(number) == parse_printed(right[2]) and form == right[3]
