"""The syntax tree ``typst_syntax`` parses Typst into: markup nodes (text, strong, emph, math, raw, labels, code after
``#``) and code nodes (literals, names, arrays, dictionaries, blocks, operators, calls, closures, ``let``, ``set``,
``show``, ``import``, ``include``, ``if``, ``for``, ``while`` and jumps), each with the offset it begins at."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class TypstSyntaxError(ValueError):
    """Source text the parser cannot read, with the line where it stopped."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass(frozen=True)
class Node:
    at: int = field(default=0, compare=False, kw_only=True)
    """The offset in the source where the node begins (for messages: ``Parser.line``)."""


# markup
@dataclass(frozen=True)
class Text(Node):
    text: str


@dataclass(frozen=True)
class Space(Node):
    pass


@dataclass(frozen=True)
class Strong(Node):
    body: tuple[Node, ...]


@dataclass(frozen=True)
class Emph(Node):
    body: tuple[Node, ...]


@dataclass(frozen=True)
class Math(Node):
    source: str


@dataclass(frozen=True)
class Raw(Node):
    text: str


@dataclass(frozen=True)
class Label(Node):
    name: str


@dataclass(frozen=True)
class Embed(Node):
    expr: Node


# code
@dataclass(frozen=True)
class Lit(Node):
    value: Any


@dataclass(frozen=True)
class Unit:
    """A number with a unit (``3em``, ``50%``, ``1fr``): a size, which no table cell prints."""

    value: float
    unit: str


@dataclass(frozen=True)
class Ident(Node):
    name: str


@dataclass(frozen=True)
class Arg(Node):
    name: str | None
    value: Node
    spread: bool = False


@dataclass(frozen=True)
class ArrayLit(Node):
    items: tuple[Arg, ...]


@dataclass(frozen=True)
class DictLit(Node):
    items: tuple[Arg, ...]


@dataclass(frozen=True)
class ContentBlock(Node):
    body: tuple[Node, ...]


@dataclass(frozen=True)
class CodeBlock(Node):
    body: tuple[Node, ...]


@dataclass(frozen=True)
class Unary(Node):
    op: str
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class FieldAccess(Node):
    target: Node
    name: str


@dataclass(frozen=True)
class Call(Node):
    callee: Node
    args: tuple[Arg, ...]


@dataclass(frozen=True)
class Param:
    name: str
    default: Node | None = None
    sink: bool = False


@dataclass(frozen=True)
class Closure(Node):
    params: tuple[Param, ...]
    body: Node
    name: str | None = None


@dataclass(frozen=True)
class Let(Node):
    pattern: str | tuple[str, ...]
    value: Node | None


@dataclass(frozen=True)
class SetRule(Node):
    target: Node
    args: tuple[Arg, ...]
    condition: Node | None = None


@dataclass(frozen=True)
class ShowRule(Node):
    pass


@dataclass(frozen=True)
class Import(Node):
    source: Node
    names: tuple[tuple[str, str], ...] | None
    """(name in the module, name bound) pairs; None for ``*``."""


@dataclass(frozen=True)
class Include(Node):
    source: Node


@dataclass(frozen=True)
class If(Node):
    condition: Node
    then: Node
    otherwise: Node | None


@dataclass(frozen=True)
class For(Node):
    pattern: str | tuple[str, ...]
    iterable: Node
    body: Node


@dataclass(frozen=True)
class While(Node):
    condition: Node
    body: Node


@dataclass(frozen=True)
class Jump(Node):
    kind: str
    """'return', 'break' or 'continue'."""
    value: Node | None = None


class _Auto:
    def __repr__(self) -> str:
        return "auto"


AUTO = _Auto()
