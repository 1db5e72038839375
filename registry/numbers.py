"""Printed numbers: reading them exactly, and the characters they are printed with.

A paper prints digits, not values: '1,843', '−0.021' and '3.2×10−4' are numbers a careful reader
reads without a guess. This module is the grammar of a printed number (its signs, spaces,
superscripts and powers of ten, declared once here) and the one reading of it; two modules build
on it: ``registry.numbers_in_text`` finds where a text prints a number, and ``registry.rounding``
says what a number's digits may stand for ('0.681' is anything from 0.6805 to 0.6815).

**One reading** (``read_number``) serves validation, ``registry review``, ``registry import`` and
``registry new``: a decimal point or comma (a comma is a thousands separator only before groups of
three digits after a first digit that is not 0: '1,843' is 1843, '0,681' and '1,84' are decimal
commas), thousands separated by commas, spaces (thin, narrow no-break, no-break, plain) or
apostrophes, Unicode and ASCII minus and plus signs, '1.5e-3' / '1.5E-03' (and '-0.04 e-2', a mantissa and a
signed exponent set a space apart, as publishers' pipelines print them), powers of ten as PDF text gives them with
its superscripts flattened ('3.2 × 10^-4', '3.2×10−4', '3.2·10⁻⁴', '3.2 × 10 −4'), a bare power ('2^-6', '2⁻⁶';
'2−6', a power whose superscript the text set on the line, is refused with advice that keeps the exponent), and
after the number a unit's '%' or count suffix ('7B'), footnote marks ('0.681*', '0.681¹') and a sentence's final
punctuation ('0.592.'). What a cell or a sentence prints around one number (a range, a bound in words, an
annotation) is read by ``registry.printed_forms``. A result's ``printed_value`` holds the
number alone, as printed: what else a cell or a sentence prints with it is refused there with
advice that names the number and unit to write, which always stand for the same quantity.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, Inexact, InvalidOperation, localcontext

#: Characters a page prints for a minus sign.
MINUS_SIGNS = "\u2212\u2013\u2012\ufe63\uff0d"
#: Every sign a number may start with (a full-width plus too), as a regex class.
SIGN = "[-+\uff0b" + MINUS_SIGNS + "]"
#: Spaces a number's thousands are set apart with: plain, thin, narrow no-break, no-break.
SPACES = " \u2009\u202f\u00a0"
#: Superscript digits 0 to 9, as a power of ten or a footnote mark is printed.
SUPERSCRIPT = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
#: Superscript digits and signs read as plain ones.
FROM_SUPERSCRIPT = str.maketrans(SUPERSCRIPT + "\u207b\u207a", "0123456789-+")
#: The signs a product with a power of ten is printed with ('3.2 × 10^-4', '3.2·10−4', '3.2x10-4', '3.2*10^-4').
TIMES = "\u00d7xX\u00b7\u22c5\u2219*"
#: A number's figures as the table and text readers look for them, declared once: digits with thousands commas and
#: a fraction, or a fraction alone ('1,843', '0.681', '.5'). No sign, no exponent: each pattern built on it adds the
#: ones it allows. ``read_number`` reads what such a pattern finds.
FIGURES = r"(?:\d[\d,]*(?:\.\d+)?|\.\d+)"
#: Footnote marks: *, †, ‡, §, ¶, ‖ (superscript digits after a decimal number are marks too).
_MARKS = "*\u2020\u2021\u00a7\u00b6\u2016"
#: Punctuation that ends a sentence or a clause after a number ('an MCC of 0.592.').
_STOPS = ".,;:"

#: The number's own digits: thousands by comma, space or apostrophe, or dots before a decimal comma;
#: a decimal comma; plain digits. Tried in that order, so '1,843' is 1843 and '1,84' is 1.84.
_MANTISSA = (
    r"(?P<comma>[1-9][0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]+)?(?![0-9]))"
    rf"|(?P<spaced>[1-9][0-9]{{0,2}}(?:[{SPACES}][0-9]{{3}})+(?:[.,][0-9]+)?(?![0-9]))"
    r"|(?P<apostrophe>[1-9][0-9]{0,2}(?:['\u2019][0-9]{3})+(?:[.,][0-9]+)?(?![0-9]))"
    r"|(?P<dotted>[1-9][0-9]{0,2}(?:\.[0-9]{3}){2,}(?:,[0-9]+)?(?![0-9])|[1-9][0-9]{0,2}(?:\.[0-9]{3})+,[0-9]+)"
    r"|(?P<decimal_comma>[0-9]+,[0-9]+(?![0-9]))"
    r"|(?P<plain>[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"
)
#: The sign of an exponent flattened onto the line after a space ('3.2 × 10 −4'): a sign is needed there, since
#: '10 4' may be two numbers.
_SIGNED = f"[{SIGN[1:-1]}\u207b\u207a]"
_EXPONENT = rf"(?P<{{name}}sign>[{SIGN[1:-1]}\u207b\u207a])?\s*(?P<{{name}}digits>[0-9]+|[{SUPERSCRIPT}]+)"
#: A number as printed: sign, digits, and a power of ten or a bare power, if any.
NUMBER = re.compile(
    rf"(?P<sign>{SIGN})?\s?(?P<mantissa>{_MANTISSA})"
    r"(?:(?P<e>(?:[eE]|[ ][eE](?=[-+" + MINUS_SIGNS + r"]))(?P<esign>[-+" + MINUS_SIGNS + r"])?(?P<edigits>[0-9]+))"
    rf"|(?P<times>\s*[{TIMES}]\s*10"
    rf"(?:\s*\^\s*\{{?\s*{_EXPONENT.format(name='t')}\s*\}}?|(?P<flat>{_EXPONENT.format(name='f')})"
    rf"|(?P<low>[ ](?P<lsign>{_SIGNED})(?P<ldigits>[0-9]+|[{SUPERSCRIPT}]+)))?)"
    rf"|(?P<power>\s*\^\s*\{{?\s*{_EXPONENT.format(name='p')}\s*\}}?"
    rf"|(?P<super>[\u207b\u207a]?[{SUPERSCRIPT}]+)))?"
)
#: Plain digits with an ASCII sign and a decimal point: the common case, which the full pattern reads the same.
_SIMPLE = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)")
#: More than 999 powers of ten is no printed measurement; the bound keeps the arithmetic small.
_MAX_EXPONENT = 999


@dataclass(frozen=True)
class Reading:
    """A printed number read: its exact value, the number's own text, and what was printed with it.

    ``value`` is None where the text cannot be read as one number; ``advice`` then says why and what to write.
    """

    printed: str
    """The text as given."""
    value: Decimal | None
    """The exact value, in the unit the reading was asked for ('7B' in a count: 7000000000)."""
    number: str = ""
    """The number alone, as printed ('0.592' of '0.592.', '71.3' of '71.3%')."""
    suffix: str = ""
    """A unit's sign printed after the number ('%', 'B')."""
    mark: str = ""
    """A footnote mark printed after the number ('*', '¹')."""
    stop: str = ""
    """The sentence's punctuation after the number ('.')."""
    advice: str = ""
    """Why the text is not one number as printed, and what to write instead (empty where it is)."""

    @property
    def alone(self) -> bool:
        """Whether the text is a number and nothing else: what a result's printed value holds."""
        return self.value is not None and not (self.suffix or self.mark or self.stop)


