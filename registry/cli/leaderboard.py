"""``registry leaderboard``: a benchmark's values ranked within their comparability key, the rest set apart."""

from __future__ import annotations

from pathlib import Path

import typer

from registry.cli._errors import user_errors
from registry.cli.options import DebugOption, RecordsOption
from registry.cli.output import console


def leaderboard_command(
    benchmark: str = typer.Argument(..., metavar="BENCHMARK",
                                    help="The benchmark's id, or the id of the dataset record the values were "
                                    "evaluated on (a prefix or a word of its name is enough where it names one)."),
    metric: str | None = typer.Option(None, "--metric", "-m", help="Only this metric (a declared metric's "
                                      "name or another name of it: 'top1' is accuracy)."),
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Rank a benchmark's values, only within a comparability key.

    Two values are ranked together only where benchmark, split, metric (converted exactly to its canonical unit:
    a percent and a fraction of accuracy are one scale), setting (zero-shot, few-shot, fine-tuned ...), aggregate
    (single fold, mean over 10 folds ...), input length and, for speed and memory, hardware agree. One table per
    key, best first; every other value of the benchmark is listed under 'not comparable because ...'. Values are
    shown as printed, with the canonical value beside them, and with their review status.
    """
    from registry.cli.core import load_valid
    from registry.page.leaderboard import leaderboard_page, resolve_benchmark
    from registry.page.show import render_page

    with user_errors(debug):
        registry = load_valid(records)
        console.print(render_page(leaderboard_page(registry, resolve_benchmark(registry, benchmark), metric)))


def register(app: typer.Typer) -> None:
    app.command("leaderboard")(leaderboard_command)
