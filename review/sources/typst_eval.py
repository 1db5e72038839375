"""A Typst document evaluated far enough to lay out its tables: what ``review.sources.typst`` reads them from.

Typst tables are often built by code (a CSV read with ``csv()``, its rows mapped to cells, a function merging a
column's repeated labels into ``table.cell(rowspan: ...)``); reading them means running that code. This evaluator
runs the syntax tree of ``typst_syntax`` with Typst's values (none, booleans, integers, floats, strings, arrays,
dictionaries, content, functions and closures, modules) and its scoping (``let`` in blocks, closures capturing their
scope, ``set`` rules' defaults for ``table``). Content is kept as runs of text (bold or not) and the elements the
reader needs: ``table`` with its cells, headers and footers, ``figure`` (with its kind, caption and supplement),
``image``. Functions that only place or decorate their body (``align``, ``block``, ``box``, ``pad``, ``text``...)
give their body; ``strong`` and ``text(weight: "bold")`` make it bold; ``super`` raises it.

Not evaluated: ``show`` rules (they change how things look, not which numbers a table holds), counters and
``context``'s queries, layout (``measure``), packages from Typst Universe (not available offline: a name imported
from one is unknown, and a table that uses it is unreadable, 'cannot check'), except ``oxifmt``'s ``strfmt``, which
tables use to round numbers (``review.sources.typst_lib.strfmt``).

Bounded: every evaluation step counts, and past ``max_steps`` (or ``max_depth`` nested calls) the reading stops
with ``TypstLimit``; files are read only inside the document's folder, each up to ``max_file_bytes``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import review.sources.typst_lib as typst_lib
import review.sources.typst_syntax as syn
from review.sources.typst_math import math_text
from review.sources.typst_methods import DICT_METHODS, method
from review.sources.typst_values import (
    Args,
    Builtin,
    Closure,
    Content,
    Elem,
    Module,
    Opaque,
    Run,
    Scope,
    TypstError,
    TypstLimit,
    binary,
    copied,
    display,
    embolden,
    iterate,
    join,
    spread_items,
    text_of,
    truth,
    unary,
)


class _Jump(Exception):
    def __init__(self, kind: str, value: Any = None) -> None:
        self.kind, self.value = kind, value


@dataclass
class Limits:
    max_steps: int = 2_000_000
    max_depth: int = 200
    max_file_bytes: int = 20_000_000


class Evaluator:
    """Runs one Typst document (``run``): its markup's content, with the files it reads inside ``root``."""

    def __init__(self, root: Path, limits: Limits | None = None) -> None:
        self.root = root.resolve()
        self.limits = limits or Limits()
        self.steps = 0
        self.depth = 0
        self.files: list[Path] = []
        self.modules: dict[Path, Module] = {}
        self.globals = Scope(names=typst_lib.globals_())
        self.lib = typst_lib
        self.texts: dict[Path, str] = {}

    # -- files -----------------------------------------------------------------------------------------------------
    def resolve(self, name: str) -> Path:
        here = self.files[-1].parent if self.files else self.root
        path = (self.root / name.lstrip("/")) if name.startswith("/") else here / name
        path = path.resolve()
        if path != self.root and self.root not in path.parents:
            raise TypstError(f"'{name}' is outside the document's folder, which is all the reader reads")
        if not path.is_file():
            raise TypstError(f"'{name}' is not in the source")
        if path.stat().st_size > self.limits.max_file_bytes:
            raise TypstLimit(f"'{name}' is {path.stat().st_size:,} bytes, more than the {self.limits.max_file_bytes:,}"
                             " a source file may have")
        return path

    def read_text(self, name: str) -> str:
        return self.resolve(name).read_text(encoding="utf-8-sig")

    def where(self, node: syn.Node) -> str:
        path = self.files[-1] if self.files else self.root
        text = self.texts.get(path, "")
        return f"{path.name}:{text.count(chr(10), 0, node.at) + 1}"

    def run(self, path: Path) -> Content:
        """The document's content: its markup evaluated, a failing top-level statement skipped (a figure whose
        table cannot be read is still a figure, ``figure``)."""
        self.texts = {}
        return self._file(path.resolve(), top=True)[0]

    def _file(self, path: Path, top: bool) -> tuple[Content, Scope]:
        if path in self.files:
            raise TypstError(f"{path.name} includes itself")
        if len(self.files) > 16:
            raise TypstLimit("files include each other more than 16 deep")
        text = path.read_text(encoding="utf-8-sig")
        self.texts[path] = text
        self.files.append(path)
        try:
            nodes = syn.parse(text)
            scope = Scope(self.globals)
            return self.markup(nodes, scope, tolerant=top), scope
        except syn.TypstSyntaxError as exc:
            raise TypstError(f"{path.name}: {exc}") from None
        finally:
            self.files.pop()

    def module(self, name: str) -> Module:
        path = self.resolve(name)
        if path not in self.modules:
            _, scope = self._file(path, top=True)
            self.modules[path] = Module(path.stem, scope.names)
        return self.modules[path]

    def include(self, name: str) -> Content:
        return self._file(self.resolve(name), top=True)[0]

    # -- evaluation ------------------------------------------------------------------------------------------------
    def step(self) -> None:
        self.steps += 1
        if self.steps > self.limits.max_steps:
            raise TypstLimit(f"the document's code took more than {self.limits.max_steps:,} steps")

    def markup(self, nodes: tuple[syn.Node, ...], scope: Scope, tolerant: bool = False) -> Content:
        parts: list[Run | Elem] = []
        for node in nodes:
            try:
                parts += self.markup_node(node, scope).parts
            except (TypstError, _Jump):
                if not tolerant or isinstance(sys_exc(), TypstLimit):
                    raise
        return Content(tuple(parts))

    def markup_node(self, node: syn.Node, scope: Scope) -> Content:
        self.step()
        if isinstance(node, syn.Text):
            return Content((Run(node.text),))
        if isinstance(node, syn.Space):
            return Content((Run(" "),))
        if isinstance(node, syn.Strong):
            return embolden(self.markup(node.body, scope))
        if isinstance(node, syn.Emph):
            return self.markup(node.body, scope)
        if isinstance(node, syn.Math):
            return Content((Run(math_text(node.source, self, scope)),))
        if isinstance(node, syn.Raw):
            return Content((Run(node.text),))
        if isinstance(node, syn.Label):
            return Content((Elem("label", (node.name,)),))
        if isinstance(node, syn.Embed):
            return display(self.eval(node.expr, scope))
        if isinstance(node, syn.ContentBlock):
            return self.markup(node.body, scope)
        raise TypstError(f"unexpected {type(node).__name__} in markup")

    def eval(self, node: syn.Node, scope: Scope) -> Any:
        self.step()
        method = getattr(self, "eval_" + type(node).__name__, None)
        if method is None:
            return self.markup_node(node, scope)
        return method(node, scope)

    def eval_Lit(self, node: syn.Lit, scope: Scope) -> Any:
        return node.value

    def eval_Ident(self, node: syn.Ident, scope: Scope) -> Any:
        return scope.lookup(node.name)

    def eval_ContentBlock(self, node: syn.ContentBlock, scope: Scope) -> Content:
        return self.markup(node.body, Scope(scope))

    def eval_CodeBlock(self, node: syn.CodeBlock, scope: Scope) -> Any:
        inner = Scope(scope)
        value: Any = None
        for statement in node.body:
            value = join(value, self.eval(statement, inner))
        return value

    def eval_ArrayLit(self, node: syn.ArrayLit, scope: Scope) -> list[Any]:
        out: list[Any] = []
        for item in node.items:
            value = self.eval(item.value, scope)
            if item.spread:
                out += spread_items(value)
            else:
                out.append(value)
        return out

    def eval_DictLit(self, node: syn.DictLit, scope: Scope) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for item in node.items:
            value = self.eval(item.value, scope)
            if item.spread:
                out.update(value if isinstance(value, dict) else {})
            else:
                out[item.name or ""] = value
        return out

    def eval_Unary(self, node: syn.Unary, scope: Scope) -> Any:
        return unary(node.op, self.eval(node.operand, scope))

    def eval_Binary(self, node: syn.Binary, scope: Scope) -> Any:
        if node.op in ("=", "+=", "-=", "*=", "/="):
            return self.assign(node, scope)
        left = self.eval(node.left, scope)
        if node.op == "and":
            return truth(left) and truth(self.eval(node.right, scope))
        if node.op == "or":
            return truth(left) or truth(self.eval(node.right, scope))
        return binary(node.op, left, self.eval(node.right, scope))

    def assign(self, node: syn.Binary, scope: Scope) -> None:
        value = self.eval(node.right, scope)
        target = node.left
        if node.op != "=":
            value = binary(node.op[0], self.eval(target, scope), value)
        if isinstance(target, syn.Ident):
            scope.assign(target.name, value)
            return None
        if isinstance(target, syn.Call) and isinstance(target.callee, syn.FieldAccess) and \
                target.callee.name == "at" and isinstance(target.callee.target, syn.Ident):
            name = target.callee.target.name
            container = copied(scope.lookup(name))
            key = self.eval(target.args[0].value, scope)
            container[key] = value
            scope.assign(name, container)
            return None
        if isinstance(target, syn.FieldAccess) and isinstance(target.target, syn.Ident):
            container = dict(scope.lookup(target.target.name))
            container[target.name] = value
            scope.assign(target.target.name, container)
            return None
        raise TypstError("assignment to something other than a name or an item of one")

    def eval_FieldAccess(self, node: syn.FieldAccess, scope: Scope) -> Any:
        return self.lib.field(self.eval(node.target, scope), node.name)

    def eval_Call(self, node: syn.Call, scope: Scope) -> Any:
        callee = node.callee
        if isinstance(callee, syn.FieldAccess):
            target = self.eval(callee.target, scope)
            if not isinstance(target, (Module, Builtin, dict)) or isinstance(target, dict) and \
                    callee.name in DICT_METHODS and callee.name not in target:
                args = self.arguments(node.args, scope)
                value, changed = method(self, target, callee.name, args)
                if changed and isinstance(callee.target, syn.Ident):
                    scope.assign(callee.target.name, changed[0])
                return value
            function = self.lib.field(target, callee.name)
        else:
            function = self.eval(callee, scope)
        if isinstance(function, Builtin) and function.name in self.lib.TOLERANT:
            args = self.arguments(node.args, scope, tolerant=True)
            return self.call(function, Args(args.pos, {**scope.style(function.name), **args.named}), node)
        return self.call(function, self.arguments(node.args, scope), node)

    def arguments(self, nodes: tuple[syn.Arg, ...], scope: Scope, tolerant: bool = False) -> Args:
        """The arguments' values; where ``tolerant`` (a table's, a figure's), one that cannot be evaluated is an
        ``Opaque`` value saying why, the others kept."""
        pos: list[Any] = []
        named: dict[str, Any] = {}
        for arg in nodes:
            try:
                value = self.eval(arg.value, scope)
            except TypstLimit:
                raise
            except TypstError as exc:
                if not tolerant:
                    raise
                value = Opaque(str(exc))
                if arg.spread:
                    pos.append(value)
                    continue
            if arg.spread:
                if isinstance(value, Args):
                    pos += value.pos
                    named.update(value.named)
                elif isinstance(value, dict):
                    named.update(value)
                else:
                    pos += spread_items(value)
            elif arg.name is not None:
                named[arg.name] = value
            else:
                pos.append(value)
        return Args(tuple(pos), named)

    def call(self, function: Any, args: Args, node: syn.Node | None = None) -> Any:
        if isinstance(function, Opaque):
            raise TypstError(function.reason)
        if isinstance(function, Builtin):
            pos, named = function.bound
            return function.fn(self, Args(pos + args.pos, {**dict(named), **args.named}), node)
        if isinstance(function, Closure):
            return self.call_closure(function, args)
        raise TypstError(f"{text_of(function)!r} is not a function")

    def call_closure(self, closure: Closure, args: Args) -> Any:
        self.depth += 1
        if self.depth > self.limits.max_depth:
            raise TypstLimit(f"functions call each other more than {self.limits.max_depth} deep")
        try:
            scope = Scope(closure.scope)
            if closure.name:
                scope.names[closure.name] = closure
            positional = list(args.pos)
            named = dict(args.named)
            own = {p.name for p in closure.node.params if not p.sink}
            fixed = sum(1 for p in closure.node.params if not p.sink and p.default is None)
            for param in closure.node.params:
                if param.sink:  # what the other parameters do not take: the positional ones after theirs
                    taken = max(fixed - sum(1 for p in closure.node.params[:closure.node.params.index(param)]
                                            if not p.sink and p.default is None), 0)
                    rest = positional[:len(positional) - taken] if taken else positional
                    positional = positional[len(rest):]
                    scope.names[param.name] = Args(tuple(rest), {k: v for k, v in named.items() if k not in own})
                    named = {k: v for k, v in named.items() if k in own}
                elif param.default is not None:
                    scope.names[param.name] = named.pop(param.name) if param.name in named else self.eval(
                        param.default, closure.scope)
                elif positional:
                    scope.names[param.name] = positional.pop(0)
                else:
                    raise TypstError(f"missing argument: {param.name}")
            try:
                return self.eval(closure.node.body, scope)
            except _Jump as jump:
                if jump.kind == "return":
                    return jump.value
                raise
        finally:
            self.depth -= 1

    def eval_Closure(self, node: syn.Closure, scope: Scope) -> Closure:
        return Closure(node, scope, node.name)

    def eval_Let(self, node: syn.Let, scope: Scope) -> None:
        try:
            value = self.eval(node.value, scope) if node.value is not None else None
        except TypstLimit:
            raise
        except TypstError as exc:
            value = Opaque(str(exc))
        self.bind(node.pattern, value, scope)
        return None

    def bind(self, pattern: str | tuple[str, ...], value: Any, scope: Scope) -> None:
        if isinstance(pattern, str):
            if pattern != "_":
                scope.names[pattern] = value
            return
        items = list(value.items()) if isinstance(value, dict) else spread_items(value)
        if len(items) != len(pattern):
            raise TypstError(f"cannot destructure {len(items)} values into {len(pattern)} names")
        for name, item in zip(pattern, items, strict=True):
            if name != "_":
                scope.names[name] = item

    def eval_SetRule(self, node: syn.SetRule, scope: Scope) -> None:
        if node.condition is not None and not truth(self.eval(node.condition, scope)):
            return None
        target = self.eval(node.target, scope)
        if isinstance(target, Builtin):
            args = self.arguments(node.args, scope, tolerant=True)
            scope.styles.setdefault(target.name, {}).update(args.named)
        return None

    def eval_ShowRule(self, node: syn.ShowRule, scope: Scope) -> None:
        return None

    def eval_Import(self, node: syn.Import, scope: Scope) -> None:
        source = self.eval(node.source, scope)
        if not isinstance(source, str):
            raise TypstError("an import of something other than a file or a package")
        if source.startswith("@"):
            names = self.lib.package(source, node.names)
        else:
            module = self.module(source)
            if node.names == ():
                names = {module.name: module}
            elif node.names is None:
                names = dict(module.scope)
            else:
                names = {bound: module.scope.get(name, Opaque(f"{source} has no '{name}'"))
                         for name, bound in node.names}
        scope.names.update(names)
        return None

    def eval_Include(self, node: syn.Include, scope: Scope) -> Content:
        return self.include(self.eval(node.source, scope))

    def eval_If(self, node: syn.If, scope: Scope) -> Any:
        if truth(self.eval(node.condition, scope)):
            return self.eval(node.then, scope)
        return self.eval(node.otherwise, scope) if node.otherwise is not None else None

    def eval_For(self, node: syn.For, scope: Scope) -> Any:
        value: Any = None
        for item in iterate(self.eval(node.iterable, scope)):
            inner = Scope(scope)
            self.bind(node.pattern, item, inner)
            value, more = self.iteration(node.body, inner, value)
            if not more:
                break
        return value

    def eval_While(self, node: syn.While, scope: Scope) -> Any:
        value: Any = None
        while truth(self.eval(node.condition, scope)):
            value, more = self.iteration(node.body, Scope(scope), value)
            if not more:
                break
        return value

    def iteration(self, body: syn.Node, scope: Scope, value: Any) -> tuple[Any, bool]:
        """One pass of a loop's body, joined to the loop's value so far; whether the loop goes on (no ``break``)."""
        try:
            return join(value, self.eval(body, scope)), True
        except _Jump as jump:
            if jump.kind not in ("break", "continue"):
                raise
            return value, jump.kind == "continue"

    def eval_Jump(self, node: syn.Jump, scope: Scope) -> Any:
        raise _Jump(node.kind, self.eval(node.value, scope) if node.value is not None else None)


def sys_exc() -> BaseException | None:
    import sys

    return sys.exc_info()[1]
