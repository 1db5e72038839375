"""What the registry says about a value, in one place: every fact that bears on it, each kept apart.

A value is transcribed; checked against the PDF; checked against the source document only; found wrong by a
review (with what the page printed); not checkable (with why); confirmed by an author; disputed (by whom, for
what); corrected; retracted; reproduced (on what hardware) or estimated. These are not exclusive (a value can
be checked against the PDF, confirmed by an author and disputed by a reader), so a standing is the review's
verdict (``registry.status.provenance``), the attestations of people (``registry.models.attestation``), the
value's place in its chain of versions (``registry.status.versions``) and our own runs, each listed, never
merged into one word. Pages, ``registry show``, the SQL columns and the exports read the words from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from registry.models import Attestation, Record, Reproduction
from registry.models.attestation import Relation, Stance
from registry.models.checks import CheckedClaim, ClaimVerdict
from registry.models.records import Review
from registry.per_registry import memo
from registry.status import provenance, versions
from registry.status.provenance import Provenance
from registry.store.loader import Registry


class Fact(StrEnum):
    """One thing the registry says about a value: the tokens of the standing's facet (``Standing.facts``)."""

    TRANSCRIBED = "transcribed"
    CHECKED_AGAINST_PDF = "checked-against-pdf"
    CHECKED_AGAINST_SOURCE_ONLY = "checked-against-source-only"
    REVIEW_FAILED = "review-failed"
    COULD_NOT_BE_CHECKED = "could-not-be-checked"
    CONFIRMED_BY_AUTHOR = "confirmed-by-author"
    CONFIRMED = "confirmed"
    """Confirmed by a reader or curator (not an author)."""
    DISPUTED = "disputed"
    CORRECTED = "corrected"
    RETRACTED = "retracted"
    REPRODUCED = "reproduced"
    ESTIMATED = "estimated"


#: The fact each review provenance states.
REVIEW_FACTS = {
    Provenance.TRANSCRIBED: Fact.TRANSCRIBED,
    Provenance.SOURCE_CHECKED: Fact.CHECKED_AGAINST_PDF,
    Provenance.SOURCE_ONLY: Fact.CHECKED_AGAINST_SOURCE_ONLY,
    Provenance.REVIEW_FAILED: Fact.REVIEW_FAILED,
    Provenance.NOT_CHECKABLE: Fact.COULD_NOT_BE_CHECKED,
}


@dataclass(frozen=True)
class Finding:
    """A claim a deciding review did not pass: what was asserted, and what the source showed."""

    review: str
    claim: CheckedClaim

    @property
    def words(self) -> str:
        page = f" on page {self.claim.page}" if self.claim.page is not None else ""
        verdict = "failed" if self.claim.verdict is ClaimVerdict.FAIL else "could not be checked"
        return f"{self.claim.claim} {self.claim.asserted}{page} {verdict}: {self.claim.shown}"


