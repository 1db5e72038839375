"""Re-running the experiment behind a result: resolve its recipe, run each setting, file what it gave.

A result's recipe holds the conditions the source states and the knobs it leaves open;
``plan`` turns them into settings (most plausible first), ``run_job`` measures one on a
GPU or estimates it on a CPU (``measure``), and ``build_record`` files the outcome as a
reproduction record beside the transcribed value, which is never touched. The heavy
libraries load only inside ``run_job``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from measure import EXPERIMENT
from measure.errors import MeasureError, require
from measure.outcome import Method, RunOutcome
from measure.settings import KnobValue, Setting, Stage, sweep
from registry.errors import RegistryError
from registry.ids import MAX_ID_LENGTH, parse_id
from registry.loader import Registry
from registry.models import Recipe, Reproduction, Result
from registry.models.reproduction import Comparison, Outcome, ReproductionMethod, RunHardware, ratio
from registry.units import bytes_in_unit, gib
from registry.writer import write_record

#: The model a smoke run uses instead of the recipe's.
SMOKE_MODEL = "nt-tiny"


@dataclass(frozen=True)
class Job:
    """One setting to run; ``result`` and ``recipe`` are None for a stage no result was transcribed for."""

    setting: Setting
    result: Result | None = None
    recipe: Recipe | None = None


@dataclass(frozen=True)
class Plan:
    """What ``registry reproduce`` will run: the result, its recipe and the settings, in order."""

    result: Result
    recipe: Recipe
    jobs: list[Job]
    method: ReproductionMethod
    smoke: bool = False


@dataclass(frozen=True)
class RunEnvironment:
    """Provenance shared by every record of one command: versions, commit and the command line."""

    software: dict[str, str | None]
    git_commit: str | None
    command: str

    @classmethod
    def collect(cls, command: str) -> RunEnvironment:
        from measure.env import git_commit, software_versions

        return cls(software=software_versions(), git_commit=git_commit(), command=command)


@dataclass
class Filed:
    """One finished job: its outcome, the record built from it, and where that was written (if it was)."""

    job: Job
    outcome: RunOutcome
    record: Reproduction | None = None
    path: Path | None = None
    comparison: Comparison | None = field(default=None)


# -- resolving ----------------------------------------------------------------------------------


def recipe_for(registry: Registry, result_id: str) -> tuple[Result, Recipe]:
    """The result ``result_id`` and its one recipe, or an error saying what exists instead."""
    result = registry.get_as(result_id.strip(), Result)
    recipes = registry.referrers(result.id, Recipe, "result")
    if not recipes:
        with_recipes = sorted({r.result for r in registry.of_kind(Recipe)})
        hint = ("results with a recipe: " + ", ".join(with_recipes)) if with_recipes else "no result has one yet"
        raise RegistryError(f"result {result.id!r} has no recipe, so there is nothing to re-run",
                            f"add a records/recipe/<id>.yaml for it; {hint}")
    if len(recipes) > 1:
        raise RegistryError(f"result {result.id!r} has {len(recipes)} recipes: {', '.join(r.id for r in recipes)}",
                            "keep one recipe per result")
    return result, recipes[0]


def base_setting(recipe: Recipe) -> Setting:
    """The setting the recipe's fixed conditions make, before any knob is set."""
    if recipe.experiment != EXPERIMENT:
        raise RegistryError(f"recipe {recipe.id!r} is for experiment {recipe.experiment!r}, which measure/ does not "
                            f"run", f"the experiments measure/ runs: {EXPERIMENT}")
    fixed = recipe.fixed
    try:
        Stage(fixed.stage)
    except ValueError:
        raise RegistryError(f"recipe {recipe.id!r} names stage {fixed.stage!r}",
                            f"the stages are: {', '.join(s.value for s in Stage)}") from None
    from measure.config import get_size

    get_size(fixed.model)
    return Setting(model=fixed.model, stage=Stage(fixed.stage), sequence_length=fixed.sequence_length,
                   batch_size=fixed.batch_size, data_seed=fixed.data_seed)


