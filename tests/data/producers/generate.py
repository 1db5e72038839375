"""The same gold table typeset by several producers: test fixtures of the registry, with invented numbers.

Each folder here is one producer's rendering of ``TABLE`` below (declared once): its source as that
producer takes it, the PDF it made (``paper.pdf``), and the gold (``cells.tsv``, in the format of
``../../../../shared/papers/FORMAT.md``), written from ``TABLE``, never read back from a PDF. The table
holds the phenomena real papers print: a row label wrapped over two lines, row-group labels, superscript
annotations after a value, the unit only in the caption, a power of ten, a mantissa and its exponent set
apart, a range, a bound in words, a ± after a value.

Producers: ``latex`` (pdflatex, booktabs), ``pandoc`` (Markdown through pandoc's LaTeX writer), ``html``
(Chromium's print to PDF), ``libreoffice`` (a .docx written with python-docx, its headers as Word sets them,
flush left) and ``libreoffice-odt`` (an OpenDocument text written with odfpy, numeric headers flush right),
both converted by LibreOffice headless, ``libreoffice-ruled`` (the .docx with every cell's borders drawn, Word's
'Table Grid', printed untagged: its grid stated by its rules), ``libreoffice-tagged`` (the same .docx exported as a tagged PDF, its
structure tree stating the table's rows and cells), ``typst`` (the ``typst`` package from PyPI). Usage: ``python generate.py`` writes every source and
gold; ``python generate.py --render [PRODUCER...]`` renders the PDFs too (each producer where it is
installed). The tests read the committed PDFs; where a producer is installed, a test renders again and
compares the text.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURE = "This page is a test fixture of the registry: the numbers are invented."
CAPTION = ("Table 1: Latency of each model in milliseconds, one request on one GPU, mean \u00b1 standard deviation "
           "over five runs (a test fixture).")
COLUMNS = ("Batch 1", "Batch 8", "Peak")


@dataclass(frozen=True)
class Cell:
    """One cell: its parts as printed (value, superscript after it, ± after it) and the gold's reading."""

    value: str
    sup: str = ""
    plus_minus: str = ""
    gold_value: str = ""
    """The value as a plain decimal where the printed value is not one ('3.2 × 10⁻⁴' is 0.00032)."""
    interval: str = ""
    power: tuple[str, str] | None = None
    """A mantissa and an exponent printed as 'm × 10^e' (the exponent raised)."""

    @property
    def printed(self) -> str:
        text = f"{self.power[0]} \u00d7 10{_superscript(self.power[1])}" if self.power else self.value
        return text + self.sup + (f" \u00b1 {self.plus_minus}" if self.plus_minus else "")


def _superscript(text: str) -> str:
    return text.translate(str.maketrans("0123456789-\u2212", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077"
                                        "\u2078\u2079\u207b\u207b"))


#: (row group, row label, cells): the gold table every producer typesets.
TABLE: tuple[tuple[str, str, tuple[Cell, ...]], ...] = (
    ("Encoder-only models", "Small encoder distilled from the base model",
     (Cell("12.4", sup="a"), Cell("31.7"), Cell("0.52"))),
    ("Encoder-only models", "Base encoder",
     (Cell("18.9", plus_minus="0.4"), Cell("47.2"), Cell("1.25"))),
    ("Decoder-only models", "Tiny decoder",
     (Cell("9.6"), Cell("12\u201315", gold_value="12", interval="12,15"), Cell("\u22120.04 e\u22122",
                                                                             gold_value="-0.0004"))),
    ("Decoder-only models", "Large decoder trained with a long context window",
     (Cell("64.3", sup="b"), Cell("less than 200", gold_value="200"),
      Cell("", power=("3.2", "\u22124"), gold_value="0.00032"))),
)
NOTES = "a: measured once. b: with caching of keys and values. The value after ± is the standard deviation over five runs."


