"""An HTML document's tables (Manubot, pandoc, journals' HTML), read with lxml's HTML parser.

Each ``<table>`` (not one inside another's cell) is a grid: its ``<tr>`` rows, ``<th>``/``<td>`` cells with their
``rowspan``/``colspan``; its header is ``<thead>``'s rows, else its leading rows of ``<th>`` cells only. A cell's text
is what it prints: ``<sup>2</sup>`` after a number as '²' (so that '10<sup>-4</sup>' is '10⁻⁴'), ``<br>`` as a space,
bold where its number is inside ``<b>``/``<strong>`` or a ``font-weight: bold`` style.

Its label and caption: its own ``<caption>`` where it begins 'Table N'; else the nearest text before it that begins
so (a paragraph, a ``<figcaption>``, a ``<span>`` as Manubot writes 'Table 1:'), while no other table comes between;
else the nearest such text after it (a caption set below). A heading (``<h4>``-``<h6>``) or a bold line between the
caption and the table titles the rows under it: it is their group, the outermost level of their names.

Not handled: tables drawn with ``<div>`` grids or images; CSS that hides or reorders cells; cells filled by
scripts; captions that do not begin with 'Table'/'Tab.'.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from review.sources.model import Grid, GridCell, raised

CAPTION = re.compile(r"^\s*(TABLE|Table|Tab\.)\s*([A-Z]?\d+(?:\.\d+)?|[IVXLC]+)\s*[:.\-\u2013\u2014|]?\s*")
_BOLD_TAGS = frozenset({"b", "strong", "bold"})
_TITLES = frozenset({"h4", "h5", "h6"})


def local(tag: object) -> str:
    """An element's tag without its namespace ('{http://...}td' is 'td'); '' for comments."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def read_html(path: Path) -> list[Grid]:
    import lxml.html

    root = lxml.html.fromstring(path.read_bytes())
    return grids_in(root, path.name)


def cell_text(element: Any, bold: bool = False) -> tuple[str, bool]:
    """What a cell prints, and whether its number is bold."""
    parts: list[str] = []
    is_bold = [False]

    def visit(node: Any, bold_here: bool) -> None:
        tag = local(node.tag)
        if tag in ("script", "style"):
            return
        bold_here = bold_here or tag in _BOLD_TAGS or "bold" in (node.get("style") or "").replace(" ", "")
        if tag == "br":
            parts.append(" ")
        text = node.text or ""
        if tag == "sup":
            inner = "".join(node.itertext())
            parts.append(raised(inner))
            if bold_here and any(c.isdigit() for c in inner):
                is_bold[0] = True
        else:
            parts.append(text)
            if bold_here and any(c.isdigit() for c in text):
                is_bold[0] = True
            for child in node:
                visit(child, bold_here)
        if node.tail and node is not element:
            parts.append(node.tail)
            # the tail is outside the bold element
    visit(element, bold)
    return " ".join("".join(parts).split()), is_bold[0]


def grid_of(table: Any, label: str, caption: str, where: str, group: str = "") -> Grid:
    """One table element (HTML, or JATS's XHTML table model) as a grid."""
    rows: list[list[GridCell]] = []
    head_rows = 0
    saw_body = False
    for tr in table.iter():
        if local(tr.tag) != "tr" or _nested(tr, table):
            continue
        cells = []
        for td in tr:
            tag = local(td.tag)
            if tag not in ("td", "th"):
                continue
            text, bold = cell_text(td)
            cells.append(GridCell(text, bold, _span(td.get("colspan")), _span(td.get("rowspan")), tag == "th"))
        in_head = local(tr.getparent().tag) == "thead"
        if in_head and not saw_body:
            head_rows += 1
        else:
            saw_body = True
        rows.append(cells)
    if head_rows == 0:
        while head_rows < len(rows) - 1 and rows[head_rows] and all(c.header for c in rows[head_rows]):
            head_rows += 1
    return Grid(label, caption, rows, head_rows or None, where=where, label_given=bool(label), group=group)


def _nested(tr: Any, table: Any) -> bool:
    parent = tr.getparent()
    while parent is not None and parent is not table:
        if local(parent.tag) == "table":
            return True
        parent = parent.getparent()
    return False


def _span(value: str | None) -> int:
    try:
        return max(int(value or 1), 1)
    except ValueError:
        return 1


def grids_in(root: Any, name: str) -> list[Grid]:
    """Every outermost table of the document, labelled by its caption (module docstring)."""
    order = [e for e in root.iter() if isinstance(e.tag, str)]
    tables = [e for e in order if local(e.tag) == "table" and not any(local(a.tag) == "table" for a in
                                                                            e.iterancestors())]
    position = {id(e): i for i, e in enumerate(order)}
    captions = [(i, e) for i, e in enumerate(order) if local(e.tag) in ("p", "figcaption", "caption", "span", "div",
                                                                        "strong", "b")
                and CAPTION.match(_own_text(e)) and not _inside_table(e)]
    captions = [(i, e) for i, e in captions if not any(a is c for _, c in captions for a in e.iterancestors())]
    grids: list[Grid] = []
    starts = [position[id(t)] for t in tables]
    for k, table in enumerate(tables):
        at = starts[k]
        own = next((e for e in table if local(e.tag) == "caption"), None)
        found = None
        if own is not None and CAPTION.match(_own_text(own)):
            found = (at, own)
        else:
            previous = starts[k - 1] if k else -1
            before = [(i, e) for i, e in captions if previous < i < at]
            after = [(i, e) for i, e in captions if at < i < (starts[k + 1] if k + 1 < len(starts) else len(order))]
            title = _title_between(order, previous, at) if k else ""
            if not before and title and grids and grids[-1].label:  # titled tables under one caption
                grids.append(grid_of(table, grids[-1].label, grids[-1].caption, f"{name}:{table.sourceline or 0}",
                                     title))
                continue
            found = before[-1] if before else after[0] if after else None
        label, caption = ("", "")
        group = ""
        if found is not None:
            text = " ".join(_own_text(found[1]).split())
            hit = CAPTION.match(text)
            label = f"Table {hit.group(2)}" if hit else ""
            caption = text[hit.end():] if hit else text
            group = _title_between(order, found[0], at)
        line = table.sourceline or 0
        grids.append(grid_of(table, label, caption, f"{name}:{line}", group))
    return grids


def _title_between(order: list[Any], start: int, end: int) -> str:
    titles = [e for e in order[start + 1:end] if local(e.tag) in _TITLES]
    return " ".join("".join(titles[-1].itertext()).split()) if titles else ""


def _own_text(element: Any) -> str:
    return "".join(element.itertext())


def _inside_table(element: Any) -> bool:
    return any(local(a.tag) in ("td", "th") for a in element.iterancestors())
