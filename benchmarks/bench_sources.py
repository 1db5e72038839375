"""Benchmark: every gold table cell of the papers in ``../shared/papers`` that keep their source, checked by both
witnesses: the PDF (``registry.checking.agreement.check_both``, as ``registry review`` checks a cell) and the source
(``registry.checking.source_witness.check_cell``: the LaTeX, HTML, JATS or Word the PDF was typeset from).

For each paper with a ``source/`` folder (its main file named in ``source/SOURCE-FILES.md``), the right claims
(each gold cell's value, filed with its form as ``bench_tables.py`` files it: a range with its upper end, a bound
with its sign; and its ± where one is printed) and the slips of ``bench_tables.py`` (the neighbouring
row's or column's value, the neighbouring ±, the right value in the wrong table or on the wrong page) are each
checked by both witnesses. Reported: the share of right claims confirmed (passed) by the source witness, by the
PDF witness, and by at least one; right claims that fail either witness; slips caught (failed) by each witness; a
slip that is 'cannot check' is not caught; a slip that passes either witness is counted as passed.

Targets (issue 37): at least 99.5% of right claims confirmed by at least one witness; no right claim failing
either witness; every slip failing at least one witness and passing none.

``--held-out`` (default: the eight papers kept aside) names the papers measured apart: they are left out of the
tuning run unless ``--only-held-out`` measures them, alone, and reports them apart.

Usage: ``python benchmarks/bench_sources.py [--papers DIR] [--only SLUG,...] [--show N] [--held-out SLUGS]
[--only-held-out] [--no-pdf]`` (``--no-pdf``: the source witness alone, the PDF only read for its captions).
A benchmark to run by hand, not a timed test. Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_tables import PAPERS, Gold, read_gold, slips, verdict  # noqa: E402

HELD_OUT = ("sonneck-im2im-2023", "winninger-rerouting-2025", "wang-gds-2021", "kaiser-simple-2019",
            "murrell-camb-2015", "thiry-patches-2021", "verma-motor-2020", "wilde-kmodes-2020")
_MAIN = re.compile(r"\*\*Main file:\*\*\s*`([^`]+)`")


def main_file(folder: Path) -> Path | None:
    """The paper's main source file, as its SOURCE-FILES.md names it (or the one source file of its format)."""
    listing = folder / "source" / "SOURCE-FILES.md"
    if not listing.is_file():
        return None
    found = _MAIN.search(listing.read_text(encoding="utf-8"))
    if found and (folder / "source" / found.group(1)).is_file():
        return folder / "source" / found.group(1)
    from review.sources import FORMATS

    candidates = [p for p in sorted((folder / "source").rglob("*")) if p.is_file()
                  and any(p.name.lower().endswith(e) for e in FORMATS)]
    return candidates[0] if candidates else None


@dataclass
class Counts:
    right: Counter[str] = field(default_factory=Counter)
    slips: Counter[str] = field(default_factory=Counter)
    shown: list[str] = field(default_factory=list)
    seconds: float = 0.0
    error: str = ""


