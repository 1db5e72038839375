"""Typst markup and code parsed into a syntax tree: what ``review.sources.typst`` evaluates to find a document's
tables. A hand-written recursive-descent parser (no Typst parser is published for Python), for the language as
Typst 0.11-0.13 writes it:

- **markup**: text, ``*strong*``, ``_emph_`` (not inside a word), ``$math$`` (kept as its source, read by
  ``typst_math``), raw text in backticks, escapes (``\\#``, ``\\u{b1}``, ``\\`` before a space is a line break),
  shorthands (``--`` '–', ``---`` '—', ``~``, ``...``), ``<label>``, ``@ref``, ``//`` and nested ``/* */`` comments,
  headings' and lists' markers (dropped), ``#`` before code;
- **code**: literals (``none``, ``auto``, booleans, integers, floats with exponents, numbers with units ``3em``,
  ``50%``, strings with escapes), arrays and dictionaries, ``..`` spreads, content ``[...]`` and code ``{...}``
  blocks, operators with Typst's precedences, field access, calls with named arguments and trailing content
  blocks, closures (``x => ...``, ``(a, b: 1, ..rest) => ...``), ``let`` (with destructuring and
  ``let f(x) = ...``), ``set`` (with ``if``), ``show`` (parsed, not applied), ``import``, ``include``, ``if``/
  ``else``, ``for``, ``while``, ``break``, ``continue``, ``return``, ``context``.

In code blocks a statement ends at a line break, as in Typst; after ``#`` in markup, a keyword's statement runs to
the end of the line and any other expression is an atom with its fields, calls and content blocks written without
a space (``#r.at(0)]`` ends before the bracket).
"""

from __future__ import annotations

import re
from typing import Any

from review.sources.typst_markup import IDENT, Markup
from review.sources.typst_nodes import (  # noqa: F401 - the tree's nodes, named where the parser is
    AUTO,
    Arg,
    ArrayLit,
    Binary,
    Call,
    Closure,
    CodeBlock,
    ContentBlock,
    DictLit,
    Embed,
    Emph,
    FieldAccess,
    For,
    Ident,
    If,
    Import,
    Include,
    Jump,
    Label,
    Let,
    Lit,
    Math,
    Node,
    Param,
    Raw,
    SetRule,
    ShowRule,
    Space,
    Strong,
    Text,
    TypstSyntaxError,
    Unary,
    Unit,
    While,
)

KEYWORDS = frozenset({"none", "auto", "true", "false", "not", "and", "or", "let", "set", "show", "context", "if",
                      "else", "for", "in", "while", "break", "continue", "return", "import", "include", "as"})
_NUMBER = re.compile(r"(0x[0-9a-fA-F]+|0o[0-7]+|0b[01]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
                     r"(pt|mm|cm|in|em|fr|deg|rad|%)?")
_BINARY = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4, "not in": 4,
           "+": 5, "-": 5, "*": 6, "/": 6}
_ASSIGN = ("+=", "-=", "*=", "/=", "=")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"'}



