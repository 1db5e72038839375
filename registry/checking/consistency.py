"""Internal consistency: what the printed numbers must satisfy among themselves (statcheck, for this field).

These claims read no text: they recompute from the digits the records transcribe, so a slip in any
one of the numbers shows even where each was copied faithfully from a page that is itself wrong.

- **derived**: a result the source computed from two others (``derived``: a difference, ratio,
  relative change, reduction or speed-up) is recomputed from its inputs' printed digits over every
  value their rounding allows (``registry.rounding``) and compared with its own printed digits. A
  sentence such as 'reduces memory by 66%' that a record cites is checked this way against the two
  values it relates; where the quoted sentence prints those values too, the claim says so.
- **GRIM**: a percentage or fraction of n items (accuracy on a test set of n, ``coverage_scored``),
  or a mean of such over k runs or seeds, must be a whole count over n·k items at its printed
  rounding: 71.3% of 150 is possible (107/150 = 71.33%), 71.5% is not (Brown and Heathers' test).
  Only metrics that are one such share: not balanced accuracy (a mean of per-class recalls) and
  not pass@k (estimated from several samples per problem, and the records do not say how many).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, ClassVar

from registry.checking.claims import Assertion, Claim
from registry.models.records import Direction
from registry.models.uncertainty_kinds import SPREADS
from registry.numbers_in_text import numbers_in
from review.pdf.pdftext import Extraction, normalize_quote, number_pattern

if TYPE_CHECKING:
    from registry.models import Result
    from registry.store.loader import Registry

#: Metrics that are a share of items scored correctly (or not): the ones GRIM applies to, with any other
#: '<kind>-accuracy' but those below. Not here: pass@k, which the unbiased estimator computes from several
#: samples per problem (164 problems × 20 samples give pass@1 = 1038/3280, no whole count of 164).
PROPORTION_METRICS = frozenset({"accuracy", "top-1-accuracy", "top-5-accuracy", "exact-match", "error-rate",
                                "success-rate", "proportion"})
#: Accuracies that average a rate per class or per group (balanced accuracy: the mean of the recalls, whose
#: grain is not 1/n): not a share of n items, so GRIM does not apply.
_AVERAGED_RATES = ("balanced-", "macro-", "mean-", "average-", "per-class-", "class-balanced-", "weighted-")
#: Repeats whose mean keeps the grain of one item: the same n items scored again.
_SAME_ITEMS = frozenset({"seeds", "runs"})


#: The spreads printed with a mean, recomputed over the same inputs; their claims name them by their tokens.
_SPREADS = tuple(kind.value for kind in SPREADS)


@dataclass(frozen=True)
class DerivedConsistent(Claim):
    """A derived value, recomputed from its inputs' printed digits, must round to its own printed digits.

    ``operation`` is one of the ``Operation`` values, or 'standard-deviation' / 'standard-error' for the
    spread printed with a mean, recomputed over the same inputs. The arithmetic, units converted, is
    ``registry.derived``'s, which ``registry validate`` runs too."""

    printed: str
    operation: str
    inputs: tuple[str, ...]
    """The inputs' printed values: (value, baseline) for an operation of two, all of them for a mean."""
    sources: tuple[str, ...]
    lower_is_better: bool | None = False
    """None: the metric's direction is unknown."""
    unit: str = "dimensionless"
    """The derived result's unit."""
    units: tuple[str, ...] = ()
    """The inputs' units, in their order (empty: each in ``unit``)."""
    quote: str | None = None
    reads_text: ClassVar[bool] = False

    def check(self, doc: Extraction) -> Assertion:
        from registry.derived import Input, consistent, derive, recompute_spread, worked
        from registry.models.values import Operation, UncertaintyKind

        of_two = self.operation not in ("mean", *_SPREADS)
        of = f"{self.inputs[0]} and {self.inputs[1]}" if of_two else f"{len(self.inputs)} results"
        expected = f"{self.printed} = {self.operation} of {of}"
        units = self.units or (self.unit,) * len(self.inputs)
        try:
            if self.operation in _SPREADS:
                again = recompute_spread(list(self.inputs),
                                         standard_error=self.operation == UncertaintyKind.STANDARD_ERROR)
            else:
                again = derive(Operation(self.operation), [Input(*given) for given in zip(
                    self.inputs, units, self.sources, strict=True)], self.unit, lower_is_better=self.lower_is_better)
        except ZeroDivisionError:
            return self._result(expected, False, detail=f"the baseline {self.inputs[1]} may be zero at its printed "
                                "digits, so nothing can be recomputed")
        except ValueError as exc:
            return self._result(expected, False, detail=f"cannot recompute: {exc}")
        arithmetic = worked(self.printed, again, self.inputs)
        sentence = ""
        if self.quote is not None and of_two:
            quoted = normalize_quote(self.quote)
            if all(number_pattern(v).search(quoted) for v in self.inputs):
                sentence = "; the quoted sentence prints both inputs"
        if consistent(self.printed, again):
            return self._result(expected, True, matched=arithmetic,
                                detail=f"consistent at the printed rounding{sentence}")
        return self._result(expected, False, matched=arithmetic,
                            detail=f"printed {self.printed}, but {arithmetic}; one of the numbers is mistranscribed, "
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
        from registry.rounding import rounding_interval

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
    claims: list[Claim] = _derived(registry, result)
    grim = _grim(registry, result)
    if grim is not None:
        claims.append(grim)
    return claims


def _derived(registry: Registry, result: Result) -> list[Claim]:
    """The derivation's claim (and a mean's spread's), where its inputs can give the result: where they cannot,
    'registry validate' reports why, and there is nothing to recompute."""
    from registry.derived import Input, underivable
    from registry.models import Result as ResultModel

    derivation = result.derived
    if derivation is None:
        return []
    inputs = [registry.records.get(i) for i in derivation.sources]
    if result.id in derivation.sources or not all(isinstance(i, ResultModel) for i in inputs):
        return []  # a dangling reference, or one to itself, is a validation error already
    results: list[Result] = [i for i in inputs if isinstance(i, ResultModel)]
    direction = None if results[0].metric_direction is None else results[0].metric_direction is Direction.LOWER
    given = [Input(i.printed_value, str(i.unit), i.id) for i in results]
    if underivable(derivation.operation, given, str(result.unit), lower_is_better=direction) is not None:
        return []
    printed = tuple(i.printed_value for i in results)
    ids = tuple(i.id for i in results)
    claims: list[Claim] = [DerivedConsistent(result.id, "derived value", result.printed_value,
                                             derivation.operation.value, printed, ids, direction, str(result.unit),
                                             tuple(i.unit for i in given), result.source_locator.quote)]
    spread = result.uncertainty
    if derivation.operation.value == "mean" and spread is not None and spread.kind in SPREADS and (
            spread.half_width is not None and numbers_in(spread.printed)) and (
            spread.over is None or spread.over.count in (None, len(results))):
        claims.append(DerivedConsistent(result.id, "derived uncertainty", numbers_in(spread.printed)[0],
                                        spread.kind.value, printed, ids))
    return claims


def _grim(registry: Registry, result: Result) -> GrimPossible | None:
    from registry.models import Evaluation

    metric = result.metric
    if metric not in PROPORTION_METRICS and not (metric.endswith("-accuracy") and not metric.startswith(
            _AVERAGED_RATES)):
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
