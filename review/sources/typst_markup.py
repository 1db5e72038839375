"""Typst markup read character by character: the scanner ``typst_syntax.Parser`` is built on (positions, lines,
comments, spaces) and its markup (module docstring of ``typst_syntax``). Code after ``#`` is the parser's
(``embedded``)."""

from __future__ import annotations

import re

from review.sources.typst_nodes import (
    ContentBlock,
    Embed,
    Emph,
    Label,
    Math,
    Node,
    Raw,
    Space,
    Strong,
    Text,
    TypstSyntaxError,
)

IDENT = re.compile(r"[^\W\d][\w-]*")
_SHORTHANDS = (("---", "\u2014"), ("--", "\u2013"), ("...", "\u2026"), ("-?", "\u00ad"), ("~", "\u00a0"))
_MARKER = re.compile(r"(=+|-|\+)(?=\s)")
MAX_NESTING = 256
"""The deepest nesting of brackets and blocks read: deeper is no document a person wrote."""


class Markup:
    """Typst's markup, and the scanning that markup and code share."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0

    def embedded(self) -> Node:
        """The code after a ``#``: the parser's (``typst_syntax.Parser.embedded``)."""
        raise NotImplementedError

    def line(self, at: int | None = None) -> int:
        return self.text.count("\n", 0, self.pos if at is None else at) + 1

    def error(self, message: str) -> TypstSyntaxError:
        return TypstSyntaxError(message, self.line())

    def peek(self, n: int = 0) -> str:
        return self.text[self.pos + n] if self.pos + n < len(self.text) else ""

    def starts(self, s: str | tuple[str, ...]) -> bool:
        return self.text.startswith(s, self.pos)

    def expect(self, s: str) -> None:
        if not self.starts(s):
            found = self.text[self.pos:self.pos + 12] or "the end"
            raise self.error(f"expected {s!r}, found {found!r}")
        self.pos += len(s)

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error(f"nested more than {MAX_NESTING} deep")

    def comment(self) -> bool:
        """Skip one comment at the position, if there is one."""
        if self.starts("//"):
            end = self.text.find("\n", self.pos)
            self.pos = len(self.text) if end < 0 else end
            return True
        if self.starts("/*"):
            level, self.pos = 1, self.pos + 2
            while level:
                if self.pos >= len(self.text):
                    raise self.error("a /* comment is never closed")
                if self.starts("/*"):
                    level, self.pos = level + 1, self.pos + 2
                elif self.starts("*/"):
                    level, self.pos = level - 1, self.pos + 2
                else:
                    self.pos += 1
            return True
        return False

    def trivia(self, newlines: bool) -> bool:
        """Skip spaces and comments (and line breaks where ``newlines``); whether a line break was passed."""
        crossed = False
        while self.pos < len(self.text):
            c = self.text[self.pos]
            if c == "\n":
                if not newlines:
                    return crossed
                crossed = True
                self.pos += 1
            elif c.isspace():
                self.pos += 1
            elif not self.comment():
                break
        return crossed

    # -- markup ----------------------------------------------------------------------------------------------------
    def markup(self, closing: str = "") -> tuple[Node, ...]:
        """Markup up to ``closing`` (']' for a content block, '*' or '_' for strong or emph) or the end."""
        nodes: list[Node] = []
        buffer: list[str] = []
        start_of_line = True

        def flush() -> None:
            if buffer:
                nodes.append(Text("".join(buffer), at=self.pos))
                buffer.clear()

        while self.pos < len(self.text):
            c = self.peek()
            if closing and c == closing and (closing == "]" or not self._inside_word()):
                break
            if c == "]" and closing in ("*", "_"):
                break
            if self.starts("//") and not "".join(buffer).endswith(":") or self.starts("/*"):
                self.comment()
                continue
            if c.isspace():
                flush()
                newline = False
                while self.pos < len(self.text) and self.peek().isspace():
                    newline = newline or self.peek() == "\n"
                    self.pos += 1
                if not nodes or not isinstance(nodes[-1], Space):
                    nodes.append(Space(at=self.pos))
                start_of_line = newline
                continue
            if start_of_line and self._marker():
                continue
            start_of_line = False
            node = self._markup_token(c, closing)
            if isinstance(node, str):
                buffer.append(node)
            elif node is not None:
                flush()
                nodes.append(node)
        flush()
        return tuple(nodes)

    def _inside_word(self) -> bool:
        before = self.text[self.pos - 1] if self.pos else ""
        return before.isalnum() and self.peek(1).isalnum()

    def _marker(self) -> bool:
        """A heading's ``=``, a list's ``-``/``+``, a term's ``/`` at the start of a line: dropped."""
        hit = _MARKER.match(self.text, self.pos)
        if hit:
            self.pos = hit.end()
            return True
        return False

    def _markup_token(self, c: str, closing: str) -> Node | str | None:
        start = self.pos
        if c == "\\":
            return self._escape()
        if c == "#":
            nxt = self.peek(1)
            if nxt and (nxt in "([{\"" or IDENT.match(nxt)):
                self.pos += 1
                return Embed(self.embedded(), at=start)
            self.pos += 1
            return "#"
        if c in "*_" and not self._inside_word():
            self.pos += 1
            self.nest()
            body = self.markup(closing=c)
            self.depth -= 1
            if self.peek() == c:
                self.pos += 1
            return (Strong if c == "*" else Emph)(body, at=start)
        if c == "$":
            return Math(self._until_dollar(), at=start)
        if c == "`":
            return self._raw()
        if c == "<":
            hit = re.compile(r"<([\w:.\-]+)>").match(self.text, self.pos)
            if hit:
                self.pos = hit.end()
                return Label(hit.group(1), at=start)
        if c == "@":
            hit = re.compile(r"@([\w:.\-]*\w)").match(self.text, self.pos)
            if hit:
                self.pos = hit.end()
                return Text(hit.group(1), at=start)
        if c == "[":
            self.pos += 1
            self.nest()
            inner = self.markup(closing="]")
            self.depth -= 1
            self.expect("]")
            return ContentBlock((Text("["), *inner, Text("]")), at=start)
        for written, printed in _SHORTHANDS:
            if self.starts(written):
                self.pos += len(written)
                return printed
        self.pos += 1
        return c

    def _escape(self) -> Node | str:
        nxt = self.peek(1)
        if not nxt or nxt.isspace():
            self.pos += 1
            return Space(at=self.pos)
        hit = re.compile(r"\\u\{([0-9a-fA-F]{1,6})\}").match(self.text, self.pos)
        if hit:
            self.pos = hit.end()
            return chr(int(hit.group(1), 16))
        self.pos += 2
        return nxt

    def _until_dollar(self) -> str:
        self.pos += 1
        start = self.pos
        while self.pos < len(self.text) and self.peek() != "$":
            self.pos += 2 if self.peek() == "\\" else 1
        if self.pos >= len(self.text):
            raise self.error("a $ (math) is never closed")
        self.pos += 1
        return self.text[start:self.pos - 1]

    def _raw(self) -> Node:
        start = self.pos
        ticks = len(re.compile(r"`+").match(self.text, self.pos).group(0))  # type: ignore[union-attr]
        if ticks == 2:
            self.pos += 2
            return Raw("", at=start)
        self.pos += ticks
        end = self.text.find("`" * ticks, self.pos)
        if end < 0:
            raise self.error("raw text in backticks is never closed")
        body = self.text[self.pos:end]
        self.pos = end + ticks
        if ticks >= 3:
            body = re.sub(r"^[\w-]*\n?", "", body, count=1)  # the language tag
        return Raw(body, at=start)
