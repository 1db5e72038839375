"""Units of printed results: how each is written, and how many bytes one holds.

One table, so that a value is never shown in one unit and labelled with another: the
display, the reproduction records and the whole-registry checks all convert through it.
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum

from registry.errors import RegistryError


class Unit(StrEnum):
    """The units a result may be in: a closed list, so that one unit is never stored under two names.

    Add a unit here when a source prints one that is missing, with its symbol below and the
    ways pages print it in ``review/claims.py`` (a test checks that both are there).
    """

    GIGABYTE = "gigabyte"
    GIBIBYTE = "gibibyte"
    MEGABYTE = "megabyte"
    MEBIBYTE = "mebibyte"
    PERCENT = "percent"
    SECOND = "second"
    MILLISECOND = "millisecond"
    HOUR = "hour"
    TOKENS_PER_SECOND = "tokens-per-second"
    SAMPLES_PER_SECOND = "samples-per-second"


#: How a unit is written after a value.
SYMBOLS = {"gigabyte": "GB", "gibibyte": "GiB", "megabyte": "MB", "mebibyte": "MiB", "percent": "%",
           "second": "s", "millisecond": "ms", "hour": "h", "tokens-per-second": "tokens/s",
           "samples-per-second": "samples/s"}
#: Bytes in one unit, for the units a memory peak can be compared in (GB = 10^9 bytes, GiB = 2^30).
BYTES_PER_UNIT = {"gigabyte": Decimal(10) ** 9, "megabyte": Decimal(10) ** 6, "gibibyte": Decimal(2) ** 30,
                  "mebibyte": Decimal(2) ** 20}
#: Values that do not come out exact (GiB) are kept to this many decimal places.
DECIMAL_PLACES = 6
_QUANTUM = Decimal(1).scaleb(-DECIMAL_PLACES)


def symbol(unit: str) -> str:
    """'gigabyte' -> 'GB'; a unit without a symbol is written out."""
    return SYMBOLS.get(unit, unit)


def unit_named(written: str) -> Unit | None:
    """The unit a curator probably meant by ``written`` ('GB', 'gb', 'Gigabytes'), or None."""
    text = written.strip()
    for unit, printed in SYMBOLS.items():  # symbols match as printed: 'Gb' is a gigabit, not a gigabyte
        if printed and text == printed:
            return Unit(unit)
    singular = text.lower().replace(" ", "-").removesuffix("s")
    return next((unit for unit in Unit if unit.value == singular or unit.value == text.lower()), None)


def gib(value_bytes: int) -> Decimal:
    """Bytes as GiB (2^30 bytes), rounded to ``DECIMAL_PLACES``."""
    return (Decimal(value_bytes) / BYTES_PER_UNIT["gibibyte"]).quantize(_QUANTUM)


def bytes_in_unit(value_bytes: int, unit: str) -> Decimal:
    """Bytes in ``unit``: exact for the decimal units, ``gib`` for GiB; never in exponent form (30, not 3E+1)."""
    if unit not in BYTES_PER_UNIT:
        raise RegistryError(f"cannot express a memory peak in unit {str(unit)!r}",
                            f"reproductions compare bytes with results in: {', '.join(BYTES_PER_UNIT)}")
    if unit == "gibibyte":
        return gib(value_bytes)
    value = (Decimal(value_bytes) / BYTES_PER_UNIT[unit]).normalize()
    return value.quantize(Decimal(1)) if value.as_tuple().exponent > 0 else value  # type: ignore[operator]
