"""What an import has planned so far, and the machinery every kind of row shares.

``Filing`` holds the table, the options and the source; the registry's current records by what
identifies them (``key_of``) and the ones this table makes, so that a record is shared, never made
twice; the ids taken; and every problem found, each at its row and column. ``shared`` and ``named``
find or make a record; ``reportable`` reads a reportable field's cell or its missing-metadata entry;
``typed`` builds a record, each refused field a problem at the column it came from.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from registry.curate.naming import checked_batch, checked_date, free_id, make_id, today
from registry.curate.new import complete_reference
from registry.curate.plan import Action, ImportOptions, Plan, Planned
from registry.curate.precheck import Staged
from registry.curate.table import REPORTABLE, Problem, Row, Table, columns
from registry.errors import RegistryError
from registry.ids import a_kind, split_id
from registry.models import (
    KIND_MODELS,
    Configuration,
    Dataset,
    Evaluation,
    MissingReason,
    ModelFamily,
    Protocol,
    Record,
    Result,
    Source,
)
from registry.models.fields import field_plan
from registry.models.records import Independence
from registry.status.versions import Status, status_of
from registry.store.loader import Registry
from registry.store.writer import record_path, record_to_yaml

NOT_IN_TABLE = "Not in the results table this record was imported from."
EMPTY_IN_TABLE = "The results table leaves it empty: the source does not state it."
REASONS = {reason.value for reason in MissingReason}


class Filing:
    """One import's plan in the making: what it shares, makes and refuses, row by row."""

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
            key = key_of(record)
            if key is None:
                continue
            status = status_of(self.registry, record.id)
            if status is Status.CURRENT:
                current.setdefault(key, record)
            elif status is Status.RETRACTED and isinstance(record, Result):
                retracted.setdefault(key, record)
        return current, retracted

    def shared(self, row: Row, kind: str, key: tuple[str, ...], data: dict[str, Any], attrs: dict[str, str],
               slug: str) -> str | None:
        """The id of the record of ``kind`` identified by ``key``: an existing one, one this table made, or a new one.

        ``attrs`` (field -> column) are the values the row gives beyond the key: a record that exists with
        other values for them is not changed, and the row is refused.
        """
        existing = self.existing.get(key)
        if existing is not None:
            for name, column in attrs.items():
                if name in data and text_of(getattr(existing, name)) != text_of(data[name]):
                    self.problem(row, column, f"the registry's {existing.kind_token} {existing.id!r} has {name} "
                                 f"{text_of(getattr(existing, name))!r}, the row {text_of(data[name])!r}; a table does "
                                 "not change a record it shares: correct the record first, or fix the row")
                    return None
            self.plan.shared.setdefault(existing.id, []).append(row.number)
            return existing.id
        made = self.made.get(key)
        if made is not None:
            for name, column in attrs.items():
                if name in data and made.attrs.get(name) != text_of(data[name]):
                    self.problem(row, column, f"row {made.rows[0]} gives this {kind} {name} "
                                 f"{made.attrs.get(name)!r}, this row {text_of(data[name])!r}; one {kind} cannot have "
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
        self.made[key] = _Made(record, [row.number], {name: text_of(data[name]) for name in attrs if name in data})
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
        cell = self.reportable_cell(row, column, name, data.setdefault("_missing", []))
        if cell and store:
            data[name] = cell
            attrs[name] = column
        return cell

    def reportable_cell(self, row: Row, column: str, name: str, gaps: list[dict[str, Any]]) -> str | None:
        """The cell of a reportable field's column, or None with its missing-metadata entry added to ``gaps``: a
        reason written in the cell, 'unreported' for an empty cell, 'not-transcribed' for a column the table lacks."""
        cell = row.get(column)
        if cell and cell not in REASONS:
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
                self.problem(row, column_of(kind, *loc), _explain(error, model))
            return None

    def add(self, record: Record, action: Action, rows: list[int]) -> None:
        staged = Staged(record, record_path(self.registry.root, record), record_to_yaml(record, only_set=True))
        self.plan.written.append(Planned(staged, action, rows))


@dataclass
class _Made:
    """A record the table makes, and the rows that use it (a shared record is made once)."""

    record: Record
    rows: list[int]
    attrs: dict[str, str]


def norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def key_of(record: Record) -> tuple[str, ...] | None:
    """What identifies a record of a kind an import shares (see the module docstring); None for other kinds."""
    if isinstance(record, ModelFamily):
        return ("family", norm(record.name))
    if isinstance(record, Configuration):
        return ("config", record.source, norm(record.reported_name), norm(record.name))
    if isinstance(record, Dataset):
        return ("dataset", record.source, norm(record.name))
    if isinstance(record, Protocol):
        return ("protocol", record.source, norm(record.name))
    if isinstance(record, Evaluation):
        return ("evaluation", record.configuration, record.protocol, record.dataset, norm(record.split or ""))
    if isinstance(record, Result):
        return ("result", record.source, record.evaluation, record.metric, norm(record.metric_qualifier))
    return None


def column_of(kind: str, *loc: str) -> str | None:
    """The column that fills a field of a record of ``kind``: the one declared for its path, or for the nearest
    field above it, or the first declared below it (a locator's 'table' for a locator as a whole)."""
    path = (kind, *loc)
    every = columns()
    while len(path) > 1:
        dotted = ".".join(path)
        exact = [c.name for c in every if dotted in c.fills]
        below = [c.name for c in every if any(f.startswith(dotted + ".") for f in c.fills)]
        if exact or below:
            return (exact or below)[0]
        path = path[:-1]
    return None


def is_id(text: str) -> bool:
    """Whether a cell holds a stable id rather than a name."""
    try:
        split_id(text)
    except ValueError:
        return False
    return True


def text_of(value: Any) -> str:
    return str(getattr(value, "value", value)) if value is not None else ""

