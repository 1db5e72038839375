"""Options every command shares."""

from __future__ import annotations

from pathlib import Path

import typer

RecordsOption = typer.Option(
    Path("records"),
    "--records",
    "-r",
    envvar="REGISTRY_RECORDS",
    help="Folder of record files (default: records/ in the current folder; env REGISTRY_RECORDS).",
    file_okay=False,
)
DebugOption = typer.Option(False, "--debug", help="Show the full traceback of an unexpected error.")

#: How the command line names each input that library messages refer to (``registry.errors.INPUTS``).
FLAGS: dict[str, str] = {
    "records": "--records",
    "out": "--out",
    "db": "--db",
    "db_file": "--db",
    "pdf": "--pdf",
    "cache_dir": "--cache-dir (or $REGISTRY_CACHE_DIR)",
    "timeout": "--timeout",
    "max_rows": "--max-rows",
    "max_memory": "--max-memory",
    "max_page_chars": "--max-page-chars",
    "debug": "--debug",
    "batch": "--batch",
    "date": "--date",
    "slug": "--slug",
    "reason": "--reason",
    "curator": "--curator",
    "independence": "--independence",
}
