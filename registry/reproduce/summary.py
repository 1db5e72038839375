"""What a reproduction run is shown as: one table per result, its values beside the transcribed one.

Built here, as plain rows and words, so that the terminal (``registry.cli.reproduce``) only draws it: which
values a row holds, how a dry run or an estimate is titled, which knobs go in the caption and which name the
rows, and the failures noted below the table are decisions about a run, not about a terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from measure.outcome import Method, Status
from registry.models import Result
from registry.page import display as d
from registry.reproduce.types import Filed, ReproductionPlan
from registry.units import bytes_in_unit, gib


@dataclass(frozen=True)
class Row:
    """One row: a setting's knobs that vary (one per line), its value, GiB, difference, ratio and outcome."""

    setting: str
    value: str
    gib: str = ""
    difference: str = ""
    ratio: str = ""
    outcome: str = ""
    transcribed: bool = False
    """The first row of a result's table: the value as the source printed it."""


@dataclass(frozen=True)
class ResultsTable:
    """A result's values as a run gave them (or a stage's, with no transcribed value), ready to draw."""

    title: str
    caption: str
    value_header: str
    """'Meas.', 'Est.' or 'Value' (a dry run's), before the unit."""
    unit: str
    rows: list[Row]
    failures: list[str]
    """A note per failed setting, numbered as its row's outcome cell is: shown whole below the table."""
    several_knobs: bool
    """More than one knob varies across the rows (each row then spans lines: drawn with lines between)."""


def tables(the_plan: ReproductionPlan, filed: Sequence[Filed]) -> list[ResultsTable]:
    """One table per result (the whole ablation: one per transcribed result, then one per other stage)."""
    if the_plan.result is not None:
        return [results_table(the_plan.result, filed, method=the_plan.method, smoke=the_plan.smoke)]
    found = []
    for result in the_plan.results:
        entries = [entry for entry in filed if entry.job.result is not None and entry.job.result.id == result.id]
        if entries:
            found.append(results_table(result, entries, method=the_plan.method, smoke=the_plan.smoke))
    for stage in the_plan.stages:
        entries = [entry for entry in filed if entry.job.result is None and entry.outcome.setting.stage is stage]
        if entries:
            found.append(results_table(None, entries, method=the_plan.method, smoke=the_plan.smoke))
    return found


def results_table(result: Result | None, filed: Sequence[Filed], *, method: Method, smoke: bool) -> ResultsTable:
    """Transcribed value, then each setting's measured or estimated value, its difference and ratio.

    A dry run (the steps on a CPU, nothing measured) is titled as one: no column calls it measured.

    ``result`` None: a stage no source reports, in GB, with nothing to compare with. Knobs with
    one value across the rows go in the caption; each row names the ones that vary. A failed
    setting's row says what happened (``out-of-memory``, ``error``); its message follows the
    table whole, since a column narrow enough for an 80-column terminal cuts it to pieces.
    """
    unit_name = result.unit if result is not None else "gigabyte"
    unit = d.unit_symbol(unit_name)
    dry = bool(filed) and all(entry.outcome.dry_run for entry in filed)
    kind = "estimated" if method is Method.ESTIMATED else "dry-run" if dry else "measured"
    ours, column = {"estimated": ("our estimated values", "Est."), "measured": ("our measured values", "Meas."),
                    "dry-run": ("a CPU dry run (nothing measured)", "Value")}[kind]
    knobs = [entry.outcome.setting.knobs() for entry in filed]
    varying, same = d.split_knobs(knobs)
    rows = [Row("transcribed (as printed)", result.printed_value, transcribed=True)] if result is not None else []
    failures: list[str] = []
    for entry, knob_row in zip(filed, knobs, strict=True):
        outcome, comparison = entry.outcome, entry.comparison
        peak = outcome.peak_bytes if outcome.ok else None
        ok = peak is not None
        rows.append(Row(
            "\n".join(f"{n}={d.knob_text(knob_row[n])}" for n in varying if n in knob_row) or "-",
            f"{bytes_in_unit(peak, unit_name):.2f}" if peak is not None else "-",
            f"{gib(peak):.2f}" if peak is not None else "-",
            f"{comparison.difference:+.2f}" if comparison else "-",
            f"×{comparison.ratio:.3f}" if comparison else "-",
            "ok" if ok else "dry run" if outcome.finished else f"{short_status(outcome.status)} [{len(failures) + 1}]",
        ))
        if not ok and not outcome.finished:
            failures.append(f"[{len(failures) + 1}] {outcome.status.value} ({outcome.setting.label()}): "
                            f"{outcome.error or 'no message'}")
    return ResultsTable(title=_title(result, filed, ours, unit), caption=_caption(result, filed, same, smoke, unit),
                        value_header=column, unit=unit, rows=rows, failures=failures, several_knobs=len(varying) > 1)


def _title(result: Result | None, filed: Sequence[Filed], ours: str, unit: str) -> str:
    if result is not None:
        return f"{d.metric_label(result.metric)}: transcribed {result.printed_value} {unit} beside {ours}"
    stage = filed[0].outcome.setting.stage.label if filed else ""
    return f"Stage {stage} (no transcribed result): {ours}"


def _caption(result: Result | None, filed: Sequence[Filed], same: list[str], smoke: bool, unit: str) -> str:
    """The model, the knobs every row shares, the hardware of both sides (an H200 is not an H100), and what a
    smoke run cannot be compared with."""
    model = filed[0].outcome.setting.model if filed else ""
    caption = f"Model {model}" + (f"; in every row: {', '.join(same)}" if same else "")
    ours_on = sorted({entry.outcome.hardware.name for entry in filed})
    theirs_on = sorted({entry.accelerator for entry in result.hardware}) if result is not None else []
    if ours_on:
        caption += f"; ours on {', '.join(ours_on)}" + (f", the source's on {', '.join(theirs_on)}" if theirs_on
                                                        else "")
    if smoke and result is not None:
        caption += f"; a smoke run of a tiny model, not comparable with the transcribed {result.printed_value} {unit}"
    return caption


def short_status(status: Status) -> str:
    """A failed setting's status in a table cell: 'OOM' (its note below the table says 'out-of-memory'), 'error'."""
    return "OOM" if status is Status.OUT_OF_MEMORY else str(status.value)