def gold_rows() -> list[dict[str, str]]:
    rows = []
    for group, label, cells in TABLE:
        for column, cell in zip(COLUMNS, cells, strict=True):
            value = cell.gold_value or cell.value.replace("\u2212", "-")
            rows.append({"table": "Table 1", "page": "1", "row": f"{group} / {label}", "column": column,
                         "printed": cell.printed, "value": value, "plus_minus": cell.plus_minus,
                         "interval": cell.interval, "marks": cell.sup, "bold": "0", "how": "generate.py TABLE"})
    return rows


# -- sources, one per producer ----------------------------------------------------------------------------------


def body_lines(group_line, row_line) -> list[str]:  # type: ignore[no-untyped-def]
    """The table's body in one producer's markup: a group's line before its first row, then each row's line."""
    lines = []
    for index, (group, label, cells) in enumerate(TABLE):
        if index == 0 or TABLE[index - 1][0] != group:
            lines.append(group_line(group))
        lines.append(row_line(label, cells))
    return lines


def latex(cell: Cell) -> str:
    text = f"${cell.power[0]} \\times 10^{{{cell.power[1].replace(chr(0x2212), '-')}}}$" if cell.power else \
        cell.value.replace("\u2212", "$-$").replace("\u2013", "--")
    return text + (f"$^{{\\mathrm{{{cell.sup}}}}}$" if cell.sup else "") + (
        f" $\\pm$ {cell.plus_minus}" if cell.plus_minus else "")


def latex_source() -> str:
    rows = "\n".join(body_lines(lambda group: f"\\multicolumn{{4}}{{l}}{{\\textit{{{group}}}}} \\\\",
                                 lambda label, cells: f"{label} & " + " & ".join(map(latex, cells)) + " \\\\"))
    return f"""% {FIXTURE}
\\documentclass{{article}}
\\usepackage{{array}}
\\usepackage{{booktabs}}
\\begin{{document}}
{FIXTURE}

\\begin{{table}}[h]
\\centering
\\caption{{{CAPTION.removeprefix('Table 1: ')}}}
\\begin{{tabular}}{{>{{\\raggedright\\arraybackslash}}p{{4cm}}rrr}}
\\toprule
Model & {' & '.join(COLUMNS)} \\\\
\\midrule
{rows}
\\bottomrule
\\end{{tabular}}

\\smallskip
{NOTES}
\\end{{table}}
\\end{{document}}
"""


def markdown_source() -> str:
    def cell(c: Cell) -> str:
        text = f"{c.power[0]} \u00d7 10^{c.power[1]}^" if c.power else c.value
        return text + (f"^{c.sup}^" if c.sup else "") + (f" \u00b1 {c.plus_minus}" if c.plus_minus else "")

    lines = [f"<!-- {FIXTURE} -->", "", FIXTURE, "", "| Model | " + " | ".join(COLUMNS) + " |",
             "|:---------------------|-----:|-----:|-----:|",
             *body_lines(lambda group: f"| *{group}* | | | |",
                         lambda label, cells: f"| {label} | " + " | ".join(map(cell, cells)) + " |")]
    return "\n".join([*lines, "", f"Table: {CAPTION.removeprefix('Table 1: ')}", "", NOTES, ""])


