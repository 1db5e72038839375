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

import tarfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from review.sources.model import Grid, GridCell
from review.sources.model import raised as to_superscript

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
_BOLD = frozenset({"textbf", "mathbf", "bm", "boldsymbol", "mathbold", "pmb", "bfseries", "bf", "textbfit"})
_DROP = frozenset({"phantom", "hphantom", "vphantom", "label", "cite", "citep", "citet", "ref", "eqref",
                   "footnote", "footnotemark", "vspace", "hspace", "color", "rowcolor", "cellcolor",
                   "arrayrulecolor", "rule", "raisebox", "includegraphics", "index", "nocite", "linewidth",
                   "setlength", "addlinespace", "renewcommand", "newcommand", "def", "tabcolsep", "arraystretch",
                   "caption", "captionof", "centering", "strut", "xspace", "protect", "noindent", "relax",
                   "hfill", "vfill", "smallskip", "medskip", "bigskip", "null", "unskip", "sisetup", "pagebreak",
                   "rotatebox", "setcounter", "addtocounter", "resizebox", "scalebox", "adjustbox"})
_SYMBOLS = {"pm": "\u00b1", "mp": "\u2213", "times": "\u00d7", "cdot": "\u00b7", "leq": "\u2264", "le": "\u2264",
            "geq": "\u2265", "ge": "\u2265", "approx": "\u2248", "sim": "~", "dagger": "\u2020",
            "ddagger": "\u2021", "textdagger": "\u2020", "textdaggerdbl": "\u2021", "ast": "*", "star": "\u22c6",
            "%": "%", "&": "&", "_": "_", "#": "#", "$": "$", "{": "{", "}": "}", "textasteriskcentered": "*",
            "uparrow": "\u2191", "downarrow": "\u2193", "rightarrow": "\u2192", "to": "\u2192",
            "leftarrow": "\u2190", "checkmark": "\u2713", "cmark": "\u2713", "xmark": "\u2717",
            "textpm": "\u00b1", "textminus": "\u2212", "textless": "<", "textgreater": ">", "lt": "<", "gt": ">",
            "infty": "\u221e", "circ": "\u00b0", "degree": "\u00b0", "textdegree": "\u00b0", "percent": "%",
            "textbar": "|", "vert": "|", "mid": "|", "ldots": "\u2026", "dots": "\u2026", "cdots": "\u22ef",
            "textendash": "\u2013", "textemdash": "\u2014", "S": "\u00a7", "P": "\u00b6", ",": " ", ";": " ",
            ":": " ", "!": "", " ": " ", "quad": " ", "qquad": " ", "enspace": " ", "thinspace": " ",
            "nobreakspace": " ", "newline": " ", "\\": " ", "par": " ", "linebreak": " ", "textbackslash": "\\",
            "neq": "\u2260", "ne": "\u2260", "textsuperscript": ""}
_MAX_DEPTH = 32


class LatexError(ValueError):
    """The source cannot be read (no main file, a loop of inputs)."""


# -- the parser and its macros ------------------------------------------------------------------------------------


