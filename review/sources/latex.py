"""A LaTeX source's tables, read with pylatexenc's parser (not regular expressions over the text).

``read_latex(main)`` reads a main ``.tex`` file (or a ``.tar.gz`` e-print: its file with ``\\documentclass``):

- ``\\input``/``\\include`` (and ``\\subfile``) are spliced in where the parser finds them (a commented-out one is
  a comment node, and stays out);
- macros the paper defines with ``\\newcommand``/``\\renewcommand``/``\\providecommand``/``\\def`` (and
  ``\\DeclareRobustCommand``) are expanded where they are used, arguments and a default optional argument
  included, up to a depth of 32;
- every ``table``/``table*``/``sidewaystable``/``wraptable`` float, and every ``longtable``, with a ``\\caption``
  is a table, numbered in document order as LaTeX numbers them ('Table 3'); each ``tabular``, ``tabular*``,
  ``tabularx``, ``tabulary``, ``longtable``, ``array`` or ``NiceTabular`` inside it is read cell by cell: rows end at
  ``\\\\``, cells at ``&``; ``\\multicolumn`` and ``\\multirow`` give spans; booktabs' ``\\midrule`` (or the first
  ``\\hline`` under text) ends the header; ``\\cmidrule``, ``\\cline`` and other rules are dropped;
- a cell's text is what it prints: ``\\pm`` is '±', ``$10^{-4}$`` is '10⁻⁴', ``\\textbf``/``\\mathbf``/``\\bf`` set
  it bold, siunitx's ``\\num``/``\\SI`` and a number in an ``S`` column are written as siunitx prints them
  (``1.2e-3`` as '1.2 × 10⁻³'), ``\\phantom`` prints nothing, other macros print what pylatexenc's ``latex2text``
  says they print (Greek letters, daggers, arrows).

Not handled: macros defined with ``\\let`` or ``xparse``'s ``\\NewDocumentCommand``; a ``\\def`` with delimited
parameters; tables built by ``\\foreach``, ``pgfplotstable``, ``\\csvreader`` or read from data files; tabularray's
``tblr`` (its cell options); numbering changed by ``\\setcounter``, ``\\renewcommand\\thetable`` or an appendix
that restarts the count (the label is then matched to the PDF's by the caption: ``registry.checking.source_witness``);
siunitx's rounding options (``round-precision``): a number is written with the digits the source gives.
"""

from __future__ import annotations

from pathlib import Path

from review.sources.latex_document import (
    Document,
    _all,
    _args,
    _children,
    _types,
    _unwrapped,
    _verbatim,
    _walk,
    expand,
    read_path,
)
from review.sources.latex_text import cell_text
from review.sources.model import Grid, GridCell

FLOATS = frozenset({"table", "table*", "sidewaystable", "sidewaystable*", "wraptable", "longtable", "longtable*",
                    "xltabular"})
TABULARS = frozenset({"tabular", "tabular*", "tabularx", "tabulary", "longtable", "longtable*", "array",
                      "NiceTabular", "supertabular", "xltabular", "tabu", "longtabu"})
_RULES = frozenset({"hline", "toprule", "midrule", "bottomrule", "cmidrule", "cline", "addlinespace",
                    "specialrule", "hhline", "morecmidrules", "Xhline", "thickhline", "cdashline", "hdashline",
                    "arrayrulecolor", "rowcolor", "rowcolors", "noalign", "endhead", "endfirsthead", "endfoot",
                    "endlastfoot", "pagebreak", "nopagebreak", "newpage", "tabucline", "rule", "vspace",
                    "centering", "raggedright", "raggedleft", "small", "footnotesize", "scriptsize", "tiny",
                    "normalsize", "large", "Large", "label", "hfill"})
_HEADER_END = frozenset({"midrule", "hline", "Xhline", "thickhline", "specialrule", "endhead", "endfirsthead"})


# -- the parser and its macros ------------------------------------------------------------------------------------


# -- the document: its files spliced, its macros collected -----------------------------------------------------------


# -- expanding the paper's macros ---------------------------------------------------------------------------------


# -- the tables -----------------------------------------------------------------------------------------------------


def read_latex(path: Path) -> list[Grid]:
    return grids_of(read_path(path))


