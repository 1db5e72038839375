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
are validated together with the registry, and written as one batch (``registry.store.batch``).

The work is split by what it holds: ``plan`` (what an import does, as the command shows it),
``filing`` (the plan in the making: records shared, made and refused), ``chain`` (a row's family,
configuration, dataset, protocol and evaluation), ``result_rows`` (its result) and ``evidence_rows``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from registry.curate.chain import ChainRows
from registry.curate.evidence_rows import evidence
from registry.curate.filing import Filing, column_of
from registry.curate.new import concerning
from registry.curate.plan import Action, ImportOptions, Plan, Planned, Steps
from registry.curate.precheck import check_with, write_checked
from registry.curate.table import Problem, Table, TableError, read_table
from registry.store.batch import Progress
from registry.store.loader import Registry

__all__ = ["Action", "ImportOptions", "Plan", "Planned", "Steps", "import_table", "plan_import"]


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
    filing = Filing(registry, table, options)
    rows = ChainRows(filing)
    for number, row in enumerate(table.rows, start=1):
        rows.row(row)
        if progress is not None:
            progress(number, len(table.rows))
    evidence(filing)
    problems = sorted(table.problems + filing.problems, key=lambda p: (p.row is None, p.row or 0))
    if problems:
        raise TableError(table.path, problems)
    return filing.plan



def _problems_of_report(plan: Plan, report: Any) -> list[Problem]:
    """The validation issues of the new records, each at the row (and column) it comes from."""
    rows = {p.staged.record.id: p.rows for p in plan.written}
    kinds = {p.staged.record.id: p.staged.record.kind_token for p in plan.written}
    problems = []
    for issue in report.errors:
        record_rows = rows.get(issue.record_id or "", [])
        column = None
        if issue.field and issue.record_id in kinds:
            column = column_of(kinds[issue.record_id], *re.split(r"[.\[\]]+", issue.field.strip("]")))
        problems.append(Problem(record_rows[0] if record_rows else None, column,
                                f"{issue.code}: {issue.message} ({issue.record_id})"))
    return problems
