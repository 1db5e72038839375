"""Run the whole ablation on one GPU in one process, most informative settings first.

Order: (1) the two transcribed stages ('+ Checkpointing', '+ DeepSpeed') with each recipe's
most plausible setting; (2) the stages without a transcribed result (baseline,
'+ FlashAttention') with that same setting; (3) the rest of both recipes' sweeps, taken in
turn; (4) the rest of the other stages' sweeps. Each finished setting is written at once:
a reproduction record under <records>/reproduction/ (settings of a recipe only), a line
in <out>/ablation.jsonl (every setting), and a fresh <out>/reproductions.tar.gz holding
both, so a run cut short keeps everything it finished. A setting that does not fit,
crashes, or whose DeepSpeed ops fail to build is recorded with its error, not as a number.

    python -m measure.run_gpu_ablation --out "$OUT" --deadline 420     # on the GPU machine
    python -m measure.run_gpu_ablation --dry-run --out /tmp/dry         # tiny model on the CPU

See measure/README.md for the machine set-up (wheels to carry, the exact command).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from measure.outcome import RunOutcome
from measure.settings import Stage, interleave

DRY_RUN_MODEL = "nt-tiny"
#: A dry run keeps every stage and knob but shrinks the batch, so that the CPU gets through it in seconds.
DRY_RUN_SHAPE = {"batch_size": 2, "sequence_length": 64}
DEFAULT_DEADLINE_S = 420.0
DEFAULT_SETTING_TIMEOUT_S = 240
#: No setting starts with less time than this left before the deadline.
MIN_SETTING_S = 60


def build_jobs(registry: Any, *, dry_run: bool = False) -> list[Any]:
    """Every job of the ablation in the order it runs (see the module docstring)."""
    from dataclasses import replace

    from registry.models import Recipe, Result
    from registry.reproduce import Job, recipe_settings

    recipes = sorted((r for r in registry.of_kind(Recipe) if r.experiment == "nt-training-memory"),
                     key=lambda r: list(Stage).index(Stage(r.fixed.stage)))
    if not recipes:
        from registry.errors import RegistryError

        raise RegistryError("no recipe of experiment 'nt-training-memory' in the records",
                            "run from the project folder, or point --records at the registry")
    sweeps: list[list[Any]] = []
    for recipe in recipes:
        result = registry.get_as(recipe.result, Result)
        settings = recipe_settings(recipe)
        if dry_run:
            settings = [replace(s, model=DRY_RUN_MODEL, batch_size=DRY_RUN_SHAPE["batch_size"],
                                sequence_length=DRY_RUN_SHAPE["sequence_length"]) for s in settings]
        sweeps.append([Job(s, result, recipe) for s in settings])
    stages_with_recipes = {job.setting.stage for sweep in sweeps for job in sweep}
    reference = next((sweep for sweep in sweeps if sweep[0].setting.stage is Stage.CHECKPOINTING), sweeps[0])
    others = [stage for stage in (Stage.BASELINE, Stage.FLASH_ATTENTION) if stage not in stages_with_recipes]
    other_sweeps = [_restage(reference, stage) for stage in others]

    ordered = [sweep[0] for sweep in sweeps] + [sweep[0] for sweep in other_sweeps]
    for job in interleave(*(sweep[1:] for sweep in sweeps)) + interleave(*(s[1:] for s in other_sweeps)):
        if job not in ordered:
            ordered.append(job)
    return ordered


def _restage(jobs: Sequence[Any], stage: Stage) -> list[Any]:
    """The same sweep at another stage, with no result or recipe (no transcribed value to file it against)."""
    from dataclasses import replace

    from registry.reproduce import Job

    seen: list[Any] = []
    for job in jobs:
        setting = replace(job.setting, stage=stage).normalized()
        if all(other.setting != setting for other in seen):
            seen.append(Job(setting))
    return seen


#: Outcomes that answer a setting for good on this GPU; any other outcome is tried again.
SETTLED = ("ok", "out-of-memory")


def already_measured(registry: Any, runs: Path) -> set[tuple[str, str, str]]:
    """(model, stage, knobs as JSON) of every setting an earlier GPU run settled, from records and kept logs.

    Settled: it gave a value, or it did not fit (out of memory is this GPU's answer for that setting). A
    setting that crashed, timed out or could not start (DeepSpeed's ops failing to build) is run again.
    """
    from registry.models import Recipe, Reproduction

    done: set[tuple[str, str, str]] = set()
    for record in registry.of_kind(Reproduction):
        recipe = registry.records.get(record.recipe)
        if record.method.value == "measured" and record.outcome.value in SETTLED and isinstance(recipe, Recipe):
            done.add((record.model, recipe.fixed.stage, json.dumps(record.setting, sort_keys=True)))
    for log in sorted(runs.glob("*.jsonl")) if runs.is_dir() else []:
        for line in log.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line) if line.strip() else {}
            if entry.get("method") == "measured" and entry.get("status") in SETTLED:
                done.add((entry["model"], entry["stage"], json.dumps(entry["setting"], sort_keys=True)))
    return done


def job_key(job: Any) -> tuple[str, str, str]:
    return (job.setting.model, job.setting.stage.value, json.dumps(job.setting.knobs(), sort_keys=True))


def log_line(outcome: RunOutcome, record_id: str | None) -> dict[str, Any]:
    """One JSON line per finished setting: everything the run saw, record or not."""
    setting = outcome.setting
    return {
        "model": setting.model,
        "stage": setting.stage.value,
        "sequence_length": setting.sequence_length,
        "batch_size": setting.batch_size,
        "data_seed": setting.data_seed,
        "tokens_per_sequence": setting.tokens_per_sequence,
        "setting": setting.knobs(),
        "method": outcome.method.value,
        "status": outcome.status.value,
        "peak_bytes": outcome.peak_bytes,
        "peak_gb": None if outcome.peak_bytes is None else outcome.peak_bytes / 1e9,
        "peak_gib": None if outcome.peak_bytes is None else outcome.peak_bytes / 2**30,
        "reserved_bytes": outcome.reserved_bytes,
        "warmup_peak_bytes": outcome.warmup_peak_bytes,
        "breakdown_bytes": outcome.breakdown_bytes,
        "attention_impl": outcome.attention_impl,
        "parameters": outcome.parameters,
        "trainable_parameters": outcome.trainable_parameters,
        "steps": outcome.steps,
        "warmup_steps": outcome.warmup_steps,
        "losses": outcome.losses,
        "error": outcome.error,
        "hardware": {"kind": outcome.hardware.kind, "name": outcome.hardware.name,
                     "memory_bytes": outcome.hardware.memory_bytes},
        "started_at": outcome.started_at.isoformat(),
        "duration_s": outcome.duration_s,
        "record": record_id,
    }


def pack(out: Path, records_root: Path, record_ids: Sequence[str]) -> Path:
    """Rewrite <out>/reproductions.tar.gz with the records written so far and the log (atomically)."""
    target = out / "reproductions.tar.gz"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for record_id in record_ids:
            path = records_root / "reproduction" / f"{record_id}.yaml"
            tar.add(path, arcname=f"reproduction/{record_id}.yaml")
        for name in ("ablation.jsonl", "ds_op_build.log"):
            if (out / name).exists():
                tar.add(out / name, arcname=name)
    temporary = out / ".reproductions.tar.gz.partial"
    temporary.write_bytes(buffer.getvalue())
    os.replace(temporary, target)
    return target


def prebuild_deepspeed_ops(out: Path) -> subprocess.Popen[bytes] | None:
    """Compile DeepSpeed's CPU Adam in the background while the first settings run (it takes a minute or so)."""
    import importlib.util

    if importlib.util.find_spec("deepspeed") is None:
        return None
    log = (out / "ds_op_build.log").open("wb")
    code = "from deepspeed.ops.op_builder import CPUAdamBuilder; CPUAdamBuilder().load(); print('cpu_adam ready')"
    return subprocess.Popen([sys.executable, "-c", code], stdout=log, stderr=subprocess.STDOUT)


def run_with_timeout(job: Any, seconds: int, *, steps: int, device: str) -> RunOutcome:
    """``run_job``, abandoned with a TimeoutError outcome if it takes longer than ``seconds`` (a hung set-up)."""
    import datetime as dt
    import signal

    from measure.env import cpu_hardware, gpu_hardware
    from measure.outcome import Method, Status
    from registry.reproduce import run_job

    def give_up(signum: int, frame: Any) -> None:
        raise TimeoutError(f"the setting ran past {seconds} s and was abandoned")

    started = dt.datetime.now(dt.UTC)
    previous = signal.signal(signal.SIGALRM, give_up)
    signal.alarm(seconds)
    try:
        return run_job(job, Method.MEASURED, steps=steps, device=device)
    except TimeoutError as exc:
        hardware = gpu_hardware() if device == "cuda" else cpu_hardware()
        return RunOutcome(setting=job.setting, method=Method.MEASURED if device == "cuda" else Method.DRY_RUN,
                          hardware=hardware, started_at=started, status=Status.ERROR, error=f"TimeoutError: {exc}",
                          duration_s=float(seconds))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _at_least_one(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"needs at least 1 measured step, not {value}")
    return value


def _time_for_another(clock: float, deadline: float, remaining: int) -> bool:
    """Whether a setting may start: at least MIN_SETTING_S must be left before the deadline."""
    elapsed = time.monotonic() - clock
    if deadline - elapsed < MIN_SETTING_S:
        print(f"deadline: {elapsed:.0f} s elapsed, {deadline - elapsed:.0f} s left; {remaining} settings not started",
              flush=True)
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m measure.run_gpu_ablation", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=Path, default=Path("records"), help="the registry (default: records)")
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "gpu-ablation-out")),
                        help="folder for ablation.jsonl and reproductions.tar.gz (default: $OUT)")
    parser.add_argument("--dry-run", action="store_true",
                        help=f"run every path on the CPU with {DRY_RUN_MODEL} and a small batch; measures and files "
                        "nothing")
    parser.add_argument("--limit", type=int, default=None, help="run only the first N settings")
    parser.add_argument("--deadline", type=float, default=DEFAULT_DEADLINE_S,
                        help="end by this many seconds: no setting starts with less than "
                        f"{MIN_SETTING_S} s left, and a running one gets at most the time left (default: %(default)s)")
    parser.add_argument("--setting-timeout", type=int, default=DEFAULT_SETTING_TIMEOUT_S,
                        help="give up on one setting after this many seconds (default: %(default)s)")
    parser.add_argument("--steps", type=_at_least_one, default=2, help="measured steps after one warm-up step")
    parser.add_argument("--plan", action="store_true", help="print the settings in order and stop")
    parser.add_argument("--redo", action="store_true",
                        help="also run settings an earlier GPU run finished (records, or logs under --runs)")
    parser.add_argument("--runs", type=Path, default=Path("measure/runs"),
                        help="kept ablation logs of earlier GPU runs (default: %(default)s)")
    args = parser.parse_args(argv)

    from registry.checks import validate
    from registry.errors import RegistryError
    from registry.reproduce import RunEnvironment, build_record
    from registry.writer import write_record

    clock = time.monotonic()
    registry, report = validate(args.records)
    if not report.valid:
        # Keep going: a GPU session is too scarce to lose to a half-edited record elsewhere in the tree; every
        # record this run writes is checked on its own, and 'registry validate' runs again when they come back.
        print(f"warning: the registry under {args.records} has {len(report.errors)} error(s) "
              f"(first: {report.errors[0].location}: {report.errors[0].message}); continuing with the records "
              "that loaded", file=sys.stderr)
    jobs = build_jobs(registry, dry_run=args.dry_run)
    if not args.redo and not args.dry_run:
        done = already_measured(registry, args.runs)
        skipped = [job for job in jobs if job_key(job) in done]
        jobs = [job for job in jobs if job_key(job) not in done]
        if skipped:
            print(f"skipping {len(skipped)} setting(s) an earlier GPU run finished (--redo runs them again)")
    jobs = jobs[: args.limit]
    if args.plan:
        for index, job in enumerate(jobs, start=1):
            print(f"{index:3d}. {job.setting.stage.value:15s} {'record' if job.result else 'log   '} "
                  f"{job.setting.label()}")
        return 0

    import torch

    device = "cpu" if args.dry_run else "cuda"
    if not args.dry_run and not torch.cuda.is_available():
        print("no CUDA GPU is visible; use --dry-run to exercise the script on the CPU", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    builder = None
    if not args.dry_run and any(job.setting.stage.deepspeed for job in jobs):
        builder = prebuild_deepspeed_ops(args.out)
    command = "python -m measure.run_gpu_ablation " + " ".join(sys.argv[1:] if argv is None else argv)
    env = RunEnvironment.collect(command.strip())
    print(f"{len(jobs)} settings on {'the CPU (dry run)' if args.dry_run else torch.cuda.get_device_name(0)}; "
          f"software: {json.dumps(env.software)}; commit {env.git_commit}", flush=True)

    written: list[str] = []
    with (args.out / "ablation.jsonl").open("a", encoding="utf-8") as log:
        for index, job in enumerate(jobs, start=1):
            if not _time_for_another(clock, args.deadline, len(jobs) - index + 1):
                break
            if builder is not None and job.setting.stage.deepspeed and builder.poll() is None:
                print("waiting for DeepSpeed's CPU Adam to finish compiling ...", flush=True)
                try:
                    builder.wait(timeout=max(args.deadline - (time.monotonic() - clock) - MIN_SETTING_S, 1))
                except subprocess.TimeoutExpired:
                    pass
                if not _time_for_another(clock, args.deadline, len(jobs) - index + 1):
                    break
            left = args.deadline - (time.monotonic() - clock)
            outcome = run_with_timeout(job, max(1, min(args.setting_timeout, int(left))), steps=args.steps,
                                       device=device)
            record_id = None
            if job.result is not None and outcome.method.value == "measured":
                try:
                    record = build_record(job, outcome, env)
                    write_record(args.records, record)
                    record_id = record.id
                    written.append(record_id)
                except (RegistryError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
                    message = exc.message if isinstance(exc, RegistryError) else str(exc).splitlines()[0]
                    outcome.error = f"{outcome.error or ''} (record not written: {message})".strip()
            log.write(json.dumps(log_line(outcome, record_id)) + "\n")
            log.flush()
            pack(args.out, args.records, written)
            value = "(nothing measured)" if outcome.peak_bytes is None else f"{outcome.peak_bytes / 1e9:.2f} GB"
            print(f"[{index}/{len(jobs)} {time.monotonic() - clock:5.0f} s] {job.setting.stage.value} "
                  f"{outcome.status.value} {value} ({outcome.duration_s:.0f} s) {job.setting.label()}"
                  + (f" :: {outcome.error}" if outcome.error else ""), flush=True)
    if builder is not None and builder.poll() is None:
        builder.terminate()
    print(f"wrote {len(written)} reproduction record(s); log and records in {args.out / 'reproductions.tar.gz'}",
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
