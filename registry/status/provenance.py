"""What a value is, the project's central rule, decided once: transcribed, source checked (against the PDF, or
against the source document only), review failed, could not be checked, measured or estimated.

A transcribed record's status is its current reviews' (those no later review of it supersedes): a review that
failed, unless a later one supersedes it, is never hidden by one that passed; then one that could not check; then
'source checked' ('source checked (no artifact hash)' where no such review names the file it checked: a check
nobody can repeat is never shown like one they can). A record no review names is only transcribed. Our own runs
are measured or estimated, by their method. The pages (``registry.page.display`` words the tags), the SQL views
(``registry.db.views``, whose SQL applies the same rule; a test keeps the two equal) and the exports read it from
here, and never merge two of these into one number. ``registry.status.standing`` adds what people said of the
value (attestations) and where it stands in its chain of versions.
"""

from __future__ import annotations

from enum import StrEnum

from measure.outcome import Method
from registry.models import Evidence, Record, Reproduction, Review
from registry.models.checks import ClaimVerdict, WitnessKind
from registry.models.records import ReviewStatus
from registry.per_registry import memo
from registry.store.loader import Registry


class Provenance(StrEnum):
    """What a value is. Pages never merge two of these into one number."""

    TRANSCRIBED = "transcribed"
    """Read off the source by a curator; no review has checked it against the pinned file."""
    SOURCE_CHECKED = "source-checked"
    """Transcribed, and a review checked it against the pinned PDF."""
    SOURCE_ONLY = "checked-against-source-only"
    """Transcribed, and a review checked it against the source document (LaTeX, JATS, ...), not the PDF's text."""
    REVIEW_FAILED = "review-failed"
    """Transcribed, and the review found the pinned file printing something else."""
    NOT_CHECKABLE = "could-not-be-checked"
    """Transcribed, and the review could not read what it rests on (a table, row or column)."""
    MEASURED = "measured"
    """Measured by us on named hardware."""
    ESTIMATED = "estimated"
    """Estimated by us without the hardware (for example on a CPU, under fake tensors)."""


#: What each provenance means, in the words a page's 'What backs these values' uses.
MEANING = {
    Provenance.TRANSCRIBED: "Read off the source by a curator; no review has checked it against the pinned file.",
    Provenance.SOURCE_CHECKED: "Transcribed, and a review checked it against the pinned source file. Source checking "
                               "is not independent reproduction.",
    Provenance.SOURCE_ONLY: "Transcribed, and a review checked it against the source document the PDF was made from, "
                            "but not against the PDF's text.",
    Provenance.REVIEW_FAILED: "Transcribed, but the review found the pinned file printing something else (what it "
                              "printed is shown).",
    Provenance.NOT_CHECKABLE: "Transcribed; the review could not read the table, row or column the value rests on, "
                              "so it is neither checked nor found wrong.",
    Provenance.MEASURED: "Measured by us on the hardware named.",
    Provenance.ESTIMATED: "Estimated by us without the hardware (for example on a CPU, under fake tensors); a "
                          "prediction, not a measurement.",
}

#: What our own runs' values are, by method.
RUN_PROVENANCE = {Method.MEASURED: Provenance.MEASURED, Method.ESTIMATED: Provenance.ESTIMATED}

STATUS_LABELS = {ReviewStatus.SOURCE_CHECKED: "source checked", ReviewStatus.REVIEW_FAILED: "review failed",
                 ReviewStatus.NOT_CHECKABLE: "could not be checked", None: "not reviewed"}
#: Which of a record's current reviews decides its status: a failure no later review superseded first, then one
#: that could not check, then a pass. Every status is listed (a test checks it).
STATUS_PRECEDENCE: tuple[ReviewStatus, ...] = (ReviewStatus.REVIEW_FAILED, ReviewStatus.NOT_CHECKABLE,
                                               ReviewStatus.SOURCE_CHECKED)
#: What a transcribed record's values are, by its review status.
REVIEW_PROVENANCE = {ReviewStatus.SOURCE_CHECKED: Provenance.SOURCE_CHECKED,
                     ReviewStatus.REVIEW_FAILED: Provenance.REVIEW_FAILED,
                     ReviewStatus.NOT_CHECKABLE: Provenance.NOT_CHECKABLE, None: Provenance.TRANSCRIBED}
