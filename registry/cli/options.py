"""Options every command shares."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from registry import limits

RecordsOption = typer.Option(
    Path("records"),
    "--records",
    "-r",
    envvar="REGISTRY_RECORDS",
    help="Folder of record files (default: records/ in the current folder; env REGISTRY_RECORDS).",
    file_okay=False,
)
DebugOption = typer.Option(False, "--debug", help="Show the full traceback of an unexpected error.")
NoCacheOption = typer.Option(
    False, "--no-cache", envvar="REGISTRY_NO_CACHE",
    help="Read and parse every record file rather than take unchanged ones from the parse cache "
    "($XDG_CACHE_HOME/registry; env REGISTRY_NO_CACHE).",
)
# The options of 'registry new' and the curation commands (import, correct, retract), declared once.
DateOption = typer.Option(None, "--date", help="The batch date of the new ids, yyyymmdd (default: today, UTC).")
DryRunOption = typer.Option(False, "--dry-run", help="Check everything and show what would be written, writing "
                            "nothing.")

# The limits of reading a PDF, the same for 'registry review' and 'registry table' (``review.pdf.limited``), declared
# once.
PdfTimeoutOption = typer.Option(
    limits.REVIEW_TIMEOUT_S, "--timeout", min=1, metavar="SECONDS",
    help="Stop after this long (getting the PDF, reading it with both extractors, and for a review checking the "
    "claims).",
)
PdfMaxMemoryOption = typer.Option(
    limits.REVIEW_MAX_MEMORY_MB, "--max-memory", min=64, metavar="MB",
    help="Stop reading the PDF (and checking its claims) past this much memory (each extractor's process).",
)
PdfMaxPageCharsOption = typer.Option(
    limits.REVIEW_MAX_PAGE_CHARS, "--max-page-chars", min=1, metavar="N",
    help="Refuse a page holding more text than this (a dense page of a paper holds about 5,000 characters).",
)

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
    "changes": "--set FIELD=VALUE",
    "hub_ids": "--hub-ids",
}


#: Put in an option's help where the kind tokens go; ``KindsInHelp`` fills them in.
KINDS_PLACEHOLDER = "{kinds}"


class KindsInHelp(TyperCommand):
    """A command whose option help names the record kinds, filled in only when the help is shown.

    The kinds are declared by the models; importing them at start-up would build Pydantic into
    every command's start, '--help' included, which needs none of it.
    """

    def format_options(self, ctx: Any, formatter: Any) -> None:
        from registry.generated.kindnames import KIND_TOKENS as KINDS

        for param in self.get_params(ctx):
            text = getattr(param, "help", None)
            if text and KINDS_PLACEHOLDER in text:
                param.help = text.replace(KINDS_PLACEHOLDER, ", ".join(KINDS))  # type: ignore[attr-defined]
        super().format_options(ctx, formatter)


class CommandGroup(TyperGroup):
    """A command group ('registry', 'registry db', ...) whose '--help' flag reads False when absent.

    Typer checks a flag that reads None through a Pydantic adapter, so 'registry CMD --help' (and
    'registry db build --help') would import Pydantic (a third of its start-up) only to learn that no
    '--help' was given before the command name.
    """

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        if option is not None and option.default is None:
            option.default = False
        return option
