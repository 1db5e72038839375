"""Reading a table off a page from positioned words: its caption, column headers, rows and cells.

The record names a cell as a printed table label, a row label and a column header (a header over
several levels joined by ' / ', outermost first). ``read_tables`` turns the words of one page
(``review.pdf.words``) into that shape:

0. **Sideways pages** (most words turned a quarter) are turned upright first (``upright``).
1. **Caption**: a line that starts with the label followed by ':', '.' or '|', or by
   '(continued)', or a line that is the label alone ('TABLE II'). A mention in prose ('Table 1
   gives ...') is not a caption.
2. **Column of the page**: on a two-column page (few words cross the gutter), a caption in one
   column keeps the table to that column; a caption across the gutter, or a one-column page, gives
   the full width; a caption that starts mid-line after running text (a ``wraptable``, or the right
   column beside the left one's prose) keeps the table right of the gap (``_beside_text``). Lines are
   grouped again inside that extent, so that the next column's lines do not join the table's.
3. **Block**: the caption paragraph, then the lines (and rotated words) next to it, below it or
   above it (captions under tables), until a vertical gap wider than ``GAP`` points (wider between
   header and body, and before rows set wide apart), a line of running text (``is_prose``) or another
   caption. Of two tables stacked on a page, a block that runs up to the other caption is the other's.
   Subtables under one caption (``(a) ...``, ``(b) ...``, or centred titles over one repeated header) are
   read each as a table of its own, the subcaption the outer level of its rows (``_subtables``).
4. **Header and body**: the header is the block's lines before its first row of numbers (a line
   that is half numbers after its label; a line of one label at the left edge just before numbers is
   a *row group*, as in 'NT 2.5B' over its folds); the body is the rest. Header words are clustered at
   gaps wider than ``CELL_GAP`` (spanning headers at ``LABEL_GAP``), and bottom-level clusters are
   split where a gap between the body's columns falls between their words. A cluster nothing is printed
   under is a bottom-level header, and so is each rotated header (rotated words side by side, read line
   by line). Above the bottom-level headers, a cluster spans those it overlaps, or else the run of them
   it is centred over (``_spanned``): over several it is a level of its own ('Histone marks'), over one
   the line before it ('Splice sites' over '(acceptor)', joined by ``joined_lines``).
5. **Row labels**: the leading columns whose cells hold no number are row labels; the rows' label
   words form label columns, the innermost the row's own label and each outer one a multirow label
   naming the run of rows it is centred on or starts (``_runs``).
6. **Cells**: a column owns the words whose centre lies between the midpoints to its neighbours'
   headers, which holds for right-aligned numbers under wide headers and for wide '0.681 ± 0.019'
   cells under narrow ones, or else the one gap between the body's columns of numbers there
   (``_fitted_to_gutters``); the first column owns a row's words after its label; thousands set apart
   by a thin space are one word ('45 000').

A table continued on the next page ('Table 5 (continued)') keeps the row group that was open at
the end of the previous page, whose label is printed there only.
"""

from __future__ import annotations

import re
from dataclasses import replace

from review.pdf.words import Line, PageWords, Word, lines_of
from review.tables.blocks import _block, _headings, _siblings, _subtables
from review.tables.captions import _continues, _page_column, find_captions, upright
from review.tables.cell import MARKS, is_value
from review.tables.headers import _body_columns, _columns, _fitted_to_gutters
from review.tables.lines import (
    _clusters,
    _heading,
    _label_end,
    _larger,
    _middle,
    _numbers_line,
    _ordinals,
    _running,
    _text,
    _thousands,
    _unit_row,
    captioned_above,
    is_prose,
    starts_caption,
)
from review.tables.rows import (
    _centred_group,
    _group_line,
    _label_columns,
    _label_spans,
    _multirow_levels,
    _outer_column,
    unwrapped_labels,
)
from review.tables.table import Row, Table


