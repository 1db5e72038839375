"""Hugging Face ``.eval_results/*.yaml``: a model's headline score on a Hub benchmark's task, with its meaning kept.

The format holds a Hub model (the repository the file lives in), a Hub benchmark dataset with
its task, and one number; a Hub page shows one value per model, benchmark and task. So a value is
exported only where it is that score:

- **One task per (dataset, metric).** ``--hub-ids`` maps a dataset (or the benchmark record it points
  to, or its protocol) to Hub benchmark tasks, each naming the registry metric it scores (by any of its
  names: 'top1' scores accuracy); a result whose metric no task of its dataset names is refused
  (splice-site accuracies are not written under an MCC task), and a mapping that gives one task two
  metrics, or one metric two tasks, is an error.
- **Headline values only.** A fold of a printed mean, and a difference, ratio or speed-up of two
  values, are no model's score (``registry.status.value_roles``): they are listed, not written.
- **One scale and one comparability key per task.** A value is written in its metric's canonical unit
  (``registry.metrics``: an accuracy printed as 0.91 is written as 91, beside others' 91.2 %), and a task's
  values must share one comparability key but for the dataset record (``registry.comparability``: split,
  setting, aggregate, input length, hardware); where they do not, none of the task's values is written, each
  listed with the keys, since a Hub page would rank them together. The notes keep the value as printed.
- **One value per model, benchmark and task.** Where two current results would land on the same
  (Hub model, benchmark, task) (two sizes or a LoRA run mapped to one Hub model through their
  family), none is written: each is listed with the others, for the user to map each configuration
  to its own Hub model.

A result maps where its configuration names a Hub model (its ``checkpoint`` is a Hub repository
id, or ``--hub-ids`` maps the configuration or its family to one). The entry's ``notes`` say the
value as printed with its unit, its uncertainty (or that the source prints none), the metric
qualifier and the review status; ``date`` is the pinned PDF's creation date (the evaluation ran
by then; no source says when it ran, and the format would otherwise take the upload's time); the
source is linked by its retrieval URL, else by the DOI, arXiv or OpenReview address it has, and a
source with none of these is named in the notes (the format takes a source's name only with a
URL). Everything else (the unit as a field, the PDF hash, the hardware, our runs) has no place in
the format; ``registry-export.json`` lists it (the result fields ``RESULT_FIELDS`` does not declare
carried, so a field added to ``Result`` is among them), and every result not exported, with the reason.
Only current results are exported: a superseded or retracted value is history.

Each file's path is derived from the two Hub ids by one mapping, ``eval_results_path``, whose
every component is a checked Hub name, so no id can lead a file out of ``--out``. ``--hub-ids``
is a YAML file::

    models:      # configuration or model-family id -> Hub model repository
      <id>: org/model
    benchmarks:  # dataset, benchmark or protocol id -> Hub benchmark tasks, each with the registry metric it scores
      <id>: {id: org/benchmark, task_id: default, metric: accuracy, revision: <optional sha>}
      <id2>:
        - {id: org/benchmark, task_id: mcc, metric: mcc}
        - {id: org/benchmark, task_id: accuracy, metric: accuracy}
"""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from registry.comparability import FACETS, Facets, place
from registry.errors import RegistryError
from registry.export import Written
from registry.export.fields import ResultFields
from registry.metrics import identity
from registry.models import Result, Source
from registry.page import display as d
from registry.status.standing import standing_of
from registry.status.value_roles import SCORES, not_one_value, role_of, role_text
from registry.status.versions import version_note
from registry.status.witnesses import witness_details
from registry.store.loader import Registry
from registry.units import with_unit

#: Where a .eval_results entry holds each field of a result it writes; every other field is listed as not carried.
#: The unit, the printed value, the uncertainty and the metric qualifier are written into the entry's free-text
#: ``notes`` (a reader gets them as words only).
RESULT_FIELDS = ResultFields(carried={
    "id": "notes (registry record)",
    "kind": "the file (every entry is a result)",
    "evaluation": "the file's Hub model and dataset_id (its configuration and dataset, mapped by --hub-ids)",
    "metric": "task_id (the benchmark task that scores it)",
    "printed_value": "notes",
    "numeric_value": "value (a float, in the metric's canonical unit: registry.metrics)",
    "unit": "notes",
    "uncertainty": "notes",
    "metric_qualifier": "notes",
    "source": "source_url, source_name, date (the pinned PDF's creation date)",
}, worded={"metric_direction": "metric direction", "hardware": "the hardware the source ran it on",
           "missing_metadata": "missing-metadata reasons"},
    also_lost=("unit, printed value, uncertainty, metric qualifier and review status as fields (the notes carry "
               "them as text)",
               "the pinned PDF's SHA-256", "our measured and estimated values",
               "when the evaluation ran (the source does not say; date is the pinned PDF's creation date)"))
