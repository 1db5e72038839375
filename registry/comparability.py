"""When two values may be ranked together: the comparability key, and the leaderboards it makes.

Two values are comparable when they measure the same metric (``registry.metrics``), in one canonical unit, on
the same benchmark and split, under the protocol facets that change a number: how the model met the task
(zero-shot, few-shot, fine-tuned ...), what the value aggregates (one fold, one seed, a mean over 10 folds), the
input length, and, for speed and memory, the hardware. The key is derived from the records alone (``FACETS``
names its parts once; ``key_of`` reads them in Python, ``registry.db.views`` in SQL, and a test keeps the two
equal), so a facet the source leaves unstated is a value of its own ('setting unstated'): an unstated setting is
never ranked beside a stated one.

A leaderboard (``leaderboard``) ranks the values of one key, by the metric's direction, in the canonical unit
(exact decimals); every other value of the benchmark is listed under "not comparable because ..." with the
reason: a bound or a range (not one value), a difference or ratio of two values (not a score), one fold or seed
of a printed mean (the mean is ranked), or a metric without a direction. Values of different keys are on
different boards, never ranked together; ``why_apart`` says which facets set two keys apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from registry.metrics import Canonical, canonical, identity
from registry.models import Configuration, Dataset, Evaluation, Result
from registry.models.records import Direction
from registry.models.values import Aggregate, HardwareEntry, Repeats
from registry.per_registry import once
from registry.status.provenance import status_label
from registry.status.value_roles import SCORES, Role, not_one_value, role_of
from registry.status.versions import current_only
from registry.store.loader import Registry
from registry.units import Dimension

#: Dimensions whose values depend on the hardware they were measured on: their key names it.
HARDWARE_DIMENSIONS = frozenset({Dimension.TIME, Dimension.MEMORY, Dimension.THROUGHPUT, Dimension.ENERGY,
                                 Dimension.POWER, Dimension.COMPUTE_RATE})
UNSTATED = "unstated"
#: The facet value of a value that names no hardware because its metric does not depend on it.
ANY_HARDWARE = "any"


@dataclass(frozen=True)
class Facets:
    """The parts of a comparability key, each as text (``FACETS`` names and orders them)."""

    benchmark: str
    """The benchmark record's id, or the dataset record's where it points to none."""
    split: str
    metric: str
    unit: str
    setting: str
    aggregate: str
    input_length: str
    hardware: str

    @property
    def key(self) -> str:
        """'benchmark=...; split=test; metric=accuracy; unit=percent; ...': every facet, in ``FACETS``' order."""
        return "; ".join(f"{name}={getattr(self, name)}" for name in FACETS)

    def differences(self, other: Facets) -> list[str]:
        """How this key differs from ``other``, in words ("setting zero-shot, not fine-tuned")."""
        return [f"{FACETS[name]} {getattr(self, name)}, not {getattr(other, name)}" for name in FACETS
                if getattr(self, name) != getattr(other, name)]


#: The facets of the key, in order, with what each is in words.
FACETS: dict[str, str] = {
    "benchmark": "benchmark",
    "split": "split",
    "metric": "metric",
    "unit": "canonical unit",
    "setting": "setting",
    "aggregate": "aggregate",
    "input_length": "input length",
    "hardware": "hardware",
}


def benchmark_of(dataset: Dataset) -> str:
    """The benchmark a dataset record stands for: the benchmark record it points to, shared across papers, else
    the dataset's own id (one paper's record of its data)."""
    return dataset.benchmark or dataset.id


def split_of(evaluation: Evaluation) -> str:
    return evaluation.split.strip().lower() if evaluation.split else UNSTATED


def setting_of(evaluation: Evaluation) -> str:
    if evaluation.setting is None:
        return UNSTATED
    if evaluation.shots is not None:
        return f"{evaluation.setting.value} ({evaluation.shots} shots)"
    return evaluation.setting.value


def aggregate_of(role: Role, evaluation: Evaluation, result: Result) -> str:
    """'single fold of 10', 'mean over 10 folds', 'aggregate over 5 seeds', 'single value': what the value is
    computed over. A member of a mean is one fold or seed, whatever its evaluation aggregates."""
    over: Aggregate | None = evaluation.aggregated_over or _repeated(result)
    if role is Role.MEMBER:
        if over is None:
            return "single run"
        return f"single {over.kind.value.removesuffix('s')}" + (f" of {over.count}" if over.count else "")
    if over is None:
        return "single value"
    how = "mean" if role is Role.AGGREGATE or _says_mean(evaluation.aggregation) else "aggregate"
    return f"{how} over {f'{over.count} ' if over.count else ''}{over.kind.value}"


#: What an uncertainty may be computed over that the value is then an aggregate of (a mean ± s.d. over 5 seeds);
#: a bootstrap over test items, or a count of samples, says how the uncertainty was found, not what the value is.
REPEATED_RUNS = frozenset({Repeats.SEEDS, Repeats.FOLDS, Repeats.RUNS})


def _repeated(result: Result) -> Aggregate | None:
    over = result.uncertainty.over if result.uncertainty else None
    return over if over is not None and over.kind in REPEATED_RUNS else None


