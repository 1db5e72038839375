"""The validation runner: every rule over every record, then the rules over the records folder, into one report.

Each rule adds issues to the report and never raises, so one run lists every problem, each under a code
declared in ``registry.issues.codes``. The rules live in ``registry.validate.rules``, one module per
concept; each registers them on ``registry.validate.rules_registry`` (``kind_rules`` for a kind's own,
``record_rules`` for every record, ``registry_rules`` for the folder) as it is imported, and the modules are
listed once, in ``RULE_MODULES``, as datasette lists its default plugins: none imports this runner back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from registry.issues import codes
from registry.issues.codes import Code
from registry.issues.report import Report, format_path
from registry.models import Record
from registry.store.loader import Registry, display_path
from registry.validate.rules import (
    attestations,
    benchmarks,
    evidence,
    history,
    identity,
    metadata,
    references,
    reproduction,
    sources,
    units,
    values,
)
from registry.validate.rules_registry import kind_rules, record_rules, registry_rules

#: The rule modules, listed once: each registers its rules as it is imported (``rules.derived`` is called by
#: ``rules.values`` and registers none). A new module of rules is one more entry here.
RULE_MODULES = (identity, references, metadata, values, sources, evidence, reproduction, units, history, benchmarks,
                attestations)


def check_registry(registry: Registry, report: Report, *, now: dt.datetime | None = None) -> Report:
    """Run every whole-registry rule over ``registry``, adding issues to ``report``.

    One checker visits every record in turn (a registry can hold hundreds of thousands, and every
    run checks them all): each rule's quick test of a record that is fine comes first, and a
    message is only worked out for a record that has a problem.
    """
    checker = start(registry, report, now)
    rules = RuleTable()
    for record in registry.records.values():
        check_record(checker, record, rules)
    for registry_rule in registry_rules:
        registry_rule(registry, report)
    report_unchecked(registry, report, checker.unchecked)
    return report


def start(registry: Registry, report: Report, now: dt.datetime | None) -> _Checker:
    """The checker of one run (``now``: the moment dates are compared with, by default the clock's)."""
    return _Checker(registry, report, None, {}, _Suggestions(registry),  # type: ignore[arg-type]
                    now or dt.datetime.now(dt.UTC))


class RuleTable:
    """A kind's own rules, looked up once per kind: singledispatch's own lookup costs a microsecond a call."""

    def __init__(self) -> None:
        self.found: dict[type[Record], Callable[[Record, _Checker], None] | None] = {}

    def __call__(self, model: type[Record]) -> Callable[[Record, _Checker], None] | None:
        if model not in self.found:
            rules = kind_rules.dispatch(model)
            self.found[model] = None if rules is kind_rules.dispatch(object) else rules
        return self.found[model]


def check_record(checker: _Checker, record: Record, rules: RuleTable) -> None:
    """Every rule about one record: what it finds goes to ``checker.report`` (and ``checker.unchecked``).

    The unit ``registry.validate.incremental`` keeps: what it finds depends only on the record and on what the
    rules look up in ``checker.registry``.
    """
    checker.record = record
    for rule in record_rules:
        rule(record, checker)
    own = rules(type(record))
    if own is not None:
        own(record, checker)


def report_unchecked(registry: Registry, report: Report, unchecked: dict[str, list[str]]) -> None:
    """One warning on each record that did not load, for the references to it that wait until it does."""
    for record_id, referrers in unchecked.items():
        path = registry.failed[record_id]
        report.add(codes.REFERENCES_UNCHECKED.issue(
            display_path(path, registry.root), 1, record_id=record_id,
            message=f"this record did not load, so the {len(referrers)} reference(s) to it (from {referrers[0]}"
                    f"{' and others' if len(referrers) > 1 else ''}) are checked only once its errors are fixed",
        ))


class _Suggestions:
    """'Did you mean' for unresolved references: once per missing id, and only for the first few hundred.

    Each lookup compares the id with every id of the kinds the field takes; a registry with
    thousands of dangling references (a folder copied without its sources) must not pay that
    thousands of times over.
    """

    LIMIT = 200

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.found: dict[tuple[str, tuple[str, ...]], str | None] = {}

    def suggest(self, value: str, kinds: list[str]) -> str | None:
        key = (value, tuple(kinds))
        if key not in self.found:
            if len(self.found) >= self.LIMIT:
                return None
            close = self.registry.suggest(value, limit=1, kinds=kinds)
            self.found[key] = close[0] if close else None
        return self.found[key]


class _Checker:
    """What the rules are given about the record they check (``rules_registry.RecordCheck``), and where their
    issues go."""

    def __init__(self, registry: Registry, report: Report, record: Record, unchecked: dict[str, list[str]],
                 suggestions: _Suggestions, now: dt.datetime) -> None:
        self.registry = registry
        self.now = now
        self.report = report
        self.suggestions = suggestions
        self.unchecked = unchecked  # id of a record that did not load -> ids of the records that name it
        self.record = record
        self.root_parts = registry.root.parts
        self.today = f"{now.astimezone(dt.UTC):%Y%m%d}"  # an id's date is a UTC day, compared as text

    def add(self, code: Code, message: str, field: tuple[str | int, ...] = ()) -> None:
        self.report.add(code.issue(self.registry.relpath(self.record.id), self.registry.line_of(self.record.id, field),
                                   message, record_id=self.record.id, field=format_path(field) or None))

    def suggest(self, value: str, kinds: list[str]) -> str | None:
        """The id of the kinds ``kinds`` closest to ``value``, for 'did you mean' (asked for few values only)."""
        return self.suggestions.suggest(value, kinds)

    def wait_for(self, value: str) -> None:
        """A reference to ``value``, a record that did not load: checked once that record loads."""
        self.unchecked.setdefault(value, []).append(self.record.id)


def validate(root: Any, *, now: dt.datetime | None = None, cache: bool | None = None,
             verify: bool = False, jobs: int | None = None) -> tuple[Registry, Report]:
    """Load and check the registry under ``root``: the one entry point for every consumer.

    ``cache`` and ``verify`` are passed to ``load_registry`` (False: read every file, not the parse cache; ``verify``:
    read every file, and take from the cache only what its digest finds there); ``jobs``: the worker processes that
    load the files (None: one per processor where that pays; the report is the same for any number).
    """
    from pathlib import Path

    from registry.store.loader import gc_paused, load_registry

    with gc_paused():
        registry, report = load_registry(Path(root), cache=cache, verify=verify, jobs=jobs)
        check_registry(registry, report, now=now)
    return registry, report

