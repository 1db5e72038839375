"""The values of Typst as ``typst_eval`` runs a document: content (runs of text, bold or not, and the elements a table
is made of), functions (closures and the library's), arguments, modules, scopes, and the values that only style or
place (``Token``) or that the reader cannot know (``Opaque``); how values are joined and shown in markup."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import review.sources.typst_syntax as syn
from review.sources.typst_nodes import AUTO, Unit


class TypstError(ValueError):
    """The document's code cannot be evaluated here (an unknown name, a package not available, a type error)."""


class TypstLimit(TypstError):
    """The document's code ran past a limit (steps, nesting, a file's size)."""


@dataclass(frozen=True)
class Run:
    text: str
    bold: bool = False


@dataclass(frozen=True)
class Elem:
    name: str
    pos: tuple[Any, ...] = ()
    named: dict[str, Any] = field(default_factory=dict)
    where: str = ""


@dataclass(frozen=True)
class Content:
    parts: tuple[Run | Elem, ...] = ()

    def __add__(self, other: Content) -> Content:
        return Content(self.parts + other.parts)


@dataclass(frozen=True)
class Opaque:
    """A value the reader cannot know (a name from a package it does not have): using it makes what uses it
    unreadable."""

    reason: str


@dataclass(frozen=True)
class Token:
    """A value that only styles or places (an alignment, a color, a stroke, a selector): no table prints it."""

    name: str


@dataclass
class Closure:
    node: syn.Closure
    scope: Scope
    name: str | None = None


@dataclass(frozen=True)
class Builtin:
    name: str
    fn: Any
    bound: tuple[tuple[Any, ...], tuple[tuple[str, Any], ...]] = ((), ())


@dataclass(frozen=True)
class Args:
    pos: tuple[Any, ...]
    named: dict[str, Any]


@dataclass
class Module:
    name: str
    scope: dict[str, Any]


class Scope:
    def __init__(self, parent: Scope | None = None, names: dict[str, Any] | None = None) -> None:
        self.parent = parent
        self.names: dict[str, Any] = names if names is not None else {}
        self.styles: dict[str, dict[str, Any]] = {}

    def lookup(self, name: str) -> Any:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        raise TypstError(f"unknown name '{name}'")

    def assign(self, name: str, value: Any) -> None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                scope.names[name] = value
                return
            scope = scope.parent
        raise TypstError(f"unknown name '{name}'")

    def style(self, element: str) -> dict[str, Any]:
        chain: list[Scope] = []
        scope: Scope | None = self
        while scope is not None:
            chain.append(scope)
            scope = scope.parent
        out: dict[str, Any] = {}
        for s in reversed(chain):
            out.update(s.styles.get(element, {}))
        return out


EMPTY = Content()


def join(a: Any, b: Any) -> Any:
    """Two values joined as Typst joins a block's statements or a loop's iterations."""
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, str) and isinstance(b, str):
        return a + b
    if isinstance(a, list) and isinstance(b, list):
        return a + b
    if isinstance(a, dict) and isinstance(b, dict):
        return {**a, **b}
    return display(a) + display(b)


def display(value: Any) -> Content:
    """A value shown in markup (``#x``): its text, as Typst prints it."""
    if isinstance(value, Content):
        return value
    if value is None or isinstance(value, (Token, syn.Unit, Builtin, Closure)) or value is syn.AUTO:
        return EMPTY
    if isinstance(value, Opaque):
        raise TypstError(value.reason)
    if isinstance(value, Elem):
        return Content((value,))
    return Content((Run(text_of(value)),))


def text_of(value: Any) -> str:
    """``str(value)`` in Typst: an integer's digits, a float without a trailing '.0' and without an exponent."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return float_text(value)
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(repr(v) if isinstance(v, str) else text_of(v) for v in value) + ")"
    return str(value)


def float_text(x: float) -> str:
    from decimal import Decimal

    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return ("-" if x < 0 else "") + "\u221e"
    if x.is_integer() and abs(x) < 1e16:
        return str(int(x))
    text = format(Decimal(repr(x)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def embolden(content: Content) -> Content:
    return Content(tuple(Run(p.text, True) if isinstance(p, Run) else p for p in content.parts))


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
