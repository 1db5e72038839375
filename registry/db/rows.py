"""Records as table rows, by the same derivation as the tables (``registry.db.tables``).

Each table of the mirror carries the function that fills one of its rows from a record (or from
one item of a list or mapping) and the child tables below it, so turning a record into rows is a
walk down that tree: no field is named here, and a field added to a model reaches its column
with no edit in this module.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from registry.db.setters import Row
from registry.db.tables import Mirror, Stored, mirror
from registry.models import Record

if TYPE_CHECKING:
    from registry.store.loader import Registry

__all__ = ["Row", "record_row", "record_rows", "relative_path"]


def _child_rows(child: Stored, owner: tuple[Any, ...], value: Any) -> Iterator[tuple[str, Row]]:
    """The rows of one list or mapping (and of the lists inside its items) owned by the key ``owner``."""
    name, columns, put, children = child.name, child.columns, child.put, child.children
    template = dict.fromkeys(columns)
    template.update(zip(child.owner, owner, strict=True))
    position = child.key
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        row = template.copy()
        row[position] = key  # type: ignore[index]
        put(row, item)
        yield name, row
        if children:
            yield from _below(children, (*owner, key), item)


def _below(children: tuple[tuple[tuple[str, ...], Stored], ...], owner: tuple[Any, ...], value: Any
           ) -> Iterator[tuple[str, Row]]:
    for path, child in children:
        found = value
        for attribute in path:
            found = getattr(found, attribute, None)  # a field only some types of a union have
            if found is None:
                break
        if found:
            yield from _child_rows(child, owner, found)


def relative_path(registry: Registry, record_id: str) -> str:
    """The record's file below the records folder, as the ``record`` table holds it."""
    path, root = registry.paths[record_id], registry.root.parts
    inside = path.parts[:len(root)] == root  # parts are kept by a path; its text is made anew
    return "/".join(path.parts[len(root):]) if inside else path.as_posix()


def record_row(record: Record, path: str) -> Row:
    """The row of the ``record`` table: which record, of which kind, in which file (below the records folder)."""
    return {"id": record.id, "kind": record.kind_token, "path": path}


def record_rows(record: Record, path: str, tables: Mirror | None = None) -> Iterator[tuple[str, Row]]:
    """Every (table, row) that stores ``record``: its ``record`` row, its kind's row, its child rows.

    ``tables`` is the mirror to use (default: the current models'; a caller converting many
    records passes it once).
    """
    kind = record.kind_token
    yield "record", record_row(record, path)
    stored = (tables or mirror()).kinds[kind]
    row: Row = dict.fromkeys(stored.columns)
    stored.put(row, record)
    yield stored.name, row
    yield from _below(stored.children, (record.id,), record)
