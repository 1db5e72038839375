"""Printed numbers: reading them exactly, and the interval their rounding allows.

A paper prints digits, not values: '0.681' stands for anything from 0.6805 to 0.6815. These
functions read printed numbers the way a careful reader does and do interval arithmetic over
their rounding, so that a derived number (a difference, a ratio, a relative change, a
speed-up) can be recomputed from its inputs and compared with its own printed digits, as
statcheck does for p-values (``registry.derived`` does that arithmetic).

**One reading** (``read_number``) serves validation, ``registry review``, ``registry import`` and
``registry new``: a decimal point or comma (a comma is a thousands separator only before groups of
three digits after a first digit that is not 0: '1,843' is 1843, '0,681' and '1,84' are decimal
commas), thousands separated by commas, spaces (thin, narrow no-break, no-break, plain) or
apostrophes, Unicode and ASCII minus and plus signs, '1.5e-3' / '1.5E-03', powers of ten as PDF text
gives them with its superscripts flattened ('3.2 × 10^-4', '3.2×10−4', '3.2·10⁻⁴'), a bare power
('2^-6', '2⁻⁶'), and after the number a unit's '%' or count suffix ('7B'), footnote marks ('0.681*',
'0.681¹') and a sentence's final punctuation ('0.592.'). A result's ``printed_value`` holds the
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
_SPACES = " \u2009\u202f\u00a0"
_SUPERSCRIPT = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
_FROM_SUPERSCRIPT = str.maketrans(_SUPERSCRIPT + "\u207b\u207a", "0123456789-+")
#: The signs a product with a power of ten is printed with ('3.2 × 10^-4', '3.2·10−4', '3.2x10-4', '3.2*10^-4').
_TIMES = "\u00d7xX\u00b7\u22c5\u2219*"
#: Footnote marks: *, †, ‡, §, ¶, ‖ (superscript digits after a decimal number are marks too).
_MARKS = "*\u2020\u2021\u00a7\u00b6\u2016"
#: Punctuation that ends a sentence or a clause after a number ('an MCC of 0.592.').
_STOPS = ".,;:"

#: The number's own digits: thousands by comma, space or apostrophe, or dots before a decimal comma;
#: a decimal comma; plain digits. Tried in that order, so '1,843' is 1843 and '1,84' is 1.84.
_MANTISSA = (
    r"(?P<comma>[1-9][0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]+)?(?![0-9]))"
    rf"|(?P<spaced>[1-9][0-9]{{0,2}}(?:[{_SPACES}][0-9]{{3}})+(?:[.,][0-9]+)?(?![0-9]))"
    r"|(?P<apostrophe>[1-9][0-9]{0,2}(?:['\u2019][0-9]{3})+(?:[.,][0-9]+)?(?![0-9]))"
    r"|(?P<dotted>[1-9][0-9]{0,2}(?:\.[0-9]{3}){2,}(?:,[0-9]+)?(?![0-9])|[1-9][0-9]{0,2}(?:\.[0-9]{3})+,[0-9]+)"
    r"|(?P<decimal_comma>[0-9]+,[0-9]+(?![0-9]))"
    r"|(?P<plain>[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"
)
_EXPONENT = rf"(?P<{{name}}sign>[{SIGN[1:-1]}\u207b\u207a])?\s*(?P<{{name}}digits>[0-9]+|[{_SUPERSCRIPT}]+)"
#: A number as printed: sign, digits, and a power of ten or a bare power, if any.
_NUMBER = re.compile(
    rf"(?P<sign>{SIGN})?\s?(?P<mantissa>{_MANTISSA})"
    r"(?:(?P<e>[eE](?P<esign>[-+" + MINUS_SIGNS + r"])?(?P<edigits>[0-9]+))"
    rf"|(?P<times>\s*[{_TIMES}]\s*10"
    rf"(?:\s*\^\s*\{{?\s*{_EXPONENT.format(name='t')}\s*\}}?|(?P<flat>{_EXPONENT.format(name='f')}))?)"
    rf"|(?P<power>\s*\^\s*\{{?\s*{_EXPONENT.format(name='p')}\s*\}}?"
    rf"|(?P<super>[\u207b\u207a]?[{_SUPERSCRIPT}]+)))?"
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
    found = _NUMBER.match(stripped)
    if found is None or not stripped:
        return Reading(text, None, advice=_unreadable(text, stripped))
    if found.group("super") and not found.group("mantissa").isdigit():  # '0.681¹': a footnote mark, not a power
        found = _NUMBER.match(stripped, 0, found.start("super"))
        assert found is not None  # the same number without its superscript
    value, refusal = _value(found)
    number, rest = found.group(0), stripped[found.end():]
    if refusal:
        return Reading(text, None, number, advice=f"{text!r} {refusal}")
    stop = rest[-1] if rest and rest[-1] in _STOPS and (len(rest) == 1 or not rest[-2].isdigit()) else ""
    rest = rest[:len(rest) - len(stop)]
    mark = re.search(rf"\s*(?:[{_MARKS}]+|[{_SUPERSCRIPT}]+)$", rest)
    if mark and (mark.group(0).strip()[0] in _MARKS or rest == mark.group(0)):
        rest, mark_text = rest[:mark.start()], mark.group(0).strip()
    else:
        mark_text = ""
    reading = Reading(text, value, number, mark=mark_text, stop=stop)
    if not rest:
        return reading
    return _with_suffix(reading, rest, unit)


def _value(found: re.Match[str]) -> tuple[Decimal | None, str]:
    """The exact value of a matched number, or why it has none."""
    mantissa = _mantissa(found)
    negative = (found.group("sign") or "+") not in "+\uff0b"
    if found.group("e"):
        exponent = _signed(found.group("esign"), found.group("edigits"))
    elif found.group("times"):
        if found.group("tdigits") is None and found.group("fdigits") is None:
            return None, ("is a product, not a power of ten: write the power with a caret ('3.2 × 10^-4') or the "
                          "product's value")
        if found.group("fdigits") and not found.group("fsign") and found.group("fdigits")[0] in "0123456789":
            return None, (f"may be a product or a power of ten whose superscript the text flattened "
                          f"('{found.group('mantissa')} × 10^{found.group('fdigits')}'): write the power with a caret, "
                          "or the product's value")
        prefix = "t" if found.group("tdigits") is not None else "f"
        exponent = _signed(found.group(prefix + "sign"), found.group(prefix + "digits"))
    elif found.group("power") or found.group("super"):
        if not found.group("plain") or not found.group("mantissa").isdigit():
            return None, "is a power of a number that is not whole; write its value"
        digits = (found.group("pdigits") if found.group("pdigits") is not None else
                  found.group("super").translate(_FROM_SUPERSCRIPT).lstrip("+-"))
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
        return Decimal(re.sub(rf"[{_SPACES}'\u2019]", "", text).replace(",", "."))
    if found.group("dotted"):
        return Decimal(text.replace(".", "").replace(",", "."))
    return Decimal(text.replace(",", "."))


def _signed(sign: str | None, digits: str) -> int:
    magnitude = int(digits.translate(_FROM_SUPERSCRIPT))
    return -magnitude if sign and sign not in "+\uff0b\u207a" else magnitude


def _with_suffix(reading: Reading, rest: str, unit: str | None) -> Reading:
    """A number followed by more than a mark: a unit's sign ('%', 'GB', a count's 'B') is read where the unit
    says what it means (its own sign, or another unit of its dimension: '7B' in a count is 7000000000); anything
    else is advice naming the number and the unit to write (never a different value)."""
    from registry.units import table

    units = table()
    suffix = rest.strip()
    text, number = reading.printed, reading.number
    ends = read_range(text, unit)
    if ends or rest.lstrip()[:1] in ("-", "\u2013", "\u2014", "\u2212") and re.match(r"\s*\S\s*[0-9]", rest):
        write = (f": write printed_value {ends[0]!r} (its lower end) and range_upper: {{printed_value: {ends[1]!r}}} "
                 "(its upper end)" if ends else "")
        return Reading(text, None, number, advice=(
            f"{text!r} is a range of two numbers, not one value{write}; do not file one of its ends alone as the "
            "value"))
    if suffix[:1] in _TIMES and suffix[1:].strip()[:1].isdigit():
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


def _either(chars: str) -> str:
    """A regex for any one of ``chars``: an ASCII class and an alternation of the rest. A class holding characters
    beyond ASCII costs Python's re milliseconds and a large table to compile, which one pattern per value repeats."""
    ascii_part = "".join(re.escape(c) for c in chars if c.isascii())
    rest = [c for c in chars if not c.isascii()]
    return "(?:" + "|".join(([f"[{ascii_part}]"] if ascii_part else []) + rest) + ")"


