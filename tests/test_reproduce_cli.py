"""`registry reproduce`, end to end through the CLI, and what `show` and `list` make of its records."""

from __future__ import annotations

import hashlib
import importlib.util
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import BUNDLED_RECORDS, RESULT_11, RESULT_33, modules_imported_by

pytestmark = pytest.mark.sandbox  # starts processes that are limited or killed (sandboxes, torch runs): left out of make test-fast

HAS_TORCH = importlib.util.find_spec("torch") is not None and importlib.util.find_spec("transformers") is not None


def cuda_available() -> bool:
    if not HAS_TORCH:
        return False
    import torch

    return bool(torch.cuda.is_available())


def tiny_recipes(records_dir: Path) -> Path:
    """The bundled registry with both recipes pointed at the tiny model, so that a real run takes seconds.

    The bundled reproductions ran the full model, so they leave this copy (they would not match its recipes).
    """
    for path in (records_dir / "recipe").iterdir():
        path.write_text(path.read_text().replace("model: nt-2-5b", "model: nt-tiny"))
    shutil.rmtree(records_dir / "reproduction", ignore_errors=True)
    return records_dir


def digest(folder: Path) -> str:
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(folder.rglob("*.yaml")))).hexdigest()


def test_plan_lists_settings_most_plausible_first(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("reproduce", RESULT_33, "--plan")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if re.match(r"\s*\d+\. ", line)]
    assert len(lines) == 20
    assert "1. nt-2-5b checkpointing: update_mode=full, precision=bf16-weights-fp32-adam, length_unit=tokens" in lines[0]
    narrowed = cli("reproduce", RESULT_11, "--plan", "--setting", "precision=pure-bf16", "--limit", "3")
    assert narrowed.exit_code == 0 and narrowed.output.count("precision=pure-bf16") == 3


