"""The rules of identity: an id's date is a real day not after today, its kind is the record's, and its file
lies at ``<kind>/<id>.yaml`` in the records folder."""

from __future__ import annotations

from registry.ids import a_kind, compose_id, date_and_kind, is_real_day
from registry.issues import codes
from registry.models import Record
from registry.validate.rules_registry import RecordCheck, record_rules


def identity(record: Record, check: RecordCheck) -> None:
    """The id's date and kind, and where its file lies."""
    record_id, kind = record.id, record.kind_token
    date, id_kind = date_and_kind(record_id)
    if not is_real_day(date):
        check.add(codes.ID_DATE_INVALID, f"{date!r} in the id is not a real day; the id's date is the "
                  f"batch's 'yyyymmdd' (for example {check.today}, today in UTC)", ("id",))
    elif date > check.today:
        check.add(codes.ID_DATE_IN_FUTURE, f"{date!r} in the id lies after today ({check.today}, UTC); the id's "
                  "date is the day the batch was filed", ("id",))
    if id_kind != kind:
        check.add(codes.ID_KIND_MISMATCH,
                  f"the id names kind {id_kind!r} but the record is {a_kind(repr(kind))}; "
                  f"rename it to '{compose_id('<batch>', '<yyyymmdd>', kind, '<slug>')}'", ("id",))
    path = check.registry.paths[record_id]
    parts = path.parts  # kept by the path once made: no new path objects per record
    if len(parts) < 2 or _stem(parts[-1]) != record_id or parts[-2] != kind:
        check.add(codes.FILE_NAME_MISMATCH,
                  f"{a_kind(kind)} with id {record_id!r} belongs in {kind}/{record_id}.yaml; move the file there",
                  ("id",))
    elif parts[:-1] == check.root_parts:
        check.add(codes.FILE_NAME_MISMATCH,
                  f"{path.name} lies directly in the records folder {check.registry.root.name!r}, which looks like "
                  f"the {kind!r} folder itself: point {{records}} at the folder that holds it",
                  ("id",))


def _stem(name: str) -> str:
    """A file name without its last suffix, as ``pathlib.PurePath.stem`` has it."""
    dot = name.rfind(".")
    return name[:dot] if 0 < dot < len(name) - 1 else name


record_rules.append(identity)
