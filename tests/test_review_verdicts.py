"""Three verdicts for a claim: pass, fail (the page prints something else) and cannot check (the cited table, row
or column could not be read).

A cell the review cannot read is not a wrong transcription: every claim that rests on it (value, ±, kind of
uncertainty, unit) says 'cannot check' once, names what was read instead, never counts as passed, never lets
``--write`` file a review, and the command exits with its own status.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from registry.checking.agreement import check_both, disagreements
from registry.checking.cells import TableCell
from registry.checking.claims import CANNOT_CHECK, FAIL, PASS, Assertion, Claim
from registry.checking.review import plan_review
from registry.cli import app
from registry.cli.review import EXIT_CANNOT_CHECK
from registry.validate.runner import validate
from review.pdf import poppler
from review.pdf.extract import Readings, read_pdf
from review.pdf.pdftext import Extraction

DATA = Path(__file__).parent / "data"
PAPER = DATA / "papers" / "genomic-benchmarks-fixture" / "paper.pdf"
REGISTRY = DATA / "fixture-registry"
TAMPERED = DATA / "review-tampered"
R = "fixture-genomic-20261201-result-"
UNREAD = R + "t1-nt-2-5b-h3k4me3"

needs_pdftotext = pytest.mark.skipif(poppler.find_pdftotext() is None, reason="poppler-utils is not installed")


@pytest.fixture(scope="module")
def readings() -> Readings:
    return read_pdf(PAPER)


def _records(tmp_path: Path, case: str) -> Path:
    records = tmp_path / "records"
    shutil.copytree(REGISTRY, records)
    for path in (TAMPERED / case).rglob("*.yaml"):
        shutil.copyfile(path, records / path.relative_to(TAMPERED / case))
    return records


def _cell(row: str, column: str, value: str, table: str = "Table 1", page: int = 2) -> TableCell:
    return TableCell("r", "table cell", page, table, row, column, value)


# -- the verdicts of one claim --------------------------------------------------------------------


@pytest.mark.pdf
def test_a_row_printed_nowhere_in_the_table_both_extractors_read_alike_fails_naming_the_rows_and_columns_read(
        readings: Readings) -> None:
    assertion = check_both(_cell("NT 9B", "Histone marks / H3K4me3", "0.702"), readings)
    expected = FAIL if readings.second is not None else CANNOT_CHECK  # the witness is both readings alike
    assert assertion.outcome == expected and not assertion.passed
    assert assertion.detail.startswith("no row 'NT 9B' in Table 1 on page 2; read ")
    assert "'NT 500M'" in assertion.detail and "'Histone marks / H3K4me3'" in assertion.detail
    assert " rows (" in assertion.detail and " columns (" in assertion.detail
    assert "'9b' is printed nowhere in Table 1" in assertion.detail


@pytest.mark.pdf
def test_a_column_printed_nowhere_in_the_table_fails(readings: Readings) -> None:
    assertion = check_both(_cell("NT 2.5B", "Histone marks / H9K9", "0.702"), readings)
    assert assertion.outcome == (FAIL if readings.second is not None else CANNOT_CHECK)
    assert assertion.detail.startswith("no column 'Histone marks / H9K9' in Table 1 on page 2; read ")
    assert "'h9k9' is printed nowhere in Table 1" in assertion.detail


@pytest.mark.pdf
@pytest.mark.parametrize(("row", "column"), [
    ("HyenaDNA NT", "Histone marks / H3K4me3"),  # every word printed in the table: maybe misread, no witness
    ("NT 2.5B", "Promoter H3K27ac"),
])
def test_a_row_or_column_not_found_whose_words_the_table_prints_cannot_be_checked(
        readings: Readings, row: str, column: str) -> None:
    assertion = check_both(_cell(row, column, "0.702"), readings)
    assert assertion.outcome == CANNOT_CHECK, assertion.detail
    assert "printed nowhere" not in assertion.detail


@pytest.mark.pdf
def test_a_table_cited_on_a_page_without_its_caption_fails_and_says_where_it_is(readings: Readings) -> None:
    assertion = check_both(_cell("NT 2.5B", "Histone marks / H3K4me3", "0.702", page=1), readings)
    if readings.second is None:  # one extractor alone is no witness
        assert assertion.outcome == CANNOT_CHECK and assertion.detail.startswith("Table 1 is printed on page 2")
        return
    assert assertion.outcome == FAIL
    assert assertion.detail.startswith("Table 1 is printed on page 2, not on page 1: page 1 prints no caption of it")


@pytest.mark.pdf
def test_a_value_of_another_cell_fails_and_the_right_one_passes(readings: Readings) -> None:
    right = check_both(_cell("NT 2.5B", "Histone marks / H3K4me3", "0.702"), readings)
    assert right.outcome == PASS
    wrong = check_both(_cell("NT 2.5B", "Histone marks / H3K4me3", "0.681"), readings)
    assert wrong.outcome == FAIL
    assert "0.681 is printed in row 'NT 500M', column 'Histone marks / H3K4me3'" in wrong.detail


@dataclass(frozen=True)
class _ByExtractor(Claim):
    """A claim whose verdict is set per extractor, to test how two verdicts combine."""

    verdicts: tuple[str, str]

    def check(self, doc: Extraction) -> Assertion:
        verdict = self.verdicts[0 if doc.extractor.startswith("pypdf") else 1]
        if verdict == CANNOT_CHECK:
            return self._unreadable("x", 1, "no row 'A' in Table 1 on page 1; read 0 rows and 0 columns")
        return self._result("x", verdict == PASS, 1, "0.5" if verdict == PASS else "", "in row 'A'" if
                            verdict == PASS else "0.5 is not printed in Table 1 on page 1; row 'A', column 'B' has 0.6")


@pytest.mark.pdf
@pytest.mark.parametrize(("first", "second", "combined"), [
    (PASS, PASS, PASS),
    (PASS, CANNOT_CHECK, CANNOT_CHECK),  # a pass the other extractor cannot confirm is no pass
    (CANNOT_CHECK, PASS, CANNOT_CHECK),
    (CANNOT_CHECK, CANNOT_CHECK, CANNOT_CHECK),
    (CANNOT_CHECK, FAIL, FAIL),  # the cell was read, by one of them, and holds something else
    (FAIL, CANNOT_CHECK, FAIL),
    (PASS, FAIL, FAIL),
    (FAIL, PASS, FAIL),
])
def test_two_extractors_verdicts_combine(readings: Readings, first: str, second: str, combined: str) -> None:
    if readings.second is None:
        pytest.skip("poppler-utils is not installed")
    assertion = check_both(_ByExtractor("r", "table cell", (first, second)), readings)
    assert assertion.outcome == combined
    assert (assertion.second is not None) and assertion.second.passed == (second == PASS)
    if combined == CANNOT_CHECK and PASS in (first, second):
        assert "cannot read it" in assertion.detail or "passes it" in assertion.detail
    if (first, second) == (PASS, CANNOT_CHECK):
        assert disagreements([assertion]) == [assertion]


def test_an_assertion_keeps_its_verdict_through_plain_values() -> None:
    assertion = Assertion("r", "table cell", "x", False, 2, detail="no row", unreadable=True)
    again = Assertion.from_plain(assertion.plain())
    assert again == assertion and again.outcome == CANNOT_CHECK


# -- every claim of an unreadable cell ------------------------------------------------------------


@pytest.mark.pdf
@needs_pdftotext
def test_each_claim_of_an_unreadable_cell_is_one_cannot_check_line(tmp_path: Path, readings: Readings) -> None:
    registry, report = validate(_records(tmp_path, "unreadable-row"))
    assert report.valid, [i.message for i in report.errors]
    checked = [check_both(claim, readings) for claim in plan_review(registry, UNREAD).claims]
    cell = [a for a in checked if a.claim in ("table cell", "uncertainty", "uncertainty kind", "unit")]
    assert sorted(a.claim for a in cell) == ["table cell", "uncertainty", "uncertainty kind", "unit"]
    assert all(a.outcome == CANNOT_CHECK for a in cell), [(a.claim, a.outcome, a.detail) for a in cell]
    assert not any(a.outcome == FAIL for a in checked), [(a.claim, a.detail) for a in checked if not a.passed]


# -- the command ----------------------------------------------------------------------------------


@pytest.mark.pdf
@needs_pdftotext
def test_the_command_counts_cannot_check_apart_exits_3_and_points_to_the_table(tmp_path: Path) -> None:
    records = _records(tmp_path, "unreadable-row")
    result = CliRunner().invoke(app, ["review", UNREAD, "--records", str(records), "--pdf", str(PAPER),
                                      "--cache-dir", str(tmp_path / "cache")], env={"COLUMNS": "250"})
    assert result.exit_code == EXIT_CANNOT_CHECK == 3, result.output
    out = " ".join(result.output.split())
    assert "CANNOT CHECK" in out and "FAIL" not in out
    assert "Could not be checked (the review could not read the cited table, row or column):" in out
    assert "no row 'NT 2.5' in Table 1 on page 2; read " in out
    assert f"registry table {PAPER} --page 2 --table 'Table 1'" in out
    assert out.endswith("4 of 12 assertions could not be checked: the records are not source checked by this PDF.")


@pytest.mark.pdf
@needs_pdftotext
def test_write_files_a_review_that_could_not_check_never_a_pass(tmp_path: Path) -> None:
    records = _records(tmp_path, "unreadable-row")
    result = CliRunner().invoke(app, ["review", UNREAD, "--records", str(records), "--pdf", str(PAPER),
                                      "--cache-dir", str(tmp_path / "cache"), "--write"])
    assert result.exit_code == EXIT_CANNOT_CHECK, result.output
    (path,) = (records / "review").glob("*.yaml")
    out = " ".join(result.output.split())
    assert f"Wrote review {path.stem} (could not be checked) to {path}" in out
    registry, report = validate(records)
    assert report.valid, [i.message for i in report.errors]
    review = registry.records[path.stem]
    assert review.status.value == "could-not-be-checked" and review.subjects == [UNREAD]  # type: ignore[attr-defined]
    unread = [c for c in review.claims if c.verdict.value == "cannot-check"]  # type: ignore[attr-defined]
    assert len(unread) == 4 and all("no row 'NT 2.5' in Table 1 on page 2" in (c.detail or "") for c in unread)


@pytest.mark.pdf
@needs_pdftotext
def test_format_json_counts_the_three_verdicts_apart(tmp_path: Path) -> None:
    records = _records(tmp_path, "unreadable-row")
    result = CliRunner().invoke(app, ["review", UNREAD, "--records", str(records), "--pdf", str(PAPER),
                                      "--cache-dir", str(tmp_path / "cache"), "--format", "json"])
    assert result.exit_code == EXIT_CANNOT_CHECK
    data = json.loads(result.stdout)
    assert data["passed"] is False and data["failed"] == 0 and data["cannot_check"] == 4
    cell = next(a for a in data["assertions"] if a["claim"] == "table cell")
    assert cell["outcome"] == CANNOT_CHECK and cell["unreadable"] is True


@pytest.mark.pdf
@needs_pdftotext
def test_a_wrong_value_still_fails_with_exit_status_1(tmp_path: Path) -> None:
    records = _records(tmp_path, "wrong-row")
    result = CliRunner().invoke(app, ["review", UNREAD, "--records", str(records), "--pdf", str(PAPER),
                                      "--cache-dir", str(tmp_path / "cache")], env={"COLUMNS": "250"})
    assert result.exit_code == 1
    assert "CANNOT CHECK" not in result.output and "FAIL" in result.output
