"""The claims a source check asserts, derived from the records, and how each is checked.

Nothing here knows a particular paper. Every assertion comes from a record field:

- the *source locator* gives pages and quotes (grammar below): the page must exist and the
  quote must be printed on it;
- a result's *printed value* must appear in its quote, as printed (its sign included: '33.88'
  is not '-33.88'; a bound with its sign: '< 0.001'), and on the page inside the quoted text; an
  evidence row's *statement* the same, when it states a reported result;
- a result's *unit* (and its ``unit_detail``, 'Printed as GB') must be printed with the value:
  right after it, or after the numbers that share it ('33.88 → 11.49 GB'), in the quoted text
  or where the cited sentence goes on past the quote; the unit printed elsewhere on the page
  does not count;
- a result's *source checks* list further text (model label, protocol, data link, figure
  stage, direction, hardware) that must be printed on a page; a model label must also be
  the reported name of the result's configuration;
- a configuration's *reported name* must be printed on the page its locator quotes;
- the *source* itself: its page count, its running heading on page 1, its CreationDate.

Locators are typed (``registry.models.values.Locator``): the checker reads the page and the
quoted text from their own fields. A locator with no page, or with a page but no quote, cannot
be checked. Which of these claims a record makes is ``registry.checking.dispatch``'s to say: this module holds
the claim types and nothing that imports the table cells' or the consistency claims.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from registry.checking.witnesses import Witness
from registry.models import Record, Result
from registry.models.values import Locator
from registry.numbers import SIGN, flattened_power, read_bound, read_range
from registry.printed_forms import printed_before, range_after
from registry.units import other_units_printed_as, own_form_in, printed_forms, table
from registry.units import symbol as unit_symbol
from review.errors import NotCheckableError
from review.pdf.pdftext import (
    Extraction,
    TextMatch,
    closest_text,
    find_on_pages,
    find_text,
    normalize,
    normalize_quote,
    number_pattern,
    unit_pattern,
)

if TYPE_CHECKING:
    from collections.abc import Callable


GRAMMAR = "'page: N' and 'quote: <quoted text>'"

def _unit_printed(form: str) -> str | None:
    """The unit a printed form stands for (the first declared, where two share one), of the registry's units."""
    units = table().unit_printed_as(form)
    return units[0] if units else None


@dataclass(frozen=True)
class Citation:
    """One place a locator quotes: a page and the text printed there."""

    page: int
    quote: str


def parse_locator(locator: Locator, record_id: str = "the record") -> list[Citation]:
    """The place ``locator`` cites, as a page and the text printed there, or ``NotCheckableError`` saying what
    is missing."""
    if locator.page is not None and locator.quote is not None:
        return [Citation(locator.page, " ".join(locator.quote.split()))]
    if locator.page is not None and is_cell(locator):
        return []  # a table cell is checked by its row and column (registry.checking.cells), a quote is optional
    if locator.page is not None:
        raise NotCheckableError(
            f"cannot check {record_id}: its source locator cites page {locator.page} but quotes no text",
            f"a locator is checked by the text it quotes, as in {GRAMMAR}; add the sentence that prints the value",
        )
    raise NotCheckableError(
        f"cannot check {record_id}: its source locator names no page ({locator.text!r})",
        f"the checker reads locators that give {GRAMMAR}; add the page and a quote of the printed text",
    )


def is_cell(locator: Locator) -> bool:
    """Whether a locator names a table cell: a table (or figure), a row and a column."""
    return (locator.table or locator.figure) is not None and locator.row is not None and locator.column is not None


def locator_of(record: Record) -> Locator | None:
    value = getattr(record, "source_locator", None)
    return value if isinstance(value, Locator) else None


