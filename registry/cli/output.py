"""Shared output helpers for commands."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from registry.report import Report, Severity

console = Console(highlight=False)


def print_report(report: Report, console: Console = console) -> None:
    """Every issue as 'file:line: severity code [field] (record)', its message below; then a verdict."""
    for issue in report.sorted_issues():
        style = "red" if issue.severity is Severity.ERROR else "yellow"
        field = " " + escape(f"[{issue.field}]") if issue.field else ""
        console.print(f"{escape(issue.location)}: [{style}]{issue.severity.value}[/] [bold]{issue.code}[/]{field}",
                      soft_wrap=True)
        console.print(f"    {escape(issue.message)}", soft_wrap=True)
    verdict = "[green]valid[/]" if report.valid else "[red]invalid[/]"
    console.print(
        f"{verdict}: {report.records} records in {report.files} files; "
        f"{len(report.errors)} errors, {len(report.warnings)} warnings"
    )
