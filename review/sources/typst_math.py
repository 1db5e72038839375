"""Typst math read as a reader of the printed page reads it, for ``typst_eval``: letters, numbers, symbols by their
glyphs, strings as written, ``^`` raised, a function's arguments, relations spaced (``math_text``)."""

from __future__ import annotations

import re
from typing import Any

from review.sources.typst_values import Run, display

_SYMBOLS = {
    "plus.minus": "\u00b1", "minus.plus": "\u2213", "times": "\u00d7", "dot": "\u22c5", "dot.op": "\u22c5",
    "dots": "\u2026", "dots.h": "\u2026", "dots.c": "\u22ef", "approx": "\u2248", "infinity": "\u221e",
    "oo": "\u221e", "arrow.r": "\u2192", "arrow.l": "\u2190", "arrow.t": "\u2191", "arrow.b": "\u2193",
    "arrow.t.b": "\u2195", "dagger": "\u2020", "dagger.double": "\u2021", "star": "\u22c6", "degree": "\u00b0",
    "percent": "%", "eq": "=", "lt": "<", "gt": ">", "lt.eq": "\u2264", "gt.eq": "\u2265", "eq.not": "\u2260",
    "checkmark": "\u2713", "minus": "\u2212", "plus": "+", "ast": "\u2217", "sim": "\u223c", "div": "\u00f7",
    "prime": "\u2032", "emptyset": "\u2205", "in": "\u2208", "quad": " ", "wide": " ", "space": " ",
    "thin": " ", "med": " ", "thick": " ", "ell": "\u2113", "nabla": "\u2207", "partial": "\u2202",
    "sum": "\u2211", "product": "\u220f", "integral": "\u222b", "bullet": "\u2022", "circle": "\u25cb",
    "triangle": "\u25b3", "square": "\u25a1", "diamond": "\u25c7", "section": "\u00a7", "hash": "#",
    "ballot.x": "\u2717", "crossmark": "\u2717", "colon": ":", "comma": ",", "bar.v": "|",
}
_GREEK = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon "
          "phi chi psi omega").split()
for _i, _name in enumerate(_GREEK):
    _SYMBOLS[_name] = chr(0x3B1 + _i + (1 if _i >= 17 else 0))
    _SYMBOLS[_name.capitalize()] = chr(0x391 + _i + (1 if _i >= 17 else 0))
_SYMBOLS["epsilon.alt"] = "\u03b5"
_SYMBOLS["phi.alt"] = "\u03c6"
_RELATIONS = {"<=": "\u2264", ">=": "\u2265", "!=": "\u2260", "->": "\u2192", "=>": "\u21d2", "=": "=", "<": "<",
              ">": ">", "~": "\u223c"}
_MATH_TOKEN = re.compile(r'\s+|"(?:[^"\\]|\\.)*"|\\.|#|[A-Za-z]{2,}(?:\.[A-Za-z]+)*|[A-Za-z\u0370-\u03ff]|'
                         r"\d+(?:\.\d+)?|<=|>=|!=|->|=>|[=<>~]|[-+*/'^_()\[\]{},|&!:;.]|.", re.DOTALL)
#: Symbols set as binary operators or relations: spaced, as the page prints them ('68.4 ± 0.5').
_SPACED = frozenset({"plus.minus", "minus.plus", "times", "approx", "lt.eq", "gt.eq", "eq.not", "eq", "lt", "gt",
                     "arrow.r", "div", "in", "sim"})
_FRACTION_LIKE = {"frac": "/", "binom": ","}


def math_text(source: str, ev: Any, scope: Any) -> str:
    """Math as a reader of the printed page reads it: letters, numbers, symbols by their glyphs ('Delta' is 'Δ',
    'plus.minus' '±'), strings as written, ``^`` raised ('10^(-4)' is '10⁻⁴'), a function's arguments
    ('op("AD")' is 'AD', 'frac(a, b)' is 'a/b'), relations spaced ('AAD > 0')."""
    tokens = [t for t in _MATH_TOKEN.findall(source)]
    out, _ = _math_sequence(tokens, 0, ev, scope, source, closing=None)
    return " ".join(out.split())