# -- assertions -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Assertion:
    """One checked claim: what the record says, whether the PDF agrees, where, and how it matched."""

    record_id: str
    claim: str
    expected: str
    passed: bool
    page: int | None = None
    matched: str = ""
    detail: str = ""
    found: str = ""
    """For a table cell: the row and column where the value was found (its own cell, or where else it is)."""
    second: Opinion | None = None
    """What the second extractor's reading said, where one was run."""
    unreadable: bool = False
    """The claim could not be checked (its table, row or column could not be read): neither passed nor failed.
    ``passed`` is False, so that nothing counts it as checked."""
    absent: bool = False
    """Cannot check, with one extractor's witness: the cited table was read, and the cited row or column is printed
    nowhere in it. A failure where both extractors say so (``registry.checking.agreement``), never on one reading
    alone."""
    unprinted: bool = False
    """The unit is printed nowhere near the value (not with it, nor in its cell, header, row label, caption, table
    note or citing sentence): 'unit not printed', kept apart from a failure, since the page shows no other unit."""
    first: Opinion | None = None
    """The primary extractor's own verdict, where a second extractor read the claim too (beside ``second``)."""
    witnesses: tuple[Witness, ...] = ()
    """Each witness's own verdict ('pdf', 'source'), where the source record pins source files beside the PDF
    (``registry.checking.witnesses``); empty where the PDF is the only witness."""

    @property
    def outcome(self) -> str:
        """The verdict: 'pass', 'fail' (the page prints something else), 'cannot check', or 'unit not printed'."""
        if self.passed:
            return PASS
        if self.unprinted:
            return UNIT_NOT_PRINTED
        return CANNOT_CHECK if self.unreadable else FAIL

    def plain(self) -> tuple[Any, ...]:
        """The assertion as plain values (the second opinion a tuple too), as the review's child process sends it."""
        return dataclasses.astuple(self)

    @classmethod
    def from_plain(cls, fields: tuple[Any, ...] | list[Any]) -> Assertion:
        """The assertion ``plain`` gave."""
        record_id, claim, expected, passed, page, matched, detail, found, second, unreadable, absent, unprinted, \
            first, *rest = fields
        witnesses = tuple(Witness(*w) for w in rest[0]) if rest else ()
        return cls(record_id, claim, expected, passed, page, matched, detail, found,
                   Opinion(*second) if second is not None else None, unreadable, absent, unprinted,
                   Opinion(*first) if first is not None else None, witnesses)

    @property
    def verdicts(self) -> str:
        """Each witness's verdict side by side ('pdf: pass, source: pass'); the outcome where there is one."""
        return ", ".join(w.verdict for w in self.witnesses) or f"pdf: {self.outcome}"


#: The verdicts of a claim. A FAIL needs a witness on the page (docs/review-verdicts.md); 'unit not printed' is
#: neither a pass nor a failure of the value.
PASS, FAIL, CANNOT_CHECK, UNIT_NOT_PRINTED = "pass", "fail", "cannot check", "unit not printed"


@dataclass(frozen=True)
class Opinion:
    """One extractor's verdict on a claim, beside the primary's."""

    extractor: str
    passed: bool | None
    """None: this claim does not read the text (it compares records or reads the PDF's metadata)."""
    matched: str = ""
    detail: str = ""
    unreadable: bool = False
    """It could not read what the claim rests on (a table, row or column)."""

    @property
    def outcome(self) -> str:
        """This extractor's own verdict: 'pass', 'fail' or 'cannot check' (as ``Assertion.outcome``)."""
        return PASS if self.passed else CANNOT_CHECK if self.unreadable else FAIL


@dataclass(frozen=True)
class Claim:
    """Something a record says that the PDF can confirm. Subclasses check one kind of claim."""

    record_id: str
    claim: str
    #: Whether the claim reads the extracted text (then a second extractor checks it again).
    reads_text: ClassVar[bool] = True

    def check(self, doc: Extraction) -> Assertion:  # pragma: no cover - abstract
        raise NotImplementedError

    def _result(self, expected: str, passed: bool, page: int | None = None, matched: str = "",
                detail: str = "", found: str = "") -> Assertion:
        return Assertion(self.record_id, self.claim, expected, passed, page, matched, detail, found)

    def _unreadable(self, expected: str, page: int | None, detail: str, *, absent: bool = False) -> Assertion:
        """The claim could not be checked: what was read instead is in ``detail`` (``absent``: the table was read
        and the cited row or column is printed nowhere in it)."""
        return Assertion(self.record_id, self.claim, expected, False, page, detail=detail, unreadable=True,
                         absent=absent)

    def _unprinted(self, expected: str, page: int | None, detail: str, matched: str = "", found: str = ""
                   ) -> Assertion:
        """The unit is printed nowhere near the value: 'unit not printed', what was read is in ``detail``."""
        return Assertion(self.record_id, self.claim, expected, False, page, matched, detail, found, unprinted=True)

    @staticmethod
    def _missing_page(doc: Extraction, page: int) -> str:
        return f"page {page} does not exist: the PDF has {doc.page_count} pages"


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