def _says_mean(aggregation: str | None) -> bool:
    return bool(aggregation) and aggregation.strip().lower().startswith(("mean", "average"))  # type: ignore[union-attr]


def hardware_of(result: Result, configuration: Configuration, dimension: Dimension | None) -> str:
    """The hardware a speed or memory value was measured on ('8 × NVIDIA H100'); 'any' for other metrics."""
    if dimension not in HARDWARE_DIMENSIONS:
        return ANY_HARDWARE
    entries: list[HardwareEntry] = result.hardware or configuration.hardware
    if not entries:
        return UNSTATED
    first = entries[0]
    return f"{first.count} × {first.accelerator}" if first.count else first.accelerator


@dataclass(frozen=True)
class Placed:
    """One result with its key, its value in the canonical unit, and why it is not ranked (None: it is)."""

    result: Result
    facets: Facets
    canonical: Canonical
    direction: Direction | None
    role: Role
    why_not: str | None


def place(registry: Registry, result: Result) -> Placed:
    """``result``'s comparability key and canonical value, and why it may not be ranked."""
    evaluation = registry.get_as(result.evaluation, Evaluation)
    dataset = registry.get_as(evaluation.dataset, Dataset)
    configuration = registry.get_as(evaluation.configuration, Configuration)
    metric = identity(result.metric)
    scaled = canonical(result.metric, result.numeric_value, result.unit, registry.units)
    unit = registry.units.get(result.unit)
    role = role_of(registry, result)
    facets = Facets(benchmark_of(dataset), split_of(evaluation), metric.token, scaled.unit, setting_of(evaluation),
                    aggregate_of(role, evaluation, result), (evaluation.input_length or UNSTATED).strip(),
                    hardware_of(result, configuration, unit.dimension if unit else None))
    direction = metric.direction if metric.declared else result.metric_direction
    return Placed(result, facets, scaled, direction, role, _why_not(result, role, direction))


def _why_not(result: Result, role: Role, direction: Direction | None) -> str | None:
    shape = not_one_value(result)
    if shape is not None:
        return f"it is {shape}, not one value"
    if role is Role.MEMBER:
        return "it is one of the values a printed mean is taken over (one fold or seed); the mean is ranked"
    if role not in SCORES:
        return "it is derived from other values (a difference, ratio or speed-up), not a score"
    if direction is None:
        return f"no direction is better for {result.metric}"
    return None


def placed(registry: Registry) -> list[Placed]:
    """Every current result, placed (worked out once per registry)."""
    return once(registry, "comparability",
                lambda r: [place(r, result) for result in current_only(r, r.of_kind(Result))])


def key_of(registry: Registry, result: Result) -> str:
    return place(registry, result).facets.key


# -- leaderboards -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One ranked value: its rank within its key (ties share one), and what the board shows of it."""

    rank: int
    placed: Placed
    status: str
    """The review status as the pages word it."""


@dataclass(frozen=True)
class Board:
    """The values of one comparability key, ranked."""

    facets: Facets
    direction: Direction
    entries: list[Entry]


@dataclass(frozen=True)
class Leaderboard:
    """A benchmark's boards (one per key), and every other value of it with why it is not ranked."""

    benchmark: str
    boards: list[Board]
    not_comparable: list[tuple[Placed, str]]


def leaderboard(registry: Registry, benchmark: str, metric: str | None = None) -> Leaderboard:
    """The boards of ``benchmark`` (a benchmark or dataset id), for every metric or the one named."""
    values = [p for p in placed(registry) if p.facets.benchmark == benchmark
              and (metric is None or p.facets.metric == identity(metric).token)]
    keyed: dict[Facets, list[Placed]] = {}
    aside: list[tuple[Placed, str]] = []
    for value in values:
        if value.why_not is not None:
            aside.append((value, value.why_not))
        else:
            keyed.setdefault(value.facets, []).append(value)
    boards = [_board(registry, facets, members) for facets, members in sorted(keyed.items(), key=_by_size)]
    return Leaderboard(benchmark, boards, aside)


def _by_size(item: tuple[Facets, list[Placed]]) -> tuple[int, str]:
    return -len(item[1]), item[0].key


def _board(registry: Registry, facets: Facets, members: list[Placed]) -> Board:
    direction = members[0].direction
    assert direction is not None  # values without one are set aside
    better: Callable[[Placed], Decimal] = ((lambda p: -p.canonical.value) if direction is Direction.HIGHER
                                           else (lambda p: p.canonical.value))
    ordered = sorted(members, key=lambda p: (better(p), p.result.id))
    entries: list[Entry] = []
    for position, value in enumerate(ordered, start=1):
        tied = entries and better(entries[-1].placed) == better(value)
        rank = entries[-1].rank if tied else position
        entries.append(Entry(rank, value, status_label(registry, value.result.id)))
    return Board(facets, direction, entries)


def why_apart(board: Board, value: Placed) -> str:
    """Why ``value`` is not on ``board``: its own reason, else the facets its key differs in."""
    if value.why_not is not None:
        return value.why_not
    return "its key differs: " + "; ".join(value.facets.differences(board.facets))
