"""The one adapter from measure/'s run outcome to the registry's record: a reproduction filed beside the
transcribed value (which is never touched), with its id, its value in the result's unit and its comparison."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from decimal import Decimal
from pathlib import Path

from measure.outcome import RunOutcome, Status
from registry.errors import RegistryError
from registry.ids import MAX_ID_LENGTH, compose_id
from registry.models import Reproduction, Result, parse_id
from registry.models.reproduction import Comparison, ratio
from registry.reproduce.types import Filed, Job, RunEnvironment
from registry.store.writer import write_record
from registry.units import bytes_in_unit, gib


def compare(result: Result, value: Decimal) -> Comparison | None:
    """The value beside the result's, or None where the result is 0 (no ratio to give).

    Fresh Decimal objects, since YAML would write a shared one as an alias.
    """
    transcribed, reproduced = Decimal(str(result.numeric_value)), Decimal(str(value))
    if transcribed == 0:
        return None
    return Comparison(transcribed=transcribed, reproduced=reproduced, difference=reproduced - transcribed,
                      ratio=ratio(reproduced, transcribed))


def reproduction_id(result: Result, outcome: RunOutcome) -> str:
    """'<result batch>-<run date>-reproduction-<result slug>-<method>-<knobs>-<hash>', at most MAX_ID_LENGTH long.

    The hash covers everything that tells runs apart, so the id stays unique when a long slug or knob
    token has to be shortened to fit: the knobs go first, then the slug.
    """
    parsed = parse_id(result.id)
    fingerprint = json.dumps([outcome.setting.model, outcome.setting.knobs(), outcome.method.value,
                              outcome.started_at.isoformat(), outcome.hardware.name], sort_keys=True)
    digest = hashlib.sha256(fingerprint.encode()).hexdigest()[:6]
    prefix = compose_id(parsed.batch, f"{outcome.started_at:%Y%m%d}", "reproduction", "")
    method = outcome.method.value
    room = MAX_ID_LENGTH - len(prefix) - len(digest) - 1  # what is left for '<slug>-<method>[-<knobs>]'
    slug = parsed.slug[:max(1, room - len(method) - 1)].strip("-")
    body = f"{slug}-{method}"
    token = outcome.setting.id_token()[:max(0, room - len(body) - 1)].strip("-")
    return f"{prefix}{body}-{token}-{digest}" if token else f"{prefix}{body}-{digest}"


def shared_fields(source: type) -> tuple[str, ...]:
    """The fields of dataclass ``source`` (a run outcome, a run environment) that the record has too, by name."""
    own = {f.name for f in dataclasses.fields(source)}
    return tuple(name for name in Reproduction.model_fields if name in own)


def build_record(job: Job, outcome: RunOutcome, env: RunEnvironment) -> Reproduction:
    """The reproduction record of one outcome (only for a job with a result and recipe, measured or estimated).

    What the record derives is derived here, once: the id, what the setting says, the status
    and value in the result's unit and in GiB, the comparison. Every other field the outcome or
    the environment holds under the record's name is copied as it is (``shared_fields``), so a
    field added to both reaches the record with no edit here.
    """
    if job.result is None or job.recipe is None:
        raise RegistryError("a run of a stage without a transcribed result cannot become a reproduction record")
    if outcome.dry_run:
        raise RegistryError("a dry run measured nothing, so it is never filed as a reproduction")
    result = job.result
    status, error = outcome.status, outcome.error
    if status is Status.OK and outcome.peak_bytes is None:
        status, error = Status.ERROR, error or "the run finished without a peak value"
    peak = outcome.peak_bytes if status is Status.OK else None
    value = bytes_in_unit(peak, result.unit) if peak is not None else None
    derived = {
        "kind": Reproduction.kind_token,
        "id": reproduction_id(result, outcome),
        "result": result.id,
        "recipe": job.recipe.id,
        "model": outcome.setting.model,
        "setting": outcome.setting.knobs(),
        "tokens_per_sequence": outcome.setting.tokens_per_sequence,
        "outcome": status,
        "error": None if status is Status.OK else error,
        "value_bytes": peak,
        "value": value,
        "value_gib": gib(peak) if peak is not None else None,
        "comparison": compare(result, value) if value is not None else None,
        "started_at": outcome.started_at.replace(microsecond=0),
    }
    copied = {name: getattr(source, name) for source in (outcome, env)
              for name in shared_fields(type(source)) if name not in derived}
    return Reproduction.model_validate(copied | derived)


def file_outcome(job: Job, outcome: RunOutcome, env: RunEnvironment, write_root: Path | None) -> Filed:
    """The outcome with its record (for a job with a result, unless a dry run), written when ``write_root`` is given.

    A record that cannot be built or written is noted on the entry, not raised: the run goes on.
    """
    from pydantic import ValidationError

    entry = Filed(job=job, outcome=outcome)
    if job.result is None or outcome.dry_run:
        return entry
    try:
        entry.record = build_record(job, outcome, env)
        if write_root is not None:
            entry.path = write_record(write_root, entry.record)
    except RegistryError as exc:
        entry.write_error = exc.message
    except ValidationError as exc:
        entry.write_error = str(exc).splitlines()[0]
    if entry.record is not None and job.recipe is not None and outcome.setting.model == job.recipe.fixed.model:
        entry.comparison = entry.record.comparison  # a smoke run's tiny model compares with nothing
    return entry
