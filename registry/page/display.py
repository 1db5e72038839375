"""Rendering rules: how stored values read on a page.

Display values, labels and the phrases for missing metadata are computed here from
the records, never stored: a record holds '33.88' and 'uncertainty: unreported',
and this module says '33.9' and 'Not reported by the source'. What a value is (transcribed, source
checked, measured, estimated) is decided in ``registry.status.provenance``; this module words it as tags.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from measure.outcome import Method
from registry.models import (
    Configuration,
    Dataset,
    Evaluation,
    Evidence,
    MissingReason,
    Protocol,
    Record,
    Release,
    Reproduction,
    Result,
    Review,
)
from registry.models.records import Independence
from registry.models.values import Locator
from registry.numbers import RANGE_DASH
from registry.page.blocks import Content, Piece, Tag
from registry.per_registry import memo
from registry.status.provenance import (
    RUN_PROVENANCE,
    Provenance,
    deciding_reviews,
    provenance_of,
    status_label,
)
from registry.store.loader import Registry
from registry.units import bytes_in_unit, with_unit
from registry.units import symbol as unit_symbol  # the one table of units, under the name the pages use

DISPLAY_SIGNIFICANT_DIGITS = 3

METRIC_LABELS = {"peak-memory": "Peak memory"}
#: Words of metric slugs that read as acronyms ('mcc' -> 'MCC', 'f1-macro' -> 'F1 macro').
ACRONYMS = {word: word.upper() for word in (
    "mcc", "auroc", "auprc", "auc", "roc", "f1", "bleu", "rouge", "mse", "rmse", "mae", "mape", "ndcg", "mrr", "em",
    "wer", "cer", "fid", "ppl", "ece", "bpb", "bpc", "iou", "miou", "psnr", "ssim", "r2", "gpu", "cpu", "tpu", "flops",
    "pr", "top1", "top5")} | {"map": "mAP", "top-1": "Top-1"}
INDEPENDENCE_LABELS = {
    Independence.INDEPENDENT_EXTERNAL: "Independent external evaluation",
    Independence.DEVELOPER: "Evaluation by the model's developers",
}

#: How an unreported field reads, where 'Not reported' alone would say too little.
UNREPORTED_PHRASES = {
    "uncertainty": "Not reported by the source",
    "update_mode": "LoRA or full update not stated",
}
REASON_PHRASES = {
    MissingReason.UNREPORTED: "Not reported",
    MissingReason.NOT_APPLICABLE: "Not applicable",
    MissingReason.NOT_TRANSCRIBED: "Not transcribed",
    MissingReason.NOT_SEPARATELY_DOCUMENTED: "Not separately documented",
}

PROFILE_ABSENT = "An explanatory profile has not yet been reviewed for this record."
SOURCE_CHECK_CAVEAT = "Source checking is not independent reproduction."
#: The seed pages' explanatory sentences, word for word.
CONSULT_SOURCES = ("Consult the linked sources for architecture or protocol details. Missing evidence is not evidence "
                   "of a missing capability.")
REPRODUCTION_REQUIREMENTS = ("Reproducing this published result requires matching its model configuration, data, "
                             "split and scorer. Source checking or a successful smoke test does not establish score "
                             "reproduction.")
EVIDENCE_CAVEAT = ("Source checking verifies the cited claim or transcription. It does not establish independent "
                   "reproduction.")
EVIDENCE_TABLE_TITLE = "Evidence table"
EVIDENCE_TABLE_SUMMARY = "Inspect claims, sources and review details"
EVIDENCE_TABLE_INTRO = ("Trace each statement to its source and review. A context-only reference supports the record "
                        "generally; it does not verify an individual field. Source checking does not reproduce an "
                        "experiment.")
EVIDENCE_TABLE_ROWS = ("One row per statement and cited source. Multiple citations are not independent evaluations. "
                       "Shared locators are labelled explicitly.")
EVIDENCE_NONE_MATCH = "No evidence rows match these filters. Choose another scope or clear the search."
NO_VERIFIED_RECIPE = (
    "No execution recipe has been verified for this exact configuration and evaluation. "
    "A benchmark's general instructions may use different inputs, splits or model settings."
)


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """'fold 10' after 'fold 9': the numbers in a text compared as numbers, the words between them as words."""
    return tuple((0, int(part)) if part.isdigit() else (1, part.lower())
                 for part in re.split(r"(\d+)", text) if part)


def display_value(value: Decimal) -> str:
    """A value rounded for display: 3 significant digits, whole numbers from 100 up (33.88 -> 33.9).

    Rounding only ever removes digits: a value printed with fewer digits is shown as printed.
    """
    if len(value.as_tuple().digits) <= DISPLAY_SIGNIFICANT_DIGITS or value == 0:
        return format(value, "f")
    if abs(value) >= 10 ** DISPLAY_SIGNIFICANT_DIGITS:
        return format(value.quantize(Decimal(1), rounding=ROUND_HALF_UP), "f")
    exponent = value.adjusted() - DISPLAY_SIGNIFICANT_DIGITS + 1
    return format(value.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_HALF_UP), "f")


def result_display(result: Result) -> str:
    """A result's value rounded for display with its shape kept: a bound's sign, a range's two ends ('< 0.0027',
    '12–15'), so that a rounded headline never shows one end of a range, or a bound's number, as the value."""
    shown = display_value(result.numeric_value)
    if result.range_upper is not None:
        return f"{shown}{RANGE_DASH}{display_value(result.range_upper.numeric_value)}"
    return f"{result.bound.value} {shown}" if result.bound is not None else shown


