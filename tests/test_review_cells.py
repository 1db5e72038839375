"""Table cells, uncertainties, units in headers, captions, two extractors and internal consistency.

The fixture paper (tests/data/papers/genomic-benchmarks-fixture) is transcribed in
tests/data/fixture-registry; every claim of it must pass with both extractors. The tampered
copies in tests/data/review-tampered each replace one or two records (a value from the wrong row
or column, a wrong ±, a wrong kind of uncertainty, a dropped minus, a wrong unit, a row of another
group, a percentage no count of n items gives) and must fail naming what the page prints.
"""

from __future__ import annotations

import json
import os
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from registry.checking.agreement import check_readings, disagreements
from registry.checking.review import ReviewLimits, plan_review, run_review
from registry.cli import app
from registry.validate.runner import validate
from review.pdf import poppler
from review.pdf.extract import Readings, read_pdf
from review.pdf.words import squeezed
from review.tables.read import read_tables
from review.tables.table import find_columns, find_rows

pytestmark = pytest.mark.pdf  # reads or renders PDFs (pdflatex, pdftotext, PDFium): left out of make test-fast

DATA = Path(__file__).parent / "data"
PAPERS = DATA / "papers"
PAPER = PAPERS / "genomic-benchmarks-fixture" / "paper.pdf"
GRIM_PAPER = PAPERS / "genomic-benchmarks-fixture" / "paper-grim-impossible.pdf"
REGISTRY = DATA / "fixture-registry"
TAMPERED = DATA / "review-tampered"
SOURCE = "fixture-genomic-20261201-source-genomic-benchmarks-fixture"
R = "fixture-genomic-20261201-result-"

needs_pdftotext = pytest.mark.skipif(poppler.find_pdftotext() is None, reason="poppler-utils is not installed")


@pytest.fixture(scope="module")
def readings() -> Readings:
    return read_pdf(PAPER)


@pytest.fixture(scope="module")
def grim_readings() -> Readings:
    return read_pdf(GRIM_PAPER)


def _records(tmp_path: Path, case: str | None = None) -> Path:
    records = tmp_path / "records"
    shutil.copytree(REGISTRY, records)
    if case is not None:
        for path in (TAMPERED / case).rglob("*.yaml"):
            target = records / path.relative_to(TAMPERED / case)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    return records


def _check(records: Path, record_id: str, readings: Readings) -> list[Any]:
    registry, report = validate(records)
    assert report.valid, [i.message for i in report.errors]
    return check_readings(plan_review(registry, record_id).claims, readings)


# -- the whole paper ------------------------------------------------------------------------------


@needs_pdftotext
def test_every_claim_of_the_fixture_paper_passes_with_both_extractors(tmp_path: Path, readings: Readings) -> None:
    assertions = _check(REGISTRY, SOURCE, readings)
    failed = [(a.record_id, a.claim, a.detail) for a in assertions if not a.passed]
    assert failed == []
    cells = [a for a in assertions if a.claim == "table cell"]
    assert len(cells) > 140
    assert all(a.second is not None and a.second.passed for a in cells)
    assert disagreements(assertions) == []
    claims = {a.claim for a in assertions}
    assert {"uncertainty", "uncertainty kind", "unit", "derived value", "derived uncertainty", "GRIM",
            "in caption"} <= claims


def test_a_cell_passes_naming_its_row_column_bold_and_mark(readings: Readings) -> None:
    cell = next(a for a in _check(REGISTRY, R + "t1-nt-2-5b-h3k4me3", readings) if a.claim == "table cell")
    assert cell.passed
    assert cell.found == "row 'NT 2.5B', column 'Histone marks / H3K4me3'"
    assert "printed in bold" in cell.detail and "mark \u2020" in cell.detail


def test_a_row_group_printed_on_the_previous_page_is_carried(readings: Readings) -> None:
    cell = next(a for a in _check(REGISTRY, R + "t5-nt-2-5b-fold-2-h3k4me3", readings) if a.claim == "table cell")
    assert cell.passed, cell.detail
    assert cell.page == 5
    assert "group 'NT 2.5B' is printed on page 4" in cell.detail


def test_units_are_read_from_the_column_header(readings: Readings) -> None:
    unit = next(a for a in _check(REGISTRY, R + "t3-nt-500m-throughput", readings) if a.claim == "unit")
    assert unit.passed, unit.detail
    assert "column header 'Throughput (Sequences/s)'" in unit.detail


