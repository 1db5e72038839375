"""The rules of what people and later reviews say about a record: a review supersedes only reviews of its own
subjects, and an author's correction names the correction that files it.

Registered on ``registry.validate.rules_registry`` (``kind_rules`` per kind); ``registry.validate.runner.RULE_MODULES``
lists this module. Each reports under a code declared in ``registry.issues.codes``.
"""

from __future__ import annotations

from registry.issues import codes
from registry.models import Attestation, Correction, Review
from registry.models.attestation import Stance
from registry.validate.rules_registry import RecordCheck, kind_rules


def review_supersedes(review: Review, check: RecordCheck) -> None:
    """A later review of a record supersedes the earlier reviews of that record, and nothing else (called by the
    review's own rule, ``registry.validate.rules.evidence``: a kind has one registered rule)."""
    for index, earlier_id in enumerate(review.supersedes):
        earlier = check.registry.records.get(earlier_id)
        if earlier_id == review.id:
            check.add(codes.REVIEW_SUPERSEDES_MISMATCH, "a review cannot supersede itself; name the earlier reviews "
                      "of its subject", ("supersedes", index))
        elif isinstance(earlier, Review) and not set(earlier.subjects) & set(review.subjects):
            check.add(codes.REVIEW_SUPERSEDES_MISMATCH,
                      f"{earlier_id!r} checked {', '.join(earlier.subjects)}, none of this review's subjects "
                      f"({', '.join(review.subjects)}); a review supersedes only earlier reviews of the same record",
                      ("supersedes", index))


@kind_rules.register
def _correction_of_the_subject(attestation: Attestation, check: RecordCheck) -> None:
    """An author's correction is filed as the registry files every correction: one superseding the attested value."""
    if attestation.stance is not Stance.CORRECTS or attestation.correction is None:
        return
    correction = check.registry.records.get(attestation.correction)
    if isinstance(correction, Correction) and correction.supersedes != attestation.subject:
        check.add(codes.ATTESTATION_CORRECTION_MISMATCH,
                  f"{correction.id!r} supersedes {correction.supersedes!r}, not the attested result "
                  f"{attestation.subject!r}; name the correction that supersedes {attestation.subject!r}, or file one",
                  ("correction",))
