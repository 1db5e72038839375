"""What each kind's page holds, laid out the way the seed pages read.

``build_page`` dispatches on the record's model class (``functools.singledispatch``): a
configuration shows its evaluations and results; a result its methods, reproduction notes and
our own runs, evidence table, sources and history, and technical metadata; a source its
citation; every other kind the generic page (its fields, then the records that refer to it).
A new kind gets the generic page until it registers its own. Fields are rendered from the
models (labels from field names), so a field added to a model appears without an edit here.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from measure.outcome import Method
from registry.models import (
    Configuration,
    Dataset,
    Evaluation,
    Evidence,
    ModelFamily,
    Protocol,
    Recipe,
    Record,
    Reproduction,
    Result,
    Review,
    Source,
)
from registry.models.fields import field_plan
from registry.models.reproduction import Comparison
from registry.models.uncertainty_kinds import UNCERTAINTY_KINDS
from registry.page import display as d
from registry.page.blocks import (
    Block,
    Column,
    Content,
    Fields,
    Items,
    Page,
    Paragraph,
    Piece,
    Section,
    Style,
    Table,
    Tag,
    plain,
)
from registry.page.citation import bibtex, links
from registry.page.history import earlier_versions, history_blocks, status_banner
from registry.per_registry import memo
from registry.status import provenance
from registry.status.versions import Status, current_only, not_current, status_of
from registry.store.loader import Registry
from registry.units import gib, with_unit

TECHNICAL_METADATA = "Technical metadata and extraction receipts"


@functools.singledispatch
def build_page(record: Record, registry: Registry) -> Page:
    """The generic page: the record's fields, then every record that refers to it."""
    return Page(record.id, record.kind_token, d.record_name(record), _generic_blocks(registry, record))


def _generic_blocks(registry: Registry, record: Record, *own: Block) -> tuple[Block, ...]:
    """The status banner, the fields, the kind's ``own`` sections, then history and the records that refer to it."""
    blocks: list[Block] = [*status_banner(registry, record), _technical_metadata(registry, record), *own]
    history = history_blocks(registry, record.id)
    if history:
        blocks.append(Section("Sources and history", history))
    back = _back_links(registry, record.id)
    if back:
        blocks.append(Section("Referred to by", (Items(tuple(back)),)))
    return tuple(blocks)


@build_page.register
def _family_page(family: ModelFamily, registry: Registry) -> Page:
    """A model family's fields, then its configurations' results: current ones, earlier versions apart."""
    configurations = registry.referrers(family.id, Configuration, "model_family")
    evaluations = [e for c in configurations for e in registry.referrers(c.id, Evaluation, "configuration")]
    every = results_of(registry, evaluations)
    section = Section("Configurations and results", (
        Paragraph(plain(f"{len(configurations)} configuration(s) · {len(evaluations)} evaluation(s) · "
                        f"{len(current_only(registry, every))} result(s). Different protocols are not a single "
                        "leaderboard.")),
        findings_table(registry, evaluations),
        *earlier_versions(registry, not_current(registry, every)),
    ))
    return Page(family.id, family.kind_token, d.record_name(family), _generic_blocks(registry, family, section))


def _results_of_page(registry: Registry, record: Record, field: str) -> Page:
    """A dataset's or protocol's fields, then the results of the evaluations that use it."""
    evaluations = registry.referrers(record.id, Evaluation, field)
    every = results_of(registry, evaluations)
    section = Section("Results", (
        Paragraph(plain(f"{_count(evaluations, 'evaluation')} · {_count(current_only(registry, every), 'result')}. "
                        "Different protocols are not a single leaderboard.")),
        findings_table(registry, evaluations, title=f"Results on this {record.kind_token}"),
        *earlier_versions(registry, not_current(registry, every)),
    ))
    return Page(record.id, record.kind_token, d.record_name(record), _generic_blocks(registry, record, section))


@build_page.register
def _dataset_page(dataset: Dataset, registry: Registry) -> Page:
    return _results_of_page(registry, dataset, "dataset")


@build_page.register
def _protocol_page(protocol: Protocol, registry: Registry) -> Page:
    return _results_of_page(registry, protocol, "protocol")


@build_page.register
def _source_page(source: Source, registry: Registry) -> Page:
    citation = Paragraph(plain(f"{source.citation}\nOriginal source · {source.version_statement}"))
    return Page(source.id, source.kind_token, d.record_name(source),
                (citation, read_and_cite(source), *_generic_blocks(registry, source)))


