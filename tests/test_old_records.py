"""Records an earlier version wrote keep working: ``registry validate`` names the command that brings them to
today's form, and ``registry fmt`` does it.

``tests/data/old-registry`` holds a record written by commit 370d446 (its README says how), with
``unit_detail: Printed as 'in percent'``, the form the README asked for before ``unit_printed``: it is laid over a
copy of the fixture registry (the same records that commit held).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from registry.checking.claims import UnitDetailAgrees, detail_disagrees, unit_symbols
from registry.cli import app
from registry.curate.fmt import canonical_text, upgraded
from registry.models import Result
from registry.validate.runner import validate

DATA = Path(__file__).parent / "data"
OLD = DATA / "old-registry"
RECORD = "old-curator-20261201-result-promoter-accuracy-in-percent"
PAPER = DATA / "papers" / "genomic-benchmarks-fixture" / "paper.pdf"


@pytest.fixture
def records(tmp_path: Path) -> Path:
    root = tmp_path / "records"
    shutil.copytree(DATA / "fixture-registry", root)
    for path in OLD.rglob("*.yaml"):
        shutil.copyfile(path, root / path.relative_to(OLD))
    return root


def _file(records: Path) -> Path:
    return records / "result" / f"{RECORD}.yaml"


def test_validate_names_the_command_that_upgrades_an_old_unit_detail(records: Path) -> None:
    _, report = validate(records)
    assert report.valid
    (issue,) = [i for i in report.issues if i.code == "unit-detail-old-form"]
    assert issue.record_id == RECORD and issue.field == "unit_detail"
    assert issue.message == ("unit_detail says the value is printed as 'in percent', a phrase older records quote "
                             "whole; the unit's own form in it is 'percent': run 'registry fmt' to write "
                             "unit_printed: percent (the sentence is kept)")


def test_fmt_brings_the_old_record_to_todays_form_and_validate_is_then_quiet(records: Path) -> None:
    result = CliRunner().invoke(app, ["fmt", "--records", str(records)])
    assert result.exit_code == 0, result.output
    text = _file(records).read_text(encoding="utf-8")
    assert "unit_printed: percent\n" in text and "unit_detail: Printed as 'in percent'\n" in text
    registry, report = validate(records)
    assert report.valid and not [i for i in report.issues if i.code == "unit-detail-old-form"]
    assert registry.get(RECORD).unit_printed == "percent"  # type: ignore[union-attr]
    again = CliRunner().invoke(app, ["fmt", "--records", str(records), "--check"])
    assert again.exit_code == 0, again.output


def test_the_upgrade_leaves_todays_records_and_other_units_phrases_alone(records: Path) -> None:
    registry, _ = validate(records)
    old = registry.get(RECORD)
    assert isinstance(old, Result) and upgraded(old).unit_printed == "percent"
    for path in (DATA / "fixture-registry" / "result").glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert canonical_text(text) == text, path.name  # 'Printed as GB' and the rest stay as they are
    count = old.model_copy(update={"unit": "count", "unit_detail": "Printed as 'in ms'"})
    assert upgraded(count).unit_printed is None  # a phrase of another unit's form is no form of its own


def test_a_phrase_holding_the_units_own_form_is_no_disagreement() -> None:
    assert not detail_disagrees("in percent", "percent")
    assert detail_disagrees("in percent", "gigabyte")  # the phrase holds another unit's form, not its own
    got = UnitDetailAgrees("r", "unit detail = unit", "gigabyte", "in percent").check(None)  # type: ignore[arg-type]
    assert not got.passed and got.expected == "'in percent' is how gigabyte is printed"


@pytest.mark.pdf
def test_the_old_record_reviews_as_right_before_and_after_fmt(records: Path, tmp_path: Path) -> None:
    from registry.checking.agreement import check_readings
    from registry.checking.review import plan_review
    from review.pdf.extract import read_pdf

    readings = read_pdf(PAPER)
    for step in ("before", "after"):
        registry, _ = validate(records)
        record = registry.get(RECORD)
        assert isinstance(record, Result)
        assert "percent" in unit_symbols(record)[0]
        checked = check_readings(plan_review(registry, RECORD).claims, readings)
        unit = [a for a in checked if a.record_id == RECORD and a.claim.startswith("unit")]
        assert unit and all(a.passed for a in unit), (step, [(a.claim, a.outcome, a.detail) for a in unit])
        CliRunner().invoke(app, ["fmt", "--records", str(records)])
