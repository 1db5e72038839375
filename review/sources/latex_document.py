"""A LaTeX document read with pylatexenc's parser: its main file (or a ``.tar.gz`` e-print's), the files it
``\\input``s, ``\\include``s and ``\\subfile``s spliced in, and the macros it defines (``\\newcommand``, ``\\def``, ...)
expanded where they are used, up to a depth of 32 (``expand``).
"""

from __future__ import annotations

import tarfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

_MAX_DEPTH = 32


class LatexError(ValueError):
    """The source cannot be read (no main file, a loop of inputs)."""


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


def _unwrapped(node) -> list:  # type: ignore[no-untyped-def,type-arg]
    if node is None:
        return []
    return list(node.nodelist) if node.isNodeType(_types().LatexGroupNode) else [node]
