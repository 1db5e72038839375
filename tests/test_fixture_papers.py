"""The fixture papers under tests/data/papers/ are what their truth files say.

This is a sanity check of the fixtures, not of the registry's source checker: each committed PDF has the SHA-256,
page count and dates its truth file pins; rebuilding it from its source gives the same bytes (where the same
pdflatex, or fpdf2 and font, are installed); every number the truth file lists is printed on its page, as pypdf and
poppler's pdftotext extract it, with its uncertainty, cell text and sentence; every numeral pypdf finds on a page is
accounted for by the truth file; and the derived numbers, repeated numbers, uncertainties and GRIM verdicts the truth
file states hold.
"""

from __future__ import annotations

import ast
import hashlib
import json
import operator
import re
import shutil
import statistics
import subprocess
import sys
import unicodedata
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.pdf  # reads or renders PDFs (pdflatex, pdftotext, PDFium): left out of make test-fast

PAPERS = Path(__file__).resolve().parent / "data" / "papers"
FIXTURES = ("genomic-benchmarks-fixture", "fpdf-fixture")

#: A numeral as papers print it: a version (2.3.1), a number with thousands separators (12,960), or a plain or
#: signed decimal, possibly in e-notation (3e-5). Not a digit inside a word or a label (H3K4me3, bf16, A100,
#: NT 2.5B): a numeral touching a letter on either side is not one.
NUMERAL = re.compile(
    r"(?<![\w.,])"
    r"(?:\d+(?:\.\d+){2,}|[+\u2212-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[+\u2212-]?\d+(?:\.\d+)?(?:e[-\u2212]?\d+)?)"
    r"(?![\w]|[.,]\d)"
)


def load_truth(folder: str) -> dict[str, Any]:
    return json.loads((PAPERS / folder / "truth.json").read_text(encoding="utf-8"))


def documents() -> list[tuple[str, str]]:
    """(fixture folder, PDF file name) for every document of every truth file."""
    return [(folder, doc["file"]) for folder in FIXTURES for doc in load_truth(folder)["documents"]]


DOCUMENTS = documents()
DOC_IDS = [f"{folder}/{name}" for folder, name in DOCUMENTS]


def document(folder: str, name: str) -> dict[str, Any]:
    return next(doc for doc in load_truth(folder)["documents"] if doc["file"] == name)


def numbers_of(folder: str, name: str) -> list[dict[str, Any]]:
    """The truth file's numbers as printed in this document: a variant's listed differences replace fields."""
    changes = {d["id"]: d for d in document(folder, name).get("differences", [])}
    return [{**entry, **changes.get(entry["id"], {})} for entry in load_truth(folder)["numbers"]]


@cache
def pypdf_pages(pdf: Path) -> tuple[str, ...]:
    import pypdf

    return tuple(page.extract_text() for page in pypdf.PdfReader(pdf).pages)


@cache
def pdftotext_pages(pdf: Path) -> tuple[str, ...]:
    done = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True, check=True)
    return tuple(done.stdout.split("\f")[:-1])


def extracted(extractor: str, pdf: Path) -> tuple[str, ...]:
    if extractor == "pdftotext":
        if shutil.which("pdftotext") is None:
            pytest.skip("pdftotext not installed (Debian: poppler-utils); checked with pypdf only")
        return pdftotext_pages(pdf)
    return pypdf_pages(pdf)


def squeezed(text: str) -> str:
    """Text with compatibility forms folded and every space and hyphen dropped: line breaks, hyphenation at line
    ends and spaces an extractor adds or drops then no longer matter. U+2212 minus is kept."""
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'")
    return re.sub(r"[\s\-\u00ad]", "", text)


def one_line(text: str) -> str:
    return " ".join(text.split())


def decimals(printed: str) -> int:
    return len(printed.split(".")[1]) if "." in printed else 0


def evaluate(formula: str, values: dict[str, Decimal]) -> Decimal:
    """A derived entry's formula: numbers, {id} references, + - * / and parentheses; nothing else is evaluated."""
    ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
    names: dict[str, Decimal] = {}

    def name_for(match: re.Match[str]) -> str:
        names[f"v{len(names)}"] = values[match.group(1)]
        return f"v{len(names) - 1}"

    tree = ast.parse(re.sub(r"\{([^}]+)\}", name_for, formula), mode="eval")

    def walk(node: ast.AST) -> Decimal:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            return ops[type(node.op)](walk(node.left), walk(node.right))  # type: ignore[no-any-return]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return Decimal(str(node.value))
        if isinstance(node, ast.Name) and node.id in names:
            return names[node.id]
        raise ValueError(f"unsupported element {ast.dump(node)} in formula {formula!r}")

    return walk(tree)


