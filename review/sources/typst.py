"""A Typst source's tables: the document evaluated (``typst_eval``, over ``typst_syntax``'s parse) and each figure
of kind table laid out as the grid Typst lays it out.

- **which tables**: every ``figure`` whose kind is table (given as ``kind: table``, or a body holding a ``table``),
  numbered in document order as Typst numbers them, 'Table N' (its ``supplement`` where one is given); a figure
  whose body cannot be evaluated but is written with ``table(...)`` still counts, so the numbers after it hold;
- **which cells**: the table's children in order, each in the next free position of its ``columns`` (a number, or
  an array of sizes: its length), as Typst places them; ``table.cell(colspan:, rowspan:, x:, y:)`` spans and
  places; ``table.header(...)``'s rows are the header; ``table.footer`` rows come last; ``table.hline``/``vline``
  print nothing; ``set table(columns: ...)`` gives defaults;
- **a cell's text**: its content as printed (``*bold*`` and ``strong`` set it bold; math as
  ``typst_math``-style text, ``$10^(-4)$`` as '10⁻⁴'; ``--`` as '–').

A table whose cells cannot all be evaluated (a function from a Typst Universe package the reader does not have, a
data file not in the source) is kept with no rows and the reason (``Grid.unread``): the source witness says
'cannot check' and why, never 'the source prints nothing'.

Not handled: ``show`` rules (a ``show table.cell: ...`` that rewrites cells' text), ``grid`` used as a table
(Typst numbers it as no table either), tables placed by ``x``/``y`` beyond the columns given.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from review.sources.model import Grid, GridCell
from review.sources.typst_eval import Evaluator, Limits
from review.sources.typst_values import Content, Elem, Opaque, Run, TypstError, display


def read_typst(path: Path, limits: Limits | None = None) -> list[Grid]:
    content = Evaluator(path.parent, limits).run(path)
    grids: list[Grid] = []
    counters: dict[str, int] = {}
    for figure in _elements(content, "figure"):
        kind = _kind(figure)
        counters[kind] = counters.get(kind, 0) + 1
        if kind != "table":
            continue
        supplement = _plain(figure.named.get("supplement"))[0] or "Table"
        caption = figure.named.get("caption")
        if isinstance(caption, Elem) and caption.pos:
            caption = caption.pos[0]
        table = next(iter(_elements(_as_content(figure.pos[0] if figure.pos else None), "table")), None)
        grids.append(_grid(table, f"{supplement} {counters[kind]}", _plain(caption)[0], figure.where))
    return grids


def _as_content(value: Any) -> Content:
    if isinstance(value, Elem):
        return Content((value,))
    return value if isinstance(value, Content) else Content()


def _elements(content: Content, name: str) -> list[Elem]:
    """The elements named ``name`` in ``content``, in order (those inside another such element left out)."""
    found: list[Elem] = []
    for part in content.parts:
        if not isinstance(part, Elem):
            continue
        if part.name == name:
            found.append(part)
        elif part.name not in ("table", "figure"):
            for value in (*part.pos, *part.named.values()):
                if isinstance(value, (Content, Elem)):
                    found += _elements(_as_content(value), name)
    return found


def _kind(figure: Elem) -> str:
    kind = figure.named.get("kind")
    if isinstance(kind, str):
        return kind
    if kind is not None and getattr(kind, "name", None):
        return str(kind.name)
    body = figure.pos[0] if figure.pos else None
    for name in ("table", "image", "raw"):
        if _elements(_as_content(body), name):
            return name
    return "figure"


def _plain(value: Any) -> tuple[str, bool]:
    """A content's text, spaces collapsed, and whether all of it is bold."""
    if value is None or isinstance(value, Opaque):
        return "", False
    try:
        content = display(value) if not isinstance(value, Content) else value
    except TypstError:
        return "", False
    runs = [p for p in content.parts if isinstance(p, Run)]
    text = " ".join("".join(r.text for r in runs).split())
    bold = bool(text) and all(r.bold for r in runs if r.text.strip())
    return text, bold


def _grid(table: Elem | None, label: str, caption: str, where: str) -> Grid:
    if table is None:
        return Grid(label, caption, [], where=where, unread="the figure's table could not be evaluated")
    try:
        rows, header_rows = _layout(table)
    except TypstError as exc:
        return Grid(label, caption, [], where=table.where or where, unread=str(exc))
    return Grid(label, caption, rows, header_rows, table.where or where, breakable=True, reserve=True,
                caption_below=True)


def _columns(table: Elem) -> int:
    columns = table.named.get("columns", 1)
    if isinstance(columns, Opaque):
        raise TypstError(columns.reason)
    if isinstance(columns, bool):
        return 1
    if isinstance(columns, int):
        return max(columns, 1)
    if isinstance(columns, list):
        return max(len(columns), 1)
    return 1


@dataclasses.dataclass
class _Placer:
    width: int
    starts: dict[tuple[int, int], GridCell] = dataclasses.field(default_factory=dict)
    taken: set[tuple[int, int]] = dataclasses.field(default_factory=set)
    row: int = 0
    column: int = 0

    def new_row(self) -> None:
        if self.column:
            self.row, self.column = self.row + 1, 0

    def place(self, child: Any, header: bool) -> None:
        body, named = (child.pos[0] if child.pos else None, child.named) if isinstance(child, Elem) and \
            child.name in ("table.cell", "grid.cell") else (child, {})
        if isinstance(body, Opaque):
            raise TypstError(body.reason)
        text, bold = _plain(display(body) if body is not None else None)
        colspan, rowspan = int(named.get("colspan", 1)), int(named.get("rowspan", 1))
        colspan = max(1, min(colspan, self.width))
        if isinstance(named.get("y"), int):
            self.row, self.column = named["y"], 0
        if isinstance(named.get("x"), int):
            self.column = min(named["x"], self.width - 1)
        while any((self.row, self.column + k) in self.taken for k in range(colspan)) or \
                self.column + colspan > self.width:
            self.column += 1
            if self.column + colspan > self.width:
                self.row, self.column = self.row + 1, 0
        self.starts[(self.row, self.column)] = GridCell(text, bold, colspan, rowspan, header)
        self.taken |= {(self.row + dr, self.column + dc) for dr in range(rowspan) for dc in range(colspan)}
        self.column += colspan
        if self.column >= self.width:
            self.row, self.column = self.row + 1, 0

    def rows(self) -> list[list[GridCell]]:
        height = max((r + 1 for r, _ in self.taken), default=0)
        return [[self.starts.get((r, c), GridCell("")) for c in range(self.width)
                 if (r, c) in self.starts or (r, c) not in self.taken] for r in range(height)]


def _layout(table: Elem) -> tuple[list[list[GridCell]], int | None]:
    """A table's children laid out as Typst lays them (module docstring): the rows, each with the cells that
    begin in it, and how many rows the header takes (None where it has none)."""
    placer = _Placer(_columns(table))
    header_rows: int | None = None
    for child in table.pos:
        if isinstance(child, Opaque):
            raise TypstError(child.reason)
        if isinstance(child, Elem) and child.name in ("table.hline", "table.vline", "grid.hline", "grid.vline"):
            continue
        if isinstance(child, Elem) and child.name in ("table.header", "table.footer", "grid.header",
                                                      "grid.footer"):
            placer.new_row()
            for cell in child.pos:
                if not (isinstance(cell, Elem) and cell.name.endswith(("hline", "vline"))):
                    placer.place(cell, header=child.name.endswith("header"))
            placer.new_row()
            if child.name.endswith("header"):
                header_rows = placer.row
            continue
        placer.place(child, header=False)
    return placer.rows(), header_rows