#: A Hub name, one path component: what validate_repo_id allows in each half of 'org/name'.
HUB_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9_])?")
HUB_IDS_SHAPE = ("write {hub_ids} as 'models:' (configuration or family id: org/model) and 'benchmarks:' "
                 "(dataset or protocol id: {id: org/benchmark, task_id: default, metric: <registry metric>}, "
                 "or a list of these, one per metric)")


@dataclass(frozen=True)
class Task:
    """One Hub benchmark task, and the registry metric it scores."""

    benchmark: str
    task_id: str
    metric: str
    revision: str | None = None


def write(registry: Registry, out: Path, *, hub_ids: Path | None = None, **_: Any) -> Written:
    from huggingface_hub import EvalResultEntry

    models, benchmarks = read_hub_ids(hub_ids)
    placed: dict[tuple[str, str, str], list[tuple[Result, Any]]] = {}
    written = Written(result_fields=RESULT_FIELDS)
    for result in registry.of_kind(Result):
        target, reason = _target(registry, result, models, benchmarks)
        if target is None:
            written.not_carried.append({"record": result.id, "exported": False, "reason": reason})
            continue
        model, task = target
        value = place(registry, result).canonical.value
        entry = EvalResultEntry(dataset_id=task.benchmark, task_id=task.task_id, value=float(value),
                                dataset_revision=task.revision, date=_date(registry, result),
                                **_source_fields(registry.get_as(result.source, Source)),
                                notes=_notes(registry, result))
        placed.setdefault((model, task.benchmark, task.task_id), []).append((result, entry))
    _refuse_mixed_keys(registry, placed, written)
    files: dict[PurePosixPath, list[Any]] = {}
    for (model, benchmark, task_id), entries in sorted(placed.items()):
        if len(entries) > 1:  # a Hub page shows one value per model, benchmark and task: which is not ours to pick
            ids = sorted(result.id for result, _ in entries)
            for result, _ in entries:
                written.not_carried.append({"record": result.id, "exported": False, "reason": (
                    f"{len(entries)} current results would be the score of Hub model {model} on {benchmark} "
                    f"task {task_id} ({', '.join(ids)}); a Hub page shows one: map each configuration to its "
                    "own Hub model in the file of Hub ids")})
            continue
        ((result, entry),) = entries
        files.setdefault(eval_results_path(model, benchmark), []).append(entry)
        lost = RESULT_FIELDS.lost()
        exact = place(registry, result).canonical.value
        if repr(float(exact)) != str(exact):
            lost.append(f"the exact value {exact} (written as {float(exact)!r})")
        written.not_carried.append({"record": result.id, "exported": True, "model": model, "benchmark": benchmark,
                                    "task_id": task_id, "fields": lost})
    for path, file_entries in sorted(files.items()):
        _write_entries(out, path, file_entries)
        written.files.append(path.as_posix())
    return written


def _refuse_mixed_keys(registry: Registry, placed: dict[tuple[str, str, str], list[tuple[Result, Any]]],
                       written: Written) -> None:
    """Take out of ``placed`` every value of a Hub task whose values hold more than one comparability key (but
    for the dataset record, which two papers each have of one benchmark), listing each with the keys."""
    by_task: dict[tuple[str, str], dict[str, list[Result]]] = {}
    for (_, benchmark, task_id), entries in placed.items():
        for result, _ in entries:
            key = _key_but_benchmark(place(registry, result).facets)
            by_task.setdefault((benchmark, task_id), {}).setdefault(key, []).append(result)
    for (benchmark, task_id), keys in by_task.items():
        if len(keys) < 2:
            continue
        listed = " | ".join(sorted(keys))
        for slot in [slot for slot in placed if slot[1:] == (benchmark, task_id)]:
            for result, _ in placed.pop(slot):
                written.not_carried.append({"record": result.id, "exported": False, "reason": (
                    f"the values of {benchmark} task {task_id} are not comparable (comparability keys: {listed}); "
                    "a Hub page would rank them together: map each key's dataset to a task of its own")})


def _key_but_benchmark(facets: Facets) -> str:
    return "; ".join(f"{name}={getattr(facets, name)}" for name in FACETS if name != "benchmark")