def read_number(text: str, unit: str | None = None) -> Reading:
    """``text`` read as one printed number, in ``unit`` where given (which says what a '%' or a 'B' means).

    Never a guess: a form with two readings ('3.2 × 104', a superscript flattened or a product) or none is
    refused with advice that keeps the value the page prints.
    """
    stripped = text.strip()
    if _SIMPLE.fullmatch(stripped):  # most printed values: plain digits, read at once
        return Reading(text, Decimal(stripped), stripped)
    found = NUMBER.match(stripped)
    if found is None or not stripped:
        return Reading(text, None, advice=_unreadable(text, stripped))
    if found.group("super") and not found.group("mantissa").isdigit():  # '0.681¹': a footnote mark, not a power
        found = NUMBER.match(stripped, 0, found.start("super"))
        assert found is not None  # the same number without its superscript
    value, refusal = exact_value(found)
    number, rest = found.group(0), stripped[found.end():]
    if refusal:
        return Reading(text, None, number, advice=f"{text!r} {refusal}")
    stop = rest[-1] if rest and rest[-1] in _STOPS and (len(rest) == 1 or not rest[-2].isdigit()) else ""
    rest = rest[:len(rest) - len(stop)]
    mark = re.search(rf"\s*(?:[{_MARKS}]+|[{SUPERSCRIPT}]+)$", rest)
    if mark and (mark.group(0).strip()[0] in _MARKS or rest == mark.group(0)):
        rest, mark_text = rest[:mark.start()], mark.group(0).strip()
    else:
        mark_text = ""
    reading = Reading(text, value, number, mark=mark_text, stop=stop)
    if not rest:
        return reading
    return _with_suffix(reading, rest, unit)


