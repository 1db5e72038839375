"""Typst's standard library as far as tables need it, for ``typst_eval``: operators, the methods of strings,
arrays and dictionaries, ``range``/``int``/``float``/``str``/``calc``/``regex``, the data loaders (``csv``,
``json``, ``read``), the elements a table is made of (``table``, ``table.cell``, ``table.header``,
``table.footer``, ``figure``), the functions that only place or style their body, math as text, and the one
package function the reader knows (``oxifmt``'s ``strfmt``).

Differences from Typst, none of which changes a number a table prints: string lengths and indices count
characters, not UTF-8 bytes; a regular expression is Python's (``re``), not Rust's.
"""

from __future__ import annotations

import math
import re
from typing import Any

from review.sources.typst_values import (
    EMPTY, Args, Builtin, Closure, Content, Elem, Module, Opaque, Run, Token, TypstError, display, embolden, join,
    text_of,
)
from review.sources.typst_syntax import AUTO, Unit

#: Element functions whose arguments are kept one by one where one cannot be evaluated (``Evaluator.arguments``).
TOLERANT = frozenset({"table", "figure"})
DICT_METHODS = frozenset({"len", "at", "keys", "values", "pairs", "insert", "remove"})

_WRAPPERS = ("align", "block", "box", "pad", "place", "rect", "square", "circle", "ellipse", "scale", "rotate",
             "move", "par", "underline", "overline", "strike", "highlight", "smallcaps", "emph", "hide_", "link",
             "text", "strong", "super", "sub", "quote", "heading", "page", "layout", "repeat", "stack", "grid",
             "columns", "list", "enum", "terms", "math.equation", "upper", "lower")
_NOTHING = ("h", "v", "pagebreak", "colbreak", "footnote", "cite", "bibliography", "outline", "hide", "image_",
            "numbering", "lorem", "parbreak", "counter", "state", "metadata", "place_")
_TOKENS = ("left", "right", "center", "top", "bottom", "horizon", "start", "end", "black", "white", "gray", "grey",
           "red", "green", "blue", "yellow", "orange", "purple", "aqua", "navy", "teal", "eastern", "fuchsia",
           "lime", "maroon", "olive", "silver", "ltr", "rtl")