def _math_sequence(tokens: list[str], i: int, ev: Any, scope: Any, source: str, closing: str | None) -> Any:
    out: list[str] = []
    while i < len(tokens):
        token = tokens[i]
        if closing and token == closing:
            return "".join(out), i + 1
        if token in ("^", "_"):
            atom, i = _math_atom(tokens, i + 1, ev, scope, source, script=True)
            if token == "^":
                from review.sources.model import raised

                atom = raised(atom)
            out.append(atom)
            continue
        if token == ",":
            out.append(", ")
            i += 1
            continue
        atom, i = _math_atom(tokens, i, ev, scope, source)
        out.append(atom)
    return "".join(out), i


def _math_atom(tokens: list[str], i: int, ev: Any, scope: Any, source: str, script: bool = False) -> tuple[str, int]:
    """One atom of math from ``tokens[i]``: its text and the index after it (a group's parentheses are printed,
    except around a ``script``: the raised or lowered group after ``^`` or ``_``)."""
    while i < len(tokens) and tokens[i].isspace():
        i += 1
    if i >= len(tokens):
        return "", i
    token = tokens[i]
    if token == "(":
        inner, j = _math_sequence(tokens, i + 1, ev, scope, source, ")")
        return (inner if script else f"({inner})"), j
    if token.startswith('"'):
        return _unescape(token[1:-1]), i + 1
    if token.startswith("\\"):
        return ("" if token[1:].isspace() else token[1:]), i + 1
    if token == "#":
        return _math_code(tokens, i, ev, scope)
    if token in _RELATIONS:
        return f" {_RELATIONS[token]} ", i + 1
    if token == "-":
        return "\u2212", i + 1
    if re.fullmatch(r"[A-Za-z]{2,}(?:\.[A-Za-z]+)*", token):
        return _math_name(tokens, i, ev, scope, source)
    if token.isspace():
        return "", i + 1
    if token == "&":
        return "", i + 1
    if re.fullmatch(r"[A-Za-z\u0370-\u03ff]", token) and i + 1 < len(tokens) and tokens[i + 1] == "(":
        inner, j = _math_sequence(tokens, i + 2, ev, scope, source, ")")
        return f"{token}({inner})", j
    return token, i + 1


def _math_name(tokens: list[str], i: int, ev: Any, scope: Any, source: str) -> tuple[str, int]:
    name = tokens[i]
    if i + 1 < len(tokens) and tokens[i + 1] == "(" and name not in _SYMBOLS:
        inner, j = _math_sequence(tokens, i + 2, ev, scope, source, ")")
        parts = [p.strip() for p in inner.split(", ")]
        if name in _FRACTION_LIKE and len(parts) == 2:
            return _FRACTION_LIKE[name].join(parts), j
        if name == "sqrt":
            return "\u221a" + inner, j
        if name in ("abs", "norm"):
            return f"|{inner}|", j
        return inner, j
    if name in _SPACED:
        return f" {_SYMBOLS[name]} ", i + 1
    if name in _SYMBOLS:
        return _SYMBOLS[name], i + 1
    return name, i + 1


def _math_code(tokens: list[str], i: int, ev: Any, scope: Any) -> tuple[str, int]:
    from review.sources.typst_syntax import Parser

    rest = "".join(tokens[i + 1:])
    parser = Parser(rest)
    node = parser.embedded()
    value = display(ev.eval(node, scope))
    consumed, j = 0, i + 1
    while j < len(tokens) and consumed < parser.pos:
        consumed += len(tokens[j])
        j += 1
    return "".join(p.text for p in value.parts if isinstance(p, Run)), j


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)