UNVERIFIABLE_NOTE = "(no artifact hash)"
SOURCE_ONLY_LABEL = "checked against the source only"


def provenance_of(registry: Registry, record: Record) -> Provenance | None:
    """What a record's values are: source checked or transcribed (a record read off a source), measured or
    estimated (our run); None for the kinds that hold no value of either (reviews, releases, recipes)."""
    if isinstance(record, Reproduction):
        return RUN_PROVENANCE[record.method]
    if not type(record).transcribed:
        return None
    status = review_status(registry, record.id)
    if status is ReviewStatus.SOURCE_CHECKED and all(
            source_only(review) for review in deciding_reviews(registry, record.id)):
        return Provenance.SOURCE_ONLY
    return REVIEW_PROVENANCE[status]


def source_only(review: Review) -> bool:
    """Whether a passing review rests on the source document alone for some claim: no reading of the PDF's text
    passed it, the source document's did."""
    return any(
        not any(w.kind is WitnessKind.PDF_TEXT and w.verdict is ClaimVerdict.PASS for w in claim.witnesses)
        and any(w.kind is WitnessKind.SOURCE_DOCUMENT and w.verdict is ClaimVerdict.PASS for w in claim.witnesses)
        for claim in review.claims)


def checking_reviews(registry: Registry, record_id: str) -> list[Review]:
    """The current reviews that grant the record 'source checked': what backs its values."""
    return [r for r in current_reviews(registry, record_id) if r.status is ReviewStatus.SOURCE_CHECKED]


def current_reviews(registry: Registry, record_id: str) -> list[Review]:
    """The reviews of the record that no other review of it supersedes (the others are its review history)."""
    reviews = reviews_of(registry, record_id)
    superseded = {old for review in reviews for old in review.supersedes}
    return [review for review in reviews if review.id not in superseded]


def deciding_reviews(registry: Registry, record_id: str) -> list[Review]:
    """The current reviews whose status is the record's (``STATUS_PRECEDENCE``): what a page cites for it."""
    status = review_status(registry, record_id)
    return [r for r in current_reviews(registry, record_id) if r.status is status]


def reviews_of(registry: Registry, record_id: str) -> list[Review]:
    """The reviews that check the record: those that list it among their subjects, and, for an evidence row,
    the review it names (its model: 'the review that checked this statement'). The database's
    ``record_review_status`` view applies the same rule (``registry.db.views.REVIEWS_OF``)."""
    reviews = registry.referrers(record_id, Review, "subjects")
    record = registry.records.get(record_id)
    if isinstance(record, Evidence):
        named = registry.records.get(record.review)
        if isinstance(named, Review) and named not in reviews:
            reviews.append(named)
    return reviews


def review_status(registry: Registry, record_id: str) -> ReviewStatus | None:
    """The record's status by its current reviews, first of ``STATUS_PRECEDENCE`` (None: not reviewed)."""
    statuses = {review.status for review in current_reviews(registry, record_id)}
    return next((status for status in STATUS_PRECEDENCE if status in statuses), None)


def status_label(registry: Registry, record_id: str) -> str:
    """'source checked', 'review failed', 'could not be checked', 'not reviewed'; 'checked against the source only'
    where the passing reviews rest on the source document, not the PDF; or, where no granting review names the file
    it checked, 'source checked (no artifact hash)': a check nobody can repeat is never shown like one they can."""
    cache = memo(registry, "status_label")  # asked dozens of times per record by a site build
    if record_id not in cache:
        cache[record_id] = _status_label(registry, record_id)
    return cache[record_id]  # type: ignore[no-any-return]


def _status_label(registry: Registry, record_id: str) -> str:
    status = review_status(registry, record_id)
    if status is ReviewStatus.SOURCE_CHECKED and all(source_only(r) for r in checking_reviews(registry, record_id)):
        return SOURCE_ONLY_LABEL
    if status is ReviewStatus.SOURCE_CHECKED and not any(
        review.artifact_sha256 for review in checking_reviews(registry, record_id)
    ):
        return f"{STATUS_LABELS[status]} {UNVERIFIABLE_NOTE}"
    return STATUS_LABELS[status]
