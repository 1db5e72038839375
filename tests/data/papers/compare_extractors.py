"""Try positioned-text and table extractors on the fixture papers and print the figures EXTRACTORS.md reports.

None of these libraries is a registry dependency: run this in a throwaway virtual environment,
    python3 -m venv /tmp/xvenv
    /tmp/xvenv/bin/pip install pypdf pdfplumber pypdfium2 pymupdf camelot-py
    /tmp/xvenv/bin/python tests/data/papers/compare_extractors.py
(poppler-utils gives `pdftotext -bbox`). Every table cell of the truth files is looked up in two ways:

* word extractors (words with boxes) feed one simple locator, the same for all: find the table's caption, the row
  label below it (below its group's name where that is on the page), the column header between caption and first
  row, then the words on the row's line nearest that header;
* table finders return grids: a cell is found when some grid row has the row label and, right of it at the truth's
  column position, the cell text.

A cell counts as found only with its whole printed text (value, ± and s.d., footnote mark), spaces ignored.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DOCS = [("genomic-benchmarks-fixture", "paper.pdf"), ("genomic-benchmarks-fixture", "paper-grim-impossible.pdf"),
        ("fpdf-fixture", "paper.pdf")]


def squeezed(text: str) -> str:
    return re.sub(r"\s", "", unicodedata.normalize("NFKC", text).replace("\u2019", "'"))


@dataclass(frozen=True)
class Word:
    text: str
    x0: float
    x1: float
    top: float
    bottom: float


# ---------------------------------------------------------------- word extractors (top-down coordinates)
def words_pdfplumber(pdf: Path) -> list[list[Word]]:
    import pdfplumber

    with pdfplumber.open(pdf) as doc:
        return [[Word(w["text"], w["x0"], w["x1"], w["top"], w["bottom"]) for w in page.extract_words(x_tolerance=1)]
                for page in doc.pages]


def words_pymupdf(pdf: Path) -> list[list[Word]]:
    import pymupdf

    with pymupdf.open(pdf) as doc:
        return [[Word(w[4], w[0], w[2], w[1], w[3]) for w in page.get_text("words")] for page in doc]


def words_pypdfium2(pdf: Path) -> list[list[Word]]:
    """pypdfium2 has characters with boxes, not words: a space or a gap wider than a thin space ends a word."""
    import pypdfium2 as pdfium

    pages = []
    for page in pdfium.PdfDocument(pdf):
        text = page.get_textpage()
        chars = [(text.get_text_range(i, 1), text.get_charbox(i, loose=True)) for i in range(text.count_chars())]
        pages.append(chars_to_words(chars, page.get_height()))
    return pages


def chars_to_words(chars: list[tuple[str, tuple[float, float, float, float]]], height: float) -> list[Word]:
    words: list[Word] = []
    current: list[tuple[str, tuple[float, float, float, float]]] = []
    for char, box in [*chars, (" ", (0.0, 0.0, 0.0, 0.0))]:
        if current and (not char.strip() or box[0] - current[-1][1][2] > 1.5):
            boxes = [b for _, b in current]
            words.append(Word("".join(c for c, _ in current), min(b[0] for b in boxes), max(b[2] for b in boxes),
                              height - max(b[3] for b in boxes), height - min(b[1] for b in boxes)))
            current = []
        if char.strip():
            current.append((char, box))
    return words


def words_pdftotext_bbox(pdf: Path) -> list[list[Word]]:
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for page in out.split("<page ")[1:]:
        pages.append([Word(_unescape(t), float(a), float(c), float(b), float(d)) for a, b, c, d, t in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', page)])
    return pages


def _unescape(text: str) -> str:
    return text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')


def words_pypdf_visitor(pdf: Path) -> list[list[Word]]:
    """pypdf's visitor gives each text run's origin and font size, not its width: widths are estimated
    (0.5 em a character), and a run's words are spread over that estimate."""
    import pypdf

    pages = []
    for page in pypdf.PdfReader(pdf).pages:
        height = float(page.mediabox.height)
        words: list[Word] = []

        def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float,
                  words: list[Word] = words, height: float = height) -> None:
            if not text.strip():
                return
            scale = (cm[0] * tm[0]) or 1.0
            x = tm[4] * cm[0] + cm[4]
            y = tm[5] * cm[3] + cm[5]
            em = size * abs(scale)
            for part in re.finditer(r"\S+", text):
                words.append(Word(part.group(), x + part.start() * em * 0.5, x + part.end() * em * 0.5,
                                  height - y - em, height - y))

        page.extract_text(visitor_text=visit)
        pages.append(words)
    return pages


