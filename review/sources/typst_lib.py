"""Typst's standard library as far as tables need it, for ``typst_eval`` (``self.lib``): fields, ``range``/``int``/
``float``/``str``/``calc``/``regex``, the data loaders (``csv``, ``json``, ``read``), the elements a table is made
of (``table``, ``table.cell``, ``table.header``, ``table.footer``, ``figure``), the functions that only place or
style their body, the one package function the reader knows (``oxifmt``'s ``strfmt``). The operators are
``typst_values``', the methods ``typst_methods``', math as text ``typst_math``'s.
"""

from __future__ import annotations

import math
import re
from typing import Any

from review.sources.typst_methods import where_, with_
from review.sources.typst_nodes import Unit
from review.sources.typst_values import (
    EMPTY,
    Args,
    Builtin,
    Closure,
    Content,
    Elem,
    Module,
    Opaque,
    Run,
    Token,
    TypstError,
    display,
    embolden,
    text_of,
)

#: Element functions whose arguments are kept one by one where one cannot be evaluated (``Evaluator.arguments``).
TOLERANT = frozenset({"table", "figure"})

_WRAPPERS = ("align", "block", "box", "pad", "place", "rect", "square", "circle", "ellipse", "scale", "rotate",
             "move", "par", "underline", "overline", "strike", "highlight", "smallcaps", "emph", "hide_", "link",
             "text", "strong", "super", "sub", "quote", "heading", "page", "layout", "repeat", "stack", "grid",
             "columns", "list", "enum", "terms", "math.equation", "upper", "lower")
_NOTHING = ("h", "v", "pagebreak", "colbreak", "footnote", "cite", "bibliography", "outline", "hide", "image_",
            "numbering", "lorem", "parbreak", "counter", "state", "metadata", "place_")
_TOKENS = ("left", "right", "center", "top", "bottom", "horizon", "start", "end", "black", "white", "gray", "grey",
           "red", "green", "blue", "yellow", "orange", "purple", "aqua", "navy", "teal", "eastern", "fuchsia",
           "lime", "maroon", "olive", "silver", "ltr", "rtl")


def field(value: Any, name: str) -> Any:
    if isinstance(value, Module):
        if name not in value.scope:
            raise TypstError(f"module {value.name} has no '{name}'")
        return value.scope[name]
    if isinstance(value, dict):
        if name not in value:
            raise TypstError(f"the dictionary has no key '{name}'")
        return value[name]
    if isinstance(value, Builtin):
        found = BUILTINS.get(f"{value.name}.{name}")
        if found is None:
            if name in ("where", "with"):
                return Builtin(f"{value.name}.{name}", with_ if name == "with" else where_, ((value,), ()))
            return Token(f"{value.name}.{name}")
        return found
    if isinstance(value, Closure) and name == "with":
        return Builtin("with", with_, ((value,), ()))
    if isinstance(value, (Token, Opaque)):
        return value
    if isinstance(value, Content) and name == "text":
        return "".join(p.text for p in value.parts if isinstance(p, Run))
    raise TypstError(f"{text_of(value)!r} has no field '{name}'")


# -- functions ------------------------------------------------------------------------------------------------------
def _int(ev: Any, args: Args, node: Any) -> int:
    value = args.pos[0]
    if isinstance(value, str):
        try:
            return int(value.strip().replace("\u2212", "-"))
        except ValueError:
            raise TypstError(f"cannot read {value!r} as an integer") from None
    if isinstance(value, (bool, int, float)):
        return int(value)
    raise TypstError(f"cannot convert {text_of(value)!r} to an integer")


def _float(ev: Any, args: Args, node: Any) -> float:
    value = args.pos[0]
    if isinstance(value, str):
        try:
            return float(value.strip().replace("\u2212", "-"))
        except ValueError:
            raise TypstError(f"cannot read {value!r} as a float") from None
    if isinstance(value, (bool, int, float)):
        return float(value)
    if isinstance(value, Unit) and value.unit == "%":
        return value.value / 100
    raise TypstError(f"cannot convert {text_of(value)!r} to a float")


