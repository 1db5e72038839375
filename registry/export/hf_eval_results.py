"""Hugging Face ``.eval_results/*.yaml``: a result's value on a Hub model page and its benchmark's board.

The format holds a Hub model (the repository the file lives in), a Hub benchmark dataset with
its task, and a number; huggingface_hub's own ``EvalResultEntry`` writes each entry. A result
maps where its configuration names a Hub model (its ``checkpoint`` is a Hub repository id, or
``--hub-ids`` maps the configuration or its family to one) and its dataset or protocol maps to
a Hub benchmark (``--hub-ids``). Everything else the registry knows about the value (its unit,
review, locator, our runs) has no place in the format; ``registry-export.json`` lists it, and
every result that could not be exported, with the reason. The entry's free-text ``notes`` say the
value as printed with its unit, the metric qualifier and the review status in words (and the citation of
a source without a retrieval URL, which the format names only with one). The Hub reads
a file as one score per model, benchmark and task: where two results of one model share a
benchmark's task (two configurations), each is written to a file of its own,
``<benchmark>_<result slug>.yaml``. Only current results are exported: a
superseded or retracted value is history, and a Hub page would show it as a score beside the
value that replaced it.

``--hub-ids`` is a YAML file::

    models:      # configuration or model-family id -> Hub model repository
      <id>: org/model
    benchmarks:  # dataset or protocol id -> Hub benchmark dataset and task
      <id>: {id: org/benchmark, task_id: default, revision: <optional sha>}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from registry import display as d
from registry.errors import RegistryError
from registry.export import Written
from registry.history import version_note
from registry.ids import split_id
from registry.loader import Registry
from registry.models import Result, Source
from registry.units import with_unit

#: What a .eval_results entry cannot hold as a field of its own, for every result exported. The unit, the
#: printed value, the metric qualifier and the review status are written into the entry's free-text
#: ``notes`` (a reader gets them as words only); the rest is not in the file at all.
NOT_CARRIED = ("unit, printed value, metric qualifier and review status as fields (the notes carry them as text)",
               "metric direction", "the pinned PDF's SHA-256", "the hardware the source ran it on",
               "missing-metadata reasons", "our measured and estimated values",
               "when the evaluation ran (the source does not say)")


def write(registry: Registry, out: Path, *, hub_ids: Path | None = None, **_: Any) -> Written:
    from huggingface_hub import EvalResultEntry

    models, benchmarks = _read_hub_ids(hub_ids)
    files: dict[tuple[str, str], list[tuple[Result, Any]]] = {}
    written = Written()
    for result in registry.of_kind(Result):
        note = version_note(registry, result.id)
        if note:  # a Hub page shows one value per model and benchmark: the current one
            written.not_carried.append({"record": result.id, "exported": False, "reason": f"not current: {note}"})
            continue
        evaluation, configuration, protocol, dataset = d.result_context(registry, result)
        model = _hub_model(configuration.checkpoint) or models.get(configuration.id) or \
            models.get(configuration.model_family)
        benchmark = benchmarks.get(dataset.id) or benchmarks.get(protocol.id)
        reasons = []
        if model is None:
            reasons.append("its configuration names no Hub model (checkpoint: "
                           f"{configuration.checkpoint or d.missing_phrase(configuration, 'checkpoint')})")
        if benchmark is None:
            reasons.append(f"its dataset {dataset.id} maps to no Hub benchmark")
        if reasons:
            written.not_carried.append({"record": result.id, "exported": False, "reason": "; ".join(reasons)})
            continue
        assert model is not None and benchmark is not None
        source = registry.get_as(result.source, Source)
        # The format takes a source's name only with its URL; a source without one is named in the notes instead.
        cited = "" if source.retrieval_url else f"; source: {source.citation} (no retrieval URL)"
        entry = EvalResultEntry(
            dataset_id=benchmark["id"], task_id=benchmark["task_id"], value=float(result.numeric_value),
            dataset_revision=benchmark.get("revision"), source_url=source.retrieval_url,
            source_name=source.citation if source.retrieval_url else None,
            notes=f"{d.metric_label(result.metric)} ({result.metric_qualifier}), "
                  f"{with_unit(result.as_printed, result.unit)} as printed; "
                  f"{d.status_label(registry, result.id)}; registry record {result.id}{cited}",
        )
        files.setdefault((model, benchmark["id"]), []).append((result, entry))
        lost = list(NOT_CARRIED)
        if repr(float(result.numeric_value)) != str(result.numeric_value):
            lost.append(f"the exact value {result.numeric_value} (written as {float(result.numeric_value)!r})")
        written.not_carried.append({"record": result.id, "exported": True, "model": model,
                                    "benchmark": benchmark["id"], "fields": lost})
    for (repository, benchmark_id), entries in sorted(files.items()):
        tasks = [entry.task_id for _, entry in entries]
        stem = f"{repository}/.eval_results/{benchmark_id.replace('/', '--')}"
        shared = [entry for _, entry in entries if tasks.count(entry.task_id) == 1]
        if shared:
            _write_entries(out / f"{stem}.yaml", shared)
            written.files.append(f"{stem}.yaml")
        for result, entry in entries:
            # The Hub reads one score per model, benchmark and task in a file: several scores of one model
            # on one task (two configurations of it) each get a file of their own, named for the result.
            if tasks.count(entry.task_id) > 1:
                path = f"{stem}_{split_id(result.id).slug}.yaml"
                _write_entries(out / path, [entry])
                written.files.append(path)
    return written


def _write_entries(path: Path, entries: list[Any]) -> None:
    import yaml
    from huggingface_hub import eval_result_entries_to_yaml

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(eval_result_entries_to_yaml(entries), sort_keys=False, allow_unicode=True),
                    encoding="utf-8")


def _hub_model(checkpoint: str | None) -> str | None:
    """The Hub repository a checkpoint names, if it is one ('org/name' or 'org/name@revision')."""
    if not checkpoint:
        return None
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    repo = checkpoint.split("@", 1)[0]
    try:
        validate_repo_id(repo)
    except HFValidationError:
        return None
    return repo if "/" in repo else None


def _read_hub_ids(path: Path | None) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    if path is None:
        return {}, {}
    from registry.yamlio import parse_yaml, read_text

    data = parse_yaml(read_text(path)).data
    if not isinstance(data, dict):
        raise RegistryError(f"{path} is not a mapping with 'models' and 'benchmarks'",
                            "write {hub_ids} as 'models:' (configuration or family id: org/model) and "
                            "'benchmarks:' (dataset or protocol id: {id: org/benchmark, task_id: default})")
    models = data.get("models") or {}
    benchmarks = data.get("benchmarks") or {}
    for key, value in benchmarks.items():
        if not isinstance(value, dict) or "id" not in value or "task_id" not in value:
            raise RegistryError(f"{path}: benchmark {key!r} needs an 'id' and a 'task_id'",
                                "write it as {id: org/benchmark, task_id: default}")
    return {str(k): str(v) for k, v in models.items()}, {str(k): {n: str(x) for n, x in v.items()}
                                                          for k, v in benchmarks.items()}
