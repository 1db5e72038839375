"""A record's page as a neutral structure: sections, field lists, tables and runs of text.

The page builders (``registry.page.kinds``) say what a page holds; the terminal (``registry.page.show``,
with Rich) and the site (``registry.site``, as HTML) each say how it looks. Every value a page
shows that came from somewhere carries a ``Tag`` saying what it is (transcribed, source checked,
measured by us, estimated by us), and every mention of another record carries its id, so the
site can link it; the terminal shows the same words without either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from registry.status.provenance import Provenance


@dataclass(frozen=True)
class Tag:
    """What a value is, in the words a page uses, with what backs it (hardware, versions, commit, review)."""

    provenance: Provenance
    label: str
    details: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        # A page looks its tags up by value for every tagged value it shows: the hash is worked out once.
        object.__setattr__(self, "_hash", hash((self.provenance, self.label, self.details)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[no-any-return,attr-defined]

    def __reduce__(self) -> tuple[type[Tag], tuple[Provenance, str, tuple[tuple[str, str], ...]]]:
        return Tag, (self.provenance, self.label, self.details)  # a string's hash differs between processes


class Style(StrEnum):
    """How a run of text stands out; each renderer maps these to its own means."""

    PLAIN = "plain"
    STRONG = "strong"
    TRANSCRIBED = "transcribed"
    NOTE = "note"
    CODE = "code"
    """Text to copy as it is (a BibTeX entry): its lines and spaces kept."""


@dataclass(frozen=True)
class Piece:
    """A run of text: plain, or a value with its tag, or the name of another record (``link``: its id)."""

    text: str
    style: Style = Style.PLAIN
    tag: Tag | None = None
    link: str | None = None
    exact: str | None = None
    """The exact value behind a rounded display ('33.88' behind '33.9'), for machines reading the page."""
    url: str | None = None
    """An address outside the registry the text links to (a paper's DOI); the text itself says where."""
    hidden: str | None = None
    """Words a screen reader reads after a link's text and a screen does not show: what a short link opens ('0.953'
    is ', Accuracy (acceptor) of NT 2.5B on Splice sites, Table 1'). The terminal, which has no links, leaves
    them out."""


Content = tuple[Piece, ...]


def plain(text: str) -> Content:
    return (Piece(text),)


def text_of(content: Content) -> str:
    return "".join(piece.text for piece in content)


@dataclass(frozen=True)
class Paragraph:
    """Running text; a line break in a piece's text is a line break on the page."""

    content: Content
    style: Style = Style.PLAIN


@dataclass(frozen=True)
class Items:
    """A bulleted list, written '- item' in a terminal."""

    items: tuple[Content, ...]


@dataclass(frozen=True)
class Fields:
    """Labelled values, one per row: a field list such as the technical metadata."""

    rows: tuple[tuple[str, Content], ...]


@dataclass(frozen=True)
class Column:
    """A table column: its header, and layout hints a terminal needs (the site ignores them)."""

    header: str
    ratio: int | None = None
    min_width: int | None = None
    no_wrap: bool = False
    fold: bool = False
    right: bool = False


@dataclass(frozen=True)
class Table:
    """Rows of cells under column headers, with a title above and a caption below."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[Content, ...], ...]
    title: str | None = None
    caption: str | None = None
    lines: bool = False
    """Rules between rows (terminal)."""
    expand: bool = False
    """As wide as the page (terminal)."""
    filter: str | None = None
    """What the rows are called ('evidence rows'), where the site offers a box that narrows them."""


@dataclass(frozen=True)
class Section:
    """A titled part of a page, as the seed pages have them ('Methods', 'Evidence', ...)."""

    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Figure:
    """A plot drawn at build time, as SVG markup, with a caption and blocks giving its values as text.

    Only the site shows figures (``registry.site``); a terminal page never holds one.
    """

    svg: str
    caption: str
    anchor: str
    blocks: tuple[Block, ...] = field(default=())


Block = Paragraph | Items | Fields | Table | Section | Figure


@dataclass(frozen=True)
class Page:
    """One record's page: its title, what stands under the title, then its sections."""

    record_id: str
    kind: str
    title: str
    blocks: tuple[Block, ...] = field(default=())

    def sections(self) -> list[Section]:
        return [block for block in self.blocks if isinstance(block, Section)]
