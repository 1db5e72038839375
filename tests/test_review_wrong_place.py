"""A slip of the page or of the table fails only where the pages witness it: tests on word coordinates as the
extractors give them (invented fixture pages, not any paper's).

Each rule has a case that fails with the rule switched off (the verdict it replaces is named beside it): the right
value cited on a page that prints no caption of its table, whose caption another page prints, fails naming that page
(was: cannot check); a page that may hold a part of the table (the table before runs to its page's foot, or the
table after is set above its caption) or that starts a line with the label (a caption set in a form the reader does
not know) cannot be checked.
"""

from __future__ import annotations

from registry.checking.agreement import check_both
from registry.checking.cells import TableCell
from registry.checking.claims import CANNOT_CHECK, FAIL, PASS
from review.pdf.extract import Readings
from review.pdf.pdftext import Extraction
from review.pdf.words import PageWords, Word
from tests.placed_words import CHAR, placed_line, placed_text

_line, _words = placed_line, placed_text


def _prose(top: float, lines: int = 6) -> list[list[Word]]:
    """Running text: lines of many words across the page's width."""
    return [_words(top + 12 * i, "the models were trained for three days on eight machines with the same data "
                                 "and the same settings as before") for i in range(lines)]


def _table(top: float, caption: str = "Table 1: Win rates of the models, a fixture typeset for the tests."
           ) -> list[list[Word]]:
    return [_words(top, caption),
            _line(top + 15, ("Model", 100), ("7B", 200), ("13B", 260)),
            _line(top + 28, ("Baseline", 100), ("71.3", 200), ("72.1", 260)),
            _line(top + 40, ("Ours", 100), ("73.4", 200), ("74.0", 260))]


def _doc(pages: list[list[list[Word]]], extractor: str) -> Extraction:
    texts = tuple("\n".join(" ".join(w.text for w in line) for line in lines) for lines in pages)
    words = tuple(PageWords(n, 600.0, 800.0, tuple(w for line in lines for w in line))
                  for n, lines in enumerate(pages, start=1))
    return Extraction(pages=texts, extractor=extractor, words=words)


def _both(*pages: list[list[Word]]) -> Readings:
    return Readings(_doc(list(pages), "pypdf 5"), _doc(list(pages), "pdftotext 24"))


def _cite(page: int, readings: Readings, value: str = "73.4"):  # type: ignore[no-untyped-def]
    return check_both(TableCell("r", "table cell", page, "Table 1", "Ours", "7B", value), readings)


# -- the wrong page ---------------------------------------------------------------------------------------------


def test_a_value_cited_on_a_page_that_prints_no_caption_of_its_table_fails_naming_the_page() -> None:
    readings = _both([*_table(100), *_prose(200)], _prose(100))
    assert _cite(1, readings).outcome == PASS
    got = _cite(2, readings)
    assert got.outcome == FAIL  # rule off: cannot check
    assert got.detail.startswith("Table 1 is printed on page 1, not on page 2: page 2 prints no caption of it")
    assert got.detail.endswith("pdftotext reads the same captions on the same pages")


def test_a_page_after_a_table_that_runs_to_its_foot_cannot_be_checked() -> None:
    readings = _both([*_prose(100), *_table(600)], _prose(100))  # nothing under the table: it may go on
    got = _cite(2, readings, "75.0")  # a value page 1 does not print there (73.4 there fails: test_review_other_table)
    assert got.outcome == CANNOT_CHECK and "no caption of Table 1 on page 2" in got.detail


def test_a_page_before_a_table_set_above_its_caption_cannot_be_checked() -> None:
    above = [_line(100, ("Model", 100), ("7B", 200), ("13B", 260)),
             _line(113, ("Baseline", 100), ("71.3", 200), ("72.1", 260)),
             _line(125, ("Ours", 100), ("73.4", 200), ("74.0", 260)),
             _words(140, "Table 1: Win rates of the models, a fixture typeset for the tests.")]
    readings = _both(_prose(100), [*above, *_prose(200)])
    assert _cite(2, readings).outcome == PASS
    assert _cite(1, readings, "75.0").outcome == CANNOT_CHECK  # the table may begin on page 1


def test_a_page_that_starts_a_line_with_the_label_cannot_be_checked() -> None:
    unknown = [_words(100, "Table 1 Win rates in a caption form the reader does not know"), *_prose(115)]
    readings = _both([*_table(100), *_prose(200)], unknown)
    got = _cite(2, readings)
    assert got.outcome == CANNOT_CHECK  # rule off: fail
    assert "no caption of Table 1 on page 2" in got.detail


def test_a_mention_of_the_label_inside_a_sentence_is_no_caption() -> None:
    mention = [_words(100, "the models were trained as Table 1 shows for three days on eight machines"),
               *_prose(115)]
    readings = _both([*_table(100), *_prose(200)], mention)
    assert _cite(2, readings).outcome == FAIL


def test_a_wrong_page_one_extractor_reads_otherwise_cannot_be_checked() -> None:
    pages = [[*_table(100), *_prose(200)], _prose(100)]
    other = [[*_prose(100)], [*_table(100), *_prose(200)]]  # the second extractor reads the table on page 2
    readings = Readings(_doc(pages, "pypdf 5"), _doc(other, "pdftotext 24"))
    assert _cite(2, readings).outcome != FAIL


# -- the wrong table --------------------------------------------------------------------------------------------


def _header_split(lines: list[list[Word]]) -> list[list[Word]]:
    """The table as an extractor that splits '13B' into '13' and 'B' (a space inside a label) reads it."""
    split = []
    for line in lines:
        words = []
        for w in line:
            if w.text == "13B":
                words += [Word("13", w.x0, w.top, w.x0 + 2 * CHAR, w.bottom),
                          Word("B", w.x0 + 2 * CHAR + 1, w.top, w.x1 + 1, w.bottom)]
            else:
                words.append(w)
        split.append(words)
    return split


def test_a_row_printed_nowhere_fails_where_the_extractors_space_a_label_otherwise() -> None:
    page = [*_table(100), *_prose(200)]
    readings = Readings(_doc([page], "pypdf 5"), _doc([_header_split(page)], "pdftotext 24"))
    got = check_both(TableCell("r", "table cell", 1, "Table 1", "Transformer", "7B", "73.4"), readings)
    assert got.outcome == FAIL  # rule off (the accounts compared letter for letter, '13B' and '13 B'): cannot check
    assert "'transformer' is printed nowhere in Table 1" in got.detail


def test_a_name_printed_nowhere_is_the_witness_alone_not_where_the_crossing_failed() -> None:
    readings = _both([*_table(100), *_prose(200)])
    got = check_both(TableCell("r", "table cell", 1, "Table 1", "Ours", "Sequences/s", "73.4"), readings)
    assert got.outcome == FAIL
    assert "nor where the row and the column cross" not in got.detail  # rule off: the crossing's reason appended