def grids_of(document: Document) -> list[Grid]:
    """Every captioned table float of the document, in order, each of its tabulars a grid. The paper's macros are
    expanded inside each float (not over the whole document: a thesis defines hundreds, and uses few in tables)."""
    lt = _types()
    grids: list[Grid] = []
    number = 0
    for found in _floats(_walk(document.text, {})):
        line = document.text.count("\n", 0, found.pos) + 1
        text = expand(found.latex_verbatim(), document.macros)
        nodes = [n for n in _walk(text, {}) if n.isNodeType(lt.LatexEnvironmentNode)]
        if not nodes:
            continue
        node = nodes[0]
        caption = _caption(node)
        if caption is None:
            continue
        number += 1
        label = f"Table {number}"
        tabulars = [n for n in _all([node]) if n.isNodeType(lt.LatexEnvironmentNode)
                    and n.environmentname in TABULARS and n is not node] or (
            [node] if node.environmentname in TABULARS else [])
        tabulars = [t for t in tabulars if not any(t is not o and _inside(t, o) for o in tabulars)]
        panels = _panels(node)
        for tabular in tabulars:
            rows, heads = _rows(tabular)
            title = next((f"({chr(ord('a') + i)}) {text}" for i, (panel, text) in enumerate(panels)
                          if _inside(tabular, panel)), "")
            grids.append(Grid(label, caption, rows, heads, where=f"{document.name}:{line}", reserve=False,
                              group=title, breakable=node.environmentname in _BREAKABLE))
    return grids


#: The tabulars that break across pages; a float is set on one page.
_BREAKABLE = frozenset({"longtable", "longtable*", "supertabular", "xltabular", "longtabu"})
_PANELS = frozenset({"subtable", "subfigure"})


def _panels(node) -> list:  # type: ignore[no-untyped-def,type-arg]
    """The sub-tables of a float with their captions, in order: a ``subtable`` environment's ``\\caption``, a
    ``\\subfloat[caption]``'s or a ``\\subcaptionbox{caption}``'s; printed '(a) caption' under the float's."""
    lt = _types()
    out = []
    for inner in _all(_children(node)):
        if inner.isNodeType(lt.LatexEnvironmentNode) and inner.environmentname in _PANELS:
            captions = [n for n in _all(_children(inner)) if n.isNodeType(lt.LatexMacroNode)
                        and n.macroname == "caption"]
            if captions:
                body = _args(captions[0])[-1]
                out.append((inner, " ".join(cell_text(_unwrapped(body))[0].split())))
        elif inner.isNodeType(lt.LatexMacroNode) and inner.macroname in ("subfloat", "subcaptionbox"):
            args = _args(inner)
            title = ((args[1] or args[0]) if inner.macroname == "subfloat" and len(args) > 1 else
                     args[1] if inner.macroname == "subcaptionbox" and len(args) > 1 else None)
            if title is not None:
                out.append((inner, " ".join(cell_text(_unwrapped(title))[0].split())))
    return out


def _inside(inner, outer) -> bool:  # type: ignore[no-untyped-def]
    return outer.pos <= inner.pos and inner.pos + inner.len <= outer.pos + outer.len


def _floats(nodes) -> list:  # type: ignore[no-untyped-def,type-arg]
    lt = _types()
    out = []
    for node in _all(nodes):
        if node.isNodeType(lt.LatexEnvironmentNode) and node.environmentname in FLOATS:
            if not any(_inside(node, o) for o in out):
                out.append(node)
    return out


def _caption(node) -> str | None:  # type: ignore[no-untyped-def]
    """A float's caption text (``\\caption`` or ``\\captionof{table}``); None where it has none to number."""
    lt = _types()
    panels = [p for p, _ in _panels(node)]
    for inner in _all(_children(node)):
        if inner.isNodeType(lt.LatexMacroNode) and inner.macroname in ("caption", "captionof") and not any(
                _inside(inner, panel) for panel in panels):
            args = _args(inner)
            if args and args[0] is not None:  # \caption*: not numbered
                continue
            if inner.macroname == "captionof" and (len(args) < 2 or _verbatim(args[1]).strip() != "table"):
                continue
            body = args[-1] if args else None
            return " ".join(cell_text(body.nodelist if body is not None and hasattr(body, "nodelist") else [])[0]
                            .split())
    return None


# -- a tabular's rows and cells -------------------------------------------------------------------------------------


def _column_types(spec: str) -> list[str]:
    """The column letters of a tabular's preamble ('l', 'c', 'S', 'X', 'p'), ``*{n}{...}`` expanded."""
    out: list[str] = []
    i = 0
    while i < len(spec):
        ch = spec[i]
        if ch == "*" and i + 1 < len(spec) and spec[i + 1] == "{":
            count_end = _group_end(spec, i + 1)
            inner_end = _group_end(spec, count_end + 1)
            count = spec[i + 2:count_end].strip()
            inner = spec[count_end + 2:inner_end]
            out += _column_types(inner) * (int(count) if count.isdigit() else 1)
            i = inner_end + 1
            continue
        if ch in "@!><":
            i = _group_end(spec, i + 1) + 1 if i + 1 < len(spec) and spec[i + 1] == "{" else i + 1
            continue
        if ch in "lcrXSsLCRJYZ":
            out.append(ch)
            i += 1
            if i < len(spec) and spec[i] == "[":
                i = spec.find("]", i) + 1 or len(spec)
            continue
        if ch in "pmbw" and i + 1 < len(spec) and spec[i + 1] in "{":
            out.append(ch)
            i = _group_end(spec, i + 1) + 1
            if ch == "w":
                i = _group_end(spec, i) + 1 if i < len(spec) and spec[i] == "{" else i
            continue
        i += 1
    return out


