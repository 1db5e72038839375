"""The validation rules of curation: chains of corrections and retractions, and unfinished batch writes.

Registered on ``registry.validate.rules_registry`` (``kind_rules`` per kind, ``record_rules`` for every record,
``registry_rules`` for the folder);
``registry.validate.runner.RULE_MODULES`` lists this module, so ``registry validate`` runs them with every other
rule. Each reports under a code declared in ``registry.issues.codes``.
"""

from __future__ import annotations

from registry.ids import a_kind
from registry.issues import codes
from registry.issues.report import Report
from registry.models import Correction, Evidence, Record, Result, Retraction, Review
from registry.models.records import ReviewStatus
from registry.status.provenance import reviews_of
from registry.status.versions import current_of, outdated_bases, replacing, retractions, superseding
from registry.store.batch import pending
from registry.store.loader import Registry, display_path
from registry.units import with_unit
from registry.validate.rules_registry import RecordCheck, kind_rules, record_rules, registry_rules


@kind_rules.register
def _correction_chain(correction: Correction, check: RecordCheck) -> None:
    """A correction replaces one record by a new one of its kind; a chain neither branches nor loops."""
    registry = check.registry
    old, new = registry.records.get(correction.supersedes), registry.records.get(correction.replacement)
    if old is None or new is None:
        return  # a dangling reference is reported by the reference rules
    if old.id == new.id:
        check.add(codes.CORRECTION_KIND_MISMATCH, f"the correction names {old.id!r} as both the superseded record "
                  "and its replacement; the corrected values go in a new record of the same kind", ("replacement",))
        return
    if old.kind_token != new.kind_token:
        check.add(codes.CORRECTION_KIND_MISMATCH,
                  f"{old.id!r} is {a_kind(old.kind_token)}, but its replacement {new.id!r} is "
                  f"{a_kind(new.kind_token)}; a correction replaces a record by one of the same kind", ("replacement",))
    others = [c.id for c in superseding(registry, old.id) if c.id != correction.id]
    if others:
        check.add(codes.CORRECTION_BRANCH,
                  f"{old.id!r} is superseded by this correction and by {', '.join(map(repr, others))}; a record has "
                  "one replacement, so that its chain has one current record: keep one correction", ("supersedes",))
    merged = [c for c in replacing(registry, new.id) if c.id != correction.id]
    if merged:
        check.add(codes.CORRECTION_BRANCH,
                  f"{new.id!r} replaces {old.id!r} here and {merged[0].supersedes!r} in {merged[0].id!r}; a record "
                  "replaces one record, so that each chain has its own current record", ("replacement",))
    if _leads_back(registry, correction):
        check.add(codes.CORRECTION_CYCLE,
                  f"following the corrections on from {new.id!r} leads back to {old.id!r}, so no version of the "
                  "chain is current; remove the correction that closes the cycle", ("replacement",))
    _replacement_reviews(correction, check)


def _own_review(registry: Registry, replacement: str) -> str:
    """What to do about a replacement its predecessor's review checks: an evidence row names a review, others are
    one's subjects."""
    if isinstance(registry.records.get(replacement), Evidence):
        return "name a review that checked the new row against the source"
    return "take the replacement out of that review and check it on its own"


def _leads_back(registry: Registry, correction: Correction) -> bool:
    """Whether following the chain on from the replacement reaches the superseded record again."""
    seen: set[str] = set()
    at = correction.replacement
    while at not in seen:
        if at == correction.supersedes:
            return True
        seen.add(at)
        ahead = superseding(registry, at)
        if not ahead:
            return False
        at = ahead[0].replacement
    return False