def recipe_settings(recipe: Recipe, overrides: Mapping[str, Sequence[KnobValue]] | None = None) -> list[Setting]:
    """Every setting of the recipe's sweep, most plausible first; ``overrides`` replace a knob's candidates."""
    overrides = dict(overrides or {})
    names = [knob.name for knob in recipe.knobs]
    unknown = sorted(set(overrides) - set(names))
    if unknown:
        raise RegistryError(f"recipe {recipe.id!r} has no knob {unknown[0]!r}",
                            f"its knobs are: {', '.join(names) or 'none'}")
    knobs = [(knob.name, list(overrides.get(knob.name, knob.candidates))) for knob in recipe.knobs]
    try:
        return sweep(base_setting(recipe), knobs)
    except MeasureError as exc:
        raise RegistryError(f"recipe {recipe.id!r}: {exc.message}", exc.hint) from None


def parse_overrides(assignments: Iterable[str]) -> dict[str, list[KnobValue]]:
    """['precision=pure-bf16', 'precision=fp32-autocast-bf16'] -> {'precision': [both]}."""
    from measure.settings import parse_assignment

    overrides: dict[str, list[KnobValue]] = {}
    for text in assignments:
        name, value = parse_assignment(text)
        overrides.setdefault(name, [])
        if value not in overrides[name]:
            overrides[name].append(value)
    return overrides


def plan(registry: Registry, result_id: str, *, method: ReproductionMethod,
         overrides: Mapping[str, Sequence[KnobValue]] | None = None, limit: int | None = None,
         smoke: bool = False) -> Plan:
    """The jobs ``registry reproduce`` runs for ``result_id``; a smoke plan swaps in the tiny model."""
    result, recipe = recipe_for(registry, result_id)
    settings = recipe_settings(recipe, overrides)
    if smoke:
        settings = [s.with_model(SMOKE_MODEL) for s in settings]
    if limit is not None:
        settings = settings[:limit]
    return Plan(result=result, recipe=recipe, jobs=[Job(s, result, recipe) for s in settings], method=method,
                smoke=smoke)


# -- running ------------------------------------------------------------------------------------


def run_job(job: Job, method: ReproductionMethod | Method, *, steps: int = 2, device: str = "cuda") -> RunOutcome:
    """Measure (on ``device``) or estimate one job's setting."""
    if Method(method) is Method.ESTIMATED:
        from measure.estimate import estimate

        return estimate(job.setting)
    from measure.gpu import measure

    return measure(job.setting, device=device, steps=steps)


def check_requirements(jobs: Sequence[Job], method: ReproductionMethod | Method) -> None:
    """Fail early, naming the install command, when a library some job needs is missing."""
    from measure.step import required_modules

    engine = Method(method) is not Method.ESTIMATED
    needed = dict.fromkeys(m for job in jobs for m in required_modules(job.setting, engine=engine))
    require(*needed)


def compare(result: Result, value: Decimal) -> Comparison | None:
    """The value beside the result's, or None where the result is 0 (no ratio to give).

    Fresh Decimal objects, since YAML would write a shared one as an alias.
    """
    transcribed, reproduced = Decimal(str(result.numeric_value)), Decimal(str(value))
    if transcribed == 0:
        return None
    return Comparison(transcribed=transcribed, reproduced=reproduced, difference=reproduced - transcribed,
                      ratio=ratio(reproduced, transcribed))


def reproduction_id(result: Result, outcome: RunOutcome) -> str:
    """'<result batch>-<run date>-reproduction-<result slug>-<method>-<knobs>-<hash>', at most MAX_ID_LENGTH long.

    The hash covers everything that tells runs apart, so the id stays unique when a long slug or knob
    token has to be shortened to fit: the knobs go first, then the slug.
    """
    parsed = parse_id(result.id)
    fingerprint = json.dumps([outcome.setting.model, outcome.setting.knobs(), outcome.method.value,
                              outcome.started_at.isoformat(), outcome.hardware.name], sort_keys=True)
    digest = hashlib.sha256(fingerprint.encode()).hexdigest()[:6]
    prefix = f"{parsed.batch}-{outcome.started_at:%Y%m%d}-reproduction-"
    method = outcome.method.value
    room = MAX_ID_LENGTH - len(prefix) - len(digest) - 1  # what is left for '<slug>-<method>[-<knobs>]'
    slug = parsed.slug[:max(1, room - len(method) - 1)].strip("-")
    body = f"{slug}-{method}"
    token = outcome.setting.id_token()[:max(0, room - len(body) - 1)].strip("-")
    return f"{prefix}{body}-{token}-{digest}" if token else f"{prefix}{body}-{digest}"


