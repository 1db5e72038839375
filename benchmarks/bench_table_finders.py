"""Benchmark: pdfplumber's and camelot's table finders against the registry's own reader, on the gold cells of
the real papers in ``../shared/papers`` (issue 22: "measure the approaches ... and keep what measures best").

Every gold cell of every ``cells.tsv`` is looked up on its page by each approach and scored as the review's cell
check scores a right record (``TableCell``), and as the two neighbour slips of ``bench_tables`` (the value of the
neighbouring row, of the neighbouring column; caught = not pass):

- ``registry``: the review's own check (``registry.checking.cells.TableCell`` through
``registry.checking.agreement.check_both``, both
  extractors, as ``registry review`` runs it); the cell's value only, no ± claims, so that all approaches answer
  the same question;
- ``pdfplumber-lines``: ``page.find_tables()`` with pdfplumber's default settings (ruling lines);
- ``pdfplumber-text``: ``page.find_tables({"vertical_strategy": "text", "horizontal_strategy": "text"})``;
- ``camelot-stream``: ``camelot.read_pdf(path, pages=N, flavor="stream")``;
- ``camelot-lattice``: ``camelot.read_pdf(path, pages=N, flavor="lattice")`` (the grid drawn with rules: boxed
  tables of word processors, web pages and Typst).

A finder gives grids of cell texts with their regions on the page; the same reading turns each into rows and
columns for all three (``read_grid``), and the same rules locate the cited cell (``locate``):

1. **Which grid is the cited table.** The captions of the page are found with the registry's own caption rules
   (``review.tables.captions.find_captions`` and ``starts_caption``, over pdfplumber's words; a figure's caption claims
   no grid). A grid that holds a caption line as one of its rows is cut there (the text strategy's grid of a
   whole page; camelot's grid that starts at the previous table's caption). A page's captions are set on one
   side of their tables, as a document's class sets them: of "every caption over its table" and "every
   caption under its table", the one under which more captions have a grid beside them with two rows of values
   or more (and then the nearer) is kept. The cited caption's grids on that side, with no other caption
   between, are tried nearest first. Where the page has no caption of the label (a table continued from the
   page before, a caption printed sideways), the grids no caption claims are tried, top first.
2. **Header and body.** The header is the grid's rows before its first row of values (a row whose non-empty
   cells after its label are half values or more); the stub is the leading columns whose filled cells in rows
   of values are mostly labels. A body row with labels and no values is a row group over
   the rows under it (in an outer label column, that column's label from there on); an empty outer stub cell
   takes the label above it (a ``\\multirow``), or the nearest one where the first row has none there (a
   ``\\multirow`` centred on its rows); an empty header cell above the bottom header row takes the nearest
   header of its line, the left one on a tie (a spanning ``\\multicolumn``, set centred or flush left).
3. **Row and column.** A row or column matches a gold path as the review's lookup does
   (``review.tables.table.matches``: its last levels, or its levels joined), or where its last levels joined are the
   whole path (a header set on two lines, which a finder gives as two grid rows); exactly one row and one column
   must match, as in the review. A gold ``#N`` (the Nth printing of a repeated label) takes the Nth matching
   row, which the review's locators cannot name (so the finders get those cells, the reader cannot).
4. **Value.** The cell's text is read by the project's one reading of printed numbers
   (``registry.numbers.read_number``), else its first number, and compared with the gold's value: equal is
   pass, another number or none is fail; no grid, row or column found is ``cannot check``.

Seconds per page (``s/page``): for a finder, its own call on the page (parsing the page included, pdfplumber's
page cache emptied between finders); for the registry, both extractors' extraction of the paper shared out
over its pages plus reading every cited table of the page with both extractors' words.

Usage: ``python benchmarks/bench_table_finders.py [--papers DIR] [--only SLUG,...] [--finders NAME,...]
[--show N]``. A finder whose library is not installed is skipped with one line (``pip install -e '.[bench]'``).
A benchmark to run by hand, not a timed test.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy

from benchmarks.bench_tables import _FIRST_NUMBER, PAPERS, Gold, read_gold, slips, verdict  # noqa: E402

#: The slips of ``bench_tables`` that a grid can be asked about (the others move the claim to another table).
SLIP_KINDS = ("neighbouring row", "neighbouring column")
PASS, FAIL, CANNOT = "pass", "fail", "cannot check"
_TABLE = re.compile(r"^tab", re.IGNORECASE)
#: A number's text as a decimal: one minus sign, no thousands separators (',' or a thin space).
_PLAIN_DIGITS = str.maketrans("\u2212\u2013", "--", ", \u2009\u202f")
_REPEAT = re.compile(r"\s+#(\d+)$")
#: A cell that prints a value: a number (after a bound or a bracket), then at most a mark or a unit's letter.
_VALUE_CELL = re.compile(r"^[<>\u2264\u2265~\u2248]?[(\[]?[-+\u2212\u2013]?(?:\d|\.\d)")


# -- what a finder gives ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Grid:
    """One table as a finder found it: its region (points from the page's top-left corner) and its cells' texts."""

    x0: float
    top: float
    x1: float
    bottom: float
    cells: tuple[tuple[str, ...], ...]
    spans: tuple[tuple[float, float], ...] = ()  # each row's top and bottom, where the finder gives them

    @classmethod
    def of(cls, box: tuple[float, float, float, float], rows: list[list[str | None]],
           spans: list[tuple[float, float]] | None = None) -> Grid:
        width = max((len(r) for r in rows), default=0)
        cells = tuple(tuple(_clean(c) for c in r) + ("",) * (width - len(r)) for r in rows)
        return cls(*box, cells, tuple(spans) if spans is not None and len(spans) == len(rows) else ())


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())  # a cell set on two lines comes as 'Set A\nPPL': one line, as printed


@dataclass(frozen=True)
class Caption:
    """A caption's first line on the page: its label ('' for another table's or a figure's) and its box."""

    label: str
    x0: float
    top: float
    x1: float
    bottom: float


# -- the finders -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finder:
    """One approach: its name, the module it needs, and how it finds the grids of one page of an open PDF."""

    name: str
    module: str
    find: Callable[[Path, object, int], list[Grid]] | None  # (path, pdfplumber's PDF, page from 1)

    def missing(self) -> str | None:
        """Why this finder cannot run here (its library is not installed), or None."""
        import importlib.util

        if importlib.util.find_spec(self.module) is None:
            return f"{self.name}: skipped, {self.module} is not installed (pip install -e '.[bench]')"
        return None


def _plumber(settings: dict[str, str]) -> Callable[[Path, object, int], list[Grid]]:
    def find(path: Path, pdf: object, page_number: int) -> list[Grid]:
        page = pdf.pages[page_number - 1]  # type: ignore[attr-defined]
        grids = [Grid.of(t.bbox, t.extract(), [(r.bbox[1], r.bbox[3]) for r in t.rows])
                 for t in page.find_tables(settings)]
        page.flush_cache()  # the next finder parses the page again, as it would alone
        return grids

    return find


def _camelot(flavor: str) -> Callable[[Path, object, int], list[Grid]]:
    def find(path: Path, pdf: object, page_number: int) -> list[Grid]:
        return _camelot_grids(path, pdf, page_number, flavor)

    return find


def _camelot_grids(path: Path, pdf: object, page_number: int, flavor: str) -> list[Grid]:
    import camelot

    height = float(pdf.pages[page_number - 1].height)  # type: ignore[attr-defined]
    grids = []
    for table in camelot.read_pdf(str(path), pages=str(page_number), flavor=flavor):
        x1, y1, x2, y2 = table._bbox  # PDF points from the bottom-left corner
        grids.append(Grid.of((x1, height - y2, x2, height - y1), table.df.values.tolist(),
                             [(height - top, height - bottom) for top, bottom in table.rows]))
    return grids


REGISTRY = Finder("registry", "review", None)
FINDERS = (
    REGISTRY,
    Finder("pdfplumber-lines", "pdfplumber", _plumber({})),
    Finder("pdfplumber-text", "pdfplumber", _plumber({"vertical_strategy": "text", "horizontal_strategy": "text"})),
    Finder("camelot-stream", "camelot", _camelot("stream")),
    Finder("camelot-lattice", "camelot", _camelot("lattice")),
)


# -- captions, with the registry's own rules -------------------------------------------------------


def page_captions(pdf: object, page_number: int, labels: set[str]) -> list[Caption]:
    """Every caption line of the page: those of ``labels`` by the review's caption rule, and any other table's
    or figure's caption start (to tell which grid is whose)."""
    from review.pdf.words import PageWords, Word, lines_of
    from review.tables.captions import find_captions
    from review.tables.lines import starts_caption

    page = pdf.pages[page_number - 1]  # type: ignore[attr-defined]
    words = tuple(Word(w["text"], float(w["x0"]), float(w["top"]), float(w["x1"]), float(w["bottom"]),
                       rotated=not w.get("upright", True)) for w in page.extract_words())
    page.flush_cache()
    pagewords = PageWords(page_number, float(page.width), float(page.height), words)
    captions: list[Caption] = []
    taken: set[tuple[float, float]] = set()
    for label in sorted(labels):
        for line, start in find_captions(pagewords, label):
            first = line.words[start]
            captions.append(Caption(label, first.x0, line.top, line.x1, line.bottom))
            taken.add((line.top, first.x0))
    for line in lines_of(words):  # another table's caption (a figure's claims no grid)
        if starts_caption(line) and _TABLE.match(line.words[0].text) and (line.top, line.x0) not in taken:
            captions.append(Caption("", line.x0, line.top, line.x1, line.bottom))
    return captions


def _gap(grid: Grid, caption: Caption) -> float:
    """The vertical distance between a grid and a caption line (0 where they overlap)."""
    return max(grid.top - caption.bottom, caption.top - grid.bottom, 0.0)


def _beside(grid: Grid, caption: Caption) -> bool:
    return min(grid.x1, caption.x1) > max(grid.x0, caption.x0)


def cut_at_captions(grid: Grid, captions: list[Caption]) -> list[Grid]:
    """A grid cut where a caption line is one of its rows: a caption is no row of a table, and a finder that
    takes one in (the text strategy's grid of the whole page, camelot's grid that starts at the previous table's
    caption) has joined what lies above it to what lies below. Grids without row positions stay whole."""
    if not grid.spans:
        return [grid]
    held = {i for i, (top, bottom) in enumerate(grid.spans) for c in captions
            if _beside(grid, c) and min(bottom, c.bottom) - max(top, c.top) > 0.4 * (c.bottom - c.top)}
    if not held:
        return [grid]
    pieces, run = [], []
    for i in [*range(len(grid.cells)), -1]:
        if i != -1 and i not in held:
            run.append(i)
            continue
        if any(any(grid.cells[k]) for k in run):
            pieces.append(Grid(grid.x0, grid.spans[run[0]][0], grid.x1, grid.spans[run[-1]][1],
                               tuple(grid.cells[k] for k in run), tuple(grid.spans[k] for k in run)))
        run = []
    return pieces


def _claims(grids: list[Grid], captions: list[Caption], below: bool) -> dict[int, list[int]]:
    """For each caption, the grids on one side of it (under it where ``below``), nearest first, that no other
    caption stands between."""
    out: dict[int, list[int]] = {}
    for n, c in enumerate(captions):
        side = [i for i, g in enumerate(grids) if _beside(g, c) and (g.top >= c.top if below else g.bottom <= c.bottom)]
        clear = [i for i in side if not any(
            o is not c and _beside(grids[i], o) and (c.top < o.top < grids[i].top if below else
                                                     grids[i].bottom < o.top < c.top) for o in captions)]
        out[n] = sorted(clear, key=lambda i: _gap(grids[i], c))
    return out


def candidates(grids: list[Grid], captions: list[Caption], label: str) -> list[Grid]:
    """The grids that may be ``label``'s table, in the order they are tried (see the module's docstring, 1)."""
    grids = [piece for grid in grids for piece in cut_at_captions(grid, captions)]
    tables = {i for i, g in enumerate(grids) if len(read_grid(g).rows) > 1}  # grids that hold rows of values

    def fit(claims: dict[int, list[int]]) -> tuple[int, float]:  # captions served by a table; then nearer
        firsts = [(n, next(i for i in got if i in tables)) for n, got in claims.items() if tables.intersection(got)]
        return len(firsts), -sum(_gap(grids[i], captions[n]) for n, i in firsts)

    claims = max((_claims(grids, captions, below) for below in (True, False)), key=fit)
    own = [n for n, c in enumerate(captions) if c.label == label]
    if own:
        return [grids[i] for i in dict.fromkeys(i for n in own for i in claims[n])]
    claimed = {i for got in claims.values() for i in got if i in tables}
    return [grids[i] for i in sorted(set(range(len(grids))) - claimed, key=lambda i: grids[i].top)]


# -- reading a grid the same way for every finder ---------------------------------------------------


def is_value(text: str) -> bool:
    """Whether a cell prints a value (a number first, then at most marks, a ± or interval, a unit's sign)."""
    if not _VALUE_CELL.match(text):
        return False
    return sum(c.isalpha() for c in text) <= 1  # '73.1a' (a mark), '12.3%'; '2-layer', '3D conv' are labels


@dataclass(frozen=True)
class ReadGrid:
    """A grid read as a table: each body row's label levels, each value column's header levels, and its cells."""

    rows: tuple[tuple[tuple[str, ...], int], ...]  # (levels, index into the grid's cells)
    columns: tuple[tuple[tuple[str, ...], int], ...]
    cells: tuple[tuple[str, ...], ...]


def read_grid(grid: Grid) -> ReadGrid:
    """Header, stub, row groups and column paths of a grid (the module's docstring, 2)."""
    cells = grid.cells
    width = len(cells[0]) if cells else 0
    first = next((i for i, row in enumerate(cells) if _values_row(row)), None)
    if first is None or width == 0:
        return ReadGrid((), (), cells)
    body = cells[first:]
    numbers = [r for r in body if _values_row(r)]
    stub = next((j for j in range(width) if _value_column([r[j] for r in numbers])), width)
    raw: list[list[str]] = []  # each value row's own labels
    filled: list[list[str]] = []  # and with the outer labels set above it
    groups: list[str] = []
    at: list[int] = []
    group = ""
    above = [""] * stub
    for i, row in enumerate(body, start=first):
        labels = list(row[:stub])
        if not any(is_value(c) for c in row[stub:]):
            outer = next((j for j, c in enumerate(row) if c), None)
            if outer is not None and outer < stub - 1:  # an outer label set at the top of its rows
                above = above[:outer] + [row[outer]] + [""] * (stub - outer - 1)
            elif outer is not None:
                group = row[outer]  # a label line over the rows under it
            continue
        raw.append(list(labels))
        innermost = max((j for j in range(stub) if labels[j]), default=-1)
        for j in range(innermost):  # an outer label set once beside its rows (a \multirow) goes on down
            labels[j] = labels[j] or above[j]
        above = labels
        filled.append(labels)
        groups.append(group)
        at.append(i)
    for j in range(stub - 1):
        _centred(raw, filled, j)
    rows = tuple((tuple(t for t in ([g] if g else []) + labels if t), i)
                 for g, labels, i in zip(groups, filled, at, strict=True))
    header = cells[:first]
    columns = []
    for j in range(stub, width):
        levels: list[str] = []
        for h, line in enumerate(header):
            text = line[j]
            if not text and h < len(header) - 1:  # under a spanning header: the nearest one (the left on a tie)
                near = [k for k in range(stub, width) if line[k]]
                text = line[min(near, key=lambda k: (abs(k - j), k))] if near else ""
            if text and (not levels or levels[-1] != text):
                levels.append(text)
        columns.append((tuple(levels), j))
    return ReadGrid(rows, tuple(columns), cells)


def _value_column(cells: list[str]) -> bool:
    """Whether a column of the body holds values (half or more
    are values; a prose line a finder took into the grid may put a number in the stub)."""
    filled = [c for c in cells if c]
    return bool(filled) and sum(is_value(c) for c in filled) * 2 >= len(filled)


def _centred(raw: list[list[str]], filled: list[list[str]], j: int) -> None:
    """Outer labels in column ``j`` centred on their rows (a \\multirow whose first row has no label there): each
    row takes the nearest label in that column (the upper one on a tie), not the one above it."""
    set_at = [k for k, labels in enumerate(raw) if labels[j]]
    if not set_at or set_at[0] == 0 or filled[0][j]:
        return
    for k, labels in enumerate(raw):
        inner = any(labels[j + 1:])
        if not labels[j] and inner:
            nearest = min(set_at, key=lambda s: (abs(s - k), s))
            filled[k][j] = raw[nearest][j]


def _values_row(row: tuple[str, ...]) -> bool:
    filled = [c for c in row if c]
    values = sum(is_value(c) for c in filled)
    labels = next((k for k, c in enumerate(filled) if is_value(c)), len(filled))
    return values > 0 and values * 2 >= len(filled) - labels


def number_in(text: str) -> Decimal | None:
    """A cell's or gold's number: the whole text read as one printed number, else its first number."""
    from registry.numbers import read_number

    reading = read_number(text)
    if reading.value is not None:
        return reading.value
    found = _FIRST_NUMBER.search(text)
    if found is None:
        return None
    digits = found.group(0).translate(_PLAIN_DIGITS)
    try:
        return Decimal(digits)
    except InvalidOperation:
        return None


@dataclass(frozen=True)
class Found:
    """A gold cell looked up in a finder's grids: the cell's text where it was found, else why not."""

    text: str | None
    why: str = ""


def named(levels: tuple[str, ...], wanted: str) -> bool:
    """Whether a grid's row or column named ``levels`` is the gold's ``wanted``: as the review's lookup matches
    (``review.tables.table.matches``), or its last levels joined are the whole path (a header or label set on two lines,
    which a finder gives as two rows of its grid: 'No.' over 'classes')."""
    from review.pdf.words import squeezed
    from review.tables.table import levels_of, matches

    if matches(levels, wanted):
        return True
    whole = squeezed("".join(levels_of(wanted))).lower()
    return any(squeezed("".join(levels[k:])).lower() == whole for k in range(len(levels) - 1))


def locate(grids: list[Grid], row: str, column: str) -> Found:
    """The cell at ``row`` and ``column`` in the first of ``grids`` (tried in order) that has the row."""
    if not grids:
        return Found(None, "no grid by the caption")
    repeat = _REPEAT.search(row)
    wanted = row[:repeat.start()] if repeat else row
    for grid in grids:
        read = read_grid(grid)
        rows = [i for levels, i in read.rows if named(levels, wanted)]
        if not rows:
            continue
        if repeat:
            nth = int(repeat.group(1))
            if nth > len(rows):
                return Found(None, f"row '{row}': only {len(rows)} rows named '{wanted}'")
            at = rows[nth - 1]
        elif len(rows) > 1:
            return Found(None, f"row '{row}' matches {len(rows)} rows")
        else:
            at = rows[0]
        columns = [j for levels, j in read.columns if named(levels, column)]
        if len(columns) != 1:
            names = ", ".join(f"'{' / '.join(levels)}'" for levels, _ in read.columns[:8])
            return Found(None, f"{len(columns)} columns match '{column}' (columns: {names})")
        return Found(read.cells[at][columns[0]])
    names = ", ".join(f"'{' / '.join(levels)}'" for levels, _ in read_grid(grids[0]).rows[:8])
    return Found(None, f"no row '{row}' in {len(grids)} grid(s) (first grid's rows: {names})")


def score(found: Found, value: str) -> str:
    """pass, fail or cannot check for ``value`` (a decimal as printed) looked up as ``found``."""
    if found.text is None:
        return CANNOT
    number, wanted = number_in(found.text), number_in(value)
    return PASS if number is not None and number == wanted else FAIL


# -- running a paper -------------------------------------------------------------------------------


@dataclass
class Result:
    """One approach on one paper."""

    slug: str
    right: Counter[str] = field(default_factory=Counter)
    slips: Counter[str] = field(default_factory=Counter)
    why: Counter[str] = field(default_factory=Counter)  # why cells could not be checked, by kind
    seconds: float = 0.0
    pages: int = 0
    unpassed: list[tuple[Gold, str, str]] = field(default_factory=list)
    verdicts: dict[tuple[str, ...], str] = field(default_factory=dict)  # each claim's verdict, to combine approaches

    def add_right(self, cell: Gold, outcome: str, why: str, cause: str) -> None:
        self.right[outcome] += 1
        self.verdicts[("right", self.slug, str(cell.page), cell.table, cell.row, cell.column)] = outcome
        if outcome == CANNOT:
            self.why[cause] += 1
        if outcome != PASS:
            self.unpassed.append((cell, outcome, why))

    def add_slip(self, kind: str, cell: Gold, value: str, outcome: str) -> None:
        self.slips["passed" if outcome == PASS else f"caught ({outcome})"] += 1
        self.verdicts[("slip", kind, value, self.slug, str(cell.page), cell.table, cell.row, cell.column)] = outcome

    def add(self, other: Result) -> None:
        """Another paper's counts, times and verdicts added to these (the overall line)."""
        self.right += other.right
        self.slips += other.slips
        self.why += other.why
        self.seconds += other.seconds
        self.pages += other.pages
        self.verdicts.update(other.verdicts)


def combined(first: Result, then: Result) -> Result:
    """``first``'s verdict on each claim, and ``then``'s where ``first`` cannot check it: a finder tried after
    the reader."""
    out = Result(f"{first.slug}, then {then.slug}")
    for key, outcome in first.verdicts.items():
        verdict_ = then.verdicts.get(key, CANNOT) if outcome == CANNOT else outcome
        if key[0] == "right":
            out.right[verdict_] += 1
        else:
            out.slips["passed" if verdict_ == PASS else f"caught ({verdict_})"] += 1
        out.verdicts[key] = verdict_
    return out


def _slips_of(gold: list[Gold]) -> list[tuple[str, Gold, str]]:
    return [(kind, cell, value) for kind, cell, value, moved in slips(gold) if kind in SLIP_KINDS and not moved]


@contextmanager
def _opened(path: Path) -> Iterator[object]:
    import pdfplumber

    with pdfplumber.open(str(path)) as pdf:
        yield pdf


def run_finder(finder: Finder, folder: Path) -> Result:
    """One finder on one paper: every gold cell and its neighbour slips."""
    gold = read_gold(folder / "cells.tsv")
    path = folder / "paper.pdf"
    result = Result(folder.name)
    labels = {c.table for c in gold}
    located: dict[tuple[int, str, str, str], Found] = {}
    with _opened(path) as pdf:
        assert finder.find is not None
        for page in sorted({c.page for c in gold}):
            started = time.perf_counter()
            grids = finder.find(path, pdf, page)
            result.seconds += time.perf_counter() - started
            result.pages += 1
            captions = page_captions(pdf, page, labels)
            for cell in (c for c in gold if c.page == page):
                key = (page, cell.table, cell.row, cell.column)
                if key not in located:
                    located[key] = locate(candidates(grids, captions, cell.table), cell.row, cell.column)
    for cell in gold:
        found = located[(cell.page, cell.table, cell.row, cell.column)]
        result.add_right(cell, score(found, cell.value), found.why or f"the cell prints '{found.text}'",
                         _why_kind(found.why))
    for kind, cell, value in _slips_of(gold):
        result.add_slip(kind, cell, value, score(located[(cell.page, cell.table, cell.row, cell.column)], value))
    return result


def _why_kind(why: str) -> str:
    for kind in ("no grid", "no row", "columns match", "rows named", "matches"):
        if kind in why:
            return {"matches": "row ambiguous", "rows named": "row ambiguous", "columns match": "no column"}.get(
                kind, kind)
    return why


def run_registry(folder: Path) -> Result:
    """The review's own cell check on one paper, the cell's value only (``TableCell``), both extractors."""
    from registry.checking.agreement import check_both
    from registry.checking.cells import TableCell
    from review.pdf.extract import read_pdf
    from review.tables.read import read_tables

    gold = read_gold(folder / "cells.tsv")
    result = Result(folder.name)
    started = time.perf_counter()
    readings = read_pdf(folder / "paper.pdf")
    extracted = time.perf_counter() - started
    pages = sorted({c.page for c in gold})
    started = time.perf_counter()
    for doc in readings.all:  # reading alone: every cited table on its page, both extractors, nothing cached
        for page, label in {(c.page, c.table) for c in gold}:
            words = doc.page_words(page)
            if words is not None:
                read_tables(words, label, doc.page_words(page - 1) if page > 1 else None)
    result.seconds = extracted * len(pages) / readings.primary.page_count + time.perf_counter() - started
    result.pages = len(pages)
    for cell in gold:
        claim = TableCell("bench", "table cell", cell.page, cell.table, cell.row, cell.column,  # type: ignore[arg-type]
                          cell.printed_value)
        assertion = check_both(claim, readings)
        result.add_right(cell, verdict(assertion), assertion.detail, _registry_why(assertion.detail))
    for kind, cell, value in _slips_of(gold):
        claim = TableCell("bench", "table cell", cell.page, cell.table, cell.row, cell.column,  # type: ignore[arg-type]
                          value)
        result.add_slip(kind, cell, value, verdict(check_both(claim, readings)))
    return result


def _registry_why(detail: str) -> str:
    for needle, kind in (("no caption", "no grid"), ("no row", "no row"), ("printed", "row ambiguous"),
                         ("column", "no column")):
        if needle in detail:
            return kind
    return "other"


# -- printing --------------------------------------------------------------------------------------


def _right(c: Counter[str]) -> str:
    total = sum(c.values())
    return (f"{c[PASS]:5d}/{total:<5d} pass {100 * c[PASS] / max(total, 1):5.1f}%  fail {c[FAIL]:4d}  "
            f"cannot {c[CANNOT]:4d}")


def _slips(c: Counter[str]) -> str:
    total = sum(c.values())
    return f"caught {total - c['passed']:5d}/{total:<5d} passed {c['passed']:4d}"


def _quiet() -> None:
    """Keep the libraries' chatter (pdfminer's font notes, camelot's 'no tables found in table area') out of the
    table: a grid not found is counted as a cell that cannot be checked."""
    import logging
    import warnings

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", category=UserWarning, module="camelot")


def main(argv: list[str] | None = None) -> int:
    _quiet()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=Path, default=PAPERS)
    parser.add_argument("--only", default="", help="comma-separated paper slugs")
    parser.add_argument("--finders", default=",".join(f.name for f in FINDERS),
                        help="comma-separated approaches: " + ", ".join(f.name for f in FINDERS))
    parser.add_argument("--show", type=int, default=0, help="print this many unpassed right cells per paper")
    args = parser.parse_args(argv)
    if not args.papers.is_dir():
        print(f"no corpus at {args.papers}: pass --papers DIR")
        return 1
    folders = sorted(p for p in args.papers.iterdir() if (p / "cells.tsv").is_file() and (p / "paper.pdf").is_file())
    if args.only:
        wanted = set(args.only.split(","))
        folders = [f for f in folders if f.name in wanted]
    if not folders:
        print(f"no papers with cells.tsv and paper.pdf under {args.papers}")
        return 1
    chosen = [f for f in FINDERS if f.name in set(args.finders.split(","))]
    finders = [f.name for f in chosen if f.find is not None]
    if finders and Finder("pdfplumber", "pdfplumber", None).missing():  # it finds the captions for every finder
        print(f"{', '.join(finders)}: skipped, pdfplumber is not installed (pip install -e '.[bench]'); it finds "
              "the captions for every finder")
        chosen = [f for f in chosen if f.find is None]
    overall: dict[str, Result] = {}
    papers: dict[str, dict[str, Result]] = defaultdict(dict)  # paper -> approach -> result
    for finder in chosen:
        why = finder.missing()
        if why:
            print(why)
            continue
        print(f"\n== {finder.name}\n{'paper':28s} {'right cells (value)':50s} {'neighbour slips':32s} s/page")
        total = Result(finder.name)
        for folder in folders:
            result = run_registry(folder) if finder.find is None else run_finder(finder, folder)
            print(f"{result.slug:28s} {_right(result.right):50s} {_slips(result.slips):32s} "
                  f"{result.seconds / max(result.pages, 1):.3f}", flush=True)
            for cell, outcome, why in result.unpassed[:args.show]:
                print(f"    {outcome}: {cell.table} p.{cell.page} row '{cell.row}' column '{cell.column}' "
                      f"'{cell.printed}': {why[:240]}")
            total.add(result)
            papers[result.slug][finder.name] = result
        print(f"{'overall':28s} {_right(total.right):50s} {_slips(total.slips):32s} "
              f"{total.seconds / max(total.pages, 1):.3f}")
        print("    cannot check, by cause: " + ", ".join(f"{k} {v}" for k, v in total.why.most_common()))
        overall[finder.name] = total
    if len(overall) > 1:
        print(f"\n{'approach':20s} {'right cells':50s} {'neighbour slips':32s} s/page")
        for name, total in overall.items():
            print(f"{name:20s} {_right(total.right):50s} {_slips(total.slips):32s} "
                  f"{total.seconds / max(total.pages, 1):.3f}")
    if REGISTRY.name in overall and len(overall) > 1:
        print(f"\n{'combined: the reader first, a finder where it cannot check':70s}")
        for name, total in overall.items():
            if name != REGISTRY.name:
                both = combined(overall[REGISTRY.name], total)
                print(f"  then {name:20s} {_right(both.right):50s} {_slips(both.slips):32s}")
    if len(overall) > 1:
        _side_by_side(papers, list(overall))
    return 0


def _side_by_side(papers: dict[str, dict[str, Result]], names: list[str]) -> None:
    """Right cells per paper and approach as pass/fail/cannot, and the reader with each finder after it."""
    finders = [n for n in names if n != REGISTRY.name] if REGISTRY.name in names else []
    heads = names + [f"+{n}" for n in finders]
    print(f"\nright cells pass/fail/cannot check per paper ('+name': the reader, then that finder where it "
          f"cannot check)\n{'paper':28s} " + " ".join(f"{h:>17s}" for h in heads))
    for slug, results in papers.items():
        cells = [results[n].right for n in names]
        cells += [combined(results[REGISTRY.name], results[n]).right for n in finders]
        print(f"{slug:28s} " + " ".join(f"{f'{c[PASS]}/{c[FAIL]}/{c[CANNOT]}':>17s}" for c in cells))


if __name__ == "__main__":
    raise SystemExit(main())
