"""The interval a printed number's rounding allows, and the places a value worked out from printed numbers is
shown to.

A paper prints digits, not values: '0.681' stands for anything from 0.6805 to 0.6815. Interval arithmetic
over that rounding lets a derived number (a difference, a ratio, a relative change, a speed-up) be
recomputed from its inputs and compared with its own printed digits, as statcheck does for p-values
(``registry.derived`` does that arithmetic; this module holds its intervals and how they are shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from registry.numbers import parse_printed


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
    """What a printed number may stand for, given its digits: '0.681' -> [0.6805, 0.6815].

    A whole number's trailing zeros may be digits or rounding ('310' may be 313 rounded to two significant
    figures, as a paper's 'a 310% increase' is): the interval is that of its last digit that is not a zero.
    """
    value = parse_printed(printed)
    if value is None:
        raise ValueError(f"{printed!r} is not a number as printed")
    exponent = int(value.as_tuple().exponent)
    if exponent == 0 and value:  # a whole number printed without a decimal point or an exponent
        exponent = int(value.normalize().as_tuple().exponent)
    half = Decimal(5).scaleb(exponent - 1)  # half a unit of the last printed digit
    return Interval(value - half, value + half)
