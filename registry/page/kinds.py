"""What each kind's page holds, laid out the way the seed pages read.

``build_page`` dispatches on the record's model class (``functools.singledispatch``): a
configuration shows its evaluations and results; a result its methods, reproduction notes and
our own runs, evidence table, sources and history, and technical metadata; a source its
citation; every other kind the generic page (its fields, then the records that refer to it).
A new kind gets the generic page until it registers its own. Fields are rendered from the
models (labels from field names), so a field added to a model appears without an edit here.

This module holds the dispatch and each kind's layout; the sections several kinds share have
modules of their own: the findings tables (``findings``), our runs (``runs``), the evidence
table (``evidence``) and the technical metadata (``metadata``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from registry.models import (
    Benchmark,
    Configuration,
    Dataset,
    Evaluation,
    ModelFamily,
    Protocol,
    Record,
    Result,
    Review,
    Source,
)
from registry.page import display as d
from registry.page.blocks import (
    Block,
    Content,
    Fields,
    Items,
    Page,
    Paragraph,
    Piece,
    Section,
    Style,
    Tag,
    plain,
)
from registry.page.citation import bibtex, links
from registry.page.evidence import evidence_blocks
from registry.page.findings import findings_table, results_of, source_findings
from registry.page.history import earlier_versions, history_blocks, status_banner
from registry.page.leaderboard import leaderboard_blocks
from registry.page.metadata import TECHNICAL_METADATA, technical_metadata
from registry.page.runs import recipes_and_reproductions
from registry.page.standing import standing_section
from registry.page.witnesses import claims_section
from registry.status import provenance
from registry.status.versions import Status, current_only, not_current, status_of
from registry.store.loader import Registry
from registry.units import with_unit


@functools.singledispatch
def build_page(record: Record, registry: Registry) -> Page:
    """The generic page: the record's fields, then every record that refers to it."""
    return Page(record.id, record.kind_token, d.record_name(record), _generic_blocks(registry, record))


def _generic_blocks(registry: Registry, record: Record, *own: Block) -> tuple[Block, ...]:
    """The status banner, the fields, the kind's ``own`` sections, then history and the records that refer to it."""
    blocks: list[Block] = [*status_banner(registry, record), technical_metadata(registry, record), *own]
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
        Paragraph(plain(f"{d.counted(evaluations, 'evaluation')} · "
                        f"{d.counted(current_only(registry, every), 'result')}. "
                        "Different protocols are not a single leaderboard.")),
        findings_table(registry, evaluations, title=f"Results on this {record.kind_token}"),
        *earlier_versions(registry, not_current(registry, every)),
    ))
    return Page(record.id, record.kind_token, d.record_name(record), _generic_blocks(registry, record, section))


@build_page.register
def _dataset_page(dataset: Dataset, registry: Registry) -> Page:
    """A dataset's results; where it points to no benchmark record, it is its own benchmark: its leaderboard too."""
    page = _results_of_page(registry, dataset, "dataset")
    if dataset.benchmark is not None:
        return page
    return Page(page.record_id, page.kind, page.title,
                (*page.blocks, Section("Leaderboard", leaderboard_blocks(registry, dataset.id))))


@build_page.register
def _benchmark_page(benchmark: Benchmark, registry: Registry) -> Page:
    """A benchmark shared across papers: its identifiers, each paper's dataset record of it, its leaderboard."""
    datasets = registry.referrers(benchmark.id, Dataset, "benchmark")
    accounts = Section("Papers' records of this benchmark", (
        Items(tuple((*d.record_link(dataset), Piece(" · "), *d.record_link(registry.records[dataset.source]))
                    for dataset in datasets)) if datasets
        else Paragraph(plain("No dataset record points to this benchmark yet."), Style.NOTE),))
    return Page(benchmark.id, benchmark.kind_token, d.record_name(benchmark), _generic_blocks(
        registry, benchmark, accounts, Section("Leaderboard", leaderboard_blocks(registry, benchmark.id))))


@build_page.register
def _protocol_page(protocol: Protocol, registry: Registry) -> Page:
    return _results_of_page(registry, protocol, "protocol")