#: What a page may print for a minus sign (its text may keep U+2212 or read it as '-').
_MINUS = _either("-" + MINUS_SIGNS + "\u207b")
_ANY_SIGN = _either("-+\uff0b" + MINUS_SIGNS)
_ANY_TIMES = _either(_TIMES)
_ANY_SPACE = _either(_SPACES)
#: After a number: no more of it (digits, a decimal part, an exponent, a power of ten the value would lack).
_TAIL = (rf"(?![0-9]|{_either(_SUPERSCRIPT)}|[.,][0-9]|[eE]{_MINUS}?[0-9]|\s*\^|\s*{_ANY_TIMES}\s*10(?:\s*\^|"
         rf"{_either(_SUPERSCRIPT + chr(0x207b))}|\s*{_MINUS}\s*[0-9]))")
#: Before an unsigned number: not the end of another, nor a power of ten's '10' or exponent.
_NOT_AFTER = rf"(?<![0-9.,])(?<!{_ANY_TIMES})(?<!{_ANY_TIMES} )(?<![0-9]\^)"


def printed_pattern(printed: str, *, signed: bool = True) -> re.Pattern[str]:
    """Where a text prints the number ``printed`` as a token, however the text sets it: a thin space or none
    for a thousands space, any minus sign, a power of ten's superscripts flattened ('10^-4', '10−4', '10⁻⁴').

    Not part of a longer number ('33.88' is not in '133.88' or '33.881'), not missing its power of ten ('3.2'
    is not in '3.2 × 10−4'), and (``signed``) not the same digits with the other sign ('33.88' is not in
    '-33.88'), so that a transcription that drops a minus sign or an exponent fails. A minus is a sign only
    where it is attached to the number and does not follow a letter or a digit: the '-' of 'Stage-2', of a
    range '10-20' or of a hyphenated line end is not a sign. Text that is no number is matched as written.
    """
    text = printed.strip()
    bound = read_bound(text)
    if bound is not None:  # a bound's number with its sign before it, however the sign is printed
        sign, rest = bound
        signs = "|".join(re.escape(s) for s, meant in sorted(BOUND_SIGNS.items(), key=lambda i: -len(i[0]))
                         if meant == sign)
        return re.compile(rf"(?:{signs})\s*" + printed_pattern(rest, signed=signed).pattern)
    found = _NUMBER.match(text)
    if found is None or found.end() != len(text) or _value(found)[1]:
        ends = read_range(text)
        if ends is not None:  # a range's two ends, joined however the page sets it ('12–15', '12 - 15', '12 to 15')
            lower, upper = ends
            # An unsigned upper end follows the join directly, which a sign's look-behind would read as its minus.
            after = (printed_pattern(upper, signed=signed).pattern if _ANY_SIGN_START.match(upper)
                     else f"(?!{_ANY_SIGN})" + printed_pattern(upper, signed=False).pattern)
            low = printed_pattern(lower, signed=signed).pattern
            # ... or as an interval without a point value ('[0.61, 0.67]'): the same two ends, in brackets.
            bracketed = rf"[\[(]\s*{low}\s*(?:,\s*|;\s*){printed_pattern(upper, signed=signed).pattern}\s*[\])]"
            return re.compile(rf"(?:{low}{_RANGE_ON_PAGE}{after}|{bracketed})")
        return re.compile(r"(?<![0-9])" + re.escape(text) + r"(?![0-9]|[.,][0-9])")
    body = _mantissa_pattern(found.group("mantissa")) + _power_pattern(found)
    sign = found.group("sign") or ""
    if not signed:
        return re.compile(_NOT_AFTER + rf"(?:{_ANY_SIGN}\s?)?" + body + _TAIL)
    if sign and sign not in "+\uff0b":
        return re.compile(r"(?<![^\W_])(?<![.,])" + _MINUS + r"\s?" + body + _TAIL)
    plus = r"(?:\+|\uff0b)\s?" if sign else ""
    return re.compile(rf"{_NOT_AFTER}(?<![\W_]{_MINUS})(?<!^{_MINUS})" + plus + body + _TAIL)


