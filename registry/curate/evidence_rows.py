"""The evidence rows an import files: one for each of the table's results that the given review checked.

``registry review --write`` files one review per checked record, so ``--review`` names one review or the part
of an id that the reviews of one run share ('pdf-check', '20261207-review'): each result gets its row from the
current source-checked review among them that lists it (a failed review, or one a later review superseded, checks
nothing a row could cite).
"""

from __future__ import annotations

from typing import Any

from registry.curate.filing import Filing
from registry.curate.new import complete_reference
from registry.curate.plan import Action
from registry.errors import RegistryError
from registry.ids import split_id
from registry.models import Evaluation, Evidence, Result, Review
from registry.models.records import Independence


def evidence(filing: Filing) -> None:
        """An evidence row for each of the table's results that the given review checked and that has none."""
        if filing.options.review is None:
            return
        new = sum(1 for p in filing.plan.written if p.action is Action.NEW and isinstance(p.staged.record, Result))
        if new:
            filing.plan.notes.append(f"{new} new result(s) get no evidence row yet: no review has checked them")
        given = filing.options.review.strip()
        named = _named(filing, given)
        for result_id, rows in filing.current_results.items():
            review = _checking(filing, named, result_id)
            if review is None:
                filing.plan.notes.append(f"row {rows[0]}: no current source-checked review among those {given!r} names "
                                         f"lists {result_id}: no evidence row")
                continue
            if any(e.review == review.id and e.property.value == "reported-result"
                   for e in filing.registry.referrers(result_id, Evidence, "subject")):
                continue
            result = filing.registry.get_as(result_id, Result)
            evaluation = filing.registry.get_as(result.evaluation, Evaluation)
            data: dict[str, Any] = {
                "kind": "evidence",
                "id": filing.new_id("evidence", f"result-{split_id(result.id).slug}-reported-result"),
                "subject": result.id, "property": "reported-result", "statement": result.printed_value,
                "claim_scope": "individual-claims", "source": result.source,
                "source_locator": result.source_locator.model_dump(mode="json", exclude_unset=True),
                "source_independence": ("developer-paper" if evaluation.independence is Independence.DEVELOPER
                                        else "independent-paper"),
                "review": review.id, "field": "printed_value",
                "derivation": f"Filed by 'registry import' from {filing.table.path.name} row {rows[0]}, for review "
                              f"{review.id}, which checked its subject; the id is derived by the batch convention.",
                "missing_metadata": [],
            }
            for name, value, where in (("source_artifact_sha256", review.artifact_sha256, "review"),
                                       ("hash_scope", filing.source.hash_scope, "source"),
                                       ("extraction_artifact_sha256", review.extraction_sha256, "review")):
                if value is not None:
                    data[name] = value
                else:
                    data["missing_metadata"].append({"field": name, "reason": "not-separately-documented",
                                                     "note": f"inspect the {where} record"})
            record = filing.typed(None, "evidence", data)
            if record is not None:
                filing.add(record, Action.EVIDENCE, rows)


def _named(filing: Filing, given: str) -> list[Review]:
    """The reviews of the table's source that ``given`` names: the review with that id, else every review of the source
    whose id holds it; a RegistryError where it names none or a review of another source."""
    of_source = [r for r in filing.registry.of_kind(Review) if r.source == filing.source.id]
    named = [r for r in of_source if r.id == given] or [r for r in of_source if given and given in r.id]
    if named:
        return named
    review_id, _ = complete_reference(filing.registry, given, ["review"], "review")
    review = filing.registry.get_as(review_id, Review)
    raise RegistryError(f"review {review.id!r} checked {review.source!r}, not {filing.source.id!r}",
                        "give a review of the table's source")


def _checking(filing: Filing, named: list[Review], result_id: str) -> Review | None:
    """The current source-checked review among ``named`` that lists the result (the latest id, where several do)."""
    from registry.status.provenance import checking_reviews

    checking = {review.id for review in checking_reviews(filing.registry, result_id)}
    listing = [review for review in named if result_id in review.subjects and review.id in checking]
    return max(listing, key=lambda review: review.id) if listing else None
