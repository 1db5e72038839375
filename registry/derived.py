"""Derived values: the one table of operations a source computes a result with, and the one recomputation.

A paper prints a derived number (a difference, a ratio, 'a 66% reduction', a speed-up, a mean over
folds) beside the numbers it comes from. Both ``registry validate`` (``registry.validate.runner``) and
``registry review`` (``registry.checking.consistency``) recompute it from its inputs' printed digits, over every
value their rounding allows (``registry.rounding.rounding_interval``), and compare the interval with
its own printed digits. They call this module, so they convert units the same way (a difference of
1.5 GB and 500 MB is 1.0 GB in both) and name the same arithmetic when the digits disagree.

``OPERATIONS`` says of each operation what it computes, which units its result may be in, and how a
source names it; everything else (the checks' messages, the operations a disagreement may fit) is
read from it. A unit's dimension and scale come from ``registry.units`` through ``_unit`` alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from registry.errors import RegistryError
from registry.models.uncertainty_kinds import kind_words
from registry.models.values import BINARY_OPERATIONS, Operation, UncertaintyKind
from registry.numbers import parse_printed
from registry.rounding import Interval, rounding_interval, shown, worked_places
from registry.units import UnitSpec, spec, with_unit

#: (value, baseline, their intervals) -> the exact result and every result the intervals allow.
Arithmetic = Callable[[Decimal, Decimal, Interval, Interval], tuple[Decimal, Interval]]


def _minus(a: Decimal, b: Decimal, ia: Interval, ib: Interval) -> tuple[Decimal, Interval]:
    return a - b, ia - ib


def _over(a: Decimal, b: Decimal, ia: Interval, ib: Interval) -> tuple[Decimal, Interval]:
    return a / b, ia / ib


def _change(a: Decimal, b: Decimal, ia: Interval, ib: Interval) -> tuple[Decimal, Interval]:
    ratio = ia / ib  # (v - b) / b over every v and b the intervals allow: v / b - 1
    return (a - b) / b, Interval(ratio.low - 1, ratio.high - 1)


def _fall(a: Decimal, b: Decimal, ia: Interval, ib: Interval) -> tuple[Decimal, Interval]:
    exact, allowed = _change(a, b, ia, ib)
    return -exact, allowed.negated()


@dataclass(frozen=True)
class OperationSpec:
    """One operation: what it computes, the units its result may be in, and how a source names it."""

    operation: Operation
    computes: str
    """The formula over '{value}' and '{baseline}' (a mean: over its inputs)."""
    arithmetic: Arithmetic | None
    """How it is computed over two inputs (None for a mean, which takes a list)."""
    yields: tuple[str, ...]
    """The units its result may be in; empty: the inputs' own (a difference, or a mean)."""
    words: str
    """How a source says it, for messages and docs."""
    always_percent: bool = False
    """In percent whatever the result's unit says (a percent-of)."""
    better_over_worse: bool = False
    """Computed as better over worse: baseline / value where lower is better (a speed-up)."""

    @property
    def of_two(self) -> bool:
        return self.operation in BINARY_OPERATIONS


_SHARES = ("percent", "dimensionless")
_TIMES = ("times", "dimensionless", "percent")

#: Every operation of ``Operation``, once (a test checks that each has its entry).
OPERATIONS: dict[Operation, OperationSpec] = {spec.operation: spec for spec in (
    OperationSpec(Operation.DIFFERENCE, "{value} - {baseline}", _minus, (),
                  "how much larger one value is than another, in their unit ('+0.002', '20.87 GB less')"),
    OperationSpec(Operation.RATIO, "{value} / {baseline}", _over, _TIMES, "one value over another ('0.34×')"),
    OperationSpec(Operation.RELATIVE_CHANGE, "({value} - {baseline}) / {baseline}", _change, _SHARES,
                  "a signed change relative to the baseline ('-66%')"),
    OperationSpec(Operation.REDUCTION, "({baseline} - {value}) / {baseline}", _fall, _SHARES,
                  "'a 66% reduction'"),
    OperationSpec(Operation.RELATIVE_INCREASE, "({value} - {baseline}) / {baseline}", _change, _SHARES,
                  "'a 213% increase'"),
    OperationSpec(Operation.RELATIVE_DECREASE, "({baseline} - {value}) / {baseline}", _fall, _SHARES,
                  "'a 66% decrease'"),
    OperationSpec(Operation.PERCENT_OF, "{value} / {baseline}", _over, ("percent",),
                  "'34.7 s is 313% of 11.1 s' (what some papers call 'a 310% increase')", always_percent=True),
    OperationSpec(Operation.SPEED_UP, "{value} / {baseline}", _over, _TIMES,
                  "how many times better one value is than another ('2.4× faster')", better_over_worse=True),
    OperationSpec(Operation.MEAN, "the mean of {count} values", None, (),
                  "the mean of a list of results (a table's mean over the folds another lists)"),
)}


@dataclass(frozen=True)
class Recomputed:
    """A derived value recomputed from its inputs' printed digits: exactly, and within their rounding."""

    exact: Decimal
    """From the inputs' printed values, taken as exact."""
    allowed: Interval
    """Every value the inputs' rounding allows."""
    formula: str
    """How it was computed, in words and numbers ('0.681 - 0.702')."""


