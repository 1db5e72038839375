"""Shapes of a printed value beside the single number: a metric without a direction (a count), and the cases
under tests/data/shapes (valid ones validate cleanly, each invalid one reports its code and message)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from registry.models import Result
from registry.validate.runner import validate
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
    "range-not-rising": ("value-mismatch", "range '12\u201311' does not rise: its upper end 11 must exceed its lower "
                         "end 12", "saadat-fellay-20261015-result-range-peak-memory.yaml"),
    "range-upper-not-in-quote": ("value-not-in-quote", "printed value '12\u201315' is not in its quote",
                                 "saadat-fellay-20261015-result-range-peak-memory.yaml"),
    "range-derived": ("derived-inputs", "a range is not one value, so the derivation cannot be recomputed from it: "
                      "saadat-fellay-20261015-result-range-peak-memory (12\u201315)",
                      "saadat-fellay-20261015-result-range-peak-memory.yaml"),
    "range-and-bound": ("schema-value-error", "a value is a bound or a range, not both",
                        "saadat-fellay-20261015-result-range-peak-memory.yaml"),
    "interval-only-midpoint": ("value-not-in-quote", "printed value '0.64' is not in its quote",
                               "saadat-fellay-20261015-result-interval-only-auroc.yaml"),
    "unit-record-float-factor": ("schema-value-error", "factor is a YAML float, which cannot hold decimals exactly",
                                 "saadat-fellay-20261015-unit-petabyte.yaml"),
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
    from registry.checking.claims import ValueInQuote
    from review.pdf.pdftext import Extraction

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

    from registry.checking.claims import unit_symbols
    from registry.models import Result

    path = SHAPES / "valid" / "unit-printed" / "result" / "saadat-fellay-20261015-result-unit-as-printed.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert unit_symbols(Result.model_validate(data)) == (("GB",), [])
    data.update(unit_printed=None, unit_detail="Printed as 'GB' in the sentence")  # an older record's sentence
    assert unit_symbols(Result.model_validate(data)) == (("GB",), [])


RANGE = "saadat-fellay-20261015-result-range-peak-memory"


@pytest.mark.parametrize(("value", "sentence", "passed"), [
    ("12\u201315", "peak memory stays at 12\u201315 GB", True),
    ("12\u201315", "peak memory stays at 12 - 15 GB", True),
    ("12\u201315", "peak memory stays at 12 to 15 GB", True),
    ("\u22125\u2013\u22123", "the change is \u22125 to \u22123 points", True),
    ("12\u201315", "peak memory stays at 12 GB, 15 GB with offloading", False),  # both numbers, no range
    ("12\u201315", "peak memory stays at 12\u2013155 GB", False),  # the upper end is another number
    ("12\u201315", "peak memory stays at 112\u201315 GB", False),  # and the lower end
    ("\u22125\u2013\u22123", "the change is 5 to 3 points", False),  # the signs dropped
])
def test_review_checks_a_range_with_both_ends(value: str, sentence: str, passed: bool) -> None:
    assert _review(value, sentence) is passed


def test_a_range_is_shown_built_and_left_out_of_exports(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import json
    import sqlite3

    from registry.export.hf_eval_results import _target
    from registry.page.blocks import text_of
    from registry.page.display import result_display, result_exact
    from registry.page.kinds import build_page

    _with(records_dir, SHAPES / "valid" / "range")
    shown = cli("show", RANGE, "--records", records_dir)
    assert shown.exit_code == 0 and "12\u201315 GB" in shown.output, shown.output
    registry, _ = validate(records_dir, cache=False)
    result = registry.records[RANGE]
    assert isinstance(result, Result)
    assert (result.as_printed, result_display(result), result_exact(result)) == ("12\u201315", "12\u201315", "12\u201315")
    headline = build_page(result, registry).blocks[0].content  # type: ignore[union-attr]
    assert text_of(headline).startswith("12\u201315 GB · Peak memory"), text_of(headline)
    assert not [p for p in headline if p.exact == "12"]  # never the lower end alone as the value
    built = cli("db", "build", "--records", records_dir, "--out", tmp_path / "registry.db")
    assert built.exit_code == 0, built.output
    with sqlite3.connect(tmp_path / "registry.db") as db:
        row = db.execute("SELECT printed_value, numeric_value, range_upper_printed_value, range_upper_numeric_value, "
                         "range_upper_numeric_value_float FROM result WHERE id = ?", (RANGE,)).fetchone()
    assert row == ("12", "12", "15", "15", 15.0)
    exported = cli("export", "--format", "every-eval-ever", "--records", records_dir, "--out", tmp_path / "eee")
    assert exported.exit_code == 0, exported.output
    left_out = {entry["record"]: entry.get("reason") for entry in
                json.loads((tmp_path / "eee" / "registry-export.json").read_text())["not_carried"]}
    assert left_out[RANGE] == "it is a range ('12\u201315'), and the schema's score is a value"
    assert _target(registry, result, {}, {}) == (None, "it is a range ('12\u201315'), and a Hub score is a value")
