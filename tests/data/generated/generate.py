"""LaTeX results tables across the conventions real papers use: test fixtures of the registry, invented numbers.

Each folder ``<convention>-<seed>`` holds one document (``paper.tex``), the PDF pdflatex made of it (``paper.pdf``)
and its gold (``cells.tsv``, in the format of ``../../../../shared/papers/FORMAT.md``), written here from the same
data the LaTeX is written from, never read back from a PDF. The page of each table is LaTeX's own (its ``\\label``
in the ``.aux`` file). Each convention (``CONVENTIONS``) forces one way of setting a table (booktabs rules, a
``\\hline`` grid, ``\\multicolumn`` group headers, ``\\multirow`` row groups, a ``\\pm`` with a ``\\scriptsize``
std, ``\\resizebox``, ``table*`` in a two-column class, minipages side by side ...); the seed varies the rest
(the number of rows and columns, names, decimals, the caption above or below). Usage:
``python generate.py [--seeds N] [CONVENTION...]`` (default: every convention, 3 seeds each). Needs pdflatex with
texlive-latex-extra (multirow, threeparttable, makecell); texlive-science (siunitx) and texlive-publishers
(IEEEtran) where installed, else those conventions are skipped with a message. The tests read the committed PDFs.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURE = "This page is a test fixture of the registry: every number on it is invented."
COLUMNS = ["table", "page", "row", "column", "printed", "value", "plus_minus", "interval", "marks", "bold", "how"]
MINUS = "\u2212"
METHODS = ["Baseline", "ResNet-50", "ViT-B", "BERT-base", "Ours", "Linear probe", "k-NN", "MLP", "GPT-2",
           "T5-small", "Random", "Oracle", "LSTM", "CNN", "DeiT-S", "Swin-T"]
LONG = ["Contrastive pretraining with hard negatives", "Supervised fine-tuning on the full training set",
        "Zero-shot transfer from the source domain", "Self-training with pseudo labels and mixup",
        "Ensemble of five independently trained models", "Knowledge distillation from a larger teacher"]
DATASETS = ["CIFAR-10", "ImageNet", "SST-2", "MNLI", "COCO", "ADE20K", "QQP", "SVHN"]
METRICS = ["Acc", "F1", "AUC", "BLEU", "mIoU", "Recall", "Prec", "EM"]
SHORT = ["R1", "R5", "R10", "P1", "P5", "MRR", "NDCG", "MAP", "H1", "H3", "H10", "Top1", "Top5", "Avg"]
GROUPS = ["Supervised", "Self-supervised", "Zero-shot", "Few-shot"]


@dataclass
class Style:
    """How one table is set: each field one convention of real papers."""

    rules: str = "booktabs"          # booktabs | hline | none
    column_groups: bool = False      # a \multicolumn header level over the metrics (dataset names)
    cmidrule: bool = True            # partial rules under the group headers (booktabs)
    row_groups: str = ""             # "" | multirow | line
    pm: str = ""                     # "" | plain | scriptsize | tiny
    highlight: bool = False          # best bold, second underlined
    size: str = ""                   # "" | small | footnotesize
    resize: bool = False             # \resizebox{\linewidth}{!}{...}
    siunitx: bool = False            # S columns
    wrap: bool = False               # long row labels in a p{} column
    columns: tuple[int, int] = (3, 5)
    rows: tuple[int, int] = (3, 5)
    short_headers: bool = False
    negatives: bool = False
    percent: bool = False
    arrows: bool = False
    notes: bool = False              # threeparttable \tnote marks and notes under the table
    rowcolor: bool = False
    caption_above: bool | None = None  # None: the seed picks
    wide: bool = False               # table* (in a two-column class)


@dataclass
class Document:
    """The document class and how its tables stand."""

    cls: str = "article"             # article | twocolumn | ieee | cvpr | acl
    side_by_side: bool = False       # two tables in minipages, one float
    tables: int = 2


@dataclass(frozen=True)
class Convention:
    name: str
    style: Style = field(default_factory=Style)
    document: Document = field(default_factory=Document)
    needs: str = ""                  # a .sty/.cls file the convention needs (kpsewhich)


CONVENTIONS = [
    Convention("booktabs"),
    Convention("hline-grid", Style(rules="hline")),
    Convention("no-rules", Style(rules="none")),
    Convention("multicolumn-groups", Style(column_groups=True)),
    Convention("multicolumn-hline", Style(column_groups=True, rules="hline")),
    Convention("multirow-groups", Style(row_groups="multirow")),
    Convention("group-line", Style(row_groups="line")),
    Convention("siunitx", Style(siunitx=True, negatives=True), needs="siunitx.sty"),
    Convention("pm-scriptsize", Style(pm="scriptsize")),
    Convention("pm-tiny", Style(pm="tiny")),
    Convention("pm-plain", Style(pm="plain")),
    Convention("bold-underline", Style(highlight=True)),
    Convention("resizebox", Style(resize=True, columns=(6, 9))),
    Convention("small-footnotesize", Style(size="small")),
    Convention("twocol-tablestar", Style(wide=True, columns=(6, 9), column_groups=True), Document("twocolumn")),
    Convention("twocol-narrow", Style(columns=(2, 3)), Document("twocolumn")),
    # IEEE sets a table's caption above it
    Convention("ieeetran", Style(columns=(2, 3), caption_above=True), Document("ieee"), needs="IEEEtran.cls"),
    Convention("ieeetran-wide", Style(wide=True, columns=(6, 8), caption_above=True), Document("ieee"),
               needs="IEEEtran.cls"),
    Convention("cvpr-like", Style(wide=True, columns=(5, 8), pm="scriptsize"), Document("cvpr")),
    Convention("acl-like", Style(columns=(2, 3), highlight=True), Document("acl")),
    Convention("caption-below", Style(caption_above=False)),
    Convention("caption-above", Style(caption_above=True)),
    Convention("minipages", Style(columns=(2, 3)), Document(side_by_side=True)),
    Convention("wrapped-labels", Style(wrap=True)),
    Convention("many-columns", Style(columns=(10, 14), short_headers=True, size="footnotesize")),
    Convention("datasets-metrics", Style(column_groups=True, columns=(2, 3), arrows=True)),
    Convention("negatives-percent", Style(negatives=True, percent=True)),
    Convention("arrows", Style(arrows=True)),
    Convention("threeparttable", Style(notes=True)),
    Convention("rowcolor", Style(rowcolor=True)),
]


@dataclass
class Gold:
    row: str
    column: str
    printed: str
    value: str
    plus_minus: str = ""
    marks: str = ""
    bold: bool = False
    line: str = ""
    """The source line the cell's row is typed on."""


