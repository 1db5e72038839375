"""Text from the pinned PDF, page by page, and quote matching that survives typesetting.

Extraction uses pypdf and keeps the raw text of every page. The *extraction artifact*
is that text with the pages joined by form feeds (``\\f``, as pdftotext separates
them), encoded as UTF-8; its SHA-256 is what a review records as ``extraction_sha256``.

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
import hashlib
import heapq
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from registry import limits
from registry.numbers import MINUS_SIGNS, RANGE_DASH
from registry.textsafe import excerpt
from review.errors import PdfError, ReviewLimitError
from review.pdf.fetch import sniff
from review.pdf.limited import page_chars_checked

if TYPE_CHECKING:
    import datetime as dt

    import pypdf

    from review.pdf.words import PageWords

PAGE_SEPARATOR = "\f"
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
class Extraction:
    """The text of every page of one PDF, as pypdf extracted it."""

    pages: tuple[str, ...]
    extractor: str
    """Which library and version extracted the text (for example 'pypdf 5.1.0')."""
    creation_date: str | None = None
    """The PDF's CreationDate as an ISO date (its own time zone), where it has one."""
    creation_date_utc: str | None = None
    creation_date_unread: str | None = None
    """The CreationDate as the PDF states it, where it is not a date in the PDF's own form (``D:YYYYMMDD...``, as
    '12th May 2025'): shown, never read as a date (a metadata field never rejects a document)."""
    words: tuple[PageWords, ...] = ()
    """Every page's positioned words, where the extractor gives them (``review.pdf.words``); empty where not."""

    @property
    def page_count(self) -> int:
        return len(self.pages)

    @property
    def text(self) -> str:
        """The extraction artifact: raw page texts joined by form feeds."""
        return PAGE_SEPARATOR.join(self.pages)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def page(self, number: int) -> str | None:
        """The text of page ``number`` (1-based), or None past the end."""
        return self.pages[number - 1] if 1 <= number <= len(self.pages) else None

    def page_words(self, number: int) -> PageWords | None:
        """The positioned words of page ``number`` (1-based), or None past the end or without words."""
        return self.words[number - 1] if 1 <= number <= len(self.words) else None

    def missing(self, number: int) -> str:
        """Why page ``number`` cannot be read: the PDF has fewer pages."""
        return f"page {number} does not exist: the PDF has {self.page_count} pages"


#: The most text one page may hold. A dense page of a paper holds about 5,000 characters; a page
#: past this is no paper's page (a crafted PDF can put 50 MB of text in one string), and matching
#: quotes on it would take long. ``extract_pdf`` refuses it.
MAX_PAGE_CHARS = limits.REVIEW_MAX_PAGE_CHARS


def pdf_bytes(source: Path | bytes, name: str | None) -> tuple[bytes, str | None]:
    """The bytes of ``source`` (read from it where it is a path, which then names it unless ``name`` does)."""
    if not isinstance(source, Path):
        return source, name
    name = name or str(source)
    try:
        return source.read_bytes(), name
    except OSError as exc:
        raise PdfError(Path(name), f"cannot read {name}: {exc.strerror}", "check the file's permissions") from exc


def extract_pdf(source: Path | bytes, *, name: str | None = None, max_page_chars: int = MAX_PAGE_CHARS) -> Extraction:
    """Every page's text, or a ``PdfError`` saying what is wrong with the file and what to do.

    ``source`` is the file's bytes (as they were hashed: see ``review.pdf.fetch``) or a path to read
    them from; ``name`` is how messages call the file. pypdf's own log lines and warnings about
    damaged files are silenced: the error says it once.
    """
    import logging
    import warnings

    source, name = pdf_bytes(source, name)
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _extract(source, Path(name or "the PDF"), max_page_chars)
    finally:
        logger.setLevel(level)


_ENCRYPTED_HINT = ("save an unencrypted copy (print to PDF) and pass it with {pdf}; its hash will differ, so update "
                   "the source record only if that copy is the one to pin")


