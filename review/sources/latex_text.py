"""What a LaTeX table cell prints (``cell_text``): ``\\pm`` as '±', ``$10^{-4}$`` as '10⁻⁴', bold from ``\\textbf``,
``\\mathbf`` or ``\\bf``, siunitx's ``\\num``/``\\SI`` as siunitx prints them, ``\\phantom`` as nothing, other macros
as pylatexenc's ``latex2text`` prints them.
"""

from __future__ import annotations

from review.sources.latex_document import _args, _types, _unwrapped, _verbatim
from review.sources.model import raised as to_superscript

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
