"""Build the source-witness fixtures: each stand-in document (invented numbers) rendered to the PDF beside it.

- ``latex/paper.tex`` (with ``tables/rates.tex``) by pdflatex (TeX Live: booktabs, multirow);
- ``html/paper.html`` printed by Chromium (headless, ``--print-to-pdf``);
- ``jats/paper.xml`` written as HTML (its ``<table-wrap>``s as captioned tables, ``<bold>`` as ``<strong>``) and
  printed by Chromium;
- ``docx/paper.docx`` written here with python-docx (a table with merged cells), converted by LibreOffice;
- ``typst/paper.typ`` (with ``data/scores.csv``) by the Typst compiler (the ``typst`` package of the test extras);
- ``tampered/``: ``paper.html`` is ``html/paper.html`` with one value changed; its PDF is ``html/paper.pdf``.

The PDFs are committed, so the tests need none of these programs; run ``python tests/data/sources/build.py`` to
rebuild them (the tests compare nothing byte for byte: the PDFs' text is what they read).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Where the PDFs are written: beside their sources (the committed fixtures), or another folder (``--out DIR``, as
#: tests/test_sources.py renders them afresh where the programs are installed).
OUT = HERE


def latex() -> None:
    folder = HERE / "latex"
    with tempfile.TemporaryDirectory() as out:
        for _ in range(2):
            subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"-output-directory={out}",
                            "paper.tex"], cwd=folder, check=True, stdout=subprocess.DEVNULL)
        shutil.copy(Path(out) / "paper.pdf", _out("latex"))


def chromium(html: Path, pdf: Path) -> None:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                        "--no-pdf-header-footer", f"--print-to-pdf={pdf}", html.as_uri()], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def jats_html() -> str:
    from lxml import etree

    root = etree.parse(str(HERE / "jats" / "paper.xml")).getroot()
    title = "".join(root.find(".//article-title").itertext())
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title><style>body{{font-family:"
             "serif;margin:2cm}} td,th{padding:3px 10px}</style></head><body>", f"<h1>{title}</h1>"]
    for element in root.find("body").iter("p", "table-wrap"):
        if element.tag == "p" and element.getparent().tag == "sec":
            parts.append(f"<p>{''.join(element.itertext())}</p>")
        elif element.tag == "table-wrap":
            label = "".join(element.find("label").itertext())
            caption = "".join(element.find("caption").itertext())
            table = etree.tostring(element.find("table"), encoding="unicode")
            table = table.replace("<bold>", "<strong>").replace("</bold>", "</strong>")
            parts.append(table.replace("<table>", f"<table><caption>{label}: {caption}</caption>", 1))
    return "\n".join(parts) + "</body></html>"


def docx() -> None:
    import docx as python_docx

    document = python_docx.Document()
    document.add_heading("Fixture: a Word source and its PDF", 1)
    document.add_paragraph("This document is a test fixture for the registry's source witness. Its numbers are "
                           "invented.")
    document.add_paragraph("Table 1: Images per class in the fixture splits.")
    rows = [("Split", "Class", "Images", "Total"), ("Train", "Benign", "420", "1260"), ("", "Malignant", "840", ""),
            ("Test", "Benign", "105", "315"), ("", "Malignant", "210", "")]
    table = document.add_table(rows=len(rows), cols=4)
    table.style = "Table Grid"
    for r, values in enumerate(rows):
        for c, value in enumerate(values):
            if value:
                table.cell(r, c).text = value
    table.cell(1, 0).merge(table.cell(2, 0))  # the split set once beside its two rows
    table.cell(1, 3).merge(table.cell(2, 3))  # its total too
    table.cell(3, 0).merge(table.cell(4, 0))
    table.cell(3, 3).merge(table.cell(4, 3))
    for r, c in ((1, 0), (3, 0), (1, 3), (3, 3)):
        cell = table.cell(r, c)
        for paragraph in cell.paragraphs[1:]:
            paragraph._element.getparent().remove(paragraph._element)
    document.add_paragraph("Table 2: Accuracy of the fixture models.")
    second = document.add_table(rows=3, cols=3)
    second.style = "Table Grid"
    for r, values in enumerate([("Model", "Accuracy", "AUC"), ("Baseline", "0.81", "0.88"),
                                ("FixNet", "0.93", "0.97")]):
        for c, value in enumerate(values):
            second.cell(r, c).text = value
    second.cell(2, 1).paragraphs[0].runs[0].bold = True
    folder = HERE / "docx"
    if OUT == HERE:
        document.save(str(folder / "paper.docx"))
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf",
                        "--outdir", str(_out("docx").parent), str(folder / "paper.docx")], check=True,
                       stdout=subprocess.DEVNULL)
    # LibreOffice writes its dates as '(D:...Z')' (an apostrophe after the Z), which pypdf 7 cannot read (a fault of
    # the reading, fixed apart); the fixture's dates end at the Z, a space after the string keeping the length, so
    # that the file's offsets stay right and the tests read the PDF whichever pypdf reads it
    pdf = _out("docx")
    pdf.write_bytes(re.sub(rb"\((D:\d{14}Z)[' ]\)", rb"(\1) ", pdf.read_bytes()))


def typst() -> None:
    import typst as compiler

    _out("typst").write_bytes(compiler.compile(str(HERE / "typst" / "paper.typ")))


def _out(fixture: str) -> Path:
    folder = OUT / fixture
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "paper.pdf"


def main(argv: list[str] | None = None) -> int:
    global OUT
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--out"] and len(args) == 2:
        OUT = Path(args[1]).resolve()
    latex()
    chromium(HERE / "html" / "paper.html", _out("html"))
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "paper.html"
        page.write_text(jats_html(), encoding="utf-8")
        chromium(page, _out("jats"))
    docx()
    typst()
    return 0


if __name__ == "__main__":
    sys.exit(main())
