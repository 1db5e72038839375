"""Benchmark: every gold table cell of the real papers in ``../shared/papers`` through the review's cell check.

Each paper folder holds ``paper.pdf`` and ``cells.tsv`` (the cells as printed, transcribed from
the document's own source independently of any extractor; format in ``FORMAT.md`` there). Every gold cell
is checked, with both extractors as ``registry review`` checks it (``registry.checking.agreement.check_both``):

- **right**: the cell's value (and its ±, where one is printed) cited at its own table, page, row
  and column. Each must pass; the verdicts are counted apart: pass, fail, cannot check;
- **slips** a curator makes, each of which must fail: the value of the neighbouring row (same column), of the
  neighbouring column (same row), a ± taken from the neighbouring cell, and the right value cited in the wrong
  table (another table of the paper, on its page) or on the wrong page (the page after, or before, with the same
  label), and the form dropped (a range's lower end or a bound's number filed as a point value;
  ``registry.printed_forms``). A slip is *caught* only where it fails: one the review "cannot check" is not caught
  (a curator is told
  nothing is wrong with it), and is counted apart. A slip whose value equals the right one is no slip and is left out.

Every figure is given per paper, per producer (the program that made the PDF: its ``SOURCE.md`` line
"PDF producer / creator", else the PDF's own Producer and Creator, as ``pdfinfo`` prints them) and overall. The
papers kept aside to measure whether a change generalises (``--held-out``; by default the three the corpus keeps
aside) are reported apart from the rest, with their own per-producer figures and targets; ``--no-held-out`` leaves
them out altogether (a developer tuning the reader never runs on them).

Seconds per page (``s/page``): the time to extract a paper's pages (both extractors) shared out over its
pages, plus reading its tables and checking every claim above, per page that holds a gold table. Reading
alone (``read s/page``): reading every cited table on its page with both extractors' words, nothing cached,
per page of tables (the issue's target: under 0.5 s): the grid, and the crossing's regions beside the captions, as
``--reader`` asks.

``--reader`` picks the readings of a cited cell the review tries (``review.tables.cited.READINGS``): ``grid`` (the whole
table's grid alone), ``crossing`` (where the row's line and the column's header cross, alone:
``review.tables.crossing``), ``both`` (the review's own: the grid, and the crossing only where the grid cannot read the
cell; the default).

Usage: ``python benchmarks/bench_tables.py [--papers DIR | --layouts | --generated] [--only SLUG,...]
[--held-out SLUG,...] [--no-held-out] [--show N] [--reader grid|crossing|both]``
(``--layouts`` measures the generated layouts of ``tests/data/layouts`` and ``tests/data/producers`` instead of
the real papers; ``--generated`` the LaTeX conventions of ``tests/data/generated``, reported per convention as
the producer 'TeX <convention>'; every run reports per producer too)
(``--show`` prints the first N right cells that did not pass, with the review's message, per paper).
A benchmark to run by hand, not a timed test.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy
PAPERS = ROOT.parent / "shared" / "papers"
if not PAPERS.is_dir():
    PAPERS = Path("/work/shared/papers")
# The second corpus: generated LaTeX layouts the real papers lack (test fixtures, invented numbers; build.sh there)
LAYOUTS = ROOT / "tests" / "data" / "layouts"
# The third: one gold table typeset by several producers (test fixtures; generate.py there), measured with --layouts
PRODUCERS = ROOT / "tests" / "data" / "producers"
# The fourth: LaTeX tables across the conventions real papers use, several seeded variations of each (test
# fixtures; generate.py there), measured with --generated and reported per convention
GENERATED = ROOT / "tests" / "data" / "generated"


_PLUS_MINUS = re.compile(r"(?:\u00b1|\+/-)\s*(\d[\d,]*(?:\.\d+)?|\.\d+)|\((\d[\d,]*(?:\.\d+)?|\.\d+)\)")
_FIRST_NUMBER = re.compile(r"[-+\u2212\u2013]?(?:\d{1,3}(?:[ \u2009\u202f]\d{3})+(?![\d,])(?:\.\d+)?"
                           r"|\d[\d,]*(?:\.\d+)?|\.\d+)(?:[eE][-+\u2212]?\d+)?")


@dataclass(frozen=True)
class Gold:
    """One gold cell, as cells.tsv gives it."""

    table: str
    page: int
    row: str
    column: str
    printed: str
    value: str
    plus_minus: str
    interval: str = ""

    @property
    def printed_plus_minus(self) -> str:
        """The ± as a curator types it from the page: '± .02' where the cell prints '0.321±.02', '(85.5)' after a
        value in parentheses; the gold's plain decimal where neither is printed."""
        found = _PLUS_MINUS.search(self.printed)
        return f"\u00b1 {found.group(1) or found.group(2)}" if found else f"\u00b1 {self.plus_minus}"

    @property
    def printed_value(self) -> str:
        """The value as a curator would type it from the page: the cell read as one number by the project's one
        reading of printed numbers ('1 · 10⁴' whole), else its first number, its sign as printed."""
        from registry.numbers import read_number

        reading = read_number(self.printed)
        if reading.value is not None:
            return reading.number
        found = _FIRST_NUMBER.search(self.printed)
        return found.group(0) if found else self.value


    @property
    def shape(self) -> dict[str, str]:
        """How a curator files the cell's form beside its value (``registry.printed_forms``): a range's upper end
        where the gold gives an interval and the cell prints only it ('0.619 – 0.838'), a bound's sign ('> 1
        hour'); {} for a value."""
        from registry.printed_forms import read_printed

        form = read_printed(self.printed)
        if form is None:
            return {}
        if form.upper and self.interval:
            return {"upper": form.upper}
        return {"bound": form.bound} if form.bound else {}


