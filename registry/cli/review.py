"""``registry review ID``: re-parse the pinned PDF and check every transcribed claim against its page.

The command parses arguments, calls ``registry.checking.review.run_review`` and renders its
assertions; ``--write`` files one review record per checked record, whatever its verdict
(``registry.checking.review.write_reviews``). pypdf and httpx are imported only when the command runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from registry.cli._errors import user_errors
from registry.cli.options import DebugOption, PdfMaxMemoryOption, PdfMaxPageCharsOption, PdfTimeoutOption, RecordsOption

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from registry.checking.claims import Assertion
    from registry.checking.review import ReviewRun


SOURCE_HELP = (
    "A source file the source record pins under source_files (a LaTeX .tar.gz or main .tex, JATS XML, HTML, .docx, "
    ".odt, Typst .typ): each cited table cell is also checked against it, a second witness beside the PDF; its "
    "SHA-256 must be one the record pins. Repeatable. Pinned files cached as '<sha256>-<name>' in --cache-dir are "
    "read too.")
WRITE_HELP = (
    "File a review record for each checked record, whatever its verdict ('source-checked', 'review-failed' or "
    "'could-not-be-checked'), with every claim and what the PDF showed; it supersedes the record's earlier reviews, "
    "which stay as its history.")


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
    source_files: list[Path] = typer.Option([], "--source", metavar="FILE", help=SOURCE_HELP),
    write: bool = typer.Option(False, "--write", help=WRITE_HELP),
    cache_dir: Path | None = typer.Option(
        None, "--cache-dir", metavar="DIR", envvar="REGISTRY_CACHE_DIR", file_okay=False,
        help="Where PDFs are cached as '<sha256>.pdf' (default ~/.cache/registry/pdfs; env REGISTRY_CACHE_DIR).",
    ),
    output_format: str = typer.Option(
        "table", "--format", metavar="FORMAT", help="'table' (default) or 'json' (every assertion, for other tools).",
    ),
    timeout: float = PdfTimeoutOption,
    max_memory: int = PdfMaxMemoryOption,
    max_page_chars: int = PdfMaxPageCharsOption,
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Check a record's transcription against the pinned PDF: page, quote, printed value, unit, listed claims.

    The PDF comes from --pdf, the cache, or a download of the source's URL, and must match the source's
    SHA-256; the bytes both extractors read are the bytes hashed. Reading the PDF (pypdf and PDFium, and
    poppler's pdftotext) and checking the claims run in a process of their own, stopped past --timeout
    or --max-memory. Exit status 0 when every assertion passes, 1 when one fails (the page prints something
    else), 3 when none fails but one could not be checked (a table, row or column the review could not read).
    """
    from registry.cli.core import failure_json, load_valid
    from registry.cli.output import console, echo_json

    with user_errors(debug):
        from registry.checking.review import ReviewLimits, run_review, write_reviews
        from registry.errors import RegistryError

        if output_format not in ("table", "json"):
            raise RegistryError(f"unknown format {output_format!r}", "use --format table or --format json")
        try:
            registry = load_valid(records)
            run = run_review(registry, record_id.strip(), pdf=pdf, cache_dir=cache_dir,
                             limits=ReviewLimits(timeout, max_memory, max_page_chars), sources=source_files)
        except Exception as exc:
            if output_format == "json" and not debug:  # a tool reading the report must see that there is none
                echo_json({"passed": False, "error": failure_json(exc)["error"]})
            raise
        written = write_reviews(records, registry, run) if write else []
        if output_format == "json":
            echo_json(run_json(run, written))
        else:
            render_run(run, console)
            render_written(written, console)
    raise typer.Exit(exit_status(run))


def render_written(written: list[tuple[Any, Path]], console: Console) -> None:
    """'Wrote review ID (review failed) to PATH' for each review written, or a count of each status for many."""
    from collections import Counter

    from rich.text import Text

    from registry.status.provenance import STATUS_LABELS

    if len(written) <= 3:
        for review, path in written:
            console.print(Text(f"Wrote review {review.id} ({STATUS_LABELS[review.status]}) to {path}"))
        return
    counts = Counter(STATUS_LABELS[review.status] for review, _ in written)
    shown = ", ".join(f"{count} {label}" for label, count in sorted(counts.items()))
    console.print(Text(f"Wrote {len(written)} reviews ({shown}) to {written[0][1].parent}"))


#: The exit status of a run in which nothing failed but some claim could not be checked.
EXIT_CANNOT_CHECK = 3


def exit_status(run: ReviewRun) -> int:
    """0 when every assertion passed, 1 when one failed, ``EXIT_CANNOT_CHECK`` when the rest could not be checked (or
    named a unit the page does not print)."""
    if run.passed:
        return 0
    return 1 if run.failures else EXIT_CANNOT_CHECK


