"""The technical metadata section: every field of a record, labelled from its name, each value tagged by what it is.

Every kind's page ends with it, so it is derived from the models alone (``field_plan`` says which fields refer
to records and which nest values that do): a field added to a model appears here without an edit. A
transcribed value carries its record's tag, a run's output is tagged measured or estimated by us, and the
registry's own notes carry no tag, so a value never reads as more than it is.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel

from registry.models import (
    Record,
    Reproduction,
    Result,
    Review,
)
from registry.models.fields import field_plan
from registry.models.reproduction import Comparison
from registry.page import display as d
from registry.page.blocks import (
    Content,
    Fields,
    Piece,
    Tag,
    plain,
)
from registry.page.witnesses import witness_lines
from registry.store.loader import Registry
from registry.units import with_unit

TECHNICAL_METADATA = "Technical metadata and extraction receipts"


@functools.cache
def _shown_fields(model: type[Record]) -> tuple[tuple[str, str, bool, bool], ...]:
    """(field, label, whether it refers to records, whether it nests values that do) for each field a page lists,
    worked out once per kind."""
    plan = field_plan(model)
    references = dict(plan.references)
    return tuple((name, d.field_label(name), name in references, name in plan.nested) for name in model.model_fields
                 if name not in ("id", "kind", "missing_metadata"))


def technical_metadata(registry: Registry, record: Record) -> Fields:
    """Every field of the record, labelled from its name; references link to their records."""
    tag = d.record_tag(registry, record)
    rows: list[tuple[str, Content]] = [("Stable ID", plain(record.id))]
    for name, label, is_reference, is_nested in _shown_fields(type(record)):
        value = getattr(record, name)
        if value is None or value == [] or value == {}:  # a gap with a reason has its 'Missing metadata' row
            continue
        if is_reference:
            ids = value if isinstance(value, list) else [value]
            pieces: list[Piece] = []
            for index, target in enumerate(ids):
                pieces += [Piece("; ")] if index else []
                named = registry.records.get(target)
                pieces.append(d.named_link(registry, named) if named is not None else Piece(target, link=target))
            rows.append((label, tuple(pieces)))
            continue
        if is_nested and isinstance(value, BaseModel):  # it names records (``derived``)
            rows.append((label, _linked_parts(registry, value, _field_tag(record, name, tag))))
            continue
        text = _comparison_text(record, value) if isinstance(value, Comparison) else _plain(value)
        rows.append((label, (Piece(text, tag=_field_tag(record, name, tag)),)))
    for entry in record.missing_metadata:
        note = f"; note: {entry.note}" if entry.note else ""
        rows.append(("Missing metadata", plain(f"{entry.field}: reason: {entry.reason.value}{note}")))
    for review in registry.referrers(record.id, Review, "subjects"):
        status, separator, rest = _review_line(review).partition(";")
        rows.append(("Review", (d.named_link(registry, review, status), Piece(separator + rest))))
    rows += witness_lines(registry, record.id)  # each witness of the current reviews, its own verdict
    return Fields(tuple(rows))


#: Fields of our own runs that hold what the run gave (their values are measured or estimated).
RUN_OUTPUT_FIELDS = frozenset({"value_bytes", "value", "value_gib", "reserved_bytes", "warmup_peak_bytes",
                               "breakdown_bytes", "comparison"})
#: Fields of a transcribed record that are the registry's own notes, not values read off the source.
OWN_NOTES = frozenset({"derivation", "profile"})


@functools.singledispatch
def _field_tag(record: Record, name: str, record_tag: Tag | None) -> Tag | None:
    """The tag of one field's value: the record's own (transcribed or source checked), except on our notes."""
    return None if name in OWN_NOTES else record_tag


@_field_tag.register
def _run_field_tag(record: Reproduction, name: str, record_tag: Tag | None) -> Tag | None:
    """What a run gave is measured or estimated by us; how it was run (command, setting) is no value."""
    return d.run_tag(record) if name in RUN_OUTPUT_FIELDS else None


def _linked_parts(registry: Registry, value: BaseModel, tag: Tag | None) -> Content:
    """A nested value that names records, field by field as ``_plain`` words one, its references links.

    A derived result's 'operation: difference; value: <id> (94.2%); baseline: <id> (93.8%); note: ...':
    which fields are references is the model's own declaration (``field_plan``), and a result named
    is followed by its printed value.
    """
    references = dict(field_plan(type(value)).references)
    pieces: list[Piece] = []
    for name in type(value).model_fields:
        part = getattr(value, name)
        if part in (None, [], {}):
            continue
        label = f"{'; ' if pieces else ''}{name.replace('_', ' ')}: "
        if name not in references:
            pieces.append(Piece(label + _plain(part), tag=tag))
            continue
        for index, target in enumerate(part if isinstance(part, list) else [part]):
            pieces.append(Piece(label if index == 0 else ", "))
            named = registry.records.get(target)
            # a result is named by what it qualifies ('Splice sites, fp32'), with its printed value after it
            pieces.append(d.named_link(registry, named, named.metric_qualifier if isinstance(named, Result) else None)
                          if named is not None else Piece(target, link=target))
            if isinstance(named, Result):
                pieces.append(Piece(f" ({with_unit(named.as_printed, named.unit)})"))
    return tuple(pieces)


def _comparison_text(record: Record, comparison: Comparison) -> str:
    """'transcribed: 33.88; estimated by us: 31.07; ...': the run's value is named by its method, never 'reproduced'."""
    ours = d.RUN_LABELS[record.method] if isinstance(record, Reproduction) else "ours"
    return (f"transcribed: {comparison.transcribed}; {ours}: {comparison.reproduced}; "
            f"difference: {comparison.difference}; ratio: {comparison.ratio}")


def _review_line(review: Review) -> str:
    parts = [f"status: {review.status.value}"]
    for name in ("reviewer", "reviewer_note", "reviewed_at", "artifact_sha256", "extraction_sha256",
                 "retrieval_url", "methods", "method_note", "note"):
        value = getattr(review, name)
        if value not in (None, []):
            parts.append(f"{name.replace('_', ' ')}: {_plain(value)}")
    for entry in review.missing_metadata:  # each gap with its own reason: not every gap is 'not transcribed'
        parts.append(f"{entry.field.replace('_', ' ')}: {d.missing_phrase(review, entry.field).lower()}")
    return "; ".join(parts)


def _plain(value: Any) -> str:
    if isinstance(value, bool):  # a yes/no field reads as words, never as Python's 'False'
        return "yes" if value else "no"
    if isinstance(getattr(value, "text", None), str):  # a typed value that says how it reads (a locator)
        return str(value.text)
    if isinstance(value, list) and value and all(isinstance(getattr(v, "text", None), str) for v in value):
        return "; ".join(v.text for v in value)
    if isinstance(value, BaseModel):
        return "; ".join(f"{k.replace('_', ' ')}: {_plain(v)}" for k, v in value.model_dump().items()
                         if v not in (None, [], {}))
    if isinstance(value, list):
        return "; ".join(_plain(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    if hasattr(value, "isoformat"):
        return value.isoformat().replace("+00:00", "Z")
    return str(getattr(value, "value", value))
