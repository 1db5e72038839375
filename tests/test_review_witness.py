"""A FAIL needs a witness on the page: tests of each rule on texts and word coordinates as extractors give them.

Each rule has a case that fails with the rule switched off (the verdict it replaces is named beside it):
a row or column printed nowhere in a table both extractors read alike fails (was: cannot check); a cell printing no
number, or no ± to compare, cannot be checked (was: fail); a unit printed nowhere near the value is 'unit not
printed' (was: fail), and a unit set after a number ('Mix 50%', '95% CI') is that number's (was: pass); a text
without spaces (pypdf's, at times) fails nothing the other extractor passes; the quoted sentence's device and its
'respectively' are checked (were: not read).
"""

from __future__ import annotations

import dataclasses

import pytest

from registry.checking.agreement import check_both
from registry.checking.cell_units import CellUnit
from registry.checking.cells import TableCell
from registry.checking.claims import CANNOT_CHECK, FAIL, PASS, UNIT_NOT_PRINTED, Assertion, Claim, UnitWithValue
from registry.checking.sentences import Respectively, SentenceDevice, devices_in
from registry.checking.uncertainty import CellUncertainty
from review.pdf.extract import Readings
from review.pdf.pdftext import Extraction
from review.pdf.words import PageWords, Word

HEIGHT = 8.0
CHAR = 5.0


def _line(top: float, *words: tuple[str, float]) -> list[Word]:
    return [Word(text, x0, top, x0 + CHAR * len(text), top + HEIGHT) for text, x0 in words]


def _caption(top: float, *words: str) -> list[Word]:
    x, placed = 100.0, []
    for text in ("Table", "1:", *words):
        placed.append((text, x))
        x += CHAR * len(text) + 3
    return _line(top, *placed)


def _doc(*lines: list[Word], extractor: str = "pypdf 5") -> Extraction:
    words = tuple(w for line in lines for w in line)
    text = "\n".join(" ".join(w.text for w in line) for line in lines)
    return Extraction(pages=(text,), extractor=extractor, words=(PageWords(1, 600.0, 800.0, words),))


def _table(header: tuple[str, str], caption: tuple[str, ...] = ("Win", "rates", "of", "the", "models."),
           cells: tuple[str, str] = ("71.3", "72.1")) -> list[list[Word]]:
    return [_caption(100, *caption, "A", "fixture", "typeset", "for", "the", "tests."),
            _line(115, ("Model", 100), (header[0], 200), (header[1], 260)),
            _line(128, ("Baseline", 100), (cells[0], 200), (cells[1], 260)),
            _line(140, ("Ours", 100), ("73.4", 200), ("74.0", 260))]


def _both(*lines: list[Word]) -> Readings:
    return Readings(_doc(*lines), _doc(*lines, extractor="pdftotext 24"))


# -- a row or column printed nowhere in the table --------------------------------------------------------------


def test_a_column_word_printed_elsewhere_on_the_page_is_no_witness() -> None:
    """A cited column whose word the page prints outside the table as read (a header set apart, a table wider than
    the block read) may be part of the table the reading missed: cannot check, never a failure."""
    readings = _both(*_table(("7B", "13B")), _line(400, ("Sequences/s", 100), ("of", 170), ("the", 190),
                                                   ("runs", 210), ("above.", 240)))
    got = check_both(TableCell("r", "table cell", 1, "Table 1", "Ours", "Sequences/s", "73.4"), readings)
    assert got.outcome == CANNOT_CHECK  # rule off: fail
    assert "'sequences' is printed on the page outside the table as read" in got.detail


def test_a_column_printed_nowhere_in_a_table_both_extractors_read_alike_fails_naming_what_is_there() -> None:
    readings = _both(*_table(("7B", "13B")))
    got = check_both(TableCell("r", "table cell", 1, "Table 1", "Ours", "Sequences/s", "73.4"), readings)
    assert got.outcome == FAIL  # rule off: cannot check
    assert got.detail.startswith("no column 'Sequences/s' in Table 1 on page 1; read 2 rows ('Baseline', 'Ours') and "
                                 "2 columns ('7B', '13B'); 'sequences' is printed nowhere in Table 1")
    assert got.detail.endswith("pdftotext reads the same rows and columns")


def test_a_column_one_extractor_reads_otherwise_cannot_be_checked() -> None:
    readings = Readings(_doc(*_table(("7B", "13B"))), _doc(*_table(("7B", "30B")), extractor="pdftotext 24"))
    got = check_both(TableCell("r", "table cell", 1, "Table 1", "Ours", "Sequences/s", "73.4"), readings)
    assert got.outcome == CANNOT_CHECK and "printed nowhere" in got.detail