def test_a_caption_only_number_is_checked_in_its_caption(readings: Readings) -> None:
    caption = next(a for a in _check(REGISTRY, R + "fig1-peak-memory", readings) if a.claim == "in caption")
    assert caption.passed and "caption of Figure 1" in caption.detail


# -- tampered copies ------------------------------------------------------------------------------


TAMPERINGS = [
    ("wrong-row", R + "t1-nt-2-5b-h3k4me3", "table cell",
     "0.681 is printed in row 'NT 500M', column 'Histone marks / H3K4me3'; row 'NT 2.5B' has 0.702 there"),
    ("wrong-column", R + "t1-nt-500m-h3k4me3", "table cell",
     "0.655 is printed in row 'NT 500M', column 'Histone marks / H3K27ac'; column 'Histone marks / H3K4me3' has "
     "0.681 there"),
    ("wrong-plus-minus", R + "t1-nt-500m-h3k4me3", "uncertainty", "\u00b1 0.019, not the record's '\u00b1 0.099'"),
    ("wrong-kind", R + "t1-nt-500m-h3k4me3", "uncertainty kind",
     "the caption of Table 1 says 's.d.' (standard-deviation), not standard-error"),
    ("dropped-minus", R + "t2-h3k27ac-delta", "table cell",
     "0.021 is not printed in Table 2 on page 2; row 'H3K27ac', column '\u2206 (LoRA \u2212 full)' has \u22120.021 "
     "(the same digits with a minus sign"),
    ("wrong-unit", R + "t3-nt-500m-throughput", "unit",
     "the column header 'Throughput (Sequences/s)' prints '(Sequences/s)' (sequences-per-second)"),
    ("wrong-group", R + "t5-nt-2-5b-fold-2-h3k4me3", "table cell",
     "0.712 is printed in row 'NT 2.5B / 2', column 'Histone marks / H3K4me3'; row 'HyenaDNA / 2' has 0.660 there"),
    ("million-for-ms", R + "t3-nt-500m-latency", "unit",
     "the column header 'Latency (ms)' prints '(ms)' (millisecond), not M (million)"),
    ("count-without-unit-detail", R + "t3-nt-2-5b-throughput", "unit",
     "the column header 'Throughput (Sequences/s)' prints '(Sequences/s)' (sequences-per-second), but the unit count "
     "is printed without one"),
]


@pytest.mark.parametrize(("case", "record_id", "claim", "message"), TAMPERINGS, ids=[t[0] for t in TAMPERINGS])
def test_a_tampered_record_fails_naming_the_cell(tmp_path: Path, readings: Readings, case: str, record_id: str,
                                                  claim: str, message: str) -> None:
    assertions = _check(_records(tmp_path, case), record_id, readings)
    failed = {a.claim: a for a in assertions if not a.passed}
    assert claim in failed, [(a.claim, a.detail) for a in assertions]
    assert message in failed[claim].detail


#: Tampered copies whose unit_detail names a form of another unit: 'registry validate' reports them without the PDF,
#: and the review, run all the same, fails them too.
DETAIL_OF_ANOTHER_UNIT = [
    ("count-for-throughput", R + "t3-nt-2-5b-throughput",
     "'Sequences/s', which is how sequences-per-second is printed; the unit count is printed without a unit"),
    ("dimensionless-for-ms", R + "t3-nt-2-5b-latency",
     "'ms', which is how millisecond is printed; the unit dimensionless is printed without a unit"),
]


@pytest.mark.parametrize(("case", "record_id", "message"), DETAIL_OF_ANOTHER_UNIT,
                         ids=[t[0] for t in DETAIL_OF_ANOTHER_UNIT])
def test_a_unit_detail_of_another_unit_fails_validation_and_review(tmp_path: Path, readings: Readings, case: str,
                                                                   record_id: str, message: str) -> None:
    registry, report = validate(_records(tmp_path, case))
    assert [(i.code, i.record_id) for i in report.errors] == [("unit-detail-mismatch", record_id)]
    assertions = check_readings(plan_review(registry, record_id).claims, readings)
    failed = {a.claim: a.detail for a in assertions if not a.passed}
    assert set(failed) == {"unit detail = unit"}, failed
    assert message in failed["unit detail = unit"]


