"""A results table as a curator fills it from a paper: its columns, declared once, and reading it.

One row per printed result; the columns (``columns()``) say which model, dataset or task, metric and
value, and where the paper prints it. The import's own columns are declared here (``COLUMNS``) with
what each fills and what it adds to the model's description of that field; every other plain field
of a result is a column named and described by the model (``registry.curate.fields``), so a field
added to ``Result`` is a column with no edit. The importer reads them, and the table of columns in
docs/curating.md is generated from them (``python -m registry.cli.docs --write``, or ``make
generate``; a test keeps it in step).

Reading refuses anything that is not such a table, and says why: a binary file (a PDF, a
spreadsheet not exported as CSV), a file that is not UTF-8, an empty file, a first row that names
no column, unknown or repeated columns, rows with more or fewer cells than the header. Every
problem names its row (the line it starts on; the header is row 1) and column.
"""

from __future__ import annotations

import csv
import difflib
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from registry.curate.fields import Column, field_columns, not_imported
from registry.errors import INPUTS, RegistryError, worded
from registry.models.uncertainty_kinds import tokens_in_words
from registry.store.filetypes import special_kind
from registry.textsafe import excerpt, is_formula

#: A results table is a few thousand rows at most; anything this large is not one.
MAX_TABLE_BYTES = 50_000_000
#: The most rows one import reads: a paper's tables hold a few thousand printed values at most. A larger table is
#: refused when its first row past the limit is read (no later row is held), with how to split it.
MAX_TABLE_ROWS = 10_000


#: The columns the import declares. Every other plain field of a result gets a column of its own, named and
#: described by the model (``columns()``).
COLUMNS: tuple[Column, ...] = (
    Column("family", ("family.name",), "The model family, as the paper names it (`Nucleotide Transformer`), or the "
           "id of a family record. Families are shared across sources: an existing family of that name is used.",
           True, own=True),
    Column("model", ("config.reported_name",), required=True),
    Column("configuration", ("config.name",), "The configuration's display name, or the id of a configuration "
           "record; default: the model with the source's citation, `NT 2.5B (Saadat and Fellay 2026)`.", own=True),
    Column("checkpoint", ("config.checkpoint",), "Where the paper says."),
    Column("dataset", ("dataset.name",), "The dataset or task, as the paper names it (`GUE promoter detection`; the "
           "source's citation is added), or the id of a dataset record.", True, aliases=("task",), own=True),
    Column("protocol", ("protocol.name",), "How it was evaluated (`10-fold cross-validation`; the source's citation "
           "is added), or the id of a protocol record; default: one protocol per table (or figure) and metric, "
           "`Table 2, mcc (Zhou et al. 2024)`.", own=True),
    Column("split", ("evaluation.split",)),
    Column("independence", ("evaluation.independence",), "`developer` (the paper's authors made the model) or "
           "`independent-external`; default: `--independence`."),
    Column("metric", ("result.metric",), "Written as a slug: `MCC` becomes `mcc`, `peak memory` `peak-memory`.",
           True),
    Column("direction", ("result.metric_direction",), "`higher` or `lower`: which is better (an import needs it).",
           True, own=True),
    Column("qualifier", ("result.metric_qualifier",), "Default: `as printed in <table>, column '<column>'`."),
    Column("value", ("result.printed_value", "result.numeric_value"), "`0.681`, `1,843`, `−0.021`: its exact decimal "
           "is read from it.", True),
    Column("uncertainty", ("result.uncertainty",), "As printed (`± 0.019`, `[0.66, 0.70]`): the ± value or the "
           "bounds are read from it."),
    Column("uncertainty_kind", ("result.uncertainty.kind",), f"{tokens_in_words()}; needed with an uncertainty.",
           own=True),
    Column("uncertainty_level", ("result.uncertainty.level",)),
    Column("uncertainty_over", ("result.uncertainty.over",), "Write a count and `seeds`, `folds`, `runs`, `samples` "
           "or `bootstrap-resamples` (`10 folds`)."),
    Column("unit", ("result.unit",), "The unit: its name (`gigabyte`, `percent`, `dimensionless`) or as printed "
           "(`GB`, `%`), a unit record's too (`img/s`); a unit the registry does not know is refused with the "
           "closest one.", True, own=True),
    Column("unit_detail", ("result.unit_detail",)),
    Column("scope_note", ("result.scope_note",)),
    Column("hardware", ("result.hardware",), "The accelerator the value was measured on, as stated (`NVIDIA H100`).",
           own=True),
    Column("table", ("result.source_locator.table",)),
    Column("figure", ("result.source_locator.figure",), "For a value in a figure."),
    Column("row", ("result.source_locator.row",)),
    Column("column", ("result.source_locator.column",)),
    Column("subtable", ("result.source_locator.subtable",)),
    Column("uncertainty_column", ("result.source_locator.uncertainty_column",)),
    Column("page", ("result.source_locator.page",)),
    Column("quote", ("result.source_locator.quote",), "For `registry review` to find."),
    Column("section", ("result.source_locator.section",)),
    Column("caption", ("result.source_locator.caption",), "Write `yes` where it is."),
    Column("footnote", ("result.source_locator.footnote",)),
    Column("note", ("result.source_locator.note",)),
)


