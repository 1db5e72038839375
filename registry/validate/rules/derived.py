"""The rule of derived results: recomputed from their inputs' printed digits within every rounding, by
``registry.derived`` (which ``registry review`` calls too); a mean's printed spread recomputed with it.

Called by the values rule of a result (``rules.values``) once its printed value reads: it registers nothing itself.
"""

from __future__ import annotations

from registry import derived as derivation
from registry.issues import codes
from registry.models import Result
from registry.models.records import Direction
from registry.models.uncertainty_kinds import SPREADS
from registry.models.values import Derivation, Operation, UncertaintyKind
from registry.numbers import MINUS_SIGNS
from registry.numbers_in_text import numbers_in
from registry.rounding import decimals, shown
from registry.store.loader import Registry
from registry.validate.rules_registry import RecordCheck


def check_derived(result: Result, derived: Derivation, check: RecordCheck) -> None:
    """Recompute a derived result from its inputs' printed digits and compare, within every rounding
    (``registry.derived``, which ``registry review`` calls too)."""
    if result.id in derived.sources:
        check.add(codes.DERIVED_INPUTS, "a result cannot be derived from itself; name the results the source "
                  "computed it from", ("derived",))
        return
    inputs = [check.registry.records.get(i) for i in derived.sources]
    if not all(isinstance(i, Result) for i in inputs):
        return  # a dangling or wrong-kind reference is reported by the reference rules
    loop = _derivation_loop(result.id, derived, check.registry)
    if loop:
        check.add(codes.DERIVED_INPUTS, f"it is derived from itself through {' -> '.join(loop)}; a derivation names "
                  "the results the source computed it from", ("derived",))
        return
    results: list[Result] = [i for i in inputs if isinstance(i, Result)]
    ranges = [r for r in (result, *results) if r.range_upper is not None]
    if ranges:  # a range's lower end is no value to compute with; computing from it would check nothing real
        check.add(codes.DERIVED_INPUTS, "a range is not one value, so the derivation cannot be recomputed from it: "
                  f"{', '.join(f'{r.id} ({r.as_printed})' for r in ranges)}; leave 'derived' out and say in "
                  "scope_note how the source computed the range", ("derived",))
        return
    operation = derived.operation
    direction = None if results[0].metric_direction is None else results[0].metric_direction is Direction.LOWER
    given = [derivation.Input(r.printed_value, str(r.unit), r.id) for r in results]
    try:
        again = derivation.derive(operation, given, str(result.unit), lower_is_better=direction)
    except derivation.Underivable as problem:
        if problem.field is not None:  # else the cause (an unknown unit) is a schema error already
            check.add(codes.DERIVED_INPUTS, problem.message, (problem.field,))
        return
    except ZeroDivisionError:
        check.add(codes.DERIVED_INPUTS, f"the baseline {results[1].printed_value} may be zero at its printed digits, "
                  f"so no {operation.value} can be recomputed", ("derived",))
        return
    except ValueError:
        return  # an input that is not a number is reported on that input
    printed = [r.printed_value for r in results]
    if not derivation.consistent(result.printed_value, again):
        checked = ""
        if operation is not Operation.MEAN:  # which other operation the printed digits fit, if any
            fits = derivation.fitting_operations(result.printed_value, given, str(result.unit),
                                                 lower_is_better=direction, but=operation)
            checked = f" (checked as a {operation.value}" + (
                f"; the printed digits fit a {' or a '.join(op.value for op in fits)} of the same inputs: if the "
                "source computed that, name it as the operation" if fits else "") + ")"
        check.add(codes.DERIVED_MISMATCH, f"printed {result.printed_value}, but "
                  f"{derivation.worked(result.printed_value, again, printed)}; one of the numbers is mistranscribed"
                  f"{checked}", ("printed_value",))
    if operation is Operation.MEAN:
        _derived_spread(result, printed, check)


def _derivation_loop(start: str, derived: Derivation, registry: Registry) -> list[str]:
    """The chain of derivations that leads from ``start`` back to it, or [] where none does."""
    stack: list[tuple[str, list[str]]] = [(source, [source]) for source in derived.sources]
    seen: set[str] = set()
    while stack:
        current, path = stack.pop()
        if current == start:
            return path
        if current in seen:
            continue
        seen.add(current)
        record = registry.records.get(current)
        inner = getattr(record, "derived", None)
        if isinstance(inner, Derivation):
            stack += [(source, [*path, source]) for source in inner.sources]
    return []


def _derived_spread(result: Result, inputs: list[str], check: RecordCheck) -> None:
    """The standard deviation (or error) printed with a mean, recomputed over the results the mean is taken over."""
    spread = result.uncertainty
    if spread is None or spread.half_width is None or spread.kind not in SPREADS or (
            spread.over is not None and spread.over.count not in (None, len(inputs))):
        return
    sd = derivation.recompute_spread(inputs, standard_error=spread.kind is UncertaintyKind.STANDARD_ERROR)
    # The half-width's digits as printed (a wrong sign is the uncertainty rule's to report, not this one's).
    digits = next((n.lstrip("+-" + MINUS_SIGNS) for n in numbers_in(spread.printed)), None)
    if digits is not None and not derivation.consistent(digits, sd):
        places = decimals(digits) + 1
        check.add(codes.DERIVED_MISMATCH,
                  f"the {spread.kind.value} is printed {spread.printed!r}, but {sd.formula} (the results it is "
                  f"taken over) is {shown(sd.exact, places)} (between {sd.allowed.shown(places)} given their "
                  f"rounding)",
                  ("uncertainty", "half_width"))
