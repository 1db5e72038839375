"""`registry reproduce --all`: the whole ablation's order, its dry run on the CPU, and what it writes as it goes."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import re
import shutil
import sysconfig
import tarfile
from pathlib import Path

import pytest

from measure.outcome import Hardware, HardwareKind, Method, RunOutcome, Status
from measure.settings import Stage
from registry.reproduce.plan import plan_all
from registry.reproduce.runlog import settled
from registry.store.yamlio import dump_yaml, parse_yaml
from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, RESULT_11, RESULT_33

pytestmark = pytest.mark.sandbox  # starts processes that are limited or killed (sandboxes, torch runs): left out of make test-fast

HAS_TORCH = importlib.util.find_spec("torch") is not None and importlib.util.find_spec("transformers") is not None
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="needs the measure extra (torch, transformers)")
DEEPSPEED_OPS_MISSING = (
    "deepspeed is not installed" if importlib.util.find_spec("deepspeed") is None
    else "no C++ compiler to build DeepSpeed's CPU Adam" if not (shutil.which("c++") or shutil.which("g++"))
    else "no Python headers (Python.h) to build DeepSpeed's CPU Adam"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists()
    else None
)


def cuda_available() -> bool:
    if not HAS_TORCH:
        return False
    import torch

    return bool(torch.cuda.is_available())


no_gpu = pytest.mark.skipif(cuda_available(), reason="checks the CPU dry run, which a machine with a GPU does not do")


@pytest.fixture(scope="module")
def registry():  # type: ignore[no-untyped-def]
    registry, report = validate(BUNDLED_RECORDS)
    assert report.valid
    return registry


def log_lines(out: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in (out / "ablation.jsonl").read_text().splitlines()]


def test_most_informative_settings_come_first(registry) -> None:  # type: ignore[no-untyped-def]
    jobs = plan_all(registry, method=Method.MEASURED).jobs
    assert len(jobs) == len({job.setting for job in jobs}) == 20 + 48 + 20 + 20
    first = jobs[:4]
    assert [job.setting.stage for job in first] == [Stage.CHECKPOINTING, Stage.DEEPSPEED, Stage.BASELINE,
                                                    Stage.FLASH_ATTENTION]
    assert [job.result.id if job.result else None for job in first] == [RESULT_33, RESULT_11, None, None]
    assert first[0].setting.knobs() == first[2].setting.knobs() == first[3].setting.knobs() == {
        "update_mode": "full", "precision": "bf16-weights-fp32-adam", "length_unit": "tokens"}
    assert first[1].setting.knobs()["reduce_bucket_size"] == 6_553_600
    assert [job.setting.stage for job in jobs[4:6]] == [Stage.CHECKPOINTING, Stage.DEEPSPEED], "sweeps take turns"
    recipe_jobs = [job for job in jobs if job.result is not None]
    assert len(recipe_jobs) == 68 and jobs.index(recipe_jobs[-1]) < len(jobs) - 38, "other stages' sweeps come last"
    assert {job.setting.model for job in jobs} == {"nt-2-5b"}
    dry = plan_all(registry, method=Method.MEASURED, smoke=True).jobs
    assert {(j.setting.model, j.setting.batch_size, j.setting.sequence_length) for j in dry} == {("nt-tiny", 2, 64)}
    assert [j.setting.knobs() for j in dry] == [j.setting.knobs() for j in jobs]


def test_plan_prints_the_order(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("reproduce", "--all", "--plan", "--limit", "4")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "The whole ablation: 4 setting(s), 2 of them filed against their result, 2 of stages no source" in lines[0]
    assert lines[1].startswith("  1. nt-2-5b checkpointing: update_mode=full,")
    assert lines[3].startswith("  3. nt-2-5b baseline: ") and lines[3].endswith("(no transcribed result)")


def test_a_setting_narrows_the_recipes_that_have_that_knob(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("reproduce", "--all", "--plan", "--setting", "reduce_bucket_size=6553600")
    assert result.exit_code == 0, result.output
    assert "The whole ablation: 84 setting(s), 44 of them filed" in result.output  # deepspeed's 48 halved
    recipe = next((records_dir / "recipe").glob("*checkpointing.yaml"))
    data = parse_yaml(recipe.read_text()).data
    data["knobs"] = [knob for knob in data["knobs"] if knob["name"] != "adamw_impl"]
    recipe.write_text(dump_yaml(data))
    missing = cli("reproduce", "--all", "--plan", "--setting", "adamw_impl=fused", "--records", records_dir)
    assert missing.exit_code == 1 and "no recipe has a knob 'adamw_impl'" in missing.output
    assert "their knobs are: allgather_bucket_size, length_unit" in " ".join(missing.output.split())


@pytest.mark.parametrize(("args", "message"), [([], "give the id of one result, or --all for every recipe"),
                                               ([RESULT_33, "--all"], "or --all, not both")])
def test_one_result_or_all(cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    result = cli("reproduce", *args, "--plan")
    assert result.exit_code == 1 and message in " ".join(result.output.split()), result.output


@needs_torch
@no_gpu
def test_dry_run_runs_the_steps_on_the_cpu_and_files_nothing(cli, tmp_path: Path, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    before = sorted((records_dir / "reproduction").glob("*.yaml"))
    result = cli("reproduce", "--all", "--smoke", "--out", out, "--limit", "1", "--records", records_dir)
    assert result.exit_code == 0, result.output
    [line] = log_lines(out)
    assert (line["method"], line["dry_run"], line["status"], line["stage"], line["model"]) == (
        "measured", True, "ok", "checkpointing", "nt-tiny")
    assert line["hardware"]["kind"] == "cpu" and line["batch_size"] == 2 and line["tokens_per_sequence"] == 64
    assert line["peak_bytes"] is None and len(line["losses"]) == 3 and line["record"] is None
    with tarfile.open(out / "reproductions.tar.gz") as tar:
        assert tar.getnames() == ["ablation.jsonl"]
    assert sorted((records_dir / "reproduction").glob("*.yaml")) == before
    text = " ".join(result.output.split())
    assert "1 setting(s) on the CPU (a dry run: nothing measured); commit" in text and "nothing was filed" in text


@needs_torch
@no_gpu
@pytest.mark.deepspeed_ops
@pytest.mark.skipif(DEEPSPEED_OPS_MISSING is not None, reason=DEEPSPEED_OPS_MISSING or "")
def test_dry_run_covers_every_stage_including_deepspeed(cli, tmp_path: Path, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    before = sorted((records_dir / "reproduction").glob("*.yaml"))
    result = cli("reproduce", "--all", "--smoke", "--out", out, "--limit", "6", "--records", records_dir)
    assert result.exit_code == 0, result.output
    lines = log_lines(out)
    assert [x["stage"] for x in lines] == ["checkpointing", "deepspeed", "baseline", "flash-attention",
                                           "checkpointing", "deepspeed"]
    assert all(x["status"] == "ok" and x["dry_run"] for x in lines), [x["error"] for x in lines]
    assert {x["attention_impl"] for x in lines} == {"eager", "sdpa-flash-cpu"}
    with tarfile.open(out / "reproductions.tar.gz") as tar:
        assert tar.getnames() == ["ablation.jsonl"]
    assert sorted((records_dir / "reproduction").glob("*.yaml")) == before


def synthetic_measurement(setting, method, *, device, steps, timeout):  # type: ignore[no-untyped-def]
    """Stands in for the GPU in the test below: plumbing only, the numbers are test inputs."""
    peak = {Stage.CHECKPOINTING: 34_000_000_000, Stage.DEEPSPEED: 11_500_000_000}.get(setting.stage)
    return RunOutcome(setting=setting, method=Method.MEASURED,
                      hardware=Hardware(kind=HardwareKind.GPU, name="Test GPU", memory_bytes=10**11),
                      started_at=dt.datetime(2026, 11, 21, 8, 0, tzinfo=dt.UTC),
                      status=Status.OK if peak else Status.OUT_OF_MEMORY, peak_bytes=peak,
                      error=None if peak else "OutOfMemoryError: CUDA out of memory.", steps=steps, warmup_steps=1)


@pytest.fixture
def fake_gpu(monkeypatch):  # type: ignore[no-untyped-def]
    """A GPU that is not there, as far as the driver is concerned; the tests say what a setting gives."""
    import measure.env
    from registry.cli import reproduce as cli_reproduce
    from registry.reproduce import plan as planning
    from registry.reproduce import run as rp

    monkeypatch.setattr(cli_reproduce, "_cuda", lambda: True)
    monkeypatch.setattr(cli_reproduce, "_device_name", lambda device, method: "Test GPU")
    monkeypatch.setattr(planning, "check_requirements", lambda jobs, method: None)
    monkeypatch.setattr(rp, "_start_op_build", lambda the_plan, device, log: None)
    # A measured record names the CUDA it ran with, and a torch build that can use it.
    monkeypatch.setattr(measure.env, "software_versions",
                        lambda: {"python": "3.12.3", "torch": "2.13.0+cu128", "cuda": "12.8"})


def test_each_finished_setting_is_written_at_once(cli, tmp_path: Path, records_dir: Path, fake_gpu,  # type: ignore[no-untyped-def]
                                                  monkeypatch) -> None:
    monkeypatch.setattr("measure.run.run", synthetic_measurement)
    out = tmp_path / "out"
    bundled = {p.name for p in (records_dir / "reproduction").glob("*.yaml")}
    args = ["reproduce", "--all", "--records", records_dir, "--out", out, "--limit", "3", "--runs", out]
    first = cli(*args)
    assert first.exit_code == 0, first.output
    written = sorted(p.name for p in (records_dir / "reproduction").iterdir() if p.name not in bundled)
    assert len(written) == 2 and all("-measured-" in name for name in written)
    assert validate(records_dir)[1].valid
    lines = log_lines(out)
    assert [x["status"] for x in lines] == ["ok", "ok", "out-of-memory"]
    assert [x["record"] is not None for x in lines] == [True, True, False]
    with tarfile.open(out / "reproductions.tar.gz") as tar:
        assert sorted(tar.getnames()) == sorted(["ablation.jsonl"] + [f"reproduction/{n}" for n in written])
    text = " ".join(first.output.split())
    assert "3 setting(s) on Test GPU" in text and "Wrote 2 reproduction record(s)" in text
    assert "out-of-memory OutOfMemoryError: CUDA out of memory. in 0 s: baseline" in text
    record = (records_dir / "reproduction" / written[0]).read_text()
    assert f"command: registry reproduce --all --limit 3 --records {records_dir}" in " ".join(record.split())
    # A later run skips what this one settled: records for the recipes' settings, the log for the others.
    again = cli(*args)
    assert again.exit_code == 0, again.output
    assert "Skipping 3 setting(s) an earlier run on Test GPU settled" in " ".join(again.output.split())
    assert [x["stage"] for x in log_lines(out)[3:]] == ["flash-attention", "checkpointing", "deepspeed"]
    # --redo runs them again; the synthetic runs start at the same moment, so their records' ids are taken: the
    # run goes on, says so, keeps the outcome in the log, and exits 1.
    redo = cli(*args[:-2], "--redo")
    assert redo.exit_code == 1 and [x["stage"] for x in log_lines(out)[6:]] == ["checkpointing", "deepspeed",
                                                                                "baseline"]
    assert " ".join(redo.output.split()).count("(record not written: ") == 2
    assert [bool(x["record_error"]) for x in log_lines(out)[6:]] == [True, True, False]


def test_what_one_gpu_settled_another_gpu_runs_again(cli, tmp_path: Path, records_dir: Path, fake_gpu,  # type: ignore[no-untyped-def]
                                                       monkeypatch) -> None:
    """An out of memory on one GPU (and a value measured there) settled the setting for every GPU."""
    from registry.cli import reproduce as cli_reproduce

    monkeypatch.setattr("measure.run.run", synthetic_measurement)
    out = tmp_path / "out"
    args = ["reproduce", "--all", "--records", records_dir, "--out", out, "--limit", "3", "--runs", out]
    assert cli(*args).exit_code == 0  # on 'Test GPU': two values and one out of memory
    same = cli(*args, "--no-write")
    assert "Skipping 3 setting(s) an earlier run on Test GPU settled" in " ".join(same.output.split())
    assert [x["stage"] for x in log_lines(out)[3:]] == ["flash-attention", "checkpointing", "deepspeed"]
    monkeypatch.setattr(cli_reproduce, "_device_name", lambda device, method: "NVIDIA H200")
    other = cli(*args, "--no-write")
    assert other.exit_code == 0, other.output
    assert "Skipping" not in other.output, "what another GPU settled settles nothing here"
    assert [x["stage"] for x in log_lines(out)[6:]] == ["checkpointing", "deepspeed", "baseline"]


OOM = ("OutOfMemoryError: CUDA out of memory. Tried to allocate 19.53 GiB. GPU 0 has a total capacity of 79.19 GiB "
       "of which 3.12 GiB is free.")


@pytest.mark.parametrize("width", [80, 72])
def test_a_narrow_terminal_keeps_every_column_and_the_whole_error(cli, records_dir: Path, fake_gpu,  # type: ignore[no-untyped-def]
                                                                  monkeypatch, width: int) -> None:
    """At 80 columns the 'Outcome' column was cut ('Outco', an out of memory as 'error / OutOf / CUDA'); at 72 gone."""
    from registry.cli.output import console

    def measurement(setting, method, *, device, steps, timeout):  # type: ignore[no-untyped-def]
        ran = synthetic_measurement(setting, method, device=device, steps=steps, timeout=timeout)
        if setting.knobs()["precision"] == "pure-bf16":
            ran.status, ran.peak_bytes, ran.error = Status.OUT_OF_MEMORY, None, OOM
        return ran

    monkeypatch.setattr("measure.run.run", measurement)
    terminal = console._made()  # type: ignore[attr-defined]
    wide, terminal.width = terminal.width, width
    try:
        result = cli("reproduce", RESULT_33, "--records", records_dir, "--no-write", "--limit", "5")
    finally:
        terminal.width = wide
    assert result.exit_code == 0, result.output
    output = result.output
    table = output[output.index("Peak memory: transcribed 33.88 GB"):output.index("Nearest: ")]
    assert max(len(line) for line in table.splitlines()) <= width
    header = next(line for line in table.splitlines() if "Setting" in line)
    assert header.split() == ["Setting", "Meas.", "GB", "GiB", "Diff.", "GB", "Ratio", "Outcome"]
    assert "OOM [1]" in table and "×1.004" in table
    assert f"[1] out-of-memory (update_mode=full, precision=pure-bf16, adamw_impl=foreach, length_unit=tokens): {OOM}" \
        in " ".join(table.split())


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_an_interrupted_run_says_what_it_kept(cli, tmp_path: Path, records_dir: Path, fake_gpu,  # type: ignore[no-untyped-def]
                                              monkeypatch, how: str) -> None:
    """Ctrl-C said only 'nothing half-written was kept', not that a record was; SIGTERM (a lease's 'timeout')
    ended the process silently, with no message and the background build left running."""
    import os
    import signal

    from measure.schedule import OpBuild
    from registry.cli import reproduce as cli_reproduce

    calls: list[str] = []
    stopped: list[str] = []

    def measurement(setting, method, *, device, steps, timeout):  # type: ignore[no-untyped-def]
        calls.append(setting.stage.value)
        if len(calls) == 2:  # the second setting is stopped while it runs
            os.kill(os.getpid(), getattr(signal, how))
        return synthetic_measurement(setting, method, device=device, steps=steps, timeout=timeout)

    def exit_at_once(status: int) -> None:
        raise SystemExit(status)  # what os._exit does, without ending the test process

    monkeypatch.setattr("measure.run.run", measurement)
    monkeypatch.setattr(cli_reproduce, "_exit", exit_at_once)
    monkeypatch.setattr(OpBuild, "stop_all", classmethod(lambda cls: stopped.append("builds")))
    bundled = {p.name for p in (records_dir / "reproduction").glob("*.yaml")}
    out = tmp_path / "out"
    def unhandled(signum, frame):  # type: ignore[no-untyped-def]
        raise SystemExit("SIGTERM reached the test process")  # instead of killing the test run

    previous = signal.signal(signal.SIGTERM, unhandled)
    try:
        result = cli("reproduce", "--all", "--records", records_dir, "--out", out, "--limit", "3")
        assert signal.getsignal(signal.SIGTERM) is unhandled, "the command's handler is its own, for the run only"
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert result.exit_code == 128 + int(getattr(signal, how)), result.output
    [written] = [p for p in (records_dir / "reproduction").iterdir() if p.name not in bundled]
    text = " ".join(result.output.split())
    assert f"Stopped by {how} after 1 of 3 setting(s); the setting running then was abandoned" in text
    assert f"Kept: 1 reproduction record(s) it wrote, each whole: {written}" in text
    assert f"Log of the finished settings: {out / 'ablation.jsonl'}" in text and "Traceback" not in result.output
    assert len(log_lines(out)) == 1 and validate(records_dir)[1].valid
    assert stopped == ["builds"], "DeepSpeed's background build is stopped too"


def test_the_table_names_our_gpu_beside_the_sources(cli, records_dir: Path, fake_gpu, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A value measured on one GPU beside a value printed for another, with neither named under the table."""
    monkeypatch.setattr("measure.run.run", synthetic_measurement)
    result = cli("reproduce", RESULT_33, "--records", records_dir, "--no-write", "--limit", "1")
    assert result.exit_code == 0, result.output
    assert "ours on Test GPU, the source's on NVIDIA H100" in " ".join(result.output.split())


def test_a_broken_record_elsewhere_does_not_cost_the_gpu_session(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    (records_dir / "family" / "half-edited.yaml").write_text("kind: [")
    result = cli("reproduce", "--all", "--plan", "--limit", "2", "--records", records_dir)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "has 1 error(s)" in text and "continuing with the records that loaded" in text
    assert len([line for line in result.output.splitlines() if line.startswith("  ")]) == 2
    one = cli("reproduce", RESULT_33, "--plan", "--records", records_dir)
    assert one.exit_code == 1, "one result's reproduction still needs a valid registry"


def test_only_settled_settings_are_skipped_next_time(tmp_path: Path, registry) -> None:  # type: ignore[no-untyped-def]
    """A value or an out-of-memory on a GPU settles a setting; a crash, a failed build or a dry run does not."""
    runs = tmp_path / "runs"
    runs.mkdir()
    gpu = {"kind": "gpu", "name": "NVIDIA H200"}
    base = {"method": "measured", "model": "nt-2-5b", "stage": "checkpointing", "sequence_length": 1000,
            "batch_size": 16, "data_seed": 42, "hardware": gpu}
    precisions = ["bf16-weights-fp32-adam", "fp32-autocast-bf16", "pure-bf16"]
    entries = [base | {"status": status, "setting": {"precision": p}}
               for status, p in zip(("ok", "out-of-memory", "error"), precisions, strict=True)]
    entries.append(base | {"status": "ok", "setting": {"precision": "pure-bf16"}, "dry_run": True,
                           "hardware": {"kind": "cpu", "name": "CPU"}})
    entries.append(base | {"status": "ok", "setting": {"precision": "pure-bf16"}, "method": "dry-run"})  # an old log
    (runs / "earlier.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries) + '{"method": "meas')
    done = settled(registry, runs)
    assert {s.precision.value for s in done} == {"bf16-weights-fp32-adam", "fp32-autocast-bf16"}
    assert settled(registry, runs, "NVIDIA H200") == done
    assert settled(registry, runs, "NVIDIA H100 80GB HBM3") == set(), "an H200's runs settle nothing for an H100"
    assert all((s.model, s.stage, s.batch_size) == ("nt-2-5b", Stage.CHECKPOINTING, 16) for s in done)


@needs_torch
@no_gpu
def test_no_setting_starts_without_a_minute_left(cli, tmp_path: Path, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """--deadline: a setting never starts when it cannot be given a minute.

    30 s can never hold a setting's minute, however long the start took: the seconds elapsed and left depend on
    the machine's speed and load, so only their shape and their sum (at most the deadline) are checked.
    """
    out = tmp_path / "out"
    result = cli("reproduce", "--all", "--smoke", "--out", out, "--deadline", "30", "--records", records_dir)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    said = re.search(r"Deadline: (\d+) s elapsed, (\d+) s left; 108 setting\(s\) not started "
                     r"\(each needs at least 60 s\)\.", text)
    assert said is not None, text
    elapsed, left = int(said.group(1)), int(said.group(2))
    assert left <= 30 and (left == 0 or 29 <= elapsed + left <= 31), "rounded parts of the same 30 s"
    assert not (out / "ablation.jsonl").read_text().strip()


def test_a_setting_past_its_time_is_filed_as_an_error(cli, tmp_path: Path, records_dir: Path, fake_gpu,  # type: ignore[no-untyped-def]
                                                      monkeypatch) -> None:
    import time

    monkeypatch.setattr("measure.gpu.measure", lambda setting, **kw: time.sleep(5))  # a hung set-up
    monkeypatch.setattr("measure.env.gpu_hardware", lambda: Hardware(kind=HardwareKind.GPU, name="Test GPU"))
    out = tmp_path / "out"
    result = cli("reproduce", "--all", "--limit", "1", "--setting-timeout", "1", "--out", out, "--records",
                 records_dir)
    assert result.exit_code == 1, result.output  # nothing finished
    [line] = log_lines(out)
    assert line["status"] == "error" and line["error"] == "TimeoutError: the setting ran past 1 s and was abandoned"
    assert line["record"] is not None, "a timed-out setting of a recipe is filed as an error outcome"


def test_at_least_one_measured_step(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("reproduce", "--all", "--smoke", "--steps", "0")
    assert result.exit_code == 2 and "greater than or equal to 1" in result.output


@pytest.mark.parametrize(("method", "device", "smoke", "built"), [
    (Method.MEASURED, "cuda", False, True), (Method.MEASURED, "cpu", True, False),
    (Method.ESTIMATED, "cuda", False, False)])
def test_deepspeed_ops_are_built_in_the_background_only_for_a_gpu_measurement(  # type: ignore[no-untyped-def]
        registry, tmp_path: Path, monkeypatch, method: Method, device: str, smoke: bool, built: bool) -> None:
    from measure.schedule import OpBuild
    from registry.reproduce import run as rp
    from registry.reproduce.runlog import RunLog

    started: list[Path] = []
    monkeypatch.setattr(OpBuild, "start", classmethod(lambda cls, log: started.append(log)))
    log = RunLog(tmp_path / "out", tmp_path / "records")
    rp._start_op_build(plan_all(registry, method=method, smoke=smoke), device, log)
    assert started == ([tmp_path / "out" / "ds_op_build.log"] if built else [])
    started.clear()
    rp._start_op_build(plan_all(registry, method=method, limit=1), device, log)  # the checkpointing stage only
    assert started == []


def test_without_recipes_there_is_nothing_to_run(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    shutil.rmtree(records_dir / "recipe")
    shutil.rmtree(records_dir / "reproduction")
    result = cli("reproduce", "--all", "--plan", "--records", records_dir)
    text = " ".join(result.output.split())
    assert result.exit_code == 1 and "no recipe of experiment 'nt-training-memory' in the records" in text
    assert "point --records at the registry that has them" in text


def test_an_unwritable_log_folder_is_explained(cli, tmp_path: Path, records_dir: Path, fake_gpu) -> None:  # type: ignore[no-untyped-def]
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = cli("reproduce", "--all", "--limit", "1", "--out", blocker / "out", "--records", records_dir)
    text = " ".join(result.output.split())
    assert result.exit_code == 1 and "cannot keep the run's log in" in text
    assert "give --out a folder you can write to" in text and "Traceback" not in result.output


def test_stop_all_ends_every_background_build(tmp_path: Path) -> None:
    """A run ended by a signal stops the compiler it started instead of leaving it running."""
    from measure.schedule import OpBuild

    class Sleeper(OpBuild):
        CODE = "import time; time.sleep(60)"

    builds = [Sleeper(tmp_path / "one.log"), Sleeper(tmp_path / "two.log")]
    assert all(build.running for build in builds) and all(build in OpBuild.started for build in builds)
    OpBuild.stop_all()
    assert not any(build.running for build in builds) and not any(build in OpBuild.started for build in builds)


def synthetic_estimate(setting, method, *, device, steps, timeout):  # type: ignore[no-untyped-def]
    """Stands in for the CPU trace in the test below: plumbing only, the numbers are test inputs."""
    return RunOutcome(setting=setting, method=Method.ESTIMATED,
                      hardware=Hardware(kind=HardwareKind.CPU_ESTIMATE, name="CPU estimate (Test CPU)"),
                      started_at=dt.datetime.now(dt.UTC), status=Status.OK, peak_bytes=34_000_000_000, steps=1,
                      warmup_steps=0)


def test_an_estimate_is_not_filed_twice_at_one_commit_with_one_software(cli, records_dir: Path,  # type: ignore[no-untyped-def]
                                                                         monkeypatch) -> None:
    """Estimating a setting again at the same clean commit with the same software filed a second, identical record;
    it is skipped, and estimated again with --redo, at another commit, with uncommitted changes or other software."""
    import measure.env
    from registry.reproduce import plan as rp

    monkeypatch.setattr("measure.run.run", synthetic_estimate)
    monkeypatch.setattr(rp, "check_requirements", lambda jobs, method: None)
    monkeypatch.setattr(measure.env, "software_versions", lambda: {"python": "3.11.7", "torch": "2.13.0+cpu"})
    monkeypatch.setenv("REGISTRY_GIT_COMMIT", "abc1234")
    args = ["reproduce", RESULT_33, "--estimate", "--records", records_dir]

    def filed() -> int:
        return len(list((records_dir / "reproduction").glob("*.yaml")))

    before = filed()
    first = cli(*args)
    assert first.exit_code == 0, first.output
    settings = filed() - before
    assert settings > 2
    again = cli(*args)
    assert again.exit_code == 0, again.output
    text = " ".join(again.output.split())
    assert f"Skipping {settings} setting(s) estimated before at commit abc1234 with the same software" in text
    assert "(--redo estimates them again)" in text and "Nothing to run." in text and filed() == before + settings
    assert cli(*args, "--redo", "--limit", "1").exit_code == 0 and filed() == before + settings + 1
    monkeypatch.setenv("REGISTRY_GIT_COMMIT", "abc1234+dirty")
    assert "Skipping" not in cli(*args, "--limit", "1").output and filed() == before + settings + 2
    monkeypatch.setenv("REGISTRY_GIT_COMMIT", "abc1234")
    monkeypatch.setattr(measure.env, "software_versions", lambda: {"python": "3.11.7", "torch": "2.14.0+cpu"})
    assert "Skipping" not in cli(*args, "--limit", "1").output and filed() == before + settings + 3
    assert validate(records_dir)[1].valid


def test_a_signal_while_a_setting_is_filed_waits_until_it_is_filed_whole(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                         records_dir: Path, fake_gpu,
                                                                         monkeypatch) -> None:
    """A signal between the record's write and its log line left the record on disk but missing from 'Kept:',
    the log and the tarball; it now acts once the setting is filed whole."""
    import os
    import signal

    from measure.schedule import OpBuild
    from registry.cli import reproduce as cli_reproduce
    from registry.reproduce import adapter as rp

    written_by = rp.write_record

    def write_then_stop(root, record):  # type: ignore[no-untyped-def]
        path = written_by(root, record)
        os.kill(os.getpid(), signal.SIGINT)  # after the record is written, before its log line
        return path

    def exit_at_once(status: int) -> None:
        raise SystemExit(status)

    monkeypatch.setattr("measure.run.run", synthetic_measurement)
    monkeypatch.setattr(rp, "write_record", write_then_stop)
    monkeypatch.setattr(cli_reproduce, "_exit", exit_at_once)
    monkeypatch.setattr(OpBuild, "stop_all", classmethod(lambda cls: None))
    bundled = {p.name for p in (records_dir / "reproduction").glob("*.yaml")}
    out = tmp_path / "out"
    result = cli("reproduce", "--all", "--records", records_dir, "--out", out, "--limit", "3")
    assert result.exit_code == 130, result.output
    [written] = [p for p in (records_dir / "reproduction").iterdir() if p.name not in bundled]
    text = " ".join(result.output.split())
    assert f"Kept: 1 reproduction record(s) it wrote, each whole: {written}" in text
    assert [line["record"] for line in log_lines(out)] == [written.stem]
    import tarfile

    with tarfile.open(out / "reproductions.tar.gz") as tar:
        assert f"reproduction/{written.name}" in tar.getnames()
