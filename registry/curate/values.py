"""How a curator's written unit is read: the same for ``registry import`` and ``registry new``.

A unit may be written by its name (``gigabyte``) or as a page prints it (``GB``) where that form stands
for one unit only. A printed value is read by the one reading of printed numbers (``registry.numbers``).
"""

from __future__ import annotations

from registry.units import table


def read_unit(written: str) -> tuple[str | None, str | None]:
    """(the unit's name, None), or (None, why ``written`` names no one unit). The units are the registry's:
    the built-in ones and those its unit records declare ('img/s' where a record prints it so)."""
    units = table()
    if written in units:
        return written, None
    printed = units.unit_printed_as(written)
    if len(printed) == 1:
        return printed[0], None
    several = units.why_several(written)
    if several is not None:
        return None, several
    lowered = written.lower().replace(" ", "-")
    for token, declared in units.specs.items():
        if lowered in {token, f"{token}s", *(w.lower() for w in declared.words)}:
            return token, None
    meant = units.unit_named(written)
    if meant is not None:
        shown = f" ({units.symbol(meant)})" if units.symbol(meant) else ""
        return None, f"{written!r} is not a unit the registry knows; did you mean {meant!r}{shown}?"
    return None, (f"{written!r} is not a unit the registry knows; the units are: {', '.join(units)}; a unit of "
                  "your own is a unit record (records/unit/<id>.yaml)")