def _context(user: dict[str, _Macro]):  # type: ignore[no-untyped-def]
    """pylatexenc's default macros and environments, with the argument shapes of the table packages and of the
    paper's own macros, so that their arguments are parsed as arguments."""
    from pylatexenc import macrospec
    from pylatexenc.latexwalker import get_default_latex_context_db

    db = get_default_latex_context_db()
    specs = {"multicolumn": "{{{", "multirow": "[{[{[{", "caption": "*[{", "captionof": "*{[{", "resizebox": "*{{{",
             "scalebox": "{[{", "num": "[{", "SI": "[{[{", "si": "[{", "qty": "[{{", "unit": "[{",
             "tablenum": "[{", "cmidrule": "[{", "cline": "{", "makecell": "[{", "thead": "[{", "shortstack": "[{",
             "rotatebox": "[{{", "textcolor": "{{", "colorbox": "{{", "cellcolor": "[{", "rowcolor": "[{",
             "color": "[{", "specialrule": "{{{", "rule": "[{{", "raggedright": "", "arraybackslash": "",
             "Block": "[{{", "frac": "{{", "dfrac": "{{", "tfrac": "{{", "adjustbox": "{{", "tnote": "{",
             "subcaption": "[{",
             "phantom": "{", "hphantom": "{", "vphantom": "{", "raisebox": "{[[{", "parbox": "[[[{{",
             "input": "{", "include": "{", "subfile": "{", "subfloat": "[[{", "subcaptionbox": "*[{[[[{",
             "addlinespace": "[",
             "hspace": "*{", "vspace": "*{", "newcommand": "*{[[{", "renewcommand": "*{[[{",
             "providecommand": "*{[[{", "DeclareRobustCommand": "*{[[{", "setlength": "{{", "textsuperscript": "{",
             "textsubscript": "{", "ensuremath": "{", "mathbf": "{", "bm": "{", "boldsymbol": "{", "underline": "{",
             "uline": "{", "textsc": "{", "mathrm": "{", "text": "{", "mbox": "{", "hbox": "{", "fbox": "{",
             "emph": "{", "textit": "{", "texttt": "{", "mathit": "{", "mathsf": "{", "textsf": "{",
             "mathtt": "{", "mathcal": "{", "operatorname": "*{", "underbrace": "{", "overline": "{",
             "hat": "{", "tilde": "{", "bar": "{", "widehat": "{", "widetilde": "{", "textrm": "{",
             "textup": "{", "textnormal": "{", "mathnormal": "{", "footnote": "[{", "cite": "*[[{",
             "citep": "*[[{", "citet": "*[[{", "ref": "*{", "cref": "*{", "Cref": "*{", "autoref": "*{",
             "eqref": "{", "label": "{", "href": "{{", "url": "{", "pbox": "[{", "diagbox": "[{{",
             "sisetup": "{", "setcounter": "{{", "addtocounter": "{{", "tabularnewline": "", "hline": ""}
    for name, user_macro in user.items():
        specs[name] = ("[" if user_macro.default is not None else "") + "{" * (
            user_macro.count - (1 if user_macro.default is not None else 0))
    macros = [macrospec.MacroSpec(name, args) for name, args in specs.items()]
    environments = [macrospec.EnvironmentSpec(name, args) for name, args in
                    {"tabular": "{", "tabular*": "{[{", "tabularx": "{[{", "tabulary": "{[{", "longtable": "[{",
                     "longtable*": "[{", "array": "[{", "NiceTabular": "[{", "supertabular": "{",
                     "xltabular": "{[{", "tabu": "{", "longtabu": "{", "table": "[", "table*": "[",
                     "sidewaystable": "[", "sidewaystable*": "[", "wraptable": "[{[{", "threeparttable": "[",
                     "minipage": "[[[{", "subtable": "[{", "adjustbox": "{"}.items()]
    db.add_context_category("registry-sources", macros=macros, environments=environments, prepend=True)
    return db


def _walk(text: str, user: dict[str, _Macro]):  # type: ignore[no-untyped-def]
    from pylatexenc.latexwalker import LatexWalker

    walker = LatexWalker(text, latex_context=_context(user), tolerant_parsing=True)
    nodes, _, _ = walker.get_latex_nodes()
    return nodes


@dataclass(frozen=True)
class _Macro:
    count: int
    default: str | None
    body: str


def _args(node) -> list:  # type: ignore[no-untyped-def,type-arg]
    """A macro node's parsed arguments (None for an optional one not given)."""
    parsed = getattr(node, "nodeargd", None)
    return list(parsed.argnlist) if parsed is not None and parsed.argnlist is not None else []


def _verbatim(node) -> str:  # type: ignore[no-untyped-def]
    if node is None:
        return ""
    if node.isNodeType(_types().LatexGroupNode):
        return "".join(n.latex_verbatim() for n in node.nodelist)
    return node.latex_verbatim()


def _types():  # type: ignore[no-untyped-def]
    from pylatexenc import latexwalker

    return latexwalker


def _children(node) -> list:  # type: ignore[no-untyped-def,type-arg]
    """Every node directly below ``node``: its body and its parsed arguments."""
    out = [a for a in _args(node) if a is not None]
    body = getattr(node, "nodelist", None)
    return out + (list(body) if body else [])


def _all(nodes) -> list:  # type: ignore[no-untyped-def,type-arg]
    out = []
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        if node is None:
            continue
        out.append(node)
        stack.extend(reversed(_children(node)))
    return out


# -- the document: its files spliced, its macros collected -----------------------------------------------------------


