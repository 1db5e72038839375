"""Every Eval Ever (schema 0.3.0): one evaluation log per configuration and dataset, in the datastore's layout.

Each log is ``data/<benchmark>/<developer>/<model>/<UUID4>.json``, as upstream's datastore and its
validator (``every_eval_ever``'s ``validate_aggregate``) expect: the benchmark is the dataset's id
slug, developer and model come from ``model_info.id`` (the checkpoint where it is a Hub repository
id, else the family and the configuration as slugs), and the UUID is derived from the configuration
and dataset ids (a SHA-256 shaped as a version-4 UUID), so that the same records always give the
same file names. The log is of the ``documentation`` kind: the values are transcribed from a
paper, never our runs.

The pinned PDF's SHA-256, its URL (or why there is none), DOI and arXiv id are in
``source_metadata.additional_details``; each result's printed value, exact value, locator, review
status, the hardware the source ran it on and its role (a headline value, the mean of printed
folds, one fold of such a mean, or a difference of two values) in ``score_details.details``
(strings, as the schema asks; an empty field reads as the pages' phrase for why). ``developer`` is
the source's authors where they evaluated their own model (independence ``developer``), else left
out: no record names another model's developer. A continuous score needs its range: a share in
percent is 0-100, a non-negative quantity (memory, time, throughput, a count) 0-Infinity, and
anything else (an MCC, a difference) is declared unbounded, because no record states the metric's
range; ``details.score_bounds`` says which rule gave it. The schema's ``uncertainty`` takes
numbers: a printed standard error, standard deviation or confidence interval maps to its own
entry, with ``num_samples`` the folds, seeds, runs or samples it was computed over; a source that
reports none gets no ``uncertainty`` object, and ``details.uncertainty`` says so in the pages' words.
Our own measured and estimated runs are not part of a documentation log and stay out, and so do
superseded and retracted results: the schema has no place for a value that is no longer the
registry's, so each log holds current results only, ``details.record_status`` says so and
``details.supersedes`` names the versions a corrected value replaced; ``registry-export.json``
lists every result left out, and why, and for each result written the fields it lost: those
``RESULT_FIELDS`` does not declare carried (a field added to ``Result`` is among them until it is).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

from registry.comparability import place
from registry.export import Written, dump_json
from registry.export.fields import ResultFields
from registry.ids import slugify, split_id
from registry.metrics import Canonical, identity, to_canonical
from registry.models import Configuration, Dataset, Evaluation, ModelFamily, Result, Source, parse_id
from registry.models.records import Direction, Independence
from registry.models.values import UncertaintyKind
from registry.page import display as d
from registry.status import provenance
from registry.status.standing import standing_of
from registry.status.value_roles import Role, not_one_value, role_of, role_text
from registry.status.versions import current_only, replacing, status_of, version_note
from registry.status.witnesses import witness_details
from registry.store.loader import Registry
from registry.units import Dimension, dimension

SCHEMA_VERSION = "0.3.0"
RELATIONSHIPS = {Independence.INDEPENDENT_EXTERNAL: "third_party", Independence.DEVELOPER: "first_party"}
#: Dimensions whose values cannot be negative: their range is 0 to Infinity.
NON_NEGATIVE = frozenset({Dimension.COUNT, Dimension.THROUGHPUT, Dimension.TIME, Dimension.MEMORY, Dimension.ENERGY,
                          Dimension.POWER, Dimension.COMPUTE, Dimension.COMPUTE_RATE})
#: How the datastore's validator matches a counted uncertainty: bootstrap resamples have a field of their own.
SAMPLE_FIELDS = {"bootstrap-resamples": "num_bootstrap_samples"}
#: Where a log holds each field of a result it writes; every other field is listed as not carried.
RESULT_FIELDS = ResultFields(carried={
    "id": "evaluation_result_id, score_details.details.result_record",
    "kind": "evaluation_results (every entry is a result)",
    "evaluation": "evaluation_name; its configuration is model_info, its dataset source_data",
    "metric": "metric_config.metric_id, metric_name",
    "metric_direction": "metric_config.lower_is_better",
    "metric_qualifier": "metric_config.additional_details.metric_qualifier",
    "unit": "metric_config.metric_unit",
    "unit_detail": "metric_config.additional_details.unit_detail",
    "printed_value": "score_details.details.printed_value",
    "numeric_value": "score_details.score, score_details.details.exact_value",
    "uncertainty": "score_details.uncertainty, score_details.details.uncertainty",
    "hardware": "score_details.details.hardware",
    "derived": "score_details.details.value_role, value_role_detail",
    "source": "source_metadata, score_details.details.pdf_sha256 and source_url",
    "source_locator": "score_details.details.source_locator",
}, worded={"missing_metadata": "missing_metadata reasons beyond uncertainty"},
    also_lost=("reproductions (our own runs are not documentation)",))


def write(registry: Registry, out: Path, **_: Any) -> Written:
    written = Written(result_fields=RESULT_FIELDS)
    lost = RESULT_FIELDS.lost()
    for configuration in registry.of_kind(Configuration):
        evaluations = registry.referrers(configuration.id, Evaluation, "configuration")
        by_dataset: dict[str, list[Result]] = {}
        for evaluation in evaluations:
            results = [r for r in current_only(registry, registry.referrers(evaluation.id, Result, "evaluation"))
                       if _exportable(r) is None]
            by_dataset.setdefault(evaluation.dataset, []).extend(results)
        for dataset_id, results in sorted(by_dataset.items()):
            if not results:
                continue
            log = evaluation_log(registry, configuration, registry.get_as(dataset_id, Dataset), results)
            path = datastore_path(log, configuration.id, dataset_id)
            dump_json(out / path, log)
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
        written.not_carried.append({"record": result.id, "fields": lost})
    return written


def _exportable(result: Result) -> str | None:
    """Why the schema cannot hold ``result`` without inventing something, or None where it can."""
    if result.metric_direction is None:  # a count: the schema's required lower_is_better would be invented
        return "its metric has no direction, and the schema requires lower_is_better"
    shape = not_one_value(result)
    if shape is not None:
        return f"it is {shape}, and the schema's score is a value"
    return None


def datastore_path(log: dict[str, Any], configuration_id: str, dataset_id: str) -> str:
    """``data/<benchmark>/<developer>/<model>/<UUID4>.json``: the one place upstream's datastore files a log."""
    developer, model = log["model_info"]["id"].split("/", 1)
    benchmark = log["evaluation_results"][0]["source_data"]["additional_details"]["benchmark"]
    return f"data/{benchmark}/{developer}/{model.replace('/', '_')}/{log_uuid(configuration_id, dataset_id)}.json"


