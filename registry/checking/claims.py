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
be checked. Which of these claims a record makes is ``registry.checking.dispatch``'s to say. This module holds what
every claim shares (``Claim``, the ``Assertion`` it checks to, each extractor's ``Opinion``, the verdicts, the
locator's ``Citation``); the claims on a page's text are in ``registry.checking.text_claims``, those on the unit
printed with a value in ``registry.checking.value_units``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from registry.checking.witnesses import Witness
from registry.models import Record
from registry.models.values import Locator
from review.errors import NotCheckableError
from review.pdf.matching import normalize_quote, number_pattern
from review.pdf.pdftext import Extraction

GRAMMAR = "'page: N' and 'quote: <quoted text>'"


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
    nowhere in it. A failure where both extractors say so (``registry.checking.agreement``), never on one
    reading alone."""
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


# -- claims from records ---------------------------------------------------------------------------


def _citing(citations: list[Citation], value: str) -> Citation:
    """The citation whose quote prints ``value`` (the first one if none does: its check then fails)."""
    pattern = number_pattern(value)
    return next((c for c in citations if pattern.search(normalize_quote(c.quote))), citations[0])