def _target(registry: Registry, result: Result, models: dict[str, str],
            benchmarks: dict[str, list[Task]]) -> tuple[tuple[str, Task] | None, str]:
    """The Hub model and benchmark task a result is the score of, or why it is none."""
    note = version_note(registry, result.id)
    if note:
        return None, f"not current: {note}"
    shape = not_one_value(result)
    if shape is not None:
        return None, f"it is {shape}, and a Hub score is a value"
    role = role_of(registry, result)
    if role not in SCORES:
        return None, f"not a model's score on a benchmark: {role_text(registry, result)}"
    _, configuration, protocol, dataset = d.result_context(registry, result)
    model = _hub_model(configuration.checkpoint) or models.get(configuration.id) or \
        models.get(configuration.model_family)
    tasks = benchmarks.get(dataset.id) or (benchmarks.get(dataset.benchmark) if dataset.benchmark else None) or \
        benchmarks.get(protocol.id)
    reasons = []
    if model is None:
        reasons.append("its configuration names no Hub model (checkpoint: "
                       f"{configuration.checkpoint or d.missing_phrase(configuration, 'checkpoint')})")
    if tasks is None:
        reasons.append(f"its dataset {dataset.id} maps to no Hub benchmark")
    else:
        matching = [task for task in tasks if identity(task.metric).token == identity(result.metric).token]
        if not matching:
            reasons.append(f"its metric {result.metric} is scored by no task its dataset maps to (tasks: "
                           + ", ".join(f"{t.benchmark} {t.task_id} scores {t.metric}" for t in tasks) + ")")
    if reasons or model is None or tasks is None:
        return None, "; ".join(reasons)
    return (model, matching[0]), ""


def eval_results_path(model: str, benchmark: str) -> PurePosixPath:
    """``<org>/<model>/.eval_results/<org>--<benchmark>.yaml``: each component a checked Hub name, so the path
    stays inside the export folder whatever the ids hold (they are checked on reading, and here again)."""
    parts = [*_hub_parts(model, "Hub model"), ".eval_results", "--".join(_hub_parts(benchmark, "Hub benchmark"))
             + ".yaml"]
    return PurePosixPath(*parts)


def _hub_parts(repo_id: str, what: str) -> tuple[str, str]:
    parts = repo_id.split("/")
    if len(parts) != 2 or not all(HUB_NAME.fullmatch(p) and ".." not in p and "--" not in p for p in parts):
        raise RegistryError(f"{what} id {repo_id!r} is not a Hub repository id ('org/name': letters, digits, "
                            "'-', '_' and '.', no '..' or '--', no leading '/')",
                            "write it as org/name, the id the Hub shows for the repository")
    return parts[0], parts[1]


def _write_entries(out: Path, path: PurePosixPath, entries: list[Any]) -> None:
    import yaml
    from huggingface_hub import eval_result_entries_to_yaml

    target = out.joinpath(*path.parts)
    if not target.resolve().is_relative_to(out.resolve()):  # cannot happen with checked names; a last guard
        raise RegistryError(f"the file {path} would lie outside the export folder", "check the Hub ids")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(yaml.safe_dump(eval_result_entries_to_yaml(entries), sort_keys=False, allow_unicode=True),
                      encoding="utf-8")


def _notes(registry: Registry, result: Result) -> str:
    source = registry.get_as(result.source, Source)
    uncertainty = result.uncertainty.text if result.uncertainty else \
        f"uncertainty: {d.missing_phrase(result, 'uncertainty')}"
    cited = "" if _source_url(source) else f"; source: {source.citation} (no retrieval URL)"
    scaled = place(registry, result).canonical
    converted = "" if scaled.unit == result.unit else f" (written as {with_unit(str(scaled.value), scaled.unit)})"
    witnessed = "".join(f"; {kind.replace('_', ' ')}: {text}" for kind, text in witness_details(
        registry, result.id).items())
    return (f"{d.metric_label(result.metric)} ({result.metric_qualifier}), "
            f"{with_unit(result.as_printed, result.unit)} as printed{converted}, {uncertainty}; "
            f"{standing_of(registry, result).summary}{witnessed}; registry record {result.id}{cited}")


def _date(registry: Registry, result: Result) -> str:
    return registry.get_as(result.source, Source).pdf_creation_date.isoformat()


def _source_url(source: Source) -> str | None:
    """Where the source can be read: its retrieval URL, else the address its DOI, arXiv or OpenReview id gives."""
    if source.retrieval_url:
        return str(source.retrieval_url)
    if source.doi:
        return f"https://doi.org/{source.doi}"
    if source.arxiv:
        return f"https://arxiv.org/abs/{source.arxiv}"
    if source.openreview:
        return f"https://openreview.net/forum?id={source.openreview}"
    return None