def html_source() -> str:
    def cell(c: Cell) -> str:
        text = f"{c.power[0]} \u00d7 10<sup>{c.power[1]}</sup>" if c.power else c.value
        return text + (f"<sup>{c.sup}</sup>" if c.sup else "") + (f" \u00b1 {c.plus_minus}" if c.plus_minus else "")

    rows = "\n".join(body_lines(lambda group: f'<tr><td colspan="4"><i>{group}</i></td></tr>',
                                 lambda label, cells: f'<tr><td class="label">{label}</td>'
                                 + "".join(f"<td>{cell(c)}</td>" for c in cells) + "</tr>"))
    return f"""<!DOCTYPE html>
<!-- {FIXTURE} -->
<html lang="en"><head><meta charset="utf-8"><title>Test fixture</title>
<style>
body {{ font-family: "DejaVu Serif", serif; font-size: 11pt; margin: 2cm; }}
table {{ border-collapse: collapse; border-top: 1.5px solid black; border-bottom: 1.5px solid black; }}
th, td {{ padding: 2px 10px; text-align: right; }}
th:first-child, td:first-child {{ text-align: left; }}
td.label {{ width: 4cm; }}
thead th {{ border-bottom: 1px solid black; }}
caption {{ caption-side: top; text-align: left; padding-bottom: 6px; }}
</style></head>
<body>
<p>{FIXTURE}</p>
<table>
<caption>{CAPTION}</caption>
<thead><tr><th>Model</th>{''.join(f'<th>{c}</th>' for c in COLUMNS)}</tr></thead>
<tbody>
{rows}
</tbody>
</table>
<p>{NOTES}</p>
</body></html>
"""


def typst_source() -> str:
    def cell(c: Cell) -> str:
        text = f"{c.power[0]} × 10#super[{c.power[1]}]" if c.power else c.value
        return "[" + text + (f"#super[{c.sup}]" if c.sup else "") + (f" ± {c.plus_minus}" if c.plus_minus else "") \
            + "]"

    rows = "\n".join(body_lines(lambda group: f"  table.cell(colspan: 4)[_{group}_],",
                                 lambda label, cells: f"  [{label}], " + ", ".join(map(cell, cells)) + ","))
    return f"""// {FIXTURE}
#set page(paper: "a4")
#set text(font: "DejaVu Serif", size: 10pt)
{FIXTURE}

#figure(
  kind: table,
  supplement: [Table],
  caption: figure.caption(position: top)[{CAPTION.removeprefix('Table 1: ')}],
  table(
  columns: (4cm, auto, auto, auto),
  align: (left, right, right, right),
  stroke: none,
  table.hline(),
  [Model], {', '.join(f'[{c}]' for c in COLUMNS)},
  table.hline(stroke: 0.5pt),
{rows}
  table.hline(),
  )
)

{NOTES}
"""


def docx(path: Path, ruled: bool = False) -> None:
    """The table as a Word document (python-docx), for LibreOffice to print; ``ruled``: every cell's borders drawn
    (Word's 'Table Grid' style)."""
    import docx as word
    from docx.shared import Cm

    document = word.Document()
    document.core_properties.title = "Test fixture"
    document.core_properties.comments = FIXTURE
    document.add_paragraph(FIXTURE)
    document.add_paragraph(CAPTION)
    rows = sum(1 + (i == 0 or TABLE[i - 1][0] != g) for i, (g, _, _) in enumerate(TABLE))
    table = document.add_table(rows=rows + 1, cols=4)
    if ruled:
        table.style = "Table Grid"
    for index, name in enumerate(("Model", *COLUMNS)):
        table.cell(0, index).text = name
    at = 1
    for index, (group, label, cells) in enumerate(TABLE):
        if index == 0 or TABLE[index - 1][0] != group:
            merged = table.cell(at, 0).merge(table.cell(at, 3))
            merged.paragraphs[0].add_run(group).italic = True
            at += 1
        table.cell(at, 0).text = label
        for column, cell in enumerate(cells, start=1):
            paragraph = table.cell(at, column).paragraphs[0]
            paragraph.alignment = 2  # right
            if cell.power:
                paragraph.add_run(f"{cell.power[0]} \u00d7 10")
                paragraph.add_run(cell.power[1]).font.superscript = True
            else:
                paragraph.add_run(cell.value)
            if cell.sup:
                paragraph.add_run(cell.sup).font.superscript = True
            if cell.plus_minus:
                paragraph.add_run(f" \u00b1 {cell.plus_minus}")
        at += 1
    for row in table.rows:
        row.cells[0].width = Cm(4.5)
        for other in row.cells[1:]:
            other.width = Cm(2.5)
    document.add_paragraph(NOTES)
    document.save(str(path))


