"""The findings tables: one row per current result of some evaluations, with its evidence and details.

The pages of a configuration, a dataset, a protocol and a model family list the same results from different
sides, so the table and its rows are made here once (each row once per registry) and every such page reads them.
"""

from __future__ import annotations

from collections.abc import Iterable

from registry.models import (
    Configuration,
    Evaluation,
    Result,
    Source,
)
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
from registry.per_registry import memo
from registry.status import provenance
from registry.status.versions import current_only
from registry.store.loader import Registry
from registry.units import with_unit


def results_of(registry: Registry, evaluations: Iterable[Evaluation]) -> list[Result]:
    """Every result of the evaluations, each version of a corrected one included, evaluation by evaluation."""
    return [r for e in evaluations for r in registry.referrers(e.id, Result, "evaluation")]


def findings_table(registry: Registry, evaluations: Iterable[Evaluation], *, own: str | None = None,
                   title: str | None = None) -> Table | Paragraph:
    """One row per current result of the evaluations, with its evidence and details, in natural order.

    The configuration column is left out on the page of ``own`` configuration, where every row
    would repeat it. Results are sorted by evaluation, then by what they qualify, numbers as
    numbers ('test fold 2' before 'test fold 10'). Superseded and retracted results are history:
    ``earlier_versions`` lists them apart.
    """
    rows: list[tuple[Content, ...]] = []
    natural_key = d.natural_key
    for evaluation in sorted(evaluations, key=lambda e: natural_key(e.name)):
        results = current_only(registry, registry.referrers(evaluation.id, Result, "evaluation"))
        for result in sorted(results, key=lambda r: (natural_key(r.metric_qualifier), natural_key(r.id))):
            rows.append(finding_row(registry, evaluation, result))
    if not rows:
        return Paragraph(plain("No current result is recorded for these evaluations."), Style.NOTE)
    columns: tuple[Column, ...] = (Column("Tested configuration"), Column("Protocol and dataset"), Column("Finding"),
                                   Column("Evidence and details"))
    if own is not None and all(e.configuration == own for e in evaluations):
        columns, rows = columns[1:], [row[1:] for row in rows]
    return Table(columns, tuple(rows), title=title, lines=True, expand=True, filter="evaluations")


def source_findings(registry: Registry, source: Source) -> Table | Paragraph:
    """Every current value a source prints, each with its model, protocol and dataset, metric and locator: the
    findings rows of the results whose ``source`` it is, in the order of their evaluations."""
    natural_key = d.natural_key
    results = current_only(registry, registry.referrers(source.id, Result, "source"))
    evaluations = {result.evaluation: registry.get_as(result.evaluation, Evaluation) for result in results}
    ordered = sorted(results, key=lambda r: (natural_key(evaluations[r.evaluation].name),
                                              natural_key(r.metric_qualifier), natural_key(r.id)))
    if not ordered:
        return Paragraph(plain("No current value of this source is recorded."), Style.NOTE)
    rows = tuple(finding_row(registry, evaluations[r.evaluation], r) for r in ordered)
    return Table((Column("Tested configuration"), Column("Protocol and dataset"), Column("Finding"),
                  Column("Evidence and details")), rows, title="Values printed in this source", lines=True,
                 expand=True, filter="values")


def finding_row(registry: Registry, evaluation: Evaluation, result: Result) -> tuple[Content, ...]:
    """A current result's row in the findings tables, made once per registry: the same row stands on the pages of
    its configuration, dataset, protocol and model family."""
    made = memo(registry, "finding rows")
    if result.id not in made:
        made[result.id] = _finding_row(registry, evaluation, result)
    return made[result.id]  # type: ignore[no-any-return]


def _finding_row(registry: Registry, evaluation: Evaluation, result: Result) -> tuple[Content, ...]:
    configuration = registry.get_as(evaluation.configuration, Configuration)
    protocol = registry.records[evaluation.protocol]
    dataset = registry.records[evaluation.dataset]
    source = registry.get_as(result.source, Source)
    tag = d.record_tag(registry, result)
    return (
        (Piece("Configuration: "), *d.record_link(configuration)),
        (Piece("Protocol: "), Piece(d.record_name(protocol), link=protocol.id), Piece("\nDataset: "),
         Piece(d.record_name(dataset), link=dataset.id)),
        (d.result_link(registry, result, with_unit(d.result_display(result), result.unit), tag=tag,
                       exact=d.result_exact(result)),
         Piece(f" · {d.metric_label(result.metric)} ({result.metric_qualifier})\n"
               f"{result.unit} · {d.direction_word(result)}\nTranscribed: "),
         Piece(with_unit(result.as_printed, result.unit), tag=tag,
               exact=d.result_exact(result)),
         Piece(f"\nUncertainty: {d.value_or_missing(result, 'uncertainty')}\n"
               f"Coverage: {d.coverage(evaluation)}")),
        (Piece(f"{d.INDEPENDENCE_LABELS[evaluation.independence]} · {provenance.status_label(registry, result.id)}\n"),
         *d.record_link(evaluation), Piece("\n"), Piece(result.id, link=result.id),
         Piece(f"\nAggregation: {d.value_or_missing(evaluation, 'aggregation')}\n"),
         Piece(source.citation, link=source.id), Piece(f" · {result.source_locator.text}", tag=tag)),
    )
