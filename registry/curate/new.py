"""A new record of any kind, drafted from the values a curator gives and checked before it is written.

The values come by field path (``registry.curate.form``). What the curator leaves out is filled where
the registry knows it: the id by the convention (``registry.curate.naming``), a reference typed in part
completed to the one id of its kinds that holds it ("did you mean" where several or none do), a value
that must equal another (a result's exact value is its printed digits read exactly; an evidence row
states its result's printed value), 'now' for a moment, and every reportable field left empty listed
under ``missing_metadata`` ('not-transcribed', unless a reason is given). The draft is then typed by
its model and validated together with the registry; only a draft that passes is written.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import AwareDatetime, ValidationError

from registry.curate.form import form, parse_path, reference_kinds, set_path, typed_text
from registry.curate.naming import checked_batch, checked_date, make_id, slug_for, today
from registry.curate.precheck import Staged, check_with
from registry.curate.values import read_unit
from registry.errors import RegistryError
from registry.ids import a_kind, split_id
from registry.issues.report import Issue, Report, format_path
from registry.models import KIND_MODELS, MissingReason, Record, Result
from registry.numbers import parse_printed, why_not_a_number
from registry.store.loader import Registry
from registry.store.writer import record_path, record_to_yaml

#: (field path, what is wrong) for each problem of a draft.
Problems = list[tuple[str, str]]
#: (field, what was typed, what it was completed to).
Completion = tuple[str, str, str]

MISSING_NOTE = "Not given when the record was filed with 'registry new'."


class IncompleteRecordError(RegistryError):
    """A draft its model refuses; ``problems`` holds (field path, what is wrong) for each problem."""

    def __init__(self, kind: str, problems: list[tuple[str, str]], *, corrected: bool = False) -> None:
        listed = "; ".join(f"{path or 'the record'}: {message}" for path, message in problems)
        what = "corrected" if corrected else "new"
        super().__init__(f"the {what} {kind} is not complete: {listed}", "give the fields named, then run it again")
        self.kind = kind
        self.problems = problems
        self.corrected = corrected
        """The draft is the corrected copy of a record (its problems come from the changes given)."""


class RejectedRecordsError(RegistryError):
    """New records that would make the registry invalid; ``report`` holds every problem (nothing was written)."""

    def __init__(self, report: Report, what: str = "the new record") -> None:
        super().__init__(f"{what} would make the registry invalid, so nothing was written",
                         "fix the problems listed, then run it again")
        self.report = report


@dataclass(frozen=True)
class Draft:
    """A checked new record, ready to be written (or printed)."""

    staged: Staged
    completed: list[tuple[str, str, str]] = field(default_factory=list)
    """(field, what was typed, the id it was completed to)."""
    listed_missing: list[str] = field(default_factory=list)
    """Reportable fields that were left empty and listed as not transcribed."""
    warnings: list[Issue] = field(default_factory=list)
    """What validation warns about the new record (it is valid all the same)."""

    @property
    def record(self) -> Record:
        return self.staged.record


def draft_record(registry: Registry, kind: str, values: dict[tuple[str, ...], Any], *,
                 sets: Iterable[tuple[str, str]] = (), missing: Iterable[str] = (), batch: str | None = None,
                 date: str | None = None, slug: str | None = None, now: dt.datetime | None = None) -> Draft:
    """The new record of ``kind`` these values make, checked against the registry; nothing is written."""
    now = now or dt.datetime.now(dt.UTC)
    data: dict[str, Any] = {}
    for path, value in values.items():
        set_path(data, path, value)
    for path_text, text in sets:
        set_path(data, parse_path(path_text), typed_text(text))
    problems: list[tuple[str, str]] = []  # every problem found, so that one run names them all
    completed = _complete_references(registry, kind, data, problems)
    _moments(kind, data, now)
    for fill in DEFAULTS.get(kind, ()):
        completed += fill(registry, data, problems)
    listed = _explain_gaps(kind, data, list(missing), problems)
    data["kind"] = kind
    try:
        data["id"] = new_id(registry, kind, data, batch=batch, date=date, slug=slug)
    except RegistryError as exc:
        problems.append(("id", f"{exc.message}; {exc.hint}" if exc.hint else exc.message))
    data.setdefault("derivation", "Filed with 'registry new'; the id is derived by the batch convention.")
    record = typed(kind, data, problems)
    staged = Staged(record, record_path(registry.root, record), record_to_yaml(record, only_set=True))
    report = concerning(check_with(registry, [staged], now=now), {record.id})
    if not report.valid:
        raise RejectedRecordsError(report)
    return Draft(staged, completed, listed, report.warnings)


def typed(kind: str, data: dict[str, Any], problems: list[tuple[str, str]] | None = None, *,
          corrected: bool = False) -> Record:
    """The record ``data`` makes, or an IncompleteRecordError naming each field its model refuses (and ``problems``
    found before)."""
    from registry.store.loader import _explain

    model = KIND_MODELS[kind]
    found = list(problems or [])
    try:
        record = model.model_validate(data)
    except ValidationError as exc:
        named = {path.split(".")[0].split("[")[0] for path, _ in found}
        said = named.union(*(FOLLOWS.get(name, set()) for name in named))  # a problem found before says it
        found += [(format_path(tuple(e["loc"])), _explain(e, model)) for e in exc.errors(include_url=False)
                  if not e["loc"] or e["loc"][0] not in said]
    if found:
        raise IncompleteRecordError(kind, found, corrected=corrected)
    return record


#: Fields whose value is read from another's: the other's problem is theirs too (a printed value that is no number
#: leaves the exact value unread; that is one problem, not two).
FOLLOWS: dict[str, set[str]] = {"printed_value": {"numeric_value"}}


def concerning(report: Report, ids: set[str]) -> Report:
    """The report's errors, and its warnings about the records ``ids`` (not those the registry had already)."""
    kept = [issue for issue in report.issues if issue.record_id in ids or issue.severity.value == "error"]
    return Report(files=report.files, records=report.records, issues=kept)