def log_uuid(configuration_id: str, dataset_id: str) -> str:
    """A version-4-shaped UUID from the two ids: the same records give the same file name in every build."""
    digest = hashlib.sha256(f"every-eval-ever\n{configuration_id}\n{dataset_id}".encode()).digest()
    return str(uuid.UUID(bytes=digest[:16], version=4))


def evaluation_log(registry: Registry, configuration: Configuration, dataset: Dataset,
                   results: list[Result]) -> dict[str, Any]:
    source = registry.get_as(configuration.source, Source)
    family = registry.get_as(configuration.model_family, ModelFamily)
    created = dt.datetime.strptime(parse_id(configuration.id).date, "%Y%m%d").replace(tzinfo=dt.UTC)
    independence = {registry.get_as(r.evaluation, Evaluation).independence for r in results}
    relationship = RELATIONSHIPS[independence.pop()] if len(independence) == 1 else "other"
    model_id = _model_id(configuration, family)
    model_info: dict[str, Any] = {
        "name": configuration.reported_name,
        "id": model_id,
        "additional_details": _texts(configuration, {
            "model_family": family.name,
            "model_family_record": family.id,
            "hardware": d.hardware_text(configuration),
            "deployment_type": "unknown",
            "model_availability": "unknown",
            "configuration_record": configuration.id,
            "configuration": configuration.name,
            "checkpoint": configuration.checkpoint,
        }),
    }
    if relationship == "first_party":  # the source's authors evaluated their own model: they are its developer
        model_info["developer"] = source.authors_label
    else:
        model_info["additional_details"]["developer"] = "Not stated: the evaluators did not develop the model " \
                                                        "and no record names who did"
    return {
        "schema_version": SCHEMA_VERSION,
        # eval_name/model_id/<the log's own UUID>: two configurations of one model (zero-shot and fine-tuned)
        # have one model_id and one date, and the datastore's statistics count logs by this id.
        "evaluation_id": f"{split_id(dataset.id).slug}/{model_id}/{log_uuid(configuration.id, dataset.id)}",
        "retrieved_timestamp": str(int(created.timestamp())),
        "source_metadata": {
            "source_name": source.citation,
            "source_type": "documentation",
            "source_organization_name": source.authors_label,
            "evaluator_relationship": relationship,
            "additional_details": _texts(source, {
                "source_record": source.id,
                "pdf_sha256": source.sha256,
                "pdf_retrieval_url": source.retrieval_url,
                "doi": source.doi,
                "arxiv": source.arxiv,
                "openreview": source.openreview,
                "version": source.version_statement,
            }, optional=("doi", "arxiv", "openreview")),
        },
        "eval_library": {
            "name": "unknown",
            "version": "unknown",
            "additional_details": {"note": "The source names no evaluation library; values transcribed by the "
                                           "registry from the pinned PDF."},
        },
        "model_info": model_info,
        "evaluation_results": [_result(registry, result) for result in results],
    }


