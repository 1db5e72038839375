"""Commands that write records in batches: import a results table, format record files, recover a batch."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from registry.cli._errors import err_console, user_errors
from registry.cli.new import curation_errors, load_for_writing, report_recovery
from registry.cli.options import DateOption, DebugOption, DryRunOption, RecordsOption

if TYPE_CHECKING:
    from registry.curate.importer import Plan

#: An import of more rows than this shows its progress.
PROGRESS_ROWS = 200


def import_command(
    table: Path = typer.Argument(..., metavar="FILE", help="A CSV or TSV results table: one row per printed result "
                                 "(docs/curating.md lists its columns)."),
    source: str = typer.Option(..., "--source", metavar="ID", help="The source the table is read from (part of its "
                               "id is completed)."),
    batch: str | None = typer.Option(None, "--batch", help="The batch name of the new ids (default: the source's)."),
    date: str | None = DateOption,
    independence: str | None = typer.Option(None, "--independence", help="'developer' or 'independent-external', "
                                            "for rows whose 'independence' cell is empty."),
    review: str | None = typer.Option(None, "--review", metavar="ID", help="A review that checked the table's results, "
                                      "or the part of an id the reviews of one 'registry review --write' run share "
                                      "('pdf-check'): each result a current source-checked one lists gets its "
                                      "evidence row."),
    reason: str | None = typer.Option(None, "--reason", help="Why the values that changed since the last import are "
                                      "corrected (needed when any did)."),
    curator: str | None = typer.Option(None, "--curator", help="Who files the corrections (needed when any value "
                                       "changed)."),
    dry_run: bool = DryRunOption,
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Turn a results table into records: the configurations, datasets, protocols, evaluations and results its rows
    need, sharing the records that exist, all written or none.

    Importing the same table again writes nothing; a value that changed is filed as a correction, never an edit.
    """
    from registry.curate.importer import ImportOptions, import_table

    with user_errors(debug), curation_errors(), _Steps(PROGRESS_ROWS) as steps:
        registry = load_for_writing(records)
        options = ImportOptions(source=source, batch=batch, date=date, independence=independence, review=review,
                                reason=reason, curator=curator)
        plan = import_table(records, registry, table, options, dry_run=dry_run, progress=steps)
    _report_plan(plan, dry_run)


def _report_plan(plan: Plan, dry_run: bool) -> None:
    from rich.table import Table
    from rich.text import Text

    from registry.cli.output import console
    from registry.curate.importer import Action

    if plan.batch is not None:
        report_recovery(plan.batch.recovered)
    rows = len(plan.table.rows)
    verb = "Would write" if dry_run else "Wrote"
    if plan.written:
        listing = Table(title=Text(f"{verb} {len(plan.written)} record(s) from {plan.table.path.name} ({rows} rows)"),
                        title_justify="left")
        listing.add_column("Action", no_wrap=True)
        listing.add_column("Kind", no_wrap=True)
        listing.add_column("Stable ID", overflow="fold")
        listing.add_column("Rows", overflow="fold")
        for planned in plan.written:
            record = planned.staged.record
            listing.add_row(planned.action.value, record.kind_token, Text(record.id), _rows(planned.rows))
        console.print(listing)
    else:
        console.print(f"Nothing to write: every row of {plan.table.path.name} ({rows} rows) is in the registry as "
                      "it is.", soft_wrap=True)
    counts = {action: sum(1 for p in plan.written if p.action is action) for action in Action}
    summary = [f"{counts[Action.NEW]} new", f"{counts[Action.CORRECTION]} correction(s)",
               f"{counts[Action.EVIDENCE]} evidence row(s)", f"{len(plan.shared)} existing record(s) shared",
               f"{len(plan.unchanged)} row(s) unchanged"]
    if plan.withdrawn:
        summary.append(f"{len(plan.withdrawn)} row(s) retracted earlier, not filed again")
    console.print("; ".join(summary) + ("" if not dry_run else " (dry run: nothing written)"), soft_wrap=True)
    for note in plan.notes:
        console.print(Text(f"Note: {note}"), soft_wrap=True)
    name = plan.table.path.name
    for cell in plan.table.formulas:
        err_console.print(f"warning formula-cell: {cell.where(name)}: {cell.message}", soft_wrap=True, markup=False)
    print_warnings(plan.warnings)


def print_warnings(warnings: list[Any]) -> None:
    """What validation warns about records just written (or about to be): valid, but worth a look."""
    from registry.cli.options import FLAGS

    for issue in warnings:
        err_console.print(f"warning {issue.code}: {issue.text(FLAGS)}", soft_wrap=True, markup=False)


def _rows(rows: list[int]) -> str:
    return ", ".join(str(r) for r in rows[:8]) + (f" (+{len(rows) - 8})" if len(rows) > 8 else "")


class _Steps:
    """Rich progress bars for an import of many rows, shown only once there are more than ``threshold`` steps."""

    def __init__(self, threshold: int) -> None:
        self.threshold = threshold
        self.progress: Any = None
        self.tasks: dict[str, Any] = {}

    def __enter__(self) -> _Steps:
        return self

    def __call__(self, what: str, done: int, total: int) -> None:
        if total <= self.threshold and self.progress is None:
            return
        if self.progress is None:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                     TimeElapsedColumn(), console=err_console, transient=False)
            self.progress.start()
        if what not in self.tasks:
            self.tasks[what] = self.progress.add_task(what, total=total)
        self.progress.update(self.tasks[what], completed=done, total=total)

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()


