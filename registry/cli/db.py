"""SQL over the registry: 'registry db build' writes a database from the records, 'registry query' reads it.

The database layer (SQLAlchemy) is imported inside the commands, so that the
everyday commands start without it.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
import re
import sys
from collections.abc import Iterable
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperCommand

from registry import limits
from registry.cli._errors import err_console, say_cache_refused, say_watcher_failed, user_errors
from registry.cli.options import CommandGroup, DebugOption, NoCacheOption, RecordsOption
from registry.cli.output import console
from registry.db.catalog import VIEWS
from registry.errors import RegistryError
from registry.textsafe import escaped, json_text

DEFAULT_DB = "registry.db"


class QueryFormat(StrEnum):
    TABLE = "table"
    CSV = "csv"
    JSON = "json"


FULL_HELP = (
    "Build the SQLite file anew even where it could be updated. Without it, a file that an earlier build of this same "
    "code wrote from the same records folder, and that nothing wrote to since, gets only the rows of the records "
    "added, edited, renamed or removed (and the search rows that read them); the output says when and why a build is "
    "a full one. Such an update validates the records as 'registry validate' does (answered by a running 'registry "
    "watch', else incrementally) and reads only the changed ones. A --db server is always built anew.")


def build_command(
    out: Path = typer.Option(
        Path(DEFAULT_DB), "--out", "-o", dir_okay=False,
        help="SQLite file to write (default registry.db); replaced only once the new one is complete, and only "
        "if it is a database an earlier build wrote (any other file is left untouched).",
    ),
    db: str | None = typer.Option(
        None, "--db", metavar="URL",
        help="Build into this PostgreSQL database instead of a file (postgresql+psycopg://USER:PASS@HOST/DB).",
    ),
    base_url: str | None = typer.Option(
        None, "--base-url", metavar="URL",
        help="Where the site is published (https://.../): the views' *_page columns and the Datasette metadata's "
        "canned queries link each record they list to its page there.",
    ),
    metadata_file: Path | None = typer.Option(
        None, "--metadata", dir_okay=False, metavar="FILE",
        help="Put this database's Datasette metadata into FILE, beside the other databases built into it "
        "(Datasette reads one metadata file for every database it serves); default: <name>.metadata.json "
        "beside the database.",
    ),
    full: bool = typer.Option(False, "--full", help=FULL_HELP),
    records: Path = RecordsOption,
    no_cache: bool = NoCacheOption,
    debug: bool = DebugOption,
) -> None:
    """Validate the records, then build a SQL database of them: a SQLite file, or a PostgreSQL server.

    Refuses to build from an invalid registry and prints the validation report instead. Tables
    mirror the record kinds; the views {views} hold the usual joins. Query it with 'registry query'.
    """
    from registry.store.outputs import stopped_by_signals

    with user_errors(debug), stopped_by_signals():
        from registry.db.build import build_database

        _check_targets(db, out)
        from registry.site.links import checked_base_url

        site = checked_base_url(base_url) if base_url is not None else None
        if metadata_file is not None:
            from registry.db.metadata import earlier_databases

            earlier_databases(metadata_file)  # a file that is no metadata of ours is refused before the build
        summary = build_database(records, out=out, url=db, cache=not no_cache, site_url=site, full=full)
        say_cache_refused(summary.cache_refused)
        say_watcher_failed(records, summary.watcher_failed)
        console.print(_built_line(summary))
        if db is None:
            from registry.db.metadata import write_metadata

            metadata = write_metadata(out, site, metadata_file)
            console.print(f"Wrote {metadata} (for: datasette {out} --metadata {metadata})")


def _check_targets(db: str | None, out: Path) -> None:
    """Refuse a SQLite URL given as --db, a database URL given as --out, and a --db that is no URL."""
    if db is not None and db.split(":", 1)[0].split("+")[0].lower() == "sqlite":
        raise RegistryError(f"--db {db!r} names a SQLite file, but --db is for a PostgreSQL server",
                            _sqlite_url_hint(db))
    if _URL_AS_PATH.match(str(out)):  # a path folds the URL's '//' into '/'
        from registry.db.server import shown_url

        url = _URL_AS_PATH.sub(r"\g<0>/", str(out), count=1)
        raise RegistryError(f"--out {shown_url(url)!r} is a database URL, but --out is the SQLite file to write",
                            # How many slashes a sqlite URL had is lost: no path is guessed from it.
                            _sqlite_url_hint("sqlite://") if url.lower().startswith("sqlite") else
                            f"build into the server with --db {shown_url(url)}")
    if db is not None and "://" not in db:
        raise RegistryError(f"--db {db!r} is not a database URL",
                            "use --out FILE for a SQLite file, or --db postgresql+psycopg://USER:PASS@HOST/DB")


def _built_line(summary: Any) -> str:
    """What a build did: an update (which records changed, what it wrote) or a full build (and why not an update)."""
    from registry.db.build import FULL_ASKED

    changes = summary.changes
    # Where the records were validated without loading every one, the line says how (and the time is the update's).
    how = f"; validated {summary.validated}" if summary.validated else ""
    if changes is not None and changes.nothing:
        return (f"{summary.target} is up to date: none of its {summary.records:,} records changed, nothing was "
                f"written ({summary.seconds:.1f} s{how})")
    if changes is not None:
        return (f"Updated {summary.target}: {changes.records:,} of {summary.records:,} records changed "
                f"({changes.added} added, {changes.edited} edited, {changes.renamed} renamed, {changes.removed} "
                f"removed): {changes.rows_deleted:,} rows deleted, {changes.rows_inserted:,} inserted, "
                f"{changes.searched:,} search rows made again ({summary.seconds:.1f} s{how})")
    line = (f"Built {summary.target}: {summary.records} records as {summary.rows} rows in {summary.tables} tables "
            f"and {summary.views} views ({summary.seconds:.1f} s)")
    if summary.full_because is None:
        return line
    because = "--full was given" if summary.full_because == FULL_ASKED else summary.full_because
    return f"{line}; a full build, not an update: {because}"


#: A URL's scheme and the slash after it, as a path holds it (a drive letter such as 'C:' is one character).
_URL_AS_PATH = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]+:/")


# The help names every view the build makes, from the one list of them (light: no SQLAlchemy at start-up).
build_command.__doc__ = (build_command.__doc__ or "").replace("{views}", ", ".join(VIEWS))


def _sqlite_url_hint(url: str) -> str:
    """Where a sqlite:/// URL points, by SQLAlchemy's rule (three slashes: relative; four: absolute), as --out."""
    rest = url.split("://", 1)[1] if "://" in url else ""
    path = rest[1:].split("?", 1)[0] if rest.startswith("/") else ""
    if not path:
        return "write a SQLite file with --out FILE, for example --out registry.db"
    if path.startswith("/"):
        return f"write a SQLite file with --out FILE: --out {path}"
    return (f"write a SQLite file with --out FILE: --out {path} (relative to the current folder, as this URL "
            f"says), or --out /{path} for an absolute path")