def exact_value(found: re.Match[str]) -> tuple[Decimal | None, str]:
    """The exact value of a number ``NUMBER`` matched, or why it has none (a product, a flattened power)."""
    mantissa = _mantissa(found)
    negative = (found.group("sign") or "+") not in "+\uff0b"
    if found.group("e"):
        exponent = _signed(found.group("esign"), found.group("edigits"))
    elif found.group("times"):
        prefix = next((p for p in "tfl" if found.group(p + "digits") is not None), "")
        if not prefix:
            return None, ("is a product, not a power of ten: write the power with a caret ('3.2 × 10^-4') or the "
                          "product's value")
        if found.group("fdigits") and not found.group("fsign") and found.group("fdigits")[0] in "0123456789":
            return None, (f"may be a product or a power of ten whose superscript the text flattened "
                          f"('{found.group('mantissa')} × 10^{found.group('fdigits')}'): write the power with a caret, "
                          "or the product's value")
        exponent = _signed(found.group(prefix + "sign"), found.group(prefix + "digits"))
    elif found.group("power") or found.group("super"):
        if not found.group("plain") or not found.group("mantissa").isdigit():
            return None, "is a power of a number that is not whole; write its value"
        digits = (found.group("pdigits") if found.group("pdigits") is not None else
                  found.group("super").translate(FROM_SUPERSCRIPT).lstrip("+-"))
        sign = found.group("psign") or ("-" if found.group("super") and "\u207b" in found.group("super") else "")
        exponent = _signed(sign, digits)
        if abs(exponent) > _MAX_EXPONENT:
            return None, f"has an exponent beyond ±{_MAX_EXPONENT}; no measurement is printed so"
        with localcontext() as exact:
            exact.traps[Inexact] = True
            try:
                powered = Decimal(int(found.group("mantissa"))) ** exponent
            except (Inexact, InvalidOperation):
                return None, "is a power without an exact decimal value; write its value as printed elsewhere"
        return (-powered if negative else powered), ""
    else:
        exponent = 0
    if abs(exponent) > _MAX_EXPONENT:
        return None, f"has an exponent beyond ±{_MAX_EXPONENT}; no measurement is printed so"
    value = mantissa.scaleb(exponent)
    return (-value if negative else value), ""


def _mantissa(found: re.Match[str]) -> Decimal:
    text = found.group("mantissa")
    if found.group("comma"):
        return Decimal(text.replace(",", ""))
    if found.group("spaced") or found.group("apostrophe"):
        return Decimal(re.sub(rf"[{SPACES}'\u2019]", "", text).replace(",", "."))
    if found.group("dotted"):
        return Decimal(text.replace(".", "").replace(",", "."))
    return Decimal(text.replace(",", "."))


