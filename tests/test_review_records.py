"""`registry review --write` on the fixture registry: a review record for every reviewed result, whatever its verdict;
a failed one reads "review failed", with what the page printed, on its page, in `registry show`, in SQL and in the
exports.

The registry is tests/data/fixture-registry with one result mistranscribed (tests/data/review-tampered/wrong-row:
Table 1's NT 500M value filed for NT 2.5B, with another uncertainty); the review reads the fixture paper.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from registry.models import Result, Review
from registry.page.kinds import build_page
from registry.site.html import Links, render_blocks
from registry.status import provenance
from registry.status.standing import standing_of
from registry.store.loader import Registry
from registry.validate.runner import validate
from review.pdf import poppler
from tests.conftest import DATA

pytestmark = [pytest.mark.pdf, pytest.mark.skipif(poppler.find_pdftotext() is None,
                                                  reason="poppler-utils is not installed")]

PAPER = DATA / "papers" / "genomic-benchmarks-fixture" / "paper.pdf"
SOURCE = "fixture-genomic-20261201-source-genomic-benchmarks-fixture"
WRONG = "fixture-genomic-20261201-result-t1-nt-2-5b-h3k4me3"
#: What the page prints in the cell the wrong record cites (the record says 0.681, Table 1's NT 500M value).
PRINTED = "row 'NT 2.5B' has 0.702 there"


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Registry, Any]:
    from typer.testing import CliRunner

    from registry.cli import app

    records = tmp_path_factory.mktemp("reviewed") / "records"
    shutil.copytree(DATA / "fixture-registry", records)
    for path in (DATA / "review-tampered" / "wrong-row").rglob("*.yaml"):
        shutil.copyfile(path, records / path.relative_to(DATA / "review-tampered" / "wrong-row"))
    cache = records.parent / "cache"
    result = CliRunner().invoke(app, ["review", SOURCE, "--records", str(records), "--pdf", str(PAPER), "--cache-dir",
                                      str(cache), "--write", "--format", "json"])
    registry, report = validate(records)
    assert report.valid, [i.message for i in report.errors]
    return records, registry, result


def test_every_reviewed_result_has_a_review_record_whatever_its_verdict(reviewed: tuple[Path, Registry, Any]) -> None:
    records, registry, result = reviewed
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    written = {entry["id"]: entry["status"] for entry in data["reviews_written"]}
    subjects = {subject for review in registry.of_kind(Review) if review.id in written for subject in review.subjects}
    assert subjects == set(data["subjects"]) and len(written) == len(subjects)
    for result_record in registry.of_kind(Result):
        assert provenance.review_status(registry, result_record.id) is not None, result_record.id
    assert sorted(set(written.values())) == ["review-failed", "source-checked"]
    (failed,) = [r for r in registry.of_kind(Review) if r.status.value == "review-failed"]
    assert failed.subjects == [WRONG] and failed.artifact_sha256 == registry.records[SOURCE].sha256  # type: ignore[attr-defined]
    assert [e.split(" ")[0] for e in failed.extractors] == ["pypdf", "pdftotext"]
    assert failed.reviewer and failed.reviewer.startswith("registry review/ ") and failed.reviewed_at is not None
    cell = next(c for c in failed.claims if c.claim == "table cell")
    assert cell.verdict.value == "fail" and "'0.681'" in cell.asserted and PRINTED in (cell.detail or "")
    assert {w.witness.split(" ")[0] for w in cell.witnesses} == {"pypdf", "pdftotext"}


def test_the_failed_result_reads_review_failed_with_what_the_page_printed_on_its_page(
        reviewed: tuple[Path, Registry, Any]) -> None:
    _, registry, _ = reviewed
    page = build_page(registry.records[WRONG], registry)
    html = " ".join(unescape(str(render_blocks(page.blocks, Links(root="", urls={})))).split())
    assert "review failed" in html and PRINTED in html
    passed = " ".join(str(render_blocks(build_page(registry.records[SOURCE.replace("source-genomic-benchmarks-fixture",
                                                                                   "result-t3-nt-500m-latency")],
                                                   registry).blocks, Links(root="", urls={}))).split())
    assert "source checked" in passed and "review failed" not in passed


def test_registry_show_says_review_failed_with_what_the_page_printed(cli, reviewed: tuple[Path, Registry, Any]) -> None:  # type: ignore[no-untyped-def]
    records, _, _ = reviewed
    shown = cli("show", WRONG, "--records", records)
    assert shown.exit_code == 0, shown.output
    out = " ".join(shown.output.split())
    assert "(display value 0.681; review failed)" in out and PRINTED in out
    assert "Reviews, latest first:" in out


def test_sql_says_review_failed_with_what_the_page_printed(cli, reviewed: tuple[Path, Registry, Any],  # type: ignore[no-untyped-def]
                                                           tmp_path: Path) -> None:
    records, registry, _ = reviewed
    database = tmp_path / "reviewed.db"
    assert cli("db", "build", "--records", records, "--out", database).exit_code == 0
    with sqlite3.connect(database) as connection:
        flat = connection.execute("SELECT review_status, review_label, review_found, standing FROM results_flat "
                                  "WHERE result_id = ?", (WRONG,)).fetchone()
        claims = connection.execute("SELECT claim, verdict, page, detail FROM failed_claims WHERE record_id = ?",
                                    (WRONG,)).fetchall()
        statuses = dict(connection.execute("SELECT review_status, COUNT(*) FROM results_flat GROUP BY 1").fetchall())
        standings = dict(connection.execute("SELECT record_id, standing FROM record_review_status").fetchall())
    assert flat[:2] == ("review-failed", "review failed") and PRINTED in flat[2] and flat[3] == "review-failed"
    assert ("table cell", "fail", 2) in [c[:3] for c in claims] and any(PRINTED in c[3] for c in claims)
    assert statuses == {"review-failed": 1, "source-checked": len(registry.of_kind(Result)) - 1}
    assert standings == {record.id: ", ".join(standing_of(registry, record).facts)
                         for record in registry.records.values()}, "SQL and Python derive one standing"


@pytest.mark.parametrize("format_name", ["csv", "every-eval-ever", "prov"])
def test_each_export_says_review_failed_with_what_the_page_printed(cli, reviewed: tuple[Path, Registry, Any],  # type: ignore[no-untyped-def]
                                                                   tmp_path: Path, format_name: str) -> None:
    records, _, _ = reviewed
    out = tmp_path / format_name
    exported = cli("export", "--format", format_name, "--records", records, "--out", out)
    assert exported.exit_code == 0, exported.output
    text = " ".join(" ".join(p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file()).split())
    assert "review failed" in text and PRINTED in text.replace('""', '"')


def test_the_hub_export_carries_the_standing_in_its_notes(reviewed: tuple[Path, Registry, Any]) -> None:
    from registry.export.hf_eval_results import _notes

    _, registry, _ = reviewed
    notes = _notes(registry, registry.get_as(WRONG, Result))
    assert "review failed: table cell" in notes and PRINTED in notes


def test_a_failed_review_of_a_corrected_values_replacement_is_filed(reviewed: tuple[Path, Registry, Any],
                                                                     tmp_path: Path) -> None:
    """An author's erratum replaces a source-checked value; the pinned PDF still prints the old one, so the review
    of the replacement fails, and that review is filed (it is the replacement's own review, whatever its verdict)."""
    from typer.testing import CliRunner

    from registry.cli import app

    records = tmp_path / "records"
    shutil.copytree(reviewed[0], records)
    overlay = DATA / "attestations"
    for path in overlay.rglob("*.yaml"):
        (records / path.relative_to(overlay)).parent.mkdir(exist_ok=True)
        shutil.copyfile(path, records / path.relative_to(overlay))
    erratum = "fixture-genomic-20261205-result-t3-nt-500m-latency-erratum"
    result = CliRunner().invoke(app, ["review", erratum, "--records", str(records), "--pdf", str(PAPER),
                                      "--cache-dir", str(tmp_path / "cache"), "--write"])
    assert result.exit_code == 1 and "(review failed)" in result.output, result.output
    registry, report = validate(records)
    assert report.valid, [(i.code, i.message) for i in report.errors]
    assert not [i for i in report.issues if i.code == "correction-unreviewed"], "it has a review of its own"
    standing = standing_of(registry, registry.records[erratum])
    assert standing.review_label == "review failed" and any("17.4" in f.words for f in standing.findings)