def _model_id(configuration: Configuration, family: ModelFamily) -> str:
    """The checkpoint where it is a Hub repository ('org/name'), else '<family>/<configuration>' as slugs."""
    checkpoint = (configuration.checkpoint or "").split("@", 1)[0]
    parts = checkpoint.split("/")
    if len(parts) == 2 and all(part and slugify(part) for part in parts) and \
            all(ch.isalnum() or ch in "-_." for ch in checkpoint.replace("/", "")) and ".." not in checkpoint:
        return checkpoint
    return f"{slugify(family.name)}/{slugify(configuration.reported_name)}"


def _texts(record: Any, values: dict[str, Any], optional: tuple[str, ...] = ()) -> dict[str, str]:
    """Every value as a string, as the schema's additional_details ask; an empty field reads as why it is
    empty (its missing-metadata phrase), or is left out where it is optional (a DOI the source lacks)."""
    found: dict[str, str] = {}
    for name, value in values.items():
        if value is not None:
            found[name] = str(value)
        elif name not in optional:
            field = "retrieval_url" if name == "pdf_retrieval_url" else name
            found[name] = d.missing_phrase(record, field)
    return found


def score_bounds(result: Result, role: Role, unit: str | None = None) -> tuple[float | str, float | str, str]:
    """The range a continuous score in ``unit`` (default: the result's) lies in, and the rule that gave it (no
    record states a metric's range)."""
    kind = dimension(unit or result.unit)
    if role is Role.DERIVED:
        return "-Infinity", "Infinity", "a change between two values: unbounded"
    if kind is Dimension.PERCENTAGE:
        return 0.0, 100.0, "a share in percent: 0 to 100"
    if kind in NON_NEGATIVE:
        return 0.0, "Infinity", f"a {kind.value} cannot be negative: 0 to Infinity"
    return "-Infinity", "Infinity", "the source states no range for this metric: unbounded"


