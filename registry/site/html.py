"""The page structure as HTML: blocks rendered here, pages laid out by Jinja2 templates (autoescaping on).

Like ``registry.page.show`` for the terminal, this module says how each block of the neutral page
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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, pass_context
from markupsafe import Markup, escape

from registry.page.blocks import Block, Content, Fields, Figure, Items, Paragraph, Section, Style, Table, Tag
from registry.site.index import IndexRow
from registry.status.provenance import MEANING


@functools.lru_cache(maxsize=1024)  # a few dozen titles, on every page
def anchor(title: str) -> str:
    """'Sources and history' -> 'sources-and-history': a section's id, stable as long as its title is."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"


#: Tables with more rows than this are folded under their title (a native <details>, no script needed).
LONG_TABLE = 12


def tag_title(tag: Tag) -> str:
    """What backs a value, for its hover text: 'estimated by us · hardware: ... · commit: ...'."""
    return " · ".join([tag.label, *(f"{name}: {value}" for name, value in tag.details)])


@functools.lru_cache(maxsize=4096)
def _tag_html(tag: Tag) -> tuple[str, str, str]:
    """The opening of a tagged value's element (without its exact value), the label that follows it, and the
    provenance as a class name."""
    kind = _escape(tag.provenance.value)
    return (f'<span class="v v-{kind}" data-provenance="{kind}" title="{_escape(tag_title(tag))}"',
            f' <span class="tag tag-{kind}">{_escape(tag.label)}</span>', kind)


@dataclass(frozen=True)
class Links:
    """Where links point from one page: the path back to the site's root, and each record id's page.

    ``notes``, where given, gathers the tags of the page's values: each tag's label then links to
    its entry in 'What backs these values' (``backing_section``), which a keyboard or a finger
    reaches as well as a mouse reaches the hover text.
    """

    root: str
    urls: dict[str, str]
    notes: dict[Tag, int] | None = None


BACKING_TITLE = "What backs these values"


def backing_section(links: Links) -> Markup:
    """The page's tags, each with what it means and what backs it (reviews, hardware, commits), as a section; each
    entry is numbered, as the labels that link to it say ('note 2': two entries can have one label)."""
    if not links.notes:
        return Markup("")
    entries = []
    for tag, number in sorted(links.notes.items(), key=lambda item: item[1]):
        backing = "".join(f"<li>{_escape(name)}: {_escape(value)}</li>" for name, value in tag.details)
        entries.append(f'<div id="backing-{number}"><dt><span class="tag tag-{_escape(tag.provenance.value)}">'
                       f'{_escape(tag.label)}</span> <span class="note">note {number}</span></dt>'
                       f"<dd>{_escape(MEANING[tag.provenance])}"
                       + (f"<ul>{backing}</ul>" if backing else "") + "</dd></div>\n")
    return Markup(f'<section id="{anchor(BACKING_TITLE)}">\n<h2>{BACKING_TITLE}</h2>\n'
                  f'<dl class="fields backing">\n{"".join(entries)}</dl>\n</section>\n')


@pass_context
def inline_filter(context: Any, content: Content) -> Markup:
    """The 'inline' filter of the templates: a run of pieces as HTML."""
    return Markup(inline(content, Links(context["root"], context["urls"])))


