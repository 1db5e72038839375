"""Benchmark: ``registry review`` of every claim of a paper, with both extractors.

Two measurements, each printing seconds (the fastest of ``--repeats`` runs, since the machine is shared):

- **fixture**: the LaTeX fixture paper (5 pages, tests/data/papers/genomic-benchmarks-fixture) with its
  transcription (tests/data/fixture-registry): every claim of every record that cites it;
- **generated**: papers drawn with fpdf2 (11 and 50 pages by default), each page a captioned table
  of 10 rows by 4 columns of 'mean ± s.d.' cells, with one result record per cell on a chosen number
  of pages (``--claims``; 500 for the 50-page paper), each checked for its cell, its ± and the words
  for its kind of uncertainty in the caption.

The targets (issue 12): every claim of an 11-page paper in under 2 s, and a 50-page paper with 500
table claims in under 20 s, on the development machine. Usage:
``python benchmarks/bench_review.py [--pages 11,50] [--claims 440,500] [--repeats 3] [--one-extractor]``.
Needs fpdf2 (the ``test`` extra). This is a benchmark to run by hand, not a timed test.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import shutil
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy
FIXTURE = ROOT / "tests" / "data" / "papers" / "genomic-benchmarks-fixture" / "paper.pdf"
FIXTURE_RECORDS = ROOT / "tests" / "data" / "fixture-registry"
BATCH = "bench-20261201"
COLUMNS = ("Task A", "Task B", "Task C", "Task D")
ROWS = 10


def cell(page: int, row: int, column: int) -> tuple[str, str]:
    """A deterministic 'mean ± s.d.' for a cell (invented numbers)."""
    seed = (page * 131 + row * 17 + column * 7) % 997
    return f"0.{500 + seed % 400:03d}", f"0.{10 + seed % 20:03d}"


def make_pdf(path: Path, pages: int) -> None:
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(dt.datetime(2024, 6, 1, tzinfo=dt.UTC))
    font = next(p for p in (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),) if p.is_file())
    pdf.add_font("DejaVu", "", str(font))
    for page in range(1, pages + 1):
        pdf.add_page()
        pdf.set_font("DejaVu", "", 11)
        pdf.multi_cell(0, 5, "Benchmark Fixture Paper: synthetic, invented numbers for timing registry review. "
                       f"Page {page} holds one table.", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
        pdf.set_font("DejaVu", "", 9)
        pdf.multi_cell(0, 5, f"Table {page}: Scores of ten models on four tasks, mean \u00b1 s.d. over 5 seeds.",
                       new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
        for text, width in (("Model", 30), *((c, 36) for c in COLUMNS)):
            pdf.cell(width, 6, text, border="B")
        pdf.ln(6)
        for row in range(1, ROWS + 1):
            pdf.cell(30, 6, f"Model {row}")
            for column in range(len(COLUMNS)):
                mean, sd = cell(page, row, column)
                pdf.cell(36, 6, f"{mean} \u00b1 {sd}")
            pdf.ln(6)
    pdf.output(str(path))


def write(folder: Path, kind: str, record: dict[str, object]) -> None:
    (folder / kind).mkdir(parents=True, exist_ok=True)
    (folder / kind / f"{record['id']}.yaml").write_text(yaml.safe_dump(record, sort_keys=False, allow_unicode=True))


def make_records(folder: Path, pdf: Path, pages: int, claims: int) -> str:
    source = f"{BATCH}-source-benchmark-paper-{pages}"
    write(folder, "source", {
        "kind": "source", "id": source, "title": "Benchmark Fixture Paper", "authors": ["Registry Benchmarks"],
        "year": 2024, "venue": "none (a generated benchmark)", "role": "original", "host": "benchmarks/",
        "heading": "Benchmark Fixture Paper", "page_count": pages, "pdf_creation_date": "2024-06-01",
        "sha256": hashlib.sha256(pdf.read_bytes()).hexdigest(), "hash_scope": "the generated file",
        "missing_metadata": [{"field": "retrieval_url", "reason": "not-applicable"}]})
    write(folder, "family", {"kind": "family", "id": f"{BATCH}-family-models", "name": "Models"})
    write(folder, "protocol", {"kind": "protocol", "id": f"{BATCH}-protocol-score", "name": "Score", "source": source})
    write(folder, "dataset", {"kind": "dataset", "id": f"{BATCH}-dataset-tasks", "name": "Tasks", "source": source,
                              "splits": [], "missing_metadata": [{"field": "version", "reason": "unreported"},
                                                                 {"field": "splits", "reason": "unreported"}]})
    for row in range(1, ROWS + 1):
        write(folder, "config", {
            "kind": "config", "id": f"{BATCH}-config-model-{row}", "name": f"Model {row}",
            "reported_name": f"Model {row}",
            "model_family": f"{BATCH}-family-models", "source": source,
            "missing_metadata": [{"field": f, "reason": "unreported"} for f in (
                "description", "source_locator", "hardware", "checkpoint", "version", "fine_tuning",
                "training_setting")]})
        write(folder, "evaluation", {
            "kind": "evaluation", "id": f"{BATCH}-evaluation-model-{row}", "name": f"Model {row}",
            "configuration": f"{BATCH}-config-model-{row}", "protocol": f"{BATCH}-protocol-score",
            "dataset": f"{BATCH}-dataset-tasks", "independence": "developer",
            "aggregated_over": {"kind": "seeds", "count": 5},
            "missing_metadata": [{"field": f, "reason": "unreported"} for f in (
                "aggregation", "coverage_scored", "coverage_eligible", "split", "adaptation", "update_mode",
                "scoring_implementation")]})
    made = 0
    for page in range(1, pages + 1):
        for row in range(1, ROWS + 1):
            for column, name in enumerate(COLUMNS):
                if made >= claims:
                    return source
                mean, sd = cell(page, row, column)
                write(folder, "result", {
                    "kind": "result", "id": f"{BATCH}-result-p{page}-r{row}-c{column}",
                    "evaluation": f"{BATCH}-evaluation-model-{row}", "metric": "score", "metric_direction": "higher",
                    "metric_qualifier": name, "unit": "dimensionless", "printed_value": mean, "numeric_value": mean,
                    "uncertainty": {"kind": "standard-deviation", "printed": f"\u00b1 {sd}", "half_width": sd,
                                    "over": {"kind": "seeds", "count": 5}},
                    "source": source, "source_locator": {"table": f"Table {page}", "row": f"Model {row}",
                                                         "column": name, "page": page},
                    "missing_metadata": [{"field": "hardware", "reason": "unreported"}]})
                made += 1
    return source


def timed(run: object, repeats: int) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        value = run()  # type: ignore[operator]
        best = min(best, time.perf_counter() - started)
    return best, value


def review(records: Path, record_id: str, pdf: Path, cache: Path, second: bool, repeats: int) -> None:
    from registry.checking.review import run_review
    from registry.validate.runner import validate

    registry, report = validate(records)
    assert report.valid, [i.message for i in report.errors[:3]]
    seconds, run = timed(lambda: run_review(registry, record_id, pdf=pdf, cache_dir=cache, second=second), repeats)
    failed = len(run.failures)  # type: ignore[attr-defined]
    total = len(run.assertions)  # type: ignore[attr-defined]
    cells = run.cells_checked  # type: ignore[attr-defined]
    pages = run.extraction.page_count  # type: ignore[attr-defined]
    print(f"| {pdf.name} | {pages} | {cells} | {total} | {failed} | {seconds:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", default="11,50")
    parser.add_argument("--claims", default="440,500")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--one-extractor", action="store_true", help="check with pypdf and PDFium only")
    options = parser.parse_args()
    second = not options.one_extractor
    work = Path(tempfile.mkdtemp(prefix="bench-review-"))
    try:
        print("| paper | pages | table cells | assertions | failed | seconds |\n|---|---|---|---|---|---|")
        review(FIXTURE_RECORDS, "fixture-genomic-20261201-source-genomic-benchmarks-fixture", FIXTURE,
               work / "cache", second, options.repeats)
        for pages, claims in zip((int(p) for p in options.pages.split(",")),
                                 (int(c) for c in options.claims.split(",")), strict=True):
            folder = work / f"records-{pages}"
            pdf = work / f"benchmark-{pages}-pages.pdf"
            make_pdf(pdf, pages)
            source = make_records(folder, pdf, pages, claims)
            review(folder, source, pdf, work / "cache", second, options.repeats)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