def _replacement_reviews(correction: Correction, check: RecordCheck) -> None:
    """The replacement of a source-checked record reads 'source checked' only by a review of its own (one that was
    retracted since needs none: it is shown as withdrawn, not as 'not reviewed').

    Which reviews check a record is the one rule (``registry.status.provenance.reviews_of``): an evidence row is
    checked by the review it names too, so a replacement row naming the old row's review would read checked by it
    unseen.
    """
    registry = check.registry

    def granting(record_id: str) -> list[Review]:
        return [r for r in reviews_of(registry, record_id) if r.status is ReviewStatus.SOURCE_CHECKED]

    checked_old = {review.id for review in granting(correction.supersedes)}
    for_new = granting(correction.replacement)
    for review in (r for r in for_new if r.id in checked_old):
        check.add(codes.CORRECTION_REVIEW_SHARED,
                  f"review {review.id!r} source-checks both {correction.supersedes!r} and its replacement "
                  f"{correction.replacement!r}, which hold different values, so it cannot have found both in the "
                  f"source; {_own_review(registry, correction.replacement)}", ("replacement",))
    reviewed_new = reviews_of(registry, correction.replacement)  # a review of any verdict: it reads as it found
    if checked_old and not reviewed_new and not retractions(registry, correction.replacement):  # withdrawn: none
        check.add(codes.CORRECTION_UNREVIEWED,
                  f"{correction.supersedes!r} was source checked, but its replacement {correction.replacement!r} has "
                  "no review of its own: it reads 'not reviewed' until a review checks it against the source",
                  ("replacement",))


@kind_rules.register
def _retraction_target(retraction: Retraction, check: RecordCheck) -> None:
    """Only a chain's current record is withdrawn, and only once."""
    registry = check.registry
    target = retraction.retracts
    if target not in registry.records:
        return
    earlier = [r.id for r in retractions(registry, target) if r.id < retraction.id]
    if earlier:
        check.add(codes.RETRACTION_CONFLICT, f"{target!r} is already retracted by {earlier[0]!r}; keep one retraction",
                  ("retracts",))
    ahead = superseding(registry, target)
    if ahead:
        current = current_of(registry, ahead[0].replacement)
        instead = f"retract its current version {current.id!r} instead" if current is not None else (
            "the chain's current version is withdrawn already")
        check.add(codes.RETRACTION_CONFLICT,
                  f"{target!r} is superseded by correction {ahead[0].id!r}, so it is no longer current: {instead}",
                  ("retracts",))


def _built_on_current(record: Record, check: RecordCheck) -> None:
    """A current derived result or evidence row built on a superseded or withdrawn record holds an earlier value.

    A registry without corrections or retractions (most of them) has nothing to find: there the
    rule costs one look at each record's type.
    """
    registry = check.registry
    if not isinstance(record, (Result, Evidence)) or not registry.holds(Correction, Retraction):
        return
    for outdated in outdated_bases(registry, record):
        what, follows = (("is derived from", "with the value that follows from it") if isinstance(record, Result)
                         else ("states the value of", "stating its value"))
        if outdated.current is None:
            now = (f"{outdated.note}; no version of it is current: retract this record too, or correct it to "
                   "stand on another")
        else:
            value = (f" ({with_unit(outdated.current.as_printed, outdated.current.unit)})"
                     if isinstance(outdated.current, Result) else "")
            now = (f"superseded: its current version is {outdated.current.id!r}{value}; file a correction of "
                   f"this record that names it ({follows}), or retract this record")
        check.add(codes.INPUT_NOT_CURRENT, f"this {record.kind_token} {what} {outdated.record_id!r}, which is {now}",
                  outdated.path)


record_rules.append(_built_on_current)


def _unfinished_batch(registry: Registry, report: Report) -> None:
    """A batch write left part-way: the registry is neither what it was nor what the batch would make it."""
    found = pending(registry.root)
    if found is None:
        return
    where = display_path(found.journal, registry.root)
    if found.refused is not None:
        report.add(codes.BATCH_JOURNAL_REFUSED.issue(where, None, found.refused))
        return
    if found.in_place == 0:
        if not found.running:
            report.add(codes.LEFTOVER_BATCH.issue(where, None, (
                "a batch write was killed while it staged its files, before any was put in place, so the registry "
                "is as it was; remove its staging folder with 'registry recover'")))
        return
    if found.running:
        message = (f"a batch of {found.files} record file(s) is being written right now ({found.in_place} in place "
                   "so far); validate again once it has finished")
    else:
        message = (f"a batch write of {found.files} record file(s) was interrupted with {found.in_place} of them in "
                   "place, so the registry is neither what it was nor what the batch would have made it; undo it "
                   "with 'registry recover' (the next 'registry import', 'new' or 'fmt' undoes it too)")
    report.add(codes.INTERRUPTED_BATCH.issue(where, None, message))


registry_rules.append(_unfinished_batch)