def read_tables(page: PageWords, label: str, previous: PageWords | None = None) -> list[Table]:
    """Every reading of ``label`` on ``page``: one per caption, the block nearer to it first (a page printed
    sideways read turned upright). Of two tables stacked on a page, the block beside a caption that runs up to
    the other caption is the other's, and where both blocks do, the farther one is."""
    page = upright(page)
    previous = upright(previous) if previous is not None else None
    tables = []
    for line, start in find_captions(page, label):
        lo, hi = _page_column(page, line, start)
        inside = [w for w in page.words if lo <= w.x0 < hi]
        lines = lines_of(inside)
        rotated = [w for w in inside if w.rotated]
        first = line.words[start]
        at = next((i for i, ln in enumerate(lines) if first in ln.words), None)
        if at is None:
            continue
        caption_end = at
        continued = bool(re.search(r"\((?:continued|cont'd|cont\.)\)", lines[at].text, re.IGNORECASE))
        while not continued and caption_end + 1 < len(lines) and _continues(lines[caption_end], lines[caption_end + 1],
                                                                            lines[at]):
            caption_end += 1
        caption = " ".join(ln.text for ln in lines[at:caption_end + 1])
        carried = _open_group(previous, label) if continued and previous is not None else None
        width = max(ln.x1 for ln in lines) - min(ln.x0 for ln in lines)
        found: list[tuple[list[Table], bool, float]] = []
        for block in (_block(lines[caption_end + 1:], rotated, lines[caption_end].bottom, down=True, width=width),
                      _block(lines[:at][::-1], rotated, lines[at].top, down=False, width=width)):
            if block is None:
                continue
            block_lines, block_rotated, bounded = block
            parts = [_table(label, page.number, caption, continued, part, block_rotated, carried,
                            previous.number if carried is not None and previous is not None else None, group)
                     for part, group in _subtables(block_lines)]
            read = _siblings([t for t in parts if t is not None])
            if read:
                bounded = bounded or (block_lines[0].top < lines[at].top and captioned_above(lines, block_lines[0]))
                away = (block_lines[0].top - lines[caption_end].bottom if block_lines[0].top >= lines[at].top
                        else lines[at].top - block_lines[-1].bottom)
                found.append((read, bounded, away))
        if len(found) == 2 and found[0][1] != found[1][1]:
            found = [f for f in found if not f[1]]  # the block that runs up to another caption is that table's
        elif len(found) == 2:
            found.sort(key=lambda f: f[2])  # a caption is set closer to its own table than to the next float
            if found[0][1]:
                found = found[:1]  # stacked between two captions: the farther block is the other caption's
        tables += [table for read_block, _, _ in found for table in read_block]
    return tables


def continued_tables(page: PageWords, label: str, before: Table, previous: PageWords) -> list[Table]:
    """The tables of ``label`` that ``page`` continues without a caption of its own: a table broken across pages
    whose caption is printed once, on the page before (a browser prints a long web-page table so, a word
    processor too), read where ``before`` (its last reading there) runs to the foot of ``previous``: no running
    text under it. The continuation is the block at the top of ``page``; a heading in larger letters in it
    starts a new table under the same caption (``_headings``), and the rows before the first one keep the title
    of ``before``, or of a heading left alone at the foot of ``previous``."""
    if not runs_to_foot(before, previous):
        return []
    page, previous = upright(page), upright(previous)
    width = max(w.x1 for w in before.words) - min(w.x0 for w in before.words)
    under = _under(before, previous)
    title = next((ln.text for ln in under if _larger(ln, before.words)), before.subcaption)
    lines = lines_of(page.words)
    rotated = [w for w in page.words if w.rotated]
    if not lines:
        return []
    block = _block(lines, rotated, lines[0].top - 0.5, down=True, width=width)
    if block is None:
        return []
    block_lines, block_rotated, _ = block
    starts = _headings(block_lines)
    parts = [(block_lines[:starts[0]] if starts else block_lines, title)]
    ends = [*starts[1:], len(block_lines)] if starts else []
    parts += [(block_lines[i + 1:end], block_lines[i].text) for i, end in zip(starts, ends, strict=True)]
    read = [_table(label, page.number, before.caption, True, part, block_rotated, None, None, name)
            for part, name in parts if part]
    return _siblings([t for t in read if t is not None])


def _under(before: Table, previous: PageWords) -> list[Line]:
    bottom = max(w.bottom for w in before.words)
    return [ln for ln in lines_of(previous.words) if ln.top > bottom]


def runs_to_foot(before: Table, previous: PageWords) -> bool:
    """Whether ``before`` (a table read on ``previous``) may go on on the next page: it runs to the foot of its
    page, no running text nor another caption under it (at most a few lines: a page number, a footnote, a heading
    left alone). A table with running text under it ends on its page."""
    if not before.words:
        return False
    previous = upright(previous)
    width = max(w.x1 for w in before.words) - min(w.x0 for w in before.words)
    under = _under(before, previous)
    return not (any(is_prose(ln, width) and not _larger(ln, before.words) or starts_caption(ln) for ln in under)
                or len(under) > 3)


