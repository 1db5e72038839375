"""Which witness confirmed what: each witness's own verdict on a record's claims, never merged with another's.

A review checks a record's claims against the pinned PDF (read by two extractors, each a witness with its
version: 'pypdf 7.1.1', 'pdftotext 24.02.0') and, where the source record pins them, against the document's own
source ('the source paper.tex (pylatexenc 2.10)'). The review keeps each witness's verdict per claim
(``registry.models.checks.Witness``); this module gives them per record, as the site, ``registry show`` and the
exports show them:

- ``witness_verdicts``: for each witness of the record's current reviews, its kind (the PDF's text or the source
  document), its name with its version, and its verdict over the claims it read (the worst: a failure, else a
  claim it could not check, else a pass), with how many claims it read;
- ``witness_text``: the same in words, one kind at a time ('pypdf 7.1.1: pass (3 claims); pdftotext 24.02.0: pass
  (3 claims)'), as the exports write it.

A claim that only one extractor read (no witnesses recorded) is that extractor's (the review's first; 'the PDF'
where the review names none).
"""

from __future__ import annotations

from dataclasses import dataclass

from registry.models import Review
from registry.models.checks import CheckedClaim, ClaimVerdict, WitnessKind
from registry.status.provenance import current_reviews
from registry.store.loader import Registry

#: The order of verdicts from the worst: a witness's verdict over several claims is the worst of its verdicts.
WORST_FIRST = (ClaimVerdict.FAIL, ClaimVerdict.CANNOT_CHECK, ClaimVerdict.UNIT_NOT_PRINTED, ClaimVerdict.PASS)
#: How each kind of witness is named in the exports' columns and on the pages.
KIND_NAMES = {WitnessKind.PDF_TEXT: "pdf", WitnessKind.SOURCE_DOCUMENT: "source"}


@dataclass(frozen=True)
class WitnessVerdict:
    kind: WitnessKind
    witness: str
    """Who read it, with its version ('pypdf 7.1.1', "the source paper.typ (the registry's Typst reader 0.2.0)")."""
    verdict: ClaimVerdict
    claims: int
    """How many of the record's checked claims it read."""

    @property
    def text(self) -> str:
        return f"{self.witness}: {self.verdict.value.replace('-', ' ')} ({self.claims} claim{'s' * (self.claims != 1)})"


def claim_witnesses(claim: CheckedClaim, extractor: str = "") -> list[tuple[WitnessKind, str, ClaimVerdict]]:
    """Each witness of one claim with its own verdict; a claim one extractor read alone is the PDF's (named by
    ``extractor``, the review's first, where given)."""
    if not claim.witnesses:
        return [(WitnessKind.PDF_TEXT, extractor or "the PDF", claim.verdict)]
    return [(w.kind, w.witness, w.verdict) for w in claim.witnesses if w.verdict is not None]


def first_extractor(review: Review) -> str:
    return review.extractors[0] if review.extractors else ""


def witness_verdicts(registry: Registry, record_id: str) -> tuple[WitnessVerdict, ...]:
    """Each witness of the record's current reviews, with its verdict over the claims it read (module docstring)."""
    seen: dict[tuple[WitnessKind, str], list[ClaimVerdict]] = {}
    for review in current_reviews(registry, record_id):
        for claim in review.claims:
            for kind, name, verdict in claim_witnesses(claim, first_extractor(review)):
                seen.setdefault((kind, name), []).append(verdict)
    return tuple(WitnessVerdict(kind, name, next(v for v in WORST_FIRST if v in verdicts), len(verdicts))
                 for (kind, name), verdicts in seen.items())


def witness_text(registry: Registry, record_id: str, kind: WitnessKind) -> str:
    """The record's witnesses of one kind in words ('' where none read it)."""
    return "; ".join(v.text for v in witness_verdicts(registry, record_id) if v.kind is kind)


def witness_details(registry: Registry, record_id: str) -> dict[str, str]:
    """The record's witnesses as an export's fields, one per kind that read it ('pdf_witnesses',
    'source_witnesses'); none where no review read it."""
    out = {f"{KIND_NAMES[kind]}_witnesses": witness_text(registry, record_id, kind) for kind in KIND_NAMES}
    return {key: value for key, value in out.items() if value}
