"""The rules of what backs a value: a review checked the pinned file of the source its subjects come from,
before it was made no review; an evidence row cites a review of its subject and states what the result prints."""

from __future__ import annotations

import datetime as dt

from registry.issues import codes
from registry.models import Evidence, Result, Review
from registry.models.fields import utc_day
from registry.models.records import EvidenceProperty, ReviewStatus
from registry.textsafe import excerpt
from registry.validate.rules.attestations import review_supersedes
from registry.validate.rules.sources import sources_of
from registry.validate.rules_registry import RecordCheck, kind_rules


@kind_rules.register
def _review_source(review: Review, check: RecordCheck) -> None:
    source = check.registry.records.get(review.source)
    pinned = getattr(source, "sha256", None)
    if review.artifact_sha256 is not None and pinned is not None and review.artifact_sha256 != pinned:
        check.add(codes.REVIEW_HASH_MISMATCH,
                  f"the review checked a file with SHA-256 {review.artifact_sha256}, but the source pins "
                  f"{pinned}; a review of another file cannot source-check these records", ("artifact_sha256",))
    if review.status is ReviewStatus.SOURCE_CHECKED and review.artifact_sha256 is None:
        check.add(codes.REVIEW_UNVERIFIABLE,
                  "this review grants 'source-checked' but names no artifact hash, so nobody can tell which "
                  "file it checked", ("status",))
    made = getattr(source, "pdf_creation_date", None)
    if review.reviewed_at is not None and made is not None and utc_day(review.reviewed_at) < made - dt.timedelta(1):
        check.add(codes.REVIEW_BEFORE_SOURCE,  # a day's leeway: a PDF's CreationDate is a day in its maker's zone
                  f"the review is dated {review.reviewed_at.isoformat()}, before the pinned PDF was made (CreationDate "
                  f"{made.isoformat()}), so it cannot have checked that file; correct reviewed_at, or the source's "
                  "pdf_creation_date", ("reviewed_at",))
    url = getattr(source, "retrieval_url", None)
    if review.retrieval_url is not None and url is not None and review.retrieval_url != url:
        check.add(codes.REVIEW_URL_MISMATCH,
                  f"the review retrieved {review.retrieval_url}, the source names {url}", ("retrieval_url",))
    for index, subject_id in enumerate(review.subjects):
        subject = check.registry.records.get(subject_id)
        cited = sources_of(subject, check.registry) if subject is not None else set()
        if cited and review.source not in cited:
            check.add(codes.REVIEW_SUBJECT_MISMATCH,
                      f"{excerpt(subject_id)} comes from {', '.join(excerpt(c) for c in sorted(cited))}, but this "
                      "review "
                      f"checked {excerpt(review.source)}; a review can only source-check records of the source it read",
                      ("subjects", index))
    review_supersedes(review, check)


@kind_rules.register
def _evidence_statement(evidence: Evidence, check: RecordCheck) -> None:
    review = check.registry.records.get(evidence.review)
    if isinstance(review, Review):
        if evidence.subject not in review.subjects:
            check.add(codes.EVIDENCE_REVIEW_MISMATCH,
                      f"the row cites review {review.id!r}, which did not check {excerpt(evidence.subject)}; cite the "
                      f"review that lists it among its subjects", ("review",))
        if evidence.source != review.source:
            check.add(codes.EVIDENCE_REVIEW_MISMATCH,
                      f"the row cites {excerpt(evidence.source)}, but its review checked {excerpt(review.source)}",
                      ("source",))
    subject = check.registry.records.get(evidence.subject)
    if evidence.property is EvidenceProperty.REPORTED_RESULT and isinstance(subject, Result):
        if evidence.statement != subject.printed_value:
            check.add(codes.EVIDENCE_STATEMENT_MISMATCH,
                      f"the row states {excerpt(evidence.statement)} but its result prints "
                      f"{excerpt(subject.printed_value)}",
                      ("statement",))