def columns() -> tuple[Column, ...]:
    """Every column of a results table: those declared, then one per plain field of a result that none fills."""
    return COLUMNS + field_columns(COLUMNS)


def by_name() -> dict[str, Column]:
    """Each column by its name and its aliases."""
    every = columns()
    return {c.name: c for c in every} | {a: c for c in every for a in c.aliases}


def __getattr__(name: str) -> dict[str, Column]:
    """``BY_NAME``, each column by its name and aliases (``by_name()``), read when asked so that it follows the
    models."""
    if name == "BY_NAME":
        return by_name()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Reportable fields the table may fill, by the column that fills them. An empty cell of a column the table has
#: means the source does not state it ('unreported'), a column the table lacks that nobody transcribed it
#: ('not-transcribed'); a cell may also hold one of the reasons itself ('not-applicable').
REPORTABLE = {"checkpoint": ("config", "checkpoint"), "split": ("evaluation", "split"),
              "uncertainty": ("result", "uncertainty"), "hardware": ("result", "hardware")}



@dataclass(frozen=True)
class Problem:
    """One thing wrong with a table: where (row, column) and what."""

    row: int | None
    column: str | None
    message: str

    def where(self, name: str) -> str:
        parts = [name] + ([f"row {self.row}"] if self.row is not None else [])
        text = " ".join(parts)
        return f"{text}, column {self.column!r}" if self.column else text


class TableError(RegistryError):
    """A table that cannot be imported; ``problems`` holds every problem found, each with its row and column."""

    def __init__(self, path: Path, problems: list[Problem]) -> None:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"{first.where(path.name)}: {first.message}{more}; nothing was written",
                         "fix the rows and columns named, then import the table again", path=path)
        self.problems = problems

    def lines(self, names: Mapping[str, str] = INPUTS) -> list[str]:
        """Every problem as 'table.csv row 4, column 'unit': ...', its placeholders worded by ``names``."""
        name = Path(str(self.path)).name
        return [f"{p.where(name)}: {worded(p.message, names)}" for p in self.problems]


@dataclass(frozen=True)
class Row:
    number: int
    """The line the row starts on (the header is row 1), as a spreadsheet numbers it."""
    cells: dict[str, str]
    """Cell text by column name (aliases resolved), stripped; '' for an empty cell."""

    def get(self, column: str) -> str:
        return self.cells.get(column, "")


@dataclass
class Table:
    path: Path
    columns: list[str]
    """The columns the table has, by their declared names, in order."""
    rows: list[Row] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    """Rows that could not be read (too many or too few cells): the importer reports them with what it finds in
    the other rows, so that one run names every problem."""
    formulas: list[Problem] = field(default_factory=list)
    """Cells a spreadsheet would run as a formula (they start with '=', '+', '-' or '@' and are no number): imported
    as the text they hold, with a warning naming each."""

    def has(self, column: str) -> bool:
        return column in self.columns