def _group_end(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(text) - 1


def _rows(tabular) -> tuple[list[list[GridCell]], int | None]:  # type: ignore[no-untyped-def]
    """A tabular's rows of cells, and how many rows sit above its first body rule (None: no rule marks it)."""
    lt = _types()
    args = [a for a in _args(tabular) if a is not None]
    spec = _verbatim(args[-1]) if args else ""
    types = _column_types(spec)
    rows: list[list[GridCell]] = []
    cells: list[GridCell] = []
    current: list = []  # type: ignore[type-arg]
    heads: int | None = None
    skip_group = False

    def end_cell() -> None:
        cells.append(_cell(current, types[len(cells)] if len(cells) < len(types) else "l"))
        current.clear()

    def end_row() -> None:
        end_cell()
        if any(c.text for c in cells) or len(cells) > 1:
            rows.append(list(cells))
        cells.clear()

    coding = False
    for node in tabular.nodelist or []:
        if node.isNodeType(lt.LatexMacroNode) and node.macroname in ("CodeBefore", "Body"):
            coding = node.macroname == "CodeBefore"  # NiceTabular's code before its body prints nothing
            continue
        if coding:
            continue
        if skip_group and node.isNodeType(lt.LatexCharsNode) and node.chars.strip().startswith("("):
            rest = node.chars.split(")", 1)
            if len(rest) == 2 and rest[1].strip():
                current.append(_chars(rest[1]))
            continue
        skip_group = False
        if node.isNodeType(lt.LatexSpecialsNode) and node.specials_chars == "&":
            end_cell()
        elif node.isNodeType(lt.LatexMacroNode) and node.macroname in ("\\", "tabularnewline", "cr"):
            end_row()
        elif node.isNodeType(lt.LatexMacroNode) and node.macroname in _RULES:
            if node.macroname in _HEADER_END and heads is None and rows and not cells and not any(
                    _plain(n) for n in current):
                heads = len(rows)
            skip_group = node.macroname in ("cmidrule", "cline")
        elif node.isNodeType(lt.LatexCommentNode):
            continue
        else:
            current.append(node)
    if any(_plain(n) for n in current) or cells:
        end_row()
    if heads is not None and heads >= len(rows):
        heads = None
    return rows, heads


def _chars(text: str):  # type: ignore[no-untyped-def]
    return _types().LatexCharsNode(parsing_state=None, chars=text, pos=0, len=len(text))


def _plain(node) -> str:  # type: ignore[no-untyped-def]
    return node.latex_verbatim().strip() if node is not None else ""


def _cell(nodes: list, column_type: str) -> GridCell:  # type: ignore[type-arg]
    """One cell: its text and bold, and the spans its ``\\multicolumn``/``\\multirow`` give."""
    lt = _types()
    colspan = rowspan = fill = 1
    body = nodes
    for node in nodes:
        if node.isNodeType(lt.LatexMacroNode) and node.macroname == "multicolumn":
            args = _args(node)
            colspan = _int(args[0]) or 1
            inner = args[2]
            body = _unwrapped(inner)
            column_type = (_column_types(_verbatim(args[1])) or ["l"])[0]
            break
    nested = [n for n in body if n.isNodeType(lt.LatexMacroNode) and n.macroname in ("multirow", "Block")]
    if nested and nested[0].macroname == "Block":  # NiceTabular's \Block{rows-columns}{text}
        args = _args(nested[0])
        shape = _verbatim(args[1]).strip().split("-")
        rowspan = int(shape[0]) if shape[0].isdigit() else 1
        fill = int(shape[1]) if len(shape) > 1 and shape[1].isdigit() else 1
        body = _unwrapped(args[2])
    elif nested:
        args = _args(nested[0])
        rowspan = _int(args[1]) or 1
        body = _unwrapped(args[5])
    text, bold = cell_text(body, siunitx=column_type == "S")
    return GridCell(" ".join(text.split()), bold, colspan, rowspan, fill_columns=fill)


def _int(node) -> int | None:  # type: ignore[no-untyped-def]
    text = _verbatim(node).strip()
    try:
        return int(text)
    except ValueError:
        return None


