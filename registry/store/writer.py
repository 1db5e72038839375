"""The one way new records reach disk: typed, in stable key order, atomically, never over another.

Consumers that add knowledge (a review, a reproduction) call ``write_record``; no
code edits a transcribed record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from registry.errors import RegistryError
from registry.models import KIND_MODELS, Record
from registry.store.atomic import write_atomic
from registry.store.yamlio import dump_yaml, parse_yaml

_LAST = ("derivation", "missing_metadata")


def record_to_yaml(record: Record, comment: str | None = None, *, only_set: bool = False) -> str:
    """YAML for one record: 'kind' and 'id' first, fields in model order, derivation and gaps last.

    This is the registry's canonical form (``registry fmt`` rewrites files into it). ``only_set`` writes
    only the fields the record was given (a file's own keys), not the defaults of those it was not.
    """
    data: dict[str, Any] = record.model_dump(mode="python", exclude_none=True, exclude_defaults=False,
                                             exclude_unset=only_set)
    ordered: dict[str, Any] = {"kind": record.kind_token, "id": record.id}
    for name in type(record).model_fields:
        if name in ordered or name in _LAST or name not in data:
            continue
        ordered[name] = _plain(data[name])
    for name in _LAST:
        if data.get(name):
            ordered[name] = _plain(data[name])
    text = dump_yaml(ordered)
    if comment:
        text = "".join(f"# {line}\n" for line in comment.splitlines()) + text
    return text


def record_path(root: Path, record: Record) -> Path:
    return root / record.kind_token / f"{record.id}.yaml"


def checked_yaml(record: Record, comment: str | None = None) -> str:
    """``record_to_yaml``, round-tripped: what lands on disk must load back as the same record."""
    text = record_to_yaml(record, comment)
    reloaded = KIND_MODELS[record.kind_token].model_validate(parse_yaml(text).data)
    if reloaded != record:
        raise RegistryError(f"record {record.id} does not survive a YAML round trip; nothing was written")
    return text


def write_record(root: Path, record: Record, comment: str | None = None) -> Path:
    """Write ``record`` to ``<root>/<kind>/<id>.yaml``; refuses to replace an existing file."""
    path = record_path(root, record)
    text = checked_yaml(record, comment)
    try:
        write_atomic(path, text)
    except FileExistsError as exc:
        raise RegistryError(
            f"{path} already exists; records are never overwritten",
            "give the new record a new id (for example with a later date or another slug)",
        ) from exc
    return path


def _plain(value: Any) -> Any:
    """Enums to their values, recursively, so the YAML holds plain scalars."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return getattr(value, "value", value)
