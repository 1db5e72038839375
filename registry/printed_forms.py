"""What a table cell or a phrase prints as one result: a value, a range, a bound (by its sign or in words), an
approximation, and a signed annotation set after the value.

``registry.numbers`` reads one printed number; this module reads the forms a page prints around it, as a reader of
the page does, so that a record is compared with the form the page prints, not with its first number alone:

- **range**: two ascending numbers joined by an en or em dash, a hyphen, a minus sign (as math sets a range) or
  'to' ('0.61–0.67', '12–15 GB', '12 to 15'), or an interval printed without a point value ('[0.61, 0.67]'; in
  parentheses, '(0.046, 0.059)' may also be a pair of figures, as under '(t-value, p-value)'). A record files its
  lower end as the value and its upper end as ``range_upper``;
- **bound**: a sign ('<', '≤', '>', '≥', '<=', '>=') or words before the number ('less than', 'under', 'below',
  'at most', 'over', 'more than', 'above', 'at least', 'almost', 'nearly'); a record files it with ``bound``;
- **approximation**: '~', '≈', 'about', 'around', 'approximately', 'roughly' before the number: the number is the
  value the page prints, approximately (no bound);
- **annotation**: a signed figure set after the value that is no range's end ('73.1+10.8%', a relative change
  raised after the value; '73.1−42.3%': a minus sign and a figure lower than the value, as no range is printed);
- **power** set on the line: a whole number and a minus sign before its exponent ('2−6', 2⁻⁶ flattened) is a power,
  not a range (``registry.numbers.flattened_power``); a power of ten however an extractor breaks it ('3.2×10−⁴',
  '3.2 × 10 −4', '-0.04 e-2') is one number (``registry.numbers.read_number``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from registry.numbers import (
    MINUS_SIGNS,
    NUMBER,
    RANGE_DASH,
    SUPERSCRIPT,
    exact_value,
    flattened_power,
    read_bound,
    read_number,
)

#: Words a page prints before a number for a bound, and the bound's sign (longest first when read).
BOUND_WORDS: dict[str, str] = {
    "less than": "<", "fewer than": "<", "lower than": "<", "smaller than": "<", "under": "<", "below": "<",
    "almost": "<", "nearly": "<", "just under": "<",
    "at most": "\u2264", "no more than": "\u2264", "not more than": "\u2264", "up to": "\u2264",
    "more than": ">", "greater than": ">", "higher than": ">", "larger than": ">", "over": ">", "above": ">",
    "just over": ">",
    "at least": "\u2265", "no less than": "\u2265", "not less than": "\u2265", "no fewer than": "\u2265",
}
#: Words and signs a page prints before a number it gives approximately (no bound).
APPROXIMATE_WORDS = ("approximately", "roughly", "around", "about", "circa", "~", "\u2248", "\u223c")
_WORDS = "|".join(re.escape(w) for w in sorted(BOUND_WORDS, key=len, reverse=True))
_BOUND_WORDS = re.compile(rf"^(?P<words>{_WORDS})\s+(?=[-+.0-9{MINUS_SIGNS}])", re.IGNORECASE)
_APPROXIMATE = re.compile(
    r"^(?P<words>" + "|".join(re.escape(w) for w in APPROXIMATE_WORDS) + r")(?:\s+|(?=[-+.0-9" + MINUS_SIGNS + "]))",
    re.IGNORECASE)
#: What joins a range's two ends: a dash of any kind, a minus sign or 'to' (a plus sign joins no range).
_JOIN = re.compile(rf"\s*(?P<join>to\b|[-\u2013\u2014{MINUS_SIGNS}])\s*|\s*(?P<plus>\+)\s*")
#: An interval without a point value: two numbers in brackets joined by a comma and a space, or a semicolon.
_INTERVAL = re.compile(r"^[\[(]\s*(?P<lower>[^,;\s]+)\s*(?:,\s+|;\s*)(?P<upper>[^\])\s]+)\s*[\])](?P<rest>.*)$")
#: After an annotation's figure: its unit's sign ('%', 'pp', '×'), if any.
_ANNOTATION_UNIT = re.compile(r"\s?(?:%|pp|p\.p\.|\u00d7|x)(?![A-Za-z])")


@dataclass(frozen=True)
class Printed:
    """A cell's or a phrase's printed form: its number (a range's lower end, a bound's number) and what is printed
    with it."""

    text: str
    number: str
    """The value's number as printed ('0.61' of '0.61–0.67', '12' of 'under 12 GB', '2^-6' of '2−6')."""
    value: Decimal | None
    """Its exact value (None for a form with two readings, such as '3.2 × 104')."""
    upper: str = ""
    """A range's upper end as printed ('0.67'); empty for no range."""
    bound: str = ""
    """The bound's sign ('<', '≤', '>', '≥'), printed as a sign or in words; empty for no bound."""
    bound_printed: str = ""
    """The bound as printed ('under', '<=')."""
    approximate: str = ""
    """The word or sign that prints the number as approximate ('about', '~')."""
    annotation: str = ""
    """A signed figure printed after the value, no range's end ('+10.8%', '−42.3%')."""
    rest: str = ""
    """What is printed after the form (a unit, a mark)."""
    paired: bool = False
    """A range printed as two ascending numbers in parentheses ('(0.046, 0.059)'): an interval, or a pair of figures
    under a header that names two ('(t-value, p-value)'); square brackets print an interval alone."""

    @property
    def shown(self) -> str:
        """The form as a message names it: '0.61–0.67', '< 12', 'under 12', 'about 12' (an annotation apart)."""
        if self.upper:
            return f"{self.number}{RANGE_DASH}{self.upper}"
        if self.bound:
            return f"{self.bound_printed} {self.number}"
        if self.approximate:
            return f"{self.approximate} {self.number}"
        return self.number