#: After a value, further numbers that share its unit: '33.88 → 11.49 GB', '10 to 20 s', '10–20 s'. Only arrows
#: and ranges: in '16 and 94 GB' or '3 or 4 GB' the unit may well belong to the last number alone.
_SHARED_UNIT = re.compile(r"(?:\s*(?:\u2192|->|-|\u2013|\u2014|/|to)\s*-?[0-9]+(?:[.,][0-9]+)*)*")
#: The word or symbol printed next: where a unit would be.
_NEXT_WORD = re.compile(r"\s*(%|[^\W\d_]+)")
#: A number standing alone (not the '1' of 'Top-1' or the '4' of 'H3K4') ending the text before a unit's symbol.
_NUMBER_BEFORE = re.compile(rf"(?:^|[\s(\[=~\u2248:,;])(?:{SIGN}|\u00b1)?\d+(?:[.,]\d+)*\s?$")


def declared_unit(text: str, symbols: tuple[str, ...]) -> str | None:
    """The first of ``symbols`` that ``text`` (a header, a label, a caption, a note, a sentence) prints as the unit
    of what it names ('Win rate (%)', 'in percent', 'Memory [GB]'), not as the unit of a number it prints
    ('Mix 50%', '95% confidence intervals', 'batch of 16 GB'): a symbol set after a number is that number's."""
    printed = normalize_quote(text)
    for symbol in symbols:
        for hit in unit_pattern(symbol).finditer(printed):
            if not _NUMBER_BEFORE.search(printed, 0, hit.start()):
                return symbol
    return None


@dataclass(frozen=True)
class UnitWithValue(Claim):
    """The unit the record gives must be the one printed with the value.

    'With the value' means right after it, or after the further numbers that share its unit
    ('33.88 → 11.49 GB' gives 33.88 its GB), in the quoted text or, where the quote stops before
    the unit, in the sentence the quote comes from; or printed in that sentence as the unit of what it
    reports ('accuracy (%)', 'in percent'), not after another number. Another unit printed with the value
    fails (the witness). A unit printed elsewhere on the page, or after another number of the quote,
    belongs to some other number: 'unit not printed', neither a pass nor a failure of the value.
    """

    page: int
    quote: str
    value: str
    unit: str
    symbols: tuple[str, ...]

    def check(self, doc: Extraction) -> Assertion:
        expected = f"{' or '.join(self.symbols)} ({self.unit})"
        page_text = doc.page(self.page)
        if page_text is None:
            return self._result(expected, False, self.page, detail=self._missing_page(doc, self.page))
        match = find_text(page_text, self.quote)
        if match is None:
            return self._unreadable(expected, self.page,
                                    f"the quoted text is not on page {self.page}, so its unit cannot be read")
        value = match.search(number_pattern(self.value))
        if value is None:
            return self._unreadable(expected, self.page,
                                    f"'{self.value}' is not printed in the quoted text on page {self.page}, so the "
                                    "unit printed with it cannot be read")
        return self._with_value(match, value, page_text, expected)

    def _with_value(self, match: TextMatch, value: re.Match[str], page_text: str, expected: str) -> Assertion:
        text = value.string
        quote_end = len(match.before) + len(match.normalized)
        shared = _SHARED_UNIT.match(text, value.end())  # a range or an arrow shares its unit, inside the quote or on
        at = shared.end() if shared else value.end()
        for symbol in self.symbols:
            hit = re.compile(r"\s*" + unit_pattern(symbol, after_value=True).pattern).match(text, at)
            if hit:
                where = ("in the quoted text" if hit.end() <= quote_end else
                         f"on page {self.page} just after the quoted text, in the sentence the quote comes from")
                return self._result(expected, True, self.page, text[value.start():hit.end()],
                                    f"'{symbol}' printed with '{self.value}' {where}")
        word = _NEXT_WORD.match(text, at)
        other = _unit_printed(word.group(1)) if word else None
        if word and other == str(self.unit):  # another form of the record's own unit ('%' for 'percent')
            return self._result(expected, True, self.page, text[value.start():word.end()],
                                f"'{word.group(1)}' ({other}) printed with '{self.value}'")
        if word and other is not None:  # the witness: another unit printed with the value
            printed = text[value.start():word.end()]
            return self._result(expected, False, self.page, printed,
                                f"the page prints '{printed}' ({other}), not {expected}; "
                                "correct the record's unit (or unit_detail) to the printed one")
        sentence = match.before[match.before.rfind(". ") + 1:] + match.normalized + match.after.split(". ")[0]
        declared = declared_unit(sentence, self.symbols)
        if declared is not None:
            return self._result(expected, True, self.page, match.shown,
                                f"'{declared}' printed in the citing sentence as the unit of what it reports")
        fix = ("quote the text that prints the value with its unit, or cite (unit_detail) where the page says it; "
               "where the page never says it, the unit is the record's own reading")
        for symbol in self.symbols:
            if unit_pattern(symbol).search(match.normalized):
                return self._unprinted(expected, self.page, (
                    f"unit not printed with the value: '{symbol}' is printed in the quoted text with another number, "
                    f"not with '{self.value}'; {fix}"), match.shown)
        on_page = normalize(page_text).text
        for symbol in self.symbols:
            if unit_pattern(symbol).search(on_page):
                return self._unprinted(expected, self.page, (
                    f"unit not printed with the value: '{symbol}' is printed on page {self.page}, but not with "
                    f"'{self.value}' nor in the citing sentence; {fix}"), match.shown)
        return self._unprinted(expected, self.page, (
            f"unit not printed on the page: no {expected} is printed with '{self.value}' on page {self.page}; {fix}"),
            match.shown)


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


