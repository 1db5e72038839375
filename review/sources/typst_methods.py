"""The methods of Typst's strings, arrays and dictionaries, and a function's ``with`` and ``where``, for
``typst_eval`` (``method``). String lengths and indices count characters, not UTF-8 bytes; a regular expression is
Python's (``re``), not Rust's."""

from __future__ import annotations

import re
from typing import Any

from review.sources.typst_nodes import AUTO, Unit
from review.sources.typst_values import (
    Args,
    Builtin,
    Closure,
    Opaque,
    Token,
    TypstError,
    binary,
    join,
    text_of,
    truth,
)

DICT_METHODS = frozenset({"len", "at", "keys", "values", "pairs", "insert", "remove"})


def with_(ev: Any, args: Args, node: Any) -> Builtin:
    function, *pos = args.pos
    return Builtin("with", lambda ev2, more, node2: ev2.call(function, Args(tuple(pos) + more.pos,
                                                                            {**args.named, **more.named}), node2))


def where_(ev: Any, args: Args, node: Any) -> Token:
    return Token("selector")


# -- methods --------------------------------------------------------------------------------------------------------
def method(ev: Any, target: Any, name: str, args: Args) -> tuple[Any, tuple[Any, ...]]:
    """``target.name(args)``: its value, and (in a tuple of one) the target's new value where the method changes
    it (``push``, ``insert``, ``remove``, ``pop``)."""
    if isinstance(target, Opaque):
        raise TypstError(target.reason)
    if isinstance(target, (Closure, Builtin)) and name in ("with", "where"):
        return (with_(ev, Args((target, *args.pos), args.named), None) if name == "with" else Token("selector")), ()
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
