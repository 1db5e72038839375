"""A tagged PDF's own statement of its tables: the structure tree's Table, TR, TH and TD elements, as cell boxes.

Word, LibreOffice (with its tagged export), Chromium's print and many publishers' pipelines write a structure tree
(``/StructTreeRoot``): a Table element holds rows (TR, inside THead/TBody/TFoot or not), each row its cells (TH for
a header cell, TD for a data cell), and each cell its marked content (``/MCID``), the glyphs drawn for it. Where a
page's table is tagged, that tree is the producer's own word on which text is one cell and which cells one row.

Read here with PDFium (``pypdfium2``, the primary extractor already): the tree the page's ``/StructParents`` leads
to, and, for each character of the page's text, the marked content of the text object that draws it, so that each
cell gets the box its glyphs fill. The text itself is not taken from the tree: ``review.tables.tagged`` puts each
extractor's own words into these boxes, so that both extractors still read every cell independently (a producer's
``/ActualText`` or a doubled glyph reads as each extractor reads it).

A cell that draws nothing on the page (an empty cell, or a cell spanned over from the row above) has no box. A tree
that holds no table, or tables that draw nothing, gives none: the page is read from its geometry alone.
"""

from __future__ import annotations

import ctypes
from collections import defaultdict
from dataclasses import dataclass

#: The structure types of a table's parts (ISO 32000-1, 14.8.4.3.4): rows, and the row groups that may hold them.
ROW = "TR"
ROW_GROUPS = frozenset({"THead", "TBody", "TFoot"})
CELLS = frozenset({"TH", "TD"})
#: A tree deeper than this is no document's (a crafted one could loop): read no further.
MAX_DEPTH = 64

Box = tuple[float, float, float, float]
"""x0, top, x1, bottom in points from the page's top-left corner, as ``review.words.Word`` has them."""


@dataclass(frozen=True)
class TaggedCell:
    """One TH or TD element of a row: whether it is a header cell, the box its glyphs fill on the page (None where
    it draws nothing), and the spans its attributes declare (1 where they declare none)."""

    header: bool
    box: Box | None
    column_span: int = 1
    row_span: int = 1


@dataclass(frozen=True)
class TaggedTable:
    """One Table element's rows on one page, top to bottom as the tree orders them, each its cells left to right."""

    rows: tuple[tuple[TaggedCell, ...], ...]

    @property
    def box(self) -> Box:
        boxes = [c.box for row in self.rows for c in row if c.box is not None]
        return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                max(b[3] for b in boxes))


def page_tables(document: object, page: object, textpage: object, height: float) -> tuple[TaggedTable, ...]:
    """The tagged tables of one PDFium page (``pypdfium2`` objects; ``height`` the page's, to turn PDFium's
    bottom-up boxes over). Empty where the page has no structure tree or no table in it."""
    import pypdfium2.raw as raw

    tree = raw.FPDF_StructTree_GetForPage(page.raw)  # type: ignore[attr-defined]
    if not tree:
        return ()
    try:
        elements = [_Element.read(raw, raw.FPDF_StructTree_GetChildAtIndex(tree, i), 0)
                    for i in range(raw.FPDF_StructTree_CountChildren(tree))]
        tables = [t for element in elements if element is not None for t in element.tables()]
        if not tables:
            return ()
        boxes = _marked_boxes(raw, textpage, height)
        read = (_tagged(table, boxes) for table in tables)
        return tuple(t for t in read if t is not None)
    finally:
        raw.FPDF_StructTree_Close(tree)


