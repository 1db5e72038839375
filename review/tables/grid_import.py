"""A page's table turned into the rows ``registry import`` reads (``import_rows``): one row per cell read exactly in
both extractions and found again by its row and column, with the columns of an import table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from review.tables.grid_cells import GridCell, GridError, GridTable, PageGrid, why_not_imported

#: The import columns a reading fills from the page, and how.
FILLED_FROM_PAGE = ("model", "value", "uncertainty", "table", "row", "column", "page")


#: What a ``--set`` value may name, filled per cell: '{row}', '{column}', their last levels, the table, the page.
FIELDS = ("row", "column", "row_last", "column_last", "model", "table", "page")


@dataclass(frozen=True)
class ImportTable:
    """A page's cells as rows of an import table (``registry import``), and the cells left out, with why."""

    header: tuple[str, ...]
    rows: tuple[dict[str, str], ...]
    left_out: tuple[tuple[GridCell, str], ...]


def import_rows(grid: PageGrid, settings: Mapping[str, str] | None = None) -> ImportTable:
    """One import row per cell that holds a number and nothing else beside its ±, interval and marks, that a
    record citing its row and column finds again, and that both extractors read alike.

    ``settings`` fills whole columns the page cannot ('dataset', 'metric', 'unit'), each value a template over
    ``FIELDS`` ('{column_last}'); a column given there overrides what the page fills."""
    from registry.curate.table import BY_NAME, COLUMNS

    settings = dict(settings or {})
    unknown = [name for name in settings if name not in BY_NAME]
    if unknown:
        raise GridError(f"no import column {', '.join(map(repr, unknown))}",
                        "the columns are: " + ", ".join(c.name for c in COLUMNS))
    kept: list[dict[str, str]] = []
    left_out: list[tuple[GridCell, str]] = []
    for table in grid.tables:
        for cell in table.cells:
            why = why_not_imported(cell)
            if why is not None:
                left_out.append((cell, why))
                continue
            kept.append(_row(table, cell, settings))
    wanted = {name for row in kept for name, value in row.items() if value}
    wanted |= {c.name for c in COLUMNS if c.required}
    wanted |= {BY_NAME[name].name for name in settings}
    if "uncertainty" in wanted:
        wanted.add("uncertainty_kind")  # needed with an uncertainty: the curator says which (or --set)
    header = tuple(c.name for c in COLUMNS if c.name in wanted)
    rows = tuple({name: row.get(name, "") for name in header} for row in kept)
    return ImportTable(header, rows, tuple(left_out))


def _row(table: GridTable, cell: GridCell, settings: Mapping[str, str]) -> dict[str, str]:
    row_last = cell.row.split(" / ")[-1]
    fields = {"row": cell.row, "column": cell.column, "row_last": row_last,
              "column_last": cell.column.split(" / ")[-1], "model": row_last, "table": table.label,
              "page": str(table.page)}
    row = {"model": row_last, "value": cell.as_printed,
           "uncertainty": "" if cell.only_interval else cell.uncertainty or "",
           "table": table.label, "row": cell.row, "column": cell.column, "page": str(table.page)}
    from registry.curate.table import BY_NAME

    for name, template in settings.items():
        try:
            row[BY_NAME[name].name] = template.format_map(fields)
        except (KeyError, ValueError, IndexError) as exc:
            raise GridError(f"cannot fill column {name!r} from {template!r}: {exc}",
                            "a value may name " + ", ".join("{" + f + "}" for f in FIELDS) + "; write '{{' for a "
                            "brace") from None
    return row
