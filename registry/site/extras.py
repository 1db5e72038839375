"""What a record's page carries on the site beyond its page in the terminal.

The terminal cannot show a plot, and a release's standing against the site's own content is the
site's to say; so the site adds, per kind (dispatched on the record's model class): the plot of its
group to a result and a protocol, and its content hash to a release. Everything else on a page is
the one page structure both share (a model family's configurations and results included).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace

from registry.models import Protocol, Record, Release, Result
from registry.page import display as d
from registry.page.blocks import Block, Fields, Figure, Page, Paragraph, Piece, Section, Style, plain
from registry.page.metadata import TECHNICAL_METADATA
from registry.site.plot import Group, protocol_of, values_table
from registry.store.loader import Registry
from registry.store.release import hash_prefix, standing

PLOT_SECTION = "Transcribed, measured and estimated values"
PLOT_CAPTION = ("Each row is one result, its values written above it: the transcribed value as printed (diamond) with "
                "the uncertainty the source prints (bar), and apart from it our measurements (triangles) and "
                "estimates (circles), with a bar over the spread of the knob sweep. One panel per dataset.")


@dataclass(frozen=True)
class Site:
    """What every page of one build shares: the registry, the plot groups and their SVGs, the content's name."""

    registry: Registry
    groups: dict[str, list[Group]]
    svgs: dict[str, str]
    release_name: str
    release_sha256: str
    plot_sections: dict[str, Section] = field(default_factory=dict)
    """Each protocol's plot section, made once and shared by the pages of its results."""


def site_page(page: Page, record: Record, site: Site) -> Page:
    """The record's page with what the site adds for its kind."""
    return _extend(record, page, site)


@functools.singledispatch
def _extend(record: Record, page: Page, site: Site) -> Page:
    return page


@_extend.register
def _result(record: Result, page: Page, site: Site) -> Page:
    return _insert_after(page, "Reproduction", plot_section(site, protocol_of(site.registry, record), True))


@_extend.register
def _protocol(record: Protocol, page: Page, site: Site) -> Page:
    return _insert_first(page, plot_section(site, record.id, False))


@_extend.register
def _release(record: Release, page: Page, site: Site) -> Page:
    prefix = hash_prefix(record)
    section = Section("Content hash", (
        Fields((
            ("Release", plain(record.name)),
            ("Content hash prefix", plain(f"{prefix} (the first 12 hex digits of the SHA-256 of the records' "
                                          "canonical JSON, release records left out, when it was named)")),
            ("Members", plain(str(len(record.members)))),
            ("Current content", (Piece(site.release_name, link="release-index"),
                                 Piece(f" (SHA-256 {site.release_sha256})"))),
        )),
        Paragraph(plain(f"{standing(record, site.release_sha256).capitalize()}."), Style.NOTE),
    ))
    return _insert_first(page, section)


def plot_section(site: Site, protocol_id: str, for_result: bool) -> Section:
    key = f"{protocol_id} {for_result}"
    if key not in site.plot_sections:
        site.plot_sections[key] = _make_plot_section(site, protocol_id, for_result)
    return site.plot_sections[key]


def _make_plot_section(site: Site, protocol_id: str, for_result: bool) -> Section:
    """The plot and its values; without a plot, the values table on the protocol's page only.

    A result's page then points to it, rather than repeating its protocol's whole table.
    """
    groups = site.groups.get(protocol_id, [])
    svg = site.svgs.get(protocol_id)
    blocks: list[Block] = []
    if svg is not None:
        blocks.append(Figure(svg, PLOT_CAPTION, "plot", tuple(values_table(group) for group in groups)))
    elif not groups:
        blocks.append(Paragraph(plain("No result is evaluated under this protocol."), Style.NOTE))
    else:
        protocol = site.registry.records[protocol_id]
        blocks.append(Paragraph((
            Piece("None of these results has a measured or estimated value of ours yet, so there is nothing to plot "
                  "beside the transcribed values. "),
            *((Piece("The protocol's page lists them: "), Piece(d.record_name(protocol), link=protocol_id),
               Piece(".")) if for_result else ()),
        ), Style.NOTE))
        if not for_result:
            blocks.extend(values_table(group) for group in groups)
    blocks.append(Paragraph(plain(f"Draw it with 'registry plot {protocol_id} --out plot.svg' (or .png)."),
                            Style.NOTE))
    return Section(PLOT_SECTION, tuple(blocks))


def _insert_after(page: Page, title: str, section: Section) -> Page:
    blocks = list(page.blocks)
    at = next((i + 1 for i, b in enumerate(blocks) if isinstance(b, Section) and b.title == title), len(blocks))
    blocks.insert(at, section)
    return replace(page, blocks=tuple(blocks))


def _insert_first(page: Page, section: Section) -> Page:
    """Before the page's own sections, after the technical metadata of a generic page (its first block)."""
    blocks = list(page.blocks)
    at = next((i for i, b in enumerate(blocks) if isinstance(b, Section) and b.title != TECHNICAL_METADATA),
              len(blocks))
    blocks.insert(at, section)
    return replace(page, blocks=tuple(blocks))

