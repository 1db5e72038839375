"""Derived values are computed in one place (``registry.derived``): validation and review agree, units and all.

A difference of 1.5 GB and 500 MB printed as 1.0 GB once passed ``registry validate`` and failed
``registry review`` ('1.5 - 500 = 1000000000.00'): the two scaled units differently. Both now call
the same recomputation, so the case passes in both, and a wrong printed value fails in both with the
same arithmetic named.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from registry.checking.consistency import consistency_claims
from registry.derived import OPERATIONS, Input, Underivable, derive, underivable
from registry.models import Result
from registry.models.values import Operation
from registry.validate.runner import validate
from tests.conftest import DATA

FIXTURE = DATA / "fixture-registry"
R = "fixture-genomic-20261201-result-"
FULL, LORA, SAVED = R + "s5-1-full-peak-memory", R + "s5-1-lora-peak-memory", R + "s5-1-lora-memory-reduction"
QUOTE = "Full fine-tuning peaks at 1.5 GB and LoRA at 500 MB, {saved} GB less."


def _edit(records: Path, record: str, **fields: Any) -> None:
    path = records / "result" / f"{record}.yaml"
    data = yaml.safe_load(path.read_text())
    data.update(fields)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def memory_saved(tmp_path: Path, saved: str) -> Path:
    """The fixture with 1.5 GB (full) and 500 MB (LoRA), and their difference printed as ``saved`` GB."""
    records = tmp_path / "records"
    shutil.copytree(FIXTURE, records)
    for record, printed, unit, form in ((FULL, "1.5", "gigabyte", "GB"), (LORA, "500", "megabyte", "MB"),
                                        (SAVED, saved, "gigabyte", "GB")):
        path = records / "result" / f"{record}.yaml"
        data = yaml.safe_load(path.read_text())
        data.update(printed_value=printed, numeric_value=printed, unit=unit, unit_detail=f"Printed as {form}")
        data["source_locator"]["quote"] = QUOTE.format(saved=saved)
        if record == SAVED:
            data["derived"].update(operation="difference", value=FULL, baseline=LORA)
            data["metric_qualifier"] = "Peak training memory saved by LoRA over full fine-tuning"
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return records


def validate_and_review(records: Path) -> tuple[list[str], list[tuple[bool, str]]]:
    """The derived-value messages of validation, and each derived claim of review (passed, detail)."""
    registry, report = validate(records)
    found = [i.message for i in report.issues if i.code.startswith("derived")]
    claims = consistency_claims(registry, registry.get_as(SAVED, Result))
    assertions = [c.check(None) for c in claims if c.claim == "derived value"]  # type: ignore[arg-type]
    return found, [(a.passed, a.detail) for a in assertions]


def test_a_difference_across_units_passes_validation_and_review(tmp_path: Path) -> None:
    found, reviewed = validate_and_review(memory_saved(tmp_path, "1.0"))
    assert found == []
    assert reviewed == [(True, "consistent at the printed rounding; the quoted sentence prints both inputs")]


def test_a_wrong_difference_across_units_fails_both_naming_the_same_arithmetic(tmp_path: Path) -> None:
    found, reviewed = validate_and_review(memory_saved(tmp_path, "1.2"))
    arithmetic = "printed 1.2, but 1.5 GB - 500 MB = 1.00 (between 0.90 and 1.10 given the rounding of 1.5 and 500)"
    assert len(found) == 1 and found[0].startswith(arithmetic), found
    [(passed, detail)] = reviewed
    assert not passed and detail.startswith(arithmetic), detail


def test_a_ratio_across_units_is_one_unitless_number() -> None:
    """1.5 GB over 500 MB is 3: the units cancel, whatever their scales."""
    again = derive(Operation.RATIO, [Input("1.5", "gigabyte"), Input("500", "megabyte")], "times",
                   lower_is_better=True)
    assert again.exact == 3 and again.formula == "1.5 GB / 500 MB"


@pytest.mark.parametrize(("operation", "inputs", "unit", "message", "field"), [
    (Operation.DIFFERENCE, [Input("1", "gigabyte"), Input("1", "second")], "gigabyte",
     "its inputs are in gigabyte and second, which measure memory and time: nothing derives from those two", "derived"),
    (Operation.RATIO, [Input("1", "gigabyte"), Input("2", "gigabyte")], "second",
     "a ratio is in times or dimensionless or percent, not second; give the result the unit its operation yields",
     "unit"),
    (Operation.SPEED_UP, [Input("1", "second", "a-run"), Input("2", "second")], "times",
     "a speed-up says how many times better a-run is, but its metric has no direction", "derived"),
    (Operation.MEAN, [Input("1", "percent"), Input("2", "dimensionless")], "percent",
     "a mean keeps its inputs' unit, but they are in dimensionless, percent and the result in percent", "derived"),
])
def test_inputs_that_cannot_give_the_result_say_why(operation: Operation, inputs: list[Input], unit: str,
                                                     message: str, field: str) -> None:
    problem = underivable(operation, inputs, unit, lower_is_better=None)
    assert problem is not None and problem.message.startswith(message) and problem.field == field
    with pytest.raises(Underivable, match="^" + message[:30]):
        derive(operation, inputs, unit, lower_is_better=None)


def test_every_operation_is_in_the_one_table() -> None:
    assert list(OPERATIONS) == list(Operation)
    assert all(spec.arithmetic is not None for op, spec in OPERATIONS.items() if spec.of_two)
    assert OPERATIONS[Operation.MEAN].arithmetic is None
