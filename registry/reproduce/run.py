"""Re-running the experiment behind a result: resolve its recipe, run each setting, file what it gave.

A result's recipe holds the conditions the source states and the knobs it leaves open;
``plan`` turns them into settings (most plausible first), and ``plan_all`` does so for every
recipe at once, adding the stages no source reports, in ``measure.ablation``'s order.
``reproduce`` runs the jobs one after another through ``measure.run`` (measured on a GPU,
a dry run on a CPU, or estimated), within an optional deadline, and ``build_record``, the one
adapter from measure/'s run outcome to the registry's record, files each outcome as a
reproduction beside the transcribed value, which is never touched. The heavy libraries load
only inside the run.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from measure import EXPERIMENT
from measure.errors import MeasureError, require
from measure.outcome import Method, RunOutcome, Status
from measure.settings import KnobValue, Setting, Stage, sweep
from registry.errors import RegistryError
from registry.ids import MAX_ID_LENGTH, compose_id
from registry.models import Recipe, Reproduction, Result, parse_id
from registry.models.reproduction import Comparison, ratio
from registry.store.loader import Registry
from registry.store.writer import write_record
from registry.units import bytes_in_unit, gib

if TYPE_CHECKING:
    from measure.schedule import Deadline, OpBuild
    from registry.reproduce.runlog import RunLog


class MeasurementError(RegistryError):
    """A ``measure.errors.MeasureError`` as the registry reports it; ``error`` keeps its data."""

    def __init__(self, error: MeasureError, context: str | None = None) -> None:
        super().__init__(f"{context}: {error.message}" if context else error.message, error.hint,
                         expected=error.expected, found=None if error.found is None else str(error.found))
        self.error = error


@contextmanager
def measure_errors(context: str | None = None) -> Iterator[None]:
    """Turn measure/'s errors into the registry's, so that the CLI reports them like any other."""
    try:
        yield
    except MeasureError as exc:
        raise MeasurementError(exc, context) from None


@dataclass(frozen=True)
class Job:
    """One setting to run; ``result`` and ``recipe`` are None for a stage no result was transcribed for."""

    setting: Setting
    result: Result | None = None
    recipe: Recipe | None = None


@dataclass(frozen=True)
class ReproductionPlan:
    """What ``registry reproduce`` will run, in order; ``result`` and ``recipe`` are None for the whole ablation."""

    jobs: list[Job]
    method: Method
    result: Result | None = None
    recipe: Recipe | None = None
    smoke: bool = False
    skipped: int = 0
    """Settings left out because an earlier GPU run settled them."""

    @property
    def results(self) -> list[Result]:
        """The results the jobs are filed against, in the order they first run."""
        return list({job.result.id: job.result for job in self.jobs if job.result is not None}.values())

    @property
    def stages(self) -> list[Stage]:
        return list(dict.fromkeys(job.setting.stage for job in self.jobs))


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
    write_error: str | None = None
    """Why the record could not be built or written (the run goes on; the log keeps the outcome)."""


@dataclass
class Run:
    """What ``reproduce`` did: every finished job, and how many the deadline left unstarted."""

    filed: list[Filed]
    not_started: int = 0
    elapsed_s: float = 0.0
    left_s: float | None = None


# -- resolving ----------------------------------------------------------------------------------


def recipe_for(registry: Registry, result_id: str) -> tuple[Result, Recipe]:
    """The result ``result_id`` and its one recipe, or an error saying what exists instead."""
    result = registry.get_as(result_id.strip(), Result)
    recipes = registry.referrers(result.id, Recipe, "result")
    if not recipes:
        with_recipes = sorted({r.result for r in registry.of_kind(Recipe)})
        hint = ("results with a recipe: " + ", ".join(with_recipes)) if with_recipes else "no result has one yet"
        raise RegistryError(f"result {result.id!r} has no recipe, so there is nothing to re-run",
                            f"add a recipe for it, as recipe/<id>.yaml in the records folder; {hint}")
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

    with measure_errors(f"recipe {recipe.id!r}"):
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
    base = base_setting(recipe)
    with measure_errors(f"recipe {recipe.id!r}"):
        return sweep(base, knobs)


def parse_overrides(assignments: Iterable[str]) -> dict[str, list[KnobValue]]:
    """['precision=pure-bf16', 'precision=fp32-autocast-bf16'] -> {'precision': [both]}."""
    from measure.settings import parse_assignment

    overrides: dict[str, list[KnobValue]] = {}
    for text in assignments:
        with measure_errors():
            name, value = parse_assignment(text)
        overrides.setdefault(name, [])
        if value not in overrides[name]:
            overrides[name].append(value)
    return overrides


def plan(registry: Registry, result_id: str, *, method: Method,
         overrides: Mapping[str, Sequence[KnobValue]] | None = None, limit: int | None = None,
         smoke: bool = False, skip: Collection[Setting] = ()) -> ReproductionPlan:
    """The jobs ``registry reproduce ID`` runs; a smoke plan shrinks each setting (``Setting.smoke``).

    Settings in ``skip`` (settled by an earlier GPU run) are left out before ``limit`` applies.
    """
    result, recipe = recipe_for(registry, result_id)
    settings = recipe_settings(recipe, overrides)
    if smoke:
        settings = [s.smoke() for s in settings]
    jobs = [Job(s, result, recipe) for s in settings]
    return _finish(jobs, method=method, smoke=smoke, skip=skip, limit=limit, result=result, recipe=recipe)


def plan_all(registry: Registry, *, method: Method, overrides: Mapping[str, Sequence[KnobValue]] | None = None,
             limit: int | None = None, smoke: bool = False, skip: Collection[Setting] = ()) -> ReproductionPlan:
    """The whole ablation: every recipe measure/ runs, and the stages no source reports, most informative first.

    A knob in ``overrides`` narrows the recipes that have it; one that no recipe has is an error.
    """
    from measure.ablation import order

    recipes = [r for r in registry.of_kind(Recipe) if r.experiment == EXPERIMENT]
    if not recipes:
        raise RegistryError(f"no recipe of experiment {EXPERIMENT!r} in the records, so there is nothing to re-run",
                            "add a recipe for a result, as recipe/<id>.yaml in the records folder, or point {records} "
                            "at the registry that has them")
    overrides = dict(overrides or {})
    knob_names = {knob.name for recipe in recipes for knob in recipe.knobs}
    unknown = sorted(set(overrides) - knob_names)
    if unknown:
        raise RegistryError(f"no recipe has a knob {unknown[0]!r}", f"their knobs are: {', '.join(sorted(knob_names))}")
    owners: dict[Setting, tuple[Result, Recipe]] = {}
    sweeps: list[list[Setting]] = []
    for recipe in recipes:
        result = registry.get_as(recipe.result, Result)
        mine = {name: values for name, values in overrides.items() if name in {k.name for k in recipe.knobs}}
        settings = recipe_settings(recipe, mine)
        if smoke:
            settings = [s.smoke() for s in settings]
        sweeps.append(settings)
        owners.update({s: (result, recipe) for s in settings})
    jobs = [Job(s, *owners[s]) if s in owners else Job(s) for s in order(sweeps)]
    return _finish(jobs, method=method, smoke=smoke, skip=skip, limit=limit)


def _finish(jobs: list[Job], *, method: Method, smoke: bool, skip: Collection[Setting], limit: int | None,
            result: Result | None = None, recipe: Recipe | None = None) -> ReproductionPlan:
    kept = [job for job in jobs if job.setting.normalized() not in skip]
    return ReproductionPlan(jobs=kept[:limit], method=method, result=result, recipe=recipe, smoke=smoke,
                            skipped=len(jobs) - len(kept))


# -- filing -------------------------------------------------------------------------------------


def check_requirements(jobs: Sequence[Job], method: Method) -> None:
    """Fail early, naming the install command, when a library some job needs is missing."""
    from measure.step import required_modules

    engine = method is not Method.ESTIMATED
    needed = dict.fromkeys(m for job in jobs for m in required_modules(job.setting, engine=engine))
    with measure_errors():
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
    prefix = compose_id(parsed.batch, f"{outcome.started_at:%Y%m%d}", "reproduction", "")
    method = outcome.method.value
    room = MAX_ID_LENGTH - len(prefix) - len(digest) - 1  # what is left for '<slug>-<method>[-<knobs>]'
    slug = parsed.slug[:max(1, room - len(method) - 1)].strip("-")
    body = f"{slug}-{method}"
    token = outcome.setting.id_token()[:max(0, room - len(body) - 1)].strip("-")
    return f"{prefix}{body}-{token}-{digest}" if token else f"{prefix}{body}-{digest}"


def shared_fields(source: type) -> tuple[str, ...]:
    """The fields of dataclass ``source`` (a run outcome, a run environment) that the record has too, by name."""
    own = {f.name for f in dataclasses.fields(source)}
    return tuple(name for name in Reproduction.model_fields if name in own)


def build_record(job: Job, outcome: RunOutcome, env: RunEnvironment) -> Reproduction:
    """The reproduction record of one outcome (only for a job with a result and recipe, measured or estimated).

    What the record derives is derived here, once: the id, what the setting says, the status
    and value in the result's unit and in GiB, the comparison. Every other field the outcome or
    the environment holds under the record's name is copied as it is (``shared_fields``), so a
    field added to both reaches the record with no edit here.
    """
    if job.result is None or job.recipe is None:
        raise RegistryError("a run of a stage without a transcribed result cannot become a reproduction record")
    if outcome.dry_run:
        raise RegistryError("a dry run measured nothing, so it is never filed as a reproduction")
    result = job.result
    status, error = outcome.status, outcome.error
    if status is Status.OK and outcome.peak_bytes is None:
        status, error = Status.ERROR, error or "the run finished without a peak value"
    peak = outcome.peak_bytes if status is Status.OK else None
    value = bytes_in_unit(peak, result.unit) if peak is not None else None
    derived = {
        "kind": Reproduction.kind_token,
        "id": reproduction_id(result, outcome),
        "result": result.id,
        "recipe": job.recipe.id,
        "model": outcome.setting.model,
        "setting": outcome.setting.knobs(),
        "tokens_per_sequence": outcome.setting.tokens_per_sequence,
        "outcome": status,
        "error": None if status is Status.OK else error,
        "value_bytes": peak,
        "value": value,
        "value_gib": gib(peak) if peak is not None else None,
        "comparison": compare(result, value) if value is not None else None,
        "started_at": outcome.started_at.replace(microsecond=0),
    }
    copied = {name: getattr(source, name) for source in (outcome, env)
              for name in shared_fields(type(source)) if name not in derived}
    return Reproduction.model_validate(copied | derived)


def file_outcome(job: Job, outcome: RunOutcome, env: RunEnvironment, write_root: Path | None) -> Filed:
    """The outcome with its record (for a job with a result, unless a dry run), written when ``write_root`` is given.

    A record that cannot be built or written is noted on the entry, not raised: the run goes on.
    """
    from pydantic import ValidationError

    entry = Filed(job=job, outcome=outcome)
    if job.result is None or outcome.dry_run:
        return entry
    try:
        entry.record = build_record(job, outcome, env)
        if write_root is not None:
            entry.path = write_record(write_root, entry.record)
    except RegistryError as exc:
        entry.write_error = exc.message
    except ValidationError as exc:
        entry.write_error = str(exc).splitlines()[0]
    if entry.record is not None and job.recipe is not None and outcome.setting.model == job.recipe.fixed.model:
        entry.comparison = entry.record.comparison  # a smoke run's tiny model compares with nothing
    return entry


# -- running ------------------------------------------------------------------------------------


@dataclass
class Hooks:
    """What a caller sees while ``reproduce`` works: a job starts, a job is done, a note."""

    start: Callable[[int, Job], None] = lambda index, job: None
    done: Callable[[int, Filed], None] = lambda index, entry: None
    note: Callable[[str], None] = lambda text: None


#: Measured training steps after the warm-up step, unless told otherwise (an estimate traces one step).
MEASURED_STEPS = 2


def reproduce(the_plan: ReproductionPlan, env: RunEnvironment, *, write_root: Path | None, steps: int = MEASURED_STEPS,
              device: str = "cuda", deadline: Deadline | None = None, setting_timeout: int | None = None,
              log: RunLog | None = None, hooks: Hooks | None = None) -> Run:
    """Run every job in order; file each outcome at once (record, log line, tarball) and stop by the deadline.

    No job starts with less than ``measure.schedule.MIN_SETTING_S`` left before the deadline, and a
    running one gets at most the time left (and at most ``setting_timeout``). A GPU measurement with
    a DeepSpeed stage starts building DeepSpeed's CPU Adam in the background at once.
    """
    from measure.run import run
    from measure.schedule import Deadline

    deadline = deadline or Deadline(None)
    hooks = hooks or Hooks()
    build = _start_op_build(the_plan, device, log)
    filed: list[Filed] = []
    not_started = 0
    try:
        for index, job in enumerate(the_plan.jobs):
            if build is not None and build.running and job.setting.stage.deepspeed and deadline.room_for_another():
                hooks.note("waiting for DeepSpeed's CPU Adam to finish compiling ...")
                build.wait(_wait_budget(deadline))
            if not deadline.room_for_another():
                not_started = len(the_plan.jobs) - index
                break
            hooks.start(index, job)
            with measure_errors():
                outcome = run(job.setting, the_plan.method, device=device, steps=steps,
                              timeout=deadline.limit(setting_timeout))
            with _signals_held():  # filed whole: the record, its log line and the caller's list of what was kept
                entry = file_outcome(job, outcome, env, write_root)
                if log is not None:
                    log.add(entry)
                filed.append(entry)
                hooks.done(index, entry)
    finally:
        if build is not None:
            build.stop()
    return Run(filed=filed, not_started=not_started, elapsed_s=deadline.elapsed, left_s=deadline.left)


@contextmanager
def _signals_held() -> Iterator[None]:
    """A signal handler made by ``deferred`` waits until the block ends, so that a run it stops has filed each
    finished setting whole: its record written, its log line, and the caller's list of what it kept.

    (Masking the signals would not do: a signal sent to the process goes to any thread that does not mask
    it, such as a progress bar's, and Python runs its handler in the main thread all the same.)
    """
    _Held.depth += 1
    try:
        yield
    finally:
        _Held.depth -= 1
        if not _Held.depth and _Held.pending:
            signum, handler = _Held.pending[0]
            _Held.pending.clear()
            handler(signum, None)


class _Held:
    """How deep the main thread is in ``_signals_held``, and the signals that arrived meanwhile."""

    depth = 0
    pending: list[tuple[int, Callable[[int, Any], None]]] = []


def deferred(handler: Callable[[int, Any], None]) -> Callable[[int, Any], None]:
    """A signal handler that, while a setting is being filed (``_signals_held``), acts only once it is filed."""
    def handle(signum: int, frame: Any) -> None:
        if _Held.depth:
            _Held.pending.append((signum, handler))
            return
        handler(signum, frame)

    return handle


def _start_op_build(the_plan: ReproductionPlan, device: str, log: RunLog | None) -> OpBuild | None:
    """DeepSpeed's CPU Adam compiling in the background, for a GPU measurement that has a DeepSpeed stage."""
    if the_plan.method is not Method.MEASURED or not device.startswith("cuda"):
        return None
    if not any(job.setting.stage.deepspeed for job in the_plan.jobs):
        return None
    import tempfile

    from measure.schedule import OpBuild
    from registry.reproduce.runlog import OP_BUILD_LOG

    folder = log.folder if log is not None else Path(tempfile.mkdtemp(prefix="registry-ops-"))
    return OpBuild.start(folder / OP_BUILD_LOG)


def _wait_budget(deadline: Deadline) -> float:
    from measure.schedule import MIN_SETTING_S

    left = deadline.left
    return 600.0 if left is None else left - MIN_SETTING_S


def command_line(result_id: str | None, *, whole_ablation: bool = False, estimate: bool, smoke: bool,
                 overrides: Mapping[str, Sequence[KnobValue]], limit: int | None, steps: int | None,
                 records: Path | None) -> str:
    """The command as a user would type it, rebuilt from the options that decide what runs (stable in records).

    Scheduling options (``--deadline``, ``--setting-timeout``, ``--out``, ``--redo``) decide when a
    setting runs, not what it measures, and are left out.
    """
    import shlex

    parts = ["registry", "reproduce"] + (["--all"] if whole_ablation else [result_id or ""])
    parts += ["--estimate"] if estimate else []
    parts += ["--smoke"] if smoke else []
    for name, values in overrides.items():
        for value in values:
            parts += ["--setting", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
    parts += ["--limit", str(limit)] if limit is not None else []
    parts += ["--steps", str(steps)] if steps is not None else []
    parts += ["--records", str(records)] if records is not None and str(records) != "records" else []
    return " ".join(shlex.quote(p) for p in parts)