def _table(label: str, page: int, caption: str, continued: bool, lines: list[Line], rotated: list[Word],
           carried: str | None, carried_from: int | None, subcaption: str | None = None) -> Table | None:
    numeric = [_numbers_line(ln) for ln in lines]
    if True not in numeric:
        return None
    first_body, left_edge = _body_start(lines, numeric, rotated)
    header, body = lines[:first_body], lines[first_body:]
    if subcaption is None and len(header) > 1 and _heading(header[0], lines[1:], left_edge):
        subcaption, header = header[0].text, header[1:]
    columns, stub = _columns(header, rotated, left_edge, body)
    labels, columns = _label_columns(columns, body)
    if not columns:
        return None
    # A row's cells are its words after its label (``_label_end``): the first column owns all of them up to the
    # next column, a cell wider than its header reaching left of the midpoint to the stub ('80.41 +/- 0.85' under
    # 'MLP') included.
    columns[0] = replace(columns[0], lo=float("-inf"))
    columns = _fitted_to_gutters(columns, _body_columns(body))
    if stub is None and labels:
        stub = labels[-1]
    data_lo = columns[0].x0 + 1  # a row label ends before the first column's header starts
    body = unwrapped_labels(body, data_lo)
    rows, notes, group = _rows(body, data_lo, left_edge, subcaption, carried, carried_from)
    words = tuple(w for ln in lines for w in ln.words) + tuple(rotated)
    return Table(label, page, caption, continued, tuple(header), tuple(columns), stub, tuple(rows), tuple(notes),
                 open_group=group, carried_from=carried_from if carried else None, words=words, subcaption=subcaption)


def _body_start(lines: list[Line], numeric: list[bool], rotated: list[Word]) -> tuple[int, float]:
    """Where a block's body begins (its first line of numbers, or the row group's line just over it) and the left
    edge of its lines of numbers."""
    first_body = numeric.index(True)
    if _ordinals(lines[first_body]) and True in numeric[first_body + 1:]:
        numeric[first_body] = False  # columns named by their numbers ('Month 1 2 ... 12'): a header
        first_body = numeric.index(True)
    left_edge = min(ln.x0 for ln, n in zip(lines, numeric, strict=True) if n)
    right_edge = max(ln.x1 for ln, n in zip(lines, numeric, strict=True) if n)
    if first_body > 0 and (_group_line(lines[first_body - 1], left_edge, rotated)
                           or _centred_group(lines[first_body - 1], left_edge, right_edge)) and any(
            len(_clusters(ln)) > 1 for ln in lines[:first_body - 1]):
        first_body -= 1
    return first_body, left_edge


def _rows(body: list[Line], data_lo: float, left_edge: float, subcaption: str | None, carried: str | None,
          carried_from: int | None) -> tuple[list[Row], list[str], str | None]:
    """A body's rows (each named by its subcaption, row group, multirow labels and own label), the notes under
    it, and the row group still open at its end."""
    right = max(ln.x1 for ln in body)
    rows: list[Row] = []
    notes: list[str] = []
    items: list[tuple[Line, int | None]] = []  # body lines: a row and its label's length, or a line of no number
    for line in body:
        if notes or (items and line.words[0].text[:1] in MARKS and _running(line)):
            notes.append(line.text)  # a table note ('† Fold 7 ...'), and everything after it
        elif any(is_value(w) for w in line.words) or _unit_row(line):
            items.append((line, _label_end(line.words, data_lo)))
        else:
            items.append((line, None))
    spans = _label_spans([line.words[:n] for line, n in items if n is not None])
    group = carried
    pending: list[tuple[Line, tuple[Word, ...], tuple[Word, ...], str | None]] = []
    loose: list[tuple[Word, ...]] = []  # label-only lines amid the rows: multirow labels of outer label columns
    for line, n in items:
        if n is not None:
            pending.append((line, line.words[:n], line.words[n:], group))
        elif line.x1 <= data_lo and pending and _outer_column(line.words, spans) is not None:
            loose.append(line.words)
        elif _group_line(line, left_edge, []) and (line.x1 <= data_lo or 2 * (line.x1 - left_edge) < right - left_edge
                                                   ) or _centred_group(line, left_edge, right):
            group = line.text  # a row group's name may run on over the first columns, in less than half the width
        elif pending:
            notes.append(line.text)
    outer = _multirow_levels([p[1] for p in pending], [_middle(p[2] or p[0].words) for p in pending], loose, spans)
    for (line, stub_words, cells, row_group), levels in zip(pending, outer, strict=True):
        own = _text([w for w in stub_words if w not in levels[1]]).strip()
        path = tuple(p for p in (subcaption, row_group, *levels[0], own) if p)
        rows.append(Row(path, line, _thousands(cells), carried_from if row_group is not None and row_group == carried
                        else None))
    return rows, notes, group


def _open_group(previous: PageWords, label: str) -> str | None:
    """The row group still open at the end of ``label`` on the previous page."""
    for table in read_tables(previous, label):
        if table.rows and table.open_group is not None:
            return table.open_group
    return None
