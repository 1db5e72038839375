"""How a curator's written unit is read: the same for ``registry import`` and ``registry new``.

A unit may be written by its name (``gigabyte``) or as a page prints it (``GB``) where that form stands
for one unit only. A printed value is read by the one reading of printed numbers (``registry.numbers``).
"""

from __future__ import annotations

from registry.units import UNITS, symbol, unit_named, unit_printed_as, why_several


def read_unit(written: str) -> tuple[str | None, str | None]:
    """(the unit's name, None), or (None, why ``written`` names no one unit)."""
    if written in UNITS:
        return written, None
    printed = unit_printed_as(written)
    if len(printed) == 1:
        return printed[0], None
    several = why_several(written)
    if several is not None:
        return None, several
    lowered = written.lower().replace(" ", "-")
    for token, declared in UNITS.items():
        if lowered in {token, f"{token}s", *(w.lower() for w in declared.words)}:
            return token, None
    meant = unit_named(written)
    if meant is not None:
        shown = f" ({symbol(meant.value)})" if symbol(meant.value) else ""
        return None, f"{written!r} is not a unit the registry knows; did you mean {meant.value!r}{shown}?"
    return None, f"{written!r} is not a unit the registry knows; the units are: {', '.join(UNITS)}"
