"""Datasette metadata for a built database: table titles and column descriptions from the models.

``registry db build`` writes it beside the SQLite file (``registry.db`` -> ``registry.metadata.json``)
for ``datasette registry.db --metadata registry.metadata.json``. Nothing is written twice: a
column's description is its field's ``Field(description=...)``, found by the tables' naming
convention (``f``, ``f_float`` for an exact decimal's double, ``f_<sub>`` for a nested object's
field, child tables for lists and mappings); a view's is its entry in ``VIEWS``.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from registry.errors import RegistryError
from registry.models import KIND_MODELS
from registry.models.base import Record

TITLE = "Evidence registry"
DESCRIPTION = ("Published machine-learning results with their provenance: where each number was printed, who "
               "checked it and how, what the source leaves unstated, and our own measured and estimated values "
               "beside the transcribed ones, never merged.")


def metadata_path(database: Path) -> Path:
    """Where the metadata of ``database`` goes: beside it, ``<stem>.metadata.json``."""
    return database.with_name(f"{database.stem}.metadata.json")


def write_metadata(database: Path, base_url: str | None = None, into: Path | None = None) -> Path:
    """Write the Datasette metadata of the SQLite file ``database``, atomically; returns its path.

    Beside the database by default; with ``into``, this database's entry is put into that file, beside
    the entries of the other databases built into it, since Datasette reads one metadata file for all
    the databases it serves. A file that is not such a metadata document is left untouched.
    """
    from registry.store.atomic import write_bytes_atomic

    path = into or metadata_path(database)
    document = datasette_metadata(database.stem, base_url)
    if into is not None:
        document["databases"] = {**earlier_databases(into), **document["databases"]}
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    write_bytes_atomic(path, text.encode("utf-8"))
    return path


def earlier_databases(into: Path) -> dict[str, Any]:
    """The databases a metadata file already describes (none if it does not exist); raises for a file that is
    not a metadata document this command wrote, which is never replaced."""
    if not into.exists():
        return {}
    try:
        earlier = json.loads(into.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RegistryError(f"{str(into)!r} is not a Datasette metadata file this command wrote ({exc}); it was "
                            "left untouched", "give another file, or remove that one first") from exc
    if not isinstance(earlier, dict) or earlier.get("title") != TITLE or not isinstance(earlier.get("databases"),
                                                                                          dict):
        raise RegistryError(f"{str(into)!r} is not a Datasette metadata file this command wrote; it was left "
                            "untouched", "give another file, or remove that one first")
    return earlier["databases"]


def datasette_metadata(database_name: str, base_url: str | None = None) -> dict[str, Any]:
    """Datasette's metadata document for a database of that name (Datasette names a file's database by its stem):
    every column described, with facets, sort orders, label columns, units, canned queries and full-text search
    (``registry.db.browse``); with ``base_url``, the canned queries link the site's pages."""
    from registry.db import browse, manifest
    from registry.db.search import SEARCH_TABLE, SEARCHED
    from registry.db.tables import mirror
    from registry.db.views import views

    tables: dict[str, Any] = {
        "record": {"description": "Every record: its id, its kind and its file (relative to the records folder).",
                   "columns": {"id": "The record's stable id.", "kind": "The record's kind (result, config, ...).",
                               "path": "The record's file, relative to the records folder."}},
        "registry_meta": {"description": "Facts about the build: the schema version and the number of records.",
                          "columns": {"key": "What the fact is (schema_version, records, records_folder).",
                                      "value": "The fact, as text."}},
        manifest.MANIFEST_TABLE: {"description": manifest.DESCRIPTION, "columns": dict(manifest.COLUMNS),
                                  "hidden": True},
        manifest.STATE_TABLE: {"description": manifest.STATE_DESCRIPTION, "columns": dict(manifest.STATE_COLUMNS),
                               "hidden": True},
        manifest.FILES_TABLE: {"description": manifest.FILES_DESCRIPTION, "columns": dict(manifest.FILES_COLUMNS),
                               "hidden": True},
        "unit": {"description": "Every unit a result may be in: the built-in ones (registry.units) and the "
                 "registry's unit records': what it measures, how the pages write it and its scale.",
                 "columns": {"token": "The unit's name in the records (for example 'gigabyte').",
                             "dimension": "What it measures (memory, time, percentage, ...): never average across "
                                          "two.",
                             "symbol": "How the pages write it after a value ('GB'; '' for none).",
                             "scale": "How many of the dimension's base unit one of it holds, exact (empty: not "
                                      "convertible).",
                             "scale_float": "The scale as a double, for arithmetic.",
                             "record_id": "The unit record that declares it; empty for a built-in unit."}},
    }
    derived = mirror()
    for kind, stored in derived.kinds.items():
        model = KIND_MODELS[kind]
        tables[stored.name] = _kind_table(model, list(stored.columns))
        for path, child in stored.children:
            _child_tables(tables, model, kind, path, child)
    for name, (description, select) in views().items():
        tables[name] = {"description": description, "columns": _view_columns(select)}
    tables[SEARCH_TABLE] = {"description": "Full-text search (FTS5) over the current results: each row is a "
                            "result of results_flat, its rowid the result's rowid in the result table.",
                            "columns": {"result_id": "The result's id.", **SEARCHED}}
    for name, facets in browse.FACETS.items():
        tables[name]["facets"] = list(facets)
    for name, (column, descending) in browse.SORTS.items():
        tables[name]["sort_desc" if descending else "sort"] = column
    for name, column in browse.LABELS.items():
        tables[name]["label_column"] = column
    for name, units in browse.UNITS.items():
        tables[name]["units"] = units
    for name, (search, key) in browse.SEARCHABLE.items():
        tables[name].update(fts_table=search, fts_pk=key)
    database: dict[str, Any] = {"title": TITLE, "tables": tables, "queries": browse.canned_queries(base_url)}
    if base_url:
        database["source_url"] = base_url
        database["source"] = "The registry's site"
    return {"title": TITLE, "description": DESCRIPTION, "databases": {database_name: database}}


