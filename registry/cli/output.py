"""Shared output helpers for commands."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from registry.cli.options import FLAGS
from registry.textsafe import escaped, is_safe, json_text

if TYPE_CHECKING:
    from rich.console import Console
    from rich.segment import Segment

    from registry.issues.report import Report


@functools.cache
def pipe_console_class() -> type[Console]:
    """``PipeConsole``, the console class every command prints through (rich is imported on first use)."""
    from rich.console import Console
    from rich.segment import Segment

    class PipeConsole(Console):
        """No stored text reaches the terminal raw, and a closed pipe ('| head') reaches the command as
        BrokenPipeError.

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

    return PipeConsole


def __getattr__(name: str) -> Any:
    """``PipeConsole`` itself, made (and rich imported) when first asked for."""
    if name == "PipeConsole":
        return pipe_console_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class DeferredConsole:
    """A ``PipeConsole`` made when first printed to: rich costs a fifth of the command line's start,
    which '--help' does not need."""

    def __init__(self, **options: Any) -> None:
        object.__setattr__(self, "_options", options)
        object.__setattr__(self, "_console", None)

    def _made(self) -> Console:
        if self._console is None:
            object.__setattr__(self, "_console", pipe_console_class()(**self._options))
        return self._console  # type: ignore[return-value]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._made(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._made(), name, value)

    # Special methods are looked up on the type, not through ``__getattr__``: rich's live displays
    # (a progress bar) hold the console with ``with console:`` to buffer what is printed meanwhile.
    def __enter__(self) -> Console:
        return self._made().__enter__()

    def __exit__(self, *exc_info: Any) -> None:
        self._made().__exit__(*exc_info)


console: Console = DeferredConsole(highlight=False)  # type: ignore[assignment]


def print_report(report: Report, console: Console = console, *, verdict: bool = True) -> None:
    """Every issue as 'file:line: severity code [field] (record)', its message below; then a verdict on the
    registry (left out where the issues are those of records not written, which the registry does not hold)."""
    from rich.markup import escape

    from registry.issues.report import Severity

    for issue in report.sorted_issues():
        style = "red" if issue.severity is Severity.ERROR else "yellow"
        field = " " + escape(f"[{issue.field}]") if issue.field else ""
        console.print(f"{escape(issue.location)}: [{style}]{issue.severity.value}[/] [bold]{issue.code}[/]{field}",
                      soft_wrap=True)
        console.print(f"    {escape(issue.text(FLAGS))}", soft_wrap=True)
    if not verdict:
        return
    console.print(
        f"{'[green]valid[/]' if report.valid else '[red]invalid[/]'}: {report.records} records in {report.files} "
        f"files; {len(report.errors)} errors, {len(report.warnings)} warnings"
    )


def echo_json(data: object) -> None:
    """Print ``data`` as indented JSON, with characters a terminal would act on escaped (same JSON value)."""
    import json

    import typer

    typer.echo(json_text(json.dumps(data, indent=2, ensure_ascii=False)))
