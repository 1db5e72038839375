"""The ``registry`` command. Each command group lives in its own module; this one only assembles them.

Heavy libraries (torch, the database layer, pypdf) are imported inside the commands
that need them, so ``registry --help`` and ``registry validate`` start instantly.
"""

from __future__ import annotations

import sys

import typer

from registry.cli import core, curate, db, export, leaderboard, new, reproduce, site, table, watch
from registry.cli import review as review_cli
from registry.cli.options import CommandGroup

app = typer.Typer(
    cls=CommandGroup,
    name="registry",
    help=(
        "An evidence registry for published machine-learning results: every number with its source, "
        "its review, what the source leaves unstated, and what we measured or estimated ourselves, "
        "never merged with what was printed."
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)



def _print_version(asked: bool) -> None:
    if asked:
        from registry import __version__

        typer.echo(f"registry {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="Print the registry's release (CHANGELOG.md says what each changed) and exit."),
) -> None:
    del version  # handled by its callback, before any command


core.register(app)
leaderboard.register(app)
db.register(app)
review_cli.register(app)
table.register(app)
reproduce.register(app)
site.register(app)
export.register(app)
new.register(app)
curate.register(app)
watch.register(app)


def main() -> None:
    """The console script: one command, then exit, so loaded records are frozen out of the collector."""
    from registry.store import collector

    collector.FREEZE_AFTER_LOAD = True
    try:
        app(standalone_mode=True)
    finally:
        try:
            sys.stdout.flush()  # output piped into 'head' may find its reader gone only now
        except BrokenPipeError:
            from registry.cli._errors import quiet_closed_stdout

            quiet_closed_stdout()
