"""The values of Typst as ``typst_eval`` runs a document: content (runs of text, bold or not, and the elements a table
is made of), functions (closures and the library's), arguments, modules, scopes, and the values that only style or
place (``Token``) or that the reader cannot know (``Opaque``); how values are joined and shown in markup."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import review.sources.typst_syntax as syn

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
