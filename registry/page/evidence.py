"""The evidence section: the caveat, then one row per statement of evidence with its source and review.

A record's configuration and result pages both show it. Each row names what was checked against what: the
source's location and version, the review's status and methods, and the SHA-256 of the artifact it was
checked against (or why there is none).
"""

from __future__ import annotations

from registry.models import (
    Evidence,
    Record,
    Review,
    Source,
)
from registry.page import display as d
from registry.page.blocks import (
    Block,
    Column,
    Content,
    Paragraph,
    Piece,
    Section,
    Style,
    Table,
    plain,
)
from registry.store.loader import Registry


def evidence_blocks(registry: Registry, record_id: str) -> tuple[Block, ...]:
    """The evidence section as the seed pages have it: the caveat, then the evidence table under its introduction."""
    return (Paragraph(plain(d.EVIDENCE_CAVEAT), Style.NOTE),
            Section(d.EVIDENCE_TABLE_TITLE, (
                Paragraph(plain(d.EVIDENCE_TABLE_SUMMARY), Style.STRONG),
                Paragraph(plain(d.EVIDENCE_TABLE_INTRO)),
                Paragraph(plain(d.EVIDENCE_TABLE_ROWS)),
                *_evidence_table(registry, record_id),
            )))


def _evidence_table(registry: Registry, record_id: str) -> tuple[Block, ...]:
    rows = registry.referrers(record_id, Evidence, "subject")
    if not rows:
        return (Paragraph(plain(f"0 evidence rows {MATCHING}")), Paragraph(plain(d.EVIDENCE_NONE_MATCH), Style.NOTE))
    cells: list[tuple[Content, ...]] = []
    for row in rows:
        source = registry.get_as(row.source, Source)
        review = registry.get_as(row.review, Review)
        methods = ", ".join(m.value for m in review.methods) or "no methods recorded"
        reviewed_at = review.reviewed_at.isoformat().replace("+00:00", "Z") if review.reviewed_at else ""
        cells.append((
            (Piece(f"{d.label(row.property.value)} "),
             d.named_link(registry, row, row.statement, tag=d.record_tag(registry, row)),
             Piece(f"\n{d.label(row.claim_scope.value)}")),
            (Piece(source.citation, link=source.id), Piece(f"\n{row.source_locator.text}\nVersion: "
                                                           f"{source.version_statement}")),
            (d.named_link(registry, review, review.status.value.replace("-", " ")),
             Piece(f" {methods} · {reviewed_at} · {row.source_independence.value.replace('-', ' ')}\n"
                   f"Audit details: {review.note or ''}\n"
                   f"Field: {_or_missing(row, 'field')}\n"
                   f"Source artifact SHA-256: {_artifact_hash(row, review)}\n"
                   f"Hash scope: {_or_missing(row, 'hash_scope')}\n"
                   f"Extraction artifact SHA-256: {_or_missing(row, 'extraction_artifact_sha256')}")),
        ))
    return (Table(
        (Column("Property and statement"), Column("Original source and location"), Column("Review and provenance")),
        tuple(cells), title=f"{d.counted(rows, 'evidence row')} {MATCHING}", lines=True, expand=True,
        filter="evidence rows",
    ),)


#: What the evidence table's count says: the site's filter narrows it, and the count follows.
MATCHING = "matching the loaded filters"


def _artifact_hash(row: Evidence, review: Review) -> str:
    """The SHA-256 the row was checked against: its own, else the one its review pins, else why there is none."""
    if row.source_artifact_sha256 is None and review.artifact_sha256 is not None:
        return f"{review.artifact_sha256} (pinned by the review)"
    return _or_missing(row, "source_artifact_sha256")


def _or_missing(record: Record, field: str) -> str:
    value = getattr(record, field)
    return str(value) if value is not None else d.missing_phrase(record, field)