@dataclass(frozen=True)
class Input:
    """One input of a derivation: its printed digits, its unit, and its record's id (for messages)."""

    printed: str
    unit: str
    id: str = ""


class Underivable(ValueError):
    """Why the inputs cannot give the result in its unit; ``field`` is where validation reports it (None: another
    rule reports the cause, an unknown unit)."""

    def __init__(self, message: str, field: str | None = "derived") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _unit(unit: str) -> UnitSpec:
    """The one lookup of a unit's dimension and scale for derived arithmetic."""
    return spec(unit)


def underivable(operation: Operation, inputs: Sequence[Input], unit: str, *,
                lower_is_better: bool | None) -> Underivable | None:
    """Why ``operation`` over ``inputs`` cannot give a result in ``unit`` (None: it can).

    ``lower_is_better`` is None where the metric's direction is unknown (a speed-up needs it).
    """
    if operation is Operation.MEAN:
        units = sorted({i.unit for i in inputs})
        if units != [unit]:
            return Underivable(f"a mean keeps its inputs' unit, but they are in {', '.join(units)} and the result "
                               f"in {unit}")
        return None
    value, baseline = inputs
    try:
        of_value, of_baseline = _unit(value.unit), _unit(baseline.unit)
        _unit(unit)
    except RegistryError as exc:
        return Underivable(exc.message, None)
    if of_value.dimension is not of_baseline.dimension:
        return Underivable(f"its inputs are in {value.unit} and {baseline.unit}, which measure "
                           f"{of_value.dimension.value} and {of_baseline.dimension.value}: nothing derives from "
                           "those two")
    misfit = _unit_misfit(OPERATIONS[operation], value.unit, unit)
    if misfit is not None:
        return Underivable(f"{misfit}; give the result the unit its operation yields", "unit")
    if value.unit != baseline.unit and (of_value.scale is None or of_baseline.scale is None):
        return Underivable(f"its inputs are in {value.unit} and {baseline.unit}, which cannot be converted into "
                           "one another")
    if OPERATIONS[operation].better_over_worse and lower_is_better is None:
        return Underivable(f"a speed-up says how many times better {value.id or 'the value'} is, but its metric has "
                           "no direction; give metric_direction, or name the operation the source computed (a ratio)")
    return None


def _unit_misfit(operation: OperationSpec, inputs_unit: str, unit: str) -> str | None:
    """Why the result's unit cannot be what the operation gives, or None where it can."""
    if operation.yields:
        return None if unit in operation.yields else (
            f"a {operation.operation.value} is in {' or '.join(operation.yields)}, not {unit}")
    # A difference keeps the inputs' dimension; two percentages differ in percentage points.
    if _unit(unit).dimension is _unit(inputs_unit).dimension or (inputs_unit, unit) == ("percent",
                                                                                          "percentage-point"):
        return None
    return (f"a difference of values in {inputs_unit} is in {inputs_unit}"
            + (" or percentage-point" if inputs_unit == "percent" else "") + f", not {unit}")


def derive(operation: Operation, inputs: Sequence[Input], unit: str, *, lower_is_better: bool | None) -> Recomputed:
    """Recompute ``operation`` over the inputs' printed digits, in the result's ``unit``, units converted.

    Raises ``Underivable`` where the units cannot give the result, ``ZeroDivisionError`` where a baseline
    may be zero at its printed digits, and ``ValueError`` where an input is not a number as printed.
    """
    problem = underivable(operation, inputs, unit, lower_is_better=lower_is_better)
    if problem is not None:
        raise problem
    if operation is Operation.MEAN:
        return recompute_mean([i.printed for i in inputs])
    value, baseline = inputs
    same = value.unit == baseline.unit
    if same:
        scales = (Decimal(1), Decimal(1))
    elif not OPERATIONS[operation].yields:  # a difference: both into the result's unit, which shares their dimension
        target = _unit(unit).scale or Decimal(1)
        scales = ((_unit(value.unit).scale or Decimal(1)) / target, (_unit(baseline.unit).scale or Decimal(1)) / target)
    else:  # a ratio of two values in one dimension has no unit: any common scale will do
        scales = (_unit(value.unit).scale or Decimal(1), _unit(baseline.unit).scale or Decimal(1))
    labels = None if same else (with_unit(value.printed, value.unit), with_unit(baseline.printed, baseline.unit))
    return recompute(operation, value.printed, baseline.printed, lower_is_better=bool(lower_is_better),
                     percent=operation is not Operation.DIFFERENCE and unit == "percent",
                     value_scale=scales[0], baseline_scale=scales[1], labels=labels)