def read_printed(text: str) -> Printed | None:
    """The form ``text`` prints from its start (see the module); None where it starts with no number (after a bound
    or an approximation)."""
    stripped = text.strip()
    bound, bound_printed, approximate = "", "", ""
    signed = read_bound(stripped)
    words = _BOUND_WORDS.match(stripped)
    approx = _APPROXIMATE.match(stripped)
    if signed is not None:
        bound, bound_printed, stripped = signed[0], stripped[: len(stripped) - len(signed[1])].strip(), signed[1]
    elif words is not None:
        bound_printed = words.group("words")
        bound, stripped = BOUND_WORDS[bound_printed.lower()], stripped[words.end():]
    elif approx is not None:
        approximate, stripped = approx.group("words"), stripped[approx.end():]
    interval = _INTERVAL.match(stripped)
    if interval is not None and not (bound or approximate):
        lower, upper = _whole_number(interval.group("lower")), _whole_number(interval.group("upper"))
        if (lower is not None and upper is not None and lower[1] is not None and upper[1] is not None
                and lower[1] < upper[1]):  # an interval ascends; '(14.1, .000)' is a pair of figures
            return Printed(text, lower[0], lower[1], upper=upper[0], rest=interval.group("rest").strip(),
                           paired=stripped[0] == "(")
    found = _number_at(stripped)
    if found is None:
        return None
    number, value, rest = found
    exponent = _exponent_after(rest)
    power = flattened_power(number + exponent) if exponent else None
    if power is not None and not (bound or approximate):
        exponent_length = len(exponent)
        powered = f"{power[0]}^{power[1]}"
        return Printed(text, powered, read_number(powered).value, rest=rest[exponent_length:].strip())
    upper, annotation, rest = _after(number, value, rest, ranged=not (bound or approximate))
    return Printed(text, number, value, upper, bound, bound_printed, approximate, annotation, rest.strip())


def _number_at(text: str) -> tuple[str, Decimal | None, str] | None:
    """The number ``text`` starts with (as printed), its value, and the text after it."""
    found = NUMBER.match(text)
    if found is None or not found.group("mantissa"):
        return None
    if found.group("super") and not found.group("mantissa").isdigit():  # '0.681¹': a mark, not a power
        found = NUMBER.match(text, 0, found.start("super"))
        assert found is not None
    value, _ = exact_value(found)
    return found.group(0), value, text[found.end():]