@dataclass
class Cell:
    tex: str
    gold: Gold


def _number(rng: random.Random, style: Style, decimals: int) -> tuple[str, str]:
    """A value: (as typed in the source, as a plain decimal)."""
    value = rng.uniform(-40, 40) if style.negatives and rng.random() < 0.4 else rng.uniform(1, 99)
    plain = f"{value:.{decimals}f}"
    return plain, plain


def _cell(rng: random.Random, style: Style, decimals: int, rank: int, mark: str) -> Cell:
    plain, value = _number(rng, style, decimals)
    printed = plain.replace("-", MINUS)
    tex = plain if style.siunitx else plain.replace("-", "$-$")
    if style.percent:
        printed += "%"
        tex += "\\%"
    bold = style.highlight and rank == 0
    if bold:
        tex = f"\\textbf{{{tex}}}"
    elif style.highlight and rank == 1:
        tex = f"\\underline{{{tex}}}"
    pm = ""
    if style.pm:
        pm = f"{rng.uniform(0.05, 2.5):.{max(decimals, 1)}f}"
        tex += {"plain": f" $\\pm$ {pm}", "scriptsize": f"{{\\scriptsize $\\pm$ {pm}}}",
                "tiny": f"\\,{{\\tiny$\\pm${pm}}}"}[style.pm]
        printed += f" \u00b1 {pm}"
    if mark:
        tex += f"\\tnote{{{mark}}}"
        printed += mark
    return Cell(tex, Gold("", "", printed, value, pm, mark, bold))


