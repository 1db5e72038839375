"""Correcting and retracting a record by hand: the new version and its correction, or a retraction.

A correction copies the record, applies the changed values, and files the copy under a new id (the
old one's batch and slug, today's date) together with the correction that links the two; a retraction
names the record and why. Both are checked with the registry before anything is written, and neither
touches the old record's file.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from registry.curate.fmt import Comment, comments_in, with_comments
from registry.curate.form import parse_path, set_path, typed_text
from registry.curate.naming import checked_date, free_id, make_id, today
from registry.curate.new import RejectedRecordsError, concerning, typed
from registry.curate.precheck import Staged, check_with, write_checked
from registry.errors import RegistryError
from registry.ids import split_id
from registry.issues.report import Issue
from registry.models import TRANSCRIBED_KINDS, Record, Result
from registry.numbers import parse_printed
from registry.status.versions import Status, current_of, dependents, same_values, status_of
from registry.store.batch import Written
from registry.store.loader import Registry
from registry.store.writer import record_path, record_to_yaml
from registry.store.yamlio import parse_yaml, read_text


def draft_correction(registry: Registry, record_id: str, changes: Iterable[tuple[str, str]], *, reason: str,
                     by: str, date: str | None = None, now: dt.datetime | None = None) -> Checked:
    """The replacement of ``record_id`` with ``changes`` (path, value) applied, and the correction; not written."""
    old = _current(registry, record_id, "corrected")
    now = (now or dt.datetime.now(dt.UTC)).replace(microsecond=0)
    data: dict[str, Any] = old.model_dump(mode="json", exclude_unset=True, exclude={"derivation"})
    given = list(changes)
    for path, value in given:
        set_path(data, parse_path(path), typed_text(value))
    if isinstance(old, Result) and "numeric_value" not in {p.strip() for p, _ in given}:
        exact = parse_printed(str(data.get("printed_value", "")))
        if exact is not None:
            data["numeric_value"] = str(exact)  # the exact value follows the printed digits
    parsed = split_id(old.id)
    day = checked_date(date) if date else today()
    taken = set(registry.records) | set(registry.failed)
    new_id = free_id(make_id(parsed.batch, day, old.kind_token, parsed.slug), taken.__contains__)
    taken.add(new_id)
    correction_id = free_id(make_id(parsed.batch, day, "correction", f"{old.kind_token}-{parsed.slug}"),
                            taken.__contains__)
    data["id"] = new_id
    data["derivation"] = replacement_derivation(old, correction_id)
    replacement = typed(old.kind_token, data, corrected=True)
    if same_values(old, replacement):
        raise RegistryError(f"the changes leave {old.id!r} as it is; a correction must change a value",
                            "give the corrected values ({changes})")
    correction = typed("correction", {
        "kind": "correction", "id": correction_id, "supersedes": old.id, "replacement": new_id, "reason": reason,
        "corrected_by": by, "corrected_at": now.isoformat().replace("+00:00", "Z"),
        "derivation": "The id is derived by the batch convention from the superseded record's."})
    return _checked(registry, [replacement, correction], now, also=dependents(registry, old.id),
                    comments={replacement.id: carried_comments(registry, old)})


def replacement_derivation(old: Record, correction_id: str) -> str:
    """How the replacement came to be: the correction, then how the values it keeps were derived (the old
    record's derivation, kept word for word, since the copy carries those values over)."""
    text = (f"Replaces {old.id} (correction {correction_id}); the id is the superseded record's, with the "
            "correction's date.")
    return f"{text} The superseded record's derivation: {old.derivation}" if old.derivation else text


def draft_retraction(registry: Registry, record_id: str, *, reason: str, by: str, date: str | None = None,
                     now: dt.datetime | None = None) -> Checked:
    """The retraction of ``record_id`` (the current version of its chain); not written."""
    old = _current(registry, record_id, "retracted")
    now = (now or dt.datetime.now(dt.UTC)).replace(microsecond=0)
    parsed = split_id(old.id)
    taken = set(registry.records) | set(registry.failed)
    retraction_id = free_id(make_id(parsed.batch, checked_date(date) if date else today(), "retraction",
                                    f"{old.kind_token}-{parsed.slug}"), taken.__contains__)
    retraction = typed("retraction", {
        "kind": "retraction", "id": retraction_id, "retracts": old.id, "reason": reason, "retracted_by": by,
        "retracted_at": now.isoformat().replace("+00:00", "Z"),
        "derivation": "The id is derived by the batch convention from the retracted record's."})
    return _checked(registry, [retraction], now, also=dependents(registry, old.id))


def _current(registry: Registry, record_id: str, what: str) -> Record:
    record = registry.get(record_id.strip())
    if record.kind_token not in TRANSCRIBED_KINDS:
        raise RegistryError(f"{record.id!r} is a {record.kind_token}, which is not read off a source; only "
                            f"transcribed records are {what}", f"the kinds are: {', '.join(TRANSCRIBED_KINDS)}")
    status = status_of(registry, record.id)
    if status is not Status.CURRENT:
        current = current_of(registry, record.id)
        where = f"its current version is {current.id!r}" if current is not None else "no version of it is current"
        raise RegistryError(f"{record.id!r} is {status.value}: {where}", f"only a current record is {what}")
    return record


@dataclass(frozen=True)
class Checked:
    """Records ready to be written, and the warnings validation gave about them."""

    staged: list[Staged]
    warnings: list[Issue]

    def write(self, root: Path) -> Written:
        """Write them as one batch, checked again under the batch lock (another writer may have come first)."""
        what = f"the {self.staged[-1].record.kind_token}"
        return write_checked(root, self.staged, rejected=lambda report: RejectedRecordsError(report, what))


def carried_comments(registry: Registry, old: Record) -> list[Comment]:
    """The comments of the superseded record's file, each marked as carried over (what they say may be about the
    value the correction changed)."""
    path = registry.paths.get(old.id)
    text = read_text(path) if path is not None else ""
    if "#" not in text:
        return []
    return [Comment(f"# From the superseded record: {comment.text.lstrip('#').strip()}", comment.anchors)
            for comment in comments_in(text, parse_yaml(text))]


def _checked(registry: Registry, records: list[Record], now: dt.datetime, *, also: Iterable[Record] = (),
             comments: dict[str, list[Comment]] | None = None) -> Checked:
    """The records checked with the registry; the warnings about them and about ``also`` (the records built on
    the one corrected or retracted, which then stand on an earlier version). ``comments`` go into the files of
    the records they are given for."""
    staged = [Staged(r, record_path(registry.root, r), _text(r, (comments or {}).get(r.id, []))) for r in records]
    report = concerning(check_with(registry, staged, now=now), {r.id for r in [*records, *also]})
    if not report.valid:
        raise RejectedRecordsError(report, f"the {records[-1].kind_token}")
    return Checked(staged, report.warnings)


def _text(record: Record, comments: list[Comment]) -> str:
    text = record_to_yaml(record, only_set=True)
    return with_comments(text, parse_yaml(text), comments) if comments else text
