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