def recompute(derived: dict[str, Any], values: dict[str, Decimal]) -> Decimal:
    if derived["operation"] in ("mean", "sample_sd"):
        inputs = [values[i] for i in derived["inputs"]]
        return statistics.mean(inputs) if derived["operation"] == "mean" else statistics.stdev(inputs)
    return evaluate(derived["formula"], values)


def agrees(computed: Decimal, printed: str) -> bool:
    """Whether ``computed`` rounds to the printed digits (half up, as people round)."""
    value = Decimal(printed.replace("\u2212", "-").replace(",", ""))
    step = Decimal(1).scaleb(-decimals(printed))
    return computed.quantize(step, rounding=ROUND_HALF_UP) == value


def test_both_fixtures_have_truth_files() -> None:
    assert sorted(p.parent.name for p in PAPERS.glob("*/truth.json")) == sorted(FIXTURES)
    assert len(DOCUMENTS) == 3  # the LaTeX paper, its GRIM-impossible copy and the fpdf2 page


@pytest.mark.parametrize(("folder", "name"), DOCUMENTS, ids=DOC_IDS)
def test_pdf_is_the_one_the_truth_file_pins(folder: str, name: str) -> None:
    import pypdf

    doc = document(folder, name)
    pdf = PAPERS / folder / name
    assert hashlib.sha256(pdf.read_bytes()).hexdigest() == doc["sha256"], f"{pdf} changed: rebuild truth.json or the PDF"
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == doc["pages"]
    assert reader.metadata is not None and reader.metadata["/CreationDate"] == doc["creation_date"]
    first_page = one_line(pypdf_pages(pdf)[0])
    assert first_page.startswith(doc["first_page_heading"].split(":")[0])
    assert squeezed(doc["first_page_heading"]) in squeezed(first_page)
    assert "SYNTHETIC TEST FIXTURE" in first_page and "INVENTED NUMBERS, NOT A REAL PUBLICATION" in first_page


#: Files paper.tex needs from TeX Live beyond the LaTeX kernel (TikZ, booktabs, caption, rotating, Times).
TEX_INPUTS = ("tikz.sty", "booktabs.sty", "caption.sty", "rotating.sty", "longtable.sty", "mathptmx.sty", "ptmr8t.tfm",
              "glyphtounicode.tex")


def banner_version(text: str) -> str | None:
    """'3.141592653-2.6-1.40.24 (TeX Live 2022/Debian)' from a pdfTeX banner or `pdflatex --version`."""
    match = re.search(r"(3\.14\S*\s+\([^)]*\))", text)
    return match.group(1) if match else None


def skip_unless_same_toolchain(folder: str) -> None:
    doc = load_truth(folder)["documents"][0]
    if folder == "genomic-benchmarks-fixture":
        packages = "texlive-latex-base texlive-latex-recommended texlive-fonts-recommended texlive-pictures"
        if shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None:
            pytest.skip(f"pdflatex not installed (Debian: {packages})")
        if subprocess.run(["kpsewhich", *TEX_INPUTS], capture_output=True, check=False).returncode != 0:
            pytest.skip(f"pdflatex lacks some of {', '.join(TEX_INPUTS)} (Debian: {packages})")
        done = subprocess.run(["pdflatex", "--version"], capture_output=True, text=True, check=True)
        installed, pinned = banner_version(done.stdout), banner_version(doc["pdftex_banner"])
        if installed != pinned:
            pytest.skip(f"pdfTeX {installed} is installed; the PDFs were made with {pinned}, whose bytes differ")
        return
    import fontTools
    import fpdf

    built = doc["built_with"]
    if (fpdf.__version__, fontTools.version) != (built["fpdf2"], built["fonttools"]):
        pytest.skip(f"fpdf2 {fpdf.__version__} / fontTools {fontTools.version} installed; the PDF was made with "
                    f"fpdf2 {built['fpdf2']} / fontTools {built['fonttools']}")
    for font, sha in built["fonts"].items():
        path = Path("/usr/share/fonts/truetype/dejavu") / font
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != sha:
            pytest.skip(f"{path} is not the DejaVu file the PDF was made with ({built['debian_package']})")


@pytest.mark.slow
@pytest.mark.parametrize("folder", FIXTURES)
def test_rebuilding_gives_the_same_bytes(folder: str, tmp_path: Path) -> None:
    skip_unless_same_toolchain(folder)
    done = subprocess.run(["bash", str(PAPERS / folder / "build.sh"), str(tmp_path)], capture_output=True, text=True,
                          env={"PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
                               "PYTHON": sys.executable}, check=False)
    assert done.returncode == 0, done.stderr
    for doc in load_truth(folder)["documents"]:
        rebuilt = hashlib.sha256((tmp_path / doc["file"]).read_bytes()).hexdigest()
        assert rebuilt == doc["sha256"], f"{folder}/{doc['file']} rebuilt as {rebuilt}"


