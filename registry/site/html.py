"""The page structure as HTML, through Jinja2 templates with autoescaping on.

Every text that came from a record is escaped by the template engine; only the plot's SVG,
which matplotlib made from numbers and escaped names, is inserted as markup.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from registry.page.blocks import Block, Content, Fields, Items, Paragraph, Piece, Section, Table, Tag


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


def badged(content: Content) -> list[tuple[Piece, bool]]:
    """Each piece, and whether its tag's label follows it: once after a run of values with the same tag.

    '11.45 GB' and '10.67 GiB' of one run, a line apart, carry one 'estimated by us', not two.
    """
    tagged = [i for i, piece in enumerate(content) if piece.tag is not None]
    last = {i for n, i in enumerate(tagged) if n + 1 == len(tagged) or content[tagged[n + 1]].tag != content[i].tag}
    return [(piece, i in last) for i, piece in enumerate(content)]


def tag_title(tag: Tag) -> str:
    """What backs a value, for its hover text: 'estimated by us · hardware: ... · commit: ...'."""
    return " · ".join([tag.label, *(f"{name}: {value}" for name, value in tag.details)])


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
    env.filters["badged"] = badged
    env.globals["long_table"] = LONG_TABLE
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)
