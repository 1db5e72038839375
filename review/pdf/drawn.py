"""A table's grid as its producer draws it: the rules on the page, and the cells they enclose.

Word and LibreOffice tables with borders, IEEE's Word templates, publishers' fully ruled tables and Typst's boxed
tables draw every cell's edges. The page then states the grid itself: a cell is the rectangle between two
consecutive horizontal rules and two consecutive vertical rules, and a rule missing between two such rectangles
merges them (a header spanning two columns, a row label spanning two rows).

Read here with PDFium (``pypdfium2``, the primary extractor already) from the page's path objects, inside form
XObjects too: a stroked path's straight, axis-aligned segments, and a filled path whose box is no wider than
``THIN`` (Word draws each border as a thin filled rectangle). Rules that meet form one drawing; a drawing with at
least three horizontal and three vertical rule positions (two rows by two columns) is a grid, given as
``review.pdf.structtree.TaggedTable`` (its cells' boxes the rectangles, no cell a header), so that
``review.tables.tagged`` fills it with each extractor's words exactly as it fills a structure tree's table.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

from review.pdf.structtree import TaggedCell, TaggedTable

#: Points: a filled path no thicker than this is a rule (Word draws a border as a filled rectangle 0.5 pt thick).
THIN = 2.0
#: Points: a segment shorter than this is no rule (a glyph's stroke, a tick).
SHORTEST = 4.0
#: Points: rule positions within this of each other are one (a border drawn twice, two strokes' half-widths).
SAME = 1.5
#: Points: rules whose ends come within this of each other meet.
TOUCH = 2.0
#: Form XObjects nested deeper than this are not read (a crafted file could nest them without end).
MAX_DEPTH = 8

_Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: _Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Rule:
    """One drawn rule, in points from the page's top-left corner: horizontal (``at`` its y, from ``start`` to
    ``end`` across) or vertical (``at`` its x, from ``start`` to ``end`` down the page)."""

    horizontal: bool
    at: float
    start: float
    end: float


def page_grids(page: object, height: float) -> tuple[TaggedTable, ...]:
    """The ruled grids of one PDFium page (``height`` the page's, to turn PDFium's bottom-up points over), top to
    bottom; empty where the page draws none."""
    import pypdfium2.raw as raw

    rules: list[Rule] = []
    handle = page.raw  # type: ignore[attr-defined]
    for i in range(raw.FPDFPage_CountObjects(handle)):
        _collect(raw, raw.FPDFPage_GetObject(handle, i), _IDENTITY, height, rules, 0)
    grids = (_grid(drawing) for drawing in _drawings(_merged(rules)))
    return tuple(sorted((g for g in grids if g is not None), key=lambda t: t.box[1]))


def _collect(raw: object, obj: object, outer: _Matrix, height: float, rules: list[Rule], depth: int) -> None:
    kind = raw.FPDFPageObj_GetType(obj)  # type: ignore[attr-defined]
    matrix = _compose(_matrix(raw, obj), outer)
    if kind == raw.FPDF_PAGEOBJ_FORM and depth < MAX_DEPTH:  # type: ignore[attr-defined]
        for i in range(raw.FPDFFormObj_CountObjects(obj)):  # type: ignore[attr-defined]
            _collect(raw, raw.FPDFFormObj_GetObject(obj, i), matrix, height, rules, depth + 1)  # type: ignore[attr-defined]
    elif kind == raw.FPDF_PAGEOBJ_PATH:  # type: ignore[attr-defined]
        rules.extend(_path_rules(raw, obj, matrix, height))


def _matrix(raw: object, obj: object) -> _Matrix:
    found = raw.FS_MATRIX()  # type: ignore[attr-defined]
    if not raw.FPDFPageObj_GetMatrix(obj, ctypes.byref(found)):  # type: ignore[attr-defined]
        return _IDENTITY
    return (found.a, found.b, found.c, found.d, found.e, found.f)


def _compose(inner: _Matrix, outer: _Matrix) -> _Matrix:
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _path_rules(raw: object, obj: object, matrix: _Matrix, height: float) -> list[Rule]:
    """A path's rules: where it is filled and thin, the one rule along its box; where it is stroked, its straight
    axis-aligned segments (a rectangle's four edges)."""
    fill, stroke = ctypes.c_int(), ctypes.c_int()
    if not raw.FPDFPath_GetDrawMode(obj, ctypes.byref(fill), ctypes.byref(stroke)):  # type: ignore[attr-defined]
        return []
    points = _points(raw, obj, matrix, height)
    if not points:
        return []
    found = []
    if fill.value:
        xs, ys = [x for _, x, _ in points], [y for _, _, y in points]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        if y1 - y0 <= THIN and x1 - x0 >= SHORTEST:
            found.append(Rule(True, (y0 + y1) / 2, x0, x1))
        elif x1 - x0 <= THIN and y1 - y0 >= SHORTEST:
            found.append(Rule(False, (x0 + x1) / 2, y0, y1))
    if stroke.value and not found:
        for (kind, x, y), (_, px, py) in zip(points[1:], points[:-1], strict=True):
            if kind != raw.FPDF_SEGMENT_LINETO:  # type: ignore[attr-defined]
                continue
            if abs(y - py) < 0.5 and abs(x - px) >= SHORTEST:
                found.append(Rule(True, y, min(x, px), max(x, px)))
            elif abs(x - px) < 0.5 and abs(y - py) >= SHORTEST:
                found.append(Rule(False, x, min(y, py), max(y, py)))
    return found


def _points(raw: object, obj: object, matrix: _Matrix, height: float) -> list[tuple[int, float, float]]:
    """The path's points on the page, each with its segment's kind; a closed subpath returns to its start
    (as a line), so that a stroked rectangle gives its fourth edge."""
    a, b, c, d, e, f = matrix
    found: list[tuple[int, float, float]] = []
    start: tuple[float, float] | None = None
    x, y = ctypes.c_float(), ctypes.c_float()
    for i in range(raw.FPDFPath_CountSegments(obj)):  # type: ignore[attr-defined]
        segment = raw.FPDFPath_GetPathSegment(obj, i)  # type: ignore[attr-defined]
        if not raw.FPDFPathSegment_GetPoint(segment, ctypes.byref(x), ctypes.byref(y)):  # type: ignore[attr-defined]
            continue
        kind = raw.FPDFPathSegment_GetType(segment)  # type: ignore[attr-defined]
        px, py = a * x.value + c * y.value + e, b * x.value + d * y.value + f
        point = (px, height - py)
        if kind == raw.FPDF_SEGMENT_MOVETO:  # type: ignore[attr-defined]
            start = point
        found.append((kind, *point))
        if raw.FPDFPathSegment_GetClose(segment) and start is not None:  # type: ignore[attr-defined]
            found.append((raw.FPDF_SEGMENT_LINETO, *start))  # type: ignore[attr-defined]
    return found


def _merged(rules: list[Rule]) -> list[Rule]:
    """Collinear rules that overlap or touch joined into one (a border drawn cell by cell)."""
    merged: list[Rule] = []
    for rule in sorted(rules, key=lambda r: (r.horizontal, round(r.at), r.start)):
        last = merged[-1] if merged else None
        if (last is not None and last.horizontal == rule.horizontal and abs(last.at - rule.at) <= SAME
                and rule.start <= last.end + TOUCH):
            merged[-1] = Rule(last.horizontal, last.at, last.start, max(last.end, rule.end))
        else:
            merged.append(rule)
    return merged


def _meet(h: Rule, v: Rule) -> bool:
    return (h.start - TOUCH <= v.at <= h.end + TOUCH) and (v.start - TOUCH <= h.at <= v.end + TOUCH)


def _drawings(rules: list[Rule]) -> list[list[Rule]]:
    """The rules in groups that meet one another (a horizontal rule meets a vertical one it crosses or touches)."""
    parent = list(range(len(rules)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, h in enumerate(rules):
        if not h.horizontal:
            continue
        for j, v in enumerate(rules):
            if not v.horizontal and _meet(h, v):
                parent[root(i)] = root(j)
    groups: dict[int, list[Rule]] = {}
    for i, rule in enumerate(rules):
        groups.setdefault(root(i), []).append(rule)
    return list(groups.values())


def _positions(values: list[float]) -> list[float]:
    found: list[float] = []
    for value in sorted(values):
        if not found or value - found[-1] > SAME:
            found.append(value)
    return found


def _drawn(rules: list[Rule], at: float, start: float, end: float) -> bool:
    """Whether one of ``rules`` runs at ``at`` across the middle of ``start`` to ``end``."""
    middle = (start + end) / 2
    return any(abs(r.at - at) <= SAME and r.start - TOUCH <= middle <= r.end + TOUCH for r in rules)


def _grid(drawing: list[Rule]) -> TaggedTable | None:
    """The cells a drawing's rules enclose, row by row; None where it is no grid of two rows by two columns, or
    no row has a cell in every column."""
    across = [r for r in drawing if r.horizontal]
    down = [r for r in drawing if not r.horizontal]
    ys, xs = _positions([r.at for r in across]), _positions([r.at for r in down])
    if len(ys) < 3 or len(xs) < 3:
        return None
    width, height = len(xs) - 1, len(ys) - 1
    covered: set[tuple[int, int]] = set()
    rows: list[tuple[TaggedCell, ...]] = []
    for r in range(height):
        cells = []
        for k in range(width):
            if (r, k) in covered:
                continue
            last_k = k
            while last_k + 1 < width and not _drawn(down, xs[last_k + 1], ys[r], ys[r + 1]):
                last_k += 1
            last_r = r
            while last_r + 1 < height and not _drawn(across, ys[last_r + 1], xs[k], xs[last_k + 1]):
                last_r += 1
            covered.update((rr, kk) for rr in range(r, last_r + 1) for kk in range(k, last_k + 1))
            cells.append(TaggedCell(False, (xs[k], ys[r], xs[last_k + 1], ys[last_r + 1]), last_k - k + 1,
                                    last_r - r + 1))
        if cells:
            rows.append(tuple(cells))
    if not any(len(row) == width for row in rows):
        return None
    return TaggedTable(tuple(rows))