def _outcome(assertion: Assertion) -> Text:
    from rich.text import Text

    from registry.checking.claims import CANNOT_CHECK, PASS, UNIT_NOT_PRINTED

    styles = {PASS: ("pass", "green"), CANNOT_CHECK: ("CANNOT CHECK", "bold yellow"),
              UNIT_NOT_PRINTED: ("UNIT NOT PRINTED", "yellow")}
    text, style = styles.get(assertion.outcome, ("FAIL", "bold red"))
    return Text(text, style=style)


def render_run(run: ReviewRun, console: Console) -> None:
    """The PDF, its text, one table of assertions per record, and a verdict."""
    _render_reading(run, console)
    by_record: dict[str, list] = {}
    for assertion in run.assertions:
        by_record.setdefault(assertion.record_id, []).append(assertion)
    narrow = console.width < WIDE_TABLE_COLUMNS
    for record_id, assertions in by_record.items():
        if narrow:
            console.print(_blocks(record_id, assertions, run.second.extractor.split(" ")[0] if run.second else None))
        else:
            console.print(_assertions_table(run, record_id, assertions))
    from rich.text import Text

    for record_id, why in run.plan.skipped:
        console.print(Text(f"Not checked: {record_id}: {why}"))
    _render_verdict(run, console)


def _render_reading(run: ReviewRun, console: Console) -> None:
    """The source, the PDF and its pin, the text each extractor read, and the source files read beside it."""
    from rich.text import Text

    source = run.plan.source
    console.print(Text(f"Source: {source.citation}"))
    console.print(Text(f"PDF: {run.pdf.describe()}"))
    console.print(Text(f"SHA-256 {run.pdf.sha256} matches the source's pin"))
    kept = f"; text kept at {run.text_path}" if run.text_path else ""
    console.print(Text(f"Text: {run.extraction.page_count} pages extracted with {run.extraction.extractor}; "
                       f"extraction SHA-256 {run.extraction.sha256}{kept}"))
    if run.second is not None:
        console.print(Text(f"Second extractor: {run.second.extractor}; extraction SHA-256 {run.second.sha256}"))
    elif run.readings is not None and run.readings.second_missing:
        console.print(Text(f"Second extractor: none; {run.readings.second_missing}", style="yellow"))
    for described in run.source_files:
        console.print(Text(f"Source file (second witness): {described}, matches the source's pin"))


