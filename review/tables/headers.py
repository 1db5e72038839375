"""A table's column headers: header words clustered, bottom-level clusters split at the body's gutters, rotated
headers read as stacks, and each cluster above the bottom level spanning the headers it overlaps or is centred over
(``_spanned``); the columns fitted to the gutters between the body's numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from review.pdf.words import Line, Word
from review.tables.cell import is_value
from review.tables.lines import CELL_GAP, LABEL_GAP, _clusters, _merged, _text, joined_lines
from review.tables.table import Column


def _rotated_stacks(words: list[Word]) -> list[list[list[Word]]]:
    """Rotated words as header cells: words side by side (within ``CELL_GAP``) form one cell, read line by line
    (left to right), each line from its bottom up."""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: w.x0):
        if lines and word.x0 < max(w.x1 for w in lines[-1]) - 1:
            lines[-1].append(word)
        else:
            lines.append([word])
    widths = sorted(max(w.x1 for w in line) - min(w.x0 for w in line) for line in lines)
    # A rotated header's lines are a line pitch apart: their gap is under a line's own width, a column gap is not.
    joins = max(CELL_GAP, 0.8 * widths[len(widths) // 2]) if widths else CELL_GAP
    stacks: list[list[list[Word]]] = []
    for line in lines:
        line.sort(key=lambda w: -w.bottom)
        if stacks and min(w.x0 for w in line) - max(w.x1 for w in stacks[-1][-1]) <= joins:
            stacks[-1].append(line)
        else:
            stacks.append([line])
    return stacks


@dataclass
class _Piece:
    text: str
    x0: float
    x1: float
    line: int
    words: tuple[Word, ...] = ()

    @property
    def centre(self) -> float:
        return (self.x0 + self.x1) / 2


def _columns(header: list[Line], rotated: list[Word], left_edge: float, body: list[Line] | None = None
             ) -> tuple[list[Column], Column | None]:
    """A header's columns, each named by its levels outermost first, and the stub (the column over the row labels)
    where the first bottom-level header is set at the rows' left edge."""
    pieces = _header_pieces(header, body)
    bottoms = _bottom_pieces(pieces, header, rotated)
    uppers = [p for p in pieces if not any(p is b for b in bottoms)]
    stub_first = bool(bottoms) and bottoms[0].x0 <= left_edge + 3
    return _placed(_named_columns(bottoms, uppers, stub_first), left_edge)


def _header_pieces(header: list[Line], body: list[Line] | None) -> list[_Piece]:
    """The header's clusters of words, split at the body's gutters and joined where one column's header is set
    in pieces."""
    pieces: list[_Piece] = []
    for index, line in enumerate(header):
        pieces += [_Piece(_text(c), c[0].x0, max(w.x1 for w in c), index, tuple(c)) for c in _clusters(line)]
    pieces = _spanning_pieces(pieces)
    if body:
        pieces = _split_at_gutters(pieces, _body_columns(body))
        pieces = _joined_over_one_column(pieces, _merged([[w.x0, w.x1] for line in body for w in line.words
                                                          if is_value(w)]))
    return pieces


def _bottom_pieces(pieces: list[_Piece], header: list[Line], rotated: list[Word]) -> list[_Piece]:
    """The bottom-level headers, left to right: the pieces nothing is printed under, and each stack of rotated
    words."""
    bottom: list[tuple[_Piece, list[str]]] = []
    for piece in pieces:
        below = [p for p in pieces if p.line > piece.line and p.x0 < piece.x1 and p.x1 > piece.x0]
        if not below and not any(w.x0 < piece.x1 and w.x1 > piece.x0 and w.top >= header[piece.line].bottom - 1
                                 for w in rotated):
            bottom.append((piece, [piece.text]))
    for stack in _rotated_stacks(rotated):
        words = [w for line in stack for w in line]
        text = " ".join(_text(line) for line in stack)
        stack_piece = _Piece(text, min(w.x0 for w in words), max(w.x1 for w in words), len(header))
        bottom.append((stack_piece, [text]))
    bottom.sort(key=lambda b: b[0].x0)
    return [b[0] for b in bottom]