def _signed(sign: str | None, digits: str) -> int:
    magnitude = int(digits.translate(FROM_SUPERSCRIPT))
    return -magnitude if sign and sign not in "+\uff0b\u207a" else magnitude


def _with_suffix(reading: Reading, rest: str, unit: str | None) -> Reading:
    """A number followed by more than a mark: a unit's sign ('%', 'GB', a count's 'B') is read where the unit
    says what it means (its own sign, or another unit of its dimension: '7B' in a count is 7000000000); anything
    else is advice naming the number and the unit to write (never a different value)."""
    from registry.units import table

    units = table()
    suffix = rest.strip()
    text, number = reading.printed, reading.number
    power = flattened_power(text)
    if power is not None:
        return Reading(text, None, number, advice=(
            f"{text!r} is a power whose superscript the text set on the line ({power[0]}^{power[1]}), not a range "
            f"(a range is printed with a dash or 'to'): write printed_value '{power[0]}^{power[1]}', keeping the "
            "exponent"))
    ends = read_range(text, unit)
    if ends or rest.lstrip()[:1] in ("-", "\u2013", "\u2014", "\u2212") and re.match(r"\s*\S\s*[0-9]", rest):
        write = (f": write printed_value {ends[0]!r} (its lower end) and range_upper: {{printed_value: {ends[1]!r}}} "
                 "(its upper end)" if ends else "")
        return Reading(text, None, number, advice=(
            f"{text!r} is a range of two numbers, not one value{write}; do not file one of its ends alone as the "
            "value"))
    if suffix[:1] in TIMES and suffix[1:].strip()[:1].isdigit():
        return Reading(text, None, number, advice=(
            f"{text!r} is a product, not a power of ten: write the power with a caret ('3.2 × 10^-4') or the "
            "product's value"))
    if suffix.startswith(("\u00b1", "+/-", "+-")):
        return Reading(text, None, number,
                       advice=f"{text!r} holds an uncertainty: give the value alone here and the ± in 'uncertainty'")
    own = units.get(str(unit)) if unit is not None else None
    if own is not None and reading.value is not None:
        if suffix in units.printed_forms(own.token):
            return Reading(text, reading.value, number, suffix, reading.mark, reading.stop)
        meant = [units.spec(t) for t in units.unit_printed_as(suffix) if units.spec(t).dimension is own.dimension]
        if meant and meant[0].scale is not None and own.scale is not None:
            scaled = reading.value * meant[0].scale / own.scale
            return Reading(text, scaled, number, suffix, reading.mark, reading.stop)
    if unit is None and suffix == "%":
        return Reading(text, reading.value, number, suffix, reading.mark, reading.stop)
    return Reading(text, None, number, suffix, advice=_holds_more(text, number, suffix, unit))


def _holds_more(text: str, number: str, printed_unit: str, unit: str | None = None) -> str:
    """Advice to write the number and the unit it is printed with: the same quantity, whatever the result's unit
    (of several units a sign may stand for, those of the result's unit's dimension, if any)."""
    from registry.units import table

    units = table()
    shared = units.unit_printed_as(printed_unit)
    own = units.get(str(unit)) if unit is not None else None
    alike = [token for token in shared if own is not None and units.spec(token).dimension is own.dimension]
    shared = alike or shared
    meant = units.unit_named(printed_unit)
    named = (f"unit: {' or '.join(shared)} (the page's {printed_unit!r} may be either)" if len(shared) > 1
             else f"unit: {shared[0]}" if shared else f"unit: {meant}" if meant else "the unit in 'unit'")
    return (f"{text!r} holds more than the number: write printed_value {number!r} and {named}; the unit as the page "
            "prints it goes in unit_printed")


#: Letters set against a number with no space: a unit's or a multiplier's sign ('88s', '12ms', '3.2x', '10m', '5k').
_GLUED = re.compile(r"[A-Za-z\u00b5\u03bc]+")


