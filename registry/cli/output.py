"""Shared output helpers for commands."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from registry.cli.options import FLAGS
from registry.report import Report, Severity


class PipeConsole(Console):
    """A console that lets a closed pipe ('| head') reach the command as BrokenPipeError.

    Rich would otherwise end the process itself with status 1, before the command could say
    with which status it should end (``validate`` keeps its verdict).
    """

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


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