def test_a_row_whose_words_the_table_prints_cannot_be_checked_even_where_both_agree() -> None:
    got = check_both(TableCell("r", "table cell", 1, "Table 1", "Ours Baseline", "7B", "73.4"), _both(*_table(("7B",
                                                                                                              "13B"))))
    assert got.outcome == CANNOT_CHECK and "printed nowhere" not in got.detail


# -- a cell with no number, a ± that cannot be read ----------------------------------------------------------


def test_a_cell_that_prints_no_number_cannot_be_checked() -> None:
    readings = _both(*_table(("7B", "13B"), cells=("\u2013", "72.1")))
    got = check_both(TableCell("r", "table cell", 1, "Table 1", "Baseline", "7B", "70.0"), readings)
    assert got.outcome == CANNOT_CHECK  # rule off: fail ("has '–' there")
    assert got.detail == ("row 'Baseline', column '7B' of Table 1 holds '\u2013', no number, so the value cannot be "
                          "compared there (a failure needs another number printed where the row and the column cross)")
    wrong = check_both(TableCell("r", "table cell", 1, "Table 1", "Baseline", "13B", "70.0"), readings)
    assert wrong.outcome == FAIL and "has 72.1" in wrong.detail


def test_an_uncertainty_the_cell_does_not_print_cannot_be_checked_and_another_fails() -> None:
    readings = _both(*_table(("7B", "13B"), cells=("71.3\u00b10.5", "72.1")))
    unread = check_both(CellUncertainty("r", "uncertainty", 1, "Table 1", "Baseline", "13B", "\u00b1 0.4", False),
                        readings)
    assert unread.outcome == CANNOT_CHECK  # rule off: fail
    assert unread.detail == ("row 'Baseline', column '13B' prints '72.1', read with no \u00b1 value, so the record's "
                             "'\u00b1 0.4' cannot be compared there")
    other = check_both(CellUncertainty("r", "uncertainty", 1, "Table 1", "Baseline", "7B", "\u00b1 0.4", False),
                       readings)
    assert other.outcome == FAIL and "\u00b1 0.5, not the record's '\u00b1 0.4'" in other.detail


# -- units -------------------------------------------------------------------------------------------------------


def _unit(row: str = "Baseline", column: str = "7B", quote: str | None = None) -> CellUnit:
    return CellUnit("r", "unit", 1, "Table 1", row, column, "percent", ("%", "percent"), quote=quote)


def test_a_unit_printed_nowhere_near_the_value_is_not_printed_not_failed() -> None:
    got = check_both(_unit(), _both(*_table(("7B", "13B"))))
    assert got.outcome == UNIT_NOT_PRINTED and not got.passed  # rule off: fail
    assert got.detail.startswith("unit not printed on the page: no % or percent (percent) is printed in the cell, its "
                                 "column header, its row label, the caption of Table 1")


def test_a_unit_after_a_number_of_a_header_is_that_numbers() -> None:
    got = check_both(_unit(), _both(*_table(("7B", "13B"), caption=("Win", "rates", "with", "95%", "confidence",
                                                                     "intervals."))))
    assert got.outcome == UNIT_NOT_PRINTED  # rule off: pass, on the '%' of '95%'


@pytest.mark.parametrize(("caption", "quote"), [
    (("Win", "rates", "(%)", "of", "the", "models."), None),
    (("Win", "rates", "of", "the", "models."), "Table 1 gives the win rates in percent"),
])
def test_a_unit_the_caption_or_the_citing_sentence_prints_confirms_the_cells(caption: tuple[str, ...],
                                                                             quote: str | None) -> None:
    lines = _table(("7B", "13B"), caption=caption)
    if quote:
        lines.append(_line(300, *((w, 100 + 40 * i) for i, w in enumerate((quote + ".").split()))))
    got = check_both(_unit(quote=quote), _both(*lines))
    assert got.outcome == PASS, got.detail
    assert ("caption of Table 1" if quote is None else "citing sentence") in got.detail


def test_another_unit_in_the_header_fails() -> None:
    got = check_both(_unit(column="Time (ms)"), _both(*_table(("Time (ms)", "13B"))))
    assert got.outcome == FAIL and "'(ms)' (millisecond)" in got.detail


def test_a_text_without_spaces_fails_no_unit_the_other_extractor_passes() -> None:
    claim = UnitWithValue("r", "unit", 1, "peak 33.88 GB", "33.88", "gigabyte", ("GB",))
    glued = Extraction(pages=("thepeak33.88GBhere",), extractor="pypdf 5")
    spaced = Extraction(pages=("the peak 33.88 GB here",), extractor="pdftotext 24")
    assert claim.check(spaced).passed
    alone = claim.check(Extraction(pages=("the peak 33.88GBhere",), extractor="pypdf 5"))
    assert alone.outcome == UNIT_NOT_PRINTED  # rule off: fail
    got = check_both(dataclasses.replace(claim, quote="33.88"), Readings(glued, spaced))
    assert got.outcome != FAIL and not got.passed