def test_a_score_in_a_column_without_a_unit_passes_its_unit(readings: Readings) -> None:
    unit = next(a for a in _check(REGISTRY, R + "t1-nt-500m-h3k4me3", readings) if a.claim == "unit")
    assert unit.passed and unit.expected == "no unit (dimensionless)"
    assert unit.detail == "no unit is printed in the cell, its column header or its row label"


def test_a_percentage_no_count_of_n_gives_fails_grim(tmp_path: Path, grim_readings: Readings) -> None:
    assertions = _check(_records(tmp_path, "grim-impossible"), R + "s5-promoter-accuracy", grim_readings)
    grim = next(a for a in assertions if a.claim == "GRIM")
    assert not grim.passed
    assert "no whole count of 150 rounds to 71.5%: 107/150 = 71.33% and 108/150 = 72.00%" in grim.detail
    assert [a.claim for a in assertions if not a.passed] == ["GRIM"]  # the page does print 71.5


def test_the_reference_copy_passes_grim(readings: Readings) -> None:
    grim = next(a for a in _check(REGISTRY, R + "s5-promoter-accuracy", readings) if a.claim == "GRIM")
    assert grim.passed and grim.matched == "107/150 = 71.33%"


@pytest.mark.parametrize(("metric", "printed"), [
    ("balanced-accuracy", "65.5"),  # (49/50 + 33/100) / 2 of 50 positives and 100 negatives: no count of 150
    ("pass-at-1", "34.6"),  # 1,038 correct of 20 samples on each of 150 problems: 1038/3000, no count of 150
])
def test_grim_is_not_applied_to_a_metric_that_is_no_share_of_n_items(metric: str, printed: str) -> None:
    from registry.checking.consistency import GrimPossible, consistency_claims
    from registry.models import Result

    registry, _ = validate(REGISTRY)
    share = registry.get_as(R + "s5-promoter-accuracy", Result)
    assert [c.claim for c in consistency_claims(registry, share)] == ["GRIM"]
    assert not GrimPossible(share.id, "GRIM", printed, True, 150, 1).check(None).passed  # type: ignore[arg-type]
    result = share.model_copy(update={"metric": metric, "printed_value": printed, "numeric_value": Decimal(printed)})
    assert consistency_claims(registry, result) == []


def test_a_derived_value_with_a_wrong_input_fails(tmp_path: Path, readings: Readings) -> None:
    from registry.checking.consistency import consistency_claims
    from registry.validate.runner import validate as check

    registry, _ = check(REGISTRY)
    result = registry.records[R + "s5-1-lora-memory-reduction"]
    lora = registry.records[R + "s5-1-lora-peak-memory"]
    registry.records[lora.id] = lora.model_copy(update={"printed_value": "20.75"})
    claim = consistency_claims(registry, result)[0]  # type: ignore[arg-type]
    assertion = claim.check(readings.primary)
    assert not assertion.passed
    assert "printed 66, but (31.62 - 20.75) / 31.62" in assertion.detail


# -- kinds of uncertainty --------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "kinds"), [
    ("Mean \u00b1 std. err. over 5 seeds.", {"standard-error": "std. err."}),
    ("Values are mean \u00b1 SEM (std error).", {"standard-error": "SEM"}),
    ("mean \u00b1 std over 3 runs", {"standard-deviation": "std"}),
    ("Std. dev. of 5 seeds", {"standard-deviation": "std. dev."}),
    ("mean \u00b1 s.e.m. over 5 seeds", {"standard-error": "s.e.m."}),
    ("95% CI by bootstrap; SD of folds not shown", {"confidence-interval": "CI", "standard-deviation": "SD"}),
])
def test_the_words_for_kinds_are_read_longest_first(text: str, kinds: dict[str, str]) -> None:
    from registry.models.uncertainty_kinds import kinds_in

    assert {kind.value: word for kind, word in kinds_in(text).items()} == kinds


QUOTED = "0.947 \u00b1 0.004 (mean \u00b1 std. err. over 5 seeds)"


