"""registry.reproduce.run: recipes resolved to settings, outcomes filed as reproduction records, and their checks."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import pytest

from measure.errors import InvalidValueError, UnknownNameError
from measure.outcome import Hardware, HardwareKind, Method, RunOutcome, Status
from measure.settings import Setting, Stage
from registry.errors import RegistryError
from registry.ids import ID_PATTERN, MAX_ID_LENGTH
from registry.models import Dataset, Recipe, Reproduction, Result
from registry.reproduce.adapter import build_record, shared_fields
from registry.reproduce.plan import parse_overrides, plan, recipe_for, recipe_settings
from registry.reproduce.types import Job, MeasurementError, RunEnvironment
from registry.store.writer import write_record
from registry.store.yamlio import dump_yaml, parse_yaml, read_text
from registry.units import bytes_in_unit
from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, RESULT_11, RESULT_33

pytestmark = pytest.mark.sandbox  # starts processes that are limited or killed (sandboxes, torch runs): left out of make test-fast

ENV = RunEnvironment(software={"python": "3.11.7", "torch": "2.13.0+cu128", "cuda": "12.8"}, git_commit="0123abc",
                     command="registry reproduce (test)")
STAGE_WORDS = {"checkpointing": "stage + Checkpointing", "deepspeed": "stage + DeepSpeed"}


@pytest.fixture(scope="module")
def bundled():  # type: ignore[no-untyped-def]
    registry, report = validate(BUNDLED_RECORDS)
    assert report.valid
    return registry


def outcome_for(setting: Setting, *, method: Method = Method.MEASURED, peak: int | None = 30_120_000_000,
                status: Status = Status.OK, error: str | None = None, dry_run: bool = False) -> RunOutcome:
    """A run outcome as measure/ returns it. The numbers are test inputs, never filed in records/."""
    hardware = Hardware(kind=HardwareKind.GPU, name="NVIDIA H200", memory_bytes=150_000_000_000)
    if method is Method.ESTIMATED:
        hardware = Hardware(kind=HardwareKind.CPU_ESTIMATE, name="CPU estimate (FakeTensorMode + MemTracker)")
    if dry_run:
        hardware = Hardware(kind=HardwareKind.CPU, name="Test CPU (CPU dry run, no memory measured)")
    return RunOutcome(setting=setting, method=method, hardware=hardware, status=status, peak_bytes=peak, dry_run=dry_run,
                      reserved_bytes=None if peak is None else peak + 2**30, error=error,
                      started_at=dt.datetime(2026, 11, 20, 9, 30, tzinfo=dt.UTC), steps=2, warmup_steps=1,
                      attention_impl="sdpa-flash", parameters=2_547_801_226, trainable_parameters=2_547_801_226,
                      breakdown_bytes={"allocated_after_build": 5_095_602_452}, duration_s=12.5)


@pytest.mark.parametrize(("result_id", "stage", "count"), [(RESULT_33, "checkpointing", 20),
                                                            (RESULT_11, "deepspeed", 48)])
def test_each_result_resolves_to_its_recipe(bundled, result_id: str, stage: str, count: int) -> None:  # type: ignore[no-untyped-def]
    result, recipe = recipe_for(bundled, result_id)
    assert recipe.result == result.id and recipe.fixed.stage == stage and not recipe.verified
    settings = recipe_settings(recipe)
    assert len(settings) == len(set(settings)) == count
    first = settings[0]
    assert first.knobs() == {k.name: k.candidates[0] for k in recipe.knobs if k.name in first.knobs()}
    assert (first.model, first.sequence_length, first.batch_size, first.data_seed) == ("nt-2-5b", 1000, 16, 42)


@pytest.mark.parametrize("result_id", [RESULT_33, RESULT_11])
def test_recipes_state_what_their_results_state(bundled, result_id: str) -> None:  # type: ignore[no-untyped-def]
    result, recipe = recipe_for(bundled, result_id)
    fixed = recipe.fixed
    assert f"sequence length {fixed.sequence_length}, batch size {fixed.batch_size}" in result.metric_qualifier
    assert STAGE_WORDS[fixed.stage] in result.metric_qualifier
    assert fixed.metric == result.metric
    dataset = bundled.get_as(recipe.dataset, Dataset)
    assert dataset.seed == fixed.data_seed
    for knob in recipe.knobs:
        assert knob.note, f"knob {knob.name} must say what the source leaves open"


def test_overrides_narrow_the_sweep(bundled) -> None:  # type: ignore[no-untyped-def]
    _, recipe = recipe_for(bundled, RESULT_11)
    overrides = parse_overrides(["precision=pure-bf16", "update_mode=full", "update_mode=full",
                                 "reduce_bucket_size=1000"])
    assert overrides == {"precision": ["pure-bf16"], "update_mode": ["full"], "reduce_bucket_size": [1000]}
    settings = recipe_settings(recipe, overrides)
    assert len(settings) == 2 * 2  # overlap_comm x length_unit
    assert {s.reduce_bucket_size for s in settings} == {1000}


def test_errors_name_what_exists(bundled, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    _, recipe = recipe_for(bundled, RESULT_33)
    with pytest.raises(RegistryError, match="has no knob 'reduce_bucket_size'") as caught:
        recipe_settings(recipe, {"reduce_bucket_size": [1]})
    assert "precision" in (caught.value.hint or "")
    with pytest.raises(RegistryError, match="is a recipe, not a result"):
        recipe_for(bundled, recipe.id)
    for path in (records_dir / "recipe").iterdir():
        path.unlink()
    registry, _ = validate(records_dir)
    with pytest.raises(RegistryError, match="has no recipe, so there is nothing to re-run"):
        recipe_for(registry, RESULT_33)


def test_smoke_plan_uses_the_tiny_model_and_a_small_batch(bundled) -> None:  # type: ignore[no-untyped-def]
    full = plan(bundled, RESULT_33, method=Method.ESTIMATED, limit=3)
    the_plan = plan(bundled, RESULT_33, method=Method.ESTIMATED, smoke=True, limit=3)
    assert [(j.setting.model, j.setting.batch_size, j.setting.sequence_length) for j in the_plan.jobs] == [
        ("nt-tiny", 2, 64)] * 3 and the_plan.smoke
    assert [j.setting.knobs() for j in the_plan.jobs] == [j.setting.knobs() for j in full.jobs]


def test_settled_settings_are_skipped_before_the_limit(bundled) -> None:  # type: ignore[no-untyped-def]
    every = plan(bundled, RESULT_33, method=Method.MEASURED)
    settled = {every.jobs[0].setting, every.jobs[2].setting}
    the_plan = plan(bundled, RESULT_33, method=Method.MEASURED, skip=settled, limit=2)
    assert [j.setting for j in the_plan.jobs] == [every.jobs[1].setting, every.jobs[3].setting]
    assert the_plan.skipped == 2


def test_value_in_the_result_unit_is_exact() -> None:
    assert bytes_in_unit(33_880_000_001, "gigabyte") == Decimal("33.880000001")
    assert bytes_in_unit(2**30, "gibibyte") == Decimal("1.000000")
    assert str(bytes_in_unit(30 * 10**9, "gigabyte")) == "30"  # never '3E+1' in a record or on screen
    assert str(bytes_in_unit(33_880_000_000, "megabyte")) == "33880"
    with pytest.raises(RegistryError, match="cannot express a memory peak in unit 'percent'"):
        bytes_in_unit(1, "percent")


def test_a_long_result_id_still_gives_a_valid_reproduction_id(bundled) -> None:  # type: ignore[no-untyped-def]
    result, recipe = recipe_for(bundled, RESULT_33)
    long_id = ("saadat-fellay-20261015-result-" + "-".join(["peak-memory-of-a-very-long-configuration"] * 5))
    long_id = long_id[:MAX_ID_LENGTH].rstrip("-")
    assert len(long_id) >= MAX_ID_LENGTH - 1
    long_result = result.model_copy(update={"id": long_id})
    ids = {build_record(Job(setting, long_result, recipe), outcome_for(setting), ENV).id
           for setting in recipe_settings(recipe)}
    assert len(ids) == len(recipe_settings(recipe))  # still one id per setting
    assert all(len(i) <= MAX_ID_LENGTH and re.match(ID_PATTERN, i) and "-measured" in i for i in ids), ids


def test_a_result_of_zero_gets_no_ratio(bundled) -> None:  # type: ignore[no-untyped-def]
    result, recipe = recipe_for(bundled, RESULT_33)
    zero = result.model_copy(update={"numeric_value": Decimal(0), "printed_value": "0"})
    setting = recipe_settings(recipe)[0]
    record = build_record(Job(setting, zero, recipe), outcome_for(setting), ENV)
    assert record.value == Decimal("30.12") and record.comparison is None


def test_measured_record_round_trip(bundled, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    result, recipe = recipe_for(bundled, RESULT_33)
    setting = recipe_settings(recipe)[0]
    record = build_record(Job(setting, result, recipe), outcome_for(setting), ENV)
    assert re.match(ID_PATTERN, record.id) and record.id.startswith("saadat-fellay-20261120-reproduction-")
    assert "-measured-full-bf16w-fp32adam-tok-" in record.id
    assert (record.value, record.value_gib, record.value_bytes) == (Decimal("30.12"), Decimal("28.051436"),
                                                                   30_120_000_000)
    assert record.comparison is not None
    assert (record.comparison.transcribed, record.comparison.difference, record.comparison.ratio) == (
        Decimal("33.88"), Decimal("-3.76"), Decimal("0.889020"))
    assert record.setting == {"update_mode": "full", "precision": "bf16-weights-fp32-adam", "length_unit": "tokens"}
    assert (record.model, record.tokens_per_sequence, record.hardware.name) == ("nt-2-5b", 1000, "NVIDIA H200")
    result_before = read_text(records_dir / "result" / f"{RESULT_33}.yaml")
    path = write_record(records_dir, record)
    assert path == records_dir / "reproduction" / f"{record.id}.yaml"
    registry, report = validate(records_dir)
    assert report.valid and not [i for i in report.issues if i.record_id == record.id], report.issues
    assert registry.get_as(record.id, Reproduction) == record
    assert read_text(records_dir / "result" / f"{RESULT_33}.yaml") == result_before


@pytest.mark.parametrize(("status", "error"), [(Status.OUT_OF_MEMORY, "OutOfMemoryError: CUDA out of memory."),
                                               (Status.ERROR, "RuntimeError: cpu_adam failed to build")])
def test_failures_are_filed_as_outcomes_not_numbers(bundled, records_dir: Path, status: Status,  # type: ignore[no-untyped-def]
                                                    error: str) -> None:
    result, recipe = recipe_for(bundled, RESULT_11)
    setting = recipe_settings(recipe)[0]
    record = build_record(Job(setting, result, recipe), outcome_for(setting, peak=None, status=status, error=error),
                          ENV)
    assert record.outcome.value == status.value and record.error == error
    assert record.value is None and record.comparison is None
    write_record(records_dir, record)
    assert validate(records_dir)[1].valid


def test_estimated_record_is_labelled_as_such(bundled) -> None:  # type: ignore[no-untyped-def]
    result, recipe = recipe_for(bundled, RESULT_11)
    setting = recipe_settings(recipe)[0]
    record = build_record(Job(setting, result, recipe), outcome_for(setting, method=Method.ESTIMATED,
                                                                    peak=11_441_303_336), ENV)
    assert record.method is Method.ESTIMATED and record.hardware.kind is HardwareKind.CPU_ESTIMATE
    assert "-estimated-" in record.id and "H100" not in record.hardware.name and "H200" not in record.hardware.name


def test_a_dry_run_or_a_stage_without_result_is_never_filed(bundled) -> None:  # type: ignore[no-untyped-def]
    result, recipe = recipe_for(bundled, RESULT_33)
    setting = recipe_settings(recipe)[0]
    with pytest.raises(RegistryError, match="never filed"):
        build_record(Job(setting, result, recipe), outcome_for(setting, dry_run=True, peak=None), ENV)
    with pytest.raises(RegistryError, match="without a transcribed result"):
        build_record(Job(Setting("nt-2-5b", Stage.BASELINE, 1000, 16)), outcome_for(setting), ENV)


def test_the_adapter_sets_every_field_of_the_record(bundled) -> None:  # type: ignore[no-untyped-def]
    """What outcome and record share by name is copied; every other field is derived; nothing is left unset."""
    result, recipe = recipe_for(bundled, RESULT_33)
    setting = recipe_settings(recipe)[0]
    outcome = outcome_for(setting)
    record = build_record(Job(setting, result, recipe), outcome, ENV)
    unset = set(Reproduction.model_fields) - record.model_fields_set
    assert unset == {"derivation", "missing_metadata"}, unset  # a curator's fields, never a run's
    adapted = {"setting": record.setting == setting.knobs(), "error": record.error is None,
               "started_at": record.started_at == outcome.started_at.replace(microsecond=0)}
    assert all(adapted.values()), adapted
    copied = set(shared_fields(RunOutcome)) - set(adapted)
    assert copied >= {"method", "hardware", "reserved_bytes", "breakdown_bytes", "attention_impl", "parameters",
                      "steps", "warmup_steps", "method_note", "duration_s"}
    assert all(getattr(record, name) == getattr(outcome, name) for name in copied)
    assert shared_fields(RunEnvironment) == ("software", "git_commit", "command")
    assert (record.software, record.git_commit, record.command) == (ENV.software, ENV.git_commit, ENV.command)


def test_measure_errors_reach_the_cli_with_their_data(bundled) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(MeasurementError) as caught:
        parse_overrides(["precision=bf16"])
    error = caught.value.error
    assert isinstance(error, InvalidValueError) and isinstance(caught.value, RegistryError)
    assert (error.found, error.subject) == ("bf16", "knob 'precision'")
    assert error.expected == "one of bf16-weights-fp32-adam, fp32-autocast-bf16, pure-bf16"
    with pytest.raises(MeasurementError) as caught:
        parse_overrides(["precison=pure-bf16"])
    unknown = caught.value.error
    assert isinstance(unknown, UnknownNameError) and unknown.suggestion == "precision" and unknown.what == "knob"


def tampered(bundled, records_dir: Path, **changes: object) -> list[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    result, recipe = recipe_for(bundled, RESULT_33)
    setting = recipe_settings(recipe)[0]
    record = build_record(Job(setting, result, recipe), outcome_for(setting), ENV)
    data = parse_yaml(dump_yaml(record.model_dump(mode="json", exclude_none=True))).data
    data.update(changes)
    path = records_dir / "reproduction" / f"{record.id}.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(dump_yaml(data))
    _, report = validate(records_dir)
    return [(i.code, i.severity.value, i.message) for i in report.issues if i.record_id == record.id]


def test_check_value_against_bytes(bundled, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    issues = tampered(bundled, records_dir, value_bytes=30_120_000_001, value_gib="28.051436")
    assert [(c, s) for c, s, _ in issues] == [("reproduction-comparison-mismatch", "error")]
    assert "value_bytes 30120000001 is 30.120000001 gigabytes" in issues[0][2]


def test_check_model_and_knobs_against_the_recipe(bundled, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    issues = tampered(bundled, records_dir, model="nt-tiny",
                      setting={"update_mode": "full", "precision": "bf16-weights-fp32-adam", "length_unit": "tokens",
                               "lora_rank": 8})
    codes = sorted((c, s) for c, s, _ in issues)
    assert codes == [("reproduction-recipe-mismatch", "error")] * 2
    messages = " ".join(m for _, _, m in issues)
    assert "ran model 'nt-tiny' but its recipe states 'nt-2-5b'" in messages and "no knob 'lora_rank'" in messages


def test_value_outside_the_candidates_is_only_a_warning(bundled, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    issues = tampered(bundled, records_dir, setting={"update_mode": "full", "precision": "bf16-weights-fp32-adam",
                                                     "length_unit": "tokens", "adamw_impl": "foreach"})
    assert issues == []  # adamw_impl=foreach is a candidate
    issues = tampered(bundled, records_dir, setting={"update_mode": "full", "precision": "bf16-weights-fp32-adam",
                                                     "length_unit": "codons"})
    assert [(c, s) for c, s, _ in issues] == [("reproduction-setting-unswept", "warning")]


def test_model_rules_hold_for_any_writer() -> None:
    base = {"kind": "reproduction", "id": "saadat-fellay-20261120-reproduction-x", "result": RESULT_33,
            "recipe": "saadat-fellay-20261015-recipe-x", "method": "estimated", "model": "nt-2-5b", "setting": {},
            "outcome": "ok", "value_bytes": 2**30, "value": "1.073741824", "value_gib": "1.000000",
            "hardware": {"kind": "gpu", "name": "NVIDIA H200"}, "software": {}, "command": "x",
            "started_at": "2026-11-20T09:30:00Z", "duration_s": 1}
    with pytest.raises(ValueError, match="an estimated reproduction runs on hardware of kind 'cpu-estimate'"):
        Reproduction.model_validate(base)
    with pytest.raises(ValueError, match="value_gib must be value_bytes / 2\\^30 = 1.000000"):
        Reproduction.model_validate(base | {"method": "measured", "value_gib": "1.07"})
    with pytest.raises(ValueError, match="needs an error message"):
        Reproduction.model_validate(base | {"method": "measured", "outcome": "error", "value_bytes": None,
                                            "value": None, "value_gib": None})
    with pytest.raises(ValueError, match="difference must be reproduced - transcribed"):
        Reproduction.model_validate(base | {"method": "measured", "comparison": {
            "transcribed": "33.88", "reproduced": "1.073741824", "difference": "-32", "ratio": "0.031692"}})


def test_recipe_records_are_typed(bundled) -> None:  # type: ignore[no-untyped-def]
    recipes = bundled.of_kind(Recipe)
    assert {r.result for r in recipes} == {RESULT_33, RESULT_11}
    assert all(isinstance(bundled.get(r.result), Result) for r in recipes)
