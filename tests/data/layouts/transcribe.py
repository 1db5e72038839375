"""Write each layout's gold (``cells.tsv``, format in ``../../../../shared/papers/FORMAT.md``) from its paper.tex.

The gold is read from the LaTeX source, never from an extractor: each tabular's header rows (above the first
``\\midrule``) give the column paths, ``\\multicolumn`` spanning its columns; the leading ``l`` columns give the
row path, a ``\\multirow`` label the group of the rows it spans. Only the page each row lands on is read from
the rendered page (by eye), and is declared in ``PAGES`` below. Usage: ``python transcribe.py`` (rewrites every
folder's cells.tsv).
"""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
# (folder, table) -> [(first row on the page, page)]: where each table's rows are printed, seen on the page
PAGES: dict[tuple[str, str], list[tuple[str, int]]] = {
    ("onecol-booktabs-multirow", "Table 1"): [("", 1)],
    ("onecol-booktabs-multirow", "Table 2"): [("", 1)],
    ("twocol-tablestar", "Table 1"): [("", 1)],
    ("twocol-tablestar", "Table 2"): [("", 2)],
    ("uncertainty-columns", "Table 1"): [("", 1)],
    ("uncertainty-columns", "Table 2"): [("", 1)],
    ("sideways-resizebox", "Table 1"): [("", 1)],
    ("sideways-resizebox", "Table 2"): [("", 2)],
    ("longtable-continued", "Table 1"): [("", 1), ("Task 43", 2)],
    ("threeparttable-notes", "Table 1"): [("", 1)],
}
COLUMNS = ["table", "page", "row", "column", "printed", "value", "plus_minus", "interval", "marks", "bold", "how"]
_NUMBER = r"[-+\u2212]?\d+(?:,\d{3})*(?:\.\d+)?"


def _arg(text: str, at: int) -> tuple[str, int]:
    """The braced argument starting at text[at] == '{', and the index after it."""
    depth = 0
    for i in range(at, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[at + 1:i], i + 1
    raise ValueError(f"unbalanced braces in {text!r}")


def _plain(cell: str) -> str:
    """The cell's text as printed: markup dropped, \\pm as ±, thin spaces as spaces."""
    cell = re.sub(r"\$-", "$\u2212", cell)  # a minus sign in math mode is printed as U+2212
    cell = re.sub(r"\\tnote\{([^}]*)\}", r"\1", cell)  # a threeparttable mark, set after the value
    cell = re.sub(r"\\(?:textbf|mathbf|multicolumn\{\d+\}\{[^}]*\}|multirow\{\d+\}\{[^}]*\})", "", cell)
    cell = cell.replace("\\pm", " \u00b1 ").replace("\\,", " ").replace("\\%", "%").replace("$", "")
    cell = cell.replace("{", "").replace("}", "")
    return re.sub(r"\s+", " ", cell).strip()


def _span(cell: str) -> int:
    found = re.match(r"\s*\\multicolumn\{(\d+)\}", cell)
    return int(found.group(1)) if found else 1


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.rstrip().removesuffix("\\\\").split("&")]


def transcribe(folder: Path) -> list[dict[str, str]]:
    lines = (folder / "paper.tex").read_text(encoding="utf-8").splitlines()
    out: list[dict[str, str]] = []
    number = 0
    i = 0
    while i < len(lines):
        begun = re.search(r"\\begin\{(tabular|longtable)\}", lines[i])
        if not begun:
            i += 1
            continue
        number += 1
        table = f"Table {number}"
        rest = lines[i][begun.end():]
        spec, _ = _arg(rest, rest.index("{"))
        labels = len(spec) - len(spec.lstrip("l"))  # the leading 'l' columns hold the row's labels
        header: list[list[str]] = []
        rows: list[tuple[int, list[str]]] = []
        state = "header"
        i += 1
        while not re.search(r"\\end\{(tabular|longtable)\}", lines[i]):
            line = lines[i].strip()
            if line.startswith("\\endfirsthead"):
                state = "skip"
            elif line.startswith("\\endlastfoot"):
                state = "body"
            elif line.startswith("\\midrule") and state == "header":
                state = "body"
            elif line.startswith(("\\caption", "\\toprule", "\\midrule", "\\bottomrule", "\\cmidrule", "\\end")):
                pass
            elif state == "header" and "&" in line:
                expanded: list[str] = []
                for cell in _cells(line):
                    expanded += [_plain(cell)] * _span(cell)
                header.append(expanded)
            elif state == "body" and "&" in line:
                rows.append((i + 1, _cells(line)))
            i += 1
        pages = PAGES[(folder.name, table)]
        group, groups_left, page = "", 0, pages[0][1]
        seen: dict[str, int] = {}
        for line_no, cells in rows:
            if cells[0].startswith("\\multirow"):
                group, groups_left = _plain(cells[0]), int(cells[0].split("}")[0].removeprefix("\\multirow{"))
            path = [p for p in [group if groups_left > 0 else ""] + [_plain(c) for c in cells[int(labels > 1):labels]]
                    if p]
            if labels > 1 and not group:
                path = [_plain(c) for c in cells[:labels] if _plain(c)]
            groups_left -= 1
            row = " / ".join(path)
            seen[row] = seen.get(row, 0) + 1
            page = next((p for first, p in pages if first == row), page)  # a row that starts a page
            for column_index in range(labels, len(cells)):
                raw = cells[column_index]
                printed = _plain(raw)
                numbers = re.findall(_NUMBER, printed)
                if not numbers:
                    continue
                column = " / ".join(dict.fromkeys(h[column_index] for h in header if h[column_index]))
                plus_minus = re.search(r"\u00b1 (" + _NUMBER + ")", printed)
                interval = re.fullmatch(r"[\[(](" + _NUMBER + "), (" + _NUMBER + r")[\])]", printed)
                value = numbers[0].replace(",", "").replace("\u2212", "-").lstrip("+")
                marks = "".join(re.findall(r"\\tnote\{([^}]*)\}", raw))
                out.append({
                    "table": table, "page": str(page), "row": row, "column": column, "printed": printed,
                    "value": value, "plus_minus": plus_minus.group(1) if plus_minus else "",
                    "interval": f"{interval.group(1)},{interval.group(2)}" if interval else "", "marks": marks,
                    "bold": "1" if re.search(r"\\(?:textbf|mathbf)", raw) else "0", "how": f"tex paper.tex:{line_no}",
                })
        i += 1
    return out


def main() -> None:
    for folder in sorted(p for p in HERE.iterdir() if (p / "paper.tex").is_file()):
        cells = transcribe(folder)
        text = "\t".join(COLUMNS) + "\n" + "".join("\t".join(c[k] for k in COLUMNS) + "\n" for c in cells)
        target = folder / "cells.tsv"
        temporary = target.with_suffix(".tsv.tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(target)
        print(f"{folder.name}: {len(cells)} cells")


if __name__ == "__main__":
    main()
