"""Printed numbers read exactly, their rounding intervals, and derived values recomputed within them."""

from __future__ import annotations

from decimal import Decimal

import pytest

from registry.derived import consistent, recompute
from registry.numbers import parse_printed, why_not_a_number
from registry.numbers_in_text import numbers_in
from registry.rounding import decimals, rounding_interval


@pytest.mark.parametrize(("printed", "value"), [
    ("33.88", Decimal("33.88")), ("1,843", Decimal(1843)), ("12,345,678.5", Decimal("12345678.5")),
    ("\u22120.021", Decimal("-0.021")), ("-0.021", Decimal("-0.021")), ("0.70", Decimal("0.70")),
    ("1\u2009843", Decimal(1843)), (".5", Decimal("0.5")),
    ("0,681", Decimal("0.681")), ("71.3%", None), ("33.88 GB", None), ("n/a", None), ("1,84", Decimal("1.84")),
    ("inf", None),
])
def test_printed_numbers_are_read_exactly_or_not_at_all(printed: str, value: Decimal | None) -> None:
    assert parse_printed(printed) == value


@pytest.mark.parametrize(("printed", "says"), [
    ("71.3%", "write printed_value '71.3' and unit: percent"),
    ("33.88 GB", "write printed_value '33.88' and unit: gigabyte"),
    ("0.681 ± 0.019", "holds an uncertainty"),
    ("about 3", "is not a number as printed"),
])
def test_a_printed_value_that_is_not_a_number_says_what_to_write(printed: str, says: str) -> None:
    assert says in why_not_a_number(printed)


def test_rounding_intervals_follow_the_printed_digits() -> None:
    assert decimals("0.681") == 3 and decimals("1,843") == 0 and decimals("\u22120.0210") == 4
    interval = rounding_interval("0.681")
    assert (interval.low, interval.high) == (Decimal("0.6805"), Decimal("0.6815"))
    assert decimals("2.5e-3") == 4 and decimals("1.5e3") == -2  # the exponent says where the last digit is
    assert rounding_interval("1.5e3") == type(interval)(Decimal(1450), Decimal(1550))
    assert rounding_interval("2.5e-3") == type(interval)(Decimal("0.00245"), Decimal("0.00255"))
    # A whole number's trailing zeros may be rounding: '310' may be 313 to two significant figures.
    assert rounding_interval("310") == type(interval)(Decimal(305), Decimal(315))
    assert rounding_interval("310.0") == type(interval)(Decimal("309.95"), Decimal("310.05"))
    assert rounding_interval("0") == type(interval)(Decimal("-0.5"), Decimal("0.5"))


@pytest.mark.parametrize(("operation", "value", "baseline", "printed", "ok"), [
    ("difference", "0.681", "0.702", "\u22120.021", True),
    ("difference", "0.681", "0.702", "-0.031", False),
    ("reduction", "11.49", "33.88", "66", True),
    ("reduction", "11.49", "33.88", "66.1", True),
    ("reduction", "11.49", "33.88", "76", False),
    ("relative-change", "11.49", "33.88", "-66", True),
    ("ratio", "1,843", "768", "2.4", True),
    ("speed-up", "1.2", "2.9", "2.4", True),
    ("percent-of", "34.7", "11.1", "310", True),  # 'a 310% increase' from 11.1 s to 34.7 s: the paper's 34.7 / 11.1
    ("relative-increase", "34.7", "11.1", "310", False),  # (34.7 - 11.1) / 11.1 is 213%
    ("relative-increase", "34.7", "11.1", "213", True),
    ("relative-decrease", "11.49", "33.88", "66.1", True),
])
def test_derived_values_are_recomputed_within_their_inputs_rounding(operation: str, value: str, baseline: str,
                                                                    printed: str, ok: bool) -> None:
    percent = operation in ("reduction", "relative-change", "relative-increase", "relative-decrease")
    again = recompute(operation, value, baseline, lower_is_better=True, percent=percent)
    assert consistent(printed, again) is ok


def test_a_baseline_that_may_be_zero_cannot_divide() -> None:
    with pytest.raises(ZeroDivisionError):
        recompute("ratio", "1.0", "0.0", lower_is_better=False, percent=False)


def test_numbers_in_reads_only_numbers_from_a_sentence() -> None:
    """Matches start only where a digit comes; an exponent cut short by a full stop ('e5.') is no number."""
    assert numbers_in("Peak memory was 33.88 GB (Table 2), 1,024 tokens.") == ["33.88", "2", "1,024"]
    assert numbers_in("in e5. and 3") == ["3"]
    assert numbers_in("no digits here at all") == []


def test_numbers_in_printed_uncertainties() -> None:
    assert numbers_in("\u00b1 0.019") == ["0.019"]
    assert numbers_in("[0.66, 0.70]") == ["0.66", "0.70"]
    assert numbers_in("95% CI [\u22120.10, 0.20]") == ["\u22120.10", "0.20"]  # a percentage is the level
    assert numbers_in("0.64\u20130.70") == numbers_in("0.64-0.70") == ["0.64", "0.70"]  # a range's dash
    assert numbers_in("[0.64,0.70]") == ["0.64", "0.70"] and numbers_in("1,843") == ["1,843"]
    assert numbers_in("\u00b1 2.2e-2") == ["2.2e-2"]


@pytest.mark.parametrize(("value", "places", "expected"), [
    ("66", 2, "66.00"),
    ("0.6805", 5, "0.68050"),
    ("2E+30", -28, "2.00e+30"),  # printed to 1e29: one digit more
    ("1.5E+20", 2, "1.5000000000000000000000e+20"),  # too large for digits: powers of ten, nothing dropped
    ("0", -3, "0"),
])
def test_a_worked_value_is_shown_at_any_magnitude(value: str, places: int, expected: str) -> None:
    from decimal import Decimal

    from registry.rounding import shown

    assert shown(Decimal(value), places) == expected


@pytest.mark.parametrize(("printed", "places"), [(("66",), 2), (("0.681", "31.62"), 4), (("2.0e30",), -28),
                                                 (("1,843",), 2)])
def test_a_worked_value_gets_one_digit_more_than_printed(printed: tuple[str, ...], places: int) -> None:
    from registry.rounding import worked_places

    assert worked_places(*printed) == places
