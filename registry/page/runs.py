"""Our runs of a result's experiment as a page shows them: its recipe, the runs table, and their summary.

What we measured or estimated stands beside the transcribed value and is never merged with it: measured and
estimated runs get tables of their own, each run's value is tagged by its method, and the commit and software
versions the runs ran at are named with the hardware. The one-line summary (``runs_summary``) is what the
results overview and the site's index show of the same runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from measure.outcome import Method
from registry.models import (
    Recipe,
    Reproduction,
    Result,
)
from registry.models.reproduction import Comparison
from registry.page import display as d
from registry.page.blocks import (
    Block,
    Column,
    Content,
    Paragraph,
    Piece,
    Style,
    Table,
    plain,
)
from registry.store.loader import Registry
from registry.units import gib, with_unit


def recipes_and_reproductions(registry: Registry, result: Result) -> list[Block]:
    """The recipe (what the source states, what it leaves open) and our runs: measured and estimated apart."""
    recipes = registry.referrers(result.id, Recipe, "result")
    reproductions = registry.referrers(result.id, Reproduction, "result")
    blocks: list[Block] = []
    if not any(recipe.verified for recipe in recipes):
        blocks.append(Paragraph(plain(d.NO_VERIFIED_RECIPE), Style.NOTE))
    for recipe in recipes:
        fixed = recipe.fixed
        knobs = "; ".join(f"{k.name} ({' | '.join(d.knob_text(c) for c in k.candidates)})" for k in recipe.knobs)
        blocks.append(Paragraph((
            Piece("Recipe: "), Piece(recipe.id, link=recipe.id),
            Piece(f" ({'verified' if recipe.verified else 'not verified'}; run it with "
                  f"'registry reproduce {result.id}')\n"
                  f"States: model {fixed.model}, stage {fixed.stage}, sequence length {fixed.sequence_length}, "
                  f"batch size {fixed.batch_size}, data seed {fixed.data_seed}, metric {fixed.metric}\n"
                  f"Leaves open: {knobs or 'nothing'}"),
        )))
    if not any(r.method is Method.MEASURED for r in reproductions):
        message = ("Nothing has been measured yet: the estimates below are predictions, not measurements."
                   if reproductions else "No reproduction has been filed for this result.")
        blocks.append(Paragraph(plain(message), Style.NOTE))
    unit = d.unit_symbol(result.unit)
    for method, title in ((Method.MEASURED, "Measured by us"),
                          (Method.ESTIMATED, "Estimated by us (not measured)")):
        runs = [r for r in reproductions if r.method is method]
        if runs:
            blocks.append(_runs_table(runs, f"{title}: {len(runs)} run(s) beside the transcribed "
                                            f"{with_unit(result.as_printed, result.unit)}", unit))
    return blocks


def runs_in_order(runs: Iterable[Reproduction]) -> list[Reproduction]:
    """Runs nearest the transcribed value first; runs without a comparison last, by id."""

    def order(run: Reproduction) -> tuple[int, Any, str]:
        return (0, abs(run.comparison.difference), run.id) if run.comparison else (1, 0, run.id)

    return sorted(runs, key=order)


#: The software a runs table names beside the commit: what decides a peak's bytes.
RUN_SOFTWARE = ("torch", "cuda", "hip", "transformers", "peft", "deepspeed", "flash-attn")


def _provenance(runs: list[Reproduction]) -> str:
    """'commit e2bfbf88829a, 7e2970bdd772+dirty; torch 2.13.0+cpu; transformers 5.24.0': what the runs ran at.

    A run's value is ours only with the code and versions behind it; the page names them beside
    the hardware, not only in each run's own record.
    """
    commits = sorted({_short_commit(run.git_commit) for run in runs})
    parts = [f"commit {', '.join(commits)}"]
    for name in RUN_SOFTWARE:
        versions = sorted({run.software.get(name) or "" for run in runs} - {""})
        if versions:
            parts.append(f"{name} {', '.join(versions)}")
    return "; ".join(parts)


def _short_commit(commit: str | None) -> str:
    if not commit:
        return "not recorded"
    head, plus, rest = commit.partition("+")
    return head[:12] + plus + rest


def _runs_table(runs: list[Reproduction], title: str, unit: str) -> Table:
    """One row per run, nearest the transcribed value first; what every run shares goes in the caption."""
    varying, shared = d.split_knobs([run.setting for run in runs])
    days = sorted({run.started_at.date().isoformat() for run in runs})
    caption = (f"Hardware: {', '.join(sorted({run.hardware.name for run in runs}))}; attention: "
               f"{', '.join(sorted({run.attention_impl or 'not recorded' for run in runs}))}; "
               f"{'run on ' + days[0] if len(days) == 1 else f'runs from {days[0]} to {days[-1]}'}; "
               f"{_provenance(runs)}"
               + (f"; every run: {', '.join(shared)}" if shared else ""))
    rows: list[tuple[Content, ...]] = []
    for run in runs_in_order(runs):
        tag = d.run_tag(run)
        value: Content
        if run.value is not None and run.value_bytes is not None:
            value = (Piece(f"{run.value:.2f} {unit}", tag=tag, exact=str(run.value), link=run.id,
                           hidden=f": {d.record_name(run)}, run {run.id}"), Piece("\n"),
                     Piece(f"{gib(run.value_bytes):.2f} GiB", tag=tag, exact=str(gib(run.value_bytes))))
        else:
            value = (Piece(f"{run.outcome.value}: {run.error}", link=run.id, hidden=f", run {run.id}"),)
        comparison: Content = (
            (Piece(f"{run.comparison.difference:+.2f} {unit}", tag=tag, exact=str(run.comparison.difference)),
             Piece("\n"), Piece(f"×{run.comparison.ratio:.3f}", tag=tag, exact=str(run.comparison.ratio)))
            if run.comparison else plain("")
        )
        setting = "\n".join(f"{n}={d.knob_text(run.setting[n])}" for n in varying if n in run.setting) or "-"
        rows.append((plain(setting), value, comparison))
    return Table(
        (Column("Setting", min_width=24, fold=True), Column("Value", fold=True, right=True),
         Column("vs transcribed", right=True)),
        tuple(rows), title=title, caption=caption, lines=len(varying) > 1,
    )


def nearest_run(runs: list[Reproduction]) -> tuple[Reproduction, Comparison] | None:
    """The run whose value lies nearest the transcribed one, with its comparison (None: nothing compared)."""
    compared = [(r, r.comparison) for r in runs if r.value is not None and r.comparison is not None]
    return min(compared, key=lambda pair: abs(pair[1].difference)) if compared else None


def runs_summary(runs: list[Reproduction], unit: str) -> str:
    """How many settings gave a value (and in how many runs, where one ran again), where, and the value nearest
    the transcribed one."""
    if not runs:
        return "none"
    values = [r.value for r in runs if r.value is not None]
    if not values:
        return f"{len(runs)} run(s), no value"
    where = sorted({"CPU estimate" if r.hardware.kind == "cpu-estimate" else r.hardware.name
                    for r in runs if r.value is not None})
    valued = [r for r in runs if r.value is not None]
    settings = len({(r.model, tuple(sorted((k, repr(v)) for k, v in r.setting.items()))) for r in valued})
    runs_note = f" ({len(valued)} runs)" if len(valued) != settings else ""  # a setting run again is no new setting
    head = f"{settings} setting(s){runs_note}, {', '.join(where)}"
    nearest = nearest_run(runs)
    if nearest is None:  # a transcribed 0 has no ratio to compare with
        return f"{head}; from {min(values):.2f} to {max(values):.2f} {unit}"
    comparison = nearest[1]
    return f"{head}; nearest the transcribed value: {comparison.reproduced:.2f} {unit} (×{comparison.ratio:.3f})"