def read_table(path: Path) -> Table:
    """The rows of the CSV or TSV file at ``path``, or a TableError naming every problem of its header.

    A row with the wrong number of cells does not stop the reading: it goes to ``Table.problems``.
    """
    text = _text(path)
    delimiter = "\t" if path.suffix.lower() in (".tsv", ".tab") or (
        path.suffix.lower() != ".csv" and "\t" in text.split("\n", 1)[0]) else ","
    reader = csv.reader(_lines(text), delimiter=delimiter, strict=True)
    records: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for cells in reader:
            if any(c.strip() for c in cells):
                if len(records) > MAX_TABLE_ROWS:  # the header and MAX_TABLE_ROWS rows are read
                    raise TableError(path, [Problem(start, None, (
                        f"the table has more than {MAX_TABLE_ROWS:,} rows, the most one import reads (a paper's "
                        "tables hold a few thousand values); split it into files of at most "
                        f"{MAX_TABLE_ROWS:,} rows, each with the header row (one file per table of the paper), and "
                        "import each"))])
                records.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise TableError(path, [Problem(start, None, f"not a CSV/TSV row: {exc}")]) from None
    records = [(number, cells) for number, cells in records if any(c.strip() for c in cells)]
    if not records:
        raise TableError(path, [Problem(None, None, "the file holds no rows")])
    header_row, header = records[0]
    names = [_column_name(cell) for cell in header]
    known = by_name()
    if not any(name in known for name in names):
        raise TableError(path, [Problem(header_row, None, "the first row names none of the columns of a results table "
                                        f"(such as {', '.join(c.name for c in COLUMNS if c.required)}): this file is "
                                        "not a results table")])
    problems = _header_problems(header_row, header, names, known)
    named = [known[name].name if name in known else name for name in names]
    table = Table(path, [c for c in named if c in {col.name for col in known.values()}])
    for number, cells in records[1:]:
        if len(cells) != len(header):
            table.problems.append(Problem(number, None, f"the row has {len(cells)} cells but the header names "
                                    f"{len(header)} columns; a cell holding the delimiter "
                                    f"({'a tab' if delimiter == chr(9) else 'a comma'}) must be quoted"))
            continue
        row = Row(number, {column: cell.strip() for column, cell in zip(named, cells, strict=True)
                           if column in table.columns})
        table.rows.append(row)
        table.formulas.extend(Problem(number, column, (
            f"the cell {excerpt(cell)} starts with {cell[0]!r}, which a spreadsheet runs as a formula; it is imported "
            "as the text it holds: check that the paper prints it so")) for column, cell in row.cells.items()
            if is_formula(cell))
    if problems:  # a table whose header is wrong is not read further: its cells would be misread
        raise TableError(path, problems + table.problems)
    if not table.rows and not table.problems:
        raise TableError(path, [Problem(None, None, "the table holds no rows below its header")])
    if not table.rows:
        raise TableError(path, table.problems)
    return table


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text``, each with its line break, one at a time: a list of them (or a StringIO, which holds
    four bytes a character) would hold the table several times over."""
    start, end = 0, len(text)
    newline = "\n" if "\n" in text or "\r" not in text else "\r"  # a sheet saved with the old Mac line breaks
    while start < end:
        stop = text.find(newline, start)
        stop = end if stop < 0 else stop + 1
        yield text[start:stop]
        start = stop


def _text(path: Path) -> str:
    if path.is_dir():
        raise TableError(path, [Problem(None, None, "this is a folder, not a table file")])
    try:  # opened without waiting for a pipe's writer, then judged by what was opened
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise RegistryError(f"cannot read {str(path)!r}: {exc.strerror}", "check the file's name and permissions",
                            path=path) from exc
    try:
        mode = os.fstat(handle).st_mode
        kind = special_kind(mode)
        if kind is not None:
            raise TableError(path, [Problem(None, None, f"this is {kind}, not a table file; it was not read (save "
                                            "the table as a file and import that)")])
        with os.fdopen(os.dup(handle), "rb") as reader:
            raw = reader.read(MAX_TABLE_BYTES + 1)
    except OSError as exc:
        raise RegistryError(f"cannot read {str(path)!r}: {exc.strerror}", "check the file's name and permissions",
                            path=path) from exc
    finally:
        os.close(handle)
    if len(raw) > MAX_TABLE_BYTES:
        raise TableError(path, [Problem(None, None, f"the file is over {MAX_TABLE_BYTES:,} bytes, too large for a "
                                        "results table")])
    if b"\x00" in raw:
        raise TableError(path, [Problem(None, None, "the file holds binary data, so it is not a table (a PDF, or a "
                                        "spreadsheet saved in its own format?); export the sheet as CSV or TSV")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TableError(path, [Problem(None, None, f"the file is not UTF-8 text (byte {exc.start}); save the sheet "
                                        "as CSV with the UTF-8 encoding")]) from None
    if not text.strip():
        raise TableError(path, [Problem(None, None, "the file is empty")])
    return text


def _column_name(cell: str) -> str:
    """A header cell as a column name: 'Uncertainty kind' -> 'uncertainty_kind'."""
    return "_".join(cell.strip().lower().replace("-", " ").split())


def _header_problems(row: int, header: list[str], names: list[str], known: dict[str, Column]) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for cell, name in zip(header, names, strict=True):
        if not name:
            problems.append(Problem(row, None, "a header cell is empty; name every column"))
            continue
        if name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
            hint = (f"; did you mean {close[0]!r}?" if close
                    else f"; the columns are: {', '.join(c.name for c in columns())}")
            problems.append(Problem(row, cell.strip(), f"unknown column{hint}"))
            continue
        canonical = known[name].name
        if canonical in seen:
            problems.append(Problem(row, cell.strip(), f"the column repeats {seen[canonical]!r}; keep one"))
        seen[canonical] = cell.strip()
    for column in COLUMNS:
        if column.required and column.name not in seen:
            problems.append(Problem(row, None, f"the table has no column {column.name!r}, which every results table "
                                    f"needs (it fills {column.fills[0]}); add it"))
    return problems


# -- the table of columns in docs/curating.md ---------------------------------------------------------------------

def markdown_table() -> str:
    """The columns, each with what it fills and its help, and the fields of a result no column fills."""
    rows = ["| column | fills | required | what to write |", "|---|---|---|---|"]
    for column in columns():
        name = f"`{column.name}`" + "".join(f" (or `{a}`)" for a in column.aliases)
        fills = ", ".join(f"`{f}`" for f in column.fills)
        rows.append(f"| {name} | {fills} | {'yes' if column.required else ''} | {column.help} |")
    rows += ["", "Fields of a result no column fills (the import writes them itself, or they are set in the record "
                 "file): " + "; ".join(f"`{name}` ({why})" for name, why in not_imported(COLUMNS).items()) + "."]
    return "\n".join(rows)

