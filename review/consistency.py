"""Internal consistency: what the printed numbers must satisfy among themselves (statcheck, for this field).

These claims read no text: they recompute from the digits the records transcribe, so a slip in any
one of the numbers shows even where each was copied faithfully from a page that is itself wrong.

- **derived**: a result the source computed from two others (``derived``: a difference, ratio,
  relative change, reduction or speed-up) is recomputed from its inputs' printed digits over every
  value their rounding allows (``registry.numbers``) and compared with its own printed digits. A
  sentence such as 'reduces memory by 66%' that a record cites is checked this way against the two
  values it relates; where the quoted sentence prints those values too, the claim says so.
- **GRIM**: a percentage or fraction of n items (accuracy on a test set of n, ``coverage_scored``),
  or a mean of such over k runs or seeds, must be a whole count over n·k items at its printed
  rounding: 71.3% of 150 is possible (107/150 = 71.33%), 71.5% is not (Brown and Heathers' test).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, ClassVar

from review.claims import Assertion, Claim
from review.pdftext import Extraction, normalize_quote, number_pattern

if TYPE_CHECKING:
    from registry.loader import Registry
    from registry.models import Result

#: Metrics that are a share of items scored correctly (or not): the ones GRIM applies to.
PROPORTION_METRICS = frozenset({"accuracy", "top-1-accuracy", "top-5-accuracy", "exact-match", "error-rate",
                                "pass-at-1", "success-rate", "proportion", "balanced-accuracy"})
#: Repeats whose mean keeps the grain of one item: the same n items scored again.
_SAME_ITEMS = frozenset({"seeds", "runs"})


@dataclass(frozen=True)
class DerivedConsistent(Claim):
    """A derived value, recomputed from its two inputs' printed digits, must round to its own printed digits."""

    printed: str
    operation: str
    value: str
    baseline: str
    lower_is_better: bool
    percent: bool
    scales: tuple[Decimal, Decimal]
    inputs: tuple[str, str]
    quote: str | None
    reads_text: ClassVar[bool] = False

    def check(self, doc: Extraction) -> Assertion:
        from registry.numbers import consistent, decimals, recompute

        expected = f"{self.printed} = {self.operation} of {self.value} and {self.baseline}"
        try:
            again = recompute(self.operation, self.value, self.baseline, lower_is_better=self.lower_is_better,
                              percent=self.percent, value_scale=self.scales[0], baseline_scale=self.scales[1])
        except ZeroDivisionError:
            return self._result(expected, False, detail=f"the baseline {self.baseline} may be zero at its printed "
                                "digits, so no ratio can be recomputed")
        except ValueError as exc:
            return self._result(expected, False, detail=f"cannot recompute: {exc}")
        places = max(decimals(self.printed), 1) + 1
        quantum = Decimal(1).scaleb(-places)
        shown = f"{again.formula} = {again.exact.quantize(quantum)} (between {again.allowed.shown(places)} given " \
                f"the inputs' rounding)"
        sentence = ""
        if self.quote is not None:
            quoted = normalize_quote(self.quote)
            printed = [v for v in (self.value, self.baseline) if number_pattern(v).search(quoted)]
            if len(printed) == 2:
                sentence = "; the quoted sentence prints both inputs"
        if consistent(self.printed, again):
            return self._result(expected, True, matched=shown,
                                detail=f"consistent at the printed rounding (inputs {', '.join(self.inputs)}){sentence}")
        return self._result(expected, False, matched=shown,
                            detail=f"printed {self.printed}, but {shown}; one of the three numbers is mistranscribed, "
                                   f"or the source's own arithmetic is wrong{sentence}")


