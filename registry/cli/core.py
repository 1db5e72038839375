"""Commands over the records themselves: validate, show, list, release, schema."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from registry.cli._errors import quiet_closed_stdout, say_cache_refused, say_watcher_failed, user_errors
from registry.cli.options import (
    FLAGS,
    KINDS_PLACEHOLDER,
    DebugOption,
    KindsInHelp,
    NoCacheOption,
    RecordsOption,
)
from registry.cli.output import console, echo_json, print_report
from registry.errors import InvalidRegistryError, RegistryError

if TYPE_CHECKING:
    from registry.issues.report import Report


class Format(StrEnum):
    TEXT = "text"
    JSON = "json"


def load_valid(records: Path, *, verify: bool = False):  # type: ignore[no-untyped-def]
    """The registry, or InvalidRegistryError carrying the report: commands only read valid registries. ``verify``:
    every file read, none taken from the parse cache by its status alone."""
    from registry.validate.runner import validate

    registry, report = validate(records, verify=verify)
    if not report.valid:
        raise InvalidRegistryError(report)
    return registry


def failure_json(exc: Exception) -> dict[str, object]:
    """A validation that could not run, as the JSON report says it: not valid, and why."""
    from registry.textsafe import excerpt

    if isinstance(exc, RegistryError):
        message, hint = exc.worded(FLAGS)
    else:
        message, hint = f"unexpected {type(exc).__name__}: {excerpt(str(exc), 300)}", "run again with --debug"
    return {"valid": False, "error": {"message": message, "hint": hint}}


def validate_command(
    records: Path = RecordsOption,
    format: Format = typer.Option(Format.TEXT, "--format", "-f", help="'text' for people, 'json' for tools."),
    no_cache: bool = NoCacheOption,
    verify: bool = typer.Option(False, "--verify", help="Read every record file and compare its digest, not its "
                                "size, times and inode, with the last run's (no watcher, no kept report): exact even "
                                "after a change the file's status does not show. Slower than a warm run, faster than "
                                "--no-cache; CI and 'registry release' check this way."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", min=1, metavar="N",
                                    show_default="the processors available",
                                    help="Processes that read, parse and type the record files with --no-cache: "
                                    "the report is the same for any number. Below a few thousand files one "
                                    "process is used unless this is given."),
    debug: bool = DebugOption,
) -> None:
    """Check every record file and the registry as a whole; list every problem at once.

    Exit status 0 when the registry is valid (warnings allowed), 1 when it is not. Where 'registry watch' runs for
    the folder (started from here, with the same --records), it answers at once, with the same report.

    A file is taken as unchanged since the last run when its size, modification and change times and inode are as
    they were. Two changes leave those as they were: a second write through a shared memory map (mmap) of a record
    file, and a write through a hard link to it made from outside the records folder (the watcher hears of neither).
    After such a change run with --verify, which reads every file.
    """
    with user_errors(debug):
        try:
            report = _validated(records, cache=not no_cache, verify=verify, jobs=jobs)
        except Exception as exc:
            if format is Format.JSON and not debug:
                echo_json(failure_json(exc))  # a tool reading the report must see that there is none
            raise
        status = int(not report.valid)
        try:
            if format is Format.JSON:
                echo_json(report.to_dict(FLAGS))
            else:
                print_report(report)
        except BrokenPipeError:  # the reader stopped early; the verdict still decides the status
            quiet_closed_stdout()
            raise typer.Exit(status) from None
    raise typer.Exit(status)


def _validated(records: Path, *, cache: bool, verify: bool = False, jobs: int | None = None) -> Report:
    """The report of ``records``, made the way ``registry.validation`` decides; a cache that could not be used and a
    watcher that could not serve are said on stderr."""
    from registry.validation import validation

    made = validation(records, cache=cache, verify=verify, jobs=jobs)
    say_cache_refused(made.cache_refused)
    say_watcher_failed(records, made.watcher_failed)
    return made.report


def show_command(
    record_id: str = typer.Argument(..., metavar="ID", help="Stable id of the record to show."),
    records: Path = RecordsOption,
    format: Format = typer.Option(Format.TEXT, "--format", "-f", help="'text' renders the page; 'json' the record."),
    debug: bool = DebugOption,
) -> None:
    """Show one record the way its page reads (a result: methods, evidence, review, sources, metadata)."""
    from registry.page.show import render_record

    with user_errors(debug):
        registry = load_valid(records)
        record = registry.get(record_id.strip())
        if format is Format.JSON:
            echo_json(record.model_dump(mode="json", exclude_none=True))
        else:
            console.print(render_record(registry, record))


def list_command(
    kind: str | None = typer.Option(None, "--kind", "-k", help=f"Only records of this kind: {KINDS_PLACEHOLDER}."),
    all_versions: bool = typer.Option(False, "--all", help="Also list superseded and retracted records, with their "
                                      "status (default: current records only)."),
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """List current records, optionally of one kind. '--kind result' shows the results side by side."""
    from rich.table import Table

    from registry.models import KIND_MODELS
    from registry.page import display
    from registry.page.show import results_table
    from registry.status import provenance
    from registry.status.versions import status_of

    with user_errors(debug):
        if kind is not None and kind not in KIND_MODELS:
            import difflib

            close = difflib.get_close_matches(kind, list(KIND_MODELS), n=1)
            raise RegistryError(
                f"unknown kind {kind!r}" + (f" (did you mean {close[0]!r}?)" if close else ""),
                f"the kinds are: {', '.join(KIND_MODELS)}",
            )
        registry = load_valid(records)
        if kind == "result":
            console.print(results_table(registry, history=all_versions))
            return
        table = Table(title="Records")
        table.add_column("Kind", no_wrap=True)
        table.add_column("Stable ID", overflow="fold")  # ids are what users copy from here: never cut short
        table.add_column("Name", overflow="fold")
        table.add_column("Review", overflow="fold")
        if all_versions:
            table.add_column("Status", no_wrap=True)
        order = {k: i for i, k in enumerate(KIND_MODELS)}
        chosen = sorted(
            (r for r in registry.records.values() if (kind is None or r.kind_token == kind)
             and (all_versions or status_of(registry, r.id).value == "current")),
            key=lambda r: (order[r.kind_token], r.id),
        )
        for record in chosen:
            table.add_row(record.kind_token, record.id, display.record_name(record),
                          provenance.status_label(registry, record.id) if record.transcribed
                          else "-", *([status_of(registry, record.id).value] if all_versions else []))
        console.print(table)
        console.print(f"{len(chosen)} record(s)")


def release_command(
    records: Path = RecordsOption,
    format: Format = typer.Option(Format.TEXT, "--format", "-f", help="'text' or 'json'."),
    debug: bool = DebugOption,
) -> None:
    """Name the registry's current content ('<latest date>-<content hash prefix>') and list recorded releases.

    Two people with the same records get the same name; any change to a record changes it.
    """
    from registry.models import Release
    from registry.store.release import content_digest, release_name, same_content, standing

    with user_errors(debug):
        registry = load_valid(records, verify=True)  # a release names content: every file read, its digest decides
        name = release_name(registry)
        digest = content_digest(registry)
        recorded = registry.of_kind(Release)
        if format is Format.JSON:
            echo_json({"name": name, "sha256": digest, "recorded": [r.name for r in recorded],
                       "same_content": {r.name: same_content(r, digest) for r in recorded}})
            return
        console.print(f"Current content: [bold]{name}[/]")
        for release in recorded:
            console.print(f"Recorded release: {release.name} ({standing(release, digest)})", soft_wrap=True)


def schema_command(
    out: Path = typer.Option(Path("schema"), "--out", "-o", help="Folder to write '<kind>.schema.json' files into."),
    debug: bool = DebugOption,
) -> None:
    """Write the JSON Schema of every record kind, for editors that check records as they are typed."""
    from registry.export.schema import write_schemas

    with user_errors(debug):
        try:
            written = write_schemas(out)
        except OSError as exc:
            raise RegistryError(f"cannot write schemas to {str(out)!r}: {exc.strerror}",
                                "choose a writable folder with --out") from exc
        console.print(f"Wrote {len(written)} schemas to {out}/")


def register(app: typer.Typer) -> None:
    app.command("validate")(validate_command)
    app.command("show")(show_command)
    app.command("list", cls=KindsInHelp)(list_command)
    app.command("release")(release_command)
    app.command("schema")(schema_command)
