"""The rules of metadata: what a record leaves empty is said so, with a reason, and no date lies in the future (a
release's members were filed by its date)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from registry.ids import date_and_kind
from registry.issues import codes
from registry.models import Record, Release
from registry.models.fields import dates_in, field_plan
from registry.textsafe import excerpt
from registry.validate.rules_registry import RecordCheck, kind_rules, record_rules


def missing_metadata(record: Record, check: RecordCheck) -> None:
    """An empty field is listed in missing_metadata with its reason; no entry names a field that is absent or
    has a value."""
    plan = field_plan(type(record))
    seen: set[str] = set()
    for index, entry in enumerate(record.missing_metadata):
        where = ("missing_metadata", index, "field")
        if entry.field in seen:
            check.add(codes.MISSING_DUPLICATE, f"{excerpt(entry.field)} is listed as missing twice; keep one entry",
                      where)
        seen.add(entry.field)
        if entry.field not in plan.names or entry.field in ("id", "kind", "missing_metadata"):
            check.add(codes.MISSING_UNKNOWN_FIELD,
                      f"a {record.kind_token} has no field {excerpt(entry.field)}; name one of its fields", where)
        elif not _is_empty(getattr(record, entry.field)):
            check.add(codes.MISSING_CONTRADICTION,
                      f"{excerpt(entry.field)} is listed as missing ({entry.reason.value}) but has a value; "
                      f"remove the value or the entry", where)
    for name in plan.reportable:
        if name not in seen and _is_empty(getattr(record, name)):
            check.add(codes.MISSING_UNEXPLAINED,
                      f"{name!r} is empty; give its value, or add a missing_metadata entry "
                      f"(field: {name}, reason: unreported | not-applicable | not-separately-documented | "
                      f"not-transcribed)", (name,) if name in _keys(record, check) else ())


def _keys(record: Record, check: RecordCheck) -> set[str]:
    """The top-level keys the record's file holds."""
    doc = check.registry.docs.get(record.id)
    return {p[0] for p in doc.lines if len(p) == 1} if doc else set()  # type: ignore[misc]


def _is_empty(value: Any) -> bool:
    """None, or an empty list, mapping or text (a value that is true is none of them: tested first, as cheaper)."""
    return value is None or (not value and (value == [] or value == {} or value == ""))


def dates(record: Record, check: RecordCheck) -> None:
    """A moment must not lie after now, a day not after today (in UTC): nothing was reviewed tomorrow."""
    now = check.now
    today = now.astimezone(dt.UTC).date()
    for path, value, day in dates_in(record):
        if isinstance(value, dt.datetime) and value.tzinfo is not None:
            if value > now:
                check.add(codes.DATE_IN_FUTURE, f"{value.isoformat()} lies in the future (it is now "
                          f"{now.astimezone(dt.UTC).replace(microsecond=0).isoformat()})", path)
        elif day > today:
            check.add(codes.DATE_IN_FUTURE, f"{value.isoformat()} lies in the future (today is "
                      f"{today.isoformat()})", path)


@kind_rules.register
def _release_date(release: Release, check: RecordCheck) -> None:
    if release.date > check.now.astimezone(dt.UTC).date():
        check.add(codes.DATE_IN_FUTURE, f"release date {release.date} lies in the future", ("name",))
    published = f"{release.date:%Y%m%d}"  # an id's date is its batch's day, compared as text like the ids'
    for index, member in enumerate(release.members):
        try:
            filed, _ = date_and_kind(member)
        except ValueError:
            continue  # not an id at all: the reference rules say so
        if filed > published:
            check.add(codes.RELEASE_MEMBER_LATER, f"{excerpt(member)} was filed on {filed}, after the release of "
                      f"{release.date}; a release holds only records filed by its date", ("members", index))


record_rules.extend([missing_metadata, dates])