def ruled_docx(path: Path) -> None:
    """The Word document with every cell's borders drawn: the grid a ruled table states by its rules."""
    docx(path, ruled=True)


def odt(path: Path) -> None:
    """The table as an OpenDocument text (odfpy), for LibreOffice to print: numeric columns and their headers set
    flush right, the row-label column 4.5 cm wide, a group label spanning the row."""
    from odf import opendocument, style, table, text

    document = opendocument.OpenDocumentText()
    document.meta.addElement(__import__("odf.dc", fromlist=["Description"]).Description(text=FIXTURE))

    def automatic(name: str, family: str, *properties) -> style.Style:  # type: ignore[no-untyped-def]
        made = style.Style(name=name, family=family)
        for item in properties:
            made.addElement(item)
        document.automaticstyles.addElement(made)
        return made

    right = automatic("Right", "paragraph", style.ParagraphProperties(textalign="end"))
    sup = automatic("Sup", "text", style.TextProperties(textposition="super 58%"))
    italic = automatic("Italic", "text", style.TextProperties(fontstyle="italic"))
    wide = automatic("Wide", "table-column", style.TableColumnProperties(columnwidth="4.5cm"))
    narrow = automatic("Narrow", "table-column", style.TableColumnProperties(columnwidth="2.5cm"))
    whole = automatic("Whole", "table", style.TableProperties(width="12cm", align="left"))
    document.text.addElement(text.P(text=FIXTURE))
    document.text.addElement(text.P(text=CAPTION))
    grid = table.Table(name="Table1", stylename=whole)
    grid.addElement(table.TableColumn(stylename=wide))
    grid.addElement(table.TableColumn(stylename=narrow, numbercolumnsrepeated=3))

    def row_of(*cells: table.TableCell) -> None:
        line = table.TableRow()
        for cell in cells:
            line.addElement(cell)
        grid.addElement(line)

    def cell_of(*parts: tuple[str, style.Style | None], align: style.Style | None = None) -> table.TableCell:
        made = table.TableCell()
        paragraph = text.P(stylename=align) if align is not None else text.P()
        for words, how in parts:
            paragraph.addElement(text.Span(text=words, stylename=how) if how is not None else text.Span(text=words))
        made.addElement(paragraph)
        return made

    row_of(cell_of(("Model", None)), *(cell_of((name, None), align=right) for name in COLUMNS))
    for index, (group, label, cells) in enumerate(TABLE):
        if index == 0 or TABLE[index - 1][0] != group:
            spanning = cell_of((group, italic))
            spanning.setAttribute("numbercolumnsspanned", 4)
            row_of(spanning, *(table.CoveredTableCell() for _ in COLUMNS))
        parts = [[(f"{c.power[0]} \u00d7 10", None), (c.power[1], sup)] if c.power else [(c.value, None)]
                 for c in cells]
        for c, made in zip(cells, parts, strict=True):
            made += [(c.sup, sup)] if c.sup else []
            made += [(f" \u00b1 {c.plus_minus}", None)] if c.plus_minus else []
        row_of(cell_of((label, None)), *(cell_of(*made, align=right) for made in parts))
    document.text.addElement(grid)
    document.text.addElement(text.P(text=NOTES))
    document.save(str(path))


# -- rendering ---------------------------------------------------------------------------------------------------

SOURCES = {"latex": ("paper.tex", latex_source), "pandoc": ("paper.md", markdown_source),
           "html": ("paper.html", html_source), "typst": ("paper.typ", typst_source),
           "libreoffice": ("paper.docx", docx), "libreoffice-odt": ("paper.odt", odt),
           "libreoffice-tagged": ("paper.docx", docx), "libreoffice-ruled": ("paper.docx", ruled_docx)}
