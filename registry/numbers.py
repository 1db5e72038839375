"""Printed numbers: reading them exactly, the interval their rounding allows, and recomputing derived values.

A paper prints digits, not values: '0.681' stands for anything from 0.6805 to 0.6815. These
functions read printed numbers the way a careful reader does (thousands separators, Unicode
minus signs, a decimal comma refused rather than guessed) and do interval arithmetic over
their rounding, so that a derived number (a difference, a ratio, a relative change, a
speed-up) can be recomputed from its inputs and compared with its own printed digits, as
statcheck does for p-values. Validation and source checking both use them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

#: Characters a page prints for a minus sign.
MINUS_SIGNS = "\u2212\u2013\u2012\ufe63\uff0d"
_THOUSANDS = re.compile(r"^[+-]?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$")
_SPACED_THOUSANDS = re.compile(r"^[+-]?[1-9]\d{0,2}(?:[\u2009\u202f\u00a0 ]\d{3})+(?:\.\d+)?$")
_PLAIN = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")


def normalize_printed(text: str) -> str:
    """Printed digits as plain ASCII: minus signs as '-', thousands separators dropped; unchanged if unreadable."""
    cleaned = text.strip()
    for minus in MINUS_SIGNS:
        cleaned = cleaned.replace(minus, "-")
    if _THOUSANDS.match(cleaned):
        return cleaned.replace(",", "")
    if _SPACED_THOUSANDS.match(cleaned):
        return re.sub(r"[\u2009\u202f\u00a0 ]", "", cleaned)
    return cleaned


def parse_printed(text: str) -> Decimal | None:
    """A printed number as an exact Decimal ('1,843' -> 1843, '−0.021' -> -0.021), or None if it is not one.

    A comma that is not a thousands separator ('0,681') is not read: it may be a decimal comma. The Decimal
    keeps the printed precision (trailing zeros, exponent: '0.680', '2.5e-3'), which rounding reads.
    """
    cleaned = normalize_printed(text)
    if not _PLAIN.match(cleaned):
        return None
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def why_not_a_number(text: str) -> str:
    """What to write instead, for a printed value ``parse_printed`` cannot read."""
    from registry.units import unit_named

    stripped = text.strip()
    if stripped.endswith("%") and parse_printed(stripped[:-1]) is not None:
        return (f"{text!r} holds the unit: write printed_value {stripped[:-1].strip()!r} and unit: percent (the % "
                "is the unit's, shown from it)")
    marks = r"[*\u2020\u2021\u00a7\u00b6\u2016]+|[\u00b9\u00b2\u00b3\u2070-\u2079]+"  # *, †, ‡, §, ¶, ‖, superscripts
    mark = re.match(rf"^([+\-\u2212]?[\d.,]+)\s*({marks})$", stripped)
    if mark and parse_printed(mark.group(1)) is not None:
        return (f"{text!r} ends in a footnote mark ({mark.group(2)!r}): write printed_value {mark.group(1)!r}; the "
                "mark belongs in the locator's quote, and what its footnote says in scope_note")
    if "±" in stripped or "+/-" in stripped:
        return f"{text!r} holds an uncertainty: give the value alone here and the ± in 'uncertainty'"
    number = re.match(r"^([+\-\u2212]?[\d.,]+)\s*(.+)$", stripped)
    if number and parse_printed(number.group(1)) is not None:
        from registry.units import unit_printed_as

        shared = unit_printed_as(number.group(2))
        meant = unit_named(number.group(2))
        unit = (f"unit: {' or '.join(shared)} (the page's {number.group(2)!r} may be either)" if len(shared) > 1
                else f"unit: {meant.value}" if meant else "the unit in 'unit'")
        return (f"{text!r} holds more than the number: write printed_value {number.group(1)!r} and {unit}; how "
                "the page prints the unit goes in unit_detail")
    if re.match(r"^[+\-\u2212]?\d+,\d+$", stripped):
        return (f"{text!r} has a comma that is not a thousands separator; if it is a decimal comma, keep the "
                "printed text and say so in a note, writing numeric_value with a point")
    return (f"{text!r} is not a number as printed; keep the source's digits (thousands separators and minus signs "
            "are fine)")


def decimals(text: str) -> int:
    """How many decimal places a printed number's last digit stands for ('0.681' -> 3, '1,843' -> 0,
    '2.5e-3' -> 4); negative for a number printed to tens or more ('1.5e3' -> -2)."""
    value = parse_printed(text)
    return -int(value.as_tuple().exponent) if value is not None else 0


def worked_places(*printed: str) -> int:
    """The decimals to show a value worked out from these printed numbers with: one more than the finest of
    them prints (at least two for whole numbers, '66' -> 66.00; '2.0e30' -> to 1e28)."""
    finest = max(decimals(text) for text in printed)
    return finest + 1 if finest < 0 else max(finest, 1) + 1


def shown(value: Decimal, places: int) -> str:
    """``value`` to ``places`` decimals, whatever its size: in powers of ten where ``places`` is negative (a
    number printed to tens or more, '2.0e30') or the value is too large or small to read as digits."""
    if value and (places < 0 or not Decimal("1e-6") <= abs(value) < Decimal("1e15")):
        return format(value, f".{max(value.adjusted() + places, 0)}e")
    return format(value, f".{max(places, 0)}f")


@dataclass(frozen=True)
class Interval:
    """The values a printed number may stand for: [low, high]."""

    low: Decimal
    high: Decimal

    def overlaps(self, other: Interval) -> bool:
        return self.low <= other.high and other.low <= self.high

    def __sub__(self, other: Interval) -> Interval:
        return Interval(self.low - other.high, self.high - other.low)

    def __truediv__(self, other: Interval) -> Interval:
        if other.low <= 0 <= other.high:
            raise ZeroDivisionError("the divisor's interval includes zero")
        corners = [a / b for a in (self.low, self.high) for b in (other.low, other.high)]
        return Interval(min(corners), max(corners))

    def scaled(self, factor: Decimal) -> Interval:
        ends = (self.low * factor, self.high * factor)
        return Interval(min(ends), max(ends))

    def negated(self) -> Interval:
        return Interval(-self.high, -self.low)

    def shown(self, places: int) -> str:
        return f"{shown(self.low, places)} and {shown(self.high, places)}"


def rounding_interval(printed: str) -> Interval:
    """What a printed number may stand for, given its digits: '0.681' -> [0.6805, 0.6815]."""
    value = parse_printed(printed)
    if value is None:
        raise ValueError(f"{printed!r} is not a number as printed")
    half = Decimal(5).scaleb(int(value.as_tuple().exponent) - 1)  # half a unit of the last printed digit
    return Interval(value - half, value + half)


@dataclass(frozen=True)
class Recomputed:
    """A derived value recomputed from its inputs' printed digits: exactly, and within their rounding."""

    exact: Decimal
    """From the inputs' printed values, taken as exact."""
    allowed: Interval
    """Every value the inputs' rounding allows."""
    formula: str
    """How it was computed, in words and numbers ('0.681 - 0.702')."""


