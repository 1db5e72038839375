"""A source's table as ``registry table`` shows a PDF page's: the same cells, row and column paths and CSV columns.

``source_grid(path, label)`` reads the table labelled ``label`` from a source file (``review.sources.read_source``)
into a ``review.tables.grid_cells.PageGrid``, so that ``registry table --source FILE --table LABEL --format csv``
writes the same import columns as ``registry table PDF`` (the source read under the review's limits, as the PDF
is): the page comes from the PDF where one is given (the page printing the table's caption,
``review.sources.labels.label_tables``), else it is left for the curator (``--set page=N``). A cell a record citing
its row and column would not find again (a name printed twice) says so, as in a PDF's grid.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from review.tables.grid_cells import GridCell, GridError, GridTable, PageGrid

if TYPE_CHECKING:
    from review.pdf.limited import ReviewLimits


def source_grid(path: Path, label: str | None, pdf: Path | None = None,
                limits: ReviewLimits | None = None) -> PageGrid:
    """The table (or, with ``label`` None, every table) of a source file, read under ``limits``
    (``review.sources.limited``: a limit reached is a ``ReviewLimitError`` naming it)."""
    from review.pdf.limited import ReviewLimits
    from review.sources import format_of
    from review.sources.labels import label_tables, named_columns, named_rows, same_label
    from review.sources.limited import read_limited
    from review.sources.model import tables_of

    tables = tables_of(read_limited(path, format_of(path), limits or ReviewLimits())[0])
    pages: list[str] | None = None
    page_count = 0
    if pdf is not None:
        from review.pdf.extract import read_pdf

        readings = read_pdf(pdf, second=False)
        page_count = readings.primary.page_count
        pages = [readings.primary.page(n) or "" for n in range(1, page_count + 1)]
    labelled = label_tables(path.name, tables, pages)
    chosen = [(i, t) for i, t in enumerate(labelled.tables) if label is None or same_label(t.label, label)]
    if not chosen:
        found = ", ".join(dict.fromkeys(t.label for t in labelled.tables)) or "none"
        raise GridError(f"{path.name} has no table {label!r}", f"its tables: {found}", found=tuple(
            dict.fromkeys(t.label for t in labelled.tables)))
    out: list[GridTable] = []
    for index, table in chosen:
        page = min(labelled.pages.get(index, (0,)))
        cells = []
        for row in table.rows:
            for column, cell in zip(table.columns, row.cells, strict=True):
                if not cell.text:
                    continue
                reading = cell.reading
                again = None
                if len(named_rows(table, row.name)) != 1:
                    again = f"{len(named_rows(table, row.name))} rows are named '{row.name}'"
                elif len(named_columns(table, column.name)) != 1:
                    again = f"{len(named_columns(table, column.name))} columns are named '{column.name}'"
                cells.append(GridCell(row.name, column.name, cell.text, reading.value, reading.plus_minus,
                                      reading.interval, reading.marks, cell.bold, reading.rest, again, None))
        out.append(GridTable(table.label, page, table.caption, False, None, tuple(c.name for c in table.columns),
                             tuple(r.name for r in table.rows), tuple(cells), (), None))
    return PageGrid(str(path), out[0].page if out else 0, page_count, (f"source: {path.name}",), None, tuple(out))