class QueryCommand(TyperCommand):
    """'registry query', with a hint when SQL that starts with '-' (a -- comment) would be taken for an option."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        takes_value = {name for param in self.params if param.param_type_name == "option"
                       and not getattr(param, "is_flag", False) for name in param.opts}
        after_option = False
        for arg in args:
            if arg == "--":
                break
            if after_option or arg.split("=", 1)[0] in takes_value:
                after_option = arg in takes_value  # "--db X": X is the option's value; "--db=X" has it
                continue
            if arg.startswith("-") and any(char.isspace() for char in arg):
                # An option never holds a space or a line break: this is SQL, such as "-- a comment\nSELECT 1".
                ctx.fail(f"{_first_line(arg)!r} looks like SQL, not an option: put -- before SQL that starts with "
                         f"'-' (such as a -- comment), for example: registry query -- \"$(cat query.sql)\"")
        return super().parse_args(ctx, args)  # type: ignore[no-any-return]


def _first_line(text: str) -> str:
    line = text.splitlines()[0]
    return line if len(line) <= 40 else line[:39] + "…"


def query_command(
    sql: str = typer.Argument(
        ..., metavar="SQL",
        help="One SELECT (or WITH ... SELECT) statement. SQL that starts with '-' (such as a -- comment) goes "
             "after --, or it is read as an option: registry query -- \"$(cat query.sql)\".",
    ),
    db: str = typer.Option(
        DEFAULT_DB, "--db", metavar="FILE|URL",
        help="The database: a SQLite file built by 'registry db build' (default registry.db) or a PostgreSQL URL.",
    ),
    format: QueryFormat = typer.Option(
        QueryFormat.TABLE, "--format", "-f",
        help="'table' for people, 'csv' or 'json' for other tools (table and csv show control characters as "
             "escapes; json keeps every value exact)."
    ),
    timeout: float = typer.Option(limits.QUERY_TIMEOUT_S, "--timeout", min=0.001,
                                  help="Stop the query after this many seconds."),
    max_rows: int | None = typer.Option(
        None, "--max-rows", min=1,
        help=f"Give at most this many rows, and say so when more exist (default {limits.QUERY_MAX_ROWS:,} as a "
             f"table, {limits.QUERY_MAX_ROWS_FOR_TOOLS:,} as csv or json).",
    ),
    max_memory: int = typer.Option(
        limits.QUERY_MAX_MEMORY_MB, "--max-memory", min=16, metavar="MB",
        help=f"Stop a query on a SQLite file that needs more memory than this (one value may hold a "
             f"{limits.QUERY_VALUE_SHARE}th of it).",
    ),
    records: Path | None = typer.Option(
        None, "--records", "-r", envvar="REGISTRY_RECORDS", file_okay=False,
        help="Folder of record files to compare a SQLite database with (default: the folder it was built from; "
             "env REGISTRY_RECORDS).",
    ),
    debug: bool = DebugOption,
) -> None:
    """Run one read-only SQL query against the database built by 'registry db build'.

    The database is opened read-only, only a single SELECT or WITH statement runs, and a query
    that runs longer than --timeout, or (on a SQLite file) needs more memory than --max-memory, is
    stopped; at most --max-rows rows are given. With a SQLite file, warns when a record file under
    the folder it was built from (or --records) was added, removed or modified after the build
    (each file's modification time against the database file's, which the build sets to when it
    read the records).
    """
    with user_errors(debug):
        from registry.db.query import DEFAULT_MAX_ROWS, DEFAULT_MAX_ROWS_FOR_TOOLS, Limits, open_query, sqlite_path

        if max_rows is None:
            max_rows = DEFAULT_MAX_ROWS if format is QueryFormat.TABLE else DEFAULT_MAX_ROWS_FOR_TOOLS
        with open_query(db, sql, Limits(timeout, max_rows, max_memory)) as result:
            path = sqlite_path(db)
            if path is not None:
                _warn_if_stale(path, records)
            _write_result(result, format)
        if result.truncated and format is not QueryFormat.TABLE:
            sys.stdout.flush()
            err_console.print(f"Warning: only the first {max_rows:,} rows were given; more exist (raise --max-rows "
                              "to get them)", markup=False, soft_wrap=True)


def _write_result(result: Any, format: QueryFormat) -> None:
    """A query's rows (``registry.db.query.QueryStream``) as csv, as json, or as a table with the count below it."""
    if format is QueryFormat.CSV:
        _write_csv(result.columns, result.batches())
    elif format is QueryFormat.JSON:
        _write_json(result.columns, result.batches())
    else:
        count = _print_table(result.columns, result.batches())
        shown = f"{count} row(s)"
        if result.truncated:
            shown = f"the first {count} rows; more exist (raise --max-rows, or use --format csv)"
        console.print(shown)


