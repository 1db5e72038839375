"""The evidence rows an import files: one for each of the table's results that the given review checked."""

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
        review_id, _ = complete_reference(filing.registry, filing.options.review, ["review"], "review")
        review = filing.registry.get_as(review_id, Review)
        if review.source != filing.source.id:
            raise RegistryError(f"review {review.id!r} checked {review.source!r}, not {filing.source.id!r}",
                                "give a review of the table's source")
        for result_id, rows in filing.current_results.items():
            if result_id not in review.subjects:
                filing.plan.notes.append(f"row {rows[0]}: {result_id} is not among the subjects of {review.id}: no "
                                       "evidence row")
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
