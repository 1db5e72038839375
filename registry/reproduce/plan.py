"""Planning a reproduction: a result's recipe resolved into settings (most plausible first), the whole ablation
in ``measure.ablation``'s order, settings an earlier run settled skipped, the device, and the libraries the jobs
need.

``Request`` is what a user asked for; ``device_for``, ``skip_for`` and ``plan_request`` decide from it what runs,
where, and what is skipped, so that the command line only gathers the request and shows the plan.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from measure import EXPERIMENT
from measure.errors import require
from measure.outcome import Method
from measure.settings import KnobValue, Setting, Stage, sweep
from registry.errors import RegistryError
from registry.models import Recipe, Result
from registry.reproduce.runlog import estimated_before, settled
from registry.reproduce.types import Job, ReproductionPlan, RunEnvironment, measure_errors
from registry.store.loader import Registry


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


def check_requirements(jobs: Sequence[Job], method: Method) -> None:
    """Fail early, naming the install command, when a library some job needs is missing."""
    from measure.step import required_modules

    engine = method is not Method.ESTIMATED
    needed = dict.fromkeys(m for job in jobs for m in required_modules(job.setting, engine=engine))
    with measure_errors():
        require(*needed)


# -- what a request runs, where, and what it skips -----------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """What a user asked ``registry reproduce`` for: one result's recipe, or the whole ablation."""

    result_id: str | None
    """None: the whole ablation (every recipe, and the stages no source reports)."""
    method: Method
    overrides: Mapping[str, Sequence[KnobValue]] = field(default_factory=dict)
    limit: int | None = None
    smoke: bool = False
    redo: bool = False
    """Run again what an earlier run settled."""
    plan_only: bool = False
    """List the settings; run nothing (and load no GPU library to ask about one)."""


def device_for(request: Request, has_gpu: Callable[[], bool]) -> str | None:
    """Where the jobs run: 'cuda', or 'cpu' for a smoke run without a GPU (its steps measure nothing); None for a
    measurement where no GPU is visible, which cannot run. ``has_gpu`` is asked only for a measurement."""
    if request.method is not Method.MEASURED or request.plan_only or has_gpu():
        return "cuda"
    return "cpu" if request.smoke else None


def environment_first(request: Request) -> bool:
    """Whether the run's environment is needed before planning: an estimate skips what one at this commit with
    this software settled, which its versions tell (they import torch, which a plan does not load)."""
    return request.method is Method.ESTIMATED and not (request.redo or request.smoke or request.plan_only)


def skip_for(registry: Registry, request: Request, *, runs: Path, gpu: str | None,
             env: RunEnvironment | None) -> set[Setting]:
    """The settings an earlier run settled, which the plan leaves out: for an estimate, those estimated at this
    commit with this software (``env``, collected first); for a measurement, those a run on ``gpu`` (any GPU
    where None) settled, in the records or the logs under ``runs``. None with ``redo`` or for a smoke run."""
    if request.redo or request.smoke:
        return set()
    if request.method is Method.ESTIMATED:
        return set() if env is None else estimated_before(registry, env.git_commit, env.software)
    return settled(registry, runs, gpu)


def plan_request(registry: Registry, request: Request, *, skip: Collection[Setting]) -> ReproductionPlan:
    """The plan of a request: the whole ablation, or one result's sweep (a smoke run of one result: one setting
    unless a limit says otherwise)."""
    if request.result_id is None:
        return plan_all(registry, method=request.method, overrides=request.overrides, smoke=request.smoke,
                        limit=request.limit, skip=skip)
    limit = 1 if request.smoke and request.limit is None else request.limit
    return plan(registry, request.result_id, method=request.method, overrides=request.overrides,
                smoke=request.smoke, skip=skip, limit=limit)