@pytest.mark.parametrize(("kind", "page", "passed", "detail"), [
    ("standard-error", f"HyenaDNA reaches {QUOTED} on splice sites.", True,
     "the quoted text and the sentence it comes from says 'std. err.'"),
    ("standard-deviation", f"HyenaDNA reaches {QUOTED} on splice sites.", False,
     "the quoted text and the sentence it comes from says 'std. err.' (standard-error), not standard-deviation"),
    ("standard-error", f"HyenaDNA reaches {QUOTED}; the std of the folds is in Table 5.", False,
     "names more than one kind of uncertainty, 'std. err.' (standard-error) and 'std' (standard-deviation)"),
])
def test_a_standard_error_is_not_read_as_a_standard_deviation(kind: str, page: str, passed: bool,
                                                                detail: str) -> None:
    from registry.checking.uncertainty import UncertaintyStated
    from registry.models.values import UncertaintyKind
    from review.pdf.pdftext import Extraction

    claim = UncertaintyStated("some-result", "uncertainty kind", 1, UncertaintyKind(kind), None, (5, "seeds"),
                              quote=QUOTED)
    got = claim.check(Extraction(pages=(page,), extractor="test"))
    assert got.passed is passed and detail in got.detail, got.detail


# -- two extractors -------------------------------------------------------------------------------


@needs_pdftotext
def test_where_the_extractors_disagree_the_claim_fails_and_says_so(readings: Readings) -> None:
    import dataclasses

    assert readings.second is not None
    pages = list(readings.second.pages)
    pages[1] = pages[1].replace("0.702", "0.720")
    doctored = Readings(readings.primary, dataclasses.replace(readings.second, pages=tuple(pages)))
    registry, _ = validate(REGISTRY)
    assertions = check_readings(plan_review(registry, R + "t1-nt-2-5b-h3k4me3").claims, doctored)
    quote = next(a for a in assertions if a.claim == "quote")
    assert not quote.passed
    assert "but pdftotext disagrees" in quote.detail
    assert quote in disagreements(assertions)


def test_without_pdftotext_the_review_says_so_and_checks_with_one(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(poppler, "find_pdftotext", lambda: None)
    found = read_pdf(PAPER)
    assert found.second is None
    assert found.second_missing is not None and "poppler-utils" in found.second_missing
    registry, _ = validate(REGISTRY)
    assertions = check_readings(plan_review(registry, R + "t1-nt-500m-h3k4me3").claims, found)
    assert all(a.passed and a.second is None for a in assertions)


@pytest.mark.parametrize("name", ["genomic-benchmarks-fixture/paper.pdf", "fpdf-fixture/paper.pdf"])
def test_every_table_cell_of_the_truth_files_is_read_by_both_extractors(name: str) -> None:
    """Each cell's whole printed text (value, ±, mark) where its row and column meet, in PDFium's words and
    in poppler's."""
    truth = json.loads((PAPERS / name).with_name("truth.json").read_text(encoding="utf-8"))
    found = read_pdf(PAPERS / name)
    cells = [n for n in truth["numbers"] if n["location"]["kind"] == "table-cell"]
    for extraction in found.all:
        misses = []
        for entry in cells:
            where = entry["location"]
            page = entry["page"]
            previous = extraction.page_words(page - 1) if page > 1 else None
            tables = read_tables(extraction.page_words(page), where["label"], previous)  # type: ignore[arg-type]
            row, column = " / ".join(where["row"]), " / ".join(where["column"])
            hit = next(((t, r[0], c[0]) for t in tables if (r := find_rows(t, row)) and (c := find_columns(t, column))),
                       None)
            if hit is None or squeezed(hit[0].cell(hit[1], hit[2]).text) != squeezed(where["cell_text"]):
                misses.append((entry["id"], hit and hit[0].cell(hit[1], hit[2]).text))
        assert misses == [], extraction.extractor


# -- bad input and limits ---------------------------------------------------------------------------


def test_a_scanned_pdf_without_text_gets_a_message(tmp_path: Path) -> None:
    from fpdf import FPDF

    from review.errors import PdfError

    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 100, 60, style="F")  # a picture of a page, no text layer
    path = tmp_path / "scan.pdf"
    pdf.output(str(path))
    with pytest.raises(PdfError, match="has no text to check"):
        read_pdf(path)