@dataclass(frozen=True)
class Standing:
    """Everything the registry says about one record's value (see the module's docstring)."""

    record_id: str
    provenance: Provenance | None
    """The review's verdict for a transcribed record; measured or estimated for our own run; None otherwise."""
    review_label: str
    """The review status in the pages' words ('source checked', 'review failed', 'not reviewed', ...)."""
    findings: tuple[Finding, ...]
    """What a failed, or not checkable, review found: each claim it did not pass."""
    attestations: tuple[Attestation, ...]
    """What people said of the value, in id order."""
    version: versions.Status
    version_note: str
    """Who superseded or withdrew it, or ''."""
    runs: tuple[Reproduction, ...]
    """Our own runs of the value (measured or estimated), in id order."""

    def with_stance(self, stance: Stance) -> list[Attestation]:
        return [a for a in self.attestations if a.stance is stance]

    @property
    def facts(self) -> list[Fact]:
        """Every fact that holds, in the order of ``Fact``."""
        found: set[Fact] = set()
        if self.provenance in REVIEW_FACTS:
            found.add(REVIEW_FACTS[self.provenance])
        elif self.provenance is Provenance.MEASURED:
            found.add(Fact.REPRODUCED)
        elif self.provenance is Provenance.ESTIMATED:
            found.add(Fact.ESTIMATED)
        for attestation in self.with_stance(Stance.CONFIRMS):
            found.add(Fact.CONFIRMED_BY_AUTHOR if attestation.relation is Relation.AUTHOR else Fact.CONFIRMED)
        if self.with_stance(Stance.DISPUTES):
            found.add(Fact.DISPUTED)
        if self.version is versions.Status.SUPERSEDED or self.with_stance(Stance.CORRECTS):
            found.add(Fact.CORRECTED)
        if self.version is versions.Status.RETRACTED:
            found.add(Fact.RETRACTED)
        for run in self.runs:
            found.add(Fact.REPRODUCED if provenance.RUN_PROVENANCE[run.method] is Provenance.MEASURED
                      else Fact.ESTIMATED)
        return [fact for fact in Fact if fact in found]

    @property
    def statements(self) -> list[str]:
        """Each fact in words, with who, what and where: one line each."""
        lines = [self.review_label if self.provenance is not None else ""]
        if self.findings:
            lines[0] += ": " + "; ".join(finding.words for finding in self.findings)
        lines += [attestation_words(a) for a in self.attestations]
        if self.version is not versions.Status.CURRENT:
            lines.append(self.version_note)
        lines += [run_words(run) for run in self.runs]
        return [line for line in lines if line]

    @property
    def summary(self) -> str:
        """The statements on one line, as a table cell or an export's field holds them."""
        return "; ".join(self.statements)


def standing_of(registry: Registry, record: Record) -> Standing:
    """What the registry says about ``record``'s value (memoised per registry: a site build asks often)."""
    cache = memo(registry, "standing")
    if record.id not in cache:
        cache[record.id] = _standing(registry, record)
    return cache[record.id]  # type: ignore[no-any-return]


def _standing(registry: Registry, record: Record) -> Standing:
    kind = provenance.provenance_of(registry, record)
    label = provenance.status_label(registry, record.id) if type(record).transcribed else ""
    status = versions.status_of(registry, record.id)
    note = versions.version_note(registry, record.id) if status is not versions.Status.CURRENT else ""
    return Standing(
        record_id=record.id, provenance=kind, review_label=label, findings=tuple(findings(registry, record.id)),
        attestations=tuple(registry.referrers(record.id, Attestation, "subject")), version=status,
        version_note=note, runs=tuple(registry.referrers(record.id, Reproduction, "result")))


def findings(registry: Registry, record_id: str) -> list[Finding]:
    """The claims the reviews deciding the record's status did not pass (none where it passed or has no review)."""
    return [Finding(review.id, claim) for review in _failing(registry, record_id) for claim in review.claims
            if claim.verdict is not ClaimVerdict.PASS]


def _failing(registry: Registry, record_id: str) -> list[Review]:
    if provenance.review_status(registry, record_id) in (None, provenance.ReviewStatus.SOURCE_CHECKED):
        return []
    return provenance.deciding_reviews(registry, record_id)


#: How each relation is named in a statement.
RELATION_WORDS = {Relation.AUTHOR: "an author", Relation.READER: "a reader", Relation.CURATOR: "a curator"}


def attestation_words(attestation: Attestation) -> str:
    """'confirmed by an author (A. Author, 2026-12-01, link https://...): means the test split', and so on."""
    who = (f"{RELATION_WORDS[attestation.relation]} ({attestation.person}, {attestation.stated_at.date().isoformat()}"
           f", {attestation.channel.kind.value} {attestation.channel.reference})")
    if attestation.stance is Stance.CONFIRMS:
        return f"confirmed by {who}" + (f": {attestation.meaning}" if attestation.meaning else "")
    if attestation.stance is Stance.DISPUTES:
        return f"disputed by {who}, who believes {attestation.believed_value}: {attestation.reason}"
    return f"corrected by {who}, erratum {attestation.erratum}: filed as {attestation.correction}"


def run_words(run: Reproduction) -> str:
    """'reproduced by us on NVIDIA H100 (run <id>)' or 'estimated by us ...'."""
    verb = "reproduced" if provenance.RUN_PROVENANCE[run.method] is Provenance.MEASURED else "estimated"
    return f"{verb} by us on {run.hardware.name} ({run.outcome.value}; run {run.id})"