def _result(registry: Registry, result: Result) -> dict[str, Any]:
    evaluation, _, protocol, dataset = d.result_context(registry, result)
    role = role_of(registry, result)
    placed = place(registry, result)
    scaled = placed.canonical
    low, high, bounds_rule = score_bounds(result, role, scaled.unit)
    metric_details = {"metric_qualifier": result.metric_qualifier, "protocol_record": protocol.id}
    if result.unit_detail:
        metric_details["unit_detail"] = result.unit_detail
    source = registry.get_as(result.source, Source)
    score: dict[str, Any] = {
        "score": float(scaled.value),
        "details": {
            "printed_value": result.printed_value,
            "printed_unit": result.unit,
            "exact_value": str(result.numeric_value),
            "exact_score": str(scaled.value),
            "comparability_key": placed.facets.key,
            "value_role": role.value,
            "value_role_detail": role_text(registry, result),
            "is_fold_value": "yes" if role is Role.MEMBER else "no",
            "score_bounds": bounds_rule,
            "pdf_sha256": source.sha256,
            "source_url": source.retrieval_url or d.missing_phrase(source, "retrieval_url"),
            "source_locator": result.source_locator.text,
            **_review_details(registry, result.id),
            "standing": standing_of(registry, result).summary,
            "hardware": d.hardware_text(result),
            "uncertainty": result.uncertainty.text if result.uncertainty else
            d.missing_phrase(result, "uncertainty"),
            "result_record": result.id,
            "record_status": status_of(registry, result.id).value,
            **({"supersedes": "; ".join(f"{c.supersedes} (correction {c.id}: {c.reason})" for c in earlier)}
               if (earlier := replacing(registry, result.id)) else {}),
        },
    }
    uncertainty = _uncertainty(result, to_canonical(result.metric, result.unit, registry.units) or Decimal(1))
    if uncertainty:
        score["uncertainty"] = uncertainty
    return {
        "evaluation_result_id": result.id,
        "evaluation_name": evaluation.name,
        "source_data": {
            "dataset_name": dataset.name,
            "source_type": "other",
            "additional_details": {"dataset_record": dataset.id, "benchmark": split_id(dataset.id).slug},
        },
        "metric_config": {
            "evaluation_description": protocol.name,
            "metric_id": metric_id(result.metric, scaled),
            "metric_name": d.metric_label(identity(result.metric).token),
            "metric_unit": scaled.unit,
            "lower_is_better": result.metric_direction is Direction.LOWER,
            "score_type": "continuous",
            "min_score": low,
            "max_score": high,
            "additional_details": metric_details,
        },
        "score_details": score,
    }


def _review_details(registry: Registry, result_id: str) -> dict[str, str]:
    """The result's review status, and each witness's own verdict (``registry.status.witnesses``), never merged."""
    return {"review_status": provenance.status_label(registry, result_id), **witness_details(registry, result_id)}


def metric_id(metric: str, scaled: Canonical) -> str:
    """The declared metric a result's slug names ('top1' -> 'accuracy'), its values all in one unit; a metric the
    registry does not declare, or a value no scale converts, is named with its unit ('win-rate (percent)'), so
    that a percent and a fraction of it never share an id."""
    named = identity(metric)
    if named.declared is not None and scaled.unit == named.declared.canonical_unit:
        return named.token
    return f"{named.token} ({scaled.unit})"


def _uncertainty(result: Result, factor: Decimal) -> dict[str, Any]:
    """The schema's uncertainty for what the source printed (empty: it printed none the schema can hold), in the
    score's unit (``factor`` converts the printed one)."""
    printed = result.uncertainty
    if printed is None:
        return {}
    found: dict[str, Any] = {}
    kind = printed.kind
    if kind is UncertaintyKind.STANDARD_ERROR and printed.half_width is not None:
        found["standard_error"] = {"value": float(printed.half_width * factor), "method": "as printed by the source"}
    elif kind is UncertaintyKind.STANDARD_DEVIATION and printed.half_width is not None:
        found["standard_deviation"] = float(printed.half_width * factor)
    elif kind is UncertaintyKind.CONFIDENCE_INTERVAL:
        lower, upper = printed.lower, printed.upper
        if printed.half_width is not None:
            lower, upper = result.numeric_value - printed.half_width, result.numeric_value + printed.half_width
        if lower is not None and upper is not None:
            found["confidence_interval"] = {"lower": float(lower * factor), "upper": float(upper * factor),
                                            "method": "as printed by the source"}
            if printed.level is not None:
                found["confidence_interval"]["confidence_level"] = float(printed.level / 100)
    if found and printed.over is not None and printed.over.count:
        # The folds, seeds, runs or items it was computed over (details.uncertainty says which).
        found[SAMPLE_FIELDS.get(printed.over.kind.value, "num_samples")] = printed.over.count
    return found