#: The sources written as files of their own (zipped XML), not as text.
BINARY = (".docx", ".odt")
#: What each producer needs installed to render again.
NEEDS = {"latex": ("pdflatex",), "pandoc": ("pandoc", "pdflatex"), "html": ("chromium",),
         "libreoffice": ("soffice",), "libreoffice-odt": ("soffice",), "libreoffice-tagged": ("soffice",),
         "libreoffice-ruled": ("soffice",),
         "typst": ()}
#: LibreOffice's PDF export filter with its structure tree written (a tagged PDF), as ``--convert-to`` takes it.
TAGGED_PDF = 'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"true"}}'


def installed(producer: str) -> bool:
    if producer == "typst":
        try:
            import typst  # noqa: F401
        except ImportError:
            return False
        return True
    return all(shutil.which(program) for program in NEEDS[producer])


def write_sources() -> None:
    for producer, (name, make) in SOURCES.items():
        folder = HERE / producer
        folder.mkdir(exist_ok=True)
        if name.endswith(BINARY):
            make(folder / name)
        else:
            (folder / name).write_text(make(), encoding="utf-8")
        with (folder / "cells.tsv").open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(gold_rows()[0]), delimiter="\t", lineterminator="\n",
                                    quoting=csv.QUOTE_NONE, escapechar=None)
            writer.writeheader()
            writer.writerows(gold_rows())


#: What pdflatex needs to typeset the minus sign and the times sign pandoc passes through as Unicode.
_UNICODE_IN_PDFLATEX = "\\DeclareUnicodeCharacter{2212}{\\ensuremath{-}}\\DeclareUnicodeCharacter{00D7}{\\ensuremath{\\times}}"


def render(producer: str, folder: Path, out: Path) -> None:
    """Render ``folder``'s source with ``producer`` into the PDF ``out``."""
    name = SOURCES[producer][0]
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1717200000", "FORCE_SOURCE_DATE": "1", "TZ": "UTC"}
    with tempfile.TemporaryDirectory() as work_name:
        work = Path(work_name)
        shutil.copy(folder / name, work / name)
        if producer == "latex":
            subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", name], cwd=work, env=env,
                           check=True, capture_output=True, timeout=300)
        elif producer == "pandoc":
            subprocess.run(["pandoc", name, "-o", "paper.pdf", "--pdf-engine=pdflatex", "-V", "geometry:margin=2cm",
                            "-V", "fontfamily=mathptmx", "-V", "header-includes=" + _UNICODE_IN_PDFLATEX],
                           cwd=work, env=env, check=True, capture_output=True, timeout=300)
        elif producer == "html":
            subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                            f"--user-data-dir={work / 'profile'}", f"--print-to-pdf={work / 'paper.pdf'}",
                            (work / name).as_uri()], cwd=work, env=env, check=True, capture_output=True, timeout=300)
        elif producer.startswith("libreoffice"):
            subprocess.run(["soffice", f"-env:UserInstallation={(work / 'profile').as_uri()}", "--headless",
                            "--convert-to", TAGGED_PDF if producer.endswith("tagged") else "pdf", "--outdir", str(work), str(work / name)], cwd=work, env=env,
                           check=True, capture_output=True, timeout=300)
        elif producer == "typst":
            import typst

            (work / "paper.pdf").write_bytes(typst.compile(str(work / name)))
        shutil.copy(work / "paper.pdf", out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--render", nargs="*", metavar="PRODUCER", help="render the PDFs too (default: every "
                        "producer installed)")
    args = parser.parse_args(argv)
    write_sources()
    if args.render is not None:
        for producer in args.render or list(SOURCES):
            if not installed(producer):
                print(f"{producer}: not installed, its committed PDF kept", file=sys.stderr)
                continue
            render(producer, HERE / producer, HERE / producer / "paper.pdf")
            print(f"rendered {producer}/paper.pdf")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