#: The most characters of one value a table shows (csv and json give it whole).
MAX_CELL_CHARS = 1_000


def _print_table(columns: list[str], batches: Iterable[list[tuple[Any, ...]]]) -> int:
    """Rows as a table, printed batch by batch as they arrive; the number of rows printed.

    The columns' widths are set by the header and the first batch (which the query's process sends
    once it has a few hundred rows or has done a fixed amount of work, never by the clock), and kept
    for the rest, whose longer values fold: so the first row shows at once and memory holds one batch.
    Where the columns cannot all fit the terminal, one block per row (like psql's \\x): a table that
    does not fit would lose columns without a word. Values are shown safely: control characters
    escaped, a blob as its size, a long text cut short.
    """
    needed = sum(min(len(column), 24) + 3 for column in columns) + 1
    if needed > console.width:
        return _print_blocks(columns, batches)
    count, widths, bottom = 0, None, None
    for batch in batches:
        lines, widths = _table_lines(columns, batch, widths, header=count == 0)
        bottom = lines.pop()  # the closing border, printed once at the end
        _print_lines(lines if count == 0 else lines[1:])  # a later batch's top border is left out
        count += len(batch)
    if bottom is None:
        lines, _ = _table_lines(columns, [], None, header=True)
        bottom = lines.pop()
        _print_lines(lines)
    _print_lines([bottom])
    return count


def _table_lines(columns: list[str], rows: list[tuple[Any, ...]], widths: list[int] | None,
                 *, header: bool) -> tuple[list[Any], list[int]]:
    """One batch rendered as the lines of a table; its columns' widths (the ones given, or rich's choice)."""
    from rich.table import Table

    def make(fixed: list[int] | None) -> Table:
        table = Table(show_lines=False, show_header=header)
        for index, column in enumerate(columns):
            if fixed is None:
                table.add_column(escaped(column), overflow="fold", min_width=min(len(column), 24))
            else:  # rich's widths include a space of padding on each side
                table.add_column(escaped(column), overflow="fold", width=max(fixed[index] - 2, 1))
        for row in rows:
            table.add_row(*(_cell(value) for value in row))
        return table

    if widths is None:  # as rich lays out a table: its borders first taken from the width
        table = make(None)
        widths = table._calculate_column_widths(console, console.options.update_width(
            console.options.max_width - table._extra_width))
    return console.render_lines(make(widths), console.options, pad=False, new_lines=False), widths