# -- claims from records ---------------------------------------------------------------------------


def _citing(citations: list[Citation], value: str) -> Citation:
    """The citation whose quote prints ``value`` (the first one if none does: its check then fails)."""
    pattern = number_pattern(value)
    return next((c for c in citations if pattern.search(normalize_quote(c.quote))), citations[0])


@dataclass(frozen=True)
class UnitDetailAgrees(Claim):
    """A result's unit_detail 'Printed as <form>' must name a form of the result's own unit, not of another one
    (also where the unit has no printed form: a count 'Printed as Sequences/s' is a throughput)."""

    unit: str
    form: str
    reads_text: ClassVar[bool] = False

    def check(self, doc: Extraction) -> Assertion:
        expected = f"'{self.form}' is how {self.unit} is printed"
        if not detail_disagrees(self.form, self.unit):
            return self._result(expected, True, detail=f"unit_detail says the unit is printed as '{self.form}'")
        others = other_units_printed_as(self.form, self.unit)
        known = printed_forms(self.unit)
        whose = f", which is how {' or '.join(others)} is printed" if others else ""
        own = f"printed as {', '.join(known)}" if known else "printed without a unit"
        return self._result(expected, False, detail=(
            f"unit_detail says the unit is printed as '{self.form}'{whose}; the unit {self.unit} is {own}: correct "
            "the record's unit (or unit_detail) to the printed one"))


def detail_disagrees(form: str, unit: str) -> bool:
    """Whether 'Printed as <form>' cannot be how ``unit`` is printed: not one of its forms, where it has forms, or
    a form of another unit only, where it has none (a dimensionless score 'Printed as MCC' is left alone)."""
    known = printed_forms(unit)
    return form not in known and own_form_in(form, unit) is None and bool(known or other_units_printed_as(form, unit))


def unit_symbols(result: Result) -> tuple[tuple[str, ...], list[Claim]]:
    """The forms the result's unit may be printed in, and the claim that unit_detail and unit agree. A phrase an
    older record quotes whole ("Printed as 'in percent'") is read with the unit's own form in it ('percent')."""
    symbol = result.unit_form
    if symbol is None:
        return printed_forms(result.unit), []
    agree: list[Claim] = []
    if detail_disagrees(symbol, result.unit):
        agree.append(UnitDetailAgrees(result.id, "unit detail = unit", str(result.unit), symbol))
    own = own_form_in(symbol, result.unit)
    return ((symbol, own) if own else (symbol,)), agree


def _unit_claims(result: Result, cited: Citation) -> list[Claim]:
    symbols, agree = unit_symbols(result)
    if not symbols and not unit_symbol(result.unit):
        return []  # a dimensionless score or a count is printed without a unit: nothing to check
    if symbols:
        return [*agree, UnitWithValue(result.id, "unit", cited.page, cited.quote, result.printed_value, result.unit,
                                      symbols)]
    return [CannotCheck(result.id, "unit", str(result.unit),
                        f"no printed form of the unit {str(result.unit)!r} is known, and neither unit_printed nor "
                        f"unit_detail says how the page prints it: write it as printed in unit_printed (for example "
                        f"'ms')")]