def read_gold(path: Path) -> list[Gold]:
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [Gold(r["table"], int(r["page"]), r["row"], r["column"], r["printed"], r["value"], r["plus_minus"] or "",
                 r.get("interval") or "") for r in rows]


def verdict(assertion: object) -> str:
    """'pass', 'fail' or 'cannot check', as the review counts them."""
    outcome = getattr(assertion, "outcome", None)
    if outcome in ("pass", "fail", "cannot check"):
        return str(outcome)
    return "pass" if getattr(assertion, "passed", False) else "fail"


def _same(a: str, b: str) -> bool:
    from decimal import Decimal, InvalidOperation

    try:
        return Decimal(a.replace(",", "")) == Decimal(b.replace(",", ""))
    except InvalidOperation:
        return a == b


def _name(path: str) -> str:
    from review.pdf.words import squeezed

    return squeezed(path).lower()


def slips(cells: list[Gold]) -> list[tuple[str, Gold, str, str]]:
    """(kind, cited cell, value or ±, table-or-page change) for each slip of each cell."""
    by_column: dict[tuple[str, int, str], list[Gold]] = defaultdict(list)
    by_row: dict[tuple[str, int, str], list[Gold]] = defaultdict(list)
    for cell in cells:
        by_column[(cell.table, cell.page, cell.column)].append(cell)
        by_row[(cell.table, cell.page, cell.row)].append(cell)
    tables = sorted({(c.table, c.page) for c in cells})
    pages = {c.page for c in cells}
    # names compared as the review compares them (squeezed: 'SimplePatch(Ours)' is 'SimplePatch (Ours)'), so that
    # the right value of a cell that another table prints under the same names is no slip
    printed = {(c.table, c.page, _name(c.row), _name(c.column)): c.printed_value for c in cells}
    out: list[tuple[str, Gold, str, str]] = []
    for cell in cells:
        neighbours = []
        for kind, group in (("neighbouring row", by_column[(cell.table, cell.page, cell.column)]),
                            ("neighbouring column", by_row[(cell.table, cell.page, cell.row)])):
            at = group.index(cell)
            near = [group[i] for i in (at + 1, at - 1) if 0 <= i < len(group)]
            other = next((n for n in near if not _same(n.printed_value, cell.printed_value)), None)
            if other is not None:
                out.append((kind, cell, other.printed_value, ""))
            neighbours += near
        if cell.plus_minus:
            other = next((n for n in neighbours if n.plus_minus and not _same(n.plus_minus, cell.plus_minus)), None)
            if other is not None:
                out.append(("neighbouring \u00b1", cell, other.plus_minus, ""))
        elsewhere = next((t for t in tables if t[0] != cell.table and not _same(
            printed.get((t[0], t[1], _name(cell.row), _name(cell.column)), "x"), cell.printed_value)), None)
        if elsewhere is not None:
            out.append(("wrong table", cell, cell.printed_value, f"{elsewhere[0]}@{elsewhere[1]}"))
        if cell.shape:  # a range's lower end or a bound's number filed as a point value: the form dropped
            out.append(("form dropped", cell, cell.printed_value, ""))
        # the same label on another page is no slip where the table goes on there with the same cell
        wrong_page = cell.page + 1 if cell.page + 1 not in pages or cell.page == 1 else cell.page - 1
        if wrong_page != cell.page and not _same(printed.get((cell.table, wrong_page, _name(cell.row),
                                                              _name(cell.column)), "x"),
                                                 cell.printed_value):
            out.append(("wrong page", cell, cell.printed_value, f"{cell.table}@{wrong_page}"))
    return out