WORD_EXTRACTORS: dict[str, Callable[[Path], list[list[Word]]]] = {
    "pdfplumber extract_words": words_pdfplumber,
    "pypdfium2 charboxes": words_pypdfium2,
    "pymupdf get_text('words')": words_pymupdf,
    "poppler pdftotext -bbox": words_pdftotext_bbox,
    "pypdf visitor_text": words_pypdf_visitor,
}


def lines_of(words: list[Word]) -> list[list[Word]]:
    """Words grouped into lines by their vertical centre, each line left to right, lines top to bottom."""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (w.bottom, w.x0)):
        if lines:
            top, bottom = min(w.top for w in lines[-1]), max(w.bottom for w in lines[-1])
            overlap = min(bottom, word.bottom) - max(top, word.top)
            if overlap > 0.4 * min(bottom - top, word.bottom - word.top):  # superscripts and ± boxes join
                lines[-1].append(word)
                continue
        lines.append([word])
    return [sorted(line, key=lambda w: w.x0) for line in lines]


def starts_with(line: list[Word], text: str) -> int:
    """How many leading words of ``line`` spell ``text`` (0 when they do not)."""
    target, joined = squeezed(text), ""
    for n, word in enumerate(line, 1):
        joined += squeezed(word.text)
        if joined == target:
            return n
        if not target.startswith(joined):
            return 0
    return 0


def locate_cell(words: list[Word], width: float, table: dict[str, Any], location: dict[str, Any], page_no: int
                ) -> str | None:
    label = location["label"].split()[-1]
    lines = lines_of(words)
    def is_caption(line: list[Word], j: int) -> bool:
        after = [w.text for w in line[j + 1:j + 3]]
        return line[j].text == "Table" and (after[:1] == [f"{label}:"] or after == [label, "(continued)"])

    caption_at = next((i for i, line in enumerate(lines) for j in range(len(line) - 1) if is_caption(line, j)), None)
    if caption_at is None:
        return None
    # The caption's own extent (words from 'Table' on, with no wide gap) says which column the table is in.
    caption = lines[caption_at]
    start = next(j for j in range(len(caption) - 1) if is_caption(caption, j))
    end = start
    while end + 1 < len(caption) and caption[end + 1].x0 - caption[end].x1 < 15:
        end += 1
    mid = width / 2
    crossing = sum(1 for line in lines if any(w.x0 < mid - 5 and w.x1 > mid + 5 for w in line))
    if crossing > len(lines) / 4:  # most lines cross the middle: a one-column page
        lo, hi = 0.0, width
    elif caption[start].x0 > mid - 10:
        lo, hi = mid - 10, width
    elif caption[end].x1 < mid + 5:
        lo, hi = 0.0, mid + 5
    else:
        lo, hi = 0.0, width
    body = [[w for w in line if lo <= w.x0 < hi] for line in lines[caption_at + 1:]]
    body = [line for line in body if line]
    row_labels = {r[-1] for r in table["rows"]}
    first_row = next((i for i, line in enumerate(body) if any(starts_with(line, r) for r in row_labels)), len(body))
    header_zone = body[:first_row]
    *group, row_label = location["row"]
    rows = body
    if group and location.get("group_label_printed_on_page", page_no) == page_no:
        at = next((i for i, line in enumerate(body) if starts_with(line, group[0]) == len(line)), None)
        if at is None:
            return None
        rows = body[at + 1:]
    row = next((line for line in rows if starts_with(line, row_label)), None)
    if row is None:
        return None
    cells_words = row[starts_with(row, row_label):]
    # Header boxes: for each column, the header line words that spell the start of its last level.
    spans: list[tuple[float, float] | None] = []
    for column in table["columns"]:
        name, best = column[-1], None
        for line in header_zone:
            for start in range(len(line)):
                n = starts_with(line[start:], name)
                run = line[start:start + (n or 1)]
                if n or (squeezed(name).startswith(squeezed(run[0].text)) and len(squeezed(run[0].text)) >= 4):
                    best = run
                    break
            if best:
                break
        spans.append(None if best is None else (best[0].x0, best[-1].x1))
    index = table["columns"].index(location["column"])
    if spans[index] is None:
        return None
    cells: list[list[Word]] = []
    for word in cells_words:
        if cells and word.x0 - cells[-1][-1].x1 < 5:
            cells[-1].append(word)
        else:
            cells.append([word])
    known = [(i, span) for i, span in enumerate(spans) if span is not None]

    def column_of(cell: list[Word]) -> int:
        """The header whose span holds the cell's centre (right-aligned numbers under wide headers), else the
        header nearest to it."""
        centre = (cell[0].x0 + cell[-1].x1) / 2
        inside = [i for i, (x0, x1) in known if x0 <= centre <= x1]
        return inside[0] if inside else min(known, key=lambda k: abs((k[1][0] + k[1][1]) / 2 - centre))[0]

    chosen = [c for c in cells if column_of(c) == index]
    return " ".join(w.text for c in chosen for w in c) if chosen else None