class Parser(Markup):
    """Typst's code (module docstring), over the markup and scanning of ``typst_markup.Markup``."""

    def embedded(self) -> Node:
        """The code after a ``#`` in markup (module docstring)."""
        hit = IDENT.match(self.text, self.pos)
        if hit and hit.group(0) in KEYWORDS and hit.group(0) not in ("none", "auto", "true", "false"):
            node = self.expression(newlines=False)
            if self.peek() == ";":
                self.pos += 1
            return node
        node = self.primary(newlines=False)
        return self.postfix(node, newlines=False, spaced=False)

    def expression(self, newlines: bool, precedence: int = 0) -> Node:
        start = self.pos
        self.trivia(newlines)
        if precedence <= 3 and self._keyword("not"):
            left: Node = Unary("not", self.expression(newlines, 3), at=start)
        elif self.peek() and self.peek() in "-+" and not self.starts("+=") and not self.starts("-="):
            op = self.peek()
            self.pos += 1
            left = Unary(op, self.expression(newlines, 7), at=start)
        else:
            left = self.postfix(self.primary(newlines), newlines)
        while True:
            mark = self.pos
            if self.trivia(newlines=newlines) and not newlines:
                self.pos = mark
                return left
            op = self._binary()
            if op is None:
                if precedence == 0:
                    assign = next((a for a in _ASSIGN if self.starts(a) and not self.starts(("==", "=>"))), None)
                    if assign:
                        self.pos += len(assign)
                        return Binary(assign, left, self.expression(newlines, 0), at=start)
                self.pos = mark
                return left
            level = _BINARY[op]
            if level <= precedence:
                self.pos = mark
                return left
            self.pos += len(op) if op != "not in" else len(re.compile(r"not\s+in").match(self.text, self.pos)[0])
            left = Binary(op, left, self.expression(newlines, level), at=start)

    def _binary(self) -> str | None:
        for op in ("==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/"):
            if self.starts(op) and not (op in "+-*/" and self.peek(1) == "=") and not self.starts("=>"):
                return op
        for word in ("and", "or", "in"):
            if self._keyword(word, consume=False):
                return word
        if re.compile(r"not\s+in(?![\w-])").match(self.text, self.pos):
            return "not in"
        return None

    def _keyword(self, word: str, consume: bool = True) -> bool:
        hit = IDENT.match(self.text, self.pos)
        if hit and hit.group(0) == word:
            if consume:
                self.pos = hit.end()
            return True
        return False

    def primary(self, newlines: bool) -> Node:
        start = self.pos
        c = self.peek()
        if c == "(":
            return self.parenthesized()
        if c == "[":
            self.pos += 1
            self.nest()
            body = self.markup(closing="]")
            self.depth -= 1
            self.expect("]")
            return ContentBlock(body, at=start)
        if c == "{":
            return self.code_block()
        if c == '"':
            return Lit(self.string(), at=start)
        if c == "$":
            return Math(self._until_dollar(), at=start)
        hit = _NUMBER.match(self.text, self.pos)
        if c.isdigit() or (c == "." and self.peek(1).isdigit()):
            assert hit is not None
            self.pos = hit.end()
            return Lit(_number(hit.group(1), hit.group(2)), at=start)
        hit = IDENT.match(self.text, self.pos)
        if not hit:
            raise self.error(f"expected an expression, found {self.text[self.pos:self.pos + 12] or 'the end'!r}")
        name = hit.group(0)
        self.pos = hit.end()
        if name in KEYWORDS:
            return self.keyword(name, start, newlines)
        mark = self.pos
        self.trivia(newlines=False)
        if self.starts("=>"):
            self.pos += 2
            return Closure((Param(name),), self.expression(newlines), at=start)
        self.pos = mark
        return Ident(name, at=start)

    def keyword(self, name: str, start: int, newlines: bool) -> Node:
        constants = {"none": None, "true": True, "false": False}
        if name in constants:
            return Lit(constants[name], at=start)
        if name == "auto":
            return Lit(AUTO, at=start)
        if name == "let":
            return self.let(start, newlines)
        if name == "set":
            self.trivia(False)
            target = self.postfix(self.primary(newlines), newlines)
            condition = None
            if isinstance(target, Call):
                mark = self.pos
                self.trivia(False)
                if self._keyword("if"):
                    condition = self.expression(newlines)
                else:
                    self.pos = mark
                return SetRule(target.callee, target.args, condition, at=start)
            raise self.error("a set rule needs a function and its arguments")
        if name == "show":
            self.trivia(False)
            if self.peek() != ":":
                self.expression(newlines)
                self.trivia(False)
            self.expect(":")
            self.expression(newlines)
            return ShowRule(at=start)
        if name == "context":
            return self.expression(newlines)
        if name == "if":
            return self.conditional(start, newlines)
        if name == "for":
            self.trivia(False)
            pattern = self.pattern()
            self.trivia(False)
            if not self._keyword("in"):
                raise self.error("expected 'in' in a for loop")
            iterable = self.expression(newlines=True, precedence=4)
            return For(pattern, iterable, self.block(), at=start)
        if name == "while":
            condition = self.expression(newlines=True, precedence=0)
            return While(condition, self.block(), at=start)
        if name in ("break", "continue"):
            return Jump(name, at=start)
        if name == "return":
            mark = self.pos
            crossed = self.trivia(False)
            if crossed or self.pos >= len(self.text) or self.peek() in "}];\n":
                self.pos = mark
                return Jump("return", at=start)
            return Jump("return", self.expression(newlines), at=start)
        if name == "import":
            return self.import_(start, newlines)
        if name == "include":
            return Include(self.expression(newlines), at=start)
        raise self.error(f"unexpected keyword {name!r}")

    def let(self, start: int, newlines: bool) -> Node:
        self.trivia(False)
        if self.peek() == "(":
            pattern: str | tuple[str, ...] = self.pattern()
        else:
            hit = IDENT.match(self.text, self.pos)
            if not hit:
                raise self.error("expected a name after 'let'")
            self.pos = hit.end()
            pattern = hit.group(0)
            if self.peek() == "(":
                params = self.params()
                self.trivia(False)
                self.expect("=")
                return Let(pattern, Closure(params, self.expression(newlines), pattern, at=start), at=start)
        mark = self.pos
        self.trivia(False)
        if self.starts("=") and not self.starts("=="):
            self.pos += 1
            return Let(pattern, self.expression(newlines), at=start)
        self.pos = mark
        return Let(pattern, None, at=start)

    def conditional(self, start: int, newlines: bool) -> Node:
        condition = self.expression(newlines=True, precedence=0)
        then = self.block()
        mark = self.pos
        self.trivia(True)
        if self._keyword("else"):
            self.trivia(True)
            if self._keyword("if"):
                return If(condition, then, self.conditional(self.pos, newlines), at=start)
            return If(condition, then, self.block(), at=start)
        self.pos = mark
        return If(condition, then, None, at=start)

    def block(self) -> Node:
        self.trivia(True)
        if self.peek() == "{":
            return self.code_block()
        if self.peek() == "[":
            return self.primary(newlines=True)
        raise self.error("expected a block ({...} or [...])")

    def code_block(self) -> Node:
        start = self.pos
        self.expect("{")
        self.nest()
        body: list[Node] = []
        while True:
            self.trivia(True)
            while self.peek() == ";":
                self.pos += 1
                self.trivia(True)
            if self.peek() == "}":
                break
            if self.pos >= len(self.text):
                raise self.error("a { block is never closed")
            body.append(self.expression(newlines=False))
            self.trivia(False)
            if self.peek() not in ("\n", ";", "}", ""):
                raise self.error(f"expected the end of a statement, found {self.text[self.pos:self.pos + 12]!r}")
        self.pos += 1
        self.depth -= 1
        return CodeBlock(tuple(body), at=start)

    def import_(self, start: int, newlines: bool) -> Node:
        self.trivia(False)
        source = self.primary(newlines)
        mark = self.pos
        self.trivia(False)
        if not self.starts(":"):
            self.pos = mark
            return Import(source, (), at=start)
        self.pos += 1
        self.trivia(False)
        if self.peek() == "*":
            self.pos += 1
            return Import(source, None, at=start)
        parens = self.peek() == "("
        self.pos += parens
        names: list[tuple[str, str]] = []
        while True:
            self.trivia(parens)
            hit = re.compile(r"([^\W\d][\w-]*(?:\.[^\W\d][\w-]*)*)(?:\s+as\s+([^\W\d][\w-]*))?").match(
                self.text, self.pos)
            if not hit:
                break
            self.pos = hit.end()
            names.append((hit.group(1), hit.group(2) or hit.group(1).split(".")[-1]))
            self.trivia(parens)
            if self.peek() != ",":
                break
            self.pos += 1
        if parens:
            self.trivia(True)
            self.expect(")")
        return Import(source, tuple(names), at=start)

    def pattern(self) -> str | tuple[str, ...]:
        if self.peek() == "(":
            self.pos += 1
            names: list[str] = []
            while True:
                self.trivia(True)
                if self.peek() == ")":
                    break
                self.pos += 2 if self.starts("..") else 0
                hit = IDENT.match(self.text, self.pos)
                if not hit:
                    raise self.error("expected a name in a destructuring pattern")
                self.pos = hit.end()
                names.append(hit.group(0))
                self.trivia(True)
                if self.peek() == ",":
                    self.pos += 1
            self.expect(")")
            return tuple(names)
        hit = IDENT.match(self.text, self.pos)
        if not hit:
            raise self.error("expected a name")
        self.pos = hit.end()
        return hit.group(0)

    def params(self) -> tuple[Param, ...]:
        args = self.arguments()
        return tuple(_param(arg, self) for arg in args)

    def parenthesized(self) -> Node:
        start = self.pos
        if re.compile(r"\(\s*:\s*\)").match(self.text, self.pos):
            self.pos = re.compile(r"\(\s*:\s*\)").match(self.text, self.pos).end()  # type: ignore[union-attr]
            return DictLit((), at=start)
        args, trailing_comma = self.arguments(with_comma=True)
        mark = self.pos
        self.trivia(False)
        if self.starts("=>"):
            self.pos += 2
            params = tuple(_param(arg, self) for arg in args)
            return Closure(params, self.expression(newlines=False), at=start)
        self.pos = mark
        if len(args) == 1 and args[0].name is None and not args[0].spread and not trailing_comma:
            return args[0].value
        if args and all(a.name is not None or a.spread for a in args) and any(a.name is not None for a in args):
            return DictLit(tuple(args), at=start)
        return ArrayLit(tuple(args), at=start)

    def arguments(self, with_comma: bool = False) -> Any:
        """``(a, name: b, ..c)``: the arguments (and, with ``with_comma``, whether a comma ended them)."""
        self.expect("(")
        self.nest()
        args: list[Arg] = []
        comma = False
        while True:
            self.trivia(True)
            if self.peek() == ")":
                break
            start = self.pos
            if self.starts(".."):
                self.pos += 2
                args.append(Arg(None, self.expression(newlines=True), True, at=start))
            else:
                named = re.compile(r"([^\W\d][\w-]*|\"(?:[^\"\\]|\\.)*\")\s*:(?!:)").match(self.text, self.pos)
                if named:
                    self.pos = named.end()
                    key = named.group(1)
                    key = _unquote(key) if key.startswith('"') else key
                    args.append(Arg(key, self.expression(newlines=True), at=start))
                else:
                    args.append(Arg(None, self.expression(newlines=True), at=start))
            self.trivia(True)
            comma = self.peek() == ","
            if comma:
                self.pos += 1
            elif self.peek() != ")":
                raise self.error(f"expected ',' or ')', found {self.text[self.pos:self.pos + 12] or 'the end'!r}")
        self.pos += 1
        self.depth -= 1
        return (tuple(args), comma) if with_comma else tuple(args)

    def postfix(self, node: Node, newlines: bool, spaced: bool = True) -> Node:
        """Field accesses, calls and trailing content blocks after ``node`` (none after a space where
        ``spaced`` is false, as after ``#`` in markup)."""
        while True:
            mark = self.pos
            if spaced:
                self.trivia(False)
            c = self.peek()
            if c == "." and IDENT.match(self.peek(1)) and not self.starts(".."):
                self.pos += 1
                hit = IDENT.match(self.text, self.pos)
                assert hit is not None
                self.pos = hit.end()
                node = FieldAccess(node, hit.group(0), at=node.at)
            elif c == "(" and self.pos == mark:
                node = Call(node, self.arguments(), at=node.at)
            elif c == "[" and self.pos == mark and isinstance(node, (Ident, FieldAccess, Call)):
                content = self.primary(newlines)
                args = node.args if isinstance(node, Call) else ()
                callee = node.callee if isinstance(node, Call) else node
                node = Call(callee, (*args, Arg(None, content, at=content.at)), at=node.at)
            else:
                self.pos = mark
                return node

    def string(self) -> str:
        self.expect('"')
        out: list[str] = []
        while True:
            c = self.peek()
            if not c:
                raise self.error("a string is never closed")
            self.pos += 1
            if c == '"':
                return "".join(out)
            if c == "\\":
                hit = re.compile(r"u\{([0-9a-fA-F]{1,6})\}").match(self.text, self.pos)
                if hit:
                    out.append(chr(int(hit.group(1), 16)))
                    self.pos = hit.end()
                else:
                    out.append(_ESCAPES.get(self.peek(), self.peek()))
                    self.pos += 1
            else:
                out.append(c)




def _number(digits: str, unit: str | None) -> Any:
    if digits[:2] in ("0x", "0o", "0b"):
        value: Any = int(digits, 0)
    elif re.fullmatch(r"\d+", digits):
        value = int(digits)
    else:
        value = float(digits)
    return Unit(float(value), unit) if unit else value


def _unquote(text: str) -> str:
    return Parser(text).string()


def _param(arg: Arg, parser: Parser) -> Param:
    if isinstance(arg.value, Ident):
        return Param(arg.value.name, None, arg.spread) if arg.name is None else Param(arg.name, arg.value)
    if arg.name is not None:
        return Param(arg.name, arg.value)
    if isinstance(arg.value, (ArrayLit,)):
        return Param("_", None)
    raise parser.error("expected a parameter name")


def parse(text: str) -> tuple[Node, ...]:
    """A Typst file's markup, parsed."""
    parser = Parser(text)
    nodes = parser.markup()
    if parser.pos < len(text):
        raise parser.error(f"unexpected {text[parser.pos]!r}")
    return nodes
