"""A JATS XML article's tables (PubMed Central, PLOS, eLife), read with lxml.

Each ``<table-wrap>`` is a table: its ``<label>`` ('Table 2') and ``<caption>`` (its ``<title>`` and paragraphs),
and each ``<table>`` inside it a grid in the XHTML table model JATS uses (``<thead>``/``<tbody>``, ``<th>``/``<td>``
with ``rowspan``/``colspan``); a cell's ``<sup>`` after a number is a superscript ('10<sup>-4</sup>' is '10⁻⁴'),
``<bold>`` sets it bold (``review.sources.html.cell_text``). Namespaced and plain JATS alike.

Not handled: OASIS CALS tables (``<tgroup>``/``<entry>``, used by some publishers in place of the XHTML model);
tables given only as an image (``<graphic>`` in the ``<table-wrap>``); ``<table-wrap-group>`` labels shared by
several wraps (each wrap is read with its own label, where it has one).
"""

from __future__ import annotations

from pathlib import Path

from review.sources.html import CAPTION, grid_of, local
from review.sources.model import Grid


def read_jats(path: Path) -> list[Grid]:
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    root = etree.parse(str(path), parser).getroot()
    grids: list[Grid] = []
    for wrap in root.iter():
        if local(wrap.tag) != "table-wrap":
            continue
        label_element = next((e for e in wrap if local(e.tag) == "label"), None)
        caption_element = next((e for e in wrap if local(e.tag) == "caption"), None)
        label = " ".join("".join(label_element.itertext()).split()) if label_element is not None else ""
        caption = " ".join("".join(caption_element.itertext()).split()) if caption_element is not None else ""
        hit = CAPTION.match(label + " ")
        label = f"Table {hit.group(2)}" if hit else label
        for table in wrap.iter():
            if local(table.tag) == "table":
                grids.append(grid_of(table, label, caption, f"{path.name}:{table.sourceline or 0}"))
    return grids