def read_and_cite(source: Source) -> Section:
    """The paper's links (URL, DOI, arXiv, OpenReview) and a BibTeX entry made from the record's fields only."""
    found = links(source)
    return Section(READ_AND_CITE, (
        Items(tuple((Piece(f"{label}: "), Piece(url, url=url)) for label, url in found)) if found
        else Paragraph(plain(f"The record holds no address for this source: {d.missing_phrase(source, 'retrieval_url')}"
                             "."), Style.NOTE),
        Paragraph(plain("BibTeX, from the fields this record holds (no field is filled in that the record leaves "
                        "empty):"), Style.NOTE),
        Paragraph(plain(bibtex(source)), Style.CODE),
    ))


READ_AND_CITE = "Read and cite"


@build_page.register
def _result_page(result: Result, registry: Registry) -> Page:
    evaluation, configuration, protocol, dataset = d.result_context(registry, result)
    source = registry.get_as(result.source, Source)
    status = provenance.status_label(registry, result.id)
    tag = d.record_tag(registry, result)
    display = d.result_display(result)
    standing = status_of(registry, result.id)
    version = "" if standing is Status.CURRENT else f"; {standing.value}, not the registry's value (see above)"

    spread = f" {result.uncertainty.printed}" if result.uncertainty is not None else ""
    headline = Paragraph((
        Piece(with_unit(display, result.unit), Style.STRONG, tag, exact=d.result_exact(result)),
        *((Piece(spread, Style.STRONG, tag),) if spread else ()),
        Piece(f" · {d.metric_label(result.metric)} ({result.metric_qualifier})"),
        Piece("\nTranscribed value: ", Style.TRANSCRIBED),
        Piece(with_unit(result.as_printed, result.unit), Style.TRANSCRIBED, tag, exact=d.result_exact(result)),
        *((Piece(spread, Style.TRANSCRIBED, tag),) if spread else ()),
        Piece(" as printed", Style.TRANSCRIBED),
        *((Piece(f" ({d.value_text(result.uncertainty).removeprefix(spread.strip()).strip(' ()')})"),)
          if result.uncertainty is not None else ()),
        Piece(f" (display value {display}; {status}{version})"),
    ))
    evaluation_tag = d.record_tag(registry, evaluation)
    methods = Fields((
        ("Tested configuration", _link(configuration)),
        ("Protocol", _link(protocol)),
        ("Dataset", _link(dataset)),
        ("Procedure", _link(protocol)),
        ("Evaluation", _link(evaluation)),
        ("Coverage", _tagged(d.coverage(evaluation), evaluation_tag, evaluation, "coverage_scored")),
        ("Uncertainty", _tagged(d.value_or_missing(result, "uncertainty"), tag, result, "uncertainty")),
        ("Evidence", (Piece(f"{d.INDEPENDENCE_LABELS[evaluation.independence]} · {status} · "),
                      Piece(source.citation, link=source.id), Piece(f" · {result.source_locator.text}", tag=tag))),
    ))
    blocks: list[Block] = [
        *status_banner(registry, result),
        headline,
        Section("Methods", (
            methods,
            Paragraph(plain(
                "A source-checked result verifies the numerical transcription, not every model or protocol detail. "
                f"Evaluation metadata: {provenance.status_label(registry, evaluation.id)}. {d.SOURCE_CHECK_CAVEAT}"
            ), Style.NOTE),
        )),
        Section("Reproduction", (
            Fields((
                ("Split", _tagged(d.value_or_missing(evaluation, "split"), evaluation_tag, evaluation, "split")),
                ("Adaptation", _tagged(d.adaptation(evaluation), evaluation_tag, evaluation, "adaptation")),
                ("Scoring implementation", _tagged(d.value_or_missing(evaluation, "scoring_implementation"),
                                                   evaluation_tag, evaluation, "scoring_implementation")),
            )),
            *_recipes_and_reproductions(registry, result),
            Paragraph(plain(d.REPRODUCTION_REQUIREMENTS), Style.NOTE),
        )),
        Section("Evidence", evidence_blocks(registry, result.id)),
        Section("Sources and history", _sources_and_history(registry, result.id, [source])),
        Section(TECHNICAL_METADATA, (_technical_metadata(registry, result),)),
        Section("Related records", (Items((
            (Piece("evaluation: "), *_link(evaluation)),
            *((Piece("an input of: "), *_link(derived))  # the results the source computed from this one
              for derived in current_only(registry, registry.referrers(result.id, Result, "derived"))),
        )),)),
    ]
    return Page(result.id, result.kind_token, d.result_title(registry, result), tuple(blocks))


