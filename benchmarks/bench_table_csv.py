"""Benchmark: ``registry table --format csv`` on every table of the corpus, against its gold cells.

For each (paper, page, table) of ``../shared/papers/*/cells.tsv``, the page is read as ``registry table``
reads it (``review.tables.grid.read_page``, both extractors) and turned into import rows (``import_rows``). Each gold
cell is then:

- **carried**: a CSV row at the gold's row path and column path, with the gold's value;
- **misplaced**: a CSV row with the gold's value, but at another row or column path than the gold's;
- **missing**: no CSV row has it (left out, with a reason, or never read); of these, those in a table the
  reader did not find on its page are counted again as **in tables not found**.

CSV rows at a path the gold does not hold are counted as **unmatched** (a header or row misread; the review
reads the page the same way, so these still pass review, which is why a curator checks the grid). A ``#N``
gold row (a repeated label) cannot be cited by a record, so it is missing by design. Seconds per page are the
wall time of reading the page with both extractors and building its rows.

Usage: ``python benchmarks/bench_table_csv.py [--corpus DIR] [--papers slug,slug]``. A benchmark to run by
hand, not a timed test.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import Counter
from decimal import Decimal, InvalidOperation
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy


def _number(text: str) -> Decimal | None:
    """The number the import reads in a value as printed (a range's lower end, a bound's number, a power)."""
    from registry.curate.values import split_printed
    from registry.numbers import parse_printed

    try:
        return parse_printed(split_printed(text)[1]) if text else None
    except (InvalidOperation, ValueError):
        return None


def measure(paper: Path) -> tuple[Counter[str], list[float]]:
    from registry.errors import RegistryError
    from review.tables.grid import read_page
    from review.tables.grid_import import import_rows

    gold = list(csv.DictReader((paper / "cells.tsv").open(encoding="utf-8"), delimiter="\t"))
    counts: Counter[str] = Counter()
    seconds: list[float] = []
    for page, label in sorted({(int(g["page"]), g["table"]) for g in gold}):
        cells = [g for g in gold if int(g["page"]) == page and g["table"] == label]
        start = time.perf_counter()
        try:
            rows = import_rows(read_page(paper / "paper.pdf", page, label)).rows
        except RegistryError:
            rows = ()
            counts["not found"] += len(cells)
        seconds.append(time.perf_counter() - start)
        at = {(r["row"], r["column"]): _number(r["value"]) for r in rows}
        values = Counter(_number(r["value"]) for r in rows)
        for cell in cells:
            value = Decimal(cell["value"])
            if at.get((cell["row"], cell["column"])) == value:
                counts["carried"] += 1
            elif values[value]:
                counts["misplaced"] += 1
            else:
                counts["missing"] += 1
        paths = {(c["row"], c["column"]) for c in cells}
        counts["unmatched"] += sum(1 for key in at if key not in paths)
        counts["gold"] += len(cells)
    return counts, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "papers")
    parser.add_argument("--papers", default="", help="comma-separated slugs (default: all)")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}; pass --corpus DIR", file=sys.stderr)
        return 1
    wanted = {s for s in args.papers.split(",") if s}
    total: Counter[str] = Counter()
    all_seconds: list[float] = []
    print("| paper | gold cells | carried | misplaced | missing | in tables not found | unmatched CSV rows "
          "| s per page (max) |")
    print("|---|---|---|---|---|---|---|---|")
    for paper in sorted(p for p in args.corpus.iterdir() if (p / "cells.tsv").is_file()):
        if wanted and paper.name not in wanted:
            continue
        counts, seconds = measure(paper)
        total += counts
        all_seconds += seconds
        print(f"| {paper.name} | {counts['gold']} | {counts['carried']} | {counts['misplaced']} | {counts['missing']} "
              f"| {counts['not found']} | {counts['unmatched']} | {sum(seconds) / len(seconds):.2f} "
              f"({max(seconds):.2f}) |")
    mean = sum(all_seconds) / len(all_seconds) if all_seconds else 0.0
    print(f"| **all** | {total['gold']} | {total['carried']} | {total['misplaced']} | {total['missing']} "
          f"| {total['not found']} | {total['unmatched']} | {mean:.2f} ({max(all_seconds, default=0.0):.2f}) |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
