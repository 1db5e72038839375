"""Each witness's verdict on the page, side by side and never merged (``registry.status.witnesses``).

- A review's page: 'Claims, witness by witness': one row per claim it checked, the review's verdict on it, then
  one column per witness (each PDF extractor, the source document), each with its own verdict and what it read.
- A record's page: one 'Witness' line per witness of its current reviews, with its kind, its name and version,
  and its verdict over the claims it read (in the technical metadata, under the review lines).
"""

from __future__ import annotations

from registry.models import Review
from registry.models.checks import CheckedClaim, WitnessKind
from registry.page.blocks import Column, Content, Paragraph, Piece, Section, Style, Table, plain
from registry.status.witnesses import KIND_NAMES, claim_witnesses, first_extractor, witness_verdicts
from registry.store.loader import Registry

CLAIMS_TITLE = "Claims, witness by witness"
CLAIMS_INTRO = ("Each witness read the record's claims on its own: the PDF's text by each extractor, and the "
                "document's own source where the source record pins it. Their verdicts stand side by side; the "
                "review's verdict is given apart, never in place of theirs.")


def witness_lines(registry: Registry, record_id: str) -> list[tuple[str, Content]]:
    """The record's witnesses as field rows: ('Witness (source)', "the source paper.tex (pylatexenc 2.10): pass
    (4 claims)")."""
    return [(f"Witness ({_kind(v.kind)})", plain(v.text)) for v in witness_verdicts(registry, record_id)]


def claims_section(review: Review) -> tuple[Section, ...]:
    """A review's claims with each witness's verdict in a column of its own (none where it lists no claims)."""
    if not review.claims:
        return ()
    names: list[tuple[WitnessKind, str]] = []
    extractor = first_extractor(review)
    for claim in review.claims:
        for kind, name, _ in claim_witnesses(claim, extractor):
            if (kind, name) not in names:
                names.append((kind, name))
    columns = (Column("Claim"), Column("Record says"), Column("Review's verdict"),
               *(Column(f"{_kind(kind)} witness: {name}") for kind, name in names))
    rows = tuple(_row(claim, names, extractor) for claim in review.claims)
    return (Section(CLAIMS_TITLE, (Paragraph(plain(CLAIMS_INTRO), Style.NOTE),
                                   Table(columns, rows, title=f"{len(rows)} claims", lines=True, expand=True))),)


def _row(claim: CheckedClaim, names: list[tuple[WitnessKind, str]], extractor: str) -> tuple[Content, ...]:
    said = {(kind, name): verdict for kind, name, verdict in claim_witnesses(claim, extractor)}
    read = {(w.kind, w.witness): w.read or claim.printed for w in claim.witnesses}
    page = f" (page {claim.page})" if claim.page else ""
    cells: list[Content] = [plain(f"{claim.claim}{page}"), plain(claim.asserted),
                            plain(claim.verdict.value.replace("-", " "))]
    for key in names:
        verdict = said.get(key)
        if verdict is None:
            cells.append((Piece("did not read it", Style.NOTE),))
            continue
        what = read.get(key)
        cells.append(plain(f"{verdict.value.replace('-', ' ')}{f': read {what!r}' if what else ''}"))
    return tuple(cells)


def _kind(kind: WitnessKind) -> str:
    """'PDF' or 'Source', as a column or a line names a witness's kind."""
    return "PDF" if kind is WitnessKind.PDF_TEXT else KIND_NAMES[kind].capitalize()
