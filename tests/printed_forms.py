"""Printed forms of numbers seen in papers, each with its exact value or the refusal a curator gets.

One table, read by ``tests/test_printed_forms.py`` through every reader of printed numbers: the one reading
(``registry.numbers.read_number``), validation, ``registry review``'s reading of a page, ``registry import``
and ``registry new``. ``page`` is how the PDF's text gives the form where that differs (superscripts
flattened, a thin space dropped).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Form:
    printed: str
    unit: str
    value: Decimal | None
    """What the one reading makes of the text (None: it reads no one number)."""
    refusal: str = ""
    """Where a result's printed_value cannot hold the text as it is, what the refusal says (a part of it)."""
    page: str = ""
    """The form as the PDF's text gives it, where that differs from the curator's."""
    reviewable: bool = True
    """Whether ``registry review`` can confirm the form on a page: not a bare power with a positive superscript
    exponent, which the text flattens into the digits of another number ('2¹⁰' into '210')."""

    @property
    def accepted(self) -> bool:
        return not self.refusal

    @property
    def on_page(self) -> str:
        return self.page or self.printed


D = Decimal
DIM = "dimensionless"

FORMS: tuple[Form, ...] = (
    # Decimal points and commas, thousands separators.
    Form("33.88", "gigabyte", D("33.88")),
    Form("0.681", DIM, D("0.681")),
    Form("0.70", DIM, D("0.70")),
    Form(".5", DIM, D("0.5")),
    Form("66", "percent", D(66)),
    Form("0,681", DIM, D("0.681")),
    Form("1,84", "second", D("1.84")),
    Form("12,5", "percent", D("12.5")),
    Form("1,843", "count", D(1843)),
    Form("12,345,678.5", "count", D("12345678.5")),
    Form("12,960", "sequences-per-second", D(12960)),
    Form("12\u2009345", "count", D(12345), page="12345"),
    Form("12\u202f345", "count", D(12345)),
    Form("12\u00a0345", "count", D(12345)),
    Form("12 345", "count", D(12345), page="12\u2009345"),
    Form("1\u2009234\u2009567", "count", D(1234567)),
    Form("12'345", "count", D(12345)),
    Form("12\u2019345", "count", D(12345)),
    Form("1.234,5", "second", D("1234.5")),
    Form("1.234.567", "count", D(1234567)),
    Form("12\u2009345,6", "second", D("12345.6")),
    # Signs.
    Form("\u22120.021", DIM, D("-0.021")),
    Form("-0.021", DIM, D("-0.021"), page="\u22120.021"),
    Form("\u20130.021", DIM, D("-0.021")),
    Form("+1.2", "percentage-point", D("1.2")),
    Form("\uff0b1.2", "percentage-point", D("1.2")),
    Form("\u2212 3.5", "percent", D("-3.5")),
    # Exponents and powers of ten, as typed and as PDF text gives them.
    Form("1.5e-3", DIM, D("0.0015")),
    Form("1.5E-03", DIM, D("0.0015")),
    Form("2.5e\u22123", DIM, D("0.0025")),
    Form("6.0E+23", "flop", D("6.0e23")),
    Form("3.2 \u00d7 10^-4", "kilowatt-hour", D("0.00032"), page="3.2 \u00d7 10\u22124"),
    Form("3.2\u00d710\u22124", "kilowatt-hour", D("0.00032")),
    Form("3.2 \u00d7 10\u207b\u2074", "kilowatt-hour", D("0.00032"), page="3.2 \u00d7 10-4"),
    Form("3.2\u00b710^-4", "kilowatt-hour", D("0.00032")),
    Form("3.2 \u22c5 10^{-4}", "kilowatt-hour", D("0.00032")),
    Form("2.7 \u00d7 10^-3", DIM, D("0.0027"), page="2.7 \u00d7 10\u22123"),
    Form("1.2 x 10^5", "count", D(120000)),
    Form("4.5 \u00d7 10^22", "flop", D("4.5e22"), page="4.5 \u00d7 10\u00b2\u00b2"),
    Form("3.2 \u00d7 10\u2074", "count", D(32000)),
    Form("10^-4", DIM, D("0.0001"), page="10\u22124"),
    # A power of ten broken by the extractor or the publisher's pipeline: read whole, never cut to its mantissa.
    Form("3.2 \u00d7 10 \u22124", "kilowatt-hour", D("0.00032")),
    Form("3.2\u00d710\u2212\u2074", "kilowatt-hour", D("0.00032")),
    Form("-0.04 e-2", DIM, D("-0.0004"), page="\u22120.04 e\u22122"),
    Form("2^-6", DIM, D("0.015625"), page="2\u22126"),
    Form("2\u207b\u2076", DIM, D("0.015625")),
    Form("2^{10}", "count", D(1024)),
    Form("2\u00b9\u2070", "count", D(1024), reviewable=False),
    # What a cell or a sentence prints with the number: read there, refused as a printed value (the advice keeps
    # the value: the number with its unit).
    Form("71.3%", "percent", D("71.3"), "write printed_value '71.3' and unit: percent"),
    Form("71.3 %", "percent", D("71.3"), "write printed_value '71.3' and unit: percent"),
    Form("71.3%", DIM, None, "write printed_value '71.3' and unit: percent"),
    Form("7B", "count", D(7000000000), "write printed_value '7' and unit: billion;"),
    Form("7B", "billion", D(7), "write printed_value '7' and unit: billion;"),
    Form("175B", "million", D(175000), "write printed_value '175' and unit: billion;"),
    Form("7 B", "count", D(7000000000), "write printed_value '7' and unit: billion;"),
    Form("7B", "gigabyte", D("7e-9"), "write printed_value '7' and unit: byte;"),
    Form("500M", "count", D(500000000), "write printed_value '500' and unit: million"),
    Form("33.88 GB", "megabyte", D(33880), "write printed_value '33.88' and unit: gigabyte"),
    Form("12k", "count", D(12000), "write printed_value '12' and unit: thousand"),
    Form("0.681*", DIM, D("0.681"), "ends in a footnote mark ('*'): write printed_value '0.681'"),
    Form("0.681\u2020", DIM, D("0.681"), "ends in a footnote mark ('\u2020'): write printed_value '0.681'"),
    Form("0.681\u00b9", DIM, D("0.681"), "ends in a footnote mark ('\u00b9'): write printed_value '0.681'"),
    Form("0.592.", DIM, D("0.592"), "ends in the sentence's '.': write printed_value '0.592'"),
    Form("1,843;", "count", D(1843), "ends in the sentence's ';': write printed_value '1,843'"),
    Form("33.88 GB", "gigabyte", D("33.88"), "write printed_value '33.88' and unit: gigabyte"),
    Form("3.2 \u00d7 10\u22124 kWh", "kilowatt-hour", D("0.00032"),
         "write printed_value '3.2 \u00d7 10\u22124' and unit: kilowatt-hour"),
    Form("2.4\u00d7", "times", D("2.4"), "write printed_value '2.4' and unit: times"),
    Form("12,960 seq/s", "sequences-per-second", D(12960),
         "write printed_value '12,960' and unit: sequences-per-second"),
    # Forms with no one value: refused, never cut down to a number they do not mean.
    Form("3.2 \u00d7 104", "kilowatt-hour", None, "may be a product or a power of ten whose superscript the text "
         "flattened ('3.2 \u00d7 10^4')"),
    Form("3 \u00d7 10", "count", None, "is a product, not a power of ten"),
    # A power whose superscript the text set on the line: no range; the advice keeps the exponent.
    Form("2\u22126", DIM, None, "is a power whose superscript the text set on the line (2^-6), not a range"),
    # A range is no one value: its lower end is filed as the value, its upper end as range_upper.
    Form("12\u201315 GB", "gigabyte", None, "is a range of two numbers, not one value: write printed_value '12' (its "
         "lower end) and range_upper: {printed_value: '15'}"),
    Form("12-15", "gigabyte", None, "write printed_value '12' (its lower end) and range_upper: {printed_value: '15'}"),
    Form("12 to 15", "gigabyte", None, "write printed_value '12' (its lower end) and range_upper: {printed_value: "
         "'15'}"),
    Form("\u22125 to \u22123", DIM, None, "write printed_value '\u22125' (its lower end) and range_upper: "
         "{printed_value: '\u22123'}"),
    Form("< 0.001", DIM, None, "is a bound, not a value: write bound: '<' and printed_value '0.001'"),
    Form("p < 0.001", DIM, None, "is not a number as printed"),
    Form("<=0.05", DIM, None, "is a bound, not a value: write bound: '\u2264' and printed_value '0.05'"),
    Form("> 99%", "percent", None, "is a bound, not a value: write bound: '>' and, as printed_value, the number "
         "after the sign; '99%' holds more than the number: write printed_value '99' and unit: percent"),
    Form("\u2264 2 GB", "gigabyte", None, "is a bound, not a value: write bound: '\u2264' and, as printed_value"),
    Form("\u2265 1.5 \u00d7 10^-3", DIM, None, "write bound: '\u2265' and printed_value '1.5 \u00d7 10^-3'"),
    Form("~3", DIM, None, "is an approximation ('~' 3), not a value"),
    Form("0.681 \u00b1 0.019", DIM, None, "holds an uncertainty"),
    Form("n/a", DIM, None, "is not a number as printed"),
    Form("inf", DIM, None, "is not a number as printed"),
    Form("\u2013", DIM, None, "is not a number as printed"),
    Form("0.5^2", DIM, None, "is a power of a number that is not whole"),
    Form("3^-1", DIM, None, "is a power without an exact decimal value"),
)
