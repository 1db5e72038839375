"""What a result's value is in its table: a headline value, a member of an aggregate, or derived from others.

A source prints per-fold (or per-seed) values and their mean side by side, and differences of two
configurations beside both. A consumer that takes every printed number as a model's score on a
benchmark mixes them: a fold value is not the model's score, and a difference is not a score at all.
The role follows from the records alone: a result listed among a mean's ``inputs`` is a member, a
result whose ``derived`` is a difference, ratio, relative change, reduction or speed-up is derived,
a mean is an aggregate, and every other value is a headline value as printed. The exports (and
their manifests) read the role from here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from registry.models import Evaluation, Result
from registry.models.values import BINARY_OPERATIONS, Operation, Repeats
from registry.per_registry import memo

if TYPE_CHECKING:
    from registry.store.loader import Registry


class Role(StrEnum):
    AGGREGATE = "aggregate"
    """A mean over members the source prints too (the folds' mean)."""
    HEADLINE = "headline"
    """A value as printed, neither a member of a mean nor computed from other printed values."""
    MEMBER = "member"
    """One of the values a printed mean is taken over (one fold, one seed)."""
    DERIVED = "derived"
    """A difference, ratio, relative change, reduction or speed-up of two printed values."""


#: The roles a board of scores (a Hub page, a leaderboard) may show as a model's score on a benchmark.
SCORES = frozenset({Role.AGGREGATE, Role.HEADLINE})


def role_of(registry: Registry, result: Result) -> Role:
    if result.derived is not None and result.derived.operation in BINARY_OPERATIONS:
        return Role.DERIVED
    if result.id in _members(registry):
        return Role.MEMBER
    if result.derived is not None and result.derived.operation is Operation.MEAN:
        return Role.AGGREGATE
    return Role.HEADLINE


def role_text(registry: Registry, result: Result) -> str:
    """The role in words, naming the mean a member belongs to and what an aggregate is taken over."""
    role = role_of(registry, result)
    if role is Role.MEMBER:
        means = sorted(_members(registry)[result.id])
        return f"member of the mean {', '.join(means)} (one of the values it is taken over)"
    if role is Role.DERIVED:
        assert result.derived is not None
        return (f"derived: the {result.derived.operation.value} of {result.derived.value} against "
                f"{result.derived.baseline}, not a score of its own")
    over = registry.get_as(result.evaluation, Evaluation).aggregated_over
    counted = f" over {over.count} {over.kind.value}" if over is not None and over.count else ""
    if role is Role.AGGREGATE:
        assert result.derived is not None
        return f"aggregate: the mean of {len(result.derived.inputs)} printed values{counted}"
    return f"headline value as printed{(' (aggregated' + counted + ')') if counted else ''}"


#: What one of the values an aggregate is taken over is called on the site, by what was repeated.
PART_LABELS = {Repeats.FOLDS: "single fold", Repeats.SEEDS: "single seed", Repeats.RUNS: "single run",
               Repeats.SAMPLES: "single sample", Repeats.BOOTSTRAP_RESAMPLES: "single resample"}
AGGREGATE_LABEL = "aggregate"
SINGLE_LABEL = "single value"
DERIVED_LABEL = "derived from other results"


def value_kind(registry: Registry, result: Result) -> str:
    """The role in the site's words (its fold/aggregate facet): a member is named by what its evaluation repeats
    ('single fold'), and a headline value is an aggregate where its evaluation, or its uncertainty, says what
    it was computed over (a mean over 10 folds printed without its folds), a single value otherwise."""
    role = role_of(registry, result)
    if role is Role.DERIVED:
        return DERIVED_LABEL
    if role is Role.AGGREGATE:
        return AGGREGATE_LABEL
    over = registry.get_as(result.evaluation, Evaluation).aggregated_over
    if role is Role.MEMBER:
        return PART_LABELS[over.kind if over is not None else Repeats.RUNS]
    return AGGREGATE_LABEL if over is not None or (result.uncertainty is not None and result.uncertainty.over) \
        else SINGLE_LABEL


def not_one_value(result: Result) -> str | None:
    """What a result prints instead of one value ("a bound ('< 0.001')", "a range ('12–15')"), or None: a score
    (a leaderboard's, a Hub page's) is one value, and a bound's number or either end of a range read as one
    would mislead."""
    if result.bound is not None:
        return f"a bound ('{result.as_printed}')"
    if result.range_upper is not None:
        return f"a range ('{result.as_printed}')"
    return None


def _members(registry: Registry) -> dict[str, set[str]]:
    """Each member's id, with the means that list it (one pass over the results, memoised per registry)."""
    found: dict[str, set[str]] = memo(registry, "mean-members")
    if found:
        return found
    found[""] = set()  # marks the memo as filled, for a registry without means
    for result in registry.of_kind(Result):
        if result.derived is not None and result.derived.operation is Operation.MEAN:
            for member in result.derived.inputs:
                found.setdefault(member, set()).add(result.id)
    return found