def fmt_command(
    paths: list[Path] | None = typer.Argument(None, metavar="PATH", help="Record files or folders to format "
                                              "(default: every record file under --records)."),
    check: bool = typer.Option(False, "--check", help="Write nothing; list the files that are not in the canonical "
                               "form and exit 1 if any is (for CI)."),
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Rewrite record files in the canonical form the registry writes (key order, quoting, line width), keeping
    their comments; a file whose values would change is left as it is.
    """
    from registry.cli.output import console
    from registry.curate.fmt import format_files, rewrite
    from registry.store.batch import recover

    with user_errors(debug):
        holding_records(records)
        if not check:
            report_recovery(recover(records))
        outcome = format_files(records, list(paths or []))
        for path, why in outcome.skipped.items():
            err_console.print(f"cannot format {path}: {why}", soft_wrap=True, markup=False)
        if check:
            for path in outcome.changed:
                console.print(f"would reformat {path}", soft_wrap=True, markup=False)
            total = len(outcome.changed) + len(outcome.unchanged)
            console.print(f"{len(outcome.changed)} of {total} file(s) not in the canonical form", soft_wrap=True)
            raise typer.Exit(int(bool(outcome.changed or outcome.skipped)))
        if outcome.changed:
            report_recovery(rewrite(records, outcome).recovered)
        for path in outcome.changed:
            console.print(f"reformatted {path}", soft_wrap=True, markup=False)
        console.print(f"Reformatted {len(outcome.changed)} file(s); {len(outcome.unchanged)} already canonical",
                      soft_wrap=True)
    raise typer.Exit(int(bool(outcome.skipped)))


def recover_command(
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Undo a batch write that was interrupted part-way (an import, new or fmt killed while it wrote), so that the
    registry is as it was before it.
    """
    from registry.cli.output import console
    from registry.store.batch import recover

    with user_errors(debug):
        existing_folder(records)
        recovered = recover(records)
        if recovered is None:
            holding_records(records)
    if recovered is None:
        console.print(f"No interrupted batch write in {records}: nothing to undo.", soft_wrap=True)
        return
    report_recovery(recovered)
    for path in recovered.undone:
        console.print(f"undid {path}", soft_wrap=True, markup=False)


def existing_folder(records: Path) -> None:
    """Refuse a records folder that is not there: 'nothing to undo' or 'nothing to format' would read as success."""
    from registry.errors import RegistryError

    if not records.is_dir():
        what = "is not a folder" if records.exists() else "does not exist"
        raise RegistryError(f"the records folder {str(records)!r} {what}",
                            "point {records} at the folder that holds '<kind>/<id>.yaml' files", path=records)


def holding_records(records: Path) -> None:
    """Refuse a records folder without record files, as 'registry validate' does (no-records)."""
    from registry.errors import RegistryError
    from registry.store.loader import record_files

    existing_folder(records)
    if next(iter(record_files(records)), None) is None:
        raise RegistryError(f"no record files (*.yaml) under {str(records)!r}",
                            "point {records} at the folder that holds '<kind>/<id>.yaml' files", path=records)


def correct_command(
    record_id: str = typer.Argument(..., metavar="ID", help="The record to correct (its current version)."),
    changes: list[str] = typer.Option(..., "--set", metavar="FIELD=VALUE", help="A corrected value, by its path "
                                      "(printed_value=0.681, source_locator.page=6); a result's exact value follows "
                                      "its printed digits. Repeatable."),
    reason: str = typer.Option(..., "--reason", help="What was wrong and how it was found."),
    curator: str = typer.Option(..., "--curator", help="Who files the correction."),
    date: str | None = DateOption,
    dry_run: bool = DryRunOption,
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Correct a transcribed record without editing it: file the corrected copy under a new id and the correction
    that supersedes the old one (which stays, with its reviews).
    """
    from registry.cli.new import _pair
    from registry.curate.corrections import draft_correction

    with user_errors(debug), curation_errors():
        registry = load_for_writing(records)
        checked = draft_correction(registry, record_id, [_pair(c) for c in changes], reason=reason, by=curator,
                                   date=date)
        _write_checked(records, checked, dry_run)


def retract_command(
    record_id: str = typer.Argument(..., metavar="ID", help="The record to withdraw (its current version)."),
    reason: str = typer.Option(..., "--reason", help="Why it is withdrawn."),
    curator: str = typer.Option(..., "--curator", help="Who withdraws it."),
    date: str | None = DateOption,
    dry_run: bool = DryRunOption,
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Withdraw a transcribed record without deleting it: file a retraction that names it and why."""
    from registry.curate.corrections import draft_retraction

    with user_errors(debug), curation_errors():
        registry = load_for_writing(records)
        _write_checked(records, draft_retraction(registry, record_id, reason=reason, by=curator, date=date), dry_run)


def _write_checked(records: Path, checked: Any, dry_run: bool) -> None:
    import sys

    from registry.cli.output import console

    if dry_run:
        for staged in checked.staged:
            console.print(f"# {staged.path} (dry run: nothing written)", soft_wrap=True, markup=False)
            sys.stdout.write(staged.text)
    else:
        written = checked.write(records)
        report_recovery(written.recovered)
        for staged in checked.staged:
            console.print(f"Wrote {staged.record.kind_token} {staged.record.id} to {staged.path}", soft_wrap=True,
                          markup=False)
    print_warnings(checked.warnings)


def register(app: typer.Typer) -> None:
    app.command("import")(import_command)
    app.command("correct")(correct_command)
    app.command("retract")(retract_command)
    app.command("fmt")(fmt_command)
    app.command("recover")(recover_command)