@pytest.mark.parametrize("extractor", ["pypdf", "pdftotext"])
@pytest.mark.parametrize(("folder", "name"), DOCUMENTS, ids=DOC_IDS)
def test_every_number_is_printed_on_its_page(folder: str, name: str, extractor: str) -> None:
    pages = extracted(extractor, PAPERS / folder / name)
    problems = []
    for entry in numbers_of(folder, name):
        page = pages[entry["page"] - 1]
        numerals = NUMERAL.findall(page)
        wanted = [entry["printed"]] + NUMERAL.findall(entry.get("uncertainty", {}).get("printed", ""))
        problems += [f"{entry['id']}: {n!r} is not a numeral on page {entry['page']}" for n in wanted if n not in numerals]
        location = entry["location"]
        for key in ("cell_text", "quote"):
            if key in location and squeezed(location[key]) not in squeezed(page):
                problems.append(f"{entry['id']}: {key} {location[key]!r} not on page {entry['page']}")
        # A row group's name is printed once, above its first row: on an earlier page where the table is cut.
        group_page = pages[location.get("group_label_printed_on_page", entry["page"]) - 1]
        for level, header in enumerate(location.get("row", [])):
            if not header.isdigit() and squeezed(header) not in squeezed(group_page if level == 0 else page):
                problems.append(f"{entry['id']}: row label {header!r} not on its page")
        for header in location.get("column", []):
            if squeezed(header) not in squeezed(page):
                problems.append(f"{entry['id']}: column header {header!r} not on page {entry['page']}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("extractor", ["pypdf", "pdftotext"])
@pytest.mark.parametrize(("folder", "name"), DOCUMENTS, ids=DOC_IDS)
def test_hardware_statements_are_printed_where_the_truth_file_says(folder: str, name: str, extractor: str) -> None:
    pages = extracted(extractor, PAPERS / folder / name)
    for statement in load_truth(folder)["hardware"]:
        assert squeezed(statement["quote"]) in squeezed(pages[statement["page"] - 1]), statement["id"]
        assert squeezed(statement["accelerator"]) in squeezed(statement["quote"])


@cache
def layout_pages(pdf: Path) -> tuple[str, ...]:
    done = subprocess.run(["pdftotext", "-layout", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True,
                          check=True)
    return tuple(done.stdout.split("\f")[:-1])


def row_cells(page: str, table: str, group: str | None, label: str) -> list[str]:
    """The cells right of a row label, in a `pdftotext -layout` page: below the table's caption (and below its row
    group's name where that is printed on this page), in the caption's column, split at runs of two or more spaces."""
    lines = page.splitlines()
    start = next(i for i, line in enumerate(lines) if re.search(rf"{table}(:| \(continued\))", line))
    caption = re.search(rf"{table}(:| \(continued\))", lines[start]).start()  # type: ignore[union-attr]
    # A caption with text before it on its line is in the right-hand column: read only that column.
    left = max(caption - 2, 0) if lines[start][:caption].strip() else 0
    body = [line[left:] for line in lines[start:]]
    if group is not None:
        at = next((i for i, line in enumerate(body) if line.strip() == group), None)
        body = body if at is None else body[at + 1:]
    row = re.compile(rf"^\s*{re.escape(label)}\s{{2,}}(\S.*)$")
    match = next(m for m in map(row.match, body) if m)
    return re.split(r"\s{2,}", match.group(1).strip())


@pytest.mark.parametrize(("folder", "name"), DOCUMENTS, ids=DOC_IDS)
def test_table_cells_sit_in_their_row_and_column(folder: str, name: str) -> None:
    """Each table entry's cell text is, in `pdftotext -layout` output, the cell where its row and column meet."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext not installed (Debian: poppler-utils)")
    pages = layout_pages(PAPERS / folder / name)
    tables = {t["label"]: t for t in load_truth(folder)["tables"]}
    cells = [e for e in numbers_of(folder, name) if e["location"]["kind"] == "table-cell"]
    assert cells, "each fixture has a table"
    problems = []
    for entry in cells:
        location = entry["location"]
        table = tables[location["label"]]
        assert location["row"] in table["rows"] and location["column"] in table["columns"], entry["id"]
        *group, label = location["row"]
        try:
            found = row_cells(pages[entry["page"] - 1], location["label"], group[0] if group else None, label)
        except StopIteration:
            problems.append(f"{entry['id']}: no {location['label']} row {location['row']} on page {entry['page']}")
            continue
        column = table["columns"].index(location["column"])
        if column >= len(found) or one_line(found[column]) != location["cell_text"]:
            problems.append(f"{entry['id']}: row {location['row']} has {found} on page {entry['page']}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("folder", "name"), DOCUMENTS, ids=DOC_IDS)
def test_every_numeral_on_a_page_is_in_the_truth_file(folder: str, name: str) -> None:
    """With pypdf's text: each numeral is a number's printed text or uncertainty, or a listed label, as often as
    printed. (pdftotext also reads superscript footnote marks as numerals, so it is not used here.)"""
    pages = pypdf_pages(PAPERS / folder / name)
    expected: dict[int, Counter[str]] = {i: Counter() for i in range(1, len(pages) + 1)}
    for entry in numbers_of(folder, name):
        expected[entry["page"]][entry["printed"]] += 1
        expected[entry["page"]].update(NUMERAL.findall(entry.get("uncertainty", {}).get("printed", "")))
    for label in load_truth(folder)["labels"]:
        expected[label["page"]][label["printed"]] += 1
    for number, text in enumerate(pages, 1):
        found = Counter(NUMERAL.findall(text))
        missing, extra = expected[number] - found, found - expected[number]
        assert not missing and not extra, f"page {number}: in truth.json but not printed {dict(missing)}; printed but not in truth.json {dict(extra)}"


@pytest.mark.parametrize(("folder", "name"), DOCUMENTS, ids=DOC_IDS)
def test_derived_and_repeated_numbers_follow_from_their_inputs(folder: str, name: str) -> None:
    entries = numbers_of(folder, name)
    values = {e["id"]: Decimal(e["value"]) for e in entries if "value" in e}
    by_id = {e["id"]: e for e in entries}
    derived = [(e["id"], e["derived"], e["printed"]) for e in entries if "derived" in e]
    derived += [(e["id"] + " (uncertainty)", e["uncertainty"]["derived"], e["uncertainty"]["half_width"])
                for e in entries if "derived" in e.get("uncertainty", {})]
    assert derived, "each fixture prints derived numbers"
    for entry_id, rule, printed in derived:
        computed = recompute(rule, values)
        assert agrees(computed, printed), f"{entry_id}: printed {printed}, {rule['operation']} of its inputs gives {computed}"
    for entry in entries:
        if "same_as" in entry:
            assert entry["same_as"] in by_id and values[entry["id"]] == values[entry["same_as"]], entry["id"]


@pytest.mark.parametrize(("folder", "name"), DOCUMENTS, ids=DOC_IDS)
def test_uncertainties_agree_with_their_printed_text(folder: str, name: str) -> None:
    for entry in numbers_of(folder, name):
        uncertainty = entry.get("uncertainty")
        if uncertainty is None:
            continue
        value = Decimal(entry["value"])
        if "half_width" in uncertainty:
            assert uncertainty["printed"] == f"± {uncertainty['half_width']}", entry["id"]
        else:
            lower, upper = Decimal(uncertainty["lower"]), Decimal(uncertainty["upper"])
            assert uncertainty["printed"] == f"[{uncertainty['lower']}, {uncertainty['upper']}]", entry["id"]
            assert lower <= value <= upper, f"{entry['id']}: {value} outside {uncertainty['printed']}"
        assert uncertainty["n"] > 1 and uncertainty["n_of"], entry["id"]


def grim_counts(printed: str, n: int) -> list[int]:
    """Whole counts k out of n whose percentage rounds to the printed value at its decimals (half up)."""
    return [k for k in range(n + 1) if agrees(Decimal(100 * k) / Decimal(n), printed)]


@pytest.mark.parametrize(("folder", "name"), DOCUMENTS, ids=DOC_IDS)
def test_grim_verdicts_hold(folder: str, name: str) -> None:
    entries = {e["id"]: e for e in numbers_of(folder, name)}
    checked = [e for e in entries.values() if "grim" in e]
    for entry in checked:
        grim = entry["grim"]
        assert Decimal(entries[grim["n_id"]]["value"]) == grim["n"], entry["id"]
        counts = grim_counts(entry["printed"], grim["n"])
        assert counts == grim["counts"] and bool(counts) == grim["possible"], f"{entry['id']}: {entry['printed']}% of {grim['n']} needs counts {counts}"
    if folder == "genomic-benchmarks-fixture":
        assert [e["grim"]["possible"] for e in checked] == [name == "paper.pdf"]
