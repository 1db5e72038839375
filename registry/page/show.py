"""Pages in a terminal: the neutral page structure (``registry.page``) rendered with Rich.

What a page holds is decided once, in ``registry.page.kinds`` (the results side by side in
``registry.page.overview``), for the terminal and the site alike; this module only says how each
block looks in a terminal. Tags and links carry no marks here: the words around each value
already say what it is (the site shows both).
"""

from __future__ import annotations

import functools

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from registry.models import Record
from registry.page.blocks import Block, Content, Fields, Items, Page, Paragraph, Section, Style, Table
from registry.page.kinds import build_page
from registry.page.overview import results_overview
from registry.store.loader import Registry

__all__ = ["render_page", "render_record", "results_table"]

#: Rich styles of the page styles.
STYLES = {Style.PLAIN: "", Style.STRONG: "bold", Style.TRANSCRIBED: "cyan", Style.NOTE: "dim", Style.CODE: ""}


def render_record(registry: Registry, record: Record) -> RenderableType:
    """The page of one record."""
    return render_page(build_page(record, registry))


def results_table(registry: Registry, *, history: bool = False) -> RenderableType:
    """Every current result side by side (``registry list --kind result``); ``history``: every version."""
    table, legend = results_overview(registry, history=history)
    return Group(render_block(table), render_block(legend))


def render_page(page: Page) -> RenderableType:
    return Group(Text(page.title, style="bold underline"), *_flat(page.blocks))


def _flat(blocks: tuple[Block, ...]) -> list[RenderableType]:
    """Sections open with a rule under their title; their blocks follow on the same level."""
    parts: list[RenderableType] = []
    for block in blocks:
        if isinstance(block, Section):
            parts.append(Rule(block.title, align="left"))
            parts.extend(_flat(block.blocks))
        else:
            parts.append(render_block(block))
    return parts


@functools.singledispatch
def render_block(block: Block) -> RenderableType:
    raise TypeError(f"no terminal rendering for {type(block).__name__}")


@render_block.register
def _paragraph(block: Paragraph) -> RenderableType:
    return _text(block.content, STYLES[block.style])


@render_block.register
def _items(block: Items) -> RenderableType:
    text = Text()
    for index, item in enumerate(block.items):
        text.append("\n- " if index else "- ")
        _append(text, item)
    return text


@render_block.register
def _fields(block: Fields) -> RenderableType:
    table = RichTable(show_header=False, box=None, pad_edge=False, expand=True)
    table.add_column(style="bold", no_wrap=True, ratio=1)
    table.add_column(ratio=4, overflow="fold")  # long ids break across lines rather than lose their end
    for label, value in block.rows:
        table.add_row(Text(label), _text(value))
    return table


@render_block.register
def _table(block: Table) -> RenderableType:
    if any(column.ratio for column in block.columns):
        return _SharedTable(block)
    return _rich_table(block, None)


def _rich_table(block: Table, widths: list[int | None] | None, padding: int = 1) -> RichTable:
    table = RichTable(title=block.title, caption=block.caption, show_lines=block.lines, expand=block.expand,
                      padding=(0, padding))
    for index, column in enumerate(block.columns):
        width = widths[index] if widths else None
        table.add_column(column.header, ratio=None if width else column.ratio, width=width,
                         min_width=column.min_width, no_wrap=column.no_wrap,
                         overflow="fold" if column.fold else "ellipsis",
                         justify="right" if column.right else "left")
    for row in block.rows:
        table.add_row(*(_text(cell) for cell in row))  # record text is shown as written, never as Rich markup
    return table


#: The longest word of a cell that a shared column makes room for; a longer one (an id) may break.
LONGEST_WORD = 14


class _SharedTable:
    """A table whose columns share the width by their ratios, but each gets at least its longest word.

    Rich's own ratios round the shares and may cut a word mid-way ('Uncertaint / y', 'sourc / e'): the
    widths are worked out here, once the terminal's width is known. Each column gets room for the
    longest word of its header and of its cells (up to ``LONGEST_WORD``); a column without a ratio (the
    row number) gets its whole widest cell, so '10' never reads '…'. Where a terminal is too narrow
    for that with the usual padding, the cells lose their padding rather than their words.
    """

    def __init__(self, block: Table) -> None:
        self.block = block

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        columns = self.block.columns
        cells = [[_plain_text(row[i]) for row in self.block.rows] for i in range(len(columns))]
        fixed = [0 if c.ratio else max([len(c.header), *(len(line) for cell in cells[i] for line in cell.split("\n"))])
                 for i, c in enumerate(columns)]
        floors = [max([len(w) for w in c.header.split()] + [min(len(w), LONGEST_WORD) for cell in cells[i]
                                                            for w in cell.split()] + [1])
                  for i, c in enumerate(columns)]
        padding = 1
        room = options.max_width - (3 * len(columns) + 1) - sum(fixed)  # borders and padding
        if room < sum(f for f, c in zip(floors, columns, strict=True) if c.ratio):
            padding = 0
            room = options.max_width - (len(columns) + 1) - sum(fixed)  # borders only
        shares = [c.ratio or 0 for c in columns]
        total = sum(shares)
        widths: list[int | None] = [max(floor, room * share // total) if share else fixed[i] or None
                                    for i, (share, floor) in enumerate(zip(shares, floors, strict=True))]
        spare = room - sum(w or 0 for i, w in enumerate(widths) if shares[i])
        shared = [i for i in range(len(columns)) if shares[i]]
        while spare < 0 and any((widths[i] or 0) > floors[i] for i in shared):  # floors took more than the shares
            index = max(shared, key=lambda i: (widths[i] or 0) - floors[i])
            widths[index] = (widths[index] or 0) - 1
            spare += 1
        for index in sorted(shared, key=lambda i: -shares[i]):  # the remainder to the widest shares
            if spare <= 0:
                break
            widths[index] = (widths[index] or 0) + 1
            spare -= 1
        yield _rich_table(self.block, widths, padding)


def _plain_text(content: Content) -> str:
    return "".join(piece.text for piece in content)


def _text(content: Content, style: str = "") -> Text:
    text = Text(style=style)
    _append(text, content)
    return text


def _append(text: Text, content: Content) -> None:
    """Append the pieces' text; neighbours of one style go as one run (a tag or a link is no style here)."""
    run, style = "", Style.PLAIN
    for piece in content:
        if piece.style is not style and run:
            text.append(run, style=STYLES[style] or None)
            run = ""
        run, style = run + piece.text, piece.style
    if run:
        text.append(run, style=STYLES[style] or None)