# ---------------------------------------------------------------- fixed-width layout text
def layout_pypdf(pdf: Path) -> list[str]:
    import pypdf

    return [page.extract_text(extraction_mode="layout") for page in pypdf.PdfReader(pdf).pages]


def layout_pdftotext(pdf: Path) -> list[str]:
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return out.split("\f")[:-1]


LAYOUT_EXTRACTORS: dict[str, Callable[[Path], list[str]]] = {
    "pypdf extract_text(extraction_mode='layout')": layout_pypdf,
    "poppler pdftotext -layout": layout_pdftotext,
}


def layout_cell(page: str, table: dict[str, Any], location: dict[str, Any], page_no: int) -> str | None:
    """The row's cells in layout text (below the caption, in its column, split at two or more spaces), taken at
    the truth's column position: unlike the word locator this does not read the header."""
    label = location["label"]
    lines = page.splitlines()
    start = next((i for i, line in enumerate(lines) if re.search(rf"{label}(:| \(continued\))", line)), None)
    if start is None:
        return None
    caption = re.search(rf"{label}(:| \(continued\))", lines[start]).start()  # type: ignore[union-attr]
    left = max(caption - 2, 0) if lines[start][:caption].strip() else 0
    body = [line[left:] for line in lines[start:]]
    *group, row_label = location["row"]
    if group and location.get("group_label_printed_on_page", page_no) == page_no:
        at = next((i for i, line in enumerate(body) if line.strip() == group[0]), None)
        body = body if at is None else body[at + 1:]
    row = re.compile(rf"^\s*{re.escape(row_label)}\s{{2,}}(\S.*)$")
    match = next((m for m in map(row.match, body) if m), None)
    if match is None:
        return None
    cells = re.split(r"\s{2,}", match.group(1).strip())
    index = table["columns"].index(location["column"])
    return cells[index] if index < len(cells) else None


# ---------------------------------------------------------------- table finders
def grids_pdfplumber(pdf: Path, strategy: str) -> list[list[list[list[str]]]]:
    import pdfplumber

    settings = {} if strategy == "lines" else {"vertical_strategy": "text", "horizontal_strategy": "text"}
    with pdfplumber.open(pdf) as doc:
        return [[[[c or "" for c in row] for row in table] for table in page.extract_tables(settings)] for page in doc.pages]


def grids_pymupdf(pdf: Path, strategy: str) -> list[list[list[list[str]]]]:
    import pymupdf

    with pymupdf.open(pdf) as doc:
        return [[[[c or "" for c in row] for row in t.extract()] for t in page.find_tables(strategy=strategy).tables]
                for page in doc]


def grids_camelot(pdf: Path, flavor: str) -> list[list[list[list[str]]]]:
    import camelot
    import pypdf

    pages = len(pypdf.PdfReader(pdf).pages)
    tables = camelot.read_pdf(str(pdf), pages="all", flavor=flavor, suppress_stdout=True)
    grids: list[list[list[list[str]]]] = [[] for _ in range(pages)]
    for table in tables:
        grids[int(table.page) - 1].append(table.df.values.tolist())
    return grids


TABLE_FINDERS: dict[str, Callable[[Path], list[list[list[list[str]]]]]] = {
    "pdfplumber find_tables (lines)": lambda p: grids_pdfplumber(p, "lines"),
    "pdfplumber find_tables (text)": lambda p: grids_pdfplumber(p, "text"),
    "pymupdf find_tables (lines)": lambda p: grids_pymupdf(p, "lines"),
    "pymupdf find_tables (text)": lambda p: grids_pymupdf(p, "text"),
    "camelot lattice": lambda p: grids_camelot(p, "lattice"),
    "camelot stream": lambda p: grids_camelot(p, "stream"),
}


def grid_cell(grids: list[list[list[str]]], table: dict[str, Any], location: dict[str, Any]) -> bool:
    row_label, index, want = location["row"][-1], table["columns"].index(location["column"]), squeezed(location["cell_text"])
    for grid in grids:
        for row in grid:
            cells = [squeezed(c) for c in row]
            for at, cell in enumerate(cells):
                if cell == squeezed(row_label) and at + 1 + index < len(cells) and cells[at + 1 + index] == want:
                    return True
    return False


def grid_has(grids: list[list[list[str]]], text: str) -> bool:
    return any(squeezed(c) == squeezed(text) for grid in grids for row in grid for c in row)