# -- how two extractors' verdicts combine ----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _ByExtractor(Claim):
    verdicts: tuple[str, str]

    def check(self, doc: Extraction) -> Assertion:
        verdict = self.verdicts[0 if doc.extractor.startswith("pypdf") else 1]
        if verdict in ("absent", "absent-other"):
            return self._unreadable("x", 1, f"no column 'C' in Table 1; read {verdict}", absent=True)
        if verdict == UNIT_NOT_PRINTED:
            return self._unprinted("x", 1, "unit not printed on the page")
        if verdict == CANNOT_CHECK:
            return self._unreadable("x", 1, "no row 'A' in Table 1")
        return self._result("x", verdict == PASS, 1, detail="in row 'A'" if verdict == PASS else "has 0.6")


@pytest.mark.parametrize(("first", "second", "combined"), [
    ("absent", "absent", FAIL),
    ("absent", "absent-other", CANNOT_CHECK),  # the two read the table otherwise: no witness
    ("absent", CANNOT_CHECK, CANNOT_CHECK),
    (UNIT_NOT_PRINTED, PASS, UNIT_NOT_PRINTED),
    (PASS, UNIT_NOT_PRINTED, UNIT_NOT_PRINTED),
    (UNIT_NOT_PRINTED, UNIT_NOT_PRINTED, UNIT_NOT_PRINTED),
    (UNIT_NOT_PRINTED, FAIL, FAIL),
    (FAIL, UNIT_NOT_PRINTED, FAIL),
    (PASS, CANNOT_CHECK, CANNOT_CHECK),
])
def test_two_extractors_verdicts_combine(first: str, second: str, combined: str) -> None:
    readings = Readings(Extraction(pages=("x",), extractor="pypdf 5"), Extraction(pages=("x",), extractor="pdftotext"))
    got = check_both(_ByExtractor("r", "table cell", (first, second)), readings)
    assert got.outcome == combined, got.detail
    assert Assertion.from_plain(got.plain()) == got


# -- the quoted sentence -----------------------------------------------------------------------------------------


SENTENCE = "Training the 2.5B model on 8 NVIDIA A100 GPUs took 33.88 GB of memory per device."


@pytest.mark.parametrize(("accelerator", "outcome"), [("NVIDIA A100", PASS), ("NVIDIA H100", FAIL)])
def test_the_device_the_quoted_sentence_names_must_be_the_records(accelerator: str, outcome: str) -> None:
    claim = SentenceDevice("r", "hardware in sentence", 1, "took 33.88 GB", (accelerator,))
    got = claim.check(Extraction(pages=(SENTENCE,), extractor="t"))
    assert got.outcome == outcome  # rule off: not checked, the slip passes
    if outcome == FAIL:
        assert got.detail.startswith("the quoted sentence names 'A100', but the record's hardware is 'NVIDIA H100'")
        assert "8 NVIDIA A100 GPUs" in got.matched


@pytest.mark.parametrize(("text", "devices"), [
    ("on 8 NVIDIA A100 GPUs", ["A100"]), ("a single A100 80 GB GPU", ["A100"]), ("Tesla V100", ["V100"]),
    ("ViT-B16 on ImageNet", []), ("NT 500M on H3K4me3", []),
])
def test_devices_are_read_where_the_sentence_marks_them(text: str, devices: list[str]) -> None:
    assert devices_in(text) == devices


RESPECTIVELY = "On H3K4me3, NT 500M and NT 2.5B reach 0.681 and 0.702, respectively, over ten folds."


@pytest.mark.parametrize(("value", "name", "outcome"), [
    ("0.681", "NT 500M", PASS), ("0.702", "NT 2.5B", PASS),
    ("0.702", "NT 500M", FAIL), ("0.681", "NT 2.5B", FAIL),
])
def test_respectively_pairs_the_nth_value_with_the_nth_name(value: str, name: str, outcome: str) -> None:
    claim = Respectively("r", "respectively", 1, "reach 0.681 and 0.702, respectively", value, name,
                         ("NT 500M", "NT 2.5B", "HyenaDNA"))
    got = claim.check(Extraction(pages=(RESPECTIVELY,), extractor="t"))
    assert got.outcome == outcome, got.detail  # rule off: both orders pass
    if value == "0.702" and outcome == FAIL:
        assert got.detail.startswith("'respectively' gives '0.702' to 'NT 2.5B' and '0.681' to 'NT 500M'")


def test_respectively_that_cannot_be_paired_cannot_be_checked() -> None:
    claim = Respectively("r", "respectively", 1, "reach 0.681 and 0.702, respectively", "0.681", "NT 500M",
                         ("NT 500M",))
    got = claim.check(Extraction(pages=(RESPECTIVELY,), extractor="t"))
    assert got.outcome == CANNOT_CHECK and "1 name(s) (NT 500M) and 3 number(s)" in got.detail
