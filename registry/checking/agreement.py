"""Every claim checked against both readings of the PDF, and where the two extractors disagree.

A claim that reads the text is checked once with the primary reading (pypdf's text, PDFium's
words) and once with poppler's. It passes only when both pass: a value one parser reads in the
cell and the other does not is a doubt, and a 'source-checked' review is not written over a doubt.
Either way, the assertion keeps the second extractor's verdict (``Assertion.second``) and, where
they disagree, its detail says so. A claim one extractor could not check (its table, row or column
unreadable there) is never a pass: it fails where the other found the cell holding something else,
and cannot be checked otherwise. A cited row or column printed nowhere in a table both extractors read
alike (``Assertion.absent`` from each, the same rows and columns named, compared squeezed), or a table cited on a
page whose caption both find on other pages alike, fails: the two readings are the witness. A unit one
extractor finds nowhere near the value ('unit not printed') is no pass either, and no failure: a text without
spaces between its words (pypdf's, at times) fails nothing that the other passes.
Claims that read no text (records compared with each other, the PDF's metadata, recomputed numbers) are
checked once.
"""

from __future__ import annotations

import dataclasses

from registry.checking.claims import FAIL, Assertion, Claim, Opinion
from review.pdf.extract import Readings
from review.pdf.words import squeezed


def check_readings(claims: list[Claim], readings: Readings) -> list[Assertion]:
    return [check_both(claim, readings) for claim in claims]


def check_both(claim: Claim, readings: Readings) -> Assertion:
    first = claim.check(readings.primary)
    second = readings.second
    if second is None:
        return first
    if not claim.reads_text:
        return dataclasses.replace(first, second=Opinion(second.extractor, None, detail="reads no text"))
    other = claim.check(second)
    opinion = Opinion(second.extractor, other.passed, other.matched, other.detail, other.unreadable)
    first = dataclasses.replace(first, first=Opinion(readings.primary.extractor, first.passed, first.matched,
                                                     first.detail, first.unreadable))
    name = second.extractor.split(" ")[0]
    if first.outcome == other.outcome:
        if first.absent and other.absent and _alike(first.detail, other.detail):  # both read the table alike
            return dataclasses.replace(first, unreadable=False, absent=False, second=opinion,
                                       detail=f"{first.detail}; {name} reads the same {_what(first.detail)}")
        return dataclasses.replace(first, second=opinion)
    if first.unprinted or other.unprinted:  # neither a pass nor a failure of the value, nor made one by the other
        return _unprinted(first, other, opinion, name)
    if other.unreadable and first.outcome != FAIL:  # a pass one extractor cannot confirm is no pass
        return dataclasses.replace(first, passed=False, unreadable=True, second=opinion,
                                   detail=f"{first.detail}; but {name} cannot read it: {other.detail}" if first.detail
                                   else f"{name} cannot read it: {other.detail}")
    if first.unreadable:
        if other.passed:
            return dataclasses.replace(first, second=opinion,
                                       detail=f"{first.detail}; {name} reads '{other.matched}' there and passes it "
                                              "(the extractors disagree)")
        return dataclasses.replace(first, unreadable=False, matched=other.matched, found=other.found,
                                   second=opinion, detail=f"{name} reads the cell: {other.detail}; the primary "
                                                          f"extractor cannot read it: {first.detail}")
    if first.passed:
        detail = f"{first.detail}; but {name} disagrees: {other.detail}" if first.detail else (
            f"{name} disagrees: {other.detail}")
        return dataclasses.replace(first, passed=False, detail=detail, second=opinion)
    found = f"'{other.matched}'" if other.matched else "it"
    return dataclasses.replace(first, detail=f"{first.detail}; {name} reads {found} there and passes it "
                               "(the extractors disagree)", second=opinion)


def _alike(first: str, second: str) -> bool:
    """Whether two extractors' accounts of what a table holds name the same rows and columns: compared squeezed, so
    that one extractor's spacing inside a label ('M 2' for 'M2') is no disagreement."""
    return squeezed(first).lower() == squeezed(second).lower()


def _what(detail: str) -> str:
    """What the two extractors read alike, for a witness's message: a table's rows and columns, or the pages that
    print a table's caption (a wrong page)."""
    return "rows and columns" if "; read " in detail else "captions on the same pages"


def _unprinted(first: Assertion, other: Assertion, opinion: Opinion, name: str) -> Assertion:
    """One extractor finds the unit nowhere near the value: a failure the other reads stands (a unit of another
    kind printed with the value is a witness), a cell the other cannot read cannot be checked, and otherwise the
    unit is not printed (a pass the other cannot confirm is no pass)."""
    if first.outcome == FAIL:
        return dataclasses.replace(first, second=opinion)
    if other.outcome == FAIL or other.unreadable and not first.unprinted:
        return dataclasses.replace(first, passed=False, unreadable=other.unreadable, unprinted=False,
                                   matched=other.matched, found=other.found, second=opinion,
                                   detail=f"{name}: {other.detail}; the primary extractor: {first.detail}")
    if first.unprinted:
        return dataclasses.replace(first, second=opinion, detail=f"{first.detail}; {name}: {other.detail}")
    return dataclasses.replace(first, passed=False, unprinted=True, second=opinion,
                               detail=f"{first.detail}; but {name} finds no unit: {other.detail}")


def disagreements(assertions: list[Assertion]) -> list[Assertion]:
    """The assertions on which the two extractors gave different verdicts."""
    return [a for a in assertions if a.second is not None and a.second.passed is not None
            and a.second.passed != _primary_passed(a)]


def _primary_passed(assertion: Assertion) -> bool:
    """The primary's own verdict: an assertion failed only because the second disagreed was a primary pass."""
    if assertion.second is None or assertion.second.passed is None:
        return assertion.passed
    return assertion.passed or not assertion.second.passed and (
        "disagrees:" in assertion.detail or " cannot read it:" in assertion.detail)
