"""Where a text prints a number: the pattern that finds a given printed number however a page sets it, and
every number a sentence prints.

Validation and ``registry review`` look for a record's printed value in a quote or a page's text, and the
text may set it otherwise than the record (a thin space for a thousands space, U+2212 read as '-', a power
of ten's superscripts flattened). The patterns are built from the grammar of ``registry.numbers``, so a
form that reading accepts is found in text too; they are apart from it because only these readers need them.
"""

from __future__ import annotations

import re

from registry.numbers import (
    BOUND_SIGNS,
    FROM_SUPERSCRIPT,
    MINUS_SIGNS,
    NUMBER,
    SPACES,
    SUPERSCRIPT,
    TIMES,
    exact_value,
    read_bound,
    read_range,
)
from registry.printed_forms import BOUND_WORDS


def _either(chars: str) -> str:
    """A regex for any one of ``chars``: an ASCII class and an alternation of the rest. A class holding characters
    beyond ASCII costs Python's re milliseconds and a large table to compile, which one pattern per value repeats."""
    ascii_part = "".join(re.escape(c) for c in chars if c.isascii())
    rest = [c for c in chars if not c.isascii()]
    return "(?:" + "|".join(([f"[{ascii_part}]"] if ascii_part else []) + rest) + ")"


#: What a page may print for a minus sign (its text may keep U+2212 or read it as '-').
_MINUS = _either("-" + MINUS_SIGNS + "\u207b")
_ANY_SIGN = _either("-+\uff0b" + MINUS_SIGNS)
_ANY_TIMES = _either(TIMES)
_ANY_SPACE = _either(SPACES)
#: After a number: no more of it (digits, a decimal part, an exponent, a power of ten the value would lack).
_TAIL = (rf"(?![0-9]|{_either(SUPERSCRIPT)}|[.,][0-9]|[eE]{_MINUS}?[0-9]| [eE]{_MINUS}[0-9]|\s*\^|"
         rf"\s*{_ANY_TIMES}\s*10(?:\s*\^|"
         rf"{_either(SUPERSCRIPT + chr(0x207b))}|\s*{_MINUS}\s*[0-9]))")
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
        # ... or in words ('under 12 GB', 'at least 3'), as a sentence prints it
        words = "|".join(re.escape(w) for w, meant in sorted(BOUND_WORDS.items(), key=lambda i: -len(i[0]))
                         if meant == sign)
        return re.compile(rf"(?:(?:{signs})\s*|(?<![^\W\d_])(?i:{words})\s+)"
                          + printed_pattern(rest, signed=signed).pattern)
    found = NUMBER.match(text)
    if found is None or found.end() != len(text) or exact_value(found)[1]:
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
        out.append(f"{_ANY_SPACE}?" if char in SPACES else "(?:'|\u2019)" if char in "'\u2019" else re.escape(char))
    return "".join(out)


def _power_pattern(found: re.Match[str]) -> str:
    """A power of ten or a bare power as the text may set it: caret or superscripts or flattened."""
    if found.group("e"):
        return (("[eE]" if found.group("e")[0] in "eE" else " [eE]")
                + _exponent_pattern(found.group("esign"), found.group("edigits")))
    if found.group("times"):
        prefix = next(p for p in "tfl" if found.group(p + "digits") is not None)
        return (rf"\s*{_ANY_TIMES}\s*10\s*(?:\^\s*\{{?\s*)?"
                + _exponent_pattern(found.group(prefix + "sign"), found.group(prefix + "digits")) + r"\}?")
    if found.group("power") or found.group("super"):
        digits = found.group("pdigits") if found.group("pdigits") is not None else found.group("super")
        sign = found.group("psign") or ("-" if "\u207b" in digits else "")
        negative = sign == "-"
        exponent = _exponent_pattern(sign, digits.lstrip("\u207b\u207a"))
        lifted = ("\u207b" if negative else "\u207a?") + "".join(
            SUPERSCRIPT[int(d)] for d in digits.translate(FROM_SUPERSCRIPT).lstrip("+-"))
        # A caret, superscripts, or a flattened negative exponent ('2−6'); flattened positive digits ('210') are
        # the number 210 as much as 2^10, so they are not read as the power.
        flattened = "|" + exponent if negative else ""
        return rf"(?:\s*\^\s*\{{?\s*{exponent}\}}?|{lifted}{flattened})"
    return ""


def _exponent_pattern(sign: str | None, digits: str) -> str:
    plain = digits.translate(FROM_SUPERSCRIPT)
    sign_part = rf"{_MINUS}\s*" if sign and sign not in "+\uff0b\u207a" else r"(?:\+|\u207a)?"
    return sign_part + "".join(f"(?:{d}|{SUPERSCRIPT[int(d)]})" for d in plain)


#: A printed number without its sign. The lookahead starts a match only where a digit comes (every part
#: is optional, so without it the pattern would match the empty text at every character of a sentence).
#: Thousands are grouped by commas or by the thin and narrow no-break spaces typesetting uses for them (a
#: plain space between digits is more often two numbers); a power of ten belongs to its number. Digits
#: joined to a word ('T5', 'e5') are part of a name, not a number.
_UNSIGNED = re.compile(r"(?<![\d.])(?<![^\W\d_])(?=\.?\d)(?:\d{1,3}(?:,\d{3})+(?![\d,])|[1-9]\d{0,2}"
                       r"(?:[\u2009\u202f]\d{3})+(?!\d)|\d+)?(?:\.\d+)?"
                       rf"(?:[eE]{_MINUS}?\+?\d+|\s*[{TIMES}]\s*10(?:\s*\^\s*\{{?{_MINUS}?\+?\d+\}}?|"
                       rf"[\u207b\u207a]?[{SUPERSCRIPT}]+|{_MINUS}\d+))?(?!\d|\.\d)")


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