#: What a page prints between a range's ends: a dash of any kind (its text may read an en dash as a minus) or 'to'.
_RANGE_ON_PAGE = rf"\s*(?:{_MINUS}|\u2014|to)\s*"
_ANY_SIGN_START = re.compile(_ANY_SIGN)


def _mantissa_pattern(mantissa: str) -> str:
    """The digits as printed; a thousands space may be any space or none, an apostrophe either kind."""
    out = []
    for char in mantissa:
        out.append(f"{_ANY_SPACE}?" if char in _SPACES else "(?:'|\u2019)" if char in "'\u2019" else re.escape(char))
    return "".join(out)


def _power_pattern(found: re.Match[str]) -> str:
    """A power of ten or a bare power as the text may set it: caret or superscripts or flattened."""
    if found.group("e"):
        return "[eE]" + _exponent_pattern(found.group("esign"), found.group("edigits"))
    if found.group("times"):
        prefix = "t" if found.group("tdigits") is not None else "f"
        return (rf"\s*{_ANY_TIMES}\s*10\s*(?:\^\s*\{{?\s*)?"
                + _exponent_pattern(found.group(prefix + "sign"), found.group(prefix + "digits")) + r"\}?")
    if found.group("power") or found.group("super"):
        digits = found.group("pdigits") if found.group("pdigits") is not None else found.group("super")
        sign = found.group("psign") or ("-" if "\u207b" in digits else "")
        negative = sign == "-"
        exponent = _exponent_pattern(sign, digits.lstrip("\u207b\u207a"))
        lifted = ("\u207b" if negative else "\u207a?") + "".join(
            _SUPERSCRIPT[int(d)] for d in digits.translate(_FROM_SUPERSCRIPT).lstrip("+-"))
        # A caret, superscripts, or a flattened negative exponent ('2−6'); flattened positive digits ('210') are
        # the number 210 as much as 2^10, so they are not read as the power.
        flattened = "|" + exponent if negative else ""
        return rf"(?:\s*\^\s*\{{?\s*{exponent}\}}?|{lifted}{flattened})"
    return ""