def run_paper(folder: Path, source: Path, show: int, use_pdf: bool) -> Counts:
    from registry.checking.agreement import check_both
    from registry.checking.cells import TableCell
    from registry.checking.source_witness import check_cell
    from registry.checking.uncertainty import CellUncertainty
    from review.pdf.extract import read_pdf
    from review.sources import read_source
    from review.sources.labels import label_tables

    counts = Counts()
    gold = read_gold(folder / "cells.tsv")
    readings = read_pdf(folder / "paper.pdf", name="paper.pdf")
    pdf = readings.primary
    started = time.perf_counter()
    try:
        tables = read_source(source)
    except Exception as exc:  # noqa: BLE001 - a reader's failure is a figure of the benchmark, reported
        counts.error = f"{type(exc).__name__}: {exc}"
        tables = []
    pages = [pdf.page(n) or "" for n in range(1, pdf.page_count + 1)]
    witness_tables = label_tables(source.name, tables, pages)
    counts.seconds = time.perf_counter() - started

    def both(claim: object) -> tuple[str, str, str]:
        pdf_outcome = verdict(check_both(claim, readings)) if use_pdf else "cannot check"  # type: ignore[arg-type]
        seen = check_cell(witness_tables, claim)
        return pdf_outcome, seen.outcome, seen.detail

    def show_one(text: str) -> None:
        if len(counts.shown) < show:
            counts.shown.append(text)

    for cell in gold:
        where = ("bench", "table cell", cell.page, cell.table, cell.row, cell.column)
        claims = [TableCell(*where, cell.printed_value, **cell.shape)]  # type: ignore[arg-type]
        if cell.plus_minus:
            claims.append(CellUncertainty("bench", "uncertainty", *where[2:], cell.printed_plus_minus, False))
        for claim in claims:
            pdf_outcome, source_outcome, detail = both(claim)
            counts.right[f"pdf {pdf_outcome}"] += 1
            counts.right[f"source {source_outcome}"] += 1
            counts.right["confirmed"] += pdf_outcome == "pass" or source_outcome == "pass"
            counts.right["total"] += 1
            if source_outcome != "pass":
                show_one(f"right {source_outcome} (pdf {pdf_outcome}): {_where(cell)} '{cell.printed}': {detail}")
    for kind, cell, value, moved in slips(gold):
        table, page = cell.table, cell.page
        if moved:
            table, page_text = moved.rsplit("@", 1)
            page = int(page_text)
        if page > pdf.page_count:
            continue
        where = ("bench", "table cell", page, table, cell.row, cell.column)
        claim = (CellUncertainty("bench", "uncertainty", *where[2:], f"\u00b1 {value}", False)  # type: ignore
                 if kind == "neighbouring \u00b1" else TableCell(*where, value))  # type: ignore[arg-type]
        pdf_outcome, source_outcome, detail = both(claim)
        counts.slips["total"] += 1
        counts.slips[f"pdf {pdf_outcome}"] += 1
        counts.slips[f"source {source_outcome}"] += 1
        caught = "fail" in (pdf_outcome, source_outcome)
        passed = "pass" in (pdf_outcome, source_outcome)
        counts.slips["caught"] += caught and not passed
        counts.slips["passed"] += passed
        if passed or not caught:
            show_one(f"slip {kind} pdf {pdf_outcome}, source {source_outcome}: {table} p.{page} row '{cell.row}' "
                     f"column '{cell.column}' value {value}: {detail}")
    return counts


def _where(cell: Gold) -> str:
    return f"{cell.table} p.{cell.page} row '{cell.row}' column '{cell.column}'"


def _line(name: str, c: Counts) -> str:
    total = max(c.right["total"], 1)
    slips_total = c.slips["total"]
    return (f"{name:28s} right {c.right['total']:5d}: source {100 * c.right['source pass'] / total:5.1f}% "
            f"pdf {100 * c.right['pdf pass'] / total:5.1f}% either {100 * c.right['confirmed'] / total:5.1f}%  "
            f"fail source {c.right['source fail']:3d} pdf {c.right['pdf fail']:3d} | slips {slips_total:5d}: caught "
            f"source {c.slips['source fail']:5d} pdf {c.slips['pdf fail']:5d}, caught by one and passed by none "
            f"{c.slips['caught']:5d}, passed {c.slips['passed']:3d}  read {c.seconds:.2f}s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=Path, default=PAPERS)
    parser.add_argument("--only", default="", help="comma-separated paper slugs")
    parser.add_argument("--show", type=int, default=0, help="print this many unconfirmed cells and slips per paper")
    parser.add_argument("--held-out", default=",".join(HELD_OUT),
                        help="comma-separated slugs measured apart (default: the eight kept aside)")
    parser.add_argument("--only-held-out", action="store_true", help="measure the held-out papers, alone")
    parser.add_argument("--no-pdf", action="store_true", help="the source witness alone (faster)")
    args = parser.parse_args(argv)
    held = set(filter(None, args.held_out.split(",")))
    folders = sorted(p for p in args.papers.iterdir() if (p / "cells.tsv").is_file() and (p / "source").is_dir())
    folders = [f for f in folders if (f.name in held) == args.only_held_out]
    if args.only:
        wanted = set(args.only.split(","))
        folders = [f for f in folders if f.name in wanted]
    overall = Counts()
    print(f"{'held-out papers' if args.only_held_out else 'papers (held-out left out: ' + str(len(held)) + ')'}")
    for folder in folders:
        source = main_file(folder)
        if source is None:
            print(f"{folder.name:28s} no source file (source/SOURCE-FILES.md says why)")
            continue
        counts = run_paper(folder, source, args.show, not args.no_pdf)
        overall.right += counts.right
        overall.slips += counts.slips
        overall.seconds += counts.seconds
        print(_line(folder.name, counts) + (f"  ERROR {counts.error}" if counts.error else ""), flush=True)
        for text in counts.shown:
            print(f"    {text[:400]}")
    print(_line("overall", overall))
    total = overall.right["total"]
    met = {
        "at least 99.5% of right claims confirmed by at least one witness": overall.right["confirmed"] >= 0.995 * total,
        "no right claim fails either witness": overall.right["source fail"] + overall.right["pdf fail"] == 0,
        "every slip fails at least one witness and passes none": overall.slips["caught"] == overall.slips["total"],
    }
    for target, ok in met.items():
        print(f"target {'met    ' if ok else 'NOT met'}: {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
