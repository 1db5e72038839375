"""A table's row labels: labels wrapped over lines joined (``unwrapped_labels``), the leading columns that hold no
number taken as label columns, and each outer label column a multirow label naming the run of rows it is centred on
or starts (``_multirow_levels``, ``_runs``); a line of one label over numbers a row group.
"""

from __future__ import annotations

from review.pdf.words import Line, Word
from review.tables.cell import is_value
from review.tables.lines import (
    LABEL_GAP,
    _clusters,
    _label_clusters,
    _label_end,
    _merged,
    _middle,
    _number_cell,
    _text,
    _unit_row,
    joined_lines,
)
from review.tables.table import Column

#: A label's lines are set at a pitch under this share of the rows' own pitch (the font's line spacing, where a
#: row's pitch adds the cell's padding).
PITCH_RATIO = 0.85


#: A label's lines are set closer than this share of the space on their other side (the space between rows).
WRAP_RATIO = 0.75


def unwrapped_labels(body: list[Line], data_lo: float) -> list[Line]:
    """The body's lines with each row label set over several lines read as one label on its row's line.

    A label too long for its column wraps: its lines follow one another at the font's line spacing, closer than
    the space that sets rows (and the group labels over them) apart. A line of label words alone (nothing right of
    the labels) belongs with its neighbour above or below where it is set clearly closer to that one than to the
    other (``WRAP_RATIO``, the space between their boxes) and, where two rows of numbers follow one another in the
    body, at a pitch (top to top, which a descender does not change) under theirs (``PITCH_RATIO``). Where the
    spaces on both sides are alike (a table set without padding), a line that starts in lower case goes on from
    the line above it (``_goes_on``). Lines so held together that hold one row of numbers are that row: the
    label's lines above it (a label centred on its row) and below it (a label set at its row's top) join its
    label, line by line in its label column. A line of a few numbers alone (no label, at most half the words of
    the body's lines) joins a row so too: a cell's text wrapped in its cell ('96.30' over '%'). Lines held
    together with no row, or with several, are left as they are (a group label)."""
    label_only = [ln.x1 <= data_lo for ln in body]  # a label's line holds no cell ('Neuron' over '116')
    widths = sorted(len(ln.words) for ln in body)
    fragment = [ln.x0 >= data_lo and 2 * len(ln.words) <= widths[len(widths) // 2]
                and any(is_value(w) for w in ln.words) for ln in body]  # a group's name across the table is none
    is_row = [not alone and not part and (any(_number_cell(c) for c in _label_clusters(ln.words)) or _unit_row(ln))
              for ln, alone, part in zip(body, label_only, fragment, strict=True)]
    label_only = [a or b for a, b in zip(label_only, fragment, strict=True)]  # lines that join a row
    if not any(label_only):
        return body
    groups = _held_together(body, label_only, is_row)
    out: dict[int, Line] = {}
    dropped: set[int] = set()
    for members in groups.values():
        rows = [i for i in members if is_row[i]]
        if len(members) == 1 or len(rows) != 1 or any(not is_row[i] and not label_only[i] for i in members):
            continue
        out[rows[0]] = _with_label_lines(body[rows[0]], [body[i] for i in sorted(members)], data_lo)
        dropped.update(i for i in members if i != rows[0])
    return [out.get(i, line) for i, line in enumerate(body) if i not in dropped]


def _held_together(body: list[Line], label_only: list[bool], is_row: list[bool]) -> dict[int, list[int]]:
    """The body's lines in groups held together: each line of label words alone joined to its neighbour above or
    below where it is set clearly closer to that one (``unwrapped_labels`` says how), keyed by one line of each
    group."""
    gaps = [b.top - a.bottom for a, b in zip(body, body[1:], strict=False)]
    pitches = [b.top - a.top for a, b in zip(body, body[1:], strict=False)]
    between_rows = sorted(g for g, r0, r1 in zip(pitches, is_row, is_row[1:], strict=False) if r0 and r1)
    row_pitch = between_rows[len(between_rows) // 2] if between_rows else float("inf")
    parent = list(range(len(body)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, alone in enumerate(label_only):
        if not alone:
            continue
        up = gaps[i - 1] if i > 0 else float("inf")
        down = gaps[i] if i < len(gaps) else float("inf")
        near_up = i > 0 and pitches[i - 1] < PITCH_RATIO * row_pitch
        near_down = i < len(pitches) and pitches[i] < PITCH_RATIO * row_pitch
        if near_up and _goes_on(body[i]):
            parent[root(i)] = root(i - 1)
        elif near_down and _goes_on(body[i + 1]):
            parent[root(i)] = root(i + 1)
        elif near_up and up < WRAP_RATIO * down:
            parent[root(i)] = root(i - 1)
        elif near_down and down < WRAP_RATIO * up:
            parent[root(i)] = root(i + 1)
    groups: dict[int, list[int]] = {}
    for i in range(len(body)):
        groups.setdefault(root(i), []).append(i)
    return groups


def _goes_on(line: Line) -> bool:
    """Whether a line's first word starts in lower case: the rest of a phrase begun on the line above."""
    first = next((c for c in line.words[0].text if c.isalpha()), "")
    return first.islower()


def _with_label_lines(row: Line, lines: list[Line], data_lo: float) -> Line:
    """``row`` with the label words of ``lines`` (its own among them, top to bottom) joined, in each label column,
    into one word: the column's words line by line (``joined_lines``); and the words of a line of a few cells
    alone joined with the row's word in their cell."""
    labels = [w for ln in lines for w in (ln.words[:_label_end(ln.words, data_lo)] if ln is row else
                                          [w for w in ln.words if w.x0 < data_lo])]
    columns: list[list[Word]] = []  # words of one label column, overlapping from line to line
    for word in sorted(labels, key=lambda w: w.x0):
        if columns and word.x0 < max(w.x1 for w in columns[-1]) + LABEL_GAP:
            columns[-1].append(word)
        else:
            columns.append([word])
    joined: list[Word] = []
    for words in columns:
        by_line = [[w for w in ln.words if w in words] for ln in lines]
        texts = [_text(part) for part in by_line if part]
        text = texts[0]
        for more in texts[1:]:
            text = joined_lines(text, more)
        joined.append(Word(text, min(w.x0 for w in words), min(w.top for w in words), max(w.x1 for w in words),
                           max(w.bottom for w in words), all(w.bold for w in words)))
    cells = list(row.words[_label_end(row.words, data_lo):])
    for line in lines:  # a cell's text wrapped in its cell ('96.30' over '%'): joined with its row's word there
        if line is row:
            continue
        for word in (w for w in line.words if w.x0 >= data_lo):
            at = next((k for k, c in enumerate(cells) if c.x0 < word.x1 and c.x1 > word.x0), None)
            if at is None:
                cells.append(word)
                continue
            upper, lower = (word, cells[at]) if word.top < cells[at].top else (cells[at], word)
            cells[at] = Word(joined_lines(upper.text, lower.text), min(word.x0, upper.x0, lower.x0),
                             upper.top, max(upper.x1, lower.x1), lower.bottom, upper.bold and lower.bold)
    return Line(tuple(joined) + tuple(sorted(cells, key=lambda w: w.x0)))


def _label_columns(columns: list[Column], body: list[Line]) -> tuple[list[Column], list[Column]]:
    """The leading columns whose cells print no number are row labels (a stub of several columns: 'Task',
    'Domain', 'Dataset'); the rest hold data. A number in a name ('Suffix 3', ``_number_cell``), or set under a
    name in its cell, is no number of the cell."""
    labels: list[Column] = []
    for column in columns[:-1]:
        # a line with words in this column alone is a label's line, its number part of a name ('116' under
        # 'Neuron', ``unwrapped_labels``)
        cells = [[w for w in line.words if column.lo <= w.centre < column.hi] for line in body
                 if not all(column.lo <= w.centre < column.hi for w in line.words)]
        if any(_number_cell(cluster) and not _stacked(cluster[0], cell)
               for cell in cells for cluster in _label_clusters(tuple(cell))):
            break
        labels.append(column)
    return labels, columns[len(labels):]


def _stacked(word: Word, words: list[Word]) -> bool:
    """Whether a word is set under or over a word of a name among its line's words in its cell (a wrapped
    label's '133' under 'Neuron', which poppler gives on one line with it): part of the name."""
    return any(w is not word and not is_value(w) and w.x0 < word.x1 and w.x1 > word.x0
               and (w.bottom <= word.top + 1 or w.top >= word.bottom - 1) and abs(w.top - word.top) < 2 * word.height
               for w in words)


def _label_spans(labels: list[tuple[Word, ...]]) -> list[tuple[float, float]]:
    """The label columns the rows' label words form, left to right: clusters apart by more than ``LABEL_GAP``
    whose extents overlap from row to row form one column."""
    spans: list[list[float]] = []
    for label in labels:
        for cluster in _label_clusters(label):
            spans.append([cluster[0].x0, max(w.x1 for w in cluster)])
    return [(a, b) for a, b in _merged(spans)]


def _outer_column(words: tuple[Word, ...], spans: list[tuple[float, float]]) -> int | None:
    """The outer label column (not the rows' own, innermost one) that all of ``words`` lie in, if any."""
    if len(spans) < 2:
        return None
    x0, x1 = words[0].x0, max(w.x1 for w in words)
    hits = [i for i, (a, b) in enumerate(spans) if x0 < b and x1 > a]
    return hits[0] if len(hits) == 1 and hits[0] < len(spans) - 1 else None


def _multirow_levels(labels: list[tuple[Word, ...]], ys: list[float], loose: list[tuple[Word, ...]],
                     spans: list[tuple[float, float]]) -> list[tuple[tuple[str, ...], tuple[Word, ...]]]:
    """Each row's outer label levels (the multirow labels of the label columns left of its own), and the words
    of its label that are those levels.

    The innermost label column is the row's own label; an outer label (set once, by ``\\multirow``, on a
    row's line or between rows) names a run of rows: a label on the first row's line and on rows' lines
    only starts its run (top-aligned), otherwise it sits at its run's middle (centred).
    """
    if len(spans) < 2:
        return [((), ())] * len(labels)
    per_column: list[list[tuple[float, str]]] = [[] for _ in spans[:-1]]
    taken: list[list[Word]] = [[] for _ in labels]
    for i, label in enumerate(labels):
        for cluster in _label_clusters(label):
            k = _outer_column(cluster, spans)
            if k is not None:
                per_column[k].append((_middle(cluster), _text(list(cluster))))
                taken[i] += cluster
    for words in loose:
        for cluster in _label_clusters(words):
            k = _outer_column(cluster, spans)
            if k is not None:
                per_column[k].append((_middle(cluster), _text(list(cluster))))
    runs = [_runs(ys, sorted(found)) for found in per_column]
    return [(tuple(run[i] for run in runs if run[i]), tuple(taken[i])) for i in range(len(labels))]


def _runs(ys: list[float], labels: list[tuple[float, str]]) -> list[str]:
    """Each row's label in one outer label column, from the labels' heights (see ``_multirow_levels``)."""
    if not labels:
        return [""] * len(ys)
    gaps = sorted(b - a for a, b in zip(ys, ys[1:], strict=False)) or [10.0]
    pitch = gaps[len(gaps) // 2] or 10.0
    on_rows = [min(range(len(ys)), key=lambda i: abs(ys[i] - y)) for y, _ in labels]
    on_lines = all(abs(ys[r] - y) < 0.3 * pitch for r, (y, _) in zip(on_rows, labels, strict=True))
    out = [""] * len(ys)
    if on_lines and (on_rows[0] == 0 or not _centred_runs(on_rows, len(ys))):  # top-aligned: each starts its run
        for k, (r, (_, text)) in enumerate(zip(on_rows, labels, strict=True)):
            end = on_rows[k + 1] if k + 1 < len(labels) else len(ys)
            for i in range(r, end):
                out[i] = text
        return out
    start = 0
    for k, (y, text) in enumerate(labels):
        if start >= len(ys):
            break
        if k + 1 == len(labels):
            end = len(ys) - 1
        else:
            target = 2 * y - ys[start]
            end = min(range(start, len(ys)), key=lambda i: abs(ys[i] - target))
        for i in range(start, end + 1):
            out[i] = text
        start = end + 1
    return out


def _centred_runs(on_rows: list[int], rows: int) -> bool:
    """Whether labels on the rows ``on_rows`` can each be centred on a run of rows, the runs following one another
    from the first row to the last: otherwise they are set at their runs' tops, and the rows over the first label
    belong to a label printed before them (on the page before, where the table began)."""
    start = 0
    for k, row in enumerate(on_rows):
        end = 2 * row - start
        if end < row or (k + 1 < len(on_rows) and end >= on_rows[k + 1]) or end >= rows:
            return False
        start = end + 1
    return start == rows


def _centred_group(line: Line, left_edge: float, right: float) -> bool:
    """A line of one label centred on the table's body, no number in it, set between the header and the rows or
    amid them: a row group's name set across the table (``\\multicolumn{n}{c}{List Processing}``)."""
    if len(_label_clusters(line.words)) != 1 or any(is_value(w) for w in line.words):
        return False
    return abs((line.x0 + line.x1) - (left_edge + right)) / 2 < max(3.0, 0.03 * (right - left_edge))


def _group_line(line: Line, left_edge: float, rotated: list[Word]) -> bool:
    """A line of one label at the table's left edge, with no rotated header beside it: a row group's name."""
    if len(_clusters(line)) != 1 or line.x0 > left_edge + 3 or any(is_value(w) for w in line.words):
        return False
    return not any(w.top < line.bottom and w.bottom > line.top for w in rotated)
