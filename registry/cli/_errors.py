"""The one place where library failures become messages and exit statuses."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from registry.cli.options import FLAGS
from registry.cli.output import DeferredConsole
from registry.errors import InvalidRegistryError, RegistryError, UnknownRecordError, WrongKindError

if TYPE_CHECKING:
    from rich.console import Console

err_console: Console = DeferredConsole(stderr=True, highlight=False)  # type: ignore[assignment]


@contextmanager
def user_errors(debug: bool = False) -> Iterator[None]:
    """Turn known failures into 'Error: ... / Hint: ...' and exit status 1; a traceback only with --debug."""
    try:
        yield
    except typer.Exit:
        raise
    except InvalidRegistryError as exc:
        from registry.cli.output import print_report

        print_report(exc.report, console=err_console)  # type: ignore[arg-type]
        _fail(exc, debug)
    except RegistryError as exc:
        _fail(exc, debug)
    except BrokenPipeError:
        quiet_closed_stdout()
        raise typer.Exit(0) from None  # the reader stopped early ('| head'): nothing went wrong here
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM where a command asked for it (registry.store.outputs)
        err_console.print("Interrupted; nothing half-written was kept.")
        raise typer.Exit(getattr(exc, "exit_status", 130)) from None
    except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
        if debug:
            raise
        from rich.markup import escape

        err_console.print(f"[red]Error:[/] unexpected {type(exc).__name__}: {escape(str(exc))}", soft_wrap=True)
        err_console.print("Hint: run again with --debug for the traceback, and report it.")
        raise typer.Exit(1) from None


def quiet_closed_stdout() -> None:
    """Point stdout at /dev/null once its reader is gone, so the exit flush does not fail a second time."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


#: Advice that names commands, for library errors whose own hint cannot (a library never names a command).
ADVICE: dict[type[RegistryError], Callable[[Any], str]] = {
    WrongKindError: lambda exc: f"run 'registry list --kind {exc.expected}' to see the ids of that kind",
    UnknownRecordError: lambda exc: ("did you mean: " + ", ".join(exc.suggestions)) if exc.suggestions
    else "run 'registry list' to see the ids",
    InvalidRegistryError: lambda exc: "run 'registry validate' and fix the problems it lists",
}


def _fail(exc: RegistryError, debug: bool) -> None:
    if debug:
        raise exc
    message, hint = exc.worded(FLAGS)
    advice = next((advise for kind, advise in ADVICE.items() if isinstance(exc, kind)), None)
    if advice is not None:
        hint = advice(exc)
    from rich.markup import escape

    err_console.print(f"[red]Error:[/] {escape(message)}", soft_wrap=True)
    if hint:
        err_console.print(f"Hint: {escape(hint)}", soft_wrap=True)
    sys.stderr.flush()
    raise typer.Exit(1) from None


def say_cache_refused(why: object | None) -> None:
    """Say, on stderr, why the cache's folders were not used (another user can reach them; nothing where none)."""
    if why is not None:
        err_console.print(f"Not using the cache: {why}. Every file is read; make the folder yours alone "
                          "(or point $XDG_CACHE_HOME/$XDG_STATE_HOME elsewhere) to use it again.", soft_wrap=True)


def say_watcher_failed(records: Path, why: str | None) -> None:
    """Say, on stderr, why a watcher of ``records`` that answered could not serve (nothing where none did)."""
    if why is not None:
        err_console.print(f"The watcher of {records} could not answer ({why}); validating without it.")