@build_page.register
def _configuration_page(configuration: Configuration, registry: Registry) -> Page:
    evaluations = registry.referrers(configuration.id, Evaluation, "configuration")
    every = results_of(registry, evaluations)
    results = current_only(registry, every)
    family = registry.records.get(configuration.model_family)
    family_name = d.record_name(family) if family else configuration.model_family
    blocks: list[Block] = [
        *status_banner(registry, configuration),
        Paragraph(_tagged(d.value_or_missing(configuration, "description"), d.record_tag(registry, configuration),
                          configuration, "description")),
        Section("Overview", (Paragraph(plain(configuration.profile or d.PROFILE_ABSENT)),
                             Paragraph(plain(d.CONSULT_SOURCES), Style.NOTE))),
        Section("Evaluations and results", (
            Paragraph(plain(f"{_count(evaluations, 'evaluation')} · {_count(results, 'result')}. "
                            "Different protocols are not a single leaderboard.")),
            findings_table(registry, evaluations, own=configuration.id),
            Paragraph(plain(d.SOURCE_CHECK_CAVEAT), Style.NOTE),
            *earlier_versions(registry, not_current(registry, every)),
        )),
        Section("Evidence", evidence_blocks(registry, configuration.id)),
        Section("Sources and history", _sources_and_history(
            registry, configuration.id, [registry.get_as(configuration.source, Source)])),
        Section(TECHNICAL_METADATA, (_technical_metadata(registry, configuration),)),
        Section("Related records", (Items((
            (Piece("configuration of: "), Piece(family_name, link=configuration.model_family)),
            *((Piece("system: "), *_link(e)) for e in evaluations),
        )),)),
    ]
    return Page(configuration.id, configuration.kind_token, configuration.name, tuple(blocks))


# -- sections -----------------------------------------------------------------------------------


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
        (Piece("Configuration: "), *_link(configuration)),
        (Piece("Protocol: "), Piece(d.record_name(protocol), link=protocol.id), Piece("\nDataset: "),
         Piece(d.record_name(dataset), link=dataset.id)),
        (Piece(with_unit(d.result_display(result), result.unit), tag=tag,
               exact=d.result_exact(result), link=result.id),
         Piece(f" · {d.metric_label(result.metric)} ({result.metric_qualifier})\n"
               f"{result.unit} · {d.direction_word(result)}\nTranscribed: "),
         Piece(with_unit(result.as_printed, result.unit), tag=tag,
               exact=d.result_exact(result)),
         Piece(f"\nUncertainty: {d.value_or_missing(result, 'uncertainty')}\n"
               f"Coverage: {d.coverage(evaluation)}")),
        (Piece(f"{d.INDEPENDENCE_LABELS[evaluation.independence]} · {provenance.status_label(registry, result.id)}\n"),
         *_link(evaluation), Piece("\n"), Piece(result.id, link=result.id),
         Piece(f"\nAggregation: {d.value_or_missing(evaluation, 'aggregation')}\n"),
         Piece(source.citation, link=source.id), Piece(f" · {result.source_locator.text}", tag=tag)),
    )


def _recipes_and_reproductions(registry: Registry, result: Result) -> list[Block]:
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
            value = (Piece(f"{run.value:.2f} {unit}", tag=tag, exact=str(run.value), link=run.id), Piece("\n"),
                     Piece(f"{gib(run.value_bytes):.2f} GiB", tag=tag, exact=str(gib(run.value_bytes))))
        else:
            value = (Piece(f"{run.outcome.value}: {run.error}", link=run.id),)
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


def evidence_blocks(registry: Registry, record_id: str) -> tuple[Block, ...]:
    """The evidence section as the seed pages have it: the caveat, then the evidence table under its introduction."""
    return (Paragraph(plain(d.EVIDENCE_CAVEAT), Style.NOTE),
            Section(d.EVIDENCE_TABLE_TITLE, (
                Paragraph(plain(d.EVIDENCE_TABLE_SUMMARY), Style.STRONG),
                Paragraph(plain(d.EVIDENCE_TABLE_INTRO)),
                Paragraph(plain(d.EVIDENCE_TABLE_ROWS)),
                *_evidence_table(registry, record_id),
            )))