def _source_fields(source: Source) -> dict[str, str]:
    url = _source_url(source)
    return {"source_url": url, "source_name": source.citation} if url else {}


def _hub_model(checkpoint: str | None) -> str | None:
    """The Hub repository a checkpoint names, if it is one ('org/name' or 'org/name@revision')."""
    if not checkpoint:
        return None
    repo = checkpoint.split("@", 1)[0]
    try:
        _hub_parts(repo, "checkpoint")
    except RegistryError:
        return None
    return repo


def read_hub_ids(path: Path | None) -> tuple[dict[str, str], dict[str, list[Task]]]:
    """The user's mapping, each malformed part refused with where it is and how to write it."""
    if path is None:
        return {}, {}
    from registry.errors import RecordFileError
    from registry.store.yamlio import parse_yaml, read_text

    try:
        if not stat.S_ISREG(path.stat().st_mode):  # a FIFO or a device would block the read, or never end
            raise RegistryError(f"{path} is not a regular file (a FIFO or a device is never read)", HUB_IDS_SHAPE)
        data = parse_yaml(read_text(path)).data
    except RecordFileError as exc:
        raise RegistryError(f"{path}: {exc}", HUB_IDS_SHAPE) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise RegistryError(f"cannot read {{hub_ids}} {path}: {exc}", HUB_IDS_SHAPE) from exc
    if not isinstance(data, dict) or not set(data) <= {"models", "benchmarks"}:
        raise RegistryError(f"{path} is not a mapping of 'models' and 'benchmarks'"
                            + (f" (it has {', '.join(sorted(map(str, set(data) - {'models', 'benchmarks'})))})"
                               if isinstance(data, dict) else ""), HUB_IDS_SHAPE)
    models = _mapping(path, data, "models")
    for key, value in models.items():
        if not isinstance(value, str):
            raise RegistryError(f"{path}: models: {key!r} maps to {value!r}, not a Hub model id", HUB_IDS_SHAPE)
        _located(path, f"models: {key!r}", value, "Hub model")
    benchmarks: dict[str, list[Task]] = {}
    seen: dict[tuple[str, str], str] = {}
    for key, value in _mapping(path, data, "benchmarks").items():
        tasks = [_task(path, key, item) for item in (value if isinstance(value, list) else [value])]
        metrics = [task.metric for task in tasks]
        for metric in sorted({m for m in metrics if metrics.count(m) > 1}):
            raise RegistryError(f"{path}: benchmarks: {key!r} gives the metric {metric} more than one task",
                                "map each metric of a dataset to one benchmark task")
        for task in tasks:
            other = seen.setdefault((task.benchmark, task.task_id), task.metric)
            if other != task.metric:
                raise RegistryError(f"{path}: benchmarks: the task {task.task_id} of {task.benchmark} is given the "
                                    f"metrics {other} and {task.metric}",
                                    "a benchmark task scores one metric: give each metric its own task_id")
        benchmarks[str(key)] = tasks
    return {str(k): str(v) for k, v in models.items()}, benchmarks


def _mapping(path: Path, data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name) or {}
    if not isinstance(value, dict):
        raise RegistryError(f"{path}: '{name}' is {type(value).__name__}, not a mapping of ids", HUB_IDS_SHAPE)
    return value


def _task(path: Path, key: object, value: object) -> Task:
    where = f"benchmarks: {key!r}"
    if not isinstance(value, dict) or not {"id", "task_id", "metric"} <= set(value) or \
            not set(value) <= {"id", "task_id", "metric", "revision"}:
        raise RegistryError(f"{path}: {where} needs an 'id', a 'task_id' and the 'metric' it scores (and at most a "
                            f"'revision'), not {value!r}", "write it as {id: org/benchmark, task_id: default, "
                            "metric: <the registry metric, for example accuracy>}")
    texts = {name: item for name, item in value.items() if isinstance(item, str) and item.strip()}
    if len(texts) != len(value):
        raise RegistryError(f"{path}: {where}: every value must be text, not {value!r}",
                            "quote the values, for example task_id: 'default'")
    _located(path, where, texts["id"], "Hub benchmark")
    return Task(texts["id"], texts["task_id"], texts["metric"], texts.get("revision"))


def _located(path: Path, where: str, repo_id: str, what: str) -> None:
    try:
        _hub_parts(repo_id, what)
    except RegistryError as exc:
        raise RegistryError(f"{path}: {where}: {exc.message}", exc.hint) from exc