def _assertions_table(run: ReviewRun, record_id: str, assertions: list[Assertion]) -> Any:
    """One record's assertions as a table: a row each, with the second extractor's and the witnesses' columns where
    the run has them."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(record_id), title_justify="left", show_lines=False)
    table.add_column("Claim", no_wrap=True)
    table.add_column("Record says", overflow="fold")
    table.add_column("Outcome", no_wrap=True)
    table.add_column("Page", justify="right", no_wrap=True)
    table.add_column("Matched text", overflow="fold")
    table.add_column("Cell found", overflow="fold")
    table.add_column("How / why", overflow="fold")
    if run.second is not None:
        table.add_column(run.second.extractor.split(" ")[0], no_wrap=True)
    if run.source_files:
        table.add_column("Witnesses", no_wrap=True)
    for a in assertions:
        outcome = _outcome(a)
        cells: list[Text | str] = [Text(a.claim), Text(a.expected), outcome, "" if a.page is None else str(a.page),
                                   Text(a.matched), Text(a.found), Text(a.detail)]
        if run.second is not None:
            cells.append(_second(a))
        if run.source_files:
            cells.append(Text(a.verdicts if a.witnesses else "pdf only", style="" if a.witnesses else "dim"))
        table.add_row(*cells)
    return table


def _render_verdict(run: ReviewRun, console: Console) -> None:
    """The failures again, what could not be checked (with the command that shows the tables), the units not
    printed, what only the source backs, and the verdict."""
    from rich.text import Text

    from registry.checking.hints import hint
    from registry.checking.review import verdicts

    total = len(run.assertions)
    if run.failures and total > len(run.failures):  # the failures again, whole and together, below hundreds of passes
        console.print(Text("Failed:", style="bold red"))
        _render_listed(run.failures, console)
    if run.unchecked:
        console.print(Text("Could not be checked (the review could not read the cited table, row or column):",
                           style="bold yellow"))
        _render_listed(run.unchecked, console)
        named = {(a.page, _table_of(a.expected)) for a in run.unchecked if a.page is not None and _table_of(a.expected)}
        pages = named | {(a.page, "") for a in run.unchecked if a.page is not None and a.page not in dict(named)}
        for at, label in sorted(pages):
            console.print(Text(f"  to see the tables as the review reads them: {hint(run.pdf.path, at, label)}"))
    if run.unprinted:
        console.print(Text("Unit not printed (no other unit is printed with the value, so the value is not failed; "
                           "cite where the source says the unit, or leave it reported):", style="yellow"))
        _render_listed(run.unprinted, console)
    if run.source_only:
        from registry.checking.witnesses import SOURCE_ONLY

        console.print(Text(f"{len(run.source_only)} of {total} assertions {SOURCE_ONLY} (the PDF's cell could not be "
                           "read; the source prints the value): a weaker status than a check against the PDF",
                           style="yellow"))
    if not run.passed:
        console.print(Text(f"{verdicts(run)}: the records are not source checked by this PDF.",
                           style="bold red" if run.failures else "bold yellow"))
    else:
        console.print(Text(f"All {total} assertions passed.", style="bold green"))


def _render_listed(assertions: list[Assertion], console: Console) -> None:
    """'- record: claim (page N): expected: detail' for each assertion."""
    from rich.text import Text

    for a in assertions:
        page = f" (page {a.page})" if a.page is not None else ""
        console.print(Text(f"- {a.record_id}: {a.claim}{page}: {a.expected}: {a.detail}"))


def _table_of(expected: str) -> str:
    """The table label a cell claim names in what it expects ("'0.5' in Table 2, row ...")."""
    import re

    found = re.search(r"\bin (.+?), row '", expected)
    return found.group(1) if found else ""


#: Below this many columns the eight-column table leaves its text columns a few characters wide (a reason
#: for a failure folded over 27 lines at 80 columns); each assertion is printed as a block instead.
WIDE_TABLE_COLUMNS = 120


def _blocks(record_id: str, assertions: list[Assertion], second: str | None) -> Any:
    """One record's assertions for a narrow terminal: the outcome and claim, then each field on a line of its own."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for a in assertions:
        outcome = _outcome(a)
        page = f" (page {a.page})" if a.page is not None else ""
        grid.add_row(outcome, Text(f"{a.claim}{page}"), Text(a.expected))
        for label, value in (("matched", a.matched), ("cell found", a.found), ("how / why", a.detail)):
            if value:
                grid.add_row("", Text(label, style="dim"), Text(value))
        if second is not None:
            grid.add_row("", Text(second, style="dim"), _second(a))
        for w in a.witnesses:  # each witness's verdict, with the file and the program that read it
            read = ", ".join(part for part in (w.document, w.reader) if part)
            grid.add_row("", Text(f"{w.name} witness", style="dim"),
                         Text(f"{w.outcome}{f' ({read})' if read else ''}"))
    return Group(Text(record_id, style="bold"), grid)


def _second(assertion: Assertion) -> Text:
    from rich.text import Text

    if assertion.second is None or assertion.second.passed is None:
        return Text("-", style="dim")
    return Text("agrees", style="green") if assertion.second.passed == _primary(assertion) else Text(
        "DISAGREES", style="bold yellow")


def _primary(assertion: Assertion) -> bool:
    from registry.checking.agreement import _primary_passed

    return _primary_passed(assertion)


def run_json(run: ReviewRun, written: list[tuple[Any, Path]]) -> dict[str, Any]:
    """The run as plain data: the PDF, both extractions, every assertion with both extractors' verdicts, and the
    reviews ``written``."""
    from dataclasses import asdict

    from registry.checking.agreement import disagreements

    readings = run.readings
    return {
        "source": run.plan.source.id,
        "pdf": {"path": str(run.pdf.path), "sha256": run.pdf.sha256, "origin": run.pdf.origin},
        "extractions": [{"extractor": e.extractor, "sha256": e.sha256, "pages": e.page_count}
                        for e in (readings.all if readings is not None else (run.extraction,))],
        "second_extractor_missing": readings.second_missing if readings is not None else None,
        "subjects": run.plan.subjects,
        "not_checked": [{"record": r, "why": why} for r, why in run.plan.skipped],
        "assertions": [{**asdict(a), "outcome": a.outcome, "verdicts": a.verdicts} for a in run.assertions],
        "cells_checked": run.cells_checked,
        "disagreements": len(disagreements(run.assertions)),
        "failed": len(run.failures),
        "cannot_check": len(run.unchecked),
        "unit_not_printed": len(run.unprinted),
        "source_files": run.source_files,
        "checked_against_source_only": len(run.source_only),
        "passed": run.passed,
        "reviews_written": [{"id": review.id, "status": review.status.value, "path": str(path)}
                            for review, path in written],
    }


def register(app: typer.Typer) -> None:
    app.command("review")(review_command)