def inline(content: Content, links: Links) -> str:
    """A run of pieces as HTML: every text escaped, line breaks as <br>, links, and each value with its tag.

    The tag's label follows a value once per run of values with the same tag: '11.45 GB' and
    '10.67 GiB' of one run, a line apart, carry one 'estimated by us', not two.
    """
    if len(content) == 1:  # most runs are one piece of plain text (a field's value, a table's cell)
        only = content[0]
        if only.tag is None and only.link is None and only.url is None and only.style is _PLAIN:
            text = _escape(only.text)
            return text.replace("\n", "<br>") if "\n" in text else text
    root, urls, notes = links.root, links.urls, links.notes
    out: list[str] = []
    next_tag: Tag | None = None  # the tag of the next tagged piece, walking backwards
    for piece in reversed(content):
        inner = _escape(piece.text)
        if "\n" in inner:
            inner = inner.replace("\n", "<br>")
        style = piece.style
        if style is _STRONG:
            inner = f"<strong>{inner}</strong>"
        if piece.hidden is not None:
            inner = f"{inner}{hidden_words(piece.hidden)}"
        if piece.link is not None and piece.link in urls:
            inner = f'<a href="{root}{_escape(urls[piece.link])}">{inner}</a>'
        elif piece.url is not None:
            inner = f'<a href="{_escape(piece.url)}" rel="noopener">{inner}</a>'
        tag = piece.tag
        if tag is not None:
            opening, label, kind = _tag_html(tag)
            if notes is not None:  # the label links to what backs the value
                number = notes.setdefault(tag, len(notes) + 1)
                label = (f' <a class="tag tag-{kind}" href="#backing-{number}">{_escape(tag.label)}'
                         f'{hidden_words(f": what backs it, note {number}")}</a>')
            exact = f' data-exact="{_escape(piece.exact)}"' if piece.exact else ""
            same = next_tag is tag or next_tag == tag  # one label per run of values with the same tag
            inner = f"{opening}{exact}>{inner}</span>{'' if same else label}"
            next_tag = tag
        elif style is _NOTE:
            inner = f'<span class="note">{inner}</span>'
        out.append(inner)
    return "".join(reversed(out))


_STRONG, _NOTE, _PLAIN = Style.STRONG, Style.NOTE, Style.PLAIN


def hidden_words(text: str) -> str:
    """Words a screen reader reads and a screen does not show (``.vh`` in ``site.css``): the rest of a short link's
    name, so that what the link opens is in its name while the text shown stays short."""
    return f'<span class="vh">{_escape(text)}</span>'


def render_blocks(blocks: tuple[Block, ...], links: Links, level: int = 2) -> Markup:
    """Blocks as HTML; sections nest their headings from ``level`` (h2 under the page's h1)."""
    return Markup("".join(_block(block, links, level) for block in blocks))


def _block(block: Block, links: Links, level: int) -> str:
    """The block as HTML, by its type (a table lookup: called about 40 times per page)."""
    try:
        render_one = _RENDERERS[type(block)]
    except KeyError:
        raise TypeError(f"no HTML rendering for {type(block).__name__}") from None
    return render_one(block, links, level)


def _section(block: Section, links: Links, level: int) -> str:
    inner = "".join(_block(b, links, level + 1) for b in block.blocks)
    return (f'<section id="{anchor(block.title)}">\n<h{level}>{_escape(block.title)}</h{level}>\n'
            f"{inner}</section>\n")


def _paragraph(block: Paragraph, links: Links, level: int) -> str:
    if block.style is Style.CODE:  # its lines as they are, to copy
        return f'<pre class="code"><code>{_escape("".join(p.text for p in block.content))}</code></pre>\n'
    css = ' class="note"' if block.style is Style.NOTE else ""
    inner = inline(block.content, links)
    if block.style is Style.STRONG:
        inner = f"<strong>{inner}</strong>"
    return f"<p{css}>{inner}</p>\n"


def _items(block: Items, links: Links, level: int) -> str:
    return "<ul>\n" + "".join(f"<li>{inline(item, links)}</li>\n" for item in block.items) + "</ul>\n"


def _fields(block: Fields, links: Links, level: int) -> str:
    rows = "".join(f"<div><dt>{_escape(label)}</dt><dd>{inline(value, links)}</dd></div>\n"
                   for label, value in block.rows)
    return f'<dl class="fields">\n{rows}</dl>\n'


def _table(block: Table, links: Links, level: int) -> str:
    """A table with its title as caption; one of more than ``LONG_TABLE`` rows is folded under its title."""
    labels = [f' data-label="{_escape(column.header)}"' + (' class="num"' if column.right else "")
              for column in block.columns]  # a phone shows each row as a card, each cell under its header
    head = "".join(f'<th scope="col">{_escape(column.header)}</th>' for column in block.columns)
    body = "".join("<tr>" + "".join(f"<td{labels[i]}>{inline(cell, links)}</td>" for i, cell in enumerate(row))
                   + "</tr>\n" for row in block.rows)
    caption = f"<caption>{_escape(block.title)}</caption>\n" if block.title else ""
    note = f'<p class="table-note">{_escape(block.caption)}</p>\n' if block.caption else ""
    table = (f"<table class=\"cards\">\n{caption}<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody>\n</table>\n"
             f"{note}")
    if len(block.rows) > LONG_TABLE:
        summary = _escape(f"{block.title or 'Table'} ({len(block.rows)} rows)")
        table = f"<details><summary>{summary}</summary>\n{table}</details>\n"
    return f'{_filter(block.filter)}<div class="table-wrap">\n{table}</div>\n'