def _kind_table(model: type[Record], columns: list[str]) -> dict[str, Any]:
    return {"title": f"{model.kind_token}: {_doc(model)}", "description": inspect.getdoc(model) or "",
            "columns": {c: d for c in columns if (d := describe_column(model, c))}}


def describe_column(model: type[BaseModel], column: str) -> str | None:
    """A column's description from the model field it holds, by the tables' naming convention."""
    fields = model.model_fields
    if column in fields:
        return fields[column].description
    for suffix, note in (("_float", "As a double, for arithmetic and sorting (the exact value is the column "
                                    "without _float)."),
                         ("_type", "Which type the value has: 'string', 'integer' or 'boolean'.")):
        if column.endswith(suffix):
            base = describe_column(model, column[: -len(suffix)])
            if base:
                return f"{base} {note}"
    for name, info in fields.items():
        if column.startswith(f"{name}_"):
            for inner in _models_in(info.annotation):
                sub = describe_column(inner, column[len(name) + 1:])
                if sub:
                    return f"{name}: {sub}"
    return None


def _child_tables(tables: dict[str, Any], model: type[BaseModel], kind: str, path: tuple[str, ...],
                  child: Any) -> None:
    """The table of a list or mapping field (``path`` leads to it from ``model``), and the tables below it."""
    owner_model = model
    for step in path[:-1]:
        owner_model = next(iter(_models_in(owner_model.model_fields[step].annotation)), owner_model)
    info = owner_model.model_fields.get(path[-1])
    if info is None or child.name in tables:
        return  # a table every kind shares (missing_metadata) is described once
    items = _item_models(info.annotation)
    shared = child.owner == ("record_id",)  # a field every record has: one table for all kinds
    owner = "any record" if shared else f"a {kind}"
    columns: dict[str, str] = {}
    for column in child.columns:
        if column in child.owner:
            columns[column] = f"The id of the {'record' if shared else kind} that holds this item."
        elif column == child.key == "position":
            columns[column] = "Position of the item in its list, from 0."
        elif column == child.key:
            columns[column] = f"The item's key in the {path[-1]} mapping."
        else:
            text = next((t for item in items if (t := describe_column(item, column))), None)
            columns[column] = text or f"One item of {path[-1]}: {info.description}"
    tables[child.name] = {"title": ".".join(path) if shared else f"{kind}.{'.'.join(path)}", "description":
                          f"One row per item of {'.'.join(path)} ({owner}): {info.description}", "columns": columns}
    for sub_path, grandchild in child.children:
        for item in items:
            if sub_path[-1] in item.model_fields:
                _child_tables_below(tables, item, kind, path, sub_path, grandchild)


