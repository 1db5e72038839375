"""The history part of a page: where a record stands in its chain of versions, and every version.

Pages of every kind call these two functions (``registry.page.kinds``): ``status_banner`` stands
first on the page of a superseded or retracted record (and of the current version of a corrected
one), ``history_blocks`` lists the versions with what each changed and why, who and when. Both are
empty for a record that no correction or retraction names.
"""

from __future__ import annotations

from collections.abc import Sequence

from registry.models import Record, Result
from registry.page import display as d
from registry.page.blocks import Block, Column, Paragraph, Piece, Style, Table, plain
from registry.status.versions import (
    Status,
    current_of,
    history_rows,
    outdated_bases,
    retractions,
    status_of,
    version_note,
)
from registry.store.loader import Registry
from registry.units import with_unit


def status_banner(registry: Registry, record: Record) -> tuple[Block, ...]:
    """'Superseded: the current version is X (0.618).', 'Retracted by R: why.', or nothing; then, for a current
    record built on a record that is no longer current (a derived result's input), what it stands on now."""
    return (*_own_status(registry, record), *_outdated_notes(registry, record))


def _outdated_notes(registry: Registry, record: Record) -> tuple[Block, ...]:
    notes: list[Block] = []
    for outdated in outdated_bases(registry, record):
        pieces = [Piece("Built on a record that is no longer current: "),
                  Piece(outdated.record_id, link=outdated.record_id)]
        if outdated.current is not None:
            value = (f" ({with_unit(outdated.current.as_printed, outdated.current.unit)})"
                     if isinstance(outdated.current, Result) else "")
            pieces += [Piece(" is superseded; its current version is "),
                       Piece(outdated.current.id, link=outdated.current.id),
                       Piece(f"{value}. This record's values were worked out from the earlier one.")]
        else:
            pieces.append(Piece(f" is {outdated.note}; no version of it is current."))
        notes.append(Paragraph(tuple(pieces), Style.STRONG))
    return tuple(notes)


def _own_status(registry: Registry, record: Record) -> tuple[Block, ...]:
    rows = history_rows(registry, record.id)
    if not rows:
        return ()
    status = status_of(registry, record.id)
    if status is Status.CURRENT:
        return (Paragraph(plain(f"Current version of a corrected record ({len(rows)} versions; see its history)."),
                          Style.STRONG),)
    current = current_of(registry, record.id)
    if current is not None:
        value = f" ({with_unit(current.as_printed, current.unit)})" if isinstance(current, Result) else ""
        return (Paragraph((Piece("Superseded: the current version is "), Piece(current.id, link=current.id),
                           Piece(f"{value}.")), Style.STRONG),)
    withdrawn = next((r for row in rows for r in retractions(registry, row.record_id)), None)
    why = f" by {withdrawn.id}: {withdrawn.reason}" if withdrawn else ""
    return (Paragraph(plain(f"Withdrawn{why}; no version of this record is current."), Style.STRONG),)


def history_blocks(registry: Registry, record_id: str) -> tuple[Block, ...]:
    """Every version of the record's chain, oldest first, as a table (nothing for a record never corrected)."""
    rows = history_rows(registry, record_id)
    if not rows:
        return ()
    columns = (Column("Version", no_wrap=True), Column("Record", fold=True), Column("Status", no_wrap=True),
               Column("Changed", fold=True), Column("Why, who, when", fold=True))
    cells = tuple((plain(str(row.version)), (Piece(row.record_id, link=row.record_id),), plain(row.status),
                   plain(row.changed), plain(row.why)) for row in rows)
    return (Table(columns, cells, title="History", lines=True, expand=True),)


def earlier_versions(registry: Registry, results: Sequence[Result], *, title: str = "Earlier versions and withdrawn "
                     "results") -> tuple[Block, ...]:
    """The superseded and retracted ``results`` apart from the current ones, each saying what it is.

    Tables of current values leave them out (``registry.status.versions.current_only``); this keeps them one
    link away, never read as the registry's values. Nothing when every result is current.
    """
    if not results:
        return ()
    columns = (Column("Result", fold=True), Column("Value it held", right=True), Column("Version", fold=True))
    # No review tag on the value: whatever its review granted, it is not the registry's value now.
    cells = tuple(((Piece(d.result_title(registry, r), link=r.id),), plain(with_unit(r.as_printed, r.unit)),
                   plain(version_note(registry, r.id)))
                  for r in results)
    return (Table(columns, cells, title=f"{title} ({len(results)}): history, not current values", lines=True,
                  expand=True),)