def _extract(data: bytes, path: Path, max_page_chars: int) -> Extraction:
    import io

    import pypdf
    from pypdf.errors import DependencyError, FileNotDecryptedError, LimitReachedError, PdfReadError, PyPdfError

    kind = sniff(data[:1024])
    if kind == "html":
        raise PdfError(path, f"{path} is an HTML page, not a PDF",
                       "save the PDF itself (not the web page that links to it) and pass it with {pdf}")
    if kind != "pdf":
        shown = "is empty" if kind == "empty" else f"starts with {data[:16]!r}"
        raise PdfError(path, f"{path} is not a PDF: it {shown}", "pass the PDF file of the source with {pdf}")
    if b"%%EOF" not in data[-4096:] and b"%%EOF" not in data:
        raise PdfError(path, f"{path} is a truncated PDF: it has no end-of-file marker",
                       "download the PDF again; an interrupted download leaves such a file")
    broken = (PdfReadError, PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError,
              AssertionError, RecursionError, OverflowError, ZeroDivisionError)
    corrupt_hint = "the file is damaged; download the PDF again, or check it opens in a PDF viewer"
    reader: pypdf.PdfReader | None = None
    try:
        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfError(path, f"{path} is an encrypted PDF that needs a password to open", _ENCRYPTED_HINT)
        pages = []
        for index, page in enumerate(reader.pages, start=1):
            try:
                text = page.extract_text() or ""
            except (DependencyError, NotImplementedError, FileNotDecryptedError, LimitReachedError):
                raise
            except broken as exc:
                raise PdfError(path, f"page {index} of {path} cannot be read: {type(exc).__name__}: "
                               f"{excerpt(str(exc), 200)[1:-1]}", corrupt_hint) from exc
            page_chars_checked(len(text), index, str(path), max_page_chars)
            pages.append(text)
        created, unread = _creation_date(reader)
    except (PdfError, ReviewLimitError):
        raise
    except LimitReachedError as exc:  # one of pypdf's own bounds (a 200,000-page PDF is valid): a limit, not damage
        raise ReviewLimitError(f"{path} goes past a limit of the PDF reader (pypdf: {excerpt(str(exc), 200)[1:-1]}): "
                               "the file may well be a sound PDF, larger or more deeply nested than the reader reads",
                               "pass a copy holding only the pages the records cite (print those pages to PDF)"
                               ) from exc
    except FileNotDecryptedError as exc:
        raise PdfError(path, f"{path} is an encrypted PDF that needs a password to open", _ENCRYPTED_HINT) from exc
    except DependencyError as exc:
        raise PdfError(path, f"{path} is encrypted with a cipher (AES) that needs the 'cryptography' package, "
                       "which is not installed", "install it (pip install cryptography), or pass a decrypted copy "
                       "with {pdf}") from exc
    except NotImplementedError as exc:
        what = "is encrypted in a way pypdf cannot decrypt" if reader is None or _encrypted(reader) else \
            "uses a PDF feature pypdf cannot read"
        raise PdfError(path, f"{path} {what} ({excerpt(str(exc), 120)[1:-1]})", _ENCRYPTED_HINT) from exc
    except broken as exc:
        raise PdfError(path, f"{path} is a corrupt PDF: {type(exc).__name__}: {excerpt(str(exc), 200)[1:-1]}",
                       corrupt_hint) from exc
    if not pages:
        raise PdfError(path, f"{path} is a PDF without pages", corrupt_hint)
    creation = creation_utc = None
    if created is not None:
        import datetime as dt

        creation = created.date().isoformat()
        aware = created if created.tzinfo else created.replace(tzinfo=dt.UTC)
        try:
            creation_utc = aware.astimezone(dt.UTC).date().isoformat()
        except OverflowError:  # a date at the end of the calendar, with a zone: its UTC day does not exist
            creation_utc = creation
    return Extraction(pages=tuple(pages), extractor=f"pypdf {pypdf.__version__}", creation_date=creation,
                      creation_date_utc=creation_utc, creation_date_unread=unread)


def _creation_date(reader: pypdf.PdfReader) -> tuple[dt.datetime | None, str | None]:
    """The PDF's CreationDate as a datetime (None where it states none), and its text where it states one that is
    not a PDF date: the metadata describes the file and is never its content, so a field pypdf cannot parse leaves
    the date unknown and the document readable."""
    try:
        metadata = reader.metadata
        if metadata is None or metadata.get("/CreationDate") is None:
            return None, None
        return metadata.creation_date, None
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError) as exc:
        try:
            stated = reader.metadata.get("/CreationDate") if reader.metadata is not None else None
            return None, str(stated)[:100]
        except Exception:  # noqa: BLE001 - a metadata dictionary that cannot be read at all states no date
            return None, f"unreadable ({type(exc).__name__})"


def _encrypted(reader: object) -> bool:
    try:
        return bool(getattr(reader, "is_encrypted", False))
    except Exception:  # noqa: BLE001 - reading the flag is what failed
        return True


# -- normalization ----------------------------------------------------------------------------


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

    def emit(chars: str, start: int, end: int, note: str | None) -> None:
        for char in chars:
            out.append(char)
            starts.append(start)
            ends.append(end)
            notes.append(note)

    i, n = 0, len(raw)
    while i < n:
        char = raw[i]
        if char == "\u00ad":
            emit(SOFT, i, i + 1, "soft hyphen")
            i += 1
            continue
        if char in _HYPHENS and out and out[-1].isalnum():
            j = i + 1
            while j < n and raw[j] in " \t":
                j += 1
            if j < n and raw[j] in "\r\n":
                while j < n and raw[j].isspace():
                    j += 1
                emit(SOFT, i, j, None)
                i = j
                continue
        if char.isspace() or unicodedata.category(char) == "Zs":
            j = i
            while j < n and (raw[j].isspace() or unicodedata.category(raw[j]) == "Zs"):
                j += 1
            run = raw[i:j]
            if out and out[-1] != " ":
                note = "line break read as a space" if ("\n" in run or "\r" in run) else (
                    None if run == " " else "non-breaking or special space read as a space")
                emit(" ", i, j, note)
            i = j
            continue
        if raw.startswith("->", i):
            emit("\u2192", i, i + 2, "'->' read as '\u2192'")
            i += 2
            continue
        if char in _CHAR_MAP:
            mapped, note = _CHAR_MAP[char]
            emit(mapped, i, i + 1, note)
            i += 1
            continue
        compat = unicodedata.normalize("NFKC", char)
        if compat != char:
            kind = "ligature" if "LIGATURE" in unicodedata.name(char, "") else "compatibility character"
            emit(compat, i, i + 1, f"{kind} '{char}' read as '{compat}'")
        else:
            emit(char, i, i + 1, None)
        i += 1
    while out and out[-1] == " ":
        for stack in (out, starts, ends, notes):
            stack.pop()
    return Normalized("".join(out), tuple(starts), tuple(ends), tuple(notes))


def normalize_quote(text: str) -> str:
    """A quote or value as typed by a curator, normalized the same way (hyphenation marks dropped)."""
    return normalize(text).text.replace(SOFT, "")


# -- matching -------------------------------------------------------------------------------------


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


# -- numbers and units ----------------------------------------------------------------------------


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
