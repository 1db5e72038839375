"""The versions of a record: what superseded it, what withdrew it, and which version is current.

Corrections and retractions (``registry.models.history``) link records into chains: a record,
the record that replaced it, the one that replaced that, ... The last version is current unless
a retraction withdrew it. Everything that shows "current values" (``list``, ``show``, the
``results_flat`` view) and the rules that keep a chain sound read it from here. The back links
come from ``Registry.links_to``, which indexes the whole registry once, so asking about every
record costs one pass.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from registry.models import Correction, Evidence, Record, Result, Retraction
from registry.models.fields import FieldPath, references_in
from registry.per_registry import once
from registry.store.loader import Registry
from registry.units import with_unit

R = TypeVar("R", bound=Record)


class Status(StrEnum):
    """Where a record stands in its chain of versions."""

    CURRENT = "current"
    """Neither superseded nor withdrawn: its values are the registry's."""
    SUPERSEDED = "superseded"
    """A correction replaced it; it stays as history."""
    RETRACTED = "retracted"
    """A retraction withdrew it; no value replaces it."""


def chained(registry: Registry) -> frozenset[str]:
    """The ids that some correction or retraction names, worked out once per registry.

    Every other record is the only version of itself and current, which is most records: a site
    build asks about each from many pages, and this answers without looking for back links.
    """
    return once(registry, "chained", _named_by_versions)


def _named_by_versions(registry: Registry) -> frozenset[str]:
    return frozenset(value for record in registry.records.values() if isinstance(record, (Correction, Retraction))
                     for _, value, _ in references_in(record))


def superseding(registry: Registry, record_id: str) -> list[Correction]:
    """The corrections that supersede the record (one in a sound chain), in id order."""
    if record_id not in chained(registry):
        return []
    return registry.referrers(record_id, Correction, "supersedes")


def replacing(registry: Registry, record_id: str) -> list[Correction]:
    """The corrections whose replacement the record is (one in a sound chain), in id order."""
    if record_id not in chained(registry):
        return []
    return registry.referrers(record_id, Correction, "replacement")


def retractions(registry: Registry, record_id: str) -> list[Retraction]:
    """The retractions that withdraw the record (one at most in a sound registry), in id order."""
    if record_id not in chained(registry):
        return []
    return registry.referrers(record_id, Retraction, "retracts")


def status_of(registry: Registry, record_id: str) -> Status:
    """Retracted if a retraction names it, else superseded if a correction does, else current."""
    if record_id not in chained(registry):
        return Status.CURRENT
    if retractions(registry, record_id):
        return Status.RETRACTED
    if superseding(registry, record_id):
        return Status.SUPERSEDED
    return Status.CURRENT


def is_current(registry: Registry, record: Record) -> bool:
    """Whether the record's values are the registry's (always so for kinds that no chain can hold)."""
    return status_of(registry, record.id) is Status.CURRENT


def current_only(registry: Registry, records: Iterable[R]) -> list[R]:
    """The records among ``records`` whose values are the registry's: what every page, plot and export shows."""
    return [record for record in records if is_current(registry, record)]


def not_current(registry: Registry, records: Iterable[R]) -> list[R]:
    """The superseded and retracted records among ``records``: history, shown apart and marked as such."""
    return [record for record in records if not is_current(registry, record)]


def version_note(registry: Registry, record_id: str) -> str:
    """What a version is, in words: 'superseded by X', 'retracted by R: why', or '' for a current record.

    Wherever an earlier version is shown beside current ones (a history table, an export that keeps
    it), this says which it is, so that it is never read as the registry's value.
    """
    withdrawn = retractions(registry, record_id)
    if withdrawn:
        return f"retracted by {withdrawn[0].id}: {withdrawn[0].reason}"
    ahead = superseding(registry, record_id)
    if not ahead:
        return ""
    replacement = ahead[0].replacement
    current = current_of(registry, record_id)
    if current is None:
        return f"superseded by {replacement}, since withdrawn: no version of it is current"
    value = with_unit(current.as_printed, current.unit) if isinstance(current, Result) else ""
    if current.id == replacement:
        return f"superseded by {replacement}" + (f" ({value})" if value else "")
    return f"superseded by {replacement} (its current version is {current.id}{', ' + value if value else ''})"


def current_of(registry: Registry, record_id: str) -> Record | None:
    """The current version of the record's chain: itself, or the last replacement; None if it was withdrawn.

    Follows the first correction at each step and stops where a chain returns to a version it has
    seen (a cycle, which validation reports), so that it always ends.
    """
    seen: set[str] = set()
    at = record_id
    while at not in seen:
        seen.add(at)
        if retractions(registry, at):
            return None
        ahead = superseding(registry, at)
        if not ahead or ahead[0].replacement not in registry.records:
            return registry.records.get(at)
        at = ahead[0].replacement
    return None


@dataclass(frozen=True)
class Version:
    """One version in a chain: the record, where it stands, and what made it and what ended it."""

    record: Record
    status: Status
    made_by: Correction | None
    """The correction that filed this version (None for the first)."""
    ended_by: Correction | Retraction | None
    """The correction that superseded it, or the retraction that withdrew it (None while current)."""