def _exponent_pattern(sign: str | None, digits: str) -> str:
    plain = digits.translate(_FROM_SUPERSCRIPT)
    sign_part = rf"{_MINUS}\s*" if sign and sign not in "+\uff0b\u207a" else r"(?:\+|\u207a)?"
    return sign_part + "".join(f"(?:{d}|{_SUPERSCRIPT[int(d)]})" for d in plain)


def normalize_printed(text: str) -> str:
    """A printed number as plain ASCII digits ('−1,843' -> '-1843', '3.2 × 10−4' -> '3.2E-4'); unchanged if it is
    not one."""
    value = parse_printed(text)
    return str(value) if value is not None else text.strip()


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


#: A printed number without its sign. The lookahead starts a match only where a digit comes (every part
#: is optional, so without it the pattern would match the empty text at every character of a sentence).
#: Thousands are grouped by commas or by the thin and narrow no-break spaces typesetting uses for them (a
#: plain space between digits is more often two numbers); a power of ten belongs to its number. Digits
#: joined to a word ('T5', 'e5') are part of a name, not a number.
_UNSIGNED = re.compile(r"(?<![\d.])(?<![^\W\d_])(?=\.?\d)(?:\d{1,3}(?:,\d{3})+(?![\d,])|[1-9]\d{0,2}"
                       r"(?:[\u2009\u202f]\d{3})+(?!\d)|\d+)?(?:\.\d+)?"
                       rf"(?:[eE]{_MINUS}?\+?\d+|\s*[{_TIMES}]\s*10(?:\s*\^\s*\{{?{_MINUS}?\+?\d+\}}?|"
                       rf"[\u207b\u207a]?[{_SUPERSCRIPT}]+|{_MINUS}\d+))?(?!\d|\.\d)")


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
