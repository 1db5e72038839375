"""Every claim checked against both readings of the PDF, and where the two extractors disagree.

A claim that reads the text is checked once with the primary reading (pypdf's text, PDFium's
words) and once with poppler's. It passes only when both pass: a value one parser reads in the
cell and the other does not is a doubt, and a 'source-checked' review is not written over a doubt.
Either way, the assertion keeps the second extractor's verdict (``Assertion.second``) and, where
they disagree, its detail says so. Claims that read no text (records compared with each other,
the PDF's metadata, recomputed numbers) are checked once.
"""

from __future__ import annotations

import dataclasses

from review.claims import Assertion, Claim, Opinion
from review.extract import Readings


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
    opinion = Opinion(second.extractor, other.passed, other.matched, other.detail)
    if first.passed == other.passed:
        return dataclasses.replace(first, second=opinion)
    name = second.extractor.split(" ")[0]
    if first.passed:
        detail = f"{first.detail}; but {name} disagrees: {other.detail}" if first.detail else (
            f"{name} disagrees: {other.detail}")
        return dataclasses.replace(first, passed=False, detail=detail, second=opinion)
    found = f"'{other.matched}'" if other.matched else "it"
    return dataclasses.replace(first, detail=f"{first.detail}; {name} reads {found} there and passes it "
                               "(the extractors disagree)", second=opinion)


def disagreements(assertions: list[Assertion]) -> list[Assertion]:
    """The assertions on which the two extractors gave different verdicts."""
    return [a for a in assertions if a.second is not None and a.second.passed is not None
            and a.second.passed != _primary_passed(a)]


def _primary_passed(assertion: Assertion) -> bool:
    """The primary's own verdict: an assertion failed only because the second disagreed was a primary pass."""
    if assertion.second is None or assertion.second.passed is None:
        return assertion.passed
    return assertion.passed or not assertion.second.passed and "disagrees:" in assertion.detail