@pytest.mark.skipif(cuda_available(), reason="checks the message on machines without a GPU")
def test_measuring_without_a_gpu_says_what_to_do(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("reproduce", RESULT_33)
    assert result.exit_code == 1
    assert "no CUDA GPU is visible here" in result.output and "add --estimate" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--setting", "precison=pure-bf16"], "did you mean 'precision'"),
     (["--setting", "reduce_bucket_size=5"], "has no knob 'reduce_bucket_size'"),
     (["--setting", "precision"], "write it as NAME=VALUE")],
)
def test_bad_settings_are_explained(cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    result = cli("reproduce", RESULT_33, "--estimate", *args)
    assert result.exit_code == 1 and message in " ".join(result.output.split()), result.output
    assert "Traceback" not in result.output


def test_unknown_or_wrong_kind_of_id(cli) -> None:  # type: ignore[no-untyped-def]
    unknown = cli("reproduce", RESULT_33 + "-zero", "--estimate")
    assert unknown.exit_code == 1 and "did you mean" in unknown.output
    wrong = cli("reproduce", "saadat-fellay-20261015-dataset-synthetic-uniform-random-dna-seed-42", "--estimate")
    assert wrong.exit_code == 1 and "is a dataset, not a result" in wrong.output


def test_without_the_measure_extra_it_names_the_install(cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name.split(".")[0] in ("torch", "transformers") else real(name, *a))
    result = cli("reproduce", RESULT_33, "--estimate")
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "this needs the 'measure' extra, but torch, transformers are not installed" in text
    assert "pip install -e '.[measure]'" in text and "Traceback" not in result.output


@pytest.mark.skipif(not HAS_TORCH or cuda_available(), reason="needs torch and transformers, and no CUDA GPU")
def test_smoke_without_a_gpu_runs_the_steps_on_the_cpu_and_files_nothing(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    before = digest(records_dir)
    result = cli("reproduce", RESULT_33, "--smoke", "--limit", "2", "--records", records_dir)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "the smoke run runs its training steps on the CPU, which measures nothing" in text
    assert "transcribed (as printed) 33.88" in text and "Model nt-tiny" in text and "dry run" in text
    assert text.count("done (dry run: nothing measured)") == 2 and "nothing was filed" in text
    assert "beside a CPU dry run (nothing measured)" in text and "Meas." not in text
    assert digest(records_dir) == before


@pytest.mark.skipif(not HAS_TORCH or cuda_available(), reason="needs torch and transformers, and no CUDA GPU")
def test_a_smoke_run_that_fails_does_not_say_the_plumbing_works(cli, records_dir: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A smoke run whose only setting timed out ended 'Smoke run on nt-tiny: the plumbing works'."""
    import datetime as dt

    from measure.outcome import Hardware, HardwareKind, RunOutcome, Status

    def fails(setting, method, *, device, steps, timeout):  # type: ignore[no-untyped-def]
        return RunOutcome(setting=setting, method=method, hardware=Hardware(kind=HardwareKind.CPU, name="Test CPU"),
                          started_at=dt.datetime.now(dt.UTC), dry_run=True, status=Status.ERROR,
                          error="TimeoutError: the setting ran past 1 s and was abandoned", duration_s=1.0)

    monkeypatch.setattr("measure.run.run", fails)
    result = cli("reproduce", RESULT_33, "--smoke", "--records", records_dir)
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "the plumbing works" not in text and "error [1]" in text
    assert ("Smoke run on nt-tiny: 1 of 1 setting(s) failed (see above), so the plumbing does not work here yet; "
            "nothing was filed.") in text


@pytest.mark.skipif(not HAS_TORCH, reason="needs the measure extra (torch, transformers)")
def test_smoke_estimate_runs_the_estimate_and_files_nothing(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    before = digest(records_dir)
    result = cli("reproduce", RESULT_11, "--smoke", "--estimate", "--limit", "2", "--records", records_dir)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "transcribed (as printed) 11.49" in text and "Model nt-tiny" in text
    assert "not comparable with the transcribed 11.49 GB" in text and "nothing was filed" in text
    assert digest(records_dir) == before


@pytest.mark.skipif(not HAS_TORCH, reason="needs the measure extra (torch, transformers)")
def test_estimate_writes_one_record_per_setting(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    tiny_recipes(records_dir)
    result_file = records_dir / "result" / f"{RESULT_11}.yaml"
    transcribed = result_file.read_bytes()
    result = cli("reproduce", RESULT_11, "--estimate", "--limit", "3", "--records", records_dir)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Peak memory: transcribed 11.49 GB beside our estimated values" in text
    assert "Wrote 3 reproduction record(s)" in text and "Nearest:" in text
    written = sorted((records_dir / "reproduction").iterdir())
    assert len(written) == 3 and all("-reproduction-" in p.name and "-estimated-" in p.name for p in written)
    assert result_file.read_bytes() == transcribed, "the transcribed result is never modified"

    valid = cli("validate", "--records", records_dir)
    assert valid.exit_code == 0, valid.output
    from registry.models import Reproduction
    from registry.validate.runner import validate

    registry, _ = validate(records_dir)
    record = registry.get_as(written[0].stem, Reproduction)
    assert record.method.value == "estimated" and record.hardware.kind == "cpu-estimate"
    assert record.command == f"registry reproduce {RESULT_11} --estimate --limit 3 --records {records_dir}"
    assert "emulated, not run" in (record.method_note or "") and record.software["torch"]
    assert record.model == "nt-tiny" and record.comparison is not None and record.value_bytes

    page = " ".join(cli("show", RESULT_11, "--records", records_dir).output.split())
    assert "Estimated by us (not measured): 3 run(s) beside the transcribed 11.49 GB" in page
    assert "Nothing has been measured yet: the estimates below are predictions, not measurements." in page
    assert "reduce_bucket_size=6553600" in page
    listing = " ".join(cli("list", "--kind", "result", "--records", records_dir).output.split())
    assert "3 setting(s), CPU estimate; nearest" in listing


@pytest.mark.skipif(not HAS_TORCH, reason="needs the measure extra (torch, transformers)")
def test_no_write_runs_but_writes_nothing(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    tiny_recipes(records_dir)
    result = cli("reproduce", RESULT_33, "--estimate", "--limit", "1", "--no-write", "--records", records_dir)
    assert result.exit_code == 0, result.output
    assert "No record was written" in result.output and not (records_dir / "reproduction").exists()


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="needs a CUDA GPU")
def test_measure_on_a_gpu_writes_a_measured_record(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    tiny_recipes(records_dir)
    result = cli("reproduce", RESULT_33, "--limit", "1", "--records", records_dir)
    assert result.exit_code == 0, result.output
    [record] = (records_dir / "reproduction").iterdir()
    assert "method: measured" in record.read_text() and "kind: gpu" in record.read_text()


def test_help_and_validate_never_import_torch() -> None:
    records = str(BUNDLED_RECORDS)
    commands = [["--help"], ["reproduce", "--help"], ["validate", "--records", records],
                ["reproduce", RESULT_33, "--plan", "--records", records],
                ["reproduce", "--all", "--plan", "--records", records]]
    assert modules_imported_by(commands, ("torch", "transformers", "peft", "deepspeed")) == []


def test_dry_run_says_which_option_to_give_instead(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """'--dry-run' (as new, import, correct and retract take) got 'No such option: --dry-run (Possible options: --runs)'."""
    before = digest(records_dir)
    result = cli("reproduce", RESULT_33, "--dry-run", "--records", records_dir)
    assert result.exit_code == 1 and digest(records_dir) == before
    text = " ".join(result.output.split())
    assert "Error: registry reproduce has no --dry-run: give --plan, --no-write or --smoke instead" in text
    assert "Hint: --plan lists the settings" in text and "--no-write runs them and writes no record" in text
    assert "--smoke runs the whole path on a tiny model" in text and "Possible options" not in text
    assert "--dry-run" not in cli("reproduce", "--help").output, "not offered as an option"


def test_steps_with_an_estimate_is_refused_not_ignored(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """An estimate traces one step whatever --steps said, so '--estimate --steps 5' ran one step and said nothing."""
    before = digest(records_dir)
    result = cli("reproduce", RESULT_33, "--estimate", "--steps", "5", "--records", records_dir)
    assert result.exit_code == 1 and digest(records_dir) == before
    text = " ".join(result.output.split())
    assert "Error: --steps does not apply to --estimate: an estimate traces one training step on fake tensors" in text
    assert "Hint: leave out --steps, or measure on a GPU without --estimate" in text


def test_a_result_without_a_recipe_names_where_a_recipe_goes(cli) -> None:  # type: ignore[no-untyped-def]
    """With --records elsewhere the hint said 'add a records/recipe/<id>.yaml', a folder that is not the registry's."""
    fixture = Path(__file__).parent / "data" / "fixture-registry"
    result = cli("reproduce", "fixture-genomic-20261201-result-fig1-peak-memory", "--plan", "--records", fixture)
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "has no recipe, so there is nothing to re-run" in text and "records/recipe" not in text
    assert "Hint: add a recipe for it, as recipe/<id>.yaml in the records folder; no result has one yet" in text
    every = " ".join(cli("reproduce", "--all", "--plan", "--records", fixture).output.split())
    assert "Hint: add a recipe for a result, as recipe/<id>.yaml in the records folder, or point --records" in every
