"""``registry table PDF --page N``: a page's tables as the review reads them, for a person, a tool or an import.

The command parses arguments, calls ``review.tables.grid.read_page`` and renders its tables; PDFium and poppler
are started only when it runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from registry.cli._errors import err_console, user_errors
from registry.cli.options import DebugOption, PdfMaxMemoryOption, PdfMaxPageCharsOption, PdfTimeoutOption

if TYPE_CHECKING:
    from rich.console import Console, Group
    from rich.text import Text

    from review.pdf.limited import ReviewLimits
    from review.tables.grid_cells import GridCell, GridTable, PageGrid
    from review.tables.grid_import import ImportTable

FORMATS = ("table", "json", "csv")


def table_command(
    pdf: Path | None = typer.Argument(None, metavar="[PDF]", help="The PDF to read (the pinned file of a source); "
                                      "with --source, optional: the page its caption is printed on fills 'page'."),
    page: int | None = typer.Option(None, "--page", min=1, metavar="N", help="The page, counted from 1 as the PDF "
                                    "counts it (the first page of the file is 1); required without --source."),
    source: Path | None = typer.Option(None, "--source", metavar="FILE", help="Read the table from the document's "
                                       "own source instead (LaTeX .tex or .tar.gz, JATS XML, HTML, .docx, .odt, Typst "
                                       ".typ): the same cells and CSV columns, from the source's structure; give "
                                       "--table."),
    label: str | None = typer.Option(None, "--table", metavar="LABEL", help="The table's label as its caption prints "
                                     "it ('Table 2', 'TABLE II'); default: every table on the page."),
    output_format: str = typer.Option("table", "--format", metavar="FORMAT", help="'table' (default: every cell, "
                                      "for reading), 'json' (for other tools) or 'csv' (rows for 'registry import')."),
    settings: list[str] = typer.Option([], "--set", metavar="COLUMN=VALUE", help="With --format csv: fill an import "
                                       "column the page cannot ('dataset=ImageNet', 'unit=percent'); VALUE may name "
                                       "{row}, {column}, {row_last}, {column_last}, {model}, {table}, {page}."),
    timeout: float = PdfTimeoutOption,
    max_memory: int = PdfMaxMemoryOption,
    max_page_chars: int = PdfMaxPageCharsOption,
    debug: bool = DebugOption,
) -> None:
    """Show the tables on a page of a PDF as 'registry review' reads them: each cell's row path and column path
    (header levels joined by ' / '), its value, ± or interval, marks and bold, and where poppler's pdftotext
    reads it otherwise than PDFium.

    A cell check that cannot find its row or column is explained here: the rows and columns read are the names a
    record must cite. --format csv writes the cells as rows of an import table (value, uncertainty, table, row,
    column, page from the PDF; --set fills the rest), leaving out, with why, each cell the review could not find
    again or the two extractors read differently. The PDF is read as 'registry review' reads it, in a process of
    its own under the same limits (--timeout, --max-memory, --max-page-chars). Exit status 0 when the page was
    read, 1 otherwise.
    """
    from registry.cli.output import console, echo_json

    with user_errors(debug):
        from registry.errors import RegistryError
        from review.pdf.limited import ReviewLimits
        from review.tables.grid_import import import_rows

        if output_format not in FORMATS:
            raise RegistryError(f"unknown format {output_format!r}", "use --format table, json or csv")
        filled = _settings(settings)
        if filled and output_format != "csv":
            raise RegistryError("--set fills columns of the CSV, which only --format csv writes",
                                "add --format csv, or leave --set out")
        grid = _read(pdf, page, source, label, ReviewLimits(timeout, max_memory, max_page_chars))
        if output_format == "json":
            from dataclasses import asdict

            echo_json(asdict(grid))
        elif output_format == "csv":
            _write_csv(import_rows(grid, filled))
        else:
            render(grid, console)


def _read(pdf: Path | None, page: int | None, source: Path | None, label: str | None, limits: ReviewLimits
          ) -> PageGrid:
    """The tables the command shows: one table of the document's source (``--source``), or the PDF page's."""
    from registry.errors import RegistryError
    from review.tables.grid import read_page

    for given in (pdf, source):
        if given is not None and not given.is_file():
            raise RegistryError(f"no file {given}" if not given.exists() else f"{given} is not a file",
                                "give the path of the file")
    if source is not None:
        from review.sources.table import source_grid

        if label is None:
            raise RegistryError("--source reads one table: name it", "add --table 'Table 2'")
        return source_grid(source, label, pdf, limits=limits)
    if pdf is None or page is None:
        raise RegistryError("give the PDF and --page N (or --source FILE --table LABEL)",
                            "for example: registry table paper.pdf --page 7")
    return read_page(pdf, page, label, limits=limits)


def _settings(given: list[str]) -> dict[str, str]:
    from registry.errors import RegistryError

    filled: dict[str, str] = {}
    for item in given:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RegistryError(f"--set {item!r} is not COLUMN=VALUE", "write it as --set dataset=ImageNet")
        filled[name.strip()] = value.strip()
    return filled


def _write_csv(table: ImportTable) -> None:
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(table.header), lineterminator="\n")
    writer.writeheader()
    writer.writerows(table.rows)
    typer.echo(out.getvalue(), nl=False)
    if table.left_out:
        from rich.text import Text

        err_console.print(Text(f"Left out {len(table.left_out)} cell(s) that hold no number the review can check "
                               "as a record would cite it:"))
        for cell, why in table.left_out:
            err_console.print(Text(f"- row '{cell.row}', column '{cell.column}' ('{cell.text}'): {why}"))


def render(grid: PageGrid, console: Console) -> None:
    """Each table: its caption, its rows and columns as the review names them, then one line per cell."""
    from rich.text import Text

    read_by = " and ".join(grid.extractors)
    if grid.extractors and grid.extractors[0].startswith("source: "):
        console.print(Text(f"Source: {grid.pdf}; read by {read_by} (page from the PDF's caption, where given)"))
    else:
        console.print(Text(f"PDF: {grid.pdf}, page {grid.page} of {grid.page_count}; read by {read_by}"))
    if grid.second_missing:
        console.print(Text(f"Second extractor: none; {grid.second_missing}", style="yellow"))
    for table in grid.tables:
        console.print(_listing(table, grid, console.width))


def _listing(table: GridTable, grid: PageGrid, console_width: int) -> Group:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from review.tables.grid_cells import why_not_imported

    second = grid.extractors[1].split(" ")[0] if len(grid.extractors) > 1 else None
    continued = " (continued)" if table.continued else ""
    reading = (f" (reading {table.reading}: the review looks here for a row only where the first reading lacks it)"
               if table.reading > 1 else "")
    head = [Text(f"{table.label} (page {table.page}){continued}{reading}: {table.caption}", style="bold"),
            Text("Columns: " + ", ".join(f"'{c}'" for c in table.columns)),
            Text("Rows: " + ", ".join(f"'{r}'" for r in table.rows))]
    if table.stub:
        head.append(Text(f"Stub header: '{table.stub}'"))
    if table.second:
        head.append(Text(f"Second extractor: {table.second}", style="yellow"))
    if console_width < WIDE:
        cells: Group | Table = Group(*(_line(cell, second) for cell in table.cells))
    else:
        cells = Table(show_lines=False)
        for name in ("Row", "Column", "Cell", "Value", "± / interval", "Marks", "Bold", "Found as cited"):
            cells.add_column(name, overflow="fold")
        if second is not None:
            cells.add_column(second, overflow="fold")
        cells.add_column("In the CSV", overflow="fold")
        for cell in table.cells:
            values = [Text(cell.row), Text(cell.column), Text(cell.text), Text(_value(cell)),
                      Text(cell.uncertainty or ""), Text(cell.marks), "bold" if cell.bold else "",
                      Text("yes", style="green") if cell.found_again is None else Text(cell.found_again,
                                                                                         style="yellow")]
            if second is not None:
                values.append(Text("agrees", style="green") if cell.second is None else Text(cell.second,
                                                                                              style="yellow"))
            left_out = why_not_imported(cell)
            values.append(Text(f"as '{cell.as_printed}'", style="green") if left_out is None else
                          Text(f"no: {left_out}", style="yellow"))
            cells.add_row(*values)
    notes = [Text(f"Note: {note}") for note in table.notes]
    return Group(*head, cells, *notes, Text(""))


#: Below this many columns each cell is a line of its own rather than a row of a nine-column table.
WIDE = 120


def _line(cell: GridCell, second: str | None) -> Text:
    """One cell for a narrow terminal: where, what it prints, how it was read, whether the CSV carries it."""
    from rich.text import Text

    from review.tables.grid_cells import why_not_imported

    parts = [f"value {_value(cell)}" if cell.value is not None else "no number"]
    if cell.uncertainty:
        parts.append(cell.uncertainty)
    if cell.marks:
        parts.append(f"mark {cell.marks}")
    if cell.bold:
        parts.append("bold")
    if cell.found_again is not None:
        parts.append(f"not found as cited: {cell.found_again}")
    if second is not None and cell.second is not None:
        parts.append(f"{second} {cell.second}")
    left_out = why_not_imported(cell) if cell.value is not None else None
    if cell.value is not None:
        parts.append(f"in the CSV as '{cell.as_printed}'" if left_out is None else f"not in the CSV: {left_out}")
    return Text(f"- row '{cell.row}', column '{cell.column}': '{cell.text}': " + ", ".join(parts))


def _value(cell: GridCell) -> str:
    """The cell's value as printed, and the number the review reads where that is another ('−0.04 e−2': the
    printed '−0.04' is read as -0.04e-2)."""
    if cell.value is None:
        return "-"
    from registry.numbers import parse_printed

    if cell.number is not None and parse_printed(cell.number) != parse_printed(cell.value):
        return f"{cell.value} (read as {cell.number})"
    return cell.value


def register(app: typer.Typer) -> None:
    app.command("table")(table_command)