@build_page.register
def _review_page(review: Review, registry: Registry) -> Page:
    return Page(review.id, review.kind_token, d.record_name(review),
                _generic_blocks(registry, review, *claims_section(review)))


@build_page.register
def _source_page(source: Source, registry: Registry) -> Page:
    citation = Paragraph(plain(f"{source.citation}\nOriginal source · {source.version_statement}"))
    printed = Section("Values printed in this source", (source_findings(registry, source),))
    return Page(source.id, source.kind_token, d.record_name(source),
                (citation, read_and_cite(source), *_generic_blocks(registry, source, printed)))


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
    evaluation_tag = d.record_tag(registry, evaluation)
    methods = Fields((
        ("Tested configuration", d.record_link(configuration)),
        ("Protocol", d.record_link(protocol)),
        ("Dataset", d.record_link(dataset)),
        ("Procedure", d.record_link(protocol)),
        ("Evaluation", d.record_link(evaluation)),
        ("Coverage", _tagged(d.coverage(evaluation), evaluation_tag, evaluation, "coverage_scored")),
        ("Uncertainty", _tagged(d.value_or_missing(result, "uncertainty"), tag, result, "uncertainty")),
        ("Evidence", (Piece(f"{d.INDEPENDENCE_LABELS[evaluation.independence]} · {status} · "),
                      Piece(source.citation, link=source.id), Piece(f" · {result.source_locator.text}", tag=tag))),
    ))
    blocks: list[Block] = [
        *status_banner(registry, result),
        _headline(registry, result, status, tag),
        standing_section(registry, result),
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
            *recipes_and_reproductions(registry, result),
            Paragraph(plain(d.REPRODUCTION_REQUIREMENTS), Style.NOTE),
        )),
        Section("Evidence", evidence_blocks(registry, result.id)),
        Section("Sources and history", _sources_and_history(registry, result.id, [source])),
        Section(TECHNICAL_METADATA, (technical_metadata(registry, result),)),
        Section("Related records", (Items((
            (Piece("evaluation: "), *d.record_link(evaluation)),
            *((Piece("an input of: "), d.named_link(registry, derived))  # the results the source computed from this one
              for derived in current_only(registry, registry.referrers(result.id, Result, "derived"))),
        )),)),
    ]
    return Page(result.id, result.kind_token, d.result_title(registry, result), tuple(blocks))


def _headline(registry: Registry, result: Result, status: str, tag: Tag | None) -> Paragraph:
    """The value as displayed and as transcribed, its uncertainty, metric, provenance status and version."""
    display = d.result_display(result)
    standing = status_of(registry, result.id)
    version = "" if standing is Status.CURRENT else f"; {standing.value}, not the registry's value (see above)"
    spread = f" {result.uncertainty.printed}" if result.uncertainty is not None else ""
    return Paragraph((
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
            Paragraph(plain(f"{d.counted(evaluations, 'evaluation')} · {d.counted(results, 'result')}. "
                            "Different protocols are not a single leaderboard.")),
            findings_table(registry, evaluations, own=configuration.id),
            Paragraph(plain(d.SOURCE_CHECK_CAVEAT), Style.NOTE),
            *earlier_versions(registry, not_current(registry, every)),
        )),
        Section("Evidence", evidence_blocks(registry, configuration.id)),
        Section("Sources and history", _sources_and_history(
            registry, configuration.id, [registry.get_as(configuration.source, Source)])),
        Section(TECHNICAL_METADATA, (technical_metadata(registry, configuration),)),
        Section("Related records", (Items((
            (Piece("configuration of: "), Piece(family_name, link=configuration.model_family)),
            *((Piece("system: "), *d.record_link(e)) for e in evaluations),
        )),)),
    ]
    return Page(configuration.id, configuration.kind_token, configuration.name, tuple(blocks))


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


def _back_links(registry: Registry, record_id: str) -> list[Content]:
    return [(Piece(f"{other.kind_token} "), d.named_link(registry, other), Piece(f" ({path[0]})"))
            for other, path in registry.links_to(record_id)]


def _tagged(text: str, tag: Tag | None, record: Record, field: str) -> Content:
    """A field's text with the record's tag, unless it is a phrase for a missing value (which is no value)."""
    return (Piece(text, tag=None if getattr(record, field) is None else tag),)
