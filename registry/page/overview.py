"""Every result side by side (``registry list --kind result``): transcribed value, review status and our runs.

The one table where results of every evaluation meet, so what each value is stays in its own column: the
transcribed value with its display value, its review, and what we measured and estimated, never merged.
"""

from __future__ import annotations

from measure.outcome import Method
from registry.models import (
    Evaluation,
    Reproduction,
    Result,
)
from registry.models.uncertainty_kinds import UNCERTAINTY_KINDS
from registry.page import display as d
from registry.page.blocks import (
    Column,
    Content,
    Paragraph,
    Piece,
    Style,
    Table,
    plain,
)
from registry.page.runs import nearest_run, runs_summary
from registry.status import provenance
from registry.status.versions import current_only, status_of
from registry.store.loader import Registry
from registry.units import with_unit


def results_overview(registry: Registry, *, history: bool = False) -> tuple[Table, Paragraph]:
    """Every current result side by side: transcribed value, review status, and our runs, never merged.

    Ids and the settings of the nearest runs are long, so they are listed under the table, keyed
    by row number, where they read whole at any terminal width. ``history`` adds the superseded and
    retracted results, with a column saying which.
    """
    rows: list[tuple[Content, ...]] = []
    legend: list[Piece] = []
    chosen = registry.of_kind(Result) if history else current_only(registry, registry.of_kind(Result))
    for number, result in enumerate(chosen, start=1):
        evaluation = registry.get_as(result.evaluation, Evaluation)
        runs = registry.referrers(result.id, Reproduction, "result")
        unit = d.unit_symbol(result.unit)
        by_method = {method: [r for r in runs if r.method is method] for method in Method}
        rows.append((
            plain(str(number)),
            d.record_link(evaluation),
            (d.result_link(registry, result, with_unit(result.as_printed, result.unit),
                           tag=d.record_tag(registry, result), exact=d.result_exact(result)),
             Piece(f" ({d.result_display(result)})")),
            plain(short_uncertainty(result)),
            plain(provenance.status_label(registry, result.id)),
            *(_summary_cell(method, by_method[method], unit) for method in Method),
            *((plain(status_of(registry, result.id).value),) if history else ()),
        ))
        legend.append(Piece(f"#{number} {result.id}\n", Style.NOTE))
        for method, method_runs in by_method.items():
            nearest = nearest_run(method_runs)
            if nearest is not None:
                setting = ", ".join(f"{name}={d.knob_text(value)}" for name, value in nearest[0].setting.items())
                legend.append(Piece(f"   nearest {method.value}: {setting}\n", Style.NOTE))
    columns = (Column("#", no_wrap=True),) + tuple(
        Column(header, ratio=share, fold=True)
        # shares of the width; each column also gets at least its header's longest word (registry.page.show)
        for header, share in (("Evaluation", 10), ("Transcribed (display)", 10), ("Uncertainty", 10), ("Review", 10),
                              ("Measured by us", 9), ("Estimated by us", 10))
    ) + ((Column("Status", ratio=8, fold=True),) if history else ())
    title = "Results, every version" if history else "Results"
    return Table(columns, tuple(rows), title=title, lines=True, expand=True), Paragraph(tuple(legend))


def short_uncertainty(result: Result) -> str:
    """The uncertainty as a results table has room for it: '± 0.021 (s.d., 10 folds)', or why there is none."""
    found = result.uncertainty
    if found is None:
        return d.missing_phrase(result, "uncertainty")
    short = UNCERTAINTY_KINDS[found.kind].short
    if found.level is not None:
        short = f"{found.level}% {short}"
    if found.over is not None and found.over.count is not None:
        short += f", {found.over.count:,} {found.over.kind.value.replace('-', ' ')}"
    return f"{found.printed} ({short})"


def _summary_cell(method: Method, runs: list[Reproduction], unit: str) -> Content:
    summary = runs_summary(runs, unit)
    return (Piece(summary, tag=d.runs_tag(method, runs)),) if runs else plain(summary)