def _filter(noun: str | None) -> str:
    """The box that narrows the table after it (``site.js``), disabled until the script runs."""
    if noun is None:
        return ""
    noun = _escape(noun)
    return (f'<form class="table-filter" role="search" aria-label="Filter {noun}"><p><label>Filter {noun} '
            f'<input type="search" disabled></label> <span class="applied" aria-live="polite">Applied filters: '
            f"All linked {noun}</span></p></form>\n")


def _figure(block: Figure, links: Links, level: int) -> str:
    """A plot and its values; rendered once per build and shared by the pages that show it (every result of a
    protocol shows the protocol's plot), so its values' labels keep their hover text but add no page notes."""
    key = (id(block), links.root, level)
    if _FIGURES.get(key, (None, ""))[0] is not block:
        shared = Links(links.root, links.urls)
        inner = "".join(_block(b, shared, level) for b in block.blocks)
        _FIGURES[key] = (block, f'<figure class="plot" id="{_escape(block.anchor)}">\n{block.svg}'
                                f'<figcaption id="plot-title">{_escape(block.caption)}</figcaption>\n</figure>\n'
                                f"{inner}")
    return _FIGURES[key][1]


#: How each kind of block is written.
_RENDERERS: dict[type, Callable[[Any, Links, int], str]] = {
    Section: _section, Paragraph: _paragraph, Items: _items, Fields: _fields, Table: _table, Figure: _figure}

#: Each figure's HTML by (figure, root, heading level), with the figure itself, so a new figure that reuses a
#: freed one's id is never mistaken for it.
_FIGURES: dict[tuple[int, str, int], tuple[Figure, str]] = {}


def index_rows_html(rows: list[IndexRow], headers: tuple[str, ...], links: Links) -> Markup:
    """The index's rows: each with its facet values and search text as data attributes, each cell with its
    column's header (the label a phone shows beside it) and its sort key. In Python, as blocks are: a
    template loop over 10,000 rows of nine cells costs seconds."""
    out = []
    labels = [_escape(header) for header in headers]
    for row in rows:
        data = "".join(f' data-{key}="{_escape(value)}"' for key, value in row.facets)
        cells = "".join(f'<td data-label="{label}" data-sort="{_escape(key)}">{inline(cell, links)}</td>'
                        for label, key, cell in zip(labels, row.sort, row.cells, strict=True))
        out.append(f'<tr{data} data-search="{_escape(row.search)}">{cells}</tr>\n')
    return Markup("".join(out))


def _escape(text: str) -> str:
    """``html.escape`` (quotes too), skipped for the many texts that hold nothing to escape (five scans in C
    cost less than one regular-expression search)."""
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
        return html.escape(text, quote=True)
    return text


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


class Frame:
    """A template rendered once, with a slot for each value that changes from page to page.

    A site of 10,000 results renders the record template 30,000 times with the same constants (the
    site's name, the release, the path to the root): here it is rendered once with a marker in
    each slot, and a page is the template's text between the markers joined with its own values,
    escaped as the engine escapes them (``markupsafe.escape``; ``Markup`` goes in as it is). The
    slots must be printed as they are (``{{ name }}``, no filter, test or attribute on them), which
    the constructor checks: a slot used otherwise would lose its marker.
    """

    def __init__(self, template: str, slots: tuple[str, ...], **constants: Any) -> None:
        marker = {name: f"\x00{index}\x00" for index, name in enumerate(slots)}
        text = render(template, **constants, **marker)
        parts = re.split("\x00([0-9]+)\x00", text)
        self.texts = parts[0::2]
        self.order = tuple(slots[int(index)] for index in parts[1::2])
        if not set(slots) <= set(self.order):
            raise ValueError(f"{template}: a slot is not printed as it is: {sorted(set(slots) - set(self.order))}")

    def fill(self, **values: Any) -> str:
        escaped = {name: str(escape(value)) for name, value in values.items()}
        out = [self.texts[0]]
        for name, text in zip(self.order, self.texts[1:], strict=True):
            out += (escaped[name], text)
        return "".join(out)