def new_id(registry: Registry, kind: str, data: dict[str, Any], *, batch: str | None, date: str | None,
           slug: str | None) -> str:
    """The id the convention gives the new record; refused if a record has it already."""
    batch = checked_batch(batch) if batch else _batch_of(data)
    if batch is None:
        raise RegistryError(f"the new {kind} names no record to take its batch from", "give its batch ({batch})")
    slug = slug or slug_for(kind, data)
    if not slug:
        raise RegistryError(f"nothing in the new {kind} gives its id a slug", "give its slug ({slug})")
    record_id = make_id(batch, checked_date(date) if date else today(), kind, slug)
    if record_id in registry.records or record_id in registry.failed:
        raise RegistryError(f"a record with the id {record_id!r} exists already; records are never overwritten",
                            "give the new record another slug ({slug}) or date ({date})", found=record_id)
    return record_id


def _batch_of(data: dict[str, Any]) -> str | None:
    """The batch of the record's source, else of the first record it names."""
    named = [data.get("source")] + [v for v in data.values() if isinstance(v, str)]
    named += [v[0] for v in data.values() if isinstance(v, list) and v and isinstance(v[0], str)]
    for value in named:
        if isinstance(value, str):
            try:
                return split_id(value).batch
            except ValueError:
                continue
    return None


# -- filling in what the registry knows ---------------------------------------------------------------


def complete_reference(registry: Registry, given: str, kinds: list[str], what: str) -> tuple[str, bool]:
    """The id meant by ``given``: itself if a record has it, else the one id of ``kinds`` holding it.

    Returns (id, whether it was completed); a RegistryError says which ids come close where none or
    several do.
    """
    value = given.strip()
    if value in registry.records:
        return value, False
    close = registry.suggest(value, limit=50, kinds=kinds)
    holding = [record_id for record_id in close if value and value in record_id]
    if len(holding) == 1:
        return holding[0], True
    wanted = a_kind(" or ".join(kinds)) if "*" not in kinds else "a record"
    if holding:
        raise RegistryError(f"{what} {value!r} is part of {len(holding)} ids of {wanted}",
                            "did you mean: " + ", ".join(holding[:5]), found=value)
    raise RegistryError(f"{what} {value!r} names no record; it needs {wanted}",
                        ("did you mean: " + ", ".join(close[:5])) if close else _none_close(registry, kinds),
                        found=value)


def _none_close(registry: Registry, kinds: list[str]) -> str:
    """The hint where no id comes close: the ids there are, where they are few (a new registry's one source)."""
    ids = sorted(i for i, r in registry.records.items() if "*" in kinds or r.kind_token in kinds)
    kind = "record" if "*" in kinds else " or ".join(kinds)
    if not ids:
        return f"the registry holds no {kind if kind == 'record' else kind + ' record'} yet"
    if len(ids) <= 5:
        return f"no id is close to it; the {kind} ids are: {', '.join(ids)}"
    return "no id is close to it"


