"""How a curator's written unit and value are read: the same for ``registry import`` and ``registry new``, and for
the CSV ``registry table`` writes (which keeps a cell only where the import reads it as the review does).

A unit may be written by its name (``gigabyte``) or as a page prints it (``GB``) where that form stands
for one unit only. A printed value is read by the one reading of printed numbers (``registry.numbers``).
"""

from __future__ import annotations

from registry.numbers import parse_printed, read_bound, read_range
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


def split_printed(printed: str) -> tuple[tuple[str, str] | None, str, tuple[str, str] | None]:
    """A value column as the import reads it: (the bound's sign and number, or None; the value as printed; a
    range's two ends, or None): '< 0.001' is a bound of 0.001, '12–15' a range whose value is 12."""
    bound = read_bound(printed)
    if bound is not None and parse_printed(bound[1]) is not None:
        return bound, bound[1], None
    ends = read_range(printed) if parse_printed(printed) is None else None
    return None, ends[0] if ends is not None else printed, ends
