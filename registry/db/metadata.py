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

from registry.models import KIND_MODELS
from registry.models.base import Record

TITLE = "Evidence registry"
DESCRIPTION = ("Published machine-learning results with their provenance: where each number was printed, who "
               "checked it and how, what the source leaves unstated, and our own measured and estimated values "
               "beside the transcribed ones, never merged.")


def metadata_path(database: Path) -> Path:
    """Where the metadata of ``database`` goes: beside it, ``<stem>.metadata.json``."""
    return database.with_name(f"{database.stem}.metadata.json")


def write_metadata(database: Path) -> Path:
    """Write the Datasette metadata of the SQLite file ``database`` beside it, atomically; returns its path."""
    from registry.atomic import write_bytes_atomic

    path = metadata_path(database)
    text = json.dumps(datasette_metadata(database.stem), indent=2, ensure_ascii=False) + "\n"
    write_bytes_atomic(path, text.encode("utf-8"))
    return path


def datasette_metadata(database_name: str) -> dict[str, Any]:
    """Datasette's metadata document for a database of that name (Datasette names a file's database by its stem)."""
    from registry.db.build import ordered_tables
    from registry.db.tables import CHILDREN, all_children
    from registry.db.views import VIEWS

    children = {child.name: (kind, field) for (kind, field), child in CHILDREN.items()}
    nested = {sub.name: (kind, field, name) for (kind, field), child in CHILDREN.items()
              for name, sub in child.children.items()}
    known = {child.name for child in all_children()}
    tables: dict[str, Any] = {}
    for table in ordered_tables():
        name = str(table.name)
        columns = [str(column.name) for column in table.columns]
        if name in KIND_MODELS:
            tables[name] = _kind_table(KIND_MODELS[name], columns)
        elif name in children:
            tables[name] = _child_table(*children[name], columns)
        elif name in nested:
            kind, field, sub = nested[name]
            tables[name] = _nested_table(kind, field, sub, columns)
        elif name not in known:
            tables[name] = {"description": _doc(_row_class(table))}
    for name, (description, select) in VIEWS.items():
        tables[name] = {"description": description, "columns": _view_columns(select)}
    return {"title": TITLE, "description": DESCRIPTION,
            "databases": {database_name: {"title": TITLE, "tables": tables}}}


def _kind_table(model: type[Record], columns: list[str]) -> dict[str, Any]:
    return {"title": f"{model.kind_token}: {_doc(model)}", "description": inspect.getdoc(model) or "",
            "columns": {c: d for c in columns if (d := describe_column(model, c))}}


def describe_column(model: type[BaseModel], column: str) -> str | None:
    """A column's description from the model field it holds, by the tables' naming convention."""
    fields = model.model_fields
    if column in fields:
        return fields[column].description
    if column.endswith("_float"):
        base = describe_column(model, column[: -len("_float")])
        if base:
            return f"{base} As a double, for arithmetic and sorting (the exact value is the column without _float)."
    for name, info in fields.items():
        inner = _model_of(info.annotation)
        if inner is not None and column.startswith(f"{name}_"):
            sub = describe_column(inner, column[len(name) + 1:])
            if sub:
                return f"{name}: {sub}"
    return None


def _child_table(kind: str, field: str, columns: list[str]) -> dict[str, Any]:
    models = [KIND_MODELS[kind]] if kind != "*" else [Record]
    info = models[0].model_fields[field]
    owner = "every kind" if kind == "*" else f"a {kind}"
    described = {"position": "Position of the item in its list, from 0.", "key": "The item's key in its mapping."}
    item = _item_model(info.annotation)
    result: dict[str, str] = {}
    for column in columns:
        if column in described:
            result[column] = described[column]
        elif column.endswith("_id") or column == "record_id":
            result[column] = f"The id of the record that holds this item ({owner})."
        elif item is not None and (text := describe_column(item, column)):
            result[column] = text
        else:
            result[column] = f"One item of {field}: {info.description}"
    return {"title": f"{kind if kind != '*' else 'record'}.{field}", "description":
            f"One row per item of the {field} field of {owner}: {info.description}", "columns": result}


def _nested_table(kind: str, field: str, sub: str, columns: list[str]) -> dict[str, Any]:
    item = _item_model(KIND_MODELS[kind].model_fields[field].annotation)
    description = item.model_fields[sub].description if item is not None and sub in item.model_fields else sub
    return {"title": f"{kind}.{field}.{sub}", "description": f"One row per item of {field}[].{sub}: {description}",
            "columns": {c: f"One item of {sub}: {description}" for c in columns if c == "value"}}


def _view_columns(select: str) -> dict[str, str]:
    """Descriptions of a view's columns: a result's own fields, and '<kind>_<field>' for the joined records."""
    prefixes = {"evaluation": "evaluation", "configuration": "config", "model_family": "family",
                "protocol": "protocol", "dataset": "dataset", "source": "source", "transcribed": "result",
                "reproduced": "reproduction"}
    columns: dict[str, str] = {}
    for alias in _aliases(select):
        text = describe_column(KIND_MODELS["result"], alias) or describe_column(KIND_MODELS["reproduction"], alias)
        for prefix, kind in prefixes.items():
            if text is None and alias.startswith(f"{prefix}_"):
                text = describe_column(KIND_MODELS[kind], alias[len(prefix) + 1:])
        if text:
            columns.setdefault(alias, text)
    return columns


def _aliases(select: str) -> list[str]:
    """The output column names of a view's SELECT list (its 'AS name' aliases and bare 'table.column')."""
    head = select.split("FROM", 1)[0].replace("SELECT", "", 1)
    names = []
    for part in head.split(",\n"):
        words = part.strip().split()
        if len(words) >= 3 and words[-2].upper() == "AS":
            names.append(words[-1])
        elif len(words) == 1 and "." in words[0]:
            names.append(words[0].split(".")[-1])
    return names


def _model_of(annotation: Any) -> type[BaseModel] | None:
    import typing

    for candidate in (annotation, *typing.get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def _item_model(annotation: Any) -> type[BaseModel] | None:
    import typing

    args = typing.get_args(annotation)
    return _model_of(args[0]) if args else None


def _row_class(table: Any) -> Any:
    from registry.db.tables import METADATA, Table

    for cls in Table.__subclasses__():
        if getattr(cls, "__tablename__", None) == table.name and cls.metadata is METADATA:
            return cls
    return None


def _doc(obj: Any) -> str:
    return (inspect.getdoc(obj) or "").split("\n", 1)[0]
