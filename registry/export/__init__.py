"""Exports to the formats other registries read (``registry export --format FORMAT --out DIR``).

One table, ``FORMATS``, names each format, what it holds and the module that writes it; the
command, its help and docs/export.md read it. Each writer fills a fresh folder and says what it
wrote and what the format could not carry (of a result's fields, derived from the model by
``registry.export.fields``); the folder is renamed into place only when complete.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from registry.errors import RegistryError
from registry.export.fields import ResultFields
from registry.store.atomic import discard, new_folder_beside, replace_folder
from registry.store.outputs import prepare_output

if TYPE_CHECKING:  # the loader (with Pydantic and every model) is not imported for the command's help
    from registry.store.loader import Registry

MANIFEST = "registry-export.json"


@dataclass(frozen=True)
class Format:
    name: str
    description: str
    module: str
    needs: tuple[str, ...] = ()
    """Libraries the writer imports (installed by the 'export' extra)."""


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("every-eval-ever", "Every Eval Ever JSON (schema 0.3.0), one file per configuration",
           "registry.export.every_eval_ever"),
    Format("prov", "W3C PROV-JSON and PROV-XML: the PDF, the transcription, the reviews and our runs as activities",
           "registry.export.provenance", ("prov",)),
    Format("hf", "Hugging Face .eval_results YAML, for results that map to a Hub model and benchmark",
           "registry.export.hf_eval_results", ("huggingface_hub",)),
    Format("csv", "CSV of the results_flat view, exact values as their text", "registry.export.flat_csv",
           ("sqlalchemy",)),
)}


@dataclass
class Written:
    """What a writer put in the folder, and what it left out and why."""

    files: list[str] = field(default_factory=list)
    not_carried: list[dict[str, Any]] = field(default_factory=list)
    result_fields: ResultFields | None = None
    """Which of a result's fields the format holds, and where (the rest are listed as not carried)."""


def export(registry: Registry, format_name: str, out: Path, **options: Any) -> Written:
    """Write ``registry`` in ``format_name`` to the folder ``out``, replacing an earlier export of it there."""
    chosen = FORMATS.get(format_name)
    if chosen is None:
        raise RegistryError(f"unknown export format {format_name!r}", f"the formats are: {', '.join(FORMATS)}")
    for library in chosen.needs:
        if importlib.util.find_spec(library) is None:
            raise RegistryError(f"the {chosen.name} export needs {library}, which is not installed",
                                "install it with: pip install 'registry[export]'")
    prepare_output(out, registry.root, folder=True)
    ensure_replaceable(out)
    writer = importlib.import_module(chosen.module)
    tmp = new_folder_beside(out)
    try:
        written: Written = writer.write(registry, tmp, **options)
        manifest: dict[str, Any] = {"format": chosen.name, "description": chosen.description,
                                    "files": sorted(written.files), "not_carried": written.not_carried}
        if written.result_fields is not None:
            manifest["result_fields"] = written.result_fields.manifest()
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        replace_folder(tmp, out)
    finally:
        discard(tmp)
    return written


def ensure_replaceable(out: Path) -> None:
    """Only an empty folder or an earlier export may be replaced: '--out ~' must not remove a home folder."""
    if not out.exists():
        return
    if not out.is_dir():
        raise RegistryError(f"{str(out)!r} is a file, not a folder; it was left untouched",
                            "give {out} a folder, for example export/csv")
    if any(out.iterdir()) and not (out / MANIFEST).is_file():
        raise RegistryError(f"{str(out)!r} already holds files and is not an export 'registry export' wrote; it "
                            "was left untouched", "choose another folder for {out}, or move that folder away first")


def dump_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