@dataclass
class Built:
    tex: str
    cells: list[Gold]


def _header(rng: random.Random, style: Style) -> tuple[list[str], list[tuple[str, int]]]:
    """The column paths, and the groups over them ((name, span); [] where there is one level)."""
    names = SHORT if style.short_headers else METRICS
    count = rng.randint(*style.columns)
    if not style.column_groups:
        metrics = rng.sample(names, min(count, len(names)))
        return [m + (rng.choice(["\u2191", "\u2193"]) if style.arrows else "") for m in metrics], []
    per = rng.randint(2, 3) if count > 3 else 2
    groups = rng.sample(DATASETS, max(2, min(4, count // per)))
    metrics = rng.sample(METRICS, per)
    if style.arrows:
        metrics = [m + rng.choice(["\u2191", "\u2193"]) for m in metrics]
    return [f"{g} / {m}" for g in groups for m in metrics], [(g, per) for g in groups]


def _tex_name(name: str) -> str:
    return name.replace("\u2191", "$\\uparrow$").replace("\u2193", "$\\downarrow$").replace("%", "\\%")


def table(rng: random.Random, style: Style, label: str) -> Built:
    """One float body (tabular and caption) and its gold."""
    columns, groups = _header(rng, style)
    decimals = rng.choice([1, 2, 2, 3])
    row_count = rng.randint(*style.rows)
    group_names = rng.sample(GROUPS, 2) if style.row_groups else [""]
    lines: list[str] = []
    gold: list[Gold] = []
    align = f"S[table-format=-2.{decimals}]" if style.siunitx else ("r" if rng.random() < 0.5 else "c")
    first = "p{3.2cm}" if style.wrap else "l"
    lead = ["l"] if style.row_groups == "multirow" else []
    bar = "|" if style.rules == "hline" else ""
    spec = bar + bar.join(lead + [first] + [align] * len(columns)) + bar
    top = {"booktabs": "\\toprule", "hline": "\\hline", "none": ""}[style.rules]
    mid = {"booktabs": "\\midrule", "hline": "\\hline", "none": ""}[style.rules]
    bottom = {"booktabs": "\\bottomrule", "hline": "\\hline", "none": ""}[style.rules]
    offset = len(lead) + 1
    header_lines = []
    if groups:
        cells = [""] * offset + [f"\\multicolumn{{{span}}}{{c{bar}}}{{{g}}}" for g, span in groups]
        header_lines.append(" & ".join(cells) + " \\\\")
        if style.rules == "booktabs" and style.cmidrule:
            at = offset + 1
            rules = []
            for _, span in groups:
                rules.append(f"\\cmidrule(lr){{{at}-{at + span - 1}}}")
                at += span
            header_lines.append(" ".join(rules))
        elif style.rules == "hline":
            header_lines.append("\\hline")
    metric_names = [c.split(" / ")[-1] for c in columns]
    wrap = (lambda s: f"{{{s}}}") if style.siunitx else (lambda s: s)
    header_lines.append(" & ".join([""] * len(lead) + ["Method"] + [wrap(_tex_name(m)) for m in metric_names])
                        + " \\\\")
    notes: list[str] = []
    names = LONG if style.wrap else METHODS
    for gi, group in enumerate(group_names):
        labels = rng.sample(names, min(row_count, len(names)))
        if style.row_groups == "line":
            lines.append(f"\\multicolumn{{{1 + len(columns)}}}{{l}}{{\\textit{{{group}}}}} \\\\")
        values: list[list[Cell]] = []
        marks = {(rng.randrange(len(labels)), rng.randrange(len(columns))): m for m in "ab"} if style.notes else {}
        for r in range(len(labels)):
            values.append([_cell(rng, style, decimals, -1, marks.get((r, c), "")) for c in range(len(columns))])
        if style.highlight:  # best in each column bold, second underlined: typeset again with the ranks
            for c in range(len(columns)):
                order = sorted(range(len(labels)), key=lambda r: -float(values[r][c].gold.value))
                for rank, r in enumerate(order[:2]):
                    state = rng.getstate()
                    values[r][c] = _rerank(values[r][c], rank, style)
                    rng.setstate(state)
        for r, name in enumerate(labels):
            row_tex = []
            if style.row_groups == "multirow":
                row_tex.append(f"\\multirow{{{len(labels)}}}{{*}}{{{group}}}" if r == 0 else "")
            row_tex.append(name)
            row_tex += [cell.tex for cell in values[r]]
            prefix = "\\rowcolor{gray!15} " if style.rowcolor and r % 2 == 0 else ""
            lines.append(prefix + " & ".join(row_tex) + " \\\\")
            path = f"{group} / {name}" if group else name
            for c, cell in enumerate(values[r]):
                gold.append(replace(cell.gold, row=path, column=columns[c], line=lines[-1]))
        if gi + 1 < len(group_names):
            lines.append(mid if mid else "\\addlinespace" if style.rules == "booktabs" else "[2pt]")
        for m in marks.values():
            notes.append(f"\\item[{m}] Note {m}: a test fixture's note.")
    size = {"small": "\\small", "footnotesize": "\\footnotesize", "": ""}[style.size]
    caption = (f"\\caption{{Results of each method on the test set{' in percent' if style.percent else ''} "
               f"(a test fixture, invented numbers).}}\\label{{{label}}}")
    tabular = [f"\\begin{{tabular}}{{{spec}}}"] + ([top] if top else []) + header_lines + ([mid] if mid else []) \
        + lines + ([bottom] if bottom else []) + ["\\end{tabular}"]
    if style.resize:
        tabular = ["\\resizebox{\\linewidth}{!}{%"] + tabular + ["}"]
    if style.notes:
        tabular = ["\\begin{threeparttable}"] + tabular + ["\\begin{tablenotes}\\footnotesize"] + notes \
            + ["\\end{tablenotes}", "\\end{threeparttable}"]
    above = style.caption_above if style.caption_above is not None else rng.random() < 0.5
    before = ["\\centering" + size] + ([caption] if above else [])
    body = before + tabular + ([] if above else [caption])
    return Built("\n".join(body), gold)


def _rerank(cell: Cell, rank: int, style: Style) -> Cell:
    """The cell set again as the best (bold) or second best (underlined) of its column."""
    plain = cell.gold.value
    tex = plain if style.siunitx else plain.replace("-", "$-$")
    if style.percent:
        tex += "\\%"
    rest = cell.tex.split(" $\\pm$", 1)[1] if " $\\pm$" in cell.tex else ""
    tex = f"\\textbf{{{tex}}}" if rank == 0 else f"\\underline{{{tex}}}"
    tex = tex + (" $\\pm$" + rest if rest else "")
    if cell.gold.marks:
        tex = tex if "\\tnote" in tex else tex + f"\\tnote{{{cell.gold.marks}}}"
    return Cell(tex, replace(cell.gold, bold=rank == 0))


PREAMBLES = {
    "article": "\\documentclass[11pt]{article}\n\\usepackage[margin=1in]{geometry}",
    "twocolumn": "\\documentclass[10pt,twocolumn]{article}\n\\usepackage[margin=0.75in]{geometry}",
    "ieee": "\\documentclass[conference]{IEEEtran}\n\\usepackage[T1]{fontenc}",
    "cvpr": "\\documentclass[10pt,twocolumn,letterpaper]{article}\n"
            "\\usepackage[margin=0.8in,columnsep=0.33in]{geometry}\n\\usepackage{times}\n\\usepackage[T1]{fontenc}",
    "acl": "\\documentclass[11pt,twocolumn]{article}\n\\usepackage[margin=2.5cm]{geometry}\n\\usepackage{times}\n\\usepackage[T1]{fontenc}",
}
PACKAGES = ("\\usepackage{booktabs,multirow,graphicx,threeparttable,array}\n"
            "\\usepackage[table]{xcolor}\n\\usepackage{amssymb}")
FILLER = ("The methods are compared on the same splits with the same budget. " * 12).strip()


def _roman(n: int) -> str:
    return ["", "I", "II", "III", "IV", "V"][n]


def document(convention: Convention, seed: int) -> tuple[str, list[tuple[str, Gold, str]]]:
    """The document's source and its gold: (printed table label, cell, LaTeX label) per cell."""
    rng = random.Random(f"{convention.name}-{seed}")
    doc, style = convention.document, convention.style
    head = PREAMBLES[doc.cls] + "\n" + PACKAGES + ("\n\\usepackage{siunitx}" if style.siunitx else "")
    lines = head.split("\n") + ["\\begin{document}", FIXTURE, "", FILLER, ""]
    gold: list[tuple[str, Gold, str]] = []
    printed = (lambda n: f"TABLE {_roman(n)}") if doc.cls == "ieee" else (lambda n: f"Table {n}")
    env = "table*" if style.wide else "table"
    if doc.side_by_side:
        lines += [f"\\begin{{{env}}}[t]"]
        for n in (1, 2):
            lines += ["\\begin{minipage}{0.48\\linewidth}"]
            built = table(rng, style, f"tab:{n}")
            lines += built.tex.split("\n") + ["\\end{minipage}" + ("\\hfill" if n == 1 else "")]
            gold += [(printed(n), g, f"tab:{n}") for g in built.cells]
        lines += [f"\\end{{{env}}}", "", FILLER, ""]
    else:
        for n in range(1, doc.tables + 1):
            lines += [f"\\begin{{{env}}}[t]" if doc.cls != "article" else "\\begin{table}[h]"]
            built = table(rng, style, f"tab:{n}")
            lines += built.tex.split("\n") + [f"\\end{{{env}}}" if doc.cls != "article" else "\\end{table}",
                                              "", FILLER, ""]
            gold += [(printed(n), g, f"tab:{n}") for g in built.cells]
    lines += [FILLER, "\\end{document}", ""]
    return "\n".join(lines), gold


def _pages(aux: str) -> dict[str, int]:
    """Each \\label's page, as LaTeX wrote it to the .aux file."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"\\newlabel\{([^}]*)\}\{\{[^}]*\}\{(\d+)\}", aux)}


def build(convention: Convention, seed: int, out: Path) -> None:
    source, gold = document(convention, seed)
    lines = source.split("\n")
    env = dict(os.environ, SOURCE_DATE_EPOCH="1717200000", FORCE_SOURCE_DATE="1", TZ="UTC", LC_ALL="C")
    with tempfile.TemporaryDirectory() as work:
        (Path(work) / "paper.tex").write_text(source, encoding="utf-8")
        for _ in range(2):
            done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                                  cwd=work, env=env, capture_output=True, text=True)
            if done.returncode:
                raise RuntimeError(f"pdflatex failed on {out.name}:\n{done.stdout[-3000:]}")
        pages = _pages((Path(work) / "paper.aux").read_text(encoding="utf-8"))
        out.mkdir(parents=True, exist_ok=True)
        (out / "paper.tex").write_text(source, encoding="utf-8")
        shutil.copyfile(Path(work) / "paper.pdf", out / "paper.pdf.tmp")
        (out / "paper.pdf.tmp").replace(out / "paper.pdf")
    with (out / "cells.tsv.tmp").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE, escapechar="\\")
        writer.writerow(COLUMNS)
        for label, g, key in gold:
            writer.writerow([label, pages[key], g.row, g.column, g.printed, g.value, g.plus_minus, "", g.marks,
                             int(g.bold), f"tex paper.tex:{lines.index(g.line) + 1}"])
    (out / "cells.tsv.tmp").replace(out / "cells.tsv")


def convention_of(folder_name: str) -> str:
    """The convention a generated folder shows: its name less the seed ('hline-grid-2' is 'hline-grid')."""
    return folder_name.rsplit("-", 1)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("conventions", nargs="*")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args(argv)
    wanted = [c for c in CONVENTIONS if not args.conventions or c.name in args.conventions]
    for convention in wanted:
        if convention.needs and subprocess.run(["kpsewhich", convention.needs], capture_output=True).returncode:
            print(f"skipped {convention.name}: {convention.needs} is not installed", file=sys.stderr)
            continue
        for seed in range(1, args.seeds + 1):
            build(convention, seed, HERE / f"{convention.name}-{seed}")
            print(f"built {convention.name}-{seed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