def _whole_number(text: str) -> tuple[str, Decimal | None] | None:
    found = _number_at(text)
    return (found[0], found[1]) if found is not None and not found[2] else None


def _exponent_after(rest: str) -> str:
    """The minus sign and digits that follow a number directly ('−6' of '2−6 GB'), where a power may be set."""
    found = re.match(rf"[\u2212\u207b](?:[0-9]+|[{SUPERSCRIPT}]+)(?![0-9.,%])", rest)
    return found.group(0) if found else ""


def _after(number: str, value: Decimal | None, rest: str, *, ranged: bool) -> tuple[str, str, str]:
    """A range's upper end or an annotation printed after the value, and what remains: ('0.67', '', ' GB'), ('',
    '+10.8%', '')."""
    join = _JOIN.match(rest)
    if join is None:
        return "", "", rest
    found = _number_at(rest[join.end():])
    if found is None:
        return "", "", rest
    second, second_value, after = found
    sign = join.group("plus") or join.group("join")
    if second[:1] in "+-" + MINUS_SIGNS and sign != "to":  # '12 - -3': a signed end is joined by 'to' alone
        return "", "", rest
    glued_sign = join.group("join") is not None and not rest[join.start():join.start("join")] and not rest[
        join.end("join"):join.end()]
    mark = _ANNOTATION_UNIT.match(after)
    ascending = value is not None and second_value is not None and second_value > value
    # A plus sign, or a minus sign (or hyphen set close) before a figure lower than the value: no range's end.
    is_annotation = join.group("plus") is not None or (sign in "-" + MINUS_SIGNS and not ascending and
                                                       (glued_sign or sign != "-"))
    if is_annotation:
        tail = mark.group(0) if mark else ""
        return "", f"{sign}{second}{tail}", after[len(tail):]
    if not ranged:
        return "", "", rest
    if not ascending:  # a range is printed lower end first; 'from 33.88 to 11.49' is a change
        return "", "", rest
    return second, "", after


_SIGNS_BEFORE = re.compile(r"(?P<sign><=|>=|[<>\u2264\u2265\u2a7d\u2a7e])\s*$")
_WORDS_BEFORE = re.compile(rf"(?<![^\W\d_])(?P<words>{_WORDS})\s+$", re.IGNORECASE)
_APPROXIMATE_BEFORE = re.compile(
    r"(?:(?<![^\W\d_])(?P<words>" + "|".join(re.escape(w) for w in APPROXIMATE_WORDS if w.isalpha()) + r")\s+"
    r"|(?P<sign>[~\u2248\u223c])\s*)$", re.IGNORECASE)


def printed_before(text: str) -> tuple[str, str, str]:
    """The bound or approximation a sentence prints right before a number, ``text`` being the sentence up to it:
    (the bound's sign, the bound or approximation as printed, 'approximate' or ''): ('<', 'under', '') of 'fits in
    under ', ('', 'about', 'approximate') of 'takes about ', ('', '', '') where neither is printed."""
    signed = _SIGNS_BEFORE.search(text)
    if signed is not None:
        from registry.numbers import BOUND_SIGNS

        return BOUND_SIGNS[signed.group("sign")], signed.group("sign"), ""
    words = _WORDS_BEFORE.search(text)
    if words is not None:
        return BOUND_WORDS[words.group("words").lower()], words.group("words"), ""
    approximate = _APPROXIMATE_BEFORE.search(text)
    if approximate is not None:
        return "", approximate.group("words") or approximate.group("sign"), "approximate"
    return "", "", ""


def range_after(number: str, text: str) -> str:
    """The upper end of a range a sentence prints after ``number`` (``text`` being what follows it): '15' of
    '–15 GB'; '' where it prints none. Joined by a dash or a minus sign, the ends ascending ('from 33.88 to 11.49'
    is a change, and 'from 10 to 20' may be one, so 'to' is not read here)."""
    found = _number_at(number)
    if found is None or not re.match(rf"\s*[-\u2013\u2014{MINUS_SIGNS}]", text):
        return ""
    upper, annotation, _ = _after(found[0], found[1], text, ranged=True)
    return upper if not annotation else ""
