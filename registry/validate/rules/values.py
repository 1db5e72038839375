"""The rules of values: a result's printed value, range, uncertainty and quote agree with its exact values, and
every value fits the database and prints as it reads. A derived result is recomputed by ``rules.derived``."""

from __future__ import annotations

import re
from decimal import Decimal

from registry.issues import codes
from registry.models import Record, Result
from registry.models.fields import unfit_values
from registry.models.values import Aggregate, RangeUpper, Uncertainty
from registry.numbers import MINUS_SIGNS, parse_printed, why_not_a_number
from registry.numbers_in_text import numbers_in, printed_pattern
from registry.status.versions import superseding
from registry.textsafe import excerpt
from registry.validate.rules import derived
from registry.validate.rules_registry import RecordCheck, kind_rules, record_rules


def unfit(record: Record, check: RecordCheck) -> None:
    """Every value fits the database and prints as it reads (see ``fields.unfit_values``)."""
    for path, problem, why in unfit_values(record):
        check.add(_UNFIT[problem], why, path)


_UNFIT = {"unstorable": codes.VALUE_OUT_OF_RANGE, "unprintable": codes.CONTROL_CHARACTER}


@kind_rules.register
def _result_values(result: Result, check: RecordCheck) -> None:
    printed = parse_printed(result.printed_value, result.unit)
    if printed is None:
        check.add(codes.VALUE_MISMATCH, f"printed value: {why_not_a_number(result.printed_value, result.unit)}",
                  ("printed_value",))
    elif printed != result.numeric_value:
        check.add(codes.VALUE_MISMATCH,
                  f"printed value {excerpt(result.printed_value)} reads {printed}, but numeric_value is "
                  f"{result.numeric_value}; they must agree", ("numeric_value",))
    if result.range_upper is not None and printed is not None:
        printed = _range_upper(result, result.range_upper, printed, check)
    if printed is not None:
        _value_in_quote(result, check)
    if result.uncertainty is not None:
        _uncertainty(result, result.uncertainty, check)
    if result.derived is not None and printed is not None:
        derived.check_derived(result, result.derived, check)


def _range_upper(result: Result, upper: RangeUpper, lower: Decimal, check: RecordCheck) -> Decimal | None:
    """A range's upper end is read as its lower end is, in the result's unit (the two share it), and lies above
    it; the lower end, or None where the upper end is unreadable (so the quote is not searched for it)."""
    where = ("range_upper",)
    printed = parse_printed(upper.printed_value, result.unit)
    if printed is None:
        check.add(codes.VALUE_MISMATCH, f"range's upper end: {why_not_a_number(upper.printed_value, result.unit)}",
                  (*where, "printed_value"))
        return None
    if printed != upper.numeric_value:
        check.add(codes.VALUE_MISMATCH, f"range's upper end {excerpt(upper.printed_value)} reads {printed}, but its "
                  f"numeric_value is {upper.numeric_value}; they must agree", (*where, "numeric_value"))
    elif printed <= lower:
        check.add(codes.VALUE_MISMATCH, f"range {excerpt(result.as_printed)} does not rise: its upper end {printed} "
                  f"must exceed its lower end {lower} (printed_value); one of the two is mistyped", where)
    return lower


def _value_in_quote(result: Result, check: RecordCheck) -> None:
    """A quote is copied from the source with the value, so a value it does not print was mistyped in one of the
    two ('0.618' quoted as '0.681 ± 0.019', '3.2' quoted as '3.2 × 10−4', a bound '< 0.001' quoted without its
    sign); ``registry review`` finds which against the PDF. The quote is read as the review reads the page
    (``printed_pattern``), either sign of the number allowed."""
    quote = result.source_locator.quote
    if not quote:
        return
    numbers = numbers_in(quote, percentages=True)
    plain = _digits(result.printed_value)  # most quotes print the value plainly: found without a pattern
    if result.bound is None and result.range_upper is None and any(_digits(n) == plain for n in numbers):
        return
    if printed_pattern(result.as_printed, signed=False).search(quote):
        return
    # Asked only now: the back links are indexed over the whole registry on first use.
    if superseding(check.registry, result.id):  # corrected already: its replacement holds the value as printed
        return
    found = ", ".join(numbers[:6]) + (", ..." if len(numbers) > 6 else "") if numbers else "no number"
    check.add(codes.VALUE_NOT_IN_QUOTE, f"printed value {excerpt(result.as_printed)} is not in its quote "
              f"{excerpt(quote)}, which prints {found}; one of the two is mistyped", ("printed_value",))


def _digits(printed: str) -> str:
    """A printed number's text without its sign and thousands separators: '−1,843' and '1 843' -> '1843'."""
    return re.sub(r"[,\u2009\u202f\u00a0 '\u2019]", "", printed.strip().lstrip("+-\uff0b" + MINUS_SIGNS))


def _uncertainty(result: Result, uncertainty: Uncertainty, check: RecordCheck) -> None:
    """The printed ± or interval must be the exact values; an interval must hold its value; counts must agree."""
    where = ("uncertainty",)
    printed = numbers_in(uncertainty.printed)
    exact: list[Decimal | None] = ([uncertainty.half_width] if uncertainty.half_width is not None
                                   else [uncertainty.lower, uncertainty.upper] if uncertainty.is_interval else [])
    if exact and not _printed_as(printed, exact):
        fields = "half_width" if uncertainty.half_width is not None else "lower and upper"
        check.add(codes.UNCERTAINTY_MISMATCH,
                  f"uncertainty printed {uncertainty.printed!r} reads {', '.join(printed) or 'no number'}, but "
                  f"{fields} {'is' if len(exact) == 1 else 'are'} {', '.join(str(e) for e in exact)}; they must "
                  f"agree", (*where, "printed"))
    if uncertainty.is_interval and uncertainty.lower is not None and uncertainty.upper is not None:
        if not uncertainty.lower <= result.numeric_value <= uncertainty.upper:
            check.add(codes.UNCERTAINTY_EXCLUDES_VALUE,
                      f"the {uncertainty.kind.value} [{uncertainty.lower}, {uncertainty.upper}] does not contain the "
                      f"value {result.numeric_value} it is printed with", (*where, "lower"))
    evaluation = check.registry.records.get(result.evaluation)
    stated = getattr(evaluation, "aggregated_over", None)
    over = uncertainty.over
    if isinstance(stated, Aggregate) and over is not None and (
            over.kind is not stated.kind or (over.count is not None and stated.count is not None
                                             and over.count != stated.count)):
        check.add(codes.AGGREGATE_MISMATCH,
                  f"the uncertainty is over {over.count or 'some'} {over.kind.value}, but its evaluation aggregates "
                  f"{stated.count or 'some'} {stated.kind.value}", (*where, "over"))


def _printed_as(printed: list[str], exact: list[Decimal | None]) -> bool:
    """Whether the first printed numbers are the exact values, signs included (a ± half-width is printed after
    its '±', unsigned: '−0.022' is not a half-width of 0.022)."""
    if len(printed) < len(exact):
        return False
    for text, value in zip(printed, exact, strict=False):
        read = parse_printed(text)
        if read is None or value is None or read != value:
            return False
    return True


record_rules.append(unfit)