def _child_tables_below(tables: dict[str, Any], item: type[BaseModel], kind: str, path: tuple[str, ...],
                        sub_path: tuple[str, ...], child: Any) -> None:
    info = item.model_fields[sub_path[-1]]
    columns = {}
    for column in child.columns:
        if column in child.owner:
            columns[column] = "The key of the item above that holds this one."
        elif column == child.key == "position":
            columns[column] = "Position of the item in its list, from 0."
        elif column.endswith("_type"):
            columns[column] = "Which type the value has: 'string', 'integer' or 'boolean'."
        else:
            columns[column] = f"One item of {sub_path[-1]}: {info.description}"
    name = ".".join((*path, *sub_path))
    tables[child.name] = {"title": f"{kind}.{name}", "description": f"One row per item of {name}: {info.description}",
                          "columns": columns}


def _view_columns(select: str) -> dict[str, str]:
    """Descriptions of a view's columns: a result's own fields, '<kind>_<field>' for the joined records, and
    ``VIEW_COLUMNS`` for the rest (computed columns, and fields shown under a name of their own)."""
    from registry.db.catalog import VIEW_COLUMNS
    from registry.models.checks import CheckedClaim

    prefixes = {"evaluation": "evaluation", "configuration": "config", "model_family": "family",
                "protocol": "protocol", "dataset": "dataset", "source": "source", "transcribed": "result",
                "reproduced": "reproduction"}
    columns: dict[str, str] = {}
    for alias in _aliases(select):
        text = (describe_column(KIND_MODELS["result"], alias) or describe_column(KIND_MODELS["reproduction"], alias)
                or describe_column(KIND_MODELS["review"], alias) or describe_column(CheckedClaim, alias))
        for prefix, kind in prefixes.items():
            if text is None and alias.startswith(f"{prefix}_"):
                text = describe_column(KIND_MODELS[kind], alias[len(prefix) + 1:])
        text = VIEW_COLUMNS.get(alias) if alias in VIEW_COLUMNS else text
        if text:
            columns.setdefault(alias, text)
    return columns


def _aliases(select: str) -> list[str]:
    """The output column names of a view's SELECT list (its 'AS name' aliases and bare 'table.column')."""
    import re

    head = re.split(r"^FROM ", select, maxsplit=1, flags=re.MULTILINE)[0].replace("SELECT", "", 1)
    names = []
    for part in head.split(",\n"):
        words = part.strip().split()
        if len(words) >= 3 and words[-2].upper() == "AS":
            names.append(words[-1])
        elif len(words) == 1 and "." in words[0]:
            names.append(words[0].split(".")[-1])
    return names


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The models a field's type may hold: ``X``, ``X | None``, or each member of a union of models."""
    import typing

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    if typing.get_origin(annotation) in (list, dict):
        return []  # the items of a collection are not the field's own value
    found: list[type[BaseModel]] = []
    for member in typing.get_args(annotation):
        found.extend(m for m in _models_in(member) if m not in found)
    return found


def _item_models(annotation: Any) -> list[type[BaseModel]]:
    """The models an item of a list or mapping field may be."""
    import typing

    if typing.get_origin(annotation) in (list, dict):
        return _models_in(typing.get_args(annotation)[-1])
    for member in typing.get_args(annotation):
        found = _item_models(member)
        if found:
            return found
    return []


def _doc(obj: Any) -> str:
    return (inspect.getdoc(obj) or "").split("\n", 1)[0]
