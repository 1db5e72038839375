"""SQL over the registry: 'registry db build' writes a database from the records, 'registry query' reads it.

The database layer (SQLAlchemy, SQLModel) is imported inside the commands, so that the
everyday commands start without it.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import sys
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer

from registry.cli._errors import err_console, user_errors
from registry.cli.options import DebugOption, RecordsOption
from registry.cli.output import console
from registry.errors import RegistryError

DEFAULT_DB = "registry.db"


class QueryFormat(StrEnum):
    TABLE = "table"
    CSV = "csv"
    JSON = "json"


def build_command(
    out: Path = typer.Option(
        Path(DEFAULT_DB), "--out", "-o", dir_okay=False,
        help="SQLite file to write (default registry.db); replaced only once the new one is complete.",
    ),
    db: str | None = typer.Option(
        None, "--db", metavar="URL",
        help="Build into this PostgreSQL database instead of a file (postgresql+psycopg://USER:PASS@HOST/DB).",
    ),
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Validate the records, then build a SQL database of them: a SQLite file, or a PostgreSQL server.

    Refuses to build from an invalid registry and prints the validation report instead. Tables
    mirror the record kinds; the views results_flat, missing_metadata_all, record_review_status
    and reproductions_side_by_side hold the usual joins. Query it with 'registry query'.
    """
    with user_errors(debug):
        from registry.db.build import build_database

        if db is not None and db.startswith("sqlite:///"):
            out, db = Path(db[len("sqlite:///"):]), None
        if db is not None and "://" not in db:
            raise RegistryError(f"--db {db!r} is not a database URL",
                                "use --out FILE for a SQLite file, or --db postgresql+psycopg://USER:PASS@HOST/DB")
        summary = build_database(records, out=out, url=db)
        console.print(
            f"Built {summary.target}: {summary.records} records as {summary.rows} rows in {summary.tables} tables "
            f"and {summary.views} views ({summary.seconds:.1f} s)"
        )


def query_command(
    sql: str = typer.Argument(..., metavar="SQL", help="One SELECT (or WITH ... SELECT) statement."),
    db: str = typer.Option(
        DEFAULT_DB, "--db", metavar="FILE|URL",
        help="The database: a SQLite file built by 'registry db build' (default registry.db) or a PostgreSQL URL.",
    ),
    format: QueryFormat = typer.Option(
        QueryFormat.TABLE, "--format", "-f", help="'table' for people, 'csv' or 'json' for other tools."
    ),
    timeout: float = typer.Option(10.0, "--timeout", min=0.001, help="Stop the query after this many seconds."),
    max_rows: int = typer.Option(
        1000, "--max-rows", min=1, help="Show at most this many rows as a table (csv and json give every row)."
    ),
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Run one read-only SQL query against the database built by 'registry db build'.

    The database is opened read-only, only a single SELECT or WITH statement runs, and a query
    that runs longer than --timeout is stopped. Warns when the records changed after the build.
    """
    with user_errors(debug):
        from registry.db.query import is_url, run_query

        limit = max_rows if format is QueryFormat.TABLE else None
        result = run_query(db, sql, timeout=timeout, max_rows=limit)
        if not is_url(db):
            _warn_if_stale(Path(db), records)
        if format is QueryFormat.CSV:
            writer = csv.writer(sys.stdout, lineterminator="\n")
            writer.writerow(result.columns)
            writer.writerows([_text(value) for value in row] for row in result.rows)
        elif format is QueryFormat.JSON:
            rows = [dict(zip(result.columns, (_json_value(v) for v in row), strict=True)) for row in result.rows]
            typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        else:
            _print_table(result.columns, result.rows)
            shown = f"{len(result.rows)} row(s)"
            if result.truncated:
                shown = f"the first {len(result.rows)} rows; more exist (raise --max-rows, or use --format csv)"
            console.print(shown)


def _print_table(columns: list[str], rows: list[tuple[Any, ...]]) -> None:
    from rich.table import Table
    from rich.text import Text

    table = Table(show_lines=False)
    for column in columns:
        table.add_column(column, overflow="fold", min_width=min(len(column), 24))
    for row in rows:
        table.add_row(*(Text("NULL", style="dim") if value is None else Text(_text(value)) for value in row))
    console.print(table)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return str(value)


def _json_value(value: Any) -> Any:
    """JSON-ready: exact decimals as their text (no float rounding), dates as ISO-8601."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    return value


def _warn_if_stale(db: Path, records: Path) -> None:
    """Warn when record files were added or removed after the database was built (folder times)."""
    try:
        built = db.stat().st_mtime
        folders = [records, *(p for p in records.iterdir() if p.is_dir())]
        changed = max(folder.stat().st_mtime for folder in folders)
    except OSError:
        return
    if changed > built:
        err_console.print(
            f"Warning: records under {records}/ changed after {db} was built; "
            f"run 'registry db build --records {records}' to refresh it."
        )


def register(app: typer.Typer) -> None:
    db_app = typer.Typer(
        name="db",
        help="Build a SQL database from the records (SQLite file or PostgreSQL server).",
        no_args_is_help=True,
    )
    db_app.command("build")(build_command)
    app.add_typer(db_app, name="db")
    app.command("query")(query_command)
