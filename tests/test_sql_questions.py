"""The five questions of docs/sql.md, each one short query, run from the file as written: on the fixture registry
reviewed (one result mistranscribed, so its review failed) with attestations filed, and on the bundled records (which
hold our reproductions)."""

from __future__ import annotations

import json
import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from registry.models import Reproduction, Result
from registry.status.value_roles import SCORES, role_of
from registry.status.versions import current_only
from registry.store.loader import Registry
from registry.validate.runner import validate
from review.pdf import poppler
from tests.conftest import DATA, ROOT

DOC = ROOT / "docs" / "sql.md"
SOURCE = "fixture-genomic-20261201-source-genomic-benchmarks-fixture"
PAPER = DATA / "papers" / "genomic-benchmarks-fixture" / "paper.pdf"
WRONG = "fixture-genomic-20261201-result-t1-nt-2-5b-h3k4me3"
DISPUTED = "fixture-genomic-20261201-result-t3-hyenadna-latency"
ERRATUM = "fixture-genomic-20261205-result-t3-nt-500m-latency-erratum"


def questions() -> dict[str, str]:
    """Each ```sql NAME block of docs/sql.md, by name."""
    return dict(re.findall(r"```sql ([a-z-]+)\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S))


def test_the_doc_asks_five_short_questions() -> None:
    asked = questions()
    assert list(asked) == ["best-per-benchmark", "values-of-one-pdf", "failed-or-unchecked",
                           "transcribed-beside-reproduced", "missing-metadata"]
    assert all(len(sql.strip().splitlines()) <= 12 for sql in asked.values()), "each question is one short query"


@pytest.fixture(scope="module")
def fixture_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Registry]:
    from typer.testing import CliRunner

    from registry.cli import app

    if poppler.find_pdftotext() is None:
        pytest.skip("poppler-utils is not installed")
    records = tmp_path_factory.mktemp("questions") / "records"
    shutil.copytree(DATA / "fixture-registry", records)
    for overlay in (DATA / "review-tampered" / "wrong-row", DATA / "attestations"):
        for path in overlay.rglob("*.yaml"):
            (records / path.relative_to(overlay)).parent.mkdir(exist_ok=True)
            shutil.copyfile(path, records / path.relative_to(overlay))
    runner = CliRunner()
    reviewed = runner.invoke(app, ["review", SOURCE, "--records", str(records), "--pdf", str(PAPER), "--cache-dir",
                                   str(records.parent / "cache"), "--write"])
    assert "Wrote" in reviewed.output, reviewed.output
    database = records.parent / "registry.db"
    assert runner.invoke(app, ["db", "build", "--records", str(records), "--out", str(database)]).exit_code == 0
    registry, report = validate(records)
    assert report.valid
    return database, registry


def ask(cli, database: Path, name: str) -> list[dict]:  # type: ignore[no-untyped-def]
    result = cli("query", questions()[name], "--db", database, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.pdf
def test_best_value_per_benchmark_where_comparable(cli, fixture_db: tuple[Path, Registry]) -> None:  # type: ignore[no-untyped-def]
    database, registry = fixture_db
    rows = ask(cli, database, "best-per-benchmark")
    groups: dict[tuple[str, ...], list[Result]] = {}
    for result in current_only(registry, registry.of_kind(Result)):
        evaluation = registry.records[result.evaluation]
        if (role_of(registry, result) in SCORES and result.metric_direction is not None and result.bound is None
                and result.range_upper is None):
            key = (evaluation.dataset, evaluation.protocol, result.metric, result.unit)  # type: ignore[attr-defined]
            groups.setdefault(key, []).append(result)
    assert len(rows) == len(groups)
    for group in groups.values():
        pick = max if group[0].metric_direction.value == "higher" else min  # type: ignore[union-attr]
        best = pick(result.numeric_value for result in group)
        (row,) = [row for row in rows if row["result_id"] in {r.id for r in group}]
        assert Decimal(row["numeric_value"]) == best
    latency = next(row for row in rows if row["result_id"] == DISPUTED)
    assert "disputed" in latency["standing"] and latency["printed_value"] == "2.5", "a dispute never replaces a value"


@pytest.mark.pdf
def test_values_of_one_pdf_with_where_it_prints_them(cli, fixture_db: tuple[Path, Registry]) -> None:  # type: ignore[no-untyped-def]
    database, registry = fixture_db
    rows = ask(cli, database, "values-of-one-pdf")
    printed = [r for r in current_only(registry, registry.of_kind(Result)) if r.source == SOURCE]
    assert {row["result_id"] for row in rows} == {r.id for r in printed}
    assert all(row["page"] is not None and row["quote"] for row in rows)


@pytest.mark.pdf
def test_values_whose_review_failed_with_what_the_page_showed(cli, fixture_db: tuple[Path, Registry]) -> None:  # type: ignore[no-untyped-def]
    database, _ = fixture_db
    rows = ask(cli, database, "failed-or-unchecked")
    assert {row["record_id"] for row in rows} == {WRONG, ERRATUM}, "an erratum's value is not what the PDF prints"
    cell = next(row for row in rows if row["claim"] == "table cell" and row["record_id"] == WRONG)
    assert cell["review_status"] == "review-failed" and cell["page"] == 2
    assert "row 'NT 2.5B' has 0.702 there" in cell["detail"]


def test_transcribed_beside_reproduced(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    database = tmp_path / "bundled.db"
    assert cli("db", "build", "--records", ROOT / "records", "--out", database).exit_code == 0
    rows = ask(cli, database, "transcribed-beside-reproduced")
    registry, _ = validate(ROOT / "records")
    runs = registry.of_kind(Reproduction)
    assert len(rows) == len(runs) > 0
    assert {row["method"] for row in rows} == {run.method.value for run in runs}
    assert all(row["transcribed_printed_value"] for row in rows)


@pytest.mark.pdf
def test_missing_metadata_with_reasons(cli, fixture_db: tuple[Path, Registry]) -> None:  # type: ignore[no-untyped-def]
    database, registry = fixture_db
    rows = ask(cli, database, "missing-metadata")
    expected = sorted((r.id, m.field, m.reason.value) for r in registry.records.values() for m in r.missing_metadata)
    assert sorted((row["record_id"], row["field"], row["reason"]) for row in rows) == expected