def _print_lines(lines: list[Any]) -> None:
    from rich.segment import Segment, Segments

    console.print(Segments(segment for line in lines for segment in [*line, Segment.line()]), end="")


def _print_blocks(columns: list[str], batches: Iterable[list[tuple[Any, ...]]]) -> int:
    """One block per row, printed as the rows arrive; the number of rows."""
    from rich.table import Table
    from rich.text import Text

    console.print(f"({len(columns)} columns do not fit {console.width} characters: one block per row; "
                  f"--format csv or json for other tools)", style="dim")
    number = 0
    for batch in batches:
        for row in batch:
            number += 1
            block = Table(title=f"row {number}", title_justify="left", show_header=False)
            block.add_column(style="bold", no_wrap=True)
            block.add_column(overflow="fold")
            for column, value in zip(columns, row, strict=True):
                block.add_row(Text(escaped(column)), _cell(value))
            console.print(block)
    return number


def _cell(value: Any) -> Any:
    """One value as a table shows it: NULL dimmed, a blob as its size, control characters escaped, long text cut."""
    from rich.text import Text

    if value is None:
        return Text("NULL", style="dim")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return Text(f"<blob: {len(bytes(value)):,} bytes>", style="dim")
    text = escaped(_text(value))
    if len(text) > MAX_CELL_CHARS:
        return Text(text[:MAX_CELL_CHARS]).append(f"... ({len(text):,} characters; --format csv or json gives "
                                                  "the whole value)", style="dim")
    return Text(text)


def _write_csv(columns: list[str], batches: Iterable[list[tuple[Any, ...]]]) -> None:
    """Rows as CSV, each batch written (and flushed) as it arrives; control characters escaped as a table shows
    them, since CSV is read in terminals and spreadsheets alike (``--format json`` keeps every value exact)."""
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow([escaped(column) for column in columns])
    sys.stdout.flush()
    for batch in batches:
        writer.writerows([escaped(_text(value)) for value in row] for row in batch)
        sys.stdout.flush()


def _write_json(columns: list[str], batches: Iterable[list[tuple[Any, ...]]]) -> None:
    """Rows as a JSON array of objects, each batch written (and flushed) as it arrives, laid out as
    ``json.dumps(rows, indent=2)`` would."""
    out = sys.stdout
    first = True
    for batch in batches:
        for row in batch:
            item = json.dumps(dict(zip(columns, (_json_value(v) for v in row), strict=True)), indent=2,
                              ensure_ascii=False)
            out.write(("[\n  " if first else ",\n  ") + json_text(item).replace("\n", "\n  "))
            first = False
        out.flush()
    out.write("[]\n" if first else "\n]\n")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    return str(value)


def _json_value(value: Any) -> Any:
    """JSON-ready: exact decimals as their text (no float rounding), dates as ISO-8601, blobs as hexadecimal."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # JSON has no Infinity or NaN
    return value


def _warn_if_stale(db: Path, records: Path | None) -> None:
    """Warn when record files were edited, added or removed after the database was built.

    The files compared are those of the folder the database was built from (the build names it),
    unless --records names another; the advice rebuilds from the folder compared.
    """
    from registry.db.freshness import built_from, record_changes

    folder = records if records is not None else built_from(db) or Path("records")
    changes = record_changes(db, folder)
    if not changes:
        return
    shown = _shown_path(folder)
    out = "" if db == Path(DEFAULT_DB) else f" --out {db}"
    err_console.print(
        f"Warning: record files under {shown}/ changed after {db} was built ({changes.describe()}); "
        f"run 'registry db build --records {shown}{out}' to refresh it.",
        markup=False, soft_wrap=True,
    )


def _shown_path(folder: Path) -> str:
    """A folder as a user would type it here: relative to the current folder where it lies below it."""
    try:
        return folder.resolve().relative_to(Path.cwd().resolve()).as_posix() if folder.is_absolute() else str(folder)
    except ValueError:
        return str(folder)


def register(app: typer.Typer) -> None:
    db_app = typer.Typer(
        name="db",
        cls=CommandGroup,
        help="Build a SQL database from the records (SQLite file or PostgreSQL server).",
        no_args_is_help=True,
    )
    db_app.command("build")(build_command)
    app.add_typer(db_app, name="db")
    app.command("query", cls=QueryCommand)(query_command)
