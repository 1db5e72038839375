"""Stored text made safe to print: control characters shown as escapes, long values cut to an excerpt.

A record file or a database can hold any character, terminal escape sequences included
(``"\\x1b[2J"`` clears the screen, ``"\\x1b]52;..."`` writes the clipboard of some terminals), and
characters that reorder what is shown (the bidirectional overrides of "Trojan source"). Printed raw,
they act on the terminal instead of being read. So every path that prints stored text to a terminal
passes it through ``escaped`` (the CLI's console does it for everything it prints, see
``registry.cli.output``), JSON output through ``json_text``, and messages quote a value only as an
``excerpt``: short, escaped, and safe to compute for any value (Python refuses to print an integer of
more than 4,300 digits).
"""

from __future__ import annotations

import math
import re
from typing import Any

#: Characters never printed as they are: C0 controls but tab and line feed, DEL, C1 controls (0x9b is
#: a terminal's one-byte escape), the bidirectional marks, embeddings, overrides and isolates, lone
#: surrogates (which cannot even be encoded as UTF-8), and the invisible marks that make two different
#: texts look the same: the soft hyphen, the combining grapheme joiner, the zero-width space, joiners and
#: non-joiner, the word joiner and invisible operators, the Mongolian vowel separator, the byte order
#: mark, the line and paragraph separators and the tag characters (U+E0000 to U+E007F).
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u034f\u061c\u180e\u200b-\u200f\u2028-\u202e"
                    "\u2060-\u2064\u2066-\u2069\ufeff\ud800-\udfff\U000e0000-\U000e007f]")
#: How much of a value a message quotes: a whole id (ids are at most 200 characters), but no more.
EXCERPT_CHARS = 200


def is_safe(text: str) -> bool:
    """Whether ``text`` prints as it reads (no character of ``UNSAFE``)."""
    return UNSAFE.search(text) is None


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def named(character: str) -> str:
    """A character's code point and Unicode name, 'U+200B ZERO WIDTH SPACE'; '' for one without a name (a control
    character, whose escape, such as '\\x1b', names it well enough)."""
    import unicodedata

    name = unicodedata.name(character, "")
    return f"U+{ord(character):04X} {name}" if name else ""


def escaped(text: str) -> str:
    """``text`` with every unsafe character written as its escape (``\\x1b``, ``\\u202e``)."""
    return text if is_safe(text) else UNSAFE.sub(_escape, text)


def json_text(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with unsafe characters as ``\\uXXXX`` escapes.

    The same JSON value, since these characters can only stand inside strings, where JSON allows the
    escape; ``json.dumps`` already escapes C0 controls, but not DEL, C1 controls or the overrides.
    """
    return text if is_safe(text) else UNSAFE.sub(_json_escape, text)


def _json_escape(match: re.Match[str]) -> str:
    """A character as JSON writes it escaped: beyond U+FFFF, as its UTF-16 surrogate pair."""
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xd800 + (code >> 10):04x}\\u{0xdc00 + (code & 0x3ff):04x}"


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """``value`` quoted for a message: text as a Python literal, at most ``limit`` characters of it.

    ``repr`` escapes every character that does not print; a longer text is cut and says how long it
    was; an integer too long to read is given by its number of digits.
    """
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 3 * limit:
            digits = math.floor(value.bit_length() * math.log10(2)) + 1
            return f"{'-' if value < 0 else ''}an integer of about {digits:,} digits"
        return repr(value)
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    try:
        shown = repr(value)
    except Exception:  # noqa: BLE001 - a value that cannot describe itself still gets named
        return f"a {type(value).__name__} value"
    return shown if len(shown) <= limit else f"{shown[:limit]}... ({len(shown):,} characters)"


#: What a spreadsheet reads as the start of a formula (OWASP's CSV-injection rule).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: A plain number (sign, thousands commas, decimals, exponent, percent), which a spreadsheet reads as a number.
_PLAIN_NUMBER = re.compile(r"[+-]?(\d[\d,]*(\.\d*)?|\.\d+)([eE][+-]?\d+)?%?")


def is_formula(cell: str) -> bool:
    """Whether a spreadsheet would take ``cell`` for a formula: it starts with ``FORMULA_START`` and is no number
    (``-0.021`` and ``+1.4%`` are numbers; a lone ``-``, a missing value's dash, is no formula either)."""
    return len(cell) > 1 and cell.startswith(FORMULA_START) and _PLAIN_NUMBER.fullmatch(cell.strip()) is None
