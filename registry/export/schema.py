"""JSON Schema of each record kind, for editors that check records as they are typed."""

from __future__ import annotations

import json
from pathlib import Path

from registry.models import KIND_MODELS
from registry.store.atomic import write_atomic


def kind_schema(kind: str) -> dict[str, object]:
    schema = KIND_MODELS[kind].model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"{kind}.schema.json"
    return schema


def write_schemas(out: Path) -> list[Path]:
    """Write '<kind>.schema.json' for every kind into ``out``; returns the files written."""
    written = []
    for kind in KIND_MODELS:
        path = out / f"{kind}.schema.json"
        write_atomic(path, json.dumps(kind_schema(kind), indent=2, ensure_ascii=False) + "\n", overwrite=True)
        written.append(path)
    return written