def result_exact(result: Result) -> str:
    """A result's exact value as the page's machine-readable ``data-exact`` gives it: a range's two ends
    ('12–15'), never its lower end alone."""
    if result.range_upper is not None:
        return f"{result.numeric_value}{RANGE_DASH}{result.range_upper.numeric_value}"
    return str(result.numeric_value)


def metric_label(metric: str) -> str:
    """'peak-memory' -> 'Peak memory', 'mcc' -> 'MCC', 'mcc-change' -> 'MCC change'."""
    if metric in METRIC_LABELS:
        return METRIC_LABELS[metric]
    words = [ACRONYMS.get(word, word) for word in metric.replace("_", "-").split("-")]
    if words and words[0] == words[0].lower():
        words[0] = words[0].capitalize()
    return " ".join(words)


def knob_text(value: object) -> str:
    """A knob's value as recipes and commands write it: booleans as 'true'/'false'."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def split_knobs(settings: Sequence[Mapping[str, object]]) -> tuple[list[str], list[str]]:
    """Knob names whose value differs between ``settings``, and 'name=value' for those every setting shares.

    Tables of runs name the varying knobs on each row and the shared ones once, in the caption.
    """
    names = list(dict.fromkeys(name for setting in settings for name in setting))
    if len(settings) <= 1:
        return names, []
    varying = [n for n in names if len({repr(s.get(n)) for s in settings}) > 1]
    shared = [f"{n}={knob_text(settings[0][n])}" for n in names
              if n not in varying and all(n in s for s in settings)]
    return varying, shared


def label(token: str) -> str:
    """'reported-result' -> 'Reported result'."""
    return token.replace("-", " ").replace("_", " ").capitalize()


def field_label(name: str) -> str:
    return name.replace("_", " ").capitalize().replace("sha256", "SHA-256")


def missing_phrase(record: Record, field: str) -> str:
    """How an empty field reads: from its missing-metadata entry, or 'Not recorded' where there is none."""
    entry = record.missing(field)
    if entry is None:
        return "Not recorded"
    if entry.reason is MissingReason.UNREPORTED and field in UNREPORTED_PHRASES:
        return UNREPORTED_PHRASES[field]
    if entry.reason is MissingReason.NOT_SEPARATELY_DOCUMENTED:
        phrase = f"{field_label(field)} not separately documented"
        return f"{phrase}; {entry.note}" if entry.note else phrase
    return REASON_PHRASES[entry.reason]


def value_or_missing(record: Record, field: str) -> str:
    value = getattr(record, field)
    if value is None or value == []:
        return missing_phrase(record, field)
    return value_text(value)


def value_text(value: object) -> str:
    """A stored value as a page reads it: a typed value by its own ``text`` (a locator, an uncertainty)."""
    text = getattr(value, "text", None)
    if isinstance(text, str):
        return text
    if isinstance(value, list) and value and all(isinstance(getattr(v, "text", None), str) for v in value):
        return "; ".join(v.text for v in value)
    return str(getattr(value, "value", value))


def _short_missing(record: Record, field: str) -> str:
    entry = record.missing(field)
    if entry is None:
        return "Not recorded"
    return "Not separately documented" if entry.reason is MissingReason.NOT_SEPARATELY_DOCUMENTED \
        else REASON_PHRASES[entry.reason]


def coverage(evaluation: Evaluation) -> str:
    """'150 scored / 150 eligible', 'Not reported scored / Not reported eligible', '3200 scored (eligible: not
    applicable)'."""
    scored, eligible = evaluation.coverage_scored, evaluation.coverage_eligible
    if scored is not None and eligible is not None:
        return f"{scored:,} scored / {eligible:,} eligible"
    if scored is not None:
        return f"{scored:,} scored (eligible: {_short_missing(evaluation, 'coverage_eligible').lower()})"
    if eligible is not None:
        return f"{eligible:,} eligible (scored: {_short_missing(evaluation, 'coverage_scored').lower()})"
    return (f"{_short_missing(evaluation, 'coverage_scored')} scored / "
            f"{_short_missing(evaluation, 'coverage_eligible')} eligible")