def _named_columns(bottoms: list[_Piece], uppers: list[_Piece], stub_first: bool
                   ) -> list[tuple[_Piece, tuple[str, ...]]]:
    """Each bottom-level header with its levels: the headers above that span it, a header over one column joined to
    the line under it, one over several a level of its own."""
    spanned: dict[int, set[int]] = {}
    for upper in sorted(uppers, key=lambda u: -u.line):  # lower levels first: a level above spans whole ones
        lower = [spanned[id(o)] for o in uppers if o.line > upper.line and id(o) in spanned]
        spanned[id(upper)] = _spanned(upper, bottoms, [o for o in uppers if o.line == upper.line and o is not upper],
                                      stub_first, lower)
    tiled: set[int] = set()  # headers set flush left over their groups: each a level of its own
    for level in {u.line for u in uppers}:
        groups = _tiled(sorted((u for u in uppers if u.line == level), key=lambda u: u.x0), bottoms, stub_first)
        spanned.update(groups)
        tiled.update(groups)
    named: list[tuple[_Piece, tuple[str, ...]]] = []
    for i, piece in enumerate(bottoms):
        levels: list[str] = [piece.text]
        above = [u for u in uppers if u.line < piece.line and i in spanned[id(u)]]
        last: set[int] = {i}
        for upper in sorted(above, key=lambda p: -p.line):
            grouping = any(len(spanned[id(u)]) > 1 for u in uppers if u.line == upper.line)
            if spanned[id(upper)] == last and not (id(upper) in tiled and last == {i}) and not (
                    grouping and last == {i} and len(spanned[id(upper)]) == 1
                    and upper.x1 - upper.x0 > 1.5 * (piece.x1 - piece.x0)):
                levels[0] = joined_lines(upper.text, levels[0])
            else:
                levels.insert(0, upper.text)  # a header over several columns: a level of its own
            last = spanned[id(upper)]
        named.append((piece, tuple(levels)))
    return named


def _placed(named: list[tuple[_Piece, tuple[str, ...]]], left_edge: float) -> tuple[list[Column], Column | None]:
    """The columns, each owning the words between the midpoints to its neighbours' headers, and the stub."""
    stub: Column | None = None
    if named and named[0][0].x0 <= left_edge + 3:
        stub_piece, stub_levels = named.pop(0)
        stub = Column(stub_levels, stub_piece.x0, stub_piece.x1)
    columns = []
    for i, (piece, names) in enumerate(named):
        left = stub.x1 if (i == 0 and stub is not None) else (named[i - 1][0].x1 if i else None)
        right = named[i + 1][0].x0 if i + 1 < len(named) else None
        lo = (left + piece.x0) / 2 if left is not None else float("-inf")
        hi = (piece.x1 + right) / 2 if right is not None else float("inf")
        columns.append(Column(names, piece.x0, piece.x1, lo, hi))
    return columns, stub

def _tiled(line: list[_Piece], bottoms: list[_Piece], stub_first: bool) -> dict[int, set[int]]:
    """The columns each header of one line spans where the line's headers are set flush left over their groups
    of columns (a publisher's style: 'Reconstruction-based' from its first column's left edge, narrower than
    the three columns under it): each starts at a column's left edge, the first at the first column of data,
    and at least two of them overlap several columns; then each spans from its column up to the next one's.
    Empty where the line is not so set (centred spanning headers are ``_spanned``'s)."""
    first = 1 if stub_first else 0
    starts = [next((i for i, b in enumerate(bottoms) if b.line > u.line and abs(b.x0 - u.x0) <= 2 * EDGE), None)
              for u in line]
    line = [u for u, s in zip(line, starts, strict=True) if s is None or s >= first]  # the stub's own header aside
    starts = [s for s in starts if s is None or s >= first]
    if len(line) < 2 or None in starts or starts[0] != first or starts != sorted(set(starts)):  # type: ignore[type-var]
        return {}
    wide = sum(1 for u in line if sum(1 for b in bottoms if min(u.x1, b.x1) - max(u.x0, b.x0) > 2) >= 2)
    if wide < 2:
        return {}
    ends = [*starts[1:], len(bottoms)]
    return {id(u): set(range(a, b)) for u, a, b in zip(line, starts, ends, strict=True)}  # type: ignore[arg-type]


