"""The page structure as HTML: blocks rendered here, pages laid out by Jinja2 templates (autoescaping on).

Like ``registry.show`` for the terminal, this module says how each block of the neutral page
structure looks, here as HTML; the templates (``templates/``) give the pages around them. Every
text that came from a record is escaped, here with ``html.escape`` and in the templates by the
engine; only the plot's SVG, which matplotlib made from numbers and escaped names, goes in as
markup. Blocks are rendered in Python rather than as template macros: a registry of 10,000
results has 30,000 pages and millions of pieces of text, and a macro call costs many times this.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, pass_context
from markupsafe import Markup

from registry.page.blocks import Block, Content, Fields, Figure, Items, Paragraph, Section, Style, Table, Tag


def anchor(title: str) -> str:
    """'Sources and history' -> 'sources-and-history': a section's id, stable as long as its title is."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"


#: Tables with more rows than this are folded under their title (a native <details>, no script needed).
LONG_TABLE = 12


def tag_title(tag: Tag) -> str:
    """What backs a value, for its hover text: 'estimated by us · hardware: ... · commit: ...'."""
    return " · ".join([tag.label, *(f"{name}: {value}" for name, value in tag.details)])


@functools.lru_cache(maxsize=4096)
def _tag_html(tag: Tag) -> tuple[str, str]:
    """The opening of a tagged value's element (without its exact value) and the label that follows it."""
    kind = _escape(tag.provenance.value)
    return (f'<span class="v v-{kind}" data-provenance="{kind}" title="{_escape(tag_title(tag))}"',
            f' <span class="tag tag-{kind}">{_escape(tag.label)}</span>')


@dataclass(frozen=True)
class Links:
    """Where links point from one page: the path back to the site's root, and each record id's page."""

    root: str
    urls: dict[str, str]


@pass_context
def inline_filter(context: Any, content: Content) -> Markup:
    """The 'inline' filter of the templates: a run of pieces as HTML."""
    return Markup(inline(content, Links(context["root"], context["urls"])))


def inline(content: Content, links: Links) -> str:
    """A run of pieces as HTML: every text escaped, line breaks as <br>, links, and each value with its tag.

    The tag's label follows a value once per run of values with the same tag: '11.45 GB' and
    '10.67 GiB' of one run, a line apart, carry one 'estimated by us', not two.
    """
    root, urls = links.root, links.urls
    out: list[str] = []
    next_tag: Tag | None = None  # the tag of the next tagged piece, walking backwards
    for piece in reversed(content):
        inner = _escape(piece.text)
        if "\n" in inner:
            inner = inner.replace("\n", "<br>")
        if piece.style is Style.STRONG:
            inner = f"<strong>{inner}</strong>"
        if piece.link is not None and piece.link in urls:
            inner = f'<a href="{root}{_escape(urls[piece.link])}">{inner}</a>'
        if piece.tag is not None:
            opening, label = _tag_html(piece.tag)
            exact = f' data-exact="{_escape(piece.exact)}"' if piece.exact else ""
            inner = f"{opening}{exact}>{inner}</span>{label if next_tag != piece.tag else ''}"
            next_tag = piece.tag
        elif piece.style is Style.NOTE:
            inner = f'<span class="note">{inner}</span>'
        out.append(inner)
    return "".join(reversed(out))


def render_blocks(blocks: tuple[Block, ...], links: Links, level: int = 2) -> Markup:
    """Blocks as HTML; sections nest their headings from ``level`` (h2 under the page's h1)."""
    return Markup("".join(_block(block, links, level) for block in blocks))


@functools.singledispatch
def _block(block: Block, links: Links, level: int) -> str:
    raise TypeError(f"no HTML rendering for {type(block).__name__}")


@_block.register
def _section(block: Section, links: Links, level: int) -> str:
    inner = "".join(_block(b, links, level + 1) for b in block.blocks)
    return (f'<section id="{anchor(block.title)}">\n<h{level}>{_escape(block.title)}</h{level}>\n'
            f"{inner}</section>\n")


@_block.register
def _paragraph(block: Paragraph, links: Links, level: int) -> str:
    css = ' class="note"' if block.style is Style.NOTE else ""
    return f"<p{css}>{inline(block.content, links)}</p>\n"


@_block.register
def _items(block: Items, links: Links, level: int) -> str:
    return "<ul>\n" + "".join(f"<li>{inline(item, links)}</li>\n" for item in block.items) + "</ul>\n"


@_block.register
def _fields(block: Fields, links: Links, level: int) -> str:
    rows = "".join(f"<div><dt>{_escape(label)}</dt><dd>{inline(value, links)}</dd></div>\n"
                   for label, value in block.rows)
    return f'<dl class="fields">\n{rows}</dl>\n'


@_block.register
def _table(block: Table, links: Links, level: int) -> str:
    """A table with its title as caption; one of more than ``LONG_TABLE`` rows is folded under its title."""
    numeric = [' class="num"' if column.right else "" for column in block.columns]
    head = "".join(f'<th scope="col">{_escape(column.header)}</th>' for column in block.columns)
    body = "".join("<tr>" + "".join(f"<td{numeric[i]}>{inline(cell, links)}</td>" for i, cell in enumerate(row))
                   + "</tr>\n" for row in block.rows)
    caption = f"<caption>{_escape(block.title)}</caption>\n" if block.title else ""
    note = f'<p class="table-note">{_escape(block.caption)}</p>\n' if block.caption else ""
    table = f"<table>\n{caption}<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody>\n</table>\n{note}"
    if len(block.rows) > LONG_TABLE:
        summary = _escape(f"{block.title or 'Table'} ({len(block.rows)} rows)")
        table = f"<details><summary>{summary}</summary>\n{table}</details>\n"
    return f'<div class="table-wrap">\n{table}</div>\n'


@_block.register
def _figure(block: Figure, links: Links, level: int) -> str:
    inner = "".join(_block(b, links, level) for b in block.blocks)
    return (f'<figure class="plot" id="{_escape(block.anchor)}">\n{block.svg}'
            f'<figcaption id="plot-title">{_escape(block.caption)}</figcaption>\n</figure>\n{inner}')


_SPECIAL = re.compile(r"[&<>\"']")


def _escape(text: str) -> str:
    """``html.escape`` (quotes too), skipped for the many texts that hold nothing to escape."""
    return html.escape(text, quote=True) if _SPECIAL.search(text) else text


@functools.cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("registry.site", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=False,
        lstrip_blocks=False,
        keep_trailing_newline=True,
    )
    env.filters["inline"] = inline_filter
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)