def glued_unit(text: str) -> tuple[str, str] | None:
    """A number with letters set against it, as tables print a unit in the cell ('88s', '12ms', '3.2x', '10m'): the
    number as printed and the letters; None for a number alone, a name that starts with letters ('T11'), letters
    set apart by a space ('16 mins': a number and a word) or a product. The letters are a unit's sign whether or not
    the registry's table of units knows it ('m' may be minutes or metres): ``registry.units`` says which units they
    may stand for, and a check compares them with a record's unit there, never drops them."""
    stripped = text.strip()
    reading = read_number(stripped)
    if not reading.number or not reading.suffix or reading.mark or reading.stop:
        return None
    if not stripped.startswith(reading.number + reading.suffix) or not _GLUED.fullmatch(reading.suffix):
        return None
    return reading.number, reading.suffix


#: A whole number and a negative exponent set on the line by a minus sign (not a hyphen, nor a range's dash):
#: '2−6', '2⁻6', as an extractor gives 2⁻⁶ with its superscript flattened. A base of 2 to 99 and an exponent of one
#: or two digits: '1995−2000' is a span of years, '1−5' no power anyone prints.
_FLATTENED_POWER = re.compile(r"(?P<base>[2-9]|[1-9][0-9])[\u2212\u207b]"
                              r"(?P<exponent>[1-9][0-9]?|[" + SUPERSCRIPT + r"]{1,2})")


def flattened_power(text: str) -> tuple[str, str] | None:
    """A power with a negative exponent whose superscript the text set on the line ('2−6' for 2⁻⁶), as (its base,
    its exponent with the sign: '-6'); None for any other text. A minus sign (U+2212), not a hyphen or a dash,
    joins the two: TeX and word processors set a range of whole numbers with an en dash or 'to', and a superscript
    exponent's minus is a minus sign."""
    found = _FLATTENED_POWER.fullmatch(text.strip())
    if found is None:
        return None
    return found.group("base"), "-" + found.group("exponent").translate(FROM_SUPERSCRIPT)


#: How a bound's sign is printed, and the sign it is ('<=' and '⩽' are '≤').
BOUND_SIGNS = {"<": "<", ">": ">", "\u2264": "\u2264", "\u2265": "\u2265", "<=": "\u2264", ">=": "\u2265",
               "\u2a7d": "\u2264", "\u2a7e": "\u2265"}
_BOUND = re.compile(r"^(<=|>=|[<>\u2264\u2265\u2a7d\u2a7e])\s*(.+)$", re.DOTALL)


def read_bound(text: str) -> tuple[str, str] | None:
    """A printed bound as (its sign, the text after it): '< 0.001' -> ('<', '0.001'), '>= 99%' -> ('≥', '99%')."""
    found = _BOUND.match(text.strip())
    return (BOUND_SIGNS[found.group(1)], found.group(2)) if found else None


#: How a range is shown (``Result.as_printed``): its two ends joined by an en dash, however the source sets it.
RANGE_DASH = "\u2013"
#: What a source prints between a range's two ends: a hyphen, an en or em dash, or 'to'.
_RANGE_JOIN = re.compile(r"\s*(?:-|\u2013|\u2014|\bto\b)\s*")
#: An interval printed without its point value: two numbers in brackets, joined by a comma and a space (a comma
#: alone may be a thousands separator) or a semicolon: '[0.61, 0.67]', '(12; 15)'. Filed as a range.
_INTERVAL = re.compile(r"^[\[(]\s*(?P<lower>\S+?)\s*(?:,\s+|;\s*)(?P<upper>\S+?)\s*[\])]$")


