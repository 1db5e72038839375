"""The rules of references: each names a record of a kind its field takes, once per list; an evaluation's split
is one its dataset has.

A reference to a record that did not load is reported once, on that record (the runner's ``report_unchecked``),
and checked once its own errors are fixed.
"""

from __future__ import annotations

from registry.ids import a_kind
from registry.issues import codes
from registry.issues.report import format_path
from registry.models import Evaluation, Record
from registry.models.fields import FieldPath, references_in
from registry.textsafe import excerpt
from registry.validate.rules_registry import RecordCheck, kind_rules, record_rules


def references(record: Record, check: RecordCheck) -> None:
    """Every reference names a record of a kind its field takes; a list names each record once."""
    records = check.registry.records
    listed: dict[tuple[FieldPath, str], int] = {}  # (list's path, id) -> its first index
    for path, value, kinds in references_in(record):
        if isinstance(path[-1], int):  # an item of a list: each record once
            first = listed.setdefault((path[:-1], value), path[-1])
            if first != path[-1]:
                check.add(codes.REFERENCE_REPEATED, f"{excerpt(value)} is listed twice (items {first + 1} and "
                          f"{path[-1] + 1} of {format_path(path[:-1])}); list each record once", path)
        target = records.get(value)
        if target is not None and (target.kind_token in kinds or "*" in kinds):
            continue  # nearly every reference: it names a record of a kind the field takes
        if target is None and value in check.registry.failed:
            check.wait_for(value)  # one warning there, not one per link
        elif target is None:
            close = check.suggest(value, kinds)
            hint = f"; did you mean {close!r}?" if close else ""
            check.add(codes.UNRESOLVED_REFERENCE, f"{excerpt(value)} names no record in the registry{hint}", path)
        else:
            check.add(codes.REFERENCE_WRONG_KIND,
                      f"{excerpt(value)} is {a_kind(target.kind_token)}, but this field needs "
                      f"{a_kind(' or '.join(kinds))}",
                      path)


@kind_rules.register
def _split_of_dataset(evaluation: Evaluation, check: RecordCheck) -> None:
    dataset = check.registry.records.get(evaluation.dataset)
    splits = [split.name for split in getattr(dataset, "splits", [])]
    if evaluation.split is not None and splits and evaluation.split not in splits:
        check.add(codes.SPLIT_UNKNOWN, f"split {evaluation.split!r} is not one of its dataset's splits "
                  f"({', '.join(splits)})", ("split",))


record_rules.append(references)