def recompute(operation: str, value: str, baseline: str, *, lower_is_better: bool, percent: bool,
              value_scale: Decimal = Decimal(1), baseline_scale: Decimal = Decimal(1),
              labels: tuple[str, str] | None = None) -> Recomputed:
    """Recompute an operation of two over printed inputs (in one unit after their scales), as a result prints it.

    ``percent``: the derived value is printed in percent (a relative change of -0.661 prints as -66.1);
    a percent-of is in percent whatever the unit. ``labels``: how the formula names the inputs (with their
    units, where those differ); their printed digits otherwise.
    """
    try:
        entry = OPERATIONS[Operation(operation)]
    except ValueError:
        raise ValueError(f"unknown operation {operation!r}") from None
    if entry.arithmetic is None:
        raise ValueError(f"a {operation} takes a list of inputs, not a value and a baseline")
    a, b = parse_printed(value), parse_printed(baseline)
    if a is None or b is None:
        raise ValueError("an input is not a number as printed")
    a, b = a * value_scale, b * baseline_scale
    ia, ib = rounding_interval(value).scaled(value_scale), rounding_interval(baseline).scaled(baseline_scale)
    names = {"value": labels[0] if labels else value, "baseline": labels[1] if labels else baseline}
    computes = entry.computes
    if entry.better_over_worse and lower_is_better:
        a, b, ia, ib = b, a, ib, ia
        computes = computes.format(value="{baseline}", baseline="{value}")
    hundred = Decimal(100) if percent or entry.always_percent else Decimal(1)
    exact, allowed = entry.arithmetic(a, b, ia, ib)
    return Recomputed(exact * hundred, allowed.scaled(hundred), computes.format(**names))


def fitting_operations(printed: str, inputs: Sequence[Input], unit: str, *, lower_is_better: bool | None,
                       but: Operation) -> list[Operation]:
    """The other operations of two whose result over the inputs the printed digits fit ('310' from 34.7 and 11.1:
    percent-of, not relative-increase), for a disagreement to name what the source may have computed."""
    fits: list[Operation] = []
    for operation in OPERATIONS:
        if operation is but or operation not in BINARY_OPERATIONS:
            continue
        try:
            again = derive(operation, inputs, unit, lower_is_better=lower_is_better)
        except (Underivable, ZeroDivisionError):
            continue
        if consistent(printed, again):
            fits.append(operation)
    return fits


def recompute_mean(printed: Sequence[str]) -> Recomputed:
    """The mean of printed values: exactly, and between the means of their rounding intervals."""
    values = [_read(text) for text in printed]
    intervals = [rounding_interval(text) for text in printed]
    n = Decimal(len(values))
    return Recomputed(sum(values, Decimal(0)) / n,
                      Interval(sum((i.low for i in intervals), Decimal(0)) / n,
                               sum((i.high for i in intervals), Decimal(0)) / n),
                      OPERATIONS[Operation.MEAN].computes.format(count=len(values)))


def recompute_spread(printed: Sequence[str], *, standard_error: bool = False) -> Recomputed:
    """The standard deviation of printed values (or its standard error), sample or population, within their rounding.

    Papers print either convention (the sample's, Bessel-corrected, or numpy's default, the
    population's), so both are allowed: ``allowed`` spans the two. Within the inputs' rounding:
    moving each value by at most h moves the standard deviation by at most h * sqrt(n / (n - 1))
    (it is Lipschitz in the values' Euclidean distance, with constant 1 / sqrt(n - 1)).
    """
    values = [_read(text) for text in printed]
    n = len(values)
    if n < 2:
        raise ValueError("a spread needs two or more values")
    mean = sum(values, Decimal(0)) / n
    squares = sum(((v - mean) ** 2 for v in values), Decimal(0))
    sample, population = (squares / (n - 1)).sqrt(), (squares / n).sqrt()
    slack = max(rounding_interval(text).high - _read(text) for text in printed) * (Decimal(n) / (n - 1)).sqrt()
    scale = 1 / Decimal(n).sqrt() if standard_error else Decimal(1)
    allowed = Interval(max(population - slack, Decimal(0)) * scale, (sample + slack) * scale)
    words = kind_words()  # their names in full: 'standard error', 'standard deviation'
    name = (words[UncertaintyKind.STANDARD_ERROR][0] if standard_error else
            f"{words[UncertaintyKind.STANDARD_DEVIATION][0]} (sample or population)")
    return Recomputed(sample * scale, allowed, f"the {name} of {n} values")


def _read(text: str) -> Decimal:
    value = parse_printed(text)
    if value is None:
        raise ValueError(f"{text!r} is not a number as printed")
    return value


def consistent(printed: str, recomputed: Recomputed) -> bool:
    """Whether the printed digits could come from rounding a value the inputs allow."""
    return rounding_interval(printed).overlaps(recomputed.allowed)


def worked(printed: str, again: Recomputed, inputs: Sequence[str]) -> str:
    """The arithmetic, as both validation and review name it: '(33.88 - 11.49) / 33.88 = 66.086 (between
    66.066 and 66.106 given the rounding of 11.49 and 33.88)'; a long list of inputs is named by its count."""
    places = worked_places(printed, *inputs)
    named = " and ".join(inputs) if len(inputs) <= 3 else f"its {len(inputs)} inputs"
    formula = again.formula if len(inputs) <= 3 else again.formula.replace(f"{len(inputs)} values", "its inputs")
    return (f"{formula} = {shown(again.exact, places)} (between {again.allowed.shown(places)} given the rounding of "
            f"{named})")
