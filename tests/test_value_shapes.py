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
    "unit-printed-of-another-unit": ("unit-detail-mismatch", "unit_printed says the value is printed as 'ms', which "
                                     "is how millisecond is printed, but the unit is gigabyte",
                                     "saadat-fellay-20261015-result-unit-as-printed.yaml"),
    "locator-uncertainty-column-alone": ("schema-value-error", "an uncertainty's column is beside the value's",
                                         "saadat-fellay-20261015-result-subtable-cell.yaml"),
    "locator-subtable-alone": ("schema-value-error", "a sub-table '(b)' belongs to a table or figure",
                               "saadat-fellay-20261015-result-subtable-cell.yaml"),
    "bound-without-its-sign": ("value-not-in-quote", "printed value '< 2.7 × 10^-3' is not in its quote",
                               "saadat-fellay-20261015-result-bound-p-value.yaml"),
    "bound-sign-unknown": ("schema-enum", "'<', '\u2264', '>' or '\u2265'", "saadat-fellay-20261015-result-bound-p-value.yaml"),
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


BOUND = "saadat-fellay-20261015-result-bound-p-value"
COUNT = "saadat-fellay-20261015-result-count-without-direction"


def _review(value: str, sentence: str) -> bool:
    from review.claims import ValueInQuote
    from review.pdftext import Extraction

    claim = ValueInQuote(BOUND, "printed value", 1, sentence, value)
    return claim.check(Extraction(pages=(f"Results: {sentence}. Done.",), extractor="test")).passed


def test_review_checks_a_bound_with_its_sign() -> None:
    assert _review("< 2.7 × 10^-3", "the saving is significant (p < 2.7 × 10\u22123)")
    assert _review("\u2264 0.05", "at p <= 0.05 throughout")
    assert not _review("< 2.7 × 10^-3", "the saving is significant (p = 2.7 × 10\u22123)")
    assert not _review("< 2.7 × 10^-3", "the saving is significant (p > 2.7 × 10\u22123)")


def test_a_bound_and_a_count_are_shown_built_and_exported(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import json
    import sqlite3

    _with(records_dir, SHAPES / "valid" / "bound")
    _with(records_dir, SHAPES / "valid" / "direction")
    shown = cli("show", BOUND, "--records", records_dir)
    assert shown.exit_code == 0 and "< 2.7 × 10^-3" in shown.output, shown.output
    built = cli("db", "build", "--records", records_dir, "--out", tmp_path / "registry.db")
    assert built.exit_code == 0, built.output
    with sqlite3.connect(tmp_path / "registry.db") as db:
        rows = dict(db.execute("SELECT id, bound FROM result WHERE id IN (?, ?)", (BOUND, COUNT)).fetchall())
        direction = db.execute("SELECT metric_direction FROM result WHERE id = ?", (COUNT,)).fetchone()
    assert rows == {BOUND: "<", COUNT: None} and direction == (None,)
    exported = cli("export", "--format", "every-eval-ever", "--records", records_dir, "--out", tmp_path / "eee")
    assert exported.exit_code == 0, exported.output
    left_out = {entry["record"]: entry.get("reason") for entry in
                json.loads((tmp_path / "eee" / "registry-export.json").read_text())["not_carried"]}
    assert left_out[BOUND] == "it is a bound ('< 2.7 × 10^-3'), and the schema's score is a value"
    assert left_out[COUNT] == "its metric has no direction, and the schema requires lower_is_better"


def test_a_locator_reads_its_subtable_and_uncertainty_column() -> None:
    from registry.models.values import Locator

    locator = Locator(table="Table 9", subtable="(b)", row="NT 2.5B", column="Memory", uncertainty_column="SE", page=6)
    assert locator.text == "Table 9 (b) (page 6), row 'NT 2.5B', column 'Memory', uncertainty in column 'SE'"


@pytest.mark.parametrize(("detail", "form"), [
    ("Printed as GB", "GB"),
    ("Printed as 'in percent' in the column header", "in percent"),  # quoted: the form whole, not 'in'
    ("Printed as \u2018img/s\u2019", "img/s"),
    ("Printed as sequences per second", "sequences per second"),
])
def test_an_older_unit_detail_still_names_its_form(detail: str, form: str) -> None:
    from registry.units import printed_as

    assert printed_as(detail) == form


def test_review_reads_the_typed_printed_unit() -> None:
    import yaml

    from registry.models import Result
    from review.claims import unit_symbols

    path = SHAPES / "valid" / "unit-printed" / "result" / "saadat-fellay-20261015-result-unit-as-printed.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert unit_symbols(Result.model_validate(data)) == (("GB",), [])
    data.update(unit_printed=None, unit_detail="Printed as 'GB' in the sentence")  # an older record's sentence
    assert unit_symbols(Result.model_validate(data)) == (("GB",), [])