def _str(ev: Any, args: Args, node: Any) -> str:
    value = args.pos[0]
    base = args.named.get("base", 10)
    if isinstance(value, int) and base != 10:
        digits, n, out = "0123456789abcdefghijklmnopqrstuvwxyz", abs(value), ""
        while n:
            n, r = divmod(n, base)
            out = digits[r] + out
        return ("-" if value < 0 else "") + (out or "0")
    if isinstance(value, Content):
        raise TypstError("cannot convert content to a string")
    return text_of(value)


def _range(ev: Any, args: Args, node: Any) -> list[int]:
    a = args.pos
    start, end = (0, a[0]) if len(a) == 1 else (a[0], a[1])
    step = args.named.get("step", 1)
    if not step or abs((end - start) // step) > 10_000_000:
        raise TypstError("a range of more than ten million numbers")
    return list(range(start, end, step))


def _regex(ev: Any, args: Args, node: Any) -> re.Pattern[str]:
    try:
        return re.compile(args.pos[0])
    except re.error as exc:
        raise TypstError(f"a regular expression Python cannot read: {exc}") from None


def _csv(ev: Any, args: Args, node: Any) -> list[Any]:
    import csv
    import io

    text = _data(ev, args.pos[0])
    rows = list(csv.reader(io.StringIO(text), delimiter=args.named.get("delimiter", ",")))
    if isinstance(args.named.get("row-type"), Builtin) and args.named["row-type"].name == "dictionary":
        return [dict(zip(rows[0], row, strict=False)) for row in rows[1:]] if rows else []
    return rows


def _data(ev: Any, source: Any) -> str:
    if isinstance(source, str):
        return ev.read_text(source)
    if isinstance(source, bytes):
        return source.decode("utf-8")
    raise TypstError("a data file given by something other than its path")


def _json(ev: Any, args: Args, node: Any) -> Any:
    import json

    return json.loads(_data(ev, args.pos[0]))


def _yaml(ev: Any, args: Args, node: Any) -> Any:
    import yaml

    return yaml.safe_load(_data(ev, args.pos[0]))


def _read(ev: Any, args: Args, node: Any) -> str:
    return ev.read_text(args.pos[0])


def _repr(ev: Any, args: Args, node: Any) -> str:
    value = args.pos[0]
    return repr(value) if isinstance(value, str) else f"{value}.0" if isinstance(value, float) and \
        value.is_integer() else text_of(value)


def _calc(name: str) -> Any:
    def fn(ev: Any, args: Args, node: Any) -> Any:
        a = args.pos
        if name == "round":
            digits = args.named.get("digits", 0)
            value = _round_half_away(a[0], digits)
            return value if digits or isinstance(a[0], int) else float(value)
        functions = {"abs": abs, "min": min, "max": max, "pow": pow, "floor": math.floor, "ceil": math.ceil,
                     "trunc": math.trunc, "sqrt": math.sqrt, "exp": math.exp, "ln": math.log, "odd": lambda x: x % 2
                     == 1, "even": lambda x: x % 2 == 0, "rem": math.fmod, "quo": lambda x, y: x // y,
                     "log": lambda x, base=10: math.log(x, base), "fract": lambda x: x - math.trunc(x)}
        try:
            return functions[name](*a)
        except (ValueError, ZeroDivisionError, OverflowError) as exc:
            raise TypstError(f"calc.{name}: {exc}") from None
    return fn


def _round_half_away(x: float, digits: int) -> float:
    from decimal import ROUND_HALF_UP, Decimal

    return float(Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def strfmt(ev: Any, args: Args, node: Any) -> str:
    """``oxifmt``'s ``strfmt(format, ..values)``: Rust's format strings (``{}``, ``{0}``, ``{name}``, ``{:.3}``,
    ``{:>8}``, ``{:e}``, ``{{``/``}}``)."""
    pattern, *values = args.pos
    counter = iter(range(len(values)))

    def one(hit: re.Match[str]) -> str:
        if hit.group(0) in ("{{", "}}"):
            return hit.group(0)[0]
        key, spec = hit.group(1), hit.group(2) or ""
        value = values[next(counter)] if key == "" else values[int(key)] if key.isdigit() else args.named[key]
        return _formatted(value, spec)

    try:
        return re.sub(r"\{\{|\}\}|\{([\w-]*)(?::([^}]*))?\}", one, pattern)
    except (IndexError, KeyError, StopIteration):
        raise TypstError(f"strfmt: too few values for {pattern!r}") from None


def _formatted(value: Any, spec: str) -> str:
    hit = re.fullmatch(r"(?:(.)?([<^>]))?([+-])?(#)?(0)?(\d+)?(?:\.(\d+))?([?eExXob])?", spec)
    if not hit:
        raise TypstError(f"strfmt: a format {spec!r} the reader does not know")
    fill, align, sign, _, zero, width, precision, kind = hit.groups()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if kind in ("e", "E"):
            text = _exponent(float(value), precision, kind)
        elif kind in ("x", "X", "o", "b"):
            text = format(int(value), kind)
        elif precision is not None and isinstance(value, float):
            text = format(value, f".{precision}f")
        else:
            text = text_of(value)
        if sign == "+" and not text.startswith("-"):
            text = "+" + text
        if zero and width and not align:
            return text.rjust(int(width), "0") if not text.startswith(("-", "+")) else text[0] + text[1:].rjust(
                int(width) - 1, "0")
    else:
        text = text_of(value) if not isinstance(value, Content) else "".join(
            p.text for p in value.parts if isinstance(p, Run))
        if precision is not None:
            text = text[:int(precision)]
    if width:
        side = align or (">" if isinstance(value, (int, float)) else "<")
        text = format(text, f"{fill or ' '}{side}{width}")
    return text


def _exponent(x: float, precision: str | None, kind: str) -> str:
    text = format(x, f".{precision}e") if precision is not None else repr(x) if "e" in repr(x) else format(x, "e")
    mantissa, _, exp = text.partition("e")
    if precision is None and "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}{kind}{int(exp)}"


# -- elements -------------------------------------------------------------------------------------------------------
def _element(name: str) -> Any:
    def fn(ev: Any, args: Args, node: Any) -> Elem:
        return Elem(name, args.pos, dict(args.named), ev.where(node) if node is not None else "")
    return fn


def _figure(ev: Any, args: Args, node: Any) -> Elem:
    """A figure; one whose body cannot be evaluated is of kind table where its body is written with ``table``
    (so that the tables after it keep their numbers)."""
    named = dict(args.named)
    if args.pos and isinstance(args.pos[0], Opaque) and "kind" not in named and node is not None and \
            _mentions(node.args[0].value if node.args else None, "table"):
        named["kind"] = "table"
    return Elem("figure", args.pos, named, ev.where(node) if node is not None else "")


def _mentions(node: Any, name: str) -> bool:
    import review.sources.typst_syntax as syn

    if isinstance(node, syn.Ident):
        return node.name == name
    if isinstance(node, (tuple, list)):
        return any(_mentions(n, name) for n in node)
    if isinstance(node, (syn.Node, syn.Arg)):
        return any(_mentions(getattr(node, f), name) for f in node.__dataclass_fields__ if f != "at")
    return False


def _body(args: Args) -> Content:
    content = [a for a in args.pos if isinstance(a, (Content, str, Elem))]
    return display(content[-1]) if content else EMPTY


def _wrapper(name: str) -> Any:
    def fn(ev: Any, args: Args, node: Any) -> Content:
        if name in ("stack", "grid", "columns", "list", "enum", "terms"):
            return sum((display(a) for a in args.pos if isinstance(a, (Content, str, Elem))), EMPTY)
        body = _body(args)
        if name == "link" and body is EMPTY and args.pos:
            body = display(args.pos[0])
        if name == "strong" or name == "text" and args.named.get("weight") in ("bold", "extrabold", "black",
                                                                             "semibold", 700, 800, 900, 600):
            return embolden(body)
        if name == "super":
            from review.sources.model import raised

            return Content(tuple(Run(raised(p.text), p.bold) if isinstance(p, Run) else p for p in body.parts))
        if name in ("upper", "lower"):
            if args.pos and isinstance(args.pos[0], str):
                return args.pos[0].upper() if name == "upper" else args.pos[0].lower()  # type: ignore[return-value]
            return Content(tuple(Run(p.text.upper() if name == "upper" else p.text.lower(), p.bold)
                                 if isinstance(p, Run) else p for p in body.parts))
        return body
    return fn


def _nothing(ev: Any, args: Args, node: Any) -> None:
    return None


def _raw(ev: Any, args: Args, node: Any) -> Content:
    return Content((Run(text_of(args.pos[0])),)) if args.pos else EMPTY


def _linebreak(ev: Any, args: Args, node: Any) -> Content:
    return Content((Run(" "),))


def _color(ev: Any, args: Args, node: Any) -> Token:
    return Token("color")


def _package(ev: Any, args: Args, node: Any) -> Any:
    raise TypstError("unreachable")


_KNOWN_PACKAGES = {"oxifmt": {"strfmt": Builtin("strfmt", strfmt)}}


def package(spec: str, names: tuple[tuple[str, str], ...] | None) -> dict[str, Any]:
    """The names imported from a Typst Universe package: those of the packages the reader knows, else unknown."""
    hit = re.match(r"@[\w-]+/([\w-]+)(?::[\d.]+)?$", spec)
    known = _KNOWN_PACKAGES.get(hit.group(1), {}) if hit else {}
    unknown = Opaque(f"the package {spec} is not available to the reader (Typst Universe packages are not "
                     "downloaded)")
    if names is None:
        return dict(known)
    if not names:
        return {hit.group(1) if hit else spec: Module(spec, dict(known))}
    return {bound: known.get(name, unknown) for name, bound in names}


BUILTINS: dict[str, Builtin] = {}


def _register() -> None:
    BUILTINS["figure"] = Builtin("figure", _figure)
    for name in ("table", "table.cell", "table.header", "table.footer", "table.hline", "table.vline", "image",
                 "grid.cell", "grid.header", "grid.footer", "grid.hline", "grid.vline", "figure.caption"):
        BUILTINS[name] = Builtin(name, _element(name))
    for name in _WRAPPERS:
        BUILTINS[name] = Builtin(name, _wrapper(name))
    for name in _NOTHING:
        BUILTINS[name] = Builtin(name.rstrip("_"), _nothing)
    simple = {"int": _int, "float": _float, "str": _str, "range": _range, "regex": _regex, "csv": _csv,
              "json": _json, "yaml": _yaml, "read": _read, "repr": _repr, "raw": _raw, "linebreak": _linebreak,
              "rgb": _color, "luma": _color, "cmyk": _color, "color": _color, "stroke": _color,
              "dictionary": _nothing, "array": lambda ev, args, node: list(args.pos[0]) if args.pos else [],
              "type": lambda ev, args, node: type(args.pos[0]).__name__}
    for name, fn in simple.items():
        BUILTINS[name] = Builtin(name, fn)
    for name in ("round", "abs", "min", "max", "pow", "floor", "ceil", "trunc", "sqrt", "exp", "ln", "odd", "even",
                 "rem", "quo", "log", "fract"):
        BUILTINS[f"calc.{name}"] = Builtin(f"calc.{name}", _calc(name))


_register()


def globals_() -> dict[str, Any]:
    names: dict[str, Any] = {name: b for name, b in BUILTINS.items() if "." not in name}
    names["calc"] = Module("calc", {n.split(".", 1)[1]: b for n, b in BUILTINS.items() if n.startswith("calc.")})
    names.update({t: Token(t) for t in _TOKENS})
    names["sym"] = Module("sym", {})
    return names
