"""Quote matching that survives typesetting: where a page's extracted text prints what a record quotes.

Text extracted from a typeset paper differs from the words a curator typed: lines
break inside sentences, words are hyphenated at line ends (while real hyphens such as
``Stage-2`` must survive), ligatures come out as single characters (``ﬁ``), and
arrows, minus signs, quotes and spaces come in several Unicode forms. ``find_text``
therefore matches in steps, and says which step matched and what it had to read
differently:

1. verbatim, in the raw page text;
2. after normalizing both sides: Unicode compatibility forms (ligatures, non-breaking
   and thin spaces), the minus sign and Unicode hyphens read as ``-``, curly quotes as
   straight ones, ``->`` and long arrows as ``→``, and every run of white space
   (line breaks included) as one space. A hyphen at a line end may be either a
   hyphenation (dropped: ``check-⏎point`` matches ``checkpoint``) or a real hyphen
   (kept: ``Stage-⏎2`` matches ``Stage-2``); the quote decides which;
3. as step 2, but letting spaces differ: a quote's space may be absent and the page may
   add one (pypdf sometimes drops or adds spaces between words set in different fonts).
"""

from __future__ import annotations

import bisect
import difflib
import functools
import heapq
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from registry.numbers import MINUS_SIGNS, RANGE_DASH
from review.pdf.pdftext import Extraction

#: Stands, in normalized text, for a hyphen at a line end (or a soft hyphen): dropped or kept as the quote needs.
SOFT = "\x00"


_HYPHENS = "-\u2010\u2011\u00ad"


#: How much of the page around a match ``TextMatch`` keeps (normalized characters each side).
CONTEXT = 40


#: Characters read as others when a quote is compared with a page, each with the note a match shows. Every minus
#: sign is read as '-', except the en dash, which prose prints for a range ('10–20') and is kept.
_CHAR_MAP: dict[str, tuple[str, str]] = {
    **{sign: ("-", f"{unicodedata.name(sign).lower()} '{sign}' read as '-'") for sign in MINUS_SIGNS
       if sign != RANGE_DASH},
    "\u2010": ("-", "Unicode hyphen read as '-'"),
    "\u2011": ("-", "non-breaking hyphen read as '-'"),
    "\u27f6": ("\u2192", "long arrow '\u27f6' read as '\u2192'"),
    "\u2018": ("'", "curly quote read as straight"),
    "\u2019": ("'", "curly quote read as straight"),
    "\u201c": ('"', "curly quote read as straight"),
    "\u201d": ('"', "curly quote read as straight"),
    "\u200b": ("", "zero-width space dropped"),
    "\ufeff": ("", "zero-width space dropped"),
}


