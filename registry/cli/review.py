"""``registry review ID``: re-parse the pinned PDF and check every transcribed claim against its page.

The command parses arguments, calls ``review.review.run_review`` and renders its
assertions; ``--write`` adds the review record a fully passing run earns. pypdf and
httpx are imported only when the command runs. ``python -m review`` runs the same command.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from registry import limits
from registry.cli._errors import user_errors
from registry.cli.options import DebugOption, RecordsOption

if TYPE_CHECKING:
    from rich.console import Console

    from review.review import ReviewRun


def review_command(
    record_id: str = typer.Argument(
        ..., metavar="ID",
        help="A result, evidence row or configuration whose locator quotes the source, or a source (checks every "
             "record that quotes it).",
    ),
    pdf: Path | None = typer.Option(
        None, "--pdf", metavar="FILE",
        help="Use this copy of the PDF (for example a hand download); its SHA-256 must equal the source's.",
    ),
    write: bool = typer.Option(
        False, "--write",
        help="If every assertion passes, add a 'source-checked' review record beside the existing reviews.",
    ),
    cache_dir: Path | None = typer.Option(
        None, "--cache-dir", metavar="DIR", envvar="REGISTRY_CACHE_DIR", file_okay=False,
        help="Where PDFs are cached as '<sha256>.pdf' (default ~/.cache/registry/pdfs; env REGISTRY_CACHE_DIR).",
    ),
    timeout: float = typer.Option(
        limits.REVIEW_TIMEOUT_S, "--timeout", min=1, metavar="SECONDS",
        help="Stop the review after this long (getting the PDF, reading its text, checking the claims).",
    ),
    max_memory: int = typer.Option(
        limits.REVIEW_MAX_MEMORY_MB, "--max-memory", min=64, metavar="MB",
        help="Stop reading the PDF and checking its claims past this much memory.",
    ),
    max_page_chars: int = typer.Option(
        limits.REVIEW_MAX_PAGE_CHARS, "--max-page-chars", min=1, metavar="N",
        help="Refuse a page holding more text than this (a dense page of a paper holds about 5,000 characters).",
    ),
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Check a record's transcription against the pinned PDF: page, quote, printed value, unit, listed claims.

    The PDF comes from --pdf, the cache, or a download of the source's URL, and must match the source's
    SHA-256; the bytes checked are the bytes hashed. Reading the PDF and checking the claims run in a
    process of their own, stopped past --timeout or --max-memory. Exit status 0 when every assertion
    passes, 1 otherwise.
    """
    from registry.cli.core import load_valid
    from registry.cli.output import console

    with user_errors(debug):
        from review.review import ReviewLimits, run_review, write_review

        registry = load_valid(records)
        run = run_review(registry, record_id.strip(), pdf=pdf, cache_dir=cache_dir,
                         limits=ReviewLimits(timeout, max_memory, max_page_chars))
        render_run(run, console)
        if write:
            review, path = write_review(records, registry, run)
            console.print(f"Wrote review {review.id} to {path}")
    raise typer.Exit(0 if run.passed else 1)


def render_run(run: ReviewRun, console: Console) -> None:
    """The PDF, its text, one table of assertions per record, and a verdict."""
    from rich.table import Table
    from rich.text import Text

    source = run.plan.source
    console.print(Text(f"Source: {source.citation}"))
    console.print(Text(f"PDF: {run.pdf.describe()}"))
    console.print(Text(f"SHA-256 {run.pdf.sha256} matches the source's pin"))
    kept = f"; text kept at {run.text_path}" if run.text_path else ""
    console.print(Text(f"Text: {run.extraction.page_count} pages extracted with {run.extraction.extractor}; "
                       f"extraction SHA-256 {run.extraction.sha256}{kept}"))
    by_record: dict[str, list] = {}
    for assertion in run.assertions:
        by_record.setdefault(assertion.record_id, []).append(assertion)
    for record_id, assertions in by_record.items():
        table = Table(title=Text(record_id), title_justify="left", show_lines=False)
        table.add_column("Claim", no_wrap=True)
        table.add_column("Record says", overflow="fold")
        table.add_column("Outcome", no_wrap=True)
        table.add_column("Page", justify="right", no_wrap=True)
        table.add_column("Matched text", overflow="fold")
        table.add_column("How / why", overflow="fold")
        for a in assertions:
            outcome = Text("pass", style="green") if a.passed else Text("FAIL", style="bold red")
            table.add_row(Text(a.claim), Text(a.expected), outcome, "" if a.page is None else str(a.page),
                          Text(a.matched), Text(a.detail))
        console.print(table)
    for record_id, why in run.plan.skipped:
        console.print(Text(f"Not checked: {record_id}: {why}"))
    failed = len(run.failures)
    total = len(run.assertions)
    if failed:
        console.print(Text(f"{failed} of {total} assertions failed: the records are not source checked by this PDF.",
                           style="bold red"))
    else:
        console.print(Text(f"All {total} assertions passed.", style="bold green"))


def register(app: typer.Typer) -> None:
    app.command("review")(review_command)


def main() -> None:
    """``python -m review``: the same command, on its own."""
    import typer.main

    standalone = typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)
    standalone.command()(review_command)
    typer.main.get_command(standalone)(prog_name="python -m review")
