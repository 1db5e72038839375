"""Metrics, declared once: what a result's ``metric`` names, its canonical unit, direction, and exact conversion.

Papers print one metric in several scales: top-1 accuracy as 86.9 (percent) in one table and as 0.91 (a
fraction) in another; peak memory in GB in one paper and in GiB in the next. A value is always shown as printed;
to *compare* two values, each is converted exactly (``decimal.Decimal``, never a float) to its metric's
canonical unit:

- within a dimension, by the units' scales (``registry.units``: 1 GiB = 1.073741824 GB);
- for a *proportion* (accuracy, F1, MCC, AUROC: a share of a whole, or a score printed either way), percent and
  fraction are one scale: 91.2 % is 0.912, and 0.91 is 91 %.

A metric the table does not declare is its own identity (its slug), with its dimension's base unit as canonical
where its unit converts (a second, a byte), else its own unit; percent and fraction of an undeclared metric are
never converted into one another (nothing says the metric is a proportion), so they never meet in one ranking.
``METRICS`` is the one declaration; the comparability key (``registry.comparability``), the SQL views, the site
and the exports read it through ``identity`` and ``canonical``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, localcontext

from registry.models.records import Direction
from registry.units import Dimension, UnitTable, table

#: Percent and fraction of a proportion: 100 % is 1.
_PERCENT_PER_FRACTION = Decimal(100)
#: Digits kept while converting (GiB to GB needs 10; a count in trillions to items needs 13).
_PRECISION = 60


@dataclass(frozen=True)
class MetricSpec:
    """One metric: its token, name, canonical unit, direction, whether it is a proportion, and other names."""

    token: str
    name: str
    canonical_unit: str
    """The unit values are converted to for comparison (a unit token of ``registry.units``)."""
    direction: Direction | None
    """Which way is better; None where no direction is better (a count of items, a p-value)."""
    proportion: bool = False
    """A share of a whole or a score printed either as a fraction or in percent: the two are one scale."""
    aliases: tuple[str, ...] = ()
    """Other slugs results use for it ('top1', 'top-1-accuracy')."""


H, L = Direction.HIGHER, Direction.LOWER

#: Every declared metric, in the order they are listed.
METRICS: dict[str, MetricSpec] = {spec.token: spec for spec in (
    MetricSpec("accuracy", "Accuracy", "percent", H, True, ("acc", "top1", "top-1", "top-1-accuracy", "top1-accuracy")),
    MetricSpec("top-5-accuracy", "Top-5 accuracy", "percent", H, True, ("top5", "top-5", "top5-accuracy")),
    MetricSpec("balanced-accuracy", "Balanced accuracy", "percent", H, True),
    MetricSpec("f1", "F1", "percent", H, True, ("f1-score", "macro-f1", "f1-macro")),
    MetricSpec("precision", "Precision", "percent", H, True),
    MetricSpec("recall", "Recall", "percent", H, True),
    MetricSpec("mcc", "MCC", "dimensionless", H, True, ("matthews-correlation",)),
    MetricSpec("auroc", "AUROC", "dimensionless", H, True, ("auc", "roc-auc", "auc-roc")),
    MetricSpec("auprc", "AUPRC", "dimensionless", H, True, ("pr-auc", "average-precision")),
    MetricSpec("perplexity", "Perplexity", "dimensionless", L, False, ("ppl",)),
    MetricSpec("peak-memory", "Peak memory", "gigabyte", L, False, ("memory", "max-memory")),
    MetricSpec("latency", "Latency", "millisecond", L, False),
    MetricSpec("step-time", "Step time", "second", L, False),
    MetricSpec("p-value", "p-value", "dimensionless", None, False),
)}
del H, L

_BY_NAME: dict[str, str] = {name: spec.token for spec in METRICS.values() for name in (spec.token, *spec.aliases)}


@dataclass(frozen=True)
class Identity:
    """What a result's metric is, for comparison: the declared metric it names, or its own slug."""

    token: str
    name: str
    direction: Direction | None
    declared: MetricSpec | None


def identity(metric: str) -> Identity:
    """The metric a result's ``metric`` slug names ('top1' -> accuracy); an undeclared slug is its own."""
    token = _BY_NAME.get(metric)
    if token is None:
        return Identity(metric, metric, None, None)
    spec = METRICS[token]
    return Identity(spec.token, spec.name, spec.direction, spec)


@dataclass(frozen=True)
class Canonical:
    """A value in its metric's canonical unit, or why it could not be converted (then in its own unit)."""

    value: Decimal
    unit: str
    converted: bool
    """False where the value stays in its own unit (no scale leads to the canonical one)."""
    why_not: str | None = None


def canonical(metric: str, value: Decimal, unit: str, units: UnitTable | None = None) -> Canonical:
    """``value`` in ``unit`` as the canonical unit of ``metric`` holds it, exactly.

    '91.2' percent of accuracy -> 91.2 percent; '0.91' dimensionless of accuracy -> 91 percent; '2' gibibyte of
    peak memory -> 2.147483648 gigabyte. A value that no declared scale converts keeps its own unit, with the
    reason (its comparability key then differs from the converted values')."""
    units = units or table()
    target = canonical_unit(metric, unit, units)
    if target == unit:
        return Canonical(value, unit, True)
    factor = to_canonical(metric, unit, units)
    if factor is None:
        why = (f"{metric} is declared in {target}, and {unit} does not convert to it"
               if identity(metric).declared else f"{unit} does not convert to {target}")
        return Canonical(value, unit, False, why)
    with localcontext() as context:
        context.prec = _PRECISION
        return Canonical((value * factor).normalize(), target, True)


def to_canonical(metric: str, unit: str, units: UnitTable | None = None) -> Decimal | None:
    """How many of ``metric``'s canonical unit one ``unit`` holds (1 where they are one unit; None where nothing
    converts one to the other): what a value's uncertainty is multiplied by with the value."""
    units = units or table()
    target = canonical_unit(metric, unit, units)
    return Decimal(1) if target == unit else _factor(identity(metric).declared, unit, target, units)


def canonical_unit(metric: str, unit: str, units: UnitTable | None = None) -> str:
    """The unit values of ``metric`` in ``unit`` are compared in: the metric's declared unit, else the base unit of
    ``unit``'s dimension (scale 1; of two, the first by token) where ``unit`` converts, else ``unit`` itself."""
    units = units or table()
    declared = identity(metric).declared
    if declared is not None:
        return declared.canonical_unit
    spec = units.get(unit)
    if spec is None or spec.scale is None:
        return unit
    return min((token for token in units.units_of(spec.dimension) if units.factor(token) == 1), default=unit)


def _factor(declared: MetricSpec | None, unit: str, target: str, units: UnitTable) -> Decimal | None:
    """How many ``target`` one ``unit`` holds, for this metric; None where nothing converts one to the other."""
    have, want = units.get(unit), units.get(target)
    if have is None or want is None or have.scale is None or want.scale is None:
        return None
    with localcontext() as context:
        context.prec = _PRECISION
        if have.dimension is want.dimension:
            return have.scale / want.scale
        if declared is not None and declared.proportion:
            shares = {have.dimension, want.dimension}
            if shares == {Dimension.PERCENTAGE, Dimension.DIMENSIONLESS}:
                per = _PERCENT_PER_FRACTION if want.dimension is Dimension.PERCENTAGE else 1 / _PERCENT_PER_FRACTION
                return have.scale / want.scale * per
    return None