#: A slip's verdict as this benchmark counts it: only a failure catches a slip.
SLIP_VERDICTS = {"fail": "caught", "cannot check": "cannot check", "pass": "passed"}


@dataclass
class PaperResult:
    slug: str
    producer: str
    right: Counter[str]
    slips: Counter[str]
    slip_kinds: dict[str, Counter[str]]
    seconds: float
    reading: float
    table_pages: int
    cells: int
    unpassed: list[tuple[Gold, str, str]]
    passed_slips: list[tuple[str, Gold, str]]


def run_paper(folder: Path) -> PaperResult:
    from registry.checking.agreement import check_both
    from registry.checking.cells import TableCell
    from registry.checking.uncertainty import CellUncertainty
    from review.pdf.extract import read_pdf
    from review.tables.cited import READINGS
    from review.tables.crossing_region import table_regions
    from review.tables.read import read_tables

    gold = read_gold(folder / "cells.tsv")
    started = time.perf_counter()
    readings = read_pdf(folder / "paper.pdf")
    extracted = time.perf_counter() - started
    page_count = readings.primary.page_count
    started = time.perf_counter()
    right: Counter[str] = Counter()
    unpassed: list[tuple[Gold, str, str]] = []
    for cell in gold:
        where = ("bench", "table cell", cell.page, cell.table, cell.row, cell.column)
        claims = [TableCell(*where, cell.printed_value, **cell.shape)]  # type: ignore[arg-type]
        if cell.plus_minus:
            claims.append(CellUncertainty("bench", "uncertainty", *where[2:], cell.printed_plus_minus, False))
        for claim in claims:
            assertion = check_both(claim, readings)
            outcome = verdict(assertion)
            right[outcome] += 1
            if outcome != "pass":
                unpassed.append((cell, claim.claim, f"{outcome}: {assertion.detail}"))
    caught: Counter[str] = Counter()
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    passed_slips: list[tuple[str, Gold, str]] = []
    for kind, cell, value, moved in slips(gold):
        table, page = cell.table, cell.page
        if moved:
            table, page_text = moved.rsplit("@", 1)
            page = int(page_text)
        if page > page_count:
            continue
        where = ("bench", "table cell", page, table, cell.row, cell.column)
        claim = (CellUncertainty("bench", "uncertainty", *where[2:], f"\u00b1 {value}", False)  # type: ignore[arg-type]
                 if kind == "neighbouring \u00b1" else  # the right value elsewhere keeps the form it is filed in
                 TableCell(*where, value, **(cell.shape if moved else {})))  # type: ignore[arg-type]
        outcome = verdict(check_both(claim, readings))
        name = SLIP_VERDICTS[outcome]
        caught[name] += 1
        kinds[kind][name] += 1
        if outcome == "pass":
            passed_slips.append((kind, cell, f"{value} at {table} p.{page}"))
    checked = time.perf_counter() - started
    table_pages = len({c.page for c in gold})
    started = time.perf_counter()
    for doc in readings.all:  # reading alone: every cited table on its page, both extractors, nothing cached
        for page, label in {(c.page, c.table) for c in gold}:
            words = doc.page_words(page)
            if words is not None and "grid" in READINGS:
                read_tables(words, label, doc.page_words(page - 1) if page > 1 else None)
            if words is not None and "crossing" in READINGS:  # the crossing's one reading of a page: the regions
                table_regions(words, label)
    reading = (time.perf_counter() - started) / table_pages
    seconds = (extracted * table_pages / page_count + checked) / table_pages
    return PaperResult(folder.name, producer_of(folder), right, caught, kinds, seconds, reading, table_pages,
                       len(gold), unpassed, passed_slips)