@pytest.mark.parametrize("content", [b"<!DOCTYPE html><html><body>sign in</body></html>", b"%PDF-1.7\n1 0 obj garbage"])
def test_what_is_not_a_pdf_gets_a_message(tmp_path: Path, content: bytes) -> None:
    from review.errors import PdfError

    path = tmp_path / "paper.pdf"
    path.write_bytes(content)
    with pytest.raises(PdfError) as caught:
        read_pdf(path)
    assert "Traceback" not in str(caught.value)
    assert caught.value.hint


def _review(tmp_path: Path, limits: ReviewLimits) -> Any:
    registry, _ = validate(REGISTRY)
    return run_review(registry, R + "t1-nt-500m-h3k4me3", pdf=PAPER, cache_dir=tmp_path / "cache", limits=limits)


def test_the_review_past_its_time_limit_is_stopped_with_a_message(tmp_path: Path) -> None:
    from review.errors import ReviewLimitError

    with pytest.raises(ReviewLimitError, match=r"the review ran longer than 0.2 s") as caught:
        _review(tmp_path, ReviewLimits(timeout=0.2))
    assert "{timeout}" in caught.value.hint


def test_the_review_past_its_memory_limit_is_stopped_with_a_message(tmp_path: Path) -> None:
    from review.errors import ReviewLimitError

    with pytest.raises(ReviewLimitError, match=r"needed more than 40 MB of memory and was stopped") as caught:
        _review(tmp_path, ReviewLimits(max_memory_mb=40))
    assert "{max_memory}" in caught.value.hint