def _evidence_table(registry: Registry, record_id: str) -> tuple[Block, ...]:
    rows = registry.referrers(record_id, Evidence, "subject")
    if not rows:
        return (Paragraph(plain(f"0 evidence rows {MATCHING}")), Paragraph(plain(d.EVIDENCE_NONE_MATCH), Style.NOTE))
    cells: list[tuple[Content, ...]] = []
    for row in rows:
        source = registry.get_as(row.source, Source)
        review = registry.get_as(row.review, Review)
        methods = ", ".join(m.value for m in review.methods) or "no methods recorded"
        reviewed_at = review.reviewed_at.isoformat().replace("+00:00", "Z") if review.reviewed_at else ""
        cells.append((
            (Piece(f"{d.label(row.property.value)} "), Piece(row.statement, tag=d.record_tag(registry, row),
                                                              link=row.id),
             Piece(f"\n{d.label(row.claim_scope.value)}")),
            (Piece(source.citation, link=source.id), Piece(f"\n{row.source_locator.text}\nVersion: "
                                                           f"{source.version_statement}")),
            (Piece(review.status.value.replace("-", " "), link=review.id),
             Piece(f" {methods} · {reviewed_at} · {row.source_independence.value.replace('-', ' ')}\n"
                   f"Audit details: {review.note or ''}\n"
                   f"Field: {_or_missing(row, 'field')}\n"
                   f"Source artifact SHA-256: {_artifact_hash(row, review)}\n"
                   f"Hash scope: {_or_missing(row, 'hash_scope')}\n"
                   f"Extraction artifact SHA-256: {_or_missing(row, 'extraction_artifact_sha256')}")),
        ))
    return (Table(
        (Column("Property and statement"), Column("Original source and location"), Column("Review and provenance")),
        tuple(cells), title=f"{_count(rows, 'evidence row')} {MATCHING}", lines=True, expand=True,
        filter="evidence rows",
    ),)


#: What the evidence table's count says: the site's filter narrows it, and the count follows.
MATCHING = "matching the loaded filters"


def _artifact_hash(row: Evidence, review: Review) -> str:
    """The SHA-256 the row was checked against: its own, else the one its review pins, else why there is none."""
    if row.source_artifact_sha256 is None and review.artifact_sha256 is not None:
        return f"{review.artifact_sha256} (pinned by the review)"
    return _or_missing(row, "source_artifact_sha256")


def _sources_and_history(registry: Registry, record_id: str, sources: Iterable[Source]) -> tuple[Block, ...]:
    releases = d.releases_of(registry, record_id)
    line: list[Piece] = []
    for index, release in enumerate(releases):
        line += [Piece(" · Release " if index else "Release "), Piece(release.name, link=release.id)]
    if not releases:
        line.append(Piece("Not in any recorded release"))
    line.append(Piece(f" · Record review: {provenance.status_label(registry, record_id)}"))
    return (Paragraph(tuple(line)),
            Items(tuple((Piece(s.citation, link=s.id), Piece(f" · Original source · {s.version_statement}"),
                         *(piece for label, url in links(s) for piece in (Piece(f" · {label}: "), Piece(url, url=url))))
                        for s in sources)),
            *history_blocks(registry, record_id))


@functools.cache
def _shown_fields(model: type[Record]) -> tuple[tuple[str, str, bool, bool], ...]:
    """(field, label, whether it refers to records, whether it nests values that do) for each field a page lists,
    worked out once per kind."""
    plan = field_plan(model)
    references = dict(plan.references)
    return tuple((name, d.field_label(name), name in references, name in plan.nested) for name in model.model_fields
                 if name not in ("id", "kind", "missing_metadata"))


def _technical_metadata(registry: Registry, record: Record) -> Fields:
    """Every field of the record, labelled from its name; references link to their records."""
    tag = d.record_tag(registry, record)
    rows: list[tuple[str, Content]] = [("Stable ID", plain(record.id))]
    for name, label, is_reference, is_nested in _shown_fields(type(record)):
        value = getattr(record, name)
        if value is None or value == [] or value == {}:  # a gap with a reason has its 'Missing metadata' row
            continue
        if is_reference:
            ids = value if isinstance(value, list) else [value]
            pieces: list[Piece] = []
            for index, target in enumerate(ids):
                pieces += [Piece("; ")] if index else []
                pieces.append(Piece(_name_of(registry, target), link=target))
            rows.append((label, tuple(pieces)))
            continue
        if is_nested and isinstance(value, BaseModel):  # it names records (``derived``)
            rows.append((label, _linked_parts(registry, value, _field_tag(record, name, tag))))
            continue
        text = _comparison_text(record, value) if isinstance(value, Comparison) else _plain(value)
        rows.append((label, (Piece(text, tag=_field_tag(record, name, tag)),)))
    for entry in record.missing_metadata:
        note = f"; note: {entry.note}" if entry.note else ""
        rows.append(("Missing metadata", plain(f"{entry.field}: reason: {entry.reason.value}{note}")))
    for review in registry.referrers(record.id, Review, "subjects"):
        status, separator, rest = _review_line(review).partition(";")
        rows.append(("Review", (Piece(status, link=review.id), Piece(separator + rest))))
    return Fields(tuple(rows))


