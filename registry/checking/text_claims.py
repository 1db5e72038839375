"""The claims checked against a page's text: the page exists, a quote or a label is printed on it, a result's printed
value is in its quote as printed (its sign, its bound, its form) and on the page inside the quoted text, records that
must agree do, and what the source record says of the file (its page count, its CreationDate).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from registry.checking.claims import Assertion, Claim
from registry.numbers import flattened_power, read_bound, read_range
from registry.printed_forms import printed_before, range_after
from review.pdf.matching import closest_text, find_on_pages, find_text, normalize, normalize_quote, number_pattern
from review.pdf.pdftext import Extraction

if TYPE_CHECKING:
    from collections.abc import Callable


@dataclass(frozen=True)
class PageExists(Claim):
    page: int

    def check(self, doc: Extraction) -> Assertion:
        expected = f"page {self.page}"
        if doc.page(self.page) is None:
            return self._result(expected, False, self.page, detail=self._missing_page(doc, self.page))
        return self._result(expected, True, self.page, detail=f"the PDF has {doc.page_count} pages")


@dataclass(frozen=True)
class TextOnPage(Claim):
    """Text that must be printed on a page (a locator's quote, a model label, a heading)."""

    page: int
    text: str

    def check(self, doc: Extraction) -> Assertion:
        expected = f"'{self.text}'"
        page_text = doc.page(self.page)
        if page_text is None:
            return self._result(expected, False, self.page, detail=self._missing_page(doc, self.page))
        match = find_text(page_text, self.text)
        if match is not None:
            return self._result(expected, True, self.page, match.shown, match.how_text)
        return self._result(expected, False, self.page, detail=self._why_absent(doc, page_text))

    def _why_absent(self, doc: Extraction, page_text: str) -> str:
        detail = f"not printed on page {self.page}"
        elsewhere = [p for p in find_on_pages(doc, self.text) if p != self.page]
        if elsewhere:
            detail += f"; it is printed on page {', '.join(map(str, elsewhere))} instead"
        close = closest_text(page_text, self.text)
        if close is not None:
            detail += f"; closest text on page {self.page}: '{close[0]}' ({close[1]:.0%} alike)"
        return detail


@dataclass(frozen=True)
class ValueInQuote(Claim):
    """A printed value must be in the record's quote, as printed, and in the quoted text on the page."""

    page: int
    quote: str
    value: str

    def check(self, doc: Extraction) -> Assertion:
        expected = f"'{self.value}'"
        pattern = number_pattern(self.value)
        quoted = normalize_quote(self.quote)
        if not pattern.search(quoted):
            flipped = _flipped_bound(self.value, lambda p: p.search(quoted))
            if flipped:
                return self._result(expected, False, self.page, detail=f"the record's own quote {flipped}")
            slip = _sign_slip(self.value, lambda p: p.search(quoted), "it")
            return self._result(expected, False, self.page,
                                detail=f"the record's own quote '{self.quote}' does not print '{self.value}'{slip}; "
                                       "the locator must quote the text that prints the value")
        page_text = doc.page(self.page)
        if page_text is None:
            return self._result(expected, False, self.page, detail=self._missing_page(doc, self.page))
        match = find_text(page_text, self.quote)
        found = match.search(pattern) if match is not None else None
        if found is not None:
            other = _other_form(self.value, found, match.raw if match is not None else "")
            if other:
                return self._result(expected, False, self.page, found.string[max(0, found.start() - 30):
                                                                              found.end() + 30].strip(), other)
            approximate = printed_before(found.string[:found.start()])
            said = f"; printed as approximate ('{approximate[1]}')" if approximate[2] else ""
            return self._result(expected, True, self.page, found.group(),
                                f"printed as '{self.value}' in the quoted text{said}")
        flipped = _flipped_bound(self.value, match.search) if match is not None else ""
        if flipped:
            return self._result(expected, False, self.page, detail=f"the quoted text {flipped}")
        on_page = normalize(page_text).text
        if pattern.search(on_page):
            return self._result(expected, False, self.page,
                                detail=f"'{self.value}' is printed on page {self.page}, but the quoted text is not")
        detail = f"'{self.value}' is not printed on page {self.page}"
        if match is not None:
            detail += _sign_slip(self.value, lambda p: match.search(p, overlapping=True), "the quoted text")
        others = [n for n, text in enumerate(doc.pages, start=1) if n != self.page and
                  pattern.search(normalize(text).text)]
        if others:
            detail += f" (it is printed on page {', '.join(map(str, others))})"
        return self._result(expected, False, self.page, detail=detail)


def _other_form(value: str, found: re.Match[str], raw: str) -> str:
    """Why a number found in the quoted text is not the record's value as printed there, or '': a bound printed
    before it that the record files as a value ('under 12 GB' for '12'), or a range it starts that the record files
    as a point value ('12–15 GB' for '12'), or a power whose superscript the text set on the line ('2−6' for '2';
    ``raw``, the page's text as extracted, keeps its minus sign). The sentence is the witness
    (``registry.printed_forms``)."""
    if read_bound(value) is not None or read_range(value) is not None:
        return ""
    after = found.string[found.end():found.end() + 3].rstrip(" .,;:)")  # normalized: the minus sign read as '-'
    power = flattened_power(found.group().strip() + after.replace("-", "\u2212", 1))
    if power is not None and f"{power[0]}\u2212{power[1][1:]}" in raw:  # a minus sign, as the page's text gives it
        return (f"the quoted text prints '{found.group().strip()}' as the base of a power whose superscript the text "
                f"set on the line ({power[0]}^{power[1]}), where the record files {value}: write printed_value "
                f"'{power[0]}^{power[1]}', keeping the exponent")
    sign, printed, approximate = printed_before(found.string[:found.start()])
    if sign:
        return (f"the quoted text prints '{printed} {found.group().strip()}', a bound '{sign}', where the record files "
                f"{value} as a value: file the bound, with bound: '{sign}'")
    upper = range_after(found.group(), found.string[found.end():])
    if upper and not approximate:
        return (f"the quoted text prints the range '{found.group().strip()}\u2013{upper}', where the record files its "
                f"lower end {value} as a point value: file the range, with range_upper: {{printed_value: {upper!r}}}")
    return ""


def _flipped_bound(value: str, search: Callable[[re.Pattern[str]], re.Match[str] | None]) -> str:
    """Where the record files a bound and the quoted text prints its number after another bound (or none), what
    it prints: 'the quoted text prints 'over 12', a bound '>', not the record's '<''; '' where the number is not
    printed there."""
    bound = read_bound(value)
    if bound is None:
        return ""
    found = search(number_pattern(bound[1]))
    if found is None:
        return ""
    sign, printed, _ = printed_before(found.string[:found.start()])
    shown = f"'{printed} {found.group()}', a bound '{sign}'" if sign else f"'{found.group()}' with no bound before it"
    return f"prints {shown}, not the record's bound '{bound[0]}'"


def _sign_slip(value: str, search: Callable[[re.Pattern[str]], re.Match[str] | None], where: str) -> str:
    """' (<where> prints '-33.88' ...)' when the text prints ``value`` with the other sign, else ''.

    A dropped or added minus sign is the one slip that leaves every digit in place, so it is named."""
    plain = normalize_quote(value)
    if not re.fullmatch(r"[-+]?[0-9][0-9.,]*", plain):
        return ""
    other = plain[1:] if plain.startswith("-") else "-" + plain.lstrip("+")
    found = search(number_pattern(other))
    if found is None:
        return ""
    sign = "with a minus sign the record's value lacks" if other.startswith("-") else (
        "without the minus sign the record's value has")
    return f" ({where} prints '{found.group()}', {sign}; a printed value keeps the sign the source prints)"


@dataclass(frozen=True)
class RecordsAgree(Claim):
    """Two records must say the same thing (a listed model label and the configuration's reported name)."""

    expected: str
    found: str
    why: str
    reads_text: ClassVar[bool] = False

    def check(self, doc: Extraction) -> Assertion:
        if self.expected == self.found:
            return self._result(f"'{self.expected}'", True, detail=self.why)
        return self._result(f"'{self.expected}'", False, detail=f"{self.why}, but it is '{self.found}'")


@dataclass(frozen=True)
class CannotCheck(Claim):
    """A claim the checker cannot assert, and why: always a failure, so that --write never grants it."""

    expected: str
    why: str
    reads_text: ClassVar[bool] = False

    def check(self, doc: Extraction) -> Assertion:
        return self._result(self.expected, False, detail=self.why)


@dataclass(frozen=True)
class PageCount(Claim):
    expected: int

    def check(self, doc: Extraction) -> Assertion:
        passed = doc.page_count == self.expected
        detail = f"the PDF has {doc.page_count} pages"
        return self._result(f"{self.expected} pages", passed, detail=detail)


@dataclass(frozen=True)
class CreationDate(Claim):
    expected: str
    reads_text: ClassVar[bool] = False  # the PDF's metadata, as pypdf reads it

    def check(self, doc: Extraction) -> Assertion:
        if doc.creation_date_unread is not None:
            return self._unreadable(self.expected, None, f"the PDF's CreationDate reads '{doc.creation_date_unread}', "
                                    "which is not a date in the PDF's form (D:YYYYMMDD...)")
        if doc.creation_date is None:
            return self._result(self.expected, False, detail="the PDF states no CreationDate")
        found = {doc.creation_date, doc.creation_date_utc}
        shown = doc.creation_date if doc.creation_date == doc.creation_date_utc else (
            f"{doc.creation_date} ({doc.creation_date_utc} UTC)")
        return self._result(self.expected, self.expected in found, detail=f"the PDF's CreationDate is {shown}")