def build_record(job: Job, outcome: RunOutcome, env: RunEnvironment) -> Reproduction:
    """The reproduction record of one outcome (only for a job with a result and recipe, measured or estimated)."""
    if job.result is None or job.recipe is None:
        raise RegistryError("a run of a stage without a transcribed result cannot become a reproduction record")
    if outcome.method is Method.DRY_RUN:
        raise RegistryError("a dry run measured nothing, so it is never filed as a reproduction")
    result = job.result
    status, error = Outcome(outcome.status.value), outcome.error
    if status is Outcome.OK and outcome.peak_bytes is None:
        status, error = Outcome.ERROR, error or "the run finished without a peak value"
    ok = status is Outcome.OK and outcome.peak_bytes is not None
    value = bytes_in_unit(outcome.peak_bytes, result.unit) if ok and outcome.peak_bytes is not None else None
    return Reproduction.model_validate(
        {
            "kind": "reproduction",
            "id": reproduction_id(result, outcome),
            "result": result.id,
            "recipe": job.recipe.id,
            "method": outcome.method.value,
            "model": outcome.setting.model,
            "setting": outcome.setting.knobs(),
            "outcome": status.value,
            "error": error if status is not Outcome.OK else None,
            "value_bytes": outcome.peak_bytes if ok else None,
            "value": value,
            "value_gib": gib(outcome.peak_bytes) if ok and outcome.peak_bytes is not None else None,
            "reserved_bytes": outcome.reserved_bytes,
            "warmup_peak_bytes": outcome.warmup_peak_bytes,
            "breakdown_bytes": dict(outcome.breakdown_bytes),
            "comparison": compare(result, value) if value is not None else None,
            "attention_impl": outcome.attention_impl,
            "tokens_per_sequence": outcome.setting.tokens_per_sequence,
            "parameters": outcome.parameters,
            "trainable_parameters": outcome.trainable_parameters,
            "steps": outcome.steps,
            "warmup_steps": outcome.warmup_steps,
            "method_note": outcome.method_note,
            "hardware": RunHardware(kind=outcome.hardware.kind, name=outcome.hardware.name,  # type: ignore[arg-type]
                                    memory_bytes=outcome.hardware.memory_bytes, count=outcome.hardware.count),
            "software": dict(env.software),
            "git_commit": env.git_commit,
            "command": env.command,
            "started_at": outcome.started_at.replace(microsecond=0),
            "duration_s": outcome.duration_s,
        }
    )


ProgressHook = Callable[[int, Job], None]
DoneHook = Callable[[int, Filed], None]


def reproduce(jobs: Sequence[Job], method: ReproductionMethod | Method, env: RunEnvironment, *,
              write_root: Path | None, steps: int = 2, device: str = "cuda",
              on_start: ProgressHook | None = None, on_done: DoneHook | None = None) -> list[Filed]:
    """Run every job in order; build its record and write it at once (when ``write_root`` is given)."""
    filed: list[Filed] = []
    for index, job in enumerate(jobs):
        if on_start:
            on_start(index, job)
        outcome = run_job(job, method, steps=steps, device=device)
        entry = Filed(job=job, outcome=outcome)
        if job.result is not None and outcome.method is not Method.DRY_RUN:
            entry.record = build_record(job, outcome, env)
            if job.recipe is not None and outcome.setting.model == job.recipe.fixed.model:
                entry.comparison = entry.record.comparison  # a smoke run's tiny model compares with nothing
            if write_root is not None:
                entry.path = write_record(write_root, entry.record)
        filed.append(entry)
        if on_done:
            on_done(index, entry)
    return filed


def command_line(result_id: str, *, estimate: bool, smoke: bool, overrides: Mapping[str, Sequence[KnobValue]],
                 limit: int | None, steps: int | None, records: Path | None) -> str:
    """The command as a user would type it, rebuilt from the parsed options (stable in tests and logs)."""
    import shlex

    parts = ["registry", "reproduce", result_id]
    parts += ["--estimate"] if estimate else []
    parts += ["--smoke"] if smoke else []
    for name, values in overrides.items():
        for value in values:
            parts += ["--setting", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
    parts += ["--limit", str(limit)] if limit is not None else []
    parts += ["--steps", str(steps)] if steps is not None else []
    parts += ["--records", str(records)] if records is not None and str(records) != "records" else []
    return " ".join(shlex.quote(p) for p in parts)