@dataclass(frozen=True)
class GrimPossible(Claim):
    """A proportion of n items (or a mean of k such) must be a whole count over n·k at its printed digits."""

    printed: str
    percent: bool
    items: int
    repeats: int
    reads_text: ClassVar[bool] = False

    def check(self, doc: Extraction) -> Assertion:
        from registry.numbers import rounding_interval

        grains = self.items * self.repeats
        over = f"{self.items} items" + (f" × {self.repeats} runs" if self.repeats > 1 else "")
        expected = f"{self.printed}{'%' if self.percent else ''} possible over {over}"
        scale = Decimal(100) if self.percent else Decimal(1)
        allowed = rounding_interval(self.printed)
        low, high = allowed.low / scale * grains, allowed.high / scale * grains
        first, last = math.ceil(low), math.floor(high)
        if first <= last:
            shown = self._share(first, grains)
            return self._result(expected, True, matched=f"{first}/{grains} = {shown}",
                                detail=f"a whole count of {grains} rounds to {self.printed}")
        below, above = math.floor(low), math.ceil(high)
        return self._result(expected, False, matched=f"{below}/{grains} = {self._share(below, grains)}, "
                            f"{above}/{grains} = {self._share(above, grains)}",
                            detail=f"no whole count of {grains} rounds to {self.printed}{'%' if self.percent else ''}: "
                                   f"{below}/{grains} = {self._share(below, grains)} and {above}/{grains} = "
                                   f"{self._share(above, grains)} (GRIM); the value or the number of items is "
                                   "mistranscribed, or the source's arithmetic is wrong")

    def _share(self, count: int, grains: int) -> str:
        places = len(self.printed.split(".")[1]) + 1 if "." in self.printed else 1
        value = Decimal(count) / Decimal(grains) * (100 if self.percent else 1)
        return f"{value.quantize(Decimal(1).scaleb(-places))}{'%' if self.percent else ''}"


def consistency_claims(registry: Registry, result: Result) -> list[Claim]:
    """The internal-consistency claims a result makes: its derivation, and GRIM where it is a share of items."""
    claims: list[Claim] = []
    derived = _derived(registry, result)
    if derived is not None:
        claims.append(derived)
    grim = _grim(registry, result)
    if grim is not None:
        claims.append(grim)
    return claims


def _derived(registry: Registry, result: Result) -> DerivedConsistent | None:
    from registry.errors import RegistryError
    from registry.models import Result as ResultModel
    from registry.units import spec

    derivation = result.derived
    if derivation is None:
        return None
    value, baseline = registry.records.get(derivation.value), registry.records.get(derivation.baseline)
    if not isinstance(value, ResultModel) or not isinstance(baseline, ResultModel):
        return None  # a dangling reference is a validation error already
    try:
        a, b = spec(value.unit), spec(baseline.unit)
    except RegistryError:
        return None
    same = value.unit == baseline.unit
    if a.dimension is not b.dimension or (not same and (a.scale is None or b.scale is None)):
        return None  # 'registry validate' reports inputs that cannot give the result
    scales = (Decimal(1), Decimal(1)) if same else (a.scale or Decimal(1), b.scale or Decimal(1))
    operation = derivation.operation.value
    return DerivedConsistent(result.id, "derived value", result.printed_value, operation, value.printed_value,
                             baseline.printed_value, value.metric_direction.value == "lower",
                             operation != "difference" and str(result.unit) == "percent", scales,
                             (value.id, baseline.id), result.source_locator.quote)


def _grim(registry: Registry, result: Result) -> GrimPossible | None:
    from registry.models import Evaluation

    metric = result.metric
    if metric not in PROPORTION_METRICS and not metric.endswith("-accuracy"):
        return None
    percent = str(result.unit) == "percent"
    if not percent and not (str(result.unit) == "dimensionless" and 0 <= result.numeric_value <= 1):
        return None
    evaluation = registry.records.get(result.evaluation)
    items = getattr(evaluation, "coverage_scored", None) if isinstance(evaluation, Evaluation) else None
    if not items:
        return None
    repeats = 1
    over = result.uncertainty.over if result.uncertainty is not None else None
    stated = evaluation.aggregated_over if isinstance(evaluation, Evaluation) else None
    for aggregate in (over, stated):
        if aggregate is not None and aggregate.kind.value in _SAME_ITEMS and aggregate.count:
            repeats = aggregate.count
            break
    if "." not in result.printed_value and not percent:
        return None
    return GrimPossible(result.id, "GRIM", result.printed_value, percent, items, repeats)