def _spanned(upper: _Piece, bottoms: list[_Piece], beside: list[_Piece], stub_first: bool = False,
             lower: list[set[int]] | None = None) -> set[int]:
    """The bottom-level headers (indices) a header above them spans: those it overlaps, where it overlaps
    several; else the run of neighbouring headers no other header of its line covers that it is centred over
    (a spanning header narrower than its columns, 'Set B' over 'PPL' and 'Hit@1'), which is the one it
    overlaps alone where it is the first line of a header on two lines. One that overlaps several spans the
    run of uncovered headers around them it is centred over, where there is one ('Unstructured models' over
    six columns, overlapping the middle three). The stub (``stub_first``: the first header, at the table's left
    edge) heads the row labels and is never spanned: a run from the stub to the column after the spanned ones
    can be centred by chance ('Histone marks' over two columns, not over 'Model' and 'Promoter' too). Nor does
    a run cut through the span of a header between it and the bottom (``lower``): 'Corpus-Level Metrics' over
    'CoNLL', 'SEEDA-S', 'SEEDA-E' spans their six columns, not the four in the middle, centred as well."""
    def overlaps(a: _Piece, b: _Piece) -> bool:
        return min(a.x1, b.x1) - max(a.x0, b.x0) > 2

    over = {i for i, b in enumerate(bottoms) if b.line > upper.line and overlaps(upper, b)}
    free = [b.line > upper.line and not any(overlaps(o, b) for o in beside) and not (i == 0 and stub_first)
            for i, b in enumerate(bottoms)]
    centre = upper.centre
    # A header much wider than the one column it overlaps is no first line of that column's header set on two
    # lines: it spans a run of columns centred under it, where there is one ('10% training' over 'Ebola',
    # 'Hep-C', 'Influenza', overlapping only the middle one)
    wide = len(over) == 1 and all(upper.x1 - upper.x0 > 1.5 * (bottoms[i].x1 - bottoms[i].x0) for i in over)
    best: tuple[float, set[int]] | None = None
    widest: tuple[float, set[int]] | None = None
    for start in range(len(bottoms)):
        for end in range(start, len(bottoms)):
            if not free[end]:
                break
            run = set(range(start, end + 1))
            if any(run & block and not block <= run for block in lower or []):
                continue
            if over and not over <= run or len(over) > 1 and any(free[k] is False for k in run):
                continue
            middle = (bottoms[start].x0 + bottoms[end].x1) / 2
            off = abs(middle - centre)
            if off <= max(3.0, 0.15 * (bottoms[end].x1 - bottoms[start].x0)) and (best is None or off < best[0]):
                best = (off, run)
            if wide and len(run) > 1 and off <= max(3.0, 0.15 * (bottoms[end].x1 - bottoms[start].x0)) and (
                    widest is None or off < widest[0]):
                widest = (off, run)
    if widest is not None:
        return widest[1]
    return best[1] if best is not None else over


def _spanning_pieces(pieces: list[_Piece]) -> list[_Piece]:
    """Header cells over other header cells joined at gaps up to ``LABEL_GAP``: a spanning header's words are
    set apart more than a cell's ('MASE' and its '↓'), and spanning headers stand far apart."""
    out: list[_Piece] = []
    for piece in pieces:
        last = out[-1] if out else None
        if (last is not None and last.line == piece.line and piece.x0 - last.x1 <= LABEL_GAP
                and any(p.line > last.line and p.x0 < last.x1 and p.x1 > last.x0 for p in pieces)):
            out[-1] = _Piece(f"{last.text} {piece.text}", last.x0, max(last.x1, piece.x1), last.line,
                             last.words + piece.words)
        else:
            out.append(piece)
    return out


def _body_columns(body: list[Line]) -> list[list[float]]:
    """The extents of the body's columns of numbers, left to right: each row's cells (words within ``CELL_GAP``)
    that hold a number, their extents merged from row to row."""
    spans: list[list[float]] = []
    for line in body:
        for cluster in _clusters(line):
            if any(is_value(w) for w in cluster):
                spans.append([cluster[0].x0, max(w.x1 for w in cluster)])
    return _merged(spans)