def adaptation(evaluation: Evaluation) -> str:
    """'Training step; LoRA or full update not stated'."""
    parts = [value_or_missing(evaluation, "adaptation")]
    if evaluation.update_mode is not None:
        parts.append(f"{evaluation.update_mode.value} update")
    else:
        parts.append(missing_phrase(evaluation, "update_mode"))
    return "; ".join(parts)


def hardware_text(record: Result | Configuration) -> str:
    """The hardware the source says it ran on, each statement with its words and where it says so, or why none.

    'NVIDIA H100: NVIDIA H100 (section 2.4); NVIDIA H100, 94 GB each: 'H100 94GB GPUs' (section 4)'.
    Exports whose format has no hardware field carry it as this one text.
    """
    if not record.hardware:
        return missing_phrase(record, "hardware")
    parts = []
    for entry in record.hardware:
        device = f"{entry.count} x {entry.accelerator}" if entry.count else entry.accelerator
        if entry.memory is not None:
            device += f", {entry.memory.value} {unit_symbol(entry.memory.unit)} each"
        parts.append(f"{device}: {entry.text}")
    return "; ".join(parts)


def releases_of(registry: Registry, record_id: str) -> list[Release]:
    return registry.referrers(record_id, Release, "members")


def result_context(registry: Registry, result: Result) -> tuple[Evaluation, Configuration, Protocol, Dataset]:
    """The evaluation, configuration, protocol and dataset a result belongs to."""
    evaluation = registry.get_as(result.evaluation, Evaluation)
    return (
        evaluation,
        registry.get_as(evaluation.configuration, Configuration),
        registry.get_as(evaluation.protocol, Protocol),
        registry.get_as(evaluation.dataset, Dataset),
    )


def where_in_source(locator: Locator) -> str:
    """"Table 1, row 'NT 2.5B', page 2": where a value stands in its source, without the quote."""
    label = locator.table or locator.figure
    parts = [f"{label} {locator.subtable}" if label and locator.subtable else label,
             f"row '{locator.row}'" if locator.row else None, f"column '{locator.column}'" if locator.column else None,
             locator.section if not label else None, f"page {locator.page}" if locator.page else None]
    return ", ".join(part for part in parts if part)


