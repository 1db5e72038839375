"""What a page says about a value beyond its number: the review's verdict with what the page printed, what people
said of it, and its review history. The words come from ``registry.status.standing``; this module only lays them
out (for the terminal and the site alike)."""

from __future__ import annotations

from registry.models import Record, Review
from registry.page.blocks import Block, Content, Items, Paragraph, Piece, Section, Style, plain
from registry.status import provenance
from registry.status.standing import attestation_words, standing_of
from registry.store.loader import Registry

#: The section's title.
STANDING = "What the registry says about this value"


def standing_section(registry: Registry, record: Record) -> Section:
    """Every fact of the record's standing, each apart: the review (with each claim a failed review did not pass and
    what the page showed), each attestation (a dispute's value is the disputer's, never the record's), its version
    and our runs; then every review of it, the superseded ones marked as history."""
    standing = standing_of(registry, record)
    items: list[Content] = [plain(f"Review: {standing.review_label}")]
    items += [(Piece(f"  {finding.words} (review "), Piece(finding.review, link=finding.review), Piece(")"))
              for finding in standing.findings]
    items += [(Piece(attestation_words(a) + " ("), Piece(a.id, link=a.id), Piece(")")) for a in standing.attestations]
    if standing.version_note:
        items.append(plain(standing.version_note))
    blocks: list[Block] = [Items(tuple(items))]
    if standing.findings:
        blocks.insert(0, Paragraph(plain(f"{standing.review_label.capitalize()}: what the page printed is listed "
                                         "claim by claim below; the value shown above is the transcription, not "
                                         "checked."), Style.STRONG))
    if any(a.believed_value for a in standing.attestations):
        blocks.append(Paragraph(plain("A disputed value is the disputer's belief, shown beside the value; it is "
                                      "never used as the value."), Style.NOTE))
    history = review_history(registry, record.id)
    if history:
        blocks.append(Paragraph(plain("Reviews, latest first:"), Style.NOTE))
        blocks.append(Items(tuple(history)))
    return Section(STANDING, tuple(blocks))


def review_history(registry: Registry, record_id: str) -> list[Content]:
    """Each review of the record: its status, who and when, and, for one a later review superseded, which."""
    reviews = provenance.reviews_of(registry, record_id)
    current = {review.id for review in provenance.current_reviews(registry, record_id)}
    later = {old: review.id for review in reviews for old in review.supersedes}
    rows: list[Content] = []
    for review in sorted(reviews, key=_when, reverse=True):
        when = review.reviewed_at.isoformat().replace("+00:00", "Z") if review.reviewed_at else "undated"
        status = provenance.STATUS_LABELS[review.status]
        end = "" if review.id in current else f"; superseded by {later.get(review.id, 'a later review')}"
        rows.append((Piece(review.id, link=review.id),
                     Piece(f": {status} ({review.reviewer or 'reviewer not recorded'}, {when}){end}")))
    return rows


def _when(review: Review) -> tuple[bool, str, str]:
    return (review.reviewed_at is not None, review.reviewed_at.isoformat() if review.reviewed_at else "", review.id)