@dataclass
class Document:
    """A LaTeX source with its inputs spliced in, its macros, and where each part came from."""

    text: str
    macros: dict[str, _Macro] = field(default_factory=dict)
    name: str = ""
    loaded: list[str] = field(default_factory=list)
    """Every file spliced in, the main one first (paths relative to the main file's folder)."""


def _load(files: dict[str, str], name: str, seen: tuple[str, ...] = (), loaded: list[str] | None = None) -> str:
    """``name``'s text with every ``\\input``/``\\include`` it makes replaced by that file's (spliced itself)."""
    if name in seen or len(seen) > _MAX_DEPTH:
        raise LatexError(f"{name} inputs itself (through {' → '.join(seen)})")
    if loaded is not None:
        loaded.append(name)
    text = files[name]
    lt = _types()
    spans: list[tuple[int, int, str]] = []
    for node in _all(_walk(text, {})):
        if node.isNodeType(lt.LatexMacroNode) and node.macroname in ("input", "include", "subfile", "import"):
            args = [a for a in _args(node) if a is not None]
            if not args:
                continue
            wanted = _verbatim(args[-1]).strip()
            found = _resolve(files, name, wanted)
            if found is not None:
                spans.append((node.pos, node.pos + node.len, _load(files, found, (*seen, name), loaded)))
    for start, end, inserted in sorted(spans, reverse=True):
        text = text[:start] + "\n" + inserted + "\n" + text[end:]
    return text


def _resolve(files: dict[str, str], including: str, wanted: str) -> str | None:
    here = PurePosixPath(including).parent
    for candidate in (wanted, f"{wanted}.tex"):
        for base in (here, PurePosixPath(".")):
            path = str(PurePosixPath(*(p for p in (base / candidate).parts if p != ".")))
            normal = _normal(path)
            if normal in files:
                return normal
    return None


def _normal(path: str) -> str:
    parts: list[str] = []
    for part in PurePosixPath(path).parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def _collect_macros(text: str) -> dict[str, _Macro]:
    """The macros the document defines (``\\newcommand`` and its kin, ``\\def`` without delimited parameters)."""
    lt = _types()
    macros: dict[str, _Macro] = {}
    nodes = _all(_walk(text, {}))
    for at, node in enumerate(nodes):
        if not node.isNodeType(lt.LatexMacroNode):
            continue
        if node.macroname in ("newcommand", "renewcommand", "providecommand", "DeclareRobustCommand"):
            args = _args(node)
            if len(args) < 5 or args[1] is None or args[4] is None:
                continue
            name = _verbatim(args[1]).strip().lstrip("\\")
            count = int(_verbatim(args[2]).strip() or 0) if args[2] is not None and _verbatim(
                args[2]).strip().isdigit() else 0
            default = _verbatim(args[3]) if args[3] is not None else None
            if node.macroname == "providecommand" and name in macros:
                continue
            macros[name] = _Macro(count, default, _verbatim(args[4]))
        elif node.macroname == "def" and at + 2 < len(nodes):
            target, body = nodes[at + 1], nodes[at + 2]
            if target.isNodeType(lt.LatexMacroNode) and body.isNodeType(lt.LatexGroupNode) and \
                    body.pos == target.pos + target.len:
                macros[target.macroname] = _Macro(0, None, _verbatim(body))
    return macros


def read_files(files: dict[str, str], main: str) -> Document:
    loaded: list[str] = []
    text = _load(files, main, loaded=loaded)
    return Document(text, _collect_macros(text), main, loaded)


def read_path(path: Path) -> Document:
    """A main ``.tex`` with the ``.tex`` files beside and below it, or a ``.tar.gz`` e-print."""
    if path.name.endswith((".tar.gz", ".tgz", ".tar")):
        files = _from_tar(path)
        mains = sorted(n for n, t in files.items() if n.endswith(".tex") and "\\documentclass" in t)
        if not mains:
            raise LatexError(f"{path.name} holds no .tex file with \\documentclass")
        return read_files(files, mains[0])
    root = path.parent
    files = {_normal(str(p.relative_to(root).as_posix())): p.read_text(encoding="utf-8", errors="replace")
             for p in root.rglob("*") if p.is_file() and p.suffix in (".tex", ".sty", ".cls", ".def", ".tikz")}
    return read_files(files, _normal(path.name))


