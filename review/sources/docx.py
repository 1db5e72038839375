"""A word processor's tables: Word ``.docx`` (python-docx) and OpenDocument ``.odt`` (lxml over its content.xml).

Each table of the body, in order, is a grid: Word's ``gridSpan`` and ``vMerge`` (merged cells across columns and
down rows), OpenDocument's ``number-columns-spanned``/``number-rows-spanned`` (their covered cells left out); a cell's
text is its paragraphs' text joined by spaces, a superscript run after a number as superscript digits, bold where
the run printing its number is bold (Word). The header is the rows Word marks to repeat as a header row
(``tblHeader``), else the rows above the first row printing a number. The label and caption: the nearest paragraph
before the table that begins 'Table N', else the first after it.

Not handled: bold set by a paragraph or table style rather than on the run (Word), bold in ``.odt`` (its styles are
not read); text in text boxes or fields' cached results other than plain runs; tables nested in cells (read as the
cell's text); numbering of captions by Word's SEQ fields where the paragraph does not print the number as text.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

from review.sources.html import CAPTION, local
from review.sources.model import Grid, GridCell, raised

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def read_docx(path: Path) -> list[Grid]:
    import docx

    document = docx.Document(str(path))
    body = document.element.body
    blocks: list[tuple[str, Any]] = []
    for child in body.iterchildren():
        tag = local(child.tag)
        if tag == "p":
            blocks.append(("p", _paragraph_text(child)[0]))
        elif tag == "tbl":
            blocks.append(("tbl", child))
    return _labelled(blocks, path.name, _word_grid)


def _labelled(blocks: list[tuple[str, Any]], name: str, reader: Any) -> list[Grid]:
    grids: list[Grid] = []
    for at, (kind, item) in enumerate(blocks):
        if kind != "tbl":
            continue
        before = [t for k, t in blocks[:at] if k == "p" and CAPTION.match(t)]
        previous_table = max((i for i in range(at) if blocks[i][0] == "tbl"), default=-1)
        before = [t for i, (k, t) in enumerate(blocks[:at]) if k == "p" and i > previous_table and CAPTION.match(t)]
        following = next((i for i in range(at + 1, len(blocks)) if blocks[i][0] == "tbl"), len(blocks))
        after = [t for k, t in blocks[at + 1:following] if k == "p" and CAPTION.match(t)]
        text = before[-1] if before else after[0] if after else ""
        hit = CAPTION.match(text)
        label = f"Table {hit.group(2)}" if hit else ""
        caption = " ".join(text[hit.end():].split()) if hit else ""
        rows, heads = reader(item)
        grids.append(Grid(label, caption, rows, heads, where=f"{name}: table {sum(1 for g in grids) + 1}",
                          label_given=bool(label)))
    return grids


def _paragraph_text(paragraph: Any) -> tuple[str, bool]:
    parts: list[str] = []
    bold = False
    for run in paragraph.iter(f"{_W}r"):
        text = "".join(t.text or "" for t in run.iter(f"{_W}t", f"{_W}tab"))
        properties = run.find(f"{_W}rPr")
        superscript = properties is not None and any(
            v.get(f"{_W}val") == "superscript" for v in properties.iter(f"{_W}vertAlign"))
        if superscript:
            text = raised(text)
        if properties is not None and any(b.get(f"{_W}val") not in ("0", "false") for b in
                                          properties.iter(f"{_W}b")) and any(c.isdigit() for c in text):
            bold = True
        parts.append(text)
    return "".join(parts), bold


def _word_grid(table: Any) -> tuple[list[list[GridCell]], int | None]:
    """A Word table's rows: a cell continuing a vertical merge is left out, the cell it continues spanning it."""
    placed: list[list[tuple[int, int, str, bool, str | None]]] = []  # column, span, text, bold, vMerge
    heads = 0
    counting = True
    for tr in table.iterchildren(f"{_W}tr"):
        properties = tr.find(f"{_W}trPr")
        header = properties is not None and properties.find(f"{_W}tblHeader") is not None
        if counting and header:
            heads += 1
        else:
            counting = False
        column = 0
        line = []
        for tc in tr.iterchildren(f"{_W}tc"):
            tc_pr = tc.find(f"{_W}tcPr")
            span = 1
            merge = None
            if tc_pr is not None:
                grid_span = tc_pr.find(f"{_W}gridSpan")
                span = int(grid_span.get(f"{_W}val", "1")) if grid_span is not None else 1
                v_merge = tc_pr.find(f"{_W}vMerge")
                merge = (v_merge.get(f"{_W}val") or "continue") if v_merge is not None else None
            texts = [_paragraph_text(p) for p in tc.iterchildren(f"{_W}p")]
            line.append((column, span, " ".join(" ".join(t for t, _ in texts).split()), any(b for _, b in texts),
                         merge))
            column += span
        placed.append(line)
    rows: list[list[GridCell]] = []
    for r, line in enumerate(placed):
        cells = []
        for column, span, text, bold, merge in line:
            if merge == "continue":
                continue
            down = 1
            if merge == "restart":
                while r + down < len(placed) and any(c == column and m == "continue" for c, _, _, _, m in
                                                     placed[r + down]):
                    down += 1
            cells.append(GridCell(text, bold, span, down))
        rows.append(cells)
    return rows, heads or None


_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"


def read_odt(path: Path) -> list[Grid]:
    from lxml import etree

    with zipfile.ZipFile(path) as archive:
        content = archive.read("content.xml")
    root = etree.fromstring(content, etree.XMLParser(resolve_entities=False, no_network=True))
    text_root = root.find(".//{urn:oasis:names:tc:opendocument:xmlns:office:1.0}text")
    blocks: list[tuple[str, Any]] = []
    for element in (text_root.iter() if text_root is not None else []):
        tag = local(element.tag)
        if tag == "table" and element.tag == f"{{{_TABLE}}}table":
            blocks.append(("tbl", element))
        elif tag in ("p", "h") and element.tag.startswith(f"{{{_TEXT}}}") and not any(
                a.tag == f"{{{_TABLE}}}table" for a in element.iterancestors()):
            blocks.append(("p", " ".join("".join(element.itertext()).split())))
    return _labelled(blocks, path.name, _odt_grid)


def _odt_grid(table: Any) -> tuple[list[list[GridCell]], int | None]:
    rows: list[list[GridCell]] = []
    heads = 0
    for tr in table.iter(f"{{{_TABLE}}}table-row"):
        if any(a.tag == f"{{{_TABLE}}}table" and a is not table for a in tr.iterancestors()
               if a is not table and any(b is table for b in a.iterancestors())):
            continue
        if tr.getparent().tag == f"{{{_TABLE}}}table-header-rows":
            heads += 1
        cells = []
        for tc in tr:
            if tc.tag != f"{{{_TABLE}}}table-cell":
                continue  # a covered cell: the spanning one holds its place
            text = " ".join(" ".join("".join(p.itertext()) for p in tc.iter(f"{{{_TEXT}}}p")).split())
            cells.append(GridCell(text, False, int(tc.get(f"{{{_TABLE}}}number-columns-spanned", "1")),
                                  int(tc.get(f"{{{_TABLE}}}number-rows-spanned", "1"))))
        rows.append(cells)
    return rows, heads or None
