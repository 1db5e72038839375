"""A results table into records: the whole chain each row needs, sharing the records that exist.

Each row is one printed result. It needs a model family, a configuration, a dataset, a protocol and an
evaluation joining them; each is looked up by what identifies it (a family by its name; a
configuration by its source, model and name; a dataset or a protocol by its source and name; an
evaluation by its configuration, protocol, dataset and split) among the registry's current records and
the ones this table makes, and made only where none exists. A cell may also name a record by its id.
A result is identified by its source, evaluation, metric and qualifier: one that exists with the same
values is left alone (importing a table twice writes nothing), one that exists with other values is
superseded by a correction and a replacement (never edited), one that was retracted is not filed again.
With a review that checked the table's results, each gets its evidence row.

Every problem is collected with its row and column before anything is written; then the new records
are validated together with the registry, and written as one batch (``registry.curate.batch``).
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from registry.curate.batch import Progress, Written
from registry.curate.naming import checked_batch, checked_date, display_slug, free_id, make_id, today
from registry.curate.new import complete_reference, concerning
from registry.curate.precheck import Staged, check_with, write_checked
from registry.curate.table import COLUMNS, REPORTABLE, Problem, Row, Table, TableError, read_table
from registry.curate.values import read_unit
from registry.errors import RegistryError
from registry.ids import a_kind, slugify, split_id
from registry.models import (
    KIND_MODELS,
    Configuration,
    Dataset,
    Evaluation,
    Evidence,
    MissingReason,
    ModelFamily,
    Protocol,
    Record,
    Result,
    Review,
    Source,
)
from registry.models.fields import field_plan
from registry.models.records import Direction, Independence
from registry.models.uncertainty_kinds import INTERVALS
from registry.models.values import Repeats, UncertaintyKind
from registry.numbers import numbers_in, parse_printed, read_bound, read_range, why_not_a_number
from registry.status.versions import Status, changes, same_values, status_of
from registry.store.loader import Registry
from registry.store.writer import record_path, record_to_yaml
from registry.validate.report import Issue

#: The columns copied into a result's locator as written: every column that fills one of its fields, but the page
#: (a number) and the caption (yes or no), which are read.
LOCATOR_TEXT_COLUMNS = tuple(c.name for c in COLUMNS if c.fills[0].startswith("result.source_locator.")
                             and c.name not in ("page", "caption"))

NOT_IN_TABLE = "Not in the results table this record was imported from."
EMPTY_IN_TABLE = "The results table leaves it empty: the source does not state it."
REASONS = {reason.value for reason in MissingReason}


class Action(StrEnum):
    NEW = "new"
    REPLACEMENT = "replacement"
    CORRECTION = "correction"
    EVIDENCE = "evidence"


@dataclass(frozen=True)
class ImportOptions:
    """What the command line gives an import besides the table."""

    source: str
    batch: str | None = None
    date: str | None = None
    independence: str | None = None
    review: str | None = None
    reason: str | None = None
    curator: str | None = None
    now: dt.datetime | None = None


@dataclass
class Planned:
    """A record the import writes, why, and the rows it comes from."""

    staged: Staged
    action: Action
    rows: list[int]


@dataclass
class Plan:
    """What importing a table does: the records it writes, the ones it shares, the rows it leaves alone."""

    table: Table
    written: list[Planned] = field(default_factory=list)
    shared: dict[str, list[int]] = field(default_factory=dict)
    """Existing records the rows use, with those rows."""
    unchanged: list[tuple[int, str]] = field(default_factory=list)
    """(row, result id) for each row whose result exists with the same values."""
    withdrawn: list[tuple[int, str]] = field(default_factory=list)
    """(row, result id) for each row whose result was retracted: not filed again."""
    notes: list[str] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    """What validation warns about the new records (they are valid all the same)."""
    batch: Written | None = None
    """What the write did (None for a dry run)."""


#: Called with (what is being done, steps done, steps in all) as an import reads its rows and writes its files.
Steps = Callable[[str, int, int], None]


def import_table(root: Path, registry: Registry, path: Path, options: ImportOptions, *, dry_run: bool = False,
                 progress: Steps | None = None) -> Plan:
    """Import the table at ``path`` into the (valid) registry under ``root``: all its records, or none."""
    table = read_table(path)
    plan = plan_import(registry, table, options,
                       progress=(lambda done, total: progress("Reading rows", done, total)) if progress else None)
    staged = [planned.staged for planned in plan.written]
    report = check_with(registry, staged, now=options.now)
    if not report.valid:
        raise TableError(path, _problems_of_report(plan, report))
    plan.warnings = concerning(report, {s.record.id for s in staged}).warnings
    if not dry_run and staged:
        writing: Progress | None = (lambda done, total: progress("Writing files", done, total)) if progress else None
        plan.batch = write_checked(root, staged, now=options.now, progress=writing,
                                   rejected=lambda again: TableError(path, _problems_of_report(plan, again)))
    return plan


def plan_import(registry: Registry, table: Table, options: ImportOptions, *,
                progress: Progress | None = None) -> Plan:
    """The records importing ``table`` writes, or a TableError naming every problem with its row and column."""
    planner = _Planner(registry, table, options)
    for number, row in enumerate(table.rows, start=1):
        planner.row(row)
        if progress is not None:
            progress(number, len(table.rows))
    planner.evidence()
    problems = sorted(table.problems + planner.problems, key=lambda p: (p.row is None, p.row or 0))
    if problems:
        raise TableError(table.path, problems)
    return planner.plan


# -- planning ---------------------------------------------------------------------------------------


@dataclass
class _Made:
    """A record the table makes, and the rows that use it (a shared record is made once)."""

    record: Record
    rows: list[int]
    attrs: dict[str, str]


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


class _Planner:
    def __init__(self, registry: Registry, table: Table, options: ImportOptions) -> None:
        self.registry = registry
        self.table = table
        self.options = options
        source_id, _ = complete_reference(registry, options.source, ["source"], "source")
        self.source = registry.get_as(source_id, Source)
        self.batch = checked_batch(options.batch) if options.batch else split_id(self.source.id).batch
        self.date = checked_date(options.date) if options.date else today()
        self.now = (options.now or dt.datetime.now(dt.UTC)).replace(microsecond=0)
        self.cite = f"{self.source.authors_label} {self.source.year}"
        self.problems: list[Problem] = []
        self.plan = Plan(table)
        self.taken: set[str] = set(registry.records) | set(registry.failed)
        self.made: dict[tuple[str, ...], _Made] = {}
        self.result_rows: dict[tuple[str, ...], int] = {}
        self.current_results: dict[str, list[int]] = {}
        self.existing, self.retracted = self._index()
        if options.independence is not None and options.independence not in {i.value for i in Independence}:
            raise RegistryError(f"independence {options.independence!r} is not one of "
                                f"{', '.join(i.value for i in Independence)}", "give one of them ({independence})")

    def _index(self) -> tuple[dict[tuple[str, ...], Record], dict[tuple[str, ...], Record]]:
        """The registry's current records by what identifies them, and the retracted results."""
        current: dict[tuple[str, ...], Record] = {}
        retracted: dict[tuple[str, ...], Record] = {}
        for record in self.registry.records.values():
            key = _key_of(record)
            if key is None:
                continue
            status = status_of(self.registry, record.id)
            if status is Status.CURRENT:
                current.setdefault(key, record)
            elif status is Status.RETRACTED and isinstance(record, Result):
                retracted.setdefault(key, record)
        return current, retracted

    # -- one row ------------------------------------------------------------------------------

    def row(self, row: Row) -> None:
        before = len(self.problems)
        family = self.family(row)
        dataset = self.dataset(row)
        protocol = self.protocol(row)
        config = self.config(row, family) if family else None
        if config is None or dataset is None or protocol is None:
            return
        evaluation = self.evaluation(row, config, protocol, dataset)
        if evaluation is not None and len(self.problems) == before:
            self.result(row, evaluation)

    def family(self, row: Row) -> str | None:
        name = self.required(row, "family")
        if name is None:
            return None
        if _is_id(name):
            return self.named(row, "family", "family")
        key = ("family", _norm(name))
        if key not in self.existing and key not in self.made:
            names = [r.name for r in self.registry.records.values() if isinstance(r, ModelFamily)]
            close = difflib.get_close_matches(name, names, n=1, cutoff=0.8)
            if close:
                self.plan.notes.append(f"row {row.number}: model family {name!r} is new; the registry has {close[0]!r} "
                                       "(is it the same family?)")
        return self.shared(row, "family", key, {"name": name}, {}, display_slug(name))

    def config(self, row: Row, family: str) -> str | None:
        model = self.required(row, "model")
        if model is None:
            return None
        if _is_id(row.get("configuration")):
            return self.named(row, "configuration", "config")
        name = row.get("configuration") or f"{model} ({self.cite})"
        data: dict[str, Any] = {"name": name, "reported_name": model, "model_family": family, "source": self.source.id}
        attrs = {"model_family": "family"}
        self.reportable(row, "checkpoint", data, attrs)
        key = ("config", self.source.id, _norm(model), _norm(name))
        return self.shared(row, "config", key, data, attrs, display_slug(name))

    def dataset(self, row: Row) -> str | None:
        name = self.required(row, "dataset")
        if name is None:
            return None
        if _is_id(name):
            return self.named(row, "dataset", "dataset")
        full = f"{name} ({self.cite})"
        key = ("dataset", self.source.id, _norm(full))
        return self.shared(row, "dataset", key, {"name": full, "source": self.source.id}, {}, display_slug(full))

    def protocol(self, row: Row) -> str | None:
        if _is_id(row.get("protocol")):
            return self.named(row, "protocol", "protocol")
        metric = slugify(row.get("metric"))
        where = row.get("table") or row.get("figure") or row.get("section") or "the source"
        given = row.get("protocol")
        name = f"{given} ({self.cite})" if given else f"{where}, {metric or 'results'} ({self.cite})"
        key = ("protocol", self.source.id, _norm(name))
        return self.shared(row, "protocol", key, {"name": name, "source": self.source.id}, {}, display_slug(name))

    def evaluation(self, row: Row, config: str, protocol: str, dataset: str) -> str | None:
        independence = row.get("independence") or self.options.independence
        if not independence:
            self.problem(row, "independence", "missing value: write 'developer' or 'independent-external' (or give "
                         "one for the whole table with {independence})")
            return None
        if independence not in {i.value for i in Independence}:
            self.problem(row, "independence", f"{independence!r} is not one of "
                         f"{', '.join(i.value for i in Independence)}")
            return None
        model, dataset_name = row.get("model"), row.get("dataset")
        data: dict[str, Any] = {"configuration": config, "protocol": protocol, "dataset": dataset,
                                "independence": independence}
        attrs = {"independence": "independence"}
        split = self.reportable(row, "split", data, attrs)
        data["name"] = f"{model} on {dataset_name}" + (f", {split} split" if split else "")
        key = ("evaluation", config, protocol, dataset, _norm(split or ""))
        return self.shared(row, "evaluation", key, data, attrs, display_slug(data["name"]))

    def result(self, row: Row, evaluation: str) -> None:
        data = self.result_data(row, evaluation)
        if data is None:
            return
        key = ("result", self.source.id, evaluation, data["metric"], _norm(data["metric_qualifier"]))
        if key in self.result_rows:
            self.problem(row, None, f"the row repeats the result of row {self.result_rows[key]} (the same model, "
                         "dataset, protocol, split, metric and qualifier); remove one, or tell them apart in "
                         "'qualifier'")
            return
        self.result_rows[key] = row.number
        existing = self.existing.get(key)
        if isinstance(existing, Result):
            self.compare(row, existing, data)
        elif key in self.retracted:
            self.plan.withdrawn.append((row.number, self.retracted[key].id))
        else:
            slug = f"{_slug_of(evaluation)}-{data['metric']}"
            record = self.typed(row, "result", {**data, "id": self.new_id("result", slug)})
            if record is not None:
                self.add(record, Action.NEW, [row.number])

    def compare(self, row: Row, existing: Result, data: dict[str, Any]) -> None:
        """Leave a result that holds the row's values; supersede one that holds others."""
        candidate = self.typed(row, "result", {**data, "id": existing.id})
        if candidate is None:
            return
        if same_values(existing, candidate):
            self.plan.unchanged.append((row.number, existing.id))
            self.current_results.setdefault(existing.id, []).append(row.number)
            return
        changed = changes(existing, candidate)
        what = "; ".join(f"{name}: {old} -> {new}" for name, old, new in changed)
        if not self.options.reason or not self.options.curator:
            self.problem(row, _column_of("result", changed[0][0]),
                         f"the registry holds this result as {existing.id!r} with other values ({what}); a change is "
                         "filed as a correction, never an edit: give its reason ({reason}) and who files it "
                         "({curator})")
            return
        replacement_id = self.new_id("result", split_id(existing.id).slug)
        replacement = self.typed(row, "result", {**data, "id": replacement_id})
        correction_id = self.new_id("correction", f"result-{split_id(existing.id).slug}")
        correction = self.typed(row, "correction", {
            "kind": "correction", "id": correction_id, "supersedes": existing.id, "replacement": replacement_id,
            "reason": self.options.reason, "corrected_by": self.options.curator,
            "corrected_at": self.now.isoformat().replace("+00:00", "Z"),
            "note": f"Filed by 'registry import' from {self.table.path.name} row {row.number}, which changes {what}.",
            "derivation": "The id is derived by the batch convention from the superseded record's."})
        if replacement is not None and correction is not None:
            self.add(replacement, Action.REPLACEMENT, [row.number])
            self.add(correction, Action.CORRECTION, [row.number])

    def result_data(self, row: Row, evaluation: str) -> dict[str, Any] | None:
        """The result's fields from the row, or None (with problems) where a cell cannot be read."""
        before = len(self.problems)
        metric = slugify(self.required(row, "metric") or "")
        direction = self.required(row, "direction")
        if direction is not None and direction.lower() not in {d.value for d in Direction}:
            self.problem(row, "direction", f"{direction!r} is not 'higher' or 'lower'")
        printed = self.required(row, "value")
        unit = self.unit(row)
        bound = read_bound(printed) if printed is not None else None
        if bound is not None and parse_printed(bound[1]) is not None:  # '< 0.001': a bound, its sign kept apart
            printed = bound[1]
        else:
            bound = None
        # '12–15': a range, its lower end the value and its upper end kept beside it (a unit after it is refused,
        # as a value's is: the table's unit column names it).
        ends = read_range(printed) if printed is not None and bound is None and parse_printed(printed) is None \
            else None
        if ends is not None:
            printed = ends[0]
        exact = parse_printed(printed) if printed is not None else None
        if printed is not None and exact is None:
            self.problem(row, "value", why_not_a_number(printed, unit))
        locator = self.locator(row)
        qualifier = row.get("qualifier") or self.default_qualifier(row)
        if len(self.problems) > before:
            return None
        data: dict[str, Any] = {
            "kind": "result", "evaluation": evaluation, "metric": metric,
            "metric_direction": (direction or "").lower(), "metric_qualifier": qualifier, "unit": unit,
            "printed_value": printed, "numeric_value": str(exact), "source": self.source.id, "source_locator": locator,
        }
        if bound is not None:
            data["bound"] = bound[0]
        if ends is not None:
            data["range_upper"] = {"printed_value": ends[1], "numeric_value": str(parse_printed(ends[1]))}
        for column in ("unit_detail", "scope_note"):
            if row.get(column):
                data[column] = row.get(column)
        self.uncertainty(row, data)
        hardware = self.reportable(row, "hardware", data, {}, store=False)
        if hardware:
            data["hardware"] = [{"accelerator": hardware, "stated": hardware}]
        data["derivation"] = (f"Filed by 'registry import' from {self.table.path.name} row {row.number}; the id is "
                              "derived by the batch convention.")
        data["missing_metadata"] = data.pop("_missing")
        return None if len(self.problems) > before else data

    def default_qualifier(self, row: Row) -> str:
        where = row.get("table") or row.get("figure") or "the source"
        column = row.get("column")
        return f"as printed in {where}" + (f", column '{column}'" if column else "")

    def unit(self, row: Row) -> str | None:
        written = self.required(row, "unit")
        if written is None:
            return None
        unit, problem = read_unit(written)
        if problem is not None:
            self.problem(row, "unit", problem + (" Write that in the cell" if problem.endswith("?") else ""))
        return unit

    def locator(self, row: Row) -> dict[str, Any]:
        locator: dict[str, Any] = {}
        for name in LOCATOR_TEXT_COLUMNS:
            if row.get(name):
                locator[name] = row.get(name)
        page = row.get("page")
        if page:
            if page.isdigit() and int(page) >= 1:
                locator["page"] = int(page)
            else:
                self.problem(row, "page", f"{page!r} is not a page number (1 for the first page of the PDF)")
        caption = row.get("caption").lower()
        if caption in ("yes", "true", "1", "y"):
            locator["caption"] = True
        elif caption not in ("", "no", "false", "0", "n"):
            self.problem(row, "caption", f"{row.get('caption')!r}: write 'yes' for a value in the caption, or leave "
                         "it empty")
        if not locator:
            self.problem(row, None, "the row says nowhere where the value is printed; give at least its page, table "
                         "or quote")
        return locator

    def uncertainty(self, row: Row, data: dict[str, Any]) -> None:
        printed = self.reportable(row, "uncertainty", data, {}, store=False)
        if not printed:
            return
        kind = row.get("uncertainty_kind")
        kinds = [k.value for k in UncertaintyKind]
        if kind not in kinds:
            said = "missing value: an uncertainty needs its kind, " if not kind else f"{kind!r} is not a kind of "
            self.problem(row, "uncertainty_kind", said + ("" if not kind else "uncertainty; ") +
                         f"one of {', '.join(kinds)}")
            return
        value: dict[str, Any] = {"kind": kind, "printed": printed}
        numbers = [parse_printed(n) for n in numbers_in(printed)]
        read = [n for n in numbers if n is not None]
        if kind in INTERVALS and len(read) >= 2 and "±" not in printed:
            value["lower"], value["upper"] = str(read[0]), str(read[1])
        elif read:
            value["half_width"] = str(abs(read[0]))
        if row.get("uncertainty_level"):
            value["level"] = row.get("uncertainty_level").rstrip("% ")
        over = row.get("uncertainty_over")
        if over:
            parsed = _aggregate(over)
            if parsed is None:
                self.problem(row, "uncertainty_over", f"{over!r}: write a count and what was repeated, such as '10 "
                             f"folds' (one of {', '.join(r.value for r in Repeats)})")
            else:
                value["over"] = parsed
        data["uncertainty"] = value

    # -- shared records ---------------------------------------------------------------------------

    def shared(self, row: Row, kind: str, key: tuple[str, ...], data: dict[str, Any], attrs: dict[str, str],
               slug: str) -> str | None:
        """The id of the record of ``kind`` identified by ``key``: an existing one, one this table made, or a new one.

        ``attrs`` (field -> column) are the values the row gives beyond the key: a record that exists with
        other values for them is not changed, and the row is refused.
        """
        existing = self.existing.get(key)
        if existing is not None:
            for name, column in attrs.items():
                if name in data and _text(getattr(existing, name)) != _text(data[name]):
                    self.problem(row, column, f"the registry's {existing.kind_token} {existing.id!r} has {name} "
                                 f"{_text(getattr(existing, name))!r}, the row {_text(data[name])!r}; a table does not "
                                 "change a record it shares: correct the record first, or fix the row")
                    return None
            self.plan.shared.setdefault(existing.id, []).append(row.number)
            return existing.id
        made = self.made.get(key)
        if made is not None:
            for name, column in attrs.items():
                if name in data and made.attrs.get(name) != _text(data[name]):
                    self.problem(row, column, f"row {made.rows[0]} gives this {kind} {name} "
                                 f"{made.attrs.get(name)!r}, this row {_text(data[name])!r}; one {kind} cannot have "
                                 "both")
                    return None
            made.rows.append(row.number)
            return made.record.id
        full = {"kind": kind, "id": self.new_id(kind, slug), **data}
        entries = full.pop("_missing", [])
        full["missing_metadata"] = entries + self.gaps(kind, full, entries)
        full["derivation"] = (f"Filed by 'registry import' from {self.table.path.name} row {row.number}; the id is "
                              "derived by the batch convention from its name.")
        record = self.typed(row, kind, full)
        if record is None:
            return None
        self.made[key] = _Made(record, [row.number], {name: _text(data[name]) for name in attrs if name in data})
        self.add(record, Action.NEW, self.made[key].rows)
        return record.id

    def named(self, row: Row, column: str, kind: str) -> str | None:
        """The record a cell names by its id, or None (with a problem) where it names none of ``kind``."""
        text = row.get(column)
        parsed = split_id(text)
        record = self.registry.records.get(text)
        if record is None:
            close = self.registry.suggest(text, limit=1, kinds=[kind])
            hint = f"; did you mean {close[0]!r}?" if close else ""
            self.problem(row, column, f"{text!r} names no record in the registry{hint}")
            return None
        if record.kind_token != kind or parsed.kind != kind:
            self.problem(row, column, f"{text!r} is {a_kind(record.kind_token)}; this column names "
                         f"{a_kind(kind)}")
            return None
        if status_of(self.registry, text) is not Status.CURRENT:
            self.problem(row, column, f"{text!r} is {status_of(self.registry, text).value}; name the current record "
                         "of its chain")
            return None
        self.plan.shared.setdefault(text, []).append(row.number)
        return text

    def reportable(self, row: Row, column: str, data: dict[str, Any], attrs: dict[str, str], *,
                   store: bool = True) -> str | None:
        """A reportable field's value from its column, or its missing-metadata entry (see ``table.REPORTABLE``)."""
        _, name = REPORTABLE[column]
        gaps = data.setdefault("_missing", [])
        cell = row.get(column)
        if cell and cell not in REASONS:
            if store:
                data[name] = cell
                attrs[name] = column
            return cell
        if cell in REASONS:
            gaps.append({"field": name, "reason": cell})
        elif self.table.has(column):
            gaps.append({"field": name, "reason": MissingReason.UNREPORTED.value, "note": EMPTY_IN_TABLE})
        else:
            gaps.append({"field": name, "reason": MissingReason.NOT_TRANSCRIBED.value, "note": NOT_IN_TABLE})
        return None

    def gaps(self, kind: str, data: dict[str, Any], entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """'not-transcribed' for each reportable field of a new record that neither the table nor the row fills."""
        listed = {entry["field"] for entry in entries}
        return [{"field": name, "reason": MissingReason.NOT_TRANSCRIBED.value, "note": NOT_IN_TABLE}
                for name in field_plan(KIND_MODELS[kind]).reportable if name not in listed and name not in data]

    # -- evidence ---------------------------------------------------------------------------------

    def evidence(self) -> None:
        """An evidence row for each of the table's results that the given review checked and that has none."""
        if self.options.review is None:
            return
        new = sum(1 for p in self.plan.written if p.action is Action.NEW and isinstance(p.staged.record, Result))
        if new:
            self.plan.notes.append(f"{new} new result(s) get no evidence row yet: no review has checked them")
        review_id, _ = complete_reference(self.registry, self.options.review, ["review"], "review")
        review = self.registry.get_as(review_id, Review)
        if review.source != self.source.id:
            raise RegistryError(f"review {review.id!r} checked {review.source!r}, not {self.source.id!r}",
                                "give a review of the table's source")
        for result_id, rows in self.current_results.items():
            if result_id not in review.subjects:
                self.plan.notes.append(f"row {rows[0]}: {result_id} is not among the subjects of {review.id}: no "
                                       "evidence row")
                continue
            if any(e.review == review.id and e.property.value == "reported-result"
                   for e in self.registry.referrers(result_id, Evidence, "subject")):
                continue
            result = self.registry.get_as(result_id, Result)
            evaluation = self.registry.get_as(result.evaluation, Evaluation)
            data: dict[str, Any] = {
                "kind": "evidence", "id": self.new_id("evidence", f"result-{split_id(result.id).slug}-reported-result"),
                "subject": result.id, "property": "reported-result", "statement": result.printed_value,
                "claim_scope": "individual-claims", "source": result.source,
                "source_locator": result.source_locator.model_dump(mode="json", exclude_unset=True),
                "source_independence": ("developer-paper" if evaluation.independence is Independence.DEVELOPER
                                        else "independent-paper"),
                "review": review.id, "field": "printed_value",
                "derivation": f"Filed by 'registry import' from {self.table.path.name} row {rows[0]}, for review "
                              f"{review.id}, which checked its subject; the id is derived by the batch convention.",
                "missing_metadata": [],
            }
            for name, value, where in (("source_artifact_sha256", review.artifact_sha256, "review"),
                                       ("hash_scope", self.source.hash_scope, "source"),
                                       ("extraction_artifact_sha256", review.extraction_sha256, "review")):
                if value is not None:
                    data[name] = value
                else:
                    data["missing_metadata"].append({"field": name, "reason": "not-separately-documented",
                                                     "note": f"inspect the {where} record"})
            record = self.typed(None, "evidence", data)
            if record is not None:
                self.add(record, Action.EVIDENCE, rows)

    # -- helpers ----------------------------------------------------------------------------------

    def required(self, row: Row, column: str) -> str | None:
        value = row.get(column)
        if not value:
            self.problem(row, column, "missing value")
            return None
        return value

    def problem(self, row: Row | None, column: str | None, message: str) -> None:
        self.problems.append(Problem(row.number if row is not None else None, column, message))

    def new_id(self, kind: str, slug: str) -> str:
        record_id = free_id(make_id(self.batch, self.date, kind, slug or kind), lambda i: i in self.taken)
        self.taken.add(record_id)
        return record_id

    def typed(self, row: Row | None, kind: str, data: dict[str, Any]) -> Record | None:
        """The record, or None with a problem at the column each refused field comes from."""
        from registry.store.loader import _explain

        model = KIND_MODELS[kind]
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            for error in exc.errors(include_url=False):
                loc = tuple(str(part) for part in error["loc"])
                self.problem(row, _column_of(kind, *loc), _explain(error, model))
            return None

    def add(self, record: Record, action: Action, rows: list[int]) -> None:
        staged = Staged(record, record_path(self.registry.root, record), record_to_yaml(record, only_set=True))
        self.plan.written.append(Planned(staged, action, rows))


def _key_of(record: Record) -> tuple[str, ...] | None:
    """What identifies a record of a kind an import shares (see the module docstring); None for other kinds."""
    if isinstance(record, ModelFamily):
        return ("family", _norm(record.name))
    if isinstance(record, Configuration):
        return ("config", record.source, _norm(record.reported_name), _norm(record.name))
    if isinstance(record, Dataset):
        return ("dataset", record.source, _norm(record.name))
    if isinstance(record, Protocol):
        return ("protocol", record.source, _norm(record.name))
    if isinstance(record, Evaluation):
        return ("evaluation", record.configuration, record.protocol, record.dataset, _norm(record.split or ""))
    if isinstance(record, Result):
        return ("result", record.source, record.evaluation, record.metric, _norm(record.metric_qualifier))
    return None


def _column_of(kind: str, *loc: str) -> str | None:
    """The column that fills a field of a record of ``kind``: the one declared for its path, or for the nearest
    field above it, or the first declared below it (a locator's 'table' for a locator as a whole)."""
    path = (kind, *loc)
    while len(path) > 1:
        dotted = ".".join(path)
        exact = [c.name for c in COLUMNS if dotted in c.fills]
        below = [c.name for c in COLUMNS if any(f.startswith(dotted + ".") for f in c.fills)]
        if exact or below:
            return (exact or below)[0]
        path = path[:-1]
    return None


def _is_id(text: str) -> bool:
    """Whether a cell holds a stable id rather than a name."""
    try:
        split_id(text)
    except ValueError:
        return False
    return True


def _slug_of(record_id: str) -> str:
    return split_id(record_id).slug


def _text(value: Any) -> str:
    return str(getattr(value, "value", value)) if value is not None else ""


def _aggregate(text: str) -> dict[str, Any] | None:
    match = re.fullmatch(r"(?:(\d+)\s+)?([a-z-]+)", text.strip().lower())
    kinds = {r.value for r in Repeats}
    if match is None or match.group(2) not in kinds:
        return None
    aggregate: dict[str, Any] = {"kind": match.group(2)}
    if match.group(1):
        aggregate["count"] = int(match.group(1))
    return aggregate


def _problems_of_report(plan: Plan, report: Any) -> list[Problem]:
    """The validation issues of the new records, each at the row (and column) it comes from."""
    rows = {p.staged.record.id: p.rows for p in plan.written}
    kinds = {p.staged.record.id: p.staged.record.kind_token for p in plan.written}
    problems = []
    for issue in report.errors:
        record_rows = rows.get(issue.record_id or "", [])
        column = None
        if issue.field and issue.record_id in kinds:
            column = _column_of(kinds[issue.record_id], *re.split(r"[.\[\]]+", issue.field.strip("]")))
        problems.append(Problem(record_rows[0] if record_rows else None, column,
                                f"{issue.code}: {issue.message} ({issue.record_id})"))
    return problems