def _from_tar(path: Path) -> dict[str, str]:
    files: dict[str, str] = {}
    with tarfile.open(path) as archive:
        for member in archive.getmembers():
            if member.isfile() and member.name.endswith((".tex", ".sty", ".cls", ".def")):
                handle = archive.extractfile(member)
                if handle is not None:
                    files[_normal(member.name)] = handle.read().decode("utf-8", errors="replace")
    return files


# -- expanding the paper's macros ---------------------------------------------------------------------------------


def expand(text: str, macros: dict[str, _Macro], depth: int = 0) -> str:
    """``text`` with every use of the paper's own macros replaced by its body, arguments substituted."""
    if depth > _MAX_DEPTH or not macros:
        return text
    lt = _types()
    spans: list[tuple[int, int, str]] = []

    def visit(nodes) -> None:  # type: ignore[no-untyped-def]
        for node in nodes:
            if node is None:
                continue
            if node.isNodeType(lt.LatexMacroNode) and node.macroname in macros:
                spans.append((node.pos, node.pos + node.len, _substituted(node, macros[node.macroname])))
                continue
            visit(_children(node))

    visit(_walk(text, macros))
    if not spans:
        return text
    for start, end, inserted in sorted(spans, reverse=True):
        text = text[:start] + inserted + text[end:]
    return expand(text, macros, depth + 1)


def _substituted(node, macro: _Macro) -> str:  # type: ignore[no-untyped-def]
    args = _args(node)
    values = [(_verbatim(a) if a is not None else (macro.default or "")) for a in args]
    body = macro.body
    for i in range(macro.count, 0, -1):
        body = body.replace(f"#{i}", values[i - 1] if i - 1 < len(values) else "")
    # a macro used as a word ('\best{}' or '\ours x'): keep it apart from what follows
    return "{" + body + "}"


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


def _unwrapped(node) -> list:  # type: ignore[no-untyped-def,type-arg]
    if node is None:
        return []
    return list(node.nodelist) if node.isNodeType(_types().LatexGroupNode) else [node]


def _int(node) -> int | None:  # type: ignore[no-untyped-def]
    text = _verbatim(node).strip()
    try:
        return int(text)
    except ValueError:
        return None


def cell_text(nodes, siunitx: bool = False) -> tuple[str, bool]:  # type: ignore[no-untyped-def]
    """What a cell's nodes print, and whether its number is set in bold."""
    out = _Text()
    out.visit(nodes, bold=False)
    text = "".join(out.parts)
    if siunitx:
        text = _siunitx(text)
    return text, out.bold