def result_words(registry: Registry, result: Result, *, value: bool = True) -> str:
    """"0.953 Accuracy (acceptor) of NT 2.5B on Splice sites, Table 1, row 'NT 2.5B'": a result as a link to it
    reads alone, in a list of a page's links (value, metric, model, dataset and locator)."""
    where = where_in_source(result.source_locator)
    shown = f"{with_unit(result.as_printed, result.unit)} " if value else ""
    return f"{shown}{result_title(registry, result)}{', ' + where if where else ''}"


def result_link(registry: Registry, result: Result, text: str, **piece: Any) -> Piece:
    """``text`` linked to the result's page, with what it opens for a screen reader where the text is short: a
    value ('0.953') or a model's name says nothing of the metric, dataset and place in the paper it stands for."""
    value = text == with_unit(result.as_printed, result.unit) or text == with_unit(result_display(result), result.unit)
    return Piece(text, link=result.id, hidden=f": {result_words(registry, result, value=not value)}", **piece)


def named_link(registry: Registry, record: Record, text: str | None = None, **piece: Any) -> Piece:
    """The record linked by ``text`` (its ``record_name`` by default). A result's, a review's and an evidence row's
    link says what it opens for a screen reader: '0.958 MCC', 'source checked' and '11.49' alone name neither the
    model, the dataset nor the record checked; a run's, which run it is."""
    text = record_name(record) if text is None else text
    if isinstance(record, Result):
        return result_link(registry, record, text, **piece)
    if isinstance(record, (Review, Evidence)):
        return Piece(text, link=record.id, hidden=f" ({link_words(registry, record)})", **piece)
    if isinstance(record, Reproduction):  # runs of one sweep can give the same value on the same hardware
        return Piece(text, link=record.id, hidden=f" (run {record.id})", **piece)
    return Piece(text, link=record.id, **piece)


#: Kinds whose name on a page is not their token's capitalised ('config' -> 'Configuration').
KIND_LABELS = {"config": "Configuration", "family": "Model family"}


def kind_label(record: Record) -> str:
    return KIND_LABELS.get(record.kind_token, label(record.kind_token))


def link_words(registry: Registry, record: Record) -> str:
    """What a link to the record opens, in words: 'result: 0.953 Accuracy (...) of ... on ..., Table 1' or
    'evaluation: NT 2.5B LoRA, cv on H3K4me3'. The site adds it where one text on a page would lead to two
    records."""
    if isinstance(record, Result):
        return f"result: {result_words(registry, record)}"
    if isinstance(record, Review):
        subjects = [_subject_name(registry, subject) for subject in record.subjects]
        more = f" and {len(subjects) - 3} more" if len(subjects) > 3 else ""
        return f"{record.status.value} review of {'; '.join(subjects[:3])}{more}"
    if isinstance(record, Evidence):
        where = where_in_source(record.source_locator)
        return (f"evidence row: {label(record.property.value).lower()} '{record.statement}' of "
                f"{_subject_name(registry, record.subject)}{', ' + where if where else ''}")
    return f"{kind_label(record).lower()}: {record_name(record)}"


def _subject_name(registry: Registry, record_id: str) -> str:
    record = registry.records.get(record_id)
    if record is None:
        return record_id
    return result_title(registry, record) if isinstance(record, Result) else record_name(record)


def result_title(registry: Registry, result: Result) -> str:
    """'Peak memory (Training, ...) of NT 2.5B, ... on Synthetic uniform random DNA sequences, ...'."""
    _, configuration, _, dataset = result_context(registry, result)
    return f"{metric_label(result.metric)} ({result.metric_qualifier}) of {configuration.name} on {dataset.name}"


def finding(result: Result) -> str:
    """'33.9 Peak memory (Training, ...)' as the configuration page's table reads."""
    return f"{result_display(result)} {metric_label(result.metric)} ({result.metric_qualifier})"


@functools.singledispatch
def record_name(record: Record) -> str:
    """A one-line name for any record: its name or title where it has one, else its id."""
    for attr in ("name", "title"):
        value = getattr(record, attr, None)
        if isinstance(value, str):
            return value
    return record.id