#: Producer families, by a word the PDF's Producer or Creator prints (first match wins): the program that set the
#: page, not the one that wrote the file ('Acrobat PDFMaker for Word' is Word).
_FAMILIES = (("typst", "Typst"), ("chrom", "Chromium"), ("skia", "Chromium"), ("word", "Word"),
             ("distiller", "Acrobat Distiller"), ("pdflib", "PDFlib"), ("arbortext", "PDFlib"),
             ("libreoffice", "LibreOffice"), ("openoffice", "LibreOffice"), ("tex", "TeX"), ("pandoc", "TeX"))
_STATED = re.compile(r"PDF producer / creator[^:]*:\*\*(.*)", re.IGNORECASE)


def producer_of(folder: Path) -> str:
    """The family of the program that made ``folder``'s PDF: a generated layout's producer (its folder under
    ``PRODUCERS``; every folder of ``LAYOUTS`` is TeX), else as its SOURCE.md states it, else as the PDF's metadata
    (Producer, Creator) names it; 'unknown' where neither says."""
    if folder.parent == PRODUCERS:  # a generated layout: its folder names its producer (libreoffice-odt)
        return folder.name.split("-")[0]
    if folder.parent == GENERATED:  # reported per convention: the folder's name less its seed
        return "TeX " + folder.name.rsplit("-", 1)[0]
    if folder.parent == LAYOUTS:
        return "TeX"
    source = folder / "SOURCE.md"
    stated = _STATED.search(source.read_text(encoding="utf-8")) if source.is_file() else None
    text = stated.group(1) if stated else _metadata_producer(folder / "paper.pdf")
    lowered = text.lower()
    return next((family for word, family in _FAMILIES if word in lowered), "unknown")


def _metadata_producer(pdf: Path) -> str:
    import pypdf

    try:
        metadata = pypdf.PdfReader(pdf).metadata
        return "" if metadata is None else f"{metadata.get('/Producer', '')} {metadata.get('/Creator', '')}"
    except Exception:  # noqa: BLE001 - a PDF whose metadata cannot be read has no producer to name
        return ""


def _right(c: Counter[str]) -> str:
    total = sum(c.values())
    return (f"{c['pass']:5d}/{total:<5d} pass {100 * c['pass'] / max(total, 1):5.1f}%  fail {c['fail']:4d}  "
            f"cannot {c['cannot check']:4d}")


def _slips(c: Counter[str]) -> str:
    total = sum(c.values())
    return (f"caught (fail) {c['caught']:5d}/{total:<5d} {100 * c['caught'] / max(total, 1):5.1f}%  passed "
            f"{c['passed']:4d}  cannot {c['cannot check']:5d}")


#: ``--reader``: the readings ``review.tables.cited`` tries, in turn.
_READERS = {"grid": ("grid",), "crossing": ("crossing",), "both": ("grid", "crossing")}


#: The papers ``../shared/papers`` keeps aside to measure whether a change generalises: never tuned on.
HELD_OUT = ("sonneck-im2im-2023", "winninger-rerouting-2025", "wang-gds-2021")
_HEADING = f"{'paper':28s} {'producer':18s} {'right claims (cell value and ±)':54s} {'slips':48s} s/page read s/page"


def _line(name: str, producer: str, right: Counter[str], slipped: Counter[str], seconds: float, reading: float) -> str:
    return f"{name:28s} {producer:18s} {_right(right):54s} {_slips(slipped):48s} {seconds:.3f}  {reading:.3f}"