class _Text:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.bold = False

    def visit(self, nodes, bold: bool, math: bool = False) -> None:  # type: ignore[no-untyped-def]
        lt = _types()
        nodes = list(nodes or [])
        at = 0
        while at < len(nodes):
            node = nodes[at]
            at += 1
            if node is None or node.isNodeType(lt.LatexCommentNode):
                continue
            if node.isNodeType(lt.LatexCharsNode):
                chars = node.chars
                if not math:
                    self._add(chars.replace("~", " ").replace("---", "\u2014").replace("--", "\u2013"), bold)
                    continue
                chars = "".join(chars.split())  # TeX sets no space it reads in math
                if chars[-1:] in ("^", "_") and at < len(nodes):  # '10^{-4}': the script is the next node
                    self._math_chars(chars[:-1], bold)
                    inner = _Text()
                    inner.visit([nodes[at]], bold, math)
                    at += 1
                    self._script(chars[-1], "".join(inner.parts), bold)
                    continue
                self._math_chars(chars, bold)
            elif node.isNodeType(lt.LatexGroupNode):
                self.visit(node.nodelist, bold, math)
            elif node.isNodeType(lt.LatexMathNode):
                self.visit(node.nodelist, bold, True)
            elif node.isNodeType(lt.LatexSpecialsNode):
                if node.specials_chars in ("^", "_") and at < len(nodes):
                    script = nodes[at]
                    at += 1
                    inner = _Text()
                    inner.visit([script], bold, math)
                    raised = "".join(inner.parts)
                    self._add(to_superscript(raised) if node.specials_chars == "^" else raised, bold)
                elif node.specials_chars == "~":
                    self._add(" ", bold)
                elif node.specials_chars in ("--", "---"):
                    self._add("\u2013", bold)
                else:
                    self._add(node.specials_chars if node.specials_chars not in ("&",) else "", bold)
            elif node.isNodeType(lt.LatexEnvironmentNode):
                self.visit(node.nodelist, bold, math)
                self._add(" ", bold)
            elif node.isNodeType(lt.LatexMacroNode):
                self._macro(node, bold, math)

    def _macro(self, node, bold: bool, math: bool) -> None:  # type: ignore[no-untyped-def]
        name = node.macroname
        args = [a for a in _args(node) if a is not None]
        if name in _BOLD:
            if args:
                self.visit([args[-1]], True, math)
            else:  # a switch: '{\bf 0.91}'
                self.bold = True
            return
        if name in ("num", "tablenum"):
            self._add(_siunitx(_verbatim(args[-1]) if args else ""), bold)
            return
        if name in ("SI", "qty"):
            value = _verbatim(args[1] if len(args) > 2 else args[0]) if args else ""
            unit = cell_text(_unwrapped(args[-1]))[0] if len(args) > 1 else ""
            self._add(_siunitx(value) + (" " + unit if unit and unit != "%" else unit), bold)
            return
        if name == "textsuperscript":
            inner = _Text()
            inner.visit(args, bold, math)
            raised = "".join(inner.parts)
            self._add(to_superscript(raised), bold)
            return
        if name in ("frac", "dfrac", "tfrac") and len(args) == 2:
            self.visit([args[0]], bold, math)
            self._add("/", bold)
            self.visit([args[1]], bold, math)
            return
        if name in ("tnote",):
            self._add(cell_text(_unwrapped(args[-1]))[0] if args else "", bold)
            return
        if name in _DROP:
            return
        if name in _SYMBOLS:
            spaced = math and name in ("pm", "mp", "times", "cdot")  # a binary operator: set with space around it
            self._add(f" {_SYMBOLS[name]} " if spaced else _SYMBOLS[name], bold)
            return
        if name in ("text", "textrm", "mbox", "textnormal", "textup", "textit", "emph") and math and args:
            self.visit([args[-1]], bold, False)  # text inside math keeps its spaces
            return
        if name in ("makecell", "thead", "shortstack", "textcolor", "colorbox", "rotatebox", "resizebox",
                    "scalebox", "adjustbox", "parbox", "pbox", "diagbox", "href"):
            for arg in args[-1:] if name not in ("diagbox",) else args:
                self.visit([arg], bold, math)
                self._add(" ", bold)
            return
        if args:
            self.visit([args[-1]] if len(args) == 1 else args[-1:], bold, math)
            return
        self._add(_symbol(node), bold)

    def _math_chars(self, chars: str, bold: bool) -> None:
        """Math text: a one-character script written without braces ('10^4', 'x_i') raised or lowered in place."""
        at = 0
        while at < len(chars):
            if chars[at] in "^_" and at + 1 < len(chars):
                self._script(chars[at], chars[at + 1], bold)
                at += 2
                continue
            self._add(chars[at], bold)
            at += 1

    def _script(self, mark: str, raised: str, bold: bool) -> None:
        """A superscript of digits as superscript digits ('10⁻⁴'); any other script as its text ('n_+', 'S_max')."""
        if mark == "^":
            self._add(to_superscript(raised), bold)
        else:
            self._add(("_" if mark == "_" else "") + raised, bold)

    def _add(self, text: str, bold: bool) -> None:
        if bold and any(c.isdigit() for c in text):
            self.bold = True
        self.parts.append(text)


def _symbol(node) -> str:  # type: ignore[no-untyped-def]
    """What pylatexenc's latex2text prints for a macro this module does not know (Greek letters, accents)."""
    from pylatexenc.latex2text import LatexNodes2Text

    try:
        return LatexNodes2Text(math_mode="text").nodelist_to_text([node])
    except Exception:  # noqa: BLE001 - a macro latex2text cannot print prints nothing
        return ""


def _siunitx(text: str) -> str:
    """A number as siunitx prints it: 'e' exponents as '× 10⁻³', '+-' as '±', '(3)' kept."""
    text = " ".join(text.replace("\\pm", "\u00b1").replace("+-", "\u00b1").split())
    if any(c.isalpha() and c not in "eEdD" for c in text):
        return text
    for marker in ("e", "E", "d", "D"):
        if marker in text:
            mantissa, _, exponent = text.partition(marker)
            exponent = exponent.strip().lstrip("+")
            if exponent.lstrip("-").isdigit():
                power = "10" + to_superscript(exponent)
                return f"{mantissa.strip()} \u00d7 {power}" if mantissa.strip() else power
    return text