def _complete_references(registry: Registry, kind: str, data: dict[str, Any],
                         problems: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    completed: list[tuple[str, str, str]] = []
    leaves, _ = form(KIND_MODELS[kind])
    for leaf in leaves:
        if not leaf.references or len(leaf.path) != 1 or leaf.path[0] not in data:
            continue
        name = leaf.path[0]
        kinds = reference_kinds(leaf)
        values = data[name] if isinstance(data[name], list) else [data[name]]
        done = []
        for value in values:
            if not isinstance(value, str):
                done.append(value)
                continue
            try:
                found, was_completed = complete_reference(registry, value, kinds, name)
            except RegistryError as exc:
                problems.append((name, f"{exc.message}; {exc.hint}"))
                done.append(value)
                continue
            if was_completed:
                completed.append((name, value, found))
            done.append(found)
        data[name] = done if isinstance(data[name], list) else done[0]
    return completed


def _moments(kind: str, data: dict[str, Any], now: dt.datetime) -> None:
    """'now' for a moment means now (UTC)."""
    leaves, _ = form(KIND_MODELS[kind])
    for leaf in leaves:
        if leaf.annotation in (AwareDatetime, dt.datetime) and len(leaf.path) == 1:
            if str(data.get(leaf.path[0], "")).strip().lower() == "now":
                data[leaf.path[0]] = now.replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _explain_gaps(kind: str, data: dict[str, Any], missing: list[str], problems: list[tuple[str, str]]) -> list[str]:
    """Add the missing-metadata entries given, and one ('not-transcribed') for each other reportable gap."""
    entries: list[dict[str, Any]] = list(data.get("missing_metadata") or [])
    for text in missing:
        try:
            entries.append(missing_entry(text))
        except RegistryError as exc:
            problems.append(("missing_metadata", f"{exc.message}; {exc.hint}"))
    named = {entry.get("field") for entry in entries if isinstance(entry, dict)}
    listed = []
    for name in _reportable(kind):
        if name not in named and _is_empty(data.get(name)):
            entries.append({"field": name, "reason": MissingReason.NOT_TRANSCRIBED.value, "note": MISSING_NOTE})
            listed.append(name)
    if entries:
        data["missing_metadata"] = entries
    return listed


def missing_entry(text: str) -> dict[str, Any]:
    """'field=reason' or 'field=reason:note' as a missing-metadata entry."""
    name, _, rest = text.partition("=")
    reason, _, note = rest.partition(":")
    reasons = [r.value for r in MissingReason]
    if not name.strip() or reason.strip() not in reasons:
        raise RegistryError(f"{text!r} is not a missing-metadata entry",
                            f"write FIELD=REASON or FIELD=REASON:NOTE, the reason one of {', '.join(reasons)}")
    entry: dict[str, Any] = {"field": name.strip(), "reason": reason.strip()}
    if note.strip():
        entry["note"] = note.strip()
    return entry


def _reportable(kind: str) -> list[str]:
    from registry.models.fields import field_plan

    return field_plan(KIND_MODELS[kind]).reportable


def _is_empty(value: Any) -> bool:
    return value is None or value == [] or value == {} or value == ""


def _result_exact_value(registry: Registry, data: dict[str, Any], problems: Problems) -> list[Completion]:
    """A result's numeric value is its printed digits, read exactly; printed digits that are no number are a
    problem (unless the exact value is given)."""
    printed = data.get("printed_value")
    if "numeric_value" not in data and isinstance(printed, str):
        exact = parse_printed(printed)
        if exact is None:
            unit = data.get("unit")
            problems.append(("printed_value", why_not_a_number(printed, unit if isinstance(unit, str) else None)))
        else:
            data["numeric_value"] = str(exact)
    upper = data.get("range_upper")  # a range's upper end is read as its lower end is
    if isinstance(upper, dict) and "numeric_value" not in upper and isinstance(upper.get("printed_value"), str):
        exact = parse_printed(upper["printed_value"])
        if exact is None:
            unit = data.get("unit")
            problems.append(("range_upper.printed_value",
                             why_not_a_number(upper["printed_value"], unit if isinstance(unit, str) else None)))
        else:
            upper["numeric_value"] = str(exact)
    return []


def _result_unit(registry: Registry, data: dict[str, Any], problems: Problems) -> list[Completion]:
    """A unit may be given as printed ('GB') where that form stands for one unit only, as in a table."""
    written = data.get("unit")
    if not isinstance(written, str) or written in registry.units:
        return []
    unit, _ = read_unit(written)
    if unit is None:
        return []  # the model says which units there are, and the closest
    data["unit"] = unit
    return [("unit", written, unit)]


def _evidence_of_result(registry: Registry, data: dict[str, Any], problems: Problems) -> list[Completion]:
    """An evidence row of a result states its printed value and cites its source, unless told otherwise."""
    subject = registry.records.get(str(data.get("subject")))
    if isinstance(subject, Result):
        data.setdefault("statement", subject.printed_value)
        data.setdefault("source", subject.source)
        data.setdefault("source_locator", subject.source_locator.model_dump(mode="json", exclude_unset=True))
    return []


def _source_of_subjects(registry: Registry, data: dict[str, Any], problems: Problems) -> list[Completion]:
    """A review checks the records of one source: theirs, unless told otherwise."""
    subjects = data.get("subjects")
    first = registry.records.get(subjects[0]) if isinstance(subjects, list) and subjects else None
    source = getattr(first, "source", None)
    if isinstance(source, str):
        data.setdefault("source", source)
    return []


#: What the defaults below fill in, as an option's help says it: (kind, field path) -> where the value comes from.
FILLED: dict[tuple[str, str], str] = {
    ("result", "numeric_value"): "the printed value, read exactly",
    ("evidence", "statement"): "its result's printed value",
    ("evidence", "source"): "its result's source",
    ("evidence", "source_locator"): "its result's locator",
    ("review", "source"): "the first subject's source",
}

#: What each kind fills in from the registry, where the curator did not say.
DEFAULTS: dict[str, tuple[Callable[[Registry, dict[str, Any], Problems], list[Completion]], ...]] = {
    "result": (_result_unit, _result_exact_value),
    "evidence": (_evidence_of_result,),
    "review": (_source_of_subjects,),
}