def report(results: list[PaperResult], title: str) -> dict[str, bool]:
    """Print the figures of ``results`` per producer and overall, under ``title``; the targets and whether each
    is met."""
    print(f"-- {title}: by producer and overall")
    groups: dict[str, list[PaperResult]] = defaultdict(list)
    for r in results:
        groups[r.producer].append(r)
    for name, members in sorted(groups.items()):
        _summary(f"{name} ({len(members)})", members)
    right, caught, slowest = _summary("overall", results)
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    for r in results:
        for kind, c in r.slip_kinds.items():
            kinds[kind] += c
    for kind, c in sorted(kinds.items()):
        print(f"    slips, {kind:22s} {_slips(c)}")
    total = sum(right.values())
    return {
        "at least 99% of right claims pass": right["pass"] >= 0.99 * total,
        "no right claim fails": right["fail"] == 0,
        "every slip caught (fails; 'cannot check' is not caught)": caught["caught"] == sum(caught.values()),
        "reading a page of tables under 0.5 s (slowest paper, both extractors)": slowest.reading < 0.5,
    }


def _summary(name: str, results: list[PaperResult]) -> tuple[Counter[str], Counter[str], PaperResult]:
    right = sum((r.right for r in results), Counter())
    caught = sum((r.slips for r in results), Counter())
    pages = sum(r.table_pages for r in results)
    seconds = sum(r.seconds * r.table_pages for r in results) / max(pages, 1)
    reading = sum(r.reading * r.table_pages for r in results) / max(pages, 1)
    print(_line(name, "", right, caught, seconds, reading))
    return right, caught, max(results, key=lambda r: r.reading)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=Path, default=PAPERS)
    parser.add_argument("--layouts", action="store_true", help=f"measure the generated layouts in {LAYOUTS}")
    parser.add_argument("--generated", action="store_true",
                        help=f"measure the generated conventions in {GENERATED}, per convention")
    parser.add_argument("--only", default="", help="comma-separated paper slugs")
    parser.add_argument("--held-out", default=",".join(HELD_OUT),
                        help="comma-separated slugs of the papers kept aside, reported apart (default: %(default)s)")
    parser.add_argument("--no-held-out", action="store_true", help="leave the held-out papers out altogether")
    parser.add_argument("--show", type=int, default=0, help="print this many unpassed right cells per paper")
    parser.add_argument("--reader", choices=sorted(_READERS), default="both",
                        help="the readings of a cited cell to measure (default: both, as the review reads)")
    args = parser.parse_args(argv)
    import review.tables.cited

    review.tables.cited.READINGS = _READERS[args.reader]
    print(f"reader: {args.reader} ({' then '.join(review.tables.cited.READINGS)})")
    roots = [LAYOUTS, PRODUCERS] if args.layouts else [GENERATED] if args.generated else [args.papers]
    folders = sorted((p for root in roots for p in root.iterdir()
                      if (p / "cells.tsv").is_file() and (p / "paper.pdf").is_file()), key=lambda p: p.name)
    if args.only:
        wanted = set(args.only.split(","))
        folders = [f for f in folders if f.name in wanted]
    if not folders:
        print(f"no papers with cells.tsv and paper.pdf under {', '.join(map(str, roots))}")
        return 1
    held_out = {slug for slug in args.held_out.split(",") if slug}
    if args.no_held_out:
        folders = [f for f in folders if f.name not in held_out]
    results = []
    print(_HEADING)
    for folder in folders:
        result = run_paper(folder)
        results.append(result)
        print(_line(result.slug + (" (held out)" if result.slug in held_out else ""), result.producer, result.right,
                    result.slips, result.seconds, result.reading), flush=True)
        for cell, claim, why in result.unpassed[:args.show]:
            print(f"    {claim}: {cell.table} p.{cell.page} row '{cell.row}' column '{cell.column}' "
                  f"'{cell.printed}': {why[:300]}")
        for kind, cell, what in result.passed_slips[:args.show]:
            print(f"    slip passed ({kind}): {cell.table} p.{cell.page} row '{cell.row}' column '{cell.column}' "
                  f"cited {what}")
    for title, part in (("papers tuned on", [r for r in results if r.slug not in held_out]),
                        ("papers held out", [r for r in results if r.slug in held_out])):
        if not part:
            continue
        met = report(part, title)
        print(f"cells {sum(r.cells for r in part)}, pages of tables {sum(r.table_pages for r in part)}")
        for target, ok in met.items():
            print(f"target {'met    ' if ok else 'NOT met'} ({title}): {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
