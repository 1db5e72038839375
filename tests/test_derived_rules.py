"""Derived values and uncertainties on the fixture registry: right transcriptions pass, wrong ones name the numbers.

Each case edits one result of tests/data/fixture-registry (a copy) and validates: the cases come from a reading
of the rules for inputs their first tests missed (exponent forms, units that an operation cannot yield, the two
conventions of a standard deviation, uncertainty printed word for word).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from registry.validate.runner import validate
from tests.conftest import DATA

FIXTURE = DATA / "fixture-registry"
R = "fixture-genomic-20261201-result-"
REDUCTION = R + "s5-1-lora-memory-reduction"  # (31.62 - 10.75) / 31.62 = 66 %
DELTA = R + "t2-splice-delta"  # 0.953 - 0.951 = +0.002
SPREAD = R + "t1-hyenadna-h3k27ac"  # 0.671 ± 0.022 over 10 folds (sample s.d. 0.0220, population 0.0209)

Edit = Callable[[dict[str, Any]], None]


def issues(tmp_path: Path, record: str, edit: Edit) -> list[tuple[str, str]]:
    records = tmp_path / "records"
    shutil.copytree(FIXTURE, records)
    path = records / "result" / f"{record}.yaml"
    data = yaml.safe_load(path.read_text())
    edit(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    _, report = validate(records)
    return [(i.code, i.message) for i in report.issues]


def values(printed: str, unit: str | None = None, operation: str | None = None) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        quote = data["source_locator"].get("quote")
        if quote is not None:  # the source prints what is transcribed (else value-not-in-quote)
            data["source_locator"]["quote"] = quote.replace(data["printed_value"], printed)
        data["printed_value"] = data["numeric_value"] = printed
        if unit is not None:
            data["unit"] = unit
        if operation is not None:
            data["derived"]["operation"] = operation
    return edit


@pytest.mark.parametrize(("edit", "message"), [
    (values("-20.87", "percent", "difference"), "a difference of values in gigabyte is in gigabyte, not percent"),
    (values("-20.87", "second", "difference"), "a difference of values in gigabyte is in gigabyte, not second"),
    (values("0.34", "gigabyte", "ratio"), "a ratio is in times or dimensionless or percent, not gigabyte"),
    (values("0.66", "percentage-point"), "a reduction is in percent or dimensionless, not percentage-point"),
    (values("0.66", "megabyte"), "a reduction is in percent or dimensionless, not megabyte"),
])
def test_a_derived_result_is_in_a_unit_its_operation_yields(tmp_path: Path, edit: Edit, message: str) -> None:
    found = issues(tmp_path, REDUCTION, edit)
    assert ("derived-inputs", f"{message}; give the result the unit its operation yields") in found, found


@pytest.mark.parametrize(("printed", "ok"), [("2e-3", True), ("+0.002", True), ("4e-2", False), ("-4e-1", False)])
def test_a_number_in_exponent_form_keeps_its_rounding(tmp_path: Path, printed: str, ok: bool) -> None:
    found = issues(tmp_path, DELTA, values(printed))
    assert (not found) if ok else [code for code, _ in found] == ["derived-mismatch"], found


def test_a_large_exponent_never_breaks_the_message(tmp_path: Path) -> None:
    """1e26 FLOP differences once made 'registry validate' fail with an unexpected InvalidOperation."""
    def flops(printed: str) -> Edit:
        def edit(data: dict[str, Any]) -> None:
            data.update(printed_value=printed, numeric_value=printed, unit="flop")
            data.pop("derived", None)
        return edit
    records = tmp_path / "records"
    shutil.copytree(FIXTURE, records)
    for record, printed in ((R + "s5-1-full-peak-memory", "3.1e26"), (R + "s5-1-lora-peak-memory", "1.2e26")):
        path = records / "result" / f"{record}.yaml"
        data = yaml.safe_load(path.read_text())
        flops(printed)(data)
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    path = records / "result" / f"{REDUCTION}.yaml"
    data = yaml.safe_load(path.read_text())
    data.update(printed_value="1e26", numeric_value="1e26", unit="flop")
    data["derived"]["operation"] = "difference"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    _, report = validate(records)
    [issue] = [i for i in report.errors if i.code == "derived-mismatch"]
    assert "printed 1e26, but 1.2e26 - 3.1e26 = -1.90e+26 (between -2.00e+26 and -1.80e+26" in issue.message


def uncertainty(**fields: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        data["uncertainty"] = fields
    return edit


@pytest.mark.parametrize(("edit", "expected"), [
    (uncertainty(kind="confidence-interval", printed="95% CI [0.64, 0.70]", lower="0.64", upper="0.70",
                 level="95"), []),
    (uncertainty(kind="confidence-interval", printed="[0.64,0.70]", lower="0.64", upper="0.70", level="95"), []),
    (uncertainty(kind="min-max", printed="0.64\u20130.70", lower="0.64", upper="0.70"), []),
    (uncertainty(kind="min-max", printed="[\u22120.05, 0.70]", lower="-0.05", upper="0.70"), []),
    (uncertainty(kind="standard-deviation", printed="\u00b1 2.2e-2", half_width="0.022"), []),
    (uncertainty(kind="standard-deviation", printed="\u22120.022", half_width="0.022"), ["uncertainty-mismatch"]),
    (uncertainty(kind="standard-deviation", printed="\u00b1 0.021", half_width="0.021"), []),  # numpy's ddof=0
    (uncertainty(kind="standard-deviation", printed="\u00b1 0.031", half_width="0.031"), ["derived-mismatch"]),
])
def test_an_uncertainty_printed_word_for_word_passes_and_a_wrong_one_fails(tmp_path: Path, edit: Edit,
                                                                           expected: list[str]) -> None:
    found = issues(tmp_path, SPREAD, edit)
    assert sorted({code for code, _ in found}) == expected, found


@pytest.mark.parametrize(("fields", "message"), [
    ({"kind": "standard-deviation", "printed": "\u00b1 s.d."}, "a standard-deviation needs its exact value"),
    ({"kind": "min-max", "printed": "\u00b1 0.02", "half_width": "0.02"}, "give lower and upper, not half_width"),
    ({"kind": "standard-error", "printed": "[0.6, 0.7]", "lower": "0.6", "upper": "0.7"},
     "a standard-error is one number: give half_width"),
])
def test_an_uncertainty_has_the_shape_of_its_kind(fields: dict[str, str], message: str) -> None:
    from pydantic import ValidationError

    from registry.models.values import Uncertainty

    with pytest.raises(ValidationError, match=message):
        Uncertainty.model_validate(fields)


def test_a_difference_across_units_converts_into_the_results_unit(tmp_path: Path) -> None:
    """31.62 GB minus 10,750 MB is 20.87 GB, as a paper may print it."""
    records = tmp_path / "records"
    shutil.copytree(FIXTURE, records)
    lora = records / "result" / f"{R}s5-1-lora-peak-memory.yaml"
    data = yaml.safe_load(lora.read_text())
    data.update(printed_value="10,750", numeric_value="10750", unit="megabyte")
    lora.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    path = records / "result" / f"{REDUCTION}.yaml"
    data = yaml.safe_load(path.read_text())
    data.update(printed_value="20.87", numeric_value="20.87", unit="gigabyte")
    data["derived"].update(operation="difference", value=R + "s5-1-full-peak-memory", baseline=R + "s5-1-lora-peak-memory")
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    _, report = validate(records)
    assert not [i for i in report.errors if i.code.startswith("derived")], [i.message for i in report.errors]


@pytest.mark.parametrize(("operation", "printed", "message"), [
    # 10.75 GB over 31.62 GB: a 66% decrease, 34.0% of the baseline, a relative change of -66%.
    ("relative-decrease", "66", None),
    ("percent-of", "34.0", None),
    ("relative-increase", "-66", None),
    ("relative-decrease", "34", "(checked as a relative-decrease; the printed digits fit a ratio or a percent-of of "
                                "the same inputs: if the source computed that, name it as the operation)"),
    ("relative-increase", "34", "(checked as a relative-increase; the printed digits fit a ratio or a percent-of"),
    ("percent-of", "66", "(checked as a percent-of; the printed digits fit a reduction or a relative-decrease of the "
                         "same inputs"),
    ("percent-of", "50", "(checked as a percent-of)"),
])
def test_an_operation_named_in_words_is_checked_as_itself(tmp_path: Path, operation: str, printed: str,
                                                         message: str | None) -> None:
    """'a 310% increase' of 34.7 s over 11.1 s is the paper's percent-of, not a relative increase (213%): each
    operation is checked as the words name it, and a disagreement says which was checked and which would fit."""
    found = [m for code, m in issues(tmp_path, REDUCTION, values(printed, "percent", operation))
             if code == "derived-mismatch"]
    if message is None:
        assert not found
    else:
        assert len(found) == 1 and message in found[0], found


def test_a_percent_of_is_in_percent(tmp_path: Path) -> None:
    found = issues(tmp_path, REDUCTION, values("0.340", "dimensionless", "percent-of"))
    assert ("derived-inputs", "a percent-of is in percent, not dimensionless") in [
        (code, m.split(";")[0]) for code, m in found], found
