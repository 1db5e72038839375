"""The page structure as HTML, through Jinja2 templates with autoescaping on.

Every text that came from a record is escaped by the template engine; only the plot's SVG,
which matplotlib made from numbers and escaped names, is inserted as markup.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, pass_context
from markupsafe import Markup

from registry.page.blocks import Block, Content, Fields, Items, Paragraph, Section, Style, Table, Tag


@dataclass(frozen=True)
class Figure:
    """A plot, inline as SVG, with a caption and the blocks that give its values as text (site only)."""

    svg: str
    caption: str
    anchor: str
    blocks: tuple[Block, ...] = field(default=())


#: The template name of each block type.
BLOCK_KINDS: dict[type, str] = {Section: "section", Paragraph: "paragraph", Items: "items", Fields: "fields",
                                Table: "table", Figure: "figure"}


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


@pass_context
def inline(context: Any, content: Content) -> Markup:
    """A run of pieces as HTML: every text escaped, line breaks as <br>, links, and each value with its tag.

    Written here rather than as a template macro: pages hold hundreds of thousands of pieces, and a
    macro call costs twenty times this.
    """
    root, urls = context["root"], context["urls"]
    out: list[str] = []
    tagged = [i for i, piece in enumerate(content) if piece.tag is not None]
    for index, piece in enumerate(content):
        inner = _escape(piece.text)
        if "\n" in inner:
            inner = inner.replace("\n", "<br>")
        if piece.style is Style.STRONG:
            inner = f"<strong>{inner}</strong>"
        target = urls.get(piece.link) if piece.link else None
        if target is not None:
            inner = f'<a href="{root}{_escape(target)}">{inner}</a>'
        if piece.tag is not None:
            opening, label = _tag_html(piece.tag)
            exact = f' data-exact="{_escape(piece.exact)}"' if piece.exact else ""
            later = [i for i in tagged if i > index]
            badge = not later or content[later[0]].tag != piece.tag
            inner = f"{opening}{exact}>{inner}</span>{label if badge else ''}"
        elif piece.style is Style.NOTE:
            inner = f'<span class="note">{inner}</span>'
        out.append(inner)
    return Markup("".join(out))


def _escape(text: str) -> str:
    return html.escape(text, quote=True)


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
    env.filters["block_kind"] = lambda block: BLOCK_KINDS[type(block)]
    env.filters["anchor"] = anchor
    env.filters["tag_title"] = tag_title
    env.filters["inline"] = inline
    env.globals["long_table"] = LONG_TABLE
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)
