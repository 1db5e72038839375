"""Rich renderings of records, laid out the way their pages read.

A configuration shows its evaluations and results; a result shows its methods,
reproduction notes, evidence, sources and technical metadata. Transcribed, reviewed,
reproduced and estimated values are always shown apart, each with its label.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from registry import display as d
from registry.loader import Registry
from registry.models import (
    Configuration,
    Evaluation,
    Evidence,
    Recipe,
    Record,
    Reproduction,
    Result,
    Review,
    Source,
)
from registry.models.reproduction import Comparison
from registry.units import gib


def render_record(registry: Registry, record: Record) -> RenderableType:
    """The page of one record."""
    if isinstance(record, Result):
        return _result_page(registry, record)
    if isinstance(record, Configuration):
        return _configuration_page(registry, record)
    return _generic_page(registry, record)


# -- pages --------------------------------------------------------------------------------------


def _result_page(registry: Registry, result: Result) -> RenderableType:
    evaluation, configuration, protocol, dataset = d.result_context(registry, result)
    source = registry.get_as(result.source, Source)
    status = d.status_label(registry, result.id)
    unit = d.unit_symbol(result.unit)

    headline = Text()
    headline.append(d.display_value(result.numeric_value), style="bold")
    headline.append(f" {d.metric_label(result.metric)} ({result.metric_qualifier})")
    headline.append(f"\nTranscribed value: {result.printed_value} {unit} as printed", style="cyan")
    headline.append(f" (display value {d.display_value(result.numeric_value)}; {status})")

    methods = _fields_table(
        [
            ("Tested configuration", configuration.name),
            ("Protocol", protocol.name),
            ("Dataset", dataset.name),
            ("Procedure", protocol.name),
            ("Evaluation", evaluation.name),
            ("Coverage", d.coverage(evaluation)),
            ("Uncertainty", d.value_or_missing(result, "uncertainty")),
            ("Evidence", f"{d.INDEPENDENCE_LABELS[evaluation.independence]} · {status} · "
                         f"{source.citation} · {result.source_locator.text}"),
        ]
    )
    parts: list[RenderableType] = [
        Text(d.result_title(registry, result), style="bold underline"),
        headline,
        Rule("Methods", align="left"),
        methods,
        Text(
            "A source-checked result verifies the numerical transcription, not every model or protocol detail. "
            f"Evaluation metadata: {d.status_label(registry, evaluation.id)}. {d.SOURCE_CHECK_CAVEAT}",
            style="dim",
        ),
        Rule("Reproduction", align="left"),
        _fields_table(
            [
                ("Split", d.value_or_missing(evaluation, "split")),
                ("Adaptation", d.adaptation(evaluation)),
                ("Scoring implementation", d.value_or_missing(evaluation, "scoring_implementation")),
            ]
        ),
        _recipes_and_reproductions(registry, result),
        Rule("Evidence", align="left"),
        _evidence_table(registry, result.id),
        Rule("Sources and history", align="left"),
        _sources_and_history(registry, result.id, [source]),
        Rule("Technical metadata and extraction receipts", align="left"),
        _technical_metadata(registry, result),
        Rule("Related records", align="left"),
        Text(f"- evaluation: {evaluation.name}"),
    ]
    return Group(*parts)


def _configuration_page(registry: Registry, configuration: Configuration) -> RenderableType:
    evaluations = registry.referrers(configuration.id, Evaluation, "configuration")
    results = [r for e in evaluations for r in registry.referrers(e.id, Result, "evaluation")]
    table = Table("Tested configuration", "Protocol and dataset", "Finding", "Evidence and details",
                  show_lines=True, expand=True)
    for evaluation in evaluations:
        protocol = registry.records[evaluation.protocol]
        dataset = registry.records[evaluation.dataset]
        for result in registry.referrers(evaluation.id, Result, "evaluation"):
            source = registry.get_as(result.source, Source)
            _row(table,
                f"Configuration: {configuration.name}",
                f"Protocol: {d.record_name(protocol)}\nDataset: {d.record_name(dataset)}",
                f"{d.finding(result)}\n{result.unit} · {result.metric_direction.value}\n"
                f"Transcribed: {result.printed_value} {d.unit_symbol(result.unit)}\n"
                f"Uncertainty: {d.value_or_missing(result, 'uncertainty')}\nCoverage: {d.coverage(evaluation)}",
                f"{d.INDEPENDENCE_LABELS[evaluation.independence]} · {d.status_label(registry, result.id)}\n"
                f"{evaluation.name}\n{result.id}\nAggregation: {d.value_or_missing(evaluation, 'aggregation')}\n"
                f"{source.citation} · {result.source_locator.text}",
            )
    family = registry.records.get(configuration.model_family)
    parts: list[RenderableType] = [
        Text(configuration.name, style="bold underline"),
        Text(d.value_or_missing(configuration, "description")),
        Rule("Overview", align="left"),
        Text(configuration.profile or d.PROFILE_ABSENT),
        Rule("Evaluations and results", align="left"),
        Text(f"{_count(evaluations, 'evaluation')} · {_count(results, 'result')}. "
             "Different protocols are not a single leaderboard."),
        table,
        Text(d.SOURCE_CHECK_CAVEAT, style="dim"),
        Rule("Evidence", align="left"),
        _evidence_table(registry, configuration.id),
        Rule("Sources and history", align="left"),
        _sources_and_history(registry, configuration.id, [registry.get_as(configuration.source, Source)]),
        Rule("Technical metadata and extraction receipts", align="left"),
        _technical_metadata(registry, configuration),
        Rule("Related records", align="left"),
        Text("\n".join(
            [f"- configuration of: {d.record_name(family) if family else configuration.model_family}"]
            + [f"- system: {e.name}" for e in evaluations]
        )),
    ]
    return Group(*parts)


def _generic_page(registry: Registry, record: Record) -> RenderableType:
    parts: list[RenderableType] = [
        Text(d.record_name(record), style="bold underline"),
        _technical_metadata(registry, record),
    ]
    if isinstance(record, Source):
        parts.insert(1, Text(f"{record.citation}\nOriginal source · {record.version_statement}"))
    back = _back_links(registry, record.id)
    if back:
        parts += [Rule("Referred to by", align="left"), Text("\n".join(back))]
    return Group(*parts)


# -- sections -----------------------------------------------------------------------------------


def _recipes_and_reproductions(registry: Registry, result: Result) -> RenderableType:
    """The recipe (what the source states, what it leaves open) and our runs: measured and estimated apart."""
    recipes = registry.referrers(result.id, Recipe, "result")
    reproductions = registry.referrers(result.id, Reproduction, "result")
    parts: list[RenderableType] = []
    if not any(recipe.verified for recipe in recipes):
        parts.append(Text(d.NO_VERIFIED_RECIPE, style="dim"))
    for recipe in recipes:
        fixed = recipe.fixed
        knobs = "; ".join(f"{k.name} ({' | '.join(d.knob_text(c) for c in k.candidates)})" for k in recipe.knobs)
        parts.append(Text(
            f"Recipe: {recipe.id} ({'verified' if recipe.verified else 'not verified'}; run it with "
            f"'registry reproduce {result.id}')\n"
            f"States: model {fixed.model}, stage {fixed.stage}, sequence length {fixed.sequence_length}, batch size "
            f"{fixed.batch_size}, data seed {fixed.data_seed}, metric {fixed.metric}\n"
            f"Leaves open: {knobs or 'nothing'}"
        ))
    if not any(r.method.value == "measured" for r in reproductions):
        message = ("Nothing has been measured yet: the estimates below are predictions, not measurements."
                   if reproductions else "No reproduction has been filed for this result.")
        parts.append(Text(message, style="dim"))
    unit = d.unit_symbol(result.unit)
    for method, title in (("measured", "Measured by us"), ("estimated", "Estimated by us (not measured)")):
        runs = [r for r in reproductions if r.method.value == method]
        if runs:
            parts.append(_runs_table(runs, f"{title}: {len(runs)} run(s) beside the transcribed "
                                           f"{result.printed_value} {unit}", unit))
    return Group(*parts)


def _runs_table(runs: list[Reproduction], title: str, unit: str) -> Table:
    """One row per run, nearest the transcribed value first; what every run shares goes in the caption."""
    varying, shared = d.split_knobs([run.setting for run in runs])
    days = sorted({run.started_at.date().isoformat() for run in runs})
    caption = (f"Hardware: {', '.join(sorted({run.hardware.name for run in runs}))}; attention: "
               f"{', '.join(sorted({run.attention_impl or 'not recorded' for run in runs}))}; "
               f"{'run on ' + days[0] if len(days) == 1 else f'runs from {days[0]} to {days[-1]}'}"
               + (f"; every run: {', '.join(shared)}" if shared else ""))
    table = Table(title=title, caption=caption, show_lines=len(varying) > 1)
    table.add_column("Setting", min_width=24, overflow="fold")
    table.add_column("Value", justify="right", overflow="fold")
    table.add_column("vs transcribed", justify="right")

    def order(run: Reproduction) -> tuple[int, Any, str]:
        return (0, abs(run.comparison.difference), run.id) if run.comparison else (1, 0, run.id)

    for run in sorted(runs, key=order):
        if run.value is not None and run.value_bytes is not None:
            value = f"{run.value:.2f} {unit}\n{gib(run.value_bytes):.2f} GiB"
        else:
            value = f"{run.outcome.value}: {run.error}"
        comparison = f"{run.comparison.difference:+.2f} {unit}\n×{run.comparison.ratio:.3f}" if run.comparison else ""
        _row(table, "\n".join(f"{n}={d.knob_text(run.setting[n])}" for n in varying if n in run.setting) or "-",
             value, comparison)
    return table


def _evidence_table(registry: Registry, record_id: str) -> RenderableType:
    rows = registry.referrers(record_id, Evidence, "subject")
    if not rows:
        return Text("0 evidence rows. No evidence rows are recorded for this record.", style="dim")
    table = Table("Property and statement", "Original source and location", "Review and provenance",
                  title=f"{_count(rows, 'evidence row')}", show_lines=True, expand=True)
    for row in rows:
        source = registry.get_as(row.source, Source)
        review = registry.get_as(row.review, Review)
        methods = json.dumps([m.value for m in review.methods], separators=(",", ":"))
        reviewed_at = review.reviewed_at.isoformat().replace("+00:00", "Z") if review.reviewed_at else ""
        _row(table,
            f"{d.label(row.property.value)} {row.statement}\n{d.label(row.claim_scope.value)}",
            f"{source.citation}\n{row.source_locator.text}\nVersion: {source.version_statement}",
            f"{review.status.value.replace('-', ' ')} {methods} · {reviewed_at} · "
            f"{row.source_independence.value.replace('-', ' ')}\n"
            f"Audit details: {review.note or ''}\n"
            f"Field: {_or_missing(row, 'field')}\n"
            f"Source artifact SHA-256: {_or_missing(row, 'source_artifact_sha256')}\n"
            f"Hash scope: {_or_missing(row, 'hash_scope')}\n"
            f"Extraction artifact SHA-256: {_or_missing(row, 'extraction_artifact_sha256')}",
        )
    return table


def _sources_and_history(registry: Registry, record_id: str, sources: Iterable[Source]) -> RenderableType:
    releases = d.releases_of(registry, record_id)
    release = " · ".join(f"Release {r.name}" for r in releases) or "Not in any recorded release"
    lines = [f"{release} · Record review: {d.status_label(registry, record_id)}"]
    lines += [f"- {s.citation} · Original source · {s.version_statement}" for s in sources]
    return Text("\n".join(lines))


def _technical_metadata(registry: Registry, record: Record) -> RenderableType:
    rows: list[tuple[str, str]] = [("Stable ID", record.id)]
    for name in type(record).model_fields:
        if name in ("id", "kind", "missing_metadata"):
            continue
        value = getattr(record, name)
        if value is None or value == [] or value == {}:
            if record.missing(name):
                rows.append((d.field_label(name), d.missing_phrase(record, name)))
            continue
        rows.append((d.field_label(name), _plain(value)))
    for entry in record.missing_metadata:
        note = f"; note: {entry.note}" if entry.note else ""
        rows.append(("Missing metadata", f"{entry.field}: reason: {entry.reason.value}{note}"))
    for review in registry.referrers(record.id, Review, "subjects"):
        rows.append(("Review", _review_line(review)))
    return _fields_table(rows)


def _review_line(review: Review) -> str:
    parts = [f"status: {review.status.value}"]
    for name in ("reviewer", "reviewer_note", "reviewed_at", "artifact_sha256", "extraction_sha256",
                 "retrieval_url", "methods", "method_note", "note"):
        value = getattr(review, name)
        if value not in (None, []):
            parts.append(f"{name.replace('_', ' ')}: {_plain(value)}")
    for entry in review.missing_metadata:  # each gap with its own reason: not every gap is 'not transcribed'
        parts.append(f"{entry.field.replace('_', ' ')}: {d.missing_phrase(review, entry.field).lower()}")
    return "; ".join(parts)


def _back_links(registry: Registry, record_id: str) -> list[str]:
    return [f"- {other.kind_token} {other.id} ({path[0]})" for other, path in registry.links_to(record_id)]


# -- helpers ------------------------------------------------------------------------------------


def _fields_table(rows: Iterable[tuple[str, str]]) -> Table:
    table = Table(show_header=False, box=None, pad_edge=False, expand=True)
    table.add_column(style="bold", no_wrap=True, ratio=1)
    table.add_column(ratio=4, overflow="fold")  # long ids break across lines rather than lose their end
    for label, value in rows:
        table.add_row(label, Text(value))
    return table


def _row(table: Table, *cells: str | Text) -> None:
    """Add a row whose text is shown as written: brackets in record text are not Rich markup."""
    table.add_row(*(cell if isinstance(cell, Text) else Text(cell) for cell in cells))


def _plain(value: Any) -> str:
    if isinstance(getattr(value, "text", None), str):  # a typed value that says how it reads (a locator)
        return str(value.text)
    if isinstance(value, list) and value and all(isinstance(getattr(v, "text", None), str) for v in value):
        return "; ".join(v.text for v in value)
    if isinstance(value, BaseModel):
        return "; ".join(f"{k.replace('_', ' ')}: {_plain(v)}" for k, v in value.model_dump().items() if v is not None)
    if isinstance(value, list):
        return "; ".join(_plain(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    if hasattr(value, "isoformat"):
        return value.isoformat().replace("+00:00", "Z")
    return str(getattr(value, "value", value))


def _or_missing(record: Record, field: str) -> str:
    value = getattr(record, field)
    return str(value) if value is not None else d.missing_phrase(record, field)


def _count(items: list[Any], noun: str) -> str:
    return f"{len(items)} {noun}{'' if len(items) == 1 else 's'}"


def results_table(registry: Registry) -> RenderableType:
    """Every result side by side: transcribed value, review status, and our runs, never merged.

    Ids and the settings of the nearest runs are long, so they are listed under the table, keyed
    by row number, where they read whole at any terminal width.
    """
    table = Table(title="Results", show_lines=True, expand=True)
    table.add_column("#", no_wrap=True)
    for header, share in (("Evaluation", 5), ("Transcribed (display)", 4), ("Review", 4), ("Measured by us", 3),
                          ("Estimated by us", 5)):  # shares that keep every header word whole at 80 columns
        table.add_column(header, ratio=share, overflow="fold")
    legend = Text()
    for number, result in enumerate(registry.of_kind(Result), start=1):
        evaluation = registry.get_as(result.evaluation, Evaluation)
        runs = registry.referrers(result.id, Reproduction, "result")
        unit = d.unit_symbol(result.unit)
        by_method = {method: [r for r in runs if r.method.value == method] for method in ("measured", "estimated")}
        _row(
            table,
            str(number),
            evaluation.name,
            f"{result.printed_value} {unit} ({d.display_value(result.numeric_value)})",
            d.status_label(registry, result.id),
            _runs_summary(by_method["measured"], unit),
            _runs_summary(by_method["estimated"], unit),
        )
        legend.append(f"#{number} {result.id}\n", style="dim")
        for method, method_runs in by_method.items():
            nearest = _nearest(method_runs)
            if nearest is not None:
                setting = ", ".join(f"{name}={d.knob_text(value)}" for name, value in nearest[0].setting.items())
                legend.append(f"   nearest {method}: {setting}\n", style="dim")
    return Group(table, legend)


def _nearest(runs: list[Reproduction]) -> tuple[Reproduction, Comparison] | None:
    """The run whose value lies nearest the transcribed one, with its comparison (None: nothing compared)."""
    compared = [(r, r.comparison) for r in runs if r.value is not None and r.comparison is not None]
    return min(compared, key=lambda pair: abs(pair[1].difference)) if compared else None


def _runs_summary(runs: list[Reproduction], unit: str) -> str:
    """How many settings gave a value, where, and the value nearest the transcribed one."""
    if not runs:
        return "none"
    values = [r.value for r in runs if r.value is not None]
    if not values:
        return f"{len(runs)} run(s), no value"
    where = sorted({"CPU estimate" if r.hardware.kind == "cpu-estimate" else r.hardware.name
                    for r in runs if r.value is not None})
    head = f"{len(values)} setting(s), {', '.join(where)}"
    nearest = _nearest(runs)
    if nearest is None:  # a transcribed 0 has no ratio to compare with
        return f"{head}; from {min(values):.2f} to {max(values):.2f} {unit}"
    comparison = nearest[1]
    return f"{head}; nearest the transcribed value: {comparison.reproduced:.2f} {unit} (×{comparison.ratio:.3f})"