@dataclass(frozen=True)
class _Element:
    kind: str
    mcids: tuple[int, ...]
    children: tuple[_Element, ...]
    column_span: int
    row_span: int

    @classmethod
    def read(cls, raw: object, handle: object, depth: int) -> _Element | None:
        if not handle or depth > MAX_DEPTH:
            return None
        kind = _text(raw.FPDF_StructElement_GetType, handle)  # type: ignore[attr-defined]
        count = raw.FPDF_StructElement_CountChildren(handle)  # type: ignore[attr-defined]
        mcids = [raw.FPDF_StructElement_GetMarkedContentIdAtIndex(handle, i)  # type: ignore[attr-defined]
                 for i in range(max(0, raw.FPDF_StructElement_GetMarkedContentIdCount(handle)))]  # type: ignore[attr-defined]
        children = []
        for i in range(max(0, count)):
            child = raw.FPDF_StructElement_GetChildAtIndex(handle, i)  # type: ignore[attr-defined]
            if child:
                read = cls.read(raw, child, depth + 1)
                if read is not None:
                    children.append(read)
            else:
                mcid = raw.FPDF_StructElement_GetChildMarkedContentID(handle, i)  # type: ignore[attr-defined]
                if mcid >= 0:
                    mcids.append(mcid)
        spans = (_span(raw, handle, b"ColSpan"), _span(raw, handle, b"RowSpan")) if kind in CELLS else (1, 1)
        return cls(kind, tuple(m for m in dict.fromkeys(mcids) if m >= 0), tuple(children), *spans)

    def tables(self) -> list[_Element]:
        """The innermost Table elements with rows at or under this one (a table set inside another is a layout's
        frame; a Table element without rows, as some pipelines nest one in a table's cell, is none)."""
        inner = [t for child in self.children if child.kind not in ROW_GROUPS | {ROW} for t in child.tables()]
        if inner:
            return inner
        if self.kind == "Table":
            return [self] if self.rows() else []
        return [part for part in self._loose_tables() if part.rows()]

    def _loose_tables(self) -> list[_Element]:
        """The tables whose parts an element holds loose, each an empty Table element (or none) followed by its row
        groups (THead, TBody, TFoot) as siblings, as some pipelines (PDFlib from Arbortext) write them: a new table
        starts at each Table element, and at a THead or TBody after a TBody or TFoot."""
        runs: list[list[_Element]] = []
        previous = ""
        for child in self.children:
            if child.kind not in ROW_GROUPS | {ROW, "Table"}:
                previous = child.kind
                continue
            if (not runs or child.kind == "Table" or previous not in ROW_GROUPS | {ROW, "Table"}
                    or (child.kind in {"THead", "TBody"} and previous in {"TBody", "TFoot"})):
                runs.append([])
            runs[-1].append(child)
            previous = child.kind
        return [_Element("Table", (), tuple(run), 1, 1) for run in runs]

    def rows(self) -> list[_Element]:
        found = []
        for child in self.children:
            if child.kind == ROW:
                found.append(child)
            elif child.kind in ROW_GROUPS:
                found += child.rows()
        return found

    def all_mcids(self) -> list[int]:
        return [*self.mcids, *(m for child in self.children for m in child.all_mcids())]


def _text(function: object, handle: object) -> str:
    size = function(handle, None, 0)  # type: ignore[operator]
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    function(handle, buffer, size)  # type: ignore[operator]
    return buffer.raw[:size - 2].decode("utf-16-le", errors="replace")


def _span(raw: object, handle: object, name: bytes) -> int:
    """A cell's ``/ColSpan`` or ``/RowSpan`` from its attribute objects, 1 where none is given (or it is no
    positive whole number)."""
    for i in range(max(0, raw.FPDF_StructElement_GetAttributeCount(handle))):  # type: ignore[attr-defined]
        attribute = raw.FPDF_StructElement_GetAttributeAtIndex(handle, i)  # type: ignore[attr-defined]
        value = raw.FPDF_StructElement_Attr_GetValue(attribute, name) if attribute else None  # type: ignore[attr-defined]
        number = ctypes.c_float()
        if value and raw.FPDF_StructElement_Attr_GetNumberValue(value, ctypes.byref(number)):  # type: ignore[attr-defined]
            span = number.value
            return int(span) if span >= 1 and span == int(span) and span < 1000 else 1
    return 1


def _marked_boxes(raw: object, textpage: object, height: float) -> dict[int, list[Box]]:
    """The boxes of the page's characters, per marked-content id of the text object drawing them (spaces left
    out: a space carries no ink, and a producer may set one past its cell)."""
    handle = textpage.raw  # type: ignore[attr-defined]
    boxes: dict[int, list[Box]] = defaultdict(list)
    objects: dict[int, int] = {}
    for i in range(textpage.count_chars()):  # type: ignore[attr-defined]
        if raw.FPDFText_GetUnicode(handle, i) in (0x20, 0x0A, 0x0D, 0xFFFE, 0x02):  # type: ignore[attr-defined]
            continue
        drawn = raw.FPDFText_GetTextObject(handle, i)  # type: ignore[attr-defined]
        if not drawn:
            continue
        key = ctypes.cast(drawn, ctypes.c_void_p).value or 0
        mcid = objects.get(key)
        if mcid is None:
            mcid = objects[key] = raw.FPDFPageObj_GetMarkedContentID(drawn)  # type: ignore[attr-defined]
        if mcid < 0:
            continue
        x0, y0, x1, y1 = textpage.get_charbox(i)  # type: ignore[attr-defined]
        boxes[mcid].append((x0, height - y1, x1, height - y0))
    return boxes


def _tagged(table: _Element, boxes: dict[int, list[Box]]) -> TaggedTable | None:
    rows = []
    for row in table.rows():
        cells = tuple(TaggedCell(cell.kind == "TH", _union([b for m in cell.all_mcids() for b in boxes.get(m, ())]),
                                 cell.column_span, cell.row_span)
                      for cell in row.children if cell.kind in CELLS)
        if any(c.box is not None for c in cells):  # a row drawn on another page is that page's
            rows.append(cells)
    return TaggedTable(tuple(rows)) if rows else None


def _union(boxes: list[Box]) -> Box | None:
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