#: Fields of our own runs that hold what the run gave (their values are measured or estimated).
RUN_OUTPUT_FIELDS = frozenset({"value_bytes", "value", "value_gib", "reserved_bytes", "warmup_peak_bytes",
                               "breakdown_bytes", "comparison"})
#: Fields of a transcribed record that are the registry's own notes, not values read off the source.
OWN_NOTES = frozenset({"derivation", "profile"})


@functools.singledispatch
def _field_tag(record: Record, name: str, record_tag: Tag | None) -> Tag | None:
    """The tag of one field's value: the record's own (transcribed or source checked), except on our notes."""
    return None if name in OWN_NOTES else record_tag


@_field_tag.register
def _run_field_tag(record: Reproduction, name: str, record_tag: Tag | None) -> Tag | None:
    """What a run gave is measured or estimated by us; how it was run (command, setting) is no value."""
    return d.run_tag(record) if name in RUN_OUTPUT_FIELDS else None


def _linked_parts(registry: Registry, value: BaseModel, tag: Tag | None) -> Content:
    """A nested value that names records, field by field as ``_plain`` words one, its references links.

    A derived result's 'operation: difference; value: <id> (94.2%); baseline: <id> (93.8%); note: ...':
    which fields are references is the model's own declaration (``field_plan``), and a result named
    is followed by its printed value.
    """
    references = dict(field_plan(type(value)).references)
    pieces: list[Piece] = []
    for name in type(value).model_fields:
        part = getattr(value, name)
        if part in (None, [], {}):
            continue
        label = f"{'; ' if pieces else ''}{name.replace('_', ' ')}: "
        if name not in references:
            pieces.append(Piece(label + _plain(part), tag=tag))
            continue
        for index, target in enumerate(part if isinstance(part, list) else [part]):
            pieces.append(Piece(label if index == 0 else ", "))
            named = registry.records.get(target)
            # a result is named by what it qualifies ('Splice sites, fp32'), with its printed value after it
            pieces.append(Piece(named.metric_qualifier if isinstance(named, Result) else _name_of(registry, target),
                                link=target))
            if isinstance(named, Result):
                pieces.append(Piece(f" ({with_unit(named.as_printed, named.unit)})"))
    return tuple(pieces)


def _comparison_text(record: Record, comparison: Comparison) -> str:
    """'transcribed: 33.88; estimated by us: 31.07; ...': the run's value is named by its method, never 'reproduced'."""
    ours = d.RUN_LABELS[record.method] if isinstance(record, Reproduction) else "ours"
    return (f"transcribed: {comparison.transcribed}; {ours}: {comparison.reproduced}; "
            f"difference: {comparison.difference}; ratio: {comparison.ratio}")


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


def _back_links(registry: Registry, record_id: str) -> list[Content]:
    return [(Piece(f"{other.kind_token} "), Piece(d.record_name(other), link=other.id), Piece(f" ({path[0]})"))
            for other, path in registry.links_to(record_id)]


# -- the results side by side -------------------------------------------------------------------


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
            _link(evaluation),
            (Piece(with_unit(result.as_printed, result.unit), tag=d.record_tag(registry, result),
                   exact=d.result_exact(result), link=result.id),
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


# -- helpers ------------------------------------------------------------------------------------


def _name_of(registry: Registry, record_id: str) -> str:
    """A record's name where it has one (its id otherwise, or where the id names no record)."""
    named = registry.records.get(record_id)
    return d.record_name(named) if named is not None else record_id


def _link(record: Record) -> Content:
    return (Piece(d.record_name(record), link=record.id),)


def _tagged(text: str, tag: Tag | None, record: Record, field: str) -> Content:
    """A field's text with the record's tag, unless it is a phrase for a missing value (which is no value)."""
    return (Piece(text, tag=None if getattr(record, field) is None else tag),)


def _plain(value: Any) -> str:
    if isinstance(value, bool):  # a yes/no field reads as words, never as Python's 'False'
        return "yes" if value else "no"
    if isinstance(getattr(value, "text", None), str):  # a typed value that says how it reads (a locator)
        return str(value.text)
    if isinstance(value, list) and value and all(isinstance(getattr(v, "text", None), str) for v in value):
        return "; ".join(v.text for v in value)
    if isinstance(value, BaseModel):
        return "; ".join(f"{k.replace('_', ' ')}: {_plain(v)}" for k, v in value.model_dump().items()
                         if v not in (None, [], {}))
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