def read_range(text: str, unit: str | None = None) -> tuple[str, str] | None:
    """A printed range as (its lower end, its upper end), each a number alone in ``unit``: '12\u201315 GB' ->
    ('12', '15'), '-5 to -3' -> ('-5', '-3'), an interval printed without a point value '[0.61, 0.67]' ->
    ('0.61', '0.67'); None where the text is no range of two numbers. A unit printed
    after the upper end ('GB') is the range's, shared by both ends, and read only where ``unit`` prints so."""
    stripped = text.strip()
    interval = _INTERVAL.match(stripped)
    if interval is not None:  # '[0.61, 0.67]': its ends, each a number alone
        lower, upper = interval.group("lower", "upper")
        return (lower, upper) if read_number(lower, unit).alone and read_number(upper, unit).alone else None
    for join in _RANGE_JOIN.finditer(stripped):
        lower, upper = stripped[:join.start()], stripped[join.end():]
        if not lower or not upper:
            continue
        low, high = read_number(lower, unit), read_number(upper, unit)
        if low.alone and high.value is not None and not high.mark and read_number(high.number, unit).alone:
            return lower, high.number
    return None


def _unreadable(text: str, stripped: str) -> str:
    ends = _INTERVAL.match(stripped) and read_range(stripped)
    if ends:
        return (f"{text!r} is an interval printed without a point value: file it as a range, printed_value "
                f"{ends[0]!r} (its lower end) and range_upper: {{printed_value: {ends[1]!r}}} (its upper end); do not "
                "file a midpoint the source does not print")
    bound = read_bound(stripped)
    if bound:
        sign, rest = bound
        number = read_number(rest)
        if number.alone:
            return (f"{text!r} is a bound, not a value: write bound: '{sign}' and printed_value {rest!r} (the sign "
                    "is the bound's, kept apart from the number)")
        return (f"{text!r} is a bound, not a value: write bound: '{sign}' and, as printed_value, the number after "
                f"the sign; {why_not_a_number(rest)}")
    approximate = re.match(r"^([~\u2248\u2272\u2273])\s*(.+)$", stripped)
    if approximate:
        return (f"{text!r} is an approximation ({approximate.group(1)!r} {approximate.group(2)}), not a value; do not "
                "file its number without the sign")
    if "\u00b1" in stripped or "+/-" in stripped:
        return f"{text!r} holds an uncertainty: give the value alone here and the ± in 'uncertainty'"
    return (f"{text!r} is not a number as printed; keep the source's digits (thousands separators, a decimal "
            "comma, minus signs and powers of ten such as '3.2 × 10^-4' are fine)")


def parse_printed(text: str, unit: str | None = None) -> Decimal | None:
    """A printed number as an exact Decimal ('1,843' -> 1843, '−0.021' -> -0.021, '3.2 × 10−4' -> 0.00032), or
    None if ``text`` is not a number alone (see ``read_number``; ``why_not_a_number`` says what to write).

    The Decimal keeps the printed precision (trailing zeros, exponent: '0.680', '2.5e-3'), which rounding reads.
    """
    reading = read_number(text, unit)
    return reading.value if reading.alone else None


def why_not_a_number(text: str, unit: str | None = None) -> str:
    """What to write instead, for a printed value that is not a number alone; the advice keeps the value."""
    reading = read_number(text, unit)
    if reading.advice:
        return reading.advice
    if reading.suffix:
        return _holds_more(text, reading.number, reading.suffix, unit)
    if reading.mark:
        return (f"{text!r} ends in a footnote mark ({reading.mark!r}): write printed_value {reading.number!r}; the "
                "mark belongs in the locator's quote, and what its footnote says in scope_note")
    if reading.stop:
        return (f"{text!r} ends in the sentence's {reading.stop!r}: write printed_value {reading.number!r}; the "
                "punctuation belongs to the quote")
    return f"{text!r} is a number as printed"


def normalize_printed(text: str) -> str:
    """A printed number as plain ASCII digits ('−1,843' -> '-1843', '3.2 × 10−4' -> '3.2E-4'); unchanged if it is
    not one."""
    value = parse_printed(text)
    return str(value) if value is not None else text.strip()