def recompute(operation: str, value: str, baseline: str, *, lower_is_better: bool, percent: bool,
              value_scale: Decimal = Decimal(1), baseline_scale: Decimal = Decimal(1)) -> Recomputed:
    """Recompute ``operation`` over two printed inputs (in one unit after their scales), as a result prints it.

    ``percent``: the derived value is printed in percent (a relative change of -0.661 prints as -66.1).
    """
    a, b = parse_printed(value), parse_printed(baseline)
    if a is None or b is None:
        raise ValueError("an input is not a number as printed")
    a, b = a * value_scale, b * baseline_scale
    ia, ib = rounding_interval(value).scaled(value_scale), rounding_interval(baseline).scaled(baseline_scale)
    hundred = Decimal(100) if percent else Decimal(1)
    if operation == "difference":
        return Recomputed(a - b, ia - ib, f"{value} - {baseline}")
    if operation == "ratio":
        return Recomputed(a / b * hundred, (ia / ib).scaled(hundred), f"{value} / {baseline}")
    if operation == "relative-change":
        exact = (a - b) / b * hundred
        allowed = _relative(ia, ib).scaled(hundred)
        return Recomputed(exact, allowed, f"({value} - {baseline}) / {baseline}")
    if operation == "reduction":
        exact = (b - a) / b * hundred
        allowed = _relative(ia, ib).negated().scaled(hundred)
        return Recomputed(exact, allowed, f"({baseline} - {value}) / {baseline}")
    if operation == "speed-up":
        if lower_is_better:
            return Recomputed(b / a * hundred, (ib / ia).scaled(hundred), f"{baseline} / {value}")
        return Recomputed(a / b * hundred, (ia / ib).scaled(hundred), f"{value} / {baseline}")
    raise ValueError(f"unknown operation {operation!r}")