# ---------------------------------------------------------------- run
def truth_cells() -> list[tuple[Path, dict[str, Any], dict[str, Any]]]:
    cells = []
    for folder, name in DOCS:
        truth = json.loads((HERE / folder / "truth.json").read_text(encoding="utf-8"))
        doc = next(d for d in truth["documents"] if d["file"] == name)
        changes = {d["id"]: d for d in doc.get("differences", [])}
        tables = {t["label"]: t for t in truth["tables"]}
        for entry in truth["numbers"]:
            entry = {**entry, **changes.get(entry["id"], {})}
            if entry["location"]["kind"] == "table-cell":
                cells.append((HERE / folder / name, tables[entry["location"]["label"]], entry))
    return cells


def page_widths(pdf: Path) -> list[float]:
    import pypdf

    return [float(p.mediabox.width) for p in pypdf.PdfReader(pdf).pages]


def timed(run: Callable[[], Any], pages: int, repeats: int = 3) -> tuple[Any, float]:
    """The result of ``run`` and its fastest time over ``repeats`` runs, in milliseconds per page (the machine is
    shared, so the minimum is the least disturbed figure)."""
    best, result = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    return result, best * 1000 / pages


def main() -> None:
    import logging

    logging.disable(logging.WARNING)  # pypdf's "Rotated text discovered" and camelot's page warnings
    cells = truth_cells()
    pdfs = sorted({c[0] for c in cells})
    n_pages = sum(len(page_widths(p)) for p in pdfs)
    print(f"{len(cells)} table cells in {len(pdfs)} PDFs, {n_pages} pages\n")
    print("| extractor | cells found | by table | ms/page |\n|---|---|---|---|")
    for name, extract in WORD_EXTRACTORS.items():
        extract(pdfs[0])  # warm up (imports, first open)
        words, ms = timed(lambda extract=extract: {p: extract(p) for p in pdfs}, n_pages)
        report(name, ms, [(pdf, table, e, locate_cell(words[pdf][e["page"] - 1], page_widths(pdf)[e["page"] - 1], table,
                                                      e["location"], e["page"])) for pdf, table, e in cells])
    for name, layout in LAYOUT_EXTRACTORS.items():
        layout(pdfs[0])
        texts, ms = timed(lambda layout=layout: {p: layout(p) for p in pdfs}, n_pages)
        report(name, ms, [(pdf, table, e, layout_cell(texts[pdf][e["page"] - 1], table, e["location"], e["page"]))
                          for pdf, table, e in cells])
    for name, find in TABLE_FINDERS.items():
        try:
            find(pdfs[0])
            grids, ms = timed(lambda find=find: {p: find(p) for p in pdfs}, n_pages)
        except Exception as error:  # noqa: BLE001 - a library that fails is reported, not fatal
            print(f"| {name} | failed: {type(error).__name__}: {error} | | |")
            continue
        found = [(pdf, table, e, e["location"]["cell_text"] if grid_cell(grids[pdf][e["page"] - 1], table, e["location"]) else None)
                 for pdf, table, e in cells]
        report(name, ms, found, grids)


def report(name: str, ms: float, found: list[tuple[Path, dict[str, Any], dict[str, Any], str | None]],
           grids: dict[Path, list[list[list[list[str]]]]] | None = None) -> None:
    by_table: dict[str, list[int]] = {}
    for pdf, table, entry, text in found:
        key = f"{pdf.parent.name.split('-')[0]}:{table['label'].split()[-1]}"
        hit = text is not None and squeezed(text) == squeezed(entry["location"]["cell_text"])
        by_table.setdefault(key, [0, 0])[0] += hit
        by_table[key][1] += 1
    hits = sum(v[0] for v in by_table.values())
    total = sum(v[1] for v in by_table.values())
    detail = ", ".join(f"{k} {a}/{b}" for k, (a, b) in by_table.items())
    extra = ""
    if grids is not None:
        latex = grids[HERE / "genomic-benchmarks-fixture" / "paper.pdf"]
        n_tables = [len(g) for g in latex]
        extra = (f"; grids per page {n_tables}; 'Histone marks' cell {grid_has(latex[1], 'Histone marks')}, "
                 f"'Splice sites (acceptor)' one cell {grid_has(latex[1], 'Splice sites (acceptor)')}, "
                 f"rotated 'Full fine-tuning' {grid_has(latex[1], 'Full fine-tuning')}, "
                 f"'Table 5 (continued)' page 5 rows {grid_cell(latex[4], {'columns': [['H3K4me3']]}, {'row': ['2'], 'column': ['H3K4me3'], 'cell_text': '0.712'})}")
    print(f"| {name} | {hits}/{total} | {detail}{extra} | {ms:.0f} |")


if __name__ == "__main__":
    main()
