"""What a value is, the project's central rule, decided once: transcribed, source checked, measured or estimated.

A transcribed record's values are source checked when a review of the pinned file grants it ('source checked', or
'source checked (no artifact hash)' where no such review names the file it checked: a check nobody can repeat is
never shown like one they can); otherwise they are only transcribed. Our own runs are measured or estimated, by
their method. The pages (``registry.page.display`` words the tags), the SQL views (``registry.db.views``, whose SQL
applies the same rule; a test keeps the two equal) and the exports read it from here, and never merge two of
these into one number.
"""

from __future__ import annotations

from enum import StrEnum

from measure.outcome import Method
from registry.models import Evidence, Record, Reproduction, Review
from registry.models.records import ReviewStatus
from registry.per_registry import memo
from registry.store.loader import Registry


class Provenance(StrEnum):
    """What a value is. Pages never merge two of these into one number."""

    TRANSCRIBED = "transcribed"
    """Read off the source by a curator; no review has checked it against the pinned file."""
    SOURCE_CHECKED = "source-checked"
    """Transcribed, and a review checked it against the pinned source file."""
    MEASURED = "measured"
    """Measured by us on named hardware."""
    ESTIMATED = "estimated"
    """Estimated by us without the hardware (for example on a CPU, under fake tensors)."""


#: What each provenance means, in the words a page's 'What backs these values' uses.
MEANING = {
    Provenance.TRANSCRIBED: "Read off the source by a curator; no review has checked it against the pinned file.",
    Provenance.SOURCE_CHECKED: "Transcribed, and a review checked it against the pinned source file. Source checking "
                               "is not independent reproduction.",
    Provenance.MEASURED: "Measured by us on the hardware named.",
    Provenance.ESTIMATED: "Estimated by us without the hardware (for example on a CPU, under fake tensors); a "
                          "prediction, not a measurement.",
}

#: What our own runs' values are, by method.
RUN_PROVENANCE = {Method.MEASURED: Provenance.MEASURED, Method.ESTIMATED: Provenance.ESTIMATED}

STATUS_LABELS = {ReviewStatus.SOURCE_CHECKED: "source checked", None: "not reviewed"}
UNVERIFIABLE_NOTE = "(no artifact hash)"


def provenance_of(registry: Registry, record: Record) -> Provenance | None:
    """What a record's values are: source checked or transcribed (a record read off a source), measured or
    estimated (our run); None for the kinds that hold no value of either (reviews, releases, recipes)."""
    if isinstance(record, Reproduction):
        return RUN_PROVENANCE[record.method]
    if not type(record).transcribed:
        return None
    if review_status(registry, record.id) is ReviewStatus.SOURCE_CHECKED:
        return Provenance.SOURCE_CHECKED
    return Provenance.TRANSCRIBED


def checking_reviews(registry: Registry, record_id: str) -> list[Review]:
    """The reviews that grant the record 'source checked': what backs its values."""
    return [r for r in reviews_of(registry, record_id) if r.status is ReviewStatus.SOURCE_CHECKED]


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
    """The strongest status any review grants the record (None: not reviewed)."""
    statuses = {review.status for review in reviews_of(registry, record_id)}
    return ReviewStatus.SOURCE_CHECKED if ReviewStatus.SOURCE_CHECKED in statuses else None


def status_label(registry: Registry, record_id: str) -> str:
    """'source checked', 'not reviewed', or, where no granting review names the file it checked,
    'source checked (no artifact hash)': a check nobody can repeat is never shown like one they can."""
    cache = memo(registry, "status_label")  # asked dozens of times per record by a site build
    if record_id not in cache:
        cache[record_id] = _status_label(registry, record_id)
    return cache[record_id]  # type: ignore[no-any-return]


def _status_label(registry: Registry, record_id: str) -> str:
    status = review_status(registry, record_id)
    if status is ReviewStatus.SOURCE_CHECKED and not any(
        review.artifact_sha256 for review in reviews_of(registry, record_id)
        if review.status is ReviewStatus.SOURCE_CHECKED
    ):
        return f"{STATUS_LABELS[status]} {UNVERIFIABLE_NOTE}"
    return STATUS_LABELS[status]