# -- values ---------------------------------------------------------------------------------------------------------
def truth(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypstError(f"expected a boolean, found {text_of(value)!r}")
    return value


def copied(value: Any) -> Any:
    return list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value


def spread_items(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, Args):
        return list(value.pos)
    if isinstance(value, Opaque):
        raise TypstError(value.reason)
    raise TypstError(f"cannot spread {text_of(value)!r}")


def iterate(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [[k, v] for k, v in value.items()]
    if isinstance(value, str):
        return list(value)
    return spread_items(value)


def unary(op: str, value: Any) -> Any:
    if op == "not":
        return not truth(value)
    if isinstance(value, Opaque):
        raise TypstError(value.reason)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return -value if op == "-" else value
    if isinstance(value, Unit):
        return Unit(-value.value if op == "-" else value.value, value.unit)
    raise TypstError(f"cannot apply '{op}' to {text_of(value)!r}")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def binary(op: str, a: Any, b: Any) -> Any:  # noqa: C901 - one table of Typst's operators
    for value in (a, b):
        if isinstance(value, Opaque):
            raise TypstError(value.reason)
    if op == "==":
        return isinstance(a, bool) == isinstance(b, bool) and a == b
    if op == "!=":
        return not binary("==", a, b)
    if op in ("in", "not in"):
        found = a in b if isinstance(b, (str, list, dict)) else False
        return found if op == "in" else not found
    if op in ("<", "<=", ">", ">="):
        if not (_number(a) and _number(b) or isinstance(a, str) and isinstance(b, str)):
            raise TypstError(f"cannot compare {text_of(a)!r} with {text_of(b)!r}")
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
    if _number(a) and _number(b):
        if op == "/":
            if b == 0:
                raise TypstError("cannot divide by zero")
            return a / b
        return {"+": a + b, "-": a - b, "*": a * b}[op]
    if isinstance(a, (Unit, Token)) or isinstance(b, (Unit, Token)) or a is AUTO or b is AUTO:
        return Token("size")
    if op == "+":
        if a is None:
            return b
        if b is None:
            return a
        if isinstance(a, str) and isinstance(b, str) or isinstance(a, list) and isinstance(b, list):
            return a + b
        if isinstance(a, dict) and isinstance(b, dict):
            return {**a, **b}
        if isinstance(a, (Content, str)) and isinstance(b, (Content, str)):
            return display(a) + display(b)
    if op == "*" and (isinstance(a, (str, list)) and isinstance(b, int) or isinstance(b, (str, list)) and
                      isinstance(a, int)):
        if max(a if isinstance(a, int) else 0, b if isinstance(b, int) else 0) > 1_000_000:
            raise TypstError("a repetition of more than a million")
        return a * b
    raise TypstError(f"cannot apply '{op}' to {text_of(a)!r} and {text_of(b)!r}")


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
                return Builtin(f"{value.name}.{name}", _with if name == "with" else _token, ((value,), ()))
            return Token(f"{value.name}.{name}")
        return found
    if isinstance(value, Closure) and name == "with":
        return Builtin("with", _with, ((value,), ()))
    if isinstance(value, (Token, Opaque)):
        return value
    if isinstance(value, Content) and name == "text":
        return "".join(p.text for p in value.parts if isinstance(p, Run))
    raise TypstError(f"{text_of(value)!r} has no field '{name}'")


def _with(ev: Any, args: Args, node: Any) -> Builtin:
    function, *pos = args.pos
    return Builtin("with", lambda ev2, more, node2: ev2.call(function, Args(tuple(pos) + more.pos,
                                                                            {**args.named, **more.named}), node2))


def _token(ev: Any, args: Args, node: Any) -> Token:
    return Token("selector")


# -- methods --------------------------------------------------------------------------------------------------------
def method(ev: Any, target: Any, name: str, args: Args) -> tuple[Any, tuple[Any, ...]]:
    """``target.name(args)``: its value, and (in a tuple of one) the target's new value where the method changes
    it (``push``, ``insert``, ``remove``, ``pop``)."""
    if isinstance(target, Opaque):
        raise TypstError(target.reason)
    if isinstance(target, (Closure, Builtin)) and name in ("with", "where"):
        return (_with(ev, Args((target, *args.pos), args.named), None) if name == "with" else Token("selector")), ()
    if isinstance(target, str):
        return _string_method(ev, target, name, args), ()
    if isinstance(target, list):
        return _array_method(ev, target, name, args)
    if isinstance(target, dict):
        return _dict_method(target, name, args)
    if isinstance(target, Args) and name in ("pos", "named"):
        return (list(target.pos) if name == "pos" else dict(target.named)), ()
    if isinstance(target, (Token, Unit)) or target is AUTO:
        return Token(name), ()
    raise TypstError(f"{text_of(target)!r} has no method '{name}'")


def _index(items: Any, i: int, args: Args) -> Any:
    if not isinstance(i, int):
        raise TypstError(f"an index must be an integer, not {text_of(i)!r}")
    if -len(items) <= i < len(items):
        return items[i]
    if "default" in args.named:
        return args.named["default"]
    raise TypstError(f"index {i} out of bounds (length {len(items)})")


def _slice(items: Any, args: Args) -> Any:
    start = args.pos[0] if args.pos else 0
    end = args.pos[1] if len(args.pos) > 1 else None
    if "count" in args.named:
        end = start + args.named["count"]
    n = len(items)
    start = start + n if start < 0 else start
    end = n if end is None else end + n if end < 0 else end
    if not 0 <= start <= end <= n:
        raise TypstError(f"slice {start}..{end} out of bounds (length {n})")
    return items[start:end]


def _pattern(value: Any) -> re.Pattern[str]:
    return value if isinstance(value, re.Pattern) else re.compile(re.escape(value))


def _string_method(ev: Any, s: str, name: str, args: Args) -> Any:  # noqa: C901 - one case per method
    a = args.pos
    if name == "len":
        return len(s)
    if name == "at":
        return _index(s, a[0], args)
    if name in ("first", "last"):
        return _index(s, 0 if name == "first" else -1, args)
    if name == "slice":
        return _slice(s, args)
    if name == "contains":
        return bool(_pattern(a[0]).search(s))
    if name == "starts-with":
        hit = _pattern(a[0]).match(s)
        return bool(hit)
    if name == "ends-with":
        return any(m.end() == len(s) for m in _pattern(a[0]).finditer(s)) or (isinstance(a[0], str) and
                                                                                s.endswith(a[0]))
    if name in ("find", "position"):
        hit = _pattern(a[0]).search(s)
        return None if hit is None else hit.group(0) if name == "find" else hit.start()
    if name == "match":
        hit = _pattern(a[0]).search(s)
        return None if hit is None else {"start": hit.start(), "end": hit.end(), "text": hit.group(0),
                                         "captures": list(hit.groups())}
    if name == "replace":
        replacement = a[1]
        count = args.named.get("count", 0)
        if isinstance(replacement, str):
            return _pattern(a[0]).sub(lambda m: replacement, s, count=count)
        return _pattern(a[0]).sub(lambda m: text_of(ev.call(replacement, Args(({"text": m.group(0)},), {}))), s,
                                  count=count)
    if name == "split":
        return s.split() if not a else _pattern(a[0]).split(s)
    if name == "trim":
        chars = a[0] if a and isinstance(a[0], str) else None
        at = args.named.get("at")
        if at is None:
            return s.strip(chars)
        return s.lstrip(chars) if isinstance(at, Token) and at.name == "start" else s.rstrip(chars)
    if name == "rev":
        return s[::-1]
    if name in ("clusters", "codepoints"):
        return list(s)
    if name in ("upper", "lower"):
        return s.upper() if name == "upper" else s.lower()
    raise TypstError(f"strings have no method '{name}'")


def _array_method(ev: Any, items: list[Any], name: str, args: Args) -> tuple[Any, tuple[Any, ...]]:  # noqa: C901
    a = args.pos

    def call(f: Any, *values: Any) -> Any:
        return ev.call(f, Args(values, {}))

    if name in ("push", "insert", "pop", "remove"):
        changed = list(items)
        if name == "push":
            changed.append(a[0])
            return None, (changed,)
        if name == "insert":
            changed.insert(a[0], a[1])
            return None, (changed,)
        value = changed.pop(a[0] if name == "remove" else -1) if changed else None
        return value, (changed,)
    simple = {
        "len": lambda: len(items), "first": lambda: _index(items, 0, args), "last": lambda: _index(items, -1, args),
        "at": lambda: _index(items, a[0], args), "slice": lambda: _slice(items, args),
        "contains": lambda: a[0] in items, "rev": lambda: items[::-1],
        "flatten": lambda: _flatten(items), "dedup": lambda: list(dict.fromkeys(map(_key, items)).keys()),
        "map": lambda: [call(a[0], x) for x in items], "filter": lambda: [x for x in items if truth(call(a[0], x))],
        "find": lambda: next((x for x in items if truth(call(a[0], x))), None),
        "position": lambda: next((i for i, x in enumerate(items) if truth(call(a[0], x))), None),
        "any": lambda: any(truth(call(a[0], x)) for x in items), "all": lambda: all(truth(call(a[0], x))
                                                                                    for x in items),
        "enumerate": lambda: [[i + args.named.get("start", 0), x] for i, x in enumerate(items)],
        "zip": lambda: [list(t) for t in zip(items, *a, strict=False)],
        "sum": lambda: _fold(items, args.named.get("default")),
        "join": lambda: _join_items(items, a[0] if a else None, args.named.get("last")),
        "sorted": lambda: sorted(items, key=(lambda x: call(args.named["key"], x)) if "key" in args.named else None),
        "chunks": lambda: [items[i:i + a[0]] for i in range(0, len(items), max(a[0], 1))],
        "intersperse": lambda: [y for i, x in enumerate(items) for y in ([a[0], x] if i else [x])],
        "fold": lambda: _fold_with(ev, items, a[0], a[1]),
        "split": lambda: _split(items, a[0]),
    }
    if name not in simple:
        raise TypstError(f"arrays have no method '{name}'")
    return simple[name](), ()


def _key(x: Any) -> Any:
    return tuple(x) if isinstance(x, list) else x


def _flatten(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for x in items:
        out += _flatten(x) if isinstance(x, list) else [x]
    return out


def _fold(items: list[Any], default: Any) -> Any:
    if not items:
        return default
    value = items[0]
    for x in items[1:]:
        value = binary("+", value, x)
    return value


def _fold_with(ev: Any, items: list[Any], initial: Any, f: Any) -> Any:
    value = initial
    for x in items:
        value = ev.call(f, Args((value, x), {}))
    return value


def _join_items(items: list[Any], separator: Any, last: Any) -> Any:
    value: Any = None
    for i, x in enumerate(items):
        if i:
            value = join(value, last if last is not None and i == len(items) - 1 else separator)
        value = join(value, x)
    return value


def _split(items: list[Any], at: Any) -> list[list[Any]]:
    out: list[list[Any]] = [[]]
    for x in items:
        if x == at:
            out.append([])
        else:
            out[-1].append(x)
    return out


def _dict_method(d: dict[str, Any], name: str, args: Args) -> tuple[Any, tuple[Any, ...]]:
    a = args.pos
    if name == "len":
        return len(d), ()
    if name == "at":
        if a[0] in d:
            return d[a[0]], ()
        if "default" in args.named:
            return args.named["default"], ()
        raise TypstError(f"the dictionary has no key {a[0]!r}")
    if name in ("keys", "values"):
        return list(d.keys() if name == "keys" else d.values()), ()
    if name == "pairs":
        return [[k, v] for k, v in d.items()], ()
    if name == "insert":
        return None, ({**d, a[0]: a[1]},)
    if name == "remove":
        changed = dict(d)
        return changed.pop(a[0], args.named.get("default")), (changed,)
    raise TypstError(f"dictionaries have no method '{name}'")


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
    for name in ("table", "table.cell", "table.header", "table.footer", "table.hline", "table.vline", "image", "grid.cell", "grid.header", "grid.footer", "grid.hline", "grid.vline", "figure.caption"):
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


# -- math -----------------------------------------------------------------------------------------------------------
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