def _fake_pdftotext(folder: Path, body: str) -> Path:
    """A 'pdftotext' first on PATH (the review's child process inherits the environment) that runs ``body``."""
    folder.mkdir()
    program = folder / "pdftotext"
    program.write_text(f'#!/bin/sh\nif [ "$1" = -v ]; then echo "pdftotext version 0.0.0" >&2; exit 0; fi\n{body}\n')
    program.chmod(0o755)
    return program


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")  # a zombie has stopped: it waits only for its parent to read its status


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")
def test_a_pdftotext_that_never_ends_is_killed_with_the_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pdftotext runs inside the review's child process: at the time limit the whole process group goes."""
    import time

    from review.errors import ReviewLimitError

    pids = tmp_path / "pids"
    _fake_pdftotext(tmp_path / "bin", f"echo $$ >> {pids}\nexec sleep 600")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    with pytest.raises(ReviewLimitError, match=r"the review ran longer than 8 s"):
        _review(tmp_path, ReviewLimits(timeout=8))
    started = [int(line) for line in pids.read_text().split()]
    assert len(started) == 2  # its text and its positioned words, read at once
    deadline = time.monotonic() + 5
    while any(_running(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_running(pid) for pid in started), "no pdftotext outlives the review"


def test_a_pdftotext_out_of_memory_gets_the_memory_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from review.errors import ReviewLimitError

    _fake_pdftotext(tmp_path / "bin", "cat > /dev/null\necho 'Out of memory' >&2\nexit 1")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    with pytest.raises(ReviewLimitError, match=r"needed more than 2,048 MB of memory and was stopped"):
        _review(tmp_path, ReviewLimits())


def test_a_failing_pdftotext_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from review.errors import PdfError

    _fake_pdftotext(tmp_path / "bin", "cat > /dev/null\necho 'Syntax Error: Couldn'\\''t read xref table' >&2\n"
                    "exit 1")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    with pytest.raises(PdfError, match=r"pdftotext failed on .*paper.pdf \(exit status 1\): Syntax Error: "
                       r"Couldn't read xref table"):
        _review(tmp_path, ReviewLimits())


def test_both_extractors_read_the_bytes_that_were_hashed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file is swapped right after it was read and hashed: pypdf, PDFium and pdftotext still read what was
    hashed (pdftotext is given the bytes on its standard input, never the file's name)."""
    from review.pdf import fetch

    copy = tmp_path / "paper.pdf"
    shutil.copyfile(PAPER, copy)
    real = fetch.read_pdf

    def read_then_swap(path: Path, max_bytes: int = fetch.DEFAULT_MAX_BYTES) -> bytes:
        data = real(path, max_bytes)
        path.write_bytes(GRIM_PAPER.read_bytes())  # another PDF, of the same layout, under the same name
        return data

    monkeypatch.setattr(fetch, "read_pdf", read_then_swap)
    registry, _ = validate(REGISTRY)
    run = run_review(registry, R + "t1-nt-500m-h3k4me3", pdf=copy, cache_dir=tmp_path / "cache")
    assert run.passed, [(a.claim, a.detail) for a in run.failures]
    reference = read_pdf(PAPER)
    assert run.extraction.sha256 == reference.primary.sha256
    if reference.second is not None:
        assert run.second is not None and run.second.sha256 == reference.second.sha256
    assert read_pdf(copy).primary.sha256 != reference.primary.sha256, "the swapped file reads differently"


# -- the command ----------------------------------------------------------------------------------


@needs_pdftotext
def test_write_files_a_review_with_both_hashes_and_the_cell_check(tmp_path: Path) -> None:
    import yaml

    records = _records(tmp_path)
    result = CliRunner().invoke(app, ["review", R + "t1-nt-2-5b-h3k4me3", "--records", str(records), "--pdf",
                                      str(PAPER), "--cache-dir", str(tmp_path / "cache"), "--write"])
    assert result.exit_code == 0, result.output
    written = next((records / "review").glob("*.yaml"))
    review = yaml.safe_load(written.read_text())
    assert "independent-cell-check" in review["methods"]
    assert review["extraction_sha256"] != review["second_extraction_sha256"]
    assert len(review["second_extraction_sha256"]) == 64
    assert "checked again with pdftotext" in review["method_note"]


def test_write_without_a_cell_names_no_cell_check(tmp_path: Path) -> None:
    import yaml

    records = _records(tmp_path)
    result = CliRunner().invoke(app, ["review", R + "s5-promoter-accuracy", "--records", str(records), "--pdf",
                                      str(PAPER), "--cache-dir", str(tmp_path / "cache"), "--write"])
    assert result.exit_code == 0, result.output
    review = yaml.safe_load(next((records / "review").glob("*.yaml")).read_text())
    assert "independent-cell-check" not in review["methods"]


def test_format_json_gives_every_assertion_and_both_extractions(tmp_path: Path) -> None:
    records = _records(tmp_path, "wrong-row")
    result = CliRunner().invoke(app, ["review", R + "t1-nt-2-5b-h3k4me3", "--records", str(records), "--pdf",
                                      str(PAPER), "--cache-dir", str(tmp_path / "cache"), "--format", "json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["passed"] is False and data["cells_checked"] == 1
    cell = next(a for a in data["assertions"] if a["claim"] == "table cell")
    assert cell["found"] == "row 'NT 500M', column 'Histone marks / H3K4me3'"
    assert data["extractions"][0]["extractor"].startswith("pypdf")


def test_the_table_shows_the_cell_found(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["review", R + "t3-nt-2-5b-latency", "--records", str(REGISTRY), "--pdf",
                                      str(PAPER), "--cache-dir", str(tmp_path / "cache")], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "Cell found" in result.output and "row 'NT 2.5B', column 'Latency (ms)'" in result.output


def test_a_bad_format_gets_a_message(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["review", SOURCE, "--records", str(REGISTRY), "--format", "xml"])
    assert result.exit_code == 1
    assert "unknown format 'xml'" in result.output


def test_format_json_says_why_when_the_review_cannot_run(tmp_path: Path) -> None:
    """A tool reading the report must see that there is none: the error, as JSON, on standard output."""
    result = CliRunner().invoke(app, ["review", R + "t1-nt-500m-h3k4me3", "--records", str(REGISTRY), "--pdf",
                                      str(GRIM_PAPER), "--cache-dir", str(tmp_path / "cache"), "--format", "json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["passed"] is False
    assert "is not the pinned source" in data["error"]["message"] and "--pdf" in data["error"]["hint"]


def test_a_derived_value_of_a_large_magnitude_is_recomputed_without_a_crash(readings: Readings) -> None:
    # Decimal.quantize raised InvalidOperation once the worked value had more digits than the context holds.
    from registry.checking.consistency import DerivedConsistent

    claim = DerivedConsistent(record_id="r", claim="derived", printed="2.0e30", operation="ratio",
                              inputs=("4.0e58", "2.0e28"), sources=("a", "b"))
    assertion = claim.check(readings.primary)
    assert assertion.passed, assertion.detail
    assert "4.0e58 / 2.0e28" in assertion.matched or "/" in assertion.matched