def record_link(record: Record) -> Content:
    """A record named by ``record_name``, linked to its page: how every section refers to another record."""
    return (Piece(record_name(record), link=record.id),)


def counted(items: Sequence[object], noun: str) -> str:
    """'1 evaluation', '3 results': a count with its noun."""
    return f"{len(items)} {noun}{'' if len(items) == 1 else 's'}"


@record_name.register
def _result_name(record: Result) -> str:
    return f"{with_unit(record.as_printed, record.unit)} {metric_label(record.metric)}"


@record_name.register
def _review_name(record: Review) -> str:
    return f"{record.status.value} review of {len(record.subjects)} record(s)"


@record_name.register
def _reproduction_name(record: Reproduction) -> str:
    shown = (f"{bytes_in_unit(record.value_bytes, 'gigabyte')} GB" if record.value_bytes is not None
             else record.outcome.value)
    return f"{record.method.value} {shown} on {record.hardware.name}"


# -- what each value is -------------------------------------------------------------------------


def record_tag(registry: Registry, record: Record) -> Tag | None:
    """What the values of a transcribed record are (``registry.status.provenance``): source checked, with the
    reviews that back it, or only transcribed.

    None for the kinds that are not read off a source (reviews, releases, recipes, our own runs).
    """
    if not type(record).transcribed:
        return None
    cache = memo(registry, "record_tag")
    if record.id not in cache:
        cache[record.id] = _record_tag(registry, record)
    return cache[record.id]  # type: ignore[no-any-return]


def _record_tag(registry: Registry, record: Record) -> Tag:
    provenance = provenance_of(registry, record)
    if provenance is not None and provenance is not Provenance.TRANSCRIBED:
        details = tuple(
            (f"review {r.id}", "; ".join(part for part in (
                r.reviewer or "", r.reviewed_at.isoformat().replace("+00:00", "Z") if r.reviewed_at else "",
                f"artifact sha256 {r.artifact_sha256}" if r.artifact_sha256 else "no artifact hash") if part))
            for r in deciding_reviews(registry, record.id)
        )
        return Tag(provenance, status_label(registry, record.id), details)
    return Tag(Provenance.TRANSCRIBED, "transcribed, not reviewed")


#: How our own runs are labelled, by method.
RUN_LABELS = {Method.MEASURED: "measured by us", Method.ESTIMATED: "estimated by us"}


def run_tag(run: Reproduction) -> Tag:
    """What a run's value is: measured or estimated by us, with the hardware, versions and commit behind it."""
    hardware = run.hardware.name + (f" x{run.hardware.count}" if run.hardware.count > 1 else "")
    software = "; ".join(f"{name} {version}" for name, version in sorted(run.software.items()) if version)
    details = (("hardware", hardware), ("software", software or "not recorded"),
               ("commit", run.git_commit or "not recorded"),
               ("run", run.started_at.isoformat().replace("+00:00", "Z")), ("record", run.id))
    return Tag(RUN_PROVENANCE[run.method], RUN_LABELS[run.method], details)


def runs_tag(method: Method, runs: Sequence[Reproduction]) -> Tag:
    """The tag of a summary of several runs of one method: the hardware, versions and commits they ran at."""
    hardware = ", ".join(sorted({run.hardware.name for run in runs}))
    commits = ", ".join(sorted({run.git_commit or "not recorded" for run in runs}))
    return Tag(RUN_PROVENANCE[method], RUN_LABELS[method],
               (("hardware", hardware), ("commit", commits), ("runs", str(len(runs)))))


def value_with_uncertainty(result: Result) -> str:
    """'0.937 ± 0.021' or '0.68 [0.66, 0.70]': the value as printed with its uncertainty as printed."""
    value = with_unit(result.as_printed, result.unit)
    return f"{value} {result.uncertainty.printed}" if result.uncertainty is not None else value


def direction_word(result: Result) -> str:
    """'lower' or 'higher' (is better), or 'no direction' for a metric without one (a count)."""
    return result.metric_direction.value if result.metric_direction is not None else "no direction"