@dataclass(frozen=True)
class Normalized:
    """Normalized text, with each character's span in the raw text and what was read differently."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    notes: tuple[str | None, ...]


@functools.lru_cache(maxsize=32)
def normalize(raw: str) -> Normalized:
    """Normalize ``raw`` for matching (see the module docstring), keeping a map back to the raw text.

    Kept for the last pages asked (both extractions' texts of a page, for 16 pages): every claim reads
    its page again, and normalizing is the slow part. No more, since a page of the 100,000 characters
    allowed normalizes to some 8 MB, and the review's memory is limited.
    """
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    notes: list[str | None] = []
    i, n = 0, len(raw)
    while i < n:
        chars, end, note = _read_at(raw, i, out[-1] if out else "")
        for char in chars:
            out.append(char)
            starts.append(i)
            ends.append(end)
            notes.append(note)
        i = end
    while out and out[-1] == " ":
        for stack in (out, starts, ends, notes):
            stack.pop()
    return Normalized("".join(out), tuple(starts), tuple(ends), tuple(notes))


def _read_at(raw: str, i: int, last: str) -> tuple[str, int, str | None]:
    """What the normalized text holds for the raw text at ``i``, after ``last`` (the normalized character before it):
    its characters, where the raw span they stand for ends, and what was read differently there."""
    char, n = raw[i], len(raw)
    if char == "\u00ad":
        return SOFT, i + 1, "soft hyphen"
    if char in _HYPHENS and last.isalnum():
        j = i + 1
        while j < n and raw[j] in " \t":
            j += 1
        if j < n and raw[j] in "\r\n":
            while j < n and raw[j].isspace():
                j += 1
            return SOFT, j, None
    if char.isspace() or unicodedata.category(char) == "Zs":
        j = i
        while j < n and (raw[j].isspace() or unicodedata.category(raw[j]) == "Zs"):
            j += 1
        run = raw[i:j]
        if not last or last == " ":
            return "", j, None
        note = "line break read as a space" if ("\n" in run or "\r" in run) else (
            None if run == " " else "non-breaking or special space read as a space")
        return " ", j, note
    if raw.startswith("->", i):
        return "\u2192", i + 2, "'->' read as '\u2192'"
    if char in _CHAR_MAP:
        mapped, note = _CHAR_MAP[char]
        return mapped, i + 1, note
    compat = unicodedata.normalize("NFKC", char)
    if compat != char:
        kind = "ligature" if "LIGATURE" in unicodedata.name(char, "") else "compatibility character"
        return compat, i + 1, f"{kind} '{char}' read as '{compat}'"
    return char, i + 1, None


def normalize_quote(text: str) -> str:
    """A quote or value as typed by a curator, normalized the same way (hyphenation marks dropped)."""
    return normalize(text).text.replace(SOFT, "")


@dataclass(frozen=True)
class TextMatch:
    """Where a quote was found on a page, and how."""

    raw: str
    """The page's text that matched, as extracted (line breaks included)."""
    normalized: str
    """The same text normalized, hyphenation resolved the way the quote reads."""
    how: tuple[str, ...] = field(default_factory=tuple)
    """What had to be read differently ('verbatim' when nothing)."""
    before: str = ""
    """A little of the page's normalized text just before the match (empty at the start of the page)."""
    after: str = ""
    """A little of the page's normalized text just after the match: how the cited sentence goes on."""

    @property
    def shown(self) -> str:
        return self.raw.replace("\r\n", "\n").replace("\n", "\u23ce")

    @property
    def how_text(self) -> str:
        return "; ".join(self.how)

    def search(self, pattern: re.Pattern[str], *, overlapping: bool = False) -> re.Match[str] | None:
        """The first hit of ``pattern`` that lies inside the matched text, read with the page around it
        (with ``overlapping``, the first hit that shares at least one character with it).

        A quote's edges can cut a token: the quote '33.88 → 11.49' is found in '(−33.88 → 11.49',
        and '33' in '33.88'. Searching the matched text alone would take the cut token for a whole one;
        with the page's text on either side, the token's own boundaries (its sign, its last digit) decide.
        The hit's ``string`` is that wider text, so a caller can read on past the quote.
        """
        text = self.before + self.normalized + self.after
        low, high = len(self.before), len(self.before) + len(self.normalized)
        for hit in pattern.finditer(text):
            if (hit.start() < high and hit.end() > low) if overlapping else (low <= hit.start() and hit.end() <= high):
                return hit
        return None


def _pattern(quote: str, *, lenient_spaces: bool) -> re.Pattern[str]:
    """A regex for a normalized quote: hyphenation marks may sit between any two characters and stand
    for a quote's hyphen; with ``lenient_spaces``, a quote's space may be absent and the page may add one."""
    tokens = [" ?" if (c == " " and lenient_spaces) else f"[-{SOFT}]" if c == "-" else re.escape(c) for c in quote]
    joiner = f"[ {SOFT}]?" if lenient_spaces else f"{SOFT}?"
    pattern = tokens[0]
    for previous, char, token in zip(quote, quote[1:], tokens[1:], strict=False):
        pattern += token if lenient_spaces and " " in (previous, char) else joiner + token
    return re.compile(pattern)


def _align(group: str, quote: str) -> tuple[str, int, int, bool]:
    """Read a match the way the quote reads: (text, hyphens joined, hyphens kept, spacing differed)."""
    out: list[str] = []
    joined = kept = 0
    spacing = False
    j = 0
    for k, char in enumerate(group):
        if j < len(quote) and quote[j] == " " and char != " ":
            j += 1
            spacing = True
        if char == " ":
            if j < len(quote) and quote[j] == " ":
                out.append(" ")
                j += 1
            else:
                spacing = True
        elif char == SOFT:
            if j < len(quote) and quote[j] == "-" and group[k + 1:k + 2] != "-":
                out.append("-")
                kept += 1
                j += 1
            else:
                joined += 1
        else:
            out.append(char)
            j += 1
    return "".join(out), joined, kept, spacing


def find_text(page: str, quote: str) -> TextMatch | None:
    """Find ``quote`` in ``page``: verbatim, then normalized, then with spacing differences; None if absent."""
    if not quote.strip():
        return None
    norm = normalize(page)
    if quote in page:
        start = page.index(quote)
        first, stop = bisect.bisect_left(norm.starts, start), bisect.bisect_left(norm.starts, start + len(quote))
        before, after = _context(norm, first, stop)
        return TextMatch(raw=quote, normalized=normalize_quote(quote), how=("verbatim",), before=before, after=after)
    wanted = normalize_quote(quote)
    for lenient in (False, True):
        match = _pattern(wanted, lenient_spaces=lenient).search(norm.text)
        if match is None:
            continue
        first, last = match.start(), match.end() - 1
        resolved, joined, kept, spacing = _align(match.group(), wanted)
        how: list[str] = []
        for note in normalize(quote).notes:
            if note and f"in the quote, {note}" not in how and note != "soft hyphen":
                how.append(f"in the quote, {note}")
        for note in norm.notes[first:last + 1]:
            if note and note not in how and note != "soft hyphen":
                how.append(note)
        if joined:
            how.append(f"hyphenation at a line end joined ({joined}x)")
        if kept:
            how.append(f"hyphen at a line end kept ({kept}x)")
        if spacing:
            how.append("spaces ignored (the extracted text spaces words differently)")
        raw = page[norm.starts[first]:norm.ends[last]]
        before, after = _context(norm, first, last + 1)
        return TextMatch(raw=raw, normalized=resolved, how=tuple(how) or ("normalized",), before=before, after=after)
    return None


def _context(norm: Normalized, first: int, stop: int) -> tuple[str, str]:
    """The normalized text around ``norm.text[first:stop]``, ``CONTEXT`` characters each side: enough to see
    a sign or a digit the quote cut off, and a unit printed just after it. Hyphenation marks stay, so that
    a hyphen at a line end ('1-⏎33.88') still separates tokens and is still not read as a minus sign."""
    return norm.text[max(0, first - CONTEXT):first], norm.text[stop:stop + CONTEXT]


def find_on_pages(extraction: Extraction, quote: str) -> list[int]:
    """Every page (1-based) that holds ``quote``."""
    return [number for number, page in enumerate(extraction.pages, start=1) if find_text(page, quote)]


def closest_text(page: str, quote: str, *, cutoff: float = 0.75) -> tuple[str, float] | None:
    """The passage of ``page`` most like ``quote`` (normalized), with its similarity, if any comes close.

    Every window of the quote's length is scored by ``SequenceMatcher.quick_ratio`` (the characters two
    texts share, counted with their multiplicity), kept up to date as the window slides one character,
    so the whole page costs one pass; the best 40 windows are then compared in full (``ratio``).
    """
    norm = normalize(page)
    wanted = normalize_quote(quote)
    text = norm.text.replace(SOFT, "")
    size = len(wanted)
    if not size or len(text) < size // 2:
        return None
    need = Counter(wanted)
    have: Counter[str] = Counter()
    shared = 0
    for char in text[:size]:
        shared += have[char] < need[char]
        have[char] += 1
    total = size + min(size, len(text))
    scored = [(2.0 * shared / total, 0)]
    for start in range(1, max(1, len(text) - size + 1)):
        gone, come = text[start - 1], text[start + size - 1]
        have[gone] -= 1
        shared -= have[gone] < need[gone]
        shared += have[come] < need[come]
        have[come] += 1
        scored.append((2.0 * shared / total, start))
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(wanted)
    best: tuple[float, int] | None = None
    for _, start in heapq.nlargest(40, scored):
        matcher.set_seq1(text[start:start + size])
        ratio = matcher.ratio()
        if best is None or ratio > best[0]:
            best = (ratio, start)
    if best is None or best[0] < cutoff:
        return None
    return text[best[1]:best[1] + size], best[0]


def number_pattern(printed: str) -> re.Pattern[str]:
    """A printed number as a token of a page's normalized text, with its sign: the one reading of printed
    numbers (``registry.numbers_in_text.printed_pattern``), which validation uses on a record's quote too. A
    number is read as the curator typed it (normalizing would flatten '2¹⁰' into '210'); other text as a quote
    is."""
    from registry.numbers import parse_printed
    from registry.numbers_in_text import printed_pattern

    return printed_pattern(printed if parse_printed(printed) is not None else normalize_quote(printed))


def unit_pattern(symbol: str, *, after_value: bool = False) -> re.Pattern[str]:
    """A unit symbol as a token ('GB' is not in 'GiB' or 'GBs').

    A one-letter symbol found on its own (``after_value`` False) must not follow a digit either: the 'M'
    of the model name 'NT 500M' or the 'B' of 'NT 2.5B' is not a unit of the number beside it. Matched
    right after the value it belongs to (``after_value``), '2.5B' does print a 'B'.
    """
    printed = normalize_quote(symbol)
    before = r"(?<![A-Za-z])" if after_value or not (len(printed) == 1 and printed.isalpha()) else r"(?<![A-Za-z0-9])"
    return re.compile(before + re.escape(printed) + r"(?![A-Za-z])")