def versions(registry: Registry, record_id: str) -> list[Version]:
    """Every version of the record's chain, oldest first (one version for a record never corrected)."""
    first = record_id
    seen = {first}
    while (back := replacing(registry, first)) and back[0].supersedes in registry.records:
        if back[0].supersedes in seen:
            break  # a cycle: start where we came in
        first = back[0].supersedes
        seen.add(first)
    chain: list[Version] = []
    at: str | None = first
    made_by: Correction | None = None
    visited: set[str] = set()
    while at is not None and at not in visited and at in registry.records:
        visited.add(at)
        ahead, withdrawn = superseding(registry, at), retractions(registry, at)
        ended_by: Correction | Retraction | None = withdrawn[0] if withdrawn else (ahead[0] if ahead else None)
        chain.append(Version(registry.records[at], status_of(registry, at), made_by, ended_by))
        made_by = ahead[0] if ahead and not withdrawn else None
        at = made_by.replacement if made_by is not None else None
    return chain


# -- what a record is built on ----------------------------------------------------------------


@functools.singledispatch
def built_on(record: Record) -> list[tuple[FieldPath, str]]:
    """(field path, id) of each record whose values ``record`` was worked out from or speaks for.

    A derived result is computed from its inputs' values; an evidence row states its subject's
    value. Either one stands on those records being current: built on a superseded or withdrawn
    one, it holds an earlier value (``outdated_bases``).
    """
    return []


@built_on.register
def _derived_inputs(record: Result) -> list[tuple[FieldPath, str]]:
    derived = record.derived
    if derived is None:
        return []
    pairs: list[tuple[FieldPath, str]] = [(("derived", name), value) for name in ("value", "baseline")
                                          if (value := getattr(derived, name)) is not None]
    return pairs + [(("derived", "inputs", index), value) for index, value in enumerate(derived.inputs)]


@built_on.register
def _evidence_subject(record: Evidence) -> list[tuple[FieldPath, str]]:
    return [(("subject",), record.subject)]


@dataclass(frozen=True)
class Outdated:
    """A record a current record is built on that is no longer current."""

    path: FieldPath
    record_id: str
    status: Status
    current: Record | None
    """The current version of its chain (None: withdrawn)."""
    note: str
    """``version_note`` of it: superseded by whom, or retracted by what and why."""


def outdated_bases(registry: Registry, record: Record) -> list[Outdated]:
    """What a current record is built on that a correction superseded or a retraction withdrew.

    Empty for a record that is itself superseded or withdrawn: as history, it stands on the
    versions it was made from.
    """
    bases = built_on(record)
    if not bases or not is_current(registry, record):
        return []
    found = []
    for path, record_id in bases:
        if record_id not in registry.records:
            continue  # a dangling reference is reported by the reference rules
        status = status_of(registry, record_id)
        if status is not Status.CURRENT:
            found.append(Outdated(path, record_id, status, current_of(registry, record_id),
                                  version_note(registry, record_id)))
    return found


def dependents(registry: Registry, record_id: str) -> list[Record]:
    """The records built on ``record_id`` (derived results, evidence rows; see ``built_on``), in id order."""
    return [record for record in registry.of_kind(Record)
            if any(value == record_id for _, value in built_on(record))]


# -- what a page shows -------------------------------------------------------------------------

#: Fields that say nothing about a version's values, so a history leaves them out of what changed.
UNCOMPARED = ("id", "derivation")


def changes(old: Record, new: Record) -> list[tuple[str, str, str]]:
    """(field, old value, new value) for every field whose value differs between two versions, in field order."""
    before = old.model_dump(mode="json", exclude=set(UNCOMPARED))
    after = new.model_dump(mode="json", exclude=set(UNCOMPARED))
    return [(name, _shown(before.get(name)), _shown(after.get(name))) for name in type(new).model_fields
            if name not in UNCOMPARED and before.get(name) != after.get(name)]


def same_values(old: Record, new: Record) -> bool:
    """Whether two records of one kind hold the same values (their ids and derivation notes aside)."""
    return type(old) is type(new) and not changes(old, new)


@dataclass(frozen=True)
class HistoryRow:
    """One line of a record's history as a page shows it: plain text, for any renderer."""

    version: int
    record_id: str
    status: str
    changed: str
    """What this version changed from the one before ('printed_value: 33.88 -> 33.89'); '' for the first."""
    why: str
    """The correction's or retraction's reason, with who and when."""


def history_rows(registry: Registry, record_id: str) -> list[HistoryRow]:
    """The rows of the record's history, oldest first; empty for a record that no correction or retraction names."""
    if record_id not in chained(registry):
        return []
    chain = versions(registry, record_id)
    if len(chain) == 1 and chain[0].status is Status.CURRENT:
        return []
    rows: list[HistoryRow] = []
    previous: Record | None = None
    for number, version in enumerate(chain, start=1):
        changed = "" if previous is None else "; ".join(f"{f}: {a} -> {b}" for f, a, b in changes(previous,
                                                                                                  version.record))
        why = ""
        if version.made_by is not None:
            why = _because(version.made_by.reason, version.made_by.corrected_by, version.made_by.corrected_at,
                           f"corrected by {version.made_by.id}")
        if isinstance(version.ended_by, Retraction):
            retraction = version.ended_by
            withdrawn = _because(retraction.reason, retraction.retracted_by, retraction.retracted_at,
                                 f"withdrawn by {retraction.id}")
            why = f"{why}; {withdrawn}" if why else withdrawn
        rows.append(HistoryRow(number, version.record.id, version.status.value, changed or "-", why or "-"))
        previous = version.record
    return rows


def _because(reason: str, who: str, when: Any, what: str) -> str:
    stamp = when.isoformat().replace("+00:00", "Z") if hasattr(when, "isoformat") else str(when)
    return f"{what} ({who}, {stamp}): {reason}"


def _shown(value: Any) -> str:
    if value is None or value == [] or value == {}:
        return "(empty)"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in value.items() if v not in (None, [], {})) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return str(value)
