"""A value cited at a name the table prints twice fails where every cell the names can mean prints another number
(``registry.checking.ambiguous``); where one of them prints it, it cannot be checked. Tests on word coordinates as
the extractors give them (an invented fixture page, not any paper's); the failing case was 'cannot check' with the
rule switched off.
"""

from __future__ import annotations

import pytest

import registry.checking.cells as cells
from registry.checking.agreement import check_both
from registry.checking.cells import TableCell
from registry.checking.claims import CANNOT_CHECK, FAIL
from review.pdf.extract import Readings
from review.pdf.pdftext import Extraction
from review.pdf.words import PageWords, Word
from tests.placed_words import placed_line, placed_text


def _page() -> list[list[Word]]:
    """Table 1, its accuracy printed twice (on the dev and on the test split, the split named in the caption)."""
    return [placed_text(100, "Table 1: Accuracy on the dev split, then on the test split (a fixture for the tests)."),
            placed_line(115, ("Model", 100), ("Acc", 200), ("Acc", 260)),
            placed_line(128, ("Baseline", 100), ("71.3", 200), ("72.1", 260)),
            placed_line(140, ("Ours", 100), ("73.4", 200), ("74.0", 260))]


def _readings() -> Readings:
    lines = _page()
    words = (PageWords(1, 600.0, 800.0, tuple(w for line in lines for w in line)),)
    text = ("\n".join(" ".join(w.text for w in line) for line in lines),)
    return Readings(Extraction(pages=text, extractor="pypdf 5", words=words),
                    Extraction(pages=text, extractor="pdftotext 24", words=words))


def _cite(value: str):  # type: ignore[no-untyped-def]
    return check_both(TableCell("r", "table cell", 1, "Table 1", "Ours", "Acc", value), _readings())


def test_a_value_no_cell_the_names_can_mean_prints_fails_naming_each() -> None:
    got = _cite("72.1")  # the baseline's value, cited at 'Ours'
    assert got.outcome == FAIL  # rule off: cannot check ('2 columns are named 'Acc'')
    assert "they name 2 cells, and none prints it (row 'Ours', column 'Acc' has 73.4; " in got.detail


def test_a_value_one_of_the_cells_prints_cannot_be_checked() -> None:
    assert _cite("74.0").outcome == CANNOT_CHECK
    assert _cite("73.4").outcome == CANNOT_CHECK


def test_with_the_rule_off_it_cannot_be_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cells, "none_prints", lambda *args: False)
    assert _cite("72.1").outcome == CANNOT_CHECK
