"""Every Eval Ever (schema 0.3.0): one evaluation log per configuration, with each of its results.

The log is of the ``documentation`` kind: the values are transcribed from a paper, never our runs.
The pinned PDF's SHA-256 is in ``source_metadata.additional_details``; each result's printed value,
exact value, locator, review status and the hardware the source ran it on in
``score_details.details`` (strings, as the schema asks: the schema has no hardware field); the
configuration's hardware and model family in ``model_info.additional_details`` (no record names a
model's developer, so the schema's optional ``developer`` is left out); what qualifies the metric in
``metric_config.additional_details``. The schema's ``uncertainty`` takes numbers: a printed standard
error, standard deviation or confidence interval (a ± value around the score, or its bounds) maps to
its own entry, with ``num_samples`` where it was computed over samples; a source that reports none
gets no ``uncertainty`` object, and ``details.uncertainty`` says so in the pages' words (else it
holds the uncertainty as printed).
Our own measured and estimated runs are not part of a documentation log and stay out, and so do
superseded and retracted results: the schema has no place for a value that is no longer the
registry's, so each log holds current results only, ``details.record_status`` says so and
``details.supersedes`` names the versions a corrected value replaced; ``registry-export.json``
lists every result left out, and why.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from registry import display as d
from registry.export import Written, dump_json
from registry.history import current_only, replacing, status_of, version_note
from registry.ids import parse_id, slugify
from registry.loader import Registry
from registry.models import Configuration, Evaluation, ModelFamily, Result, Source
from registry.models.records import Direction, Independence

SCHEMA_VERSION = "0.3.0"
RELATIONSHIPS = {Independence.INDEPENDENT_EXTERNAL: "third_party", Independence.DEVELOPER: "first_party"}


def write(registry: Registry, out: Path, **_: Any) -> Written:
    written = Written()
    for configuration in registry.of_kind(Configuration):
        evaluations = registry.referrers(configuration.id, Evaluation, "configuration")
        results = [r for r in current_only(registry, [r for e in evaluations for r in registry.referrers(
            e.id, Result, "evaluation")]) if _exportable(r) is None]
        if not results:
            continue
        path = f"{configuration.id}.json"
        dump_json(out / path, evaluation_log(registry, configuration, results))
        written.files.append(path)
    for result in registry.of_kind(Result):
        note = version_note(registry, result.id)
        if note:  # history, not a score: the schema has no place for a superseded value, so it stays out
            written.not_carried.append({"record": result.id, "exported": False, "reason": f"not current: {note}"})
            continue
        why_not = _exportable(result)
        if why_not is not None:
            written.not_carried.append({"record": result.id, "exported": False, "reason": why_not})
            continue
        written.not_carried.append({"record": result.id, "fields": ["reproductions (our own runs are not "
                                    "documentation)", "missing_metadata reasons beyond uncertainty"]})
    return written


def _exportable(result: Result) -> str | None:
    """Why the schema cannot hold ``result`` without inventing something, or None where it can."""
    if result.metric_direction is None:  # a count: the schema's required lower_is_better would be invented
        return "its metric has no direction, and the schema requires lower_is_better"
    if result.bound is not None:  # the schema's score is a value; a bound's number read as one would mislead
        return f"it is a bound ('{result.as_printed}'), and the schema's score is a value"
    return None


def evaluation_log(registry: Registry, configuration: Configuration, results: list[Result]) -> dict[str, Any]:
    source = registry.get_as(configuration.source, Source)
    family = registry.get_as(configuration.model_family, ModelFamily)
    created = dt.datetime.strptime(parse_id(configuration.id).date, "%Y%m%d").replace(tzinfo=dt.UTC)
    independence = {registry.get_as(r.evaluation, Evaluation).independence for r in results}
    relationship = RELATIONSHIPS[independence.pop()] if len(independence) == 1 else "other"
    model_id = f"{slugify(family.name)}/{slugify(configuration.reported_name)}"
    return {
        "schema_version": SCHEMA_VERSION,
        "evaluation_id": f"{configuration.id}/{model_id}/{int(created.timestamp())}",
        "retrieved_timestamp": str(int(created.timestamp())),
        "source_metadata": {
            "source_name": source.citation,
            "source_type": "documentation",
            "source_organization_name": source.authors_label,
            "evaluator_relationship": relationship,
            "additional_details": {
                "source_record": source.id,
                "pdf_sha256": source.sha256,
                "pdf_retrieval_url": source.retrieval_url,
                "version": source.version_statement,
            },
        },
        "eval_library": {
            "name": "unknown",
            "version": "unknown",
            "additional_details": {"note": "The source names no evaluation library; values transcribed by the "
                                           "registry from the pinned PDF."},
        },
        "model_info": {
            "name": configuration.reported_name,
            "id": model_id,
            # No record names the model's developer (a family is a name only), and the schema's developer
            # is optional: it is left out rather than filled with the family's name.
            "additional_details": {
                "model_family": family.name,
                "model_family_record": family.id,
                "hardware": d.hardware_text(configuration),
                "deployment_type": "unknown",
                "model_availability": "unknown",
                "configuration_record": configuration.id,
                "configuration": configuration.name,
                "checkpoint": configuration.checkpoint or d.missing_phrase(configuration, "checkpoint"),
            },
        },
        "evaluation_results": [_result(registry, result) for result in results],
    }


def _result(registry: Registry, result: Result) -> dict[str, Any]:
    evaluation, _, protocol, dataset = d.result_context(registry, result)
    metric_details = {"metric_qualifier": result.metric_qualifier, "protocol_record": protocol.id}
    if result.unit_detail:
        metric_details["unit_detail"] = result.unit_detail
    score: dict[str, Any] = {
        "score": float(result.numeric_value),
        "details": {
            "printed_value": result.printed_value,
            "exact_value": str(result.numeric_value),
            "pdf_sha256": registry.get_as(result.source, Source).sha256,
            "source_locator": result.source_locator.text,
            "review_status": d.status_label(registry, result.id),
            "hardware": d.hardware_text(result),
            "uncertainty": result.uncertainty.printed if result.uncertainty else
            d.missing_phrase(result, "uncertainty"),
            "result_record": result.id,
            "record_status": status_of(registry, result.id).value,
            **({"supersedes": "; ".join(f"{c.supersedes} (correction {c.id}: {c.reason})" for c in earlier)}
               if (earlier := replacing(registry, result.id)) else {}),
        },
    }
    uncertainty = _uncertainty(result)
    if uncertainty:
        score["uncertainty"] = uncertainty
    return {
        "evaluation_result_id": result.id,
        "evaluation_name": evaluation.name,
        "source_data": {
            "dataset_name": dataset.name,
            "source_type": "other",
            "additional_details": {"dataset_record": dataset.id},
        },
        "metric_config": {
            "evaluation_description": protocol.name,
            "metric_id": result.metric,
            "metric_name": d.metric_label(result.metric),
            "metric_unit": result.unit,
            "lower_is_better": result.metric_direction is Direction.LOWER,
            "score_type": "continuous",
            "min_score": None,
            "max_score": None,
            "additional_details": metric_details,
        },
        "score_details": score,
    }


def _uncertainty(result: Result) -> dict[str, Any]:
    """The schema's uncertainty for what the source printed (empty: it printed none the schema can hold)."""
    printed = result.uncertainty
    if printed is None:
        return {}
    found: dict[str, Any] = {}
    kind = printed.kind.value
    if kind == "standard-error" and printed.half_width is not None:
        found["standard_error"] = {"value": float(printed.half_width), "method": "as printed by the source"}
    elif kind == "standard-deviation" and printed.half_width is not None:
        found["standard_deviation"] = float(printed.half_width)
    elif kind == "confidence-interval":
        lower, upper = printed.lower, printed.upper
        if printed.half_width is not None:
            lower, upper = result.numeric_value - printed.half_width, result.numeric_value + printed.half_width
        if lower is not None and upper is not None:
            found["confidence_interval"] = {"lower": float(lower), "upper": float(upper),
                                            "method": "as printed by the source"}
            if printed.level is not None:
                found["confidence_interval"]["confidence_level"] = float(printed.level / 100)
    if found and printed.over is not None and printed.over.kind.value == "samples" and printed.over.count:
        found["num_samples"] = printed.over.count
    return found