def recompute_mean(printed: list[str]) -> Recomputed:
    """The mean of printed values: exactly, and between the means of their rounding intervals."""
    values = [_read(text) for text in printed]
    intervals = [rounding_interval(text) for text in printed]
    n = Decimal(len(values))
    return Recomputed(sum(values, Decimal(0)) / n,
                      Interval(sum((i.low for i in intervals), Decimal(0)) / n,
                               sum((i.high for i in intervals), Decimal(0)) / n),
                      f"the mean of {len(values)} values")


def recompute_spread(printed: list[str], *, standard_error: bool = False) -> Recomputed:
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
    name = "standard error" if standard_error else "standard deviation (sample or population)"
    return Recomputed(sample * scale, allowed, f"the {name} of {n} values")


def _read(text: str) -> Decimal:
    value = parse_printed(text)
    if value is None:
        raise ValueError(f"{text!r} is not a number as printed")
    return value


def _relative(value: Interval, baseline: Interval) -> Interval:
    """(v - b) / b over every v and b the intervals allow: v / b - 1."""
    ratio = value / baseline
    return Interval(ratio.low - 1, ratio.high - 1)


def consistent(printed: str, recomputed: Recomputed) -> bool:
    """Whether the printed digits could come from rounding a value the inputs allow."""
    return rounding_interval(printed).overlaps(recomputed.allowed)


#: A printed number without its sign. The lookahead starts a match only where a digit comes (every part
#: is optional, so without it the pattern would match the empty text at every character of a sentence).
_UNSIGNED = re.compile(r"(?<![\d.])(?=\.?\d|[eE][+\-]?\d)(?:\d{1,3}(?:,\d{3})+(?![\d,])|\d+)?(?:\.\d+)?"
                       r"(?:[eE][+\-]?\d+)?(?![\d.])")


def numbers_in(text: str, *, percentages: bool = False) -> list[str]:
    """The printed numbers in ``text``, in order ('± 0.019' -> ['0.019'], '[0.66, 0.70]' -> ['0.66', '0.70'],
    '0.64–0.70' -> ['0.64', '0.70']); a percentage ('95% CI') is a level, not one of them, unless
    ``percentages`` (a sentence's '71.3%' is the value)."""
    found = []
    for match in _UNSIGNED.finditer(text):
        number, start = match.group(0), match.start()
        if not number or (not percentages and text[match.end():match.end() + 1] == "%"):
            continue  # an empty match (before 'e5.'): every part that is not empty holds a digit
        before = text[start - 1] if start else ""
        # A minus (or plus) is the number's sign unless it joins two numbers, as a range's dash does.
        if before and before in "+-" + MINUS_SIGNS and not text[:start - 1].rstrip()[-1:].isdigit():
            number = before + number
        found.append(number)
    return found