def _fitted_to_gutters(columns: list[Column], body_columns: list[list[float]]) -> list[Column]:
    """Columns whose shared boundary lies in the one gap between the body's columns of numbers that falls between
    their headers' centres, where there is exactly one and the numbers on each side of it reach under their
    headers' centres: cells wider than their headers ('91.17 +/- 2.6' under 'LZ') reach past the midpoint between
    the headers, never across the gap that sets the columns apart. Where no such gap, or several, fall there
    (a '±' and its number set apart inside a cell make a second one), the midpoint stays."""
    out = list(columns)
    for i in range(len(out) - 1):
        left, right = out[i], out[i + 1]
        lo, hi = (left.x0 + left.x1) / 2, (right.x0 + right.x1) / 2
        pairs = [(a, b) for a, b in zip(body_columns, body_columns[1:], strict=False) if lo < (a[1] + b[0]) / 2 < hi]
        gaps = [(a[1] + b[0]) / 2 for a, b in pairs if lo < a[1] and b[0] < hi]  # numbers under both headers
        if len(pairs) == 1 and len(gaps) == 1:
            out[i] = replace(left, hi=gaps[0])
            out[i + 1] = replace(right, lo=gaps[0])
    return out


EDGE = 1.5  # points: a header's word ends this close to its column's edge where both are set flush to it


def _split_at_gutters(pieces: list[_Piece], body_columns: list[list[float]]) -> list[_Piece]:
    """Bottom-level header cells split between two words where a gap between the body's columns falls, or where
    one column's edge lines up with the words' gap, a column of numbers on each side: headers of narrow
    columns set close together ('Influenza A Hepatitis C Ebola', each header set flush right over its numbers)
    are several headers. A header with headers under it spans columns and stays whole."""
    gutters = [(a[1] + b[0]) / 2 for a, b in zip(body_columns, body_columns[1:], strict=False)]

    def boundary(left: Word, right: Word) -> bool:
        if any(left.x1 <= g <= right.x0 for g in gutters):
            return True
        flush = any(left.x1 - EDGE <= hi < right.x0 for _, hi in body_columns) or any(
            left.x1 < lo <= right.x0 + EDGE for lo, _ in body_columns)
        return flush and any(hi <= right.x0 + EDGE for _, hi in body_columns if hi > left.x0) and any(
            lo >= left.x1 - EDGE for lo, _ in body_columns if lo < right.x1)

    out: list[_Piece] = []
    for piece in pieces:
        below = any(p.line > piece.line and p.x0 < piece.x1 and p.x1 > piece.x0 for p in pieces)
        if below or len(piece.words) < 2:
            out.append(piece)
            continue
        part: list[Word] = [piece.words[0]]
        for word in piece.words[1:]:
            if boundary(part[-1], word):
                out.append(_Piece(_text(part), part[0].x0, max(w.x1 for w in part), piece.line, tuple(part)))
                part = []
            part.append(word)
        out.append(_Piece(_text(part), part[0].x0, max(w.x1 for w in part), piece.line, tuple(part)))
    return out


def _flush_right(piece: _Piece, body_columns: list[list[float]]) -> bool:
    """Whether a header cell ends where the column of numbers under it ends (both set flush right)."""
    return any(piece.x0 < hi and piece.x1 > lo and abs(piece.x1 - hi) <= EDGE for lo, hi in body_columns)


def _joined_over_one_column(pieces: list[_Piece], value_columns: list[list[float]]) -> list[_Piece]:
    """Neighbouring bottom-level header cells of a line that both stand over one and the same column of numbers
    (``value_columns``: the extents of the body's numbers, word by word, so that two columns of numbers set close
    stay two),
    and over no other, joined, and a cell over no column with the cell after it set flush right over its
    column: one header an extractor set apart ('Hepatitis' 'C'; 'No.' 'classes' set flush right over numbers
    narrower than the header)."""
    def over(piece: _Piece) -> list[int]:
        return [k for k, (lo, hi) in enumerate(value_columns) if piece.x0 < hi and piece.x1 > lo]

    out: list[_Piece] = []
    for piece in pieces:
        last = out[-1] if out else None
        below = any(p.line > piece.line and p.x0 < piece.x1 and p.x1 > piece.x0 for p in pieces)
        if (last is not None and last.line == piece.line and not below and len(over(piece)) == 1
                and (over(last) == over(piece) or not over(last) and _flush_right(piece, value_columns))
                and piece.x0 - last.x1 <= LABEL_GAP
                and not any(p.line > last.line and p.x0 < last.x1 and p.x1 > last.x0 for p in pieces)):
            out[-1] = _Piece(f"{last.text} {piece.text}", last.x0, max(last.x1, piece.x1), last.line,
                             last.words + piece.words)
        else:
            out.append(piece)
    return out
