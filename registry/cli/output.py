"""Shared output helpers for commands."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.markup import escape
from rich.segment import Segment

from registry.cli.options import FLAGS
from registry.report import Report, Severity
from registry.textsafe import escaped, is_safe, json_text


class PipeConsole(Console):
    """The console every command prints through: no stored text reaches the terminal raw, and a closed
    pipe ('| head') reaches the command as BrokenPipeError.

    Text is escaped as it is written out (``registry.textsafe.escaped``), whatever renders it: a
    record name holding ``\x1b[2J`` shows as that text instead of clearing the screen. Rich's own
    control sequences (colours, cursor moves) are not text and pass. Rich would otherwise end the
    process itself on a closed pipe with status 1, before the command could say with which status it
    should end (``validate`` keeps its verdict).
    """

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control or is_safe(segment.text) else Segment(escaped(segment.text), segment.style)
            for segment in buffer
        )


console = PipeConsole(highlight=False)


def print_report(report: Report, console: Console = console) -> None:
    """Every issue as 'file:line: severity code [field] (record)', its message below; then a verdict."""
    for issue in report.sorted_issues():
        style = "red" if issue.severity is Severity.ERROR else "yellow"
        field = " " + escape(f"[{issue.field}]") if issue.field else ""
        console.print(f"{escape(issue.location)}: [{style}]{issue.severity.value}[/] [bold]{issue.code}[/]{field}",
                      soft_wrap=True)
        console.print(f"    {escape(issue.text(FLAGS))}", soft_wrap=True)
    verdict = "[green]valid[/]" if report.valid else "[red]invalid[/]"
    console.print(
        f"{verdict}: {report.records} records in {report.files} files; "
        f"{len(report.errors)} errors, {len(report.warnings)} warnings"
    )


def echo_json(data: object) -> None:
    """Print ``data`` as indented JSON, with characters a terminal would act on escaped (same JSON value)."""
    import json

    import typer

    typer.echo(json_text(json.dumps(data, indent=2, ensure_ascii=False)))
