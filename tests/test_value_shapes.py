"""Shapes of a printed value beside the single number: a metric without a direction (a count), and the cases
under tests/data/shapes (valid ones validate cleanly, each invalid one reports its code and message)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from registry.checks import validate
from tests.conftest import DATA

SHAPES = DATA / "shapes"

#: Each invalid case: the code it reports, a part of the message, and the file it names.
INVALID = {
    "direction-unexplained": ("missing-unexplained", "metric_direction",
                              "saadat-fellay-20261015-result-count-without-direction.yaml"),
}


def _with(records_dir: Path, case: Path) -> Path:
    shutil.copytree(case, records_dir, dirs_exist_ok=True)
    return records_dir


@pytest.mark.parametrize("case", sorted(p.name for p in (SHAPES / "valid").iterdir()))
def test_a_valid_shape_validates_cleanly(records_dir: Path, case: str) -> None:
    added = {p.stem for p in (SHAPES / "valid" / case).rglob("*.yaml")}
    _, report = validate(_with(records_dir, SHAPES / "valid" / case), cache=False)
    assert report.valid, [(i.code, i.message) for i in report.errors]
    assert not [i for i in report.issues if i.record_id in added], [(i.code, i.message) for i in report.issues]


@pytest.mark.parametrize("case", sorted(INVALID))
def test_an_invalid_shape_reports_its_code_and_message(records_dir: Path, case: str) -> None:
    code, fragment, where = INVALID[case]
    _, report = validate(_with(records_dir, SHAPES / "invalid" / case), cache=False)
    matching = [i for i in report.issues if i.code == code and fragment in i.message]
    assert matching, [(i.code, i.message) for i in report.issues]
    assert any(where in i.location for i in matching)


def test_every_invalid_case_is_listed() -> None:
    assert sorted(p.name for p in (SHAPES / "invalid").iterdir()) == sorted(INVALID)
