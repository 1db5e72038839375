"""measure/run_gpu_ablation.py: the order of the GPU run, its dry run on the CPU, and what it writes as it goes."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import shutil
import sysconfig
import tarfile
from pathlib import Path

import pytest

from measure import run_gpu_ablation as script
from measure.outcome import Hardware, Method, RunOutcome, Status
from measure.settings import Stage
from registry.checks import validate
from tests.conftest import BUNDLED_RECORDS, RESULT_11, RESULT_33

HAS_TORCH = importlib.util.find_spec("torch") is not None and importlib.util.find_spec("transformers") is not None
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="needs the measure extra (torch, transformers)")
DEEPSPEED_OPS_MISSING = (
    "deepspeed is not installed" if importlib.util.find_spec("deepspeed") is None
    else "no C++ compiler to build DeepSpeed's CPU Adam" if not (shutil.which("c++") or shutil.which("g++"))
    else "no Python headers (Python.h) to build DeepSpeed's CPU Adam"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists()
    else None
)


@pytest.fixture(scope="module")
def registry():  # type: ignore[no-untyped-def]
    registry, report = validate(BUNDLED_RECORDS)
    assert report.valid
    return registry


def test_most_informative_settings_come_first(registry) -> None:  # type: ignore[no-untyped-def]
    jobs = script.build_jobs(registry)
    assert len(jobs) == len({job.setting for job in jobs}) == 20 + 48 + 20 + 20
    first = jobs[:4]
    assert [job.setting.stage for job in first] == [Stage.CHECKPOINTING, Stage.DEEPSPEED, Stage.BASELINE,
                                                    Stage.FLASH_ATTENTION]
    assert [job.result.id if job.result else None for job in first] == [RESULT_33, RESULT_11, None, None]
    assert first[0].setting.knobs() == first[2].setting.knobs() == first[3].setting.knobs() == {
        "update_mode": "full", "precision": "bf16-weights-fp32-adam", "length_unit": "tokens"}
    assert first[1].setting.knobs()["reduce_bucket_size"] == 6_553_600
    recipe_jobs = [job for job in jobs if job.result is not None]
    assert len(recipe_jobs) == 68 and jobs.index(recipe_jobs[-1]) < len(jobs) - 38, "other stages' sweeps come last"
    assert {job.setting.model for job in jobs} == {"nt-2-5b"}
    dry = script.build_jobs(registry, dry_run=True)
    assert {(j.setting.model, j.setting.batch_size) for j in dry} == {("nt-tiny", 2)} and len(dry) == len(jobs)


def test_plan_prints_the_order(capsys) -> None:  # type: ignore[no-untyped-def]
    assert script.main(["--records", str(BUNDLED_RECORDS), "--plan", "--limit", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4 and "checkpointing   record" in lines[0] and "baseline        log" in lines[2]


@needs_torch
def test_dry_run_runs_without_deepspeed_and_files_nothing(tmp_path: Path, records_dir: Path) -> None:
    out = tmp_path / "out"
    before = sorted((records_dir / "reproduction").glob("*.yaml"))
    assert script.main(["--records", str(records_dir), "--dry-run", "--out", str(out), "--limit", "1"]) == 0
    [line] = [json.loads(x) for x in (out / "ablation.jsonl").read_text().splitlines()]
    assert (line["method"], line["status"], line["stage"], line["model"]) == ("dry-run", "ok", "checkpointing",
                                                                             "nt-tiny")
    assert line["peak_bytes"] is None and len(line["losses"]) == 3 and line["record"] is None
    with tarfile.open(out / "reproductions.tar.gz") as tar:
        assert tar.getnames() == ["ablation.jsonl"]
    assert sorted((records_dir / "reproduction").glob("*.yaml")) == before


@needs_torch
@pytest.mark.deepspeed_ops
@pytest.mark.skipif(DEEPSPEED_OPS_MISSING is not None, reason=DEEPSPEED_OPS_MISSING or "")
def test_dry_run_covers_every_stage_including_deepspeed(tmp_path: Path, records_dir: Path) -> None:
    out = tmp_path / "out"
    assert script.main(["--records", str(records_dir), "--dry-run", "--out", str(out), "--limit", "6"]) == 0
    lines = [json.loads(x) for x in (out / "ablation.jsonl").read_text().splitlines()]
    assert [x["stage"] for x in lines] == ["checkpointing", "deepspeed", "baseline", "flash-attention",
                                           "checkpointing", "deepspeed"]
    assert all(x["status"] == "ok" and x["method"] == "dry-run" for x in lines), [x["error"] for x in lines]
    assert {x["attention_impl"] for x in lines} == {"eager", "sdpa-flash-cpu"}


def synthetic_measurement(job, seconds, *, steps, device):  # type: ignore[no-untyped-def]
    """Stands in for the GPU in the test below: plumbing only, the numbers are test inputs."""
    peak = {Stage.CHECKPOINTING: 34_000_000_000, Stage.DEEPSPEED: 11_500_000_000}.get(job.setting.stage)
    return RunOutcome(setting=job.setting, method=Method.MEASURED, hardware=Hardware("gpu", "Test GPU", 10**11),
                      started_at=dt.datetime(2026, 11, 21, 8, 0, tzinfo=dt.UTC),
                      status=Status.OK if peak else Status.OUT_OF_MEMORY, peak_bytes=peak,
                      error=None if peak else "OutOfMemoryError: CUDA out of memory.", steps=steps, warmup_steps=1)


@needs_torch
def test_each_finished_setting_is_written_at_once(tmp_path: Path, records_dir: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "Test GPU")
    monkeypatch.setattr(torch.version, "cuda", "12.8")  # a measured record names the CUDA it ran with,
    monkeypatch.setattr(torch, "__version__", "2.13.0+cu128")  # and a torch build that can use it
    monkeypatch.setattr(script, "run_with_timeout", synthetic_measurement)
    monkeypatch.setattr(script, "prebuild_deepspeed_ops", lambda out: None)
    out = tmp_path / "out"
    bundled = {p.name for p in (records_dir / "reproduction").glob("*.yaml")}
    args = ["--records", str(records_dir), "--out", str(out), "--limit", "3", "--runs", str(out)]
    assert script.main(args) == 0
    written = sorted(p.name for p in (records_dir / "reproduction").iterdir() if p.name not in bundled)
    assert len(written) == 2 and all("-measured-" in name for name in written)
    assert validate(records_dir)[1].valid
    lines = [json.loads(x) for x in (out / "ablation.jsonl").read_text().splitlines()]
    assert [x["status"] for x in lines] == ["ok", "ok", "out-of-memory"]
    assert [x["record"] is not None for x in lines] == [True, True, False]
    with tarfile.open(out / "reproductions.tar.gz") as tar:
        assert sorted(tar.getnames()) == sorted(["ablation.jsonl"] + [f"reproduction/{n}" for n in written])
    # A later run skips what this one finished: records for the recipes' settings, the log for the others.
    assert script.main(args) == 0
    again = [json.loads(x) for x in (out / "ablation.jsonl").read_text().splitlines()][3:]
    assert [x["stage"] for x in again] == ["flash-attention", "checkpointing", "deepspeed"]


def test_a_broken_record_elsewhere_does_not_cost_the_gpu_session(records_dir: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (records_dir / "family" / "half-edited.yaml").write_text("kind: [")
    assert script.main(["--records", str(records_dir), "--plan", "--limit", "2"]) == 0
    captured = capsys.readouterr()
    assert "has 1 error(s)" in captured.err and "continuing" in captured.err
    assert len(captured.out.splitlines()) == 2


def test_only_settled_settings_are_skipped_next_time(tmp_path: Path) -> None:
    """A value or an out-of-memory settles a setting; a crash or a failed DeepSpeed build is tried again."""
    runs = tmp_path / "runs"
    runs.mkdir()
    entries = [{"method": "measured", "status": status, "model": "nt-2-5b", "stage": "deepspeed",
                "setting": {"precision": status}} for status in ("ok", "out-of-memory", "error")]
    (runs / "earlier.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    registry, _ = validate(BUNDLED_RECORDS)
    done = script.already_measured(registry, runs)
    assert {json.loads(knobs)["precision"] for _, _, knobs in done} == {"ok", "out-of-memory"}


def test_no_setting_starts_without_a_minute_left(tmp_path: Path, records_dir: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """The script ends by --deadline: it never starts a setting it cannot give a minute."""
    out = tmp_path / "out"
    assert script.main(["--records", str(records_dir), "--dry-run", "--out", str(out), "--deadline", "30"]) == 0
    printed = capsys.readouterr().out
    assert "deadline: " in printed and "settings not started" in printed
    assert not (out / "ablation.jsonl").read_text().strip()


def test_at_least_one_measured_step(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        script.main(["--dry-run", "--out", str(tmp_path), "--steps", "0"])
