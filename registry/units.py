"""Units of printed results, declared once: token, dimension, how pages print it, and its scale.

One table, so that a value is never shown in one unit and labelled with another, and so that
validation, display, the database and ``registry review`` all read the same facts: ``Unit``
(the closed list a result's ``unit`` takes) is generated from it, the symbol a page shows,
the forms a source check looks for, and exact conversion within a dimension come from it.

A unit's *scale* is how many of its dimension's base unit one of it holds (a gigabyte holds
10^9 bytes); units of one dimension without a scale (items, samples, tokens per second) are
never converted into one another.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum

from registry.errors import RegistryError


class Dimension(StrEnum):
    """What kind of quantity a unit measures; a query can group by it (never average across two)."""

    DIMENSIONLESS = "dimensionless"
    """Scores and ratios without a unit: MCC, accuracy or F1 as a fraction, AUROC, perplexity, a speed-up."""
    PERCENTAGE = "percentage"
    """A share of a whole, in percent (accuracy as 71.3 %)."""
    PERCENTAGE_POINT = "percentage-point"
    """A difference of two percentages (never mixed with the percentages themselves)."""
    COUNT = "count"
    """How many of something (parameters, tokens, sequences)."""
    THROUGHPUT = "throughput"
    """Items processed per second; which items is part of the unit."""
    TIME = "time"
    MEMORY = "memory"
    ENERGY = "energy"
    POWER = "power"
    COMPUTE = "compute"
    """Floating-point operations."""
    COMPUTE_RATE = "compute-rate"
    """Floating-point operations per second."""


@dataclass(frozen=True)
class UnitSpec:
    """One unit: its token, what it measures, how it is written and printed, and its scale."""

    token: str
    dimension: Dimension
    symbol: str
    """How a page of the registry writes the unit after a value ('' for none: '0.681')."""
    printed: tuple[str, ...] = ()
    """How papers print it after a value, as printed (case matters: 'Gb' is a gigabit, not a gigabyte)."""
    scale: Decimal | None = None
    """How many of the dimension's base unit one of this unit holds; None: not convertible."""
    words: tuple[str, ...] = ()
    """Other names a curator may type for it (for the 'did you mean' of a mistaken unit)."""


def _units(*specs: UnitSpec) -> dict[str, UnitSpec]:
    return {spec.token: spec for spec in specs}


D = Dimension
_TEN, _TWO = Decimal(10), Decimal(2)

#: Every unit, in the order they are listed.
UNITS: dict[str, UnitSpec] = _units(
    UnitSpec("dimensionless", D.DIMENSIONLESS, "", (), Decimal(1),
             ("score", "fraction", "ratio", "mcc", "auroc", "auc", "f1", "perplexity", "none", "unitless")),
    UnitSpec("times", D.DIMENSIONLESS, "×", ("×", "x", "times", "-fold"), Decimal(1), ("speed-up", "speedup", "fold")),
    UnitSpec("percent", D.PERCENTAGE, "%", ("%", "percent", "per cent"), Decimal(1), ("pct", "percentage")),
    UnitSpec("percentage-point", D.PERCENTAGE_POINT, "pp",
             ("pp", "p.p.", "percentage points", "percentage point", "points"), Decimal(1), ("pts",)),
    UnitSpec("count", D.COUNT, "", (), Decimal(1), ("items", "number", "parameters", "tokens", "sequences")),
    # A count's symbol is its word: 'B' would read as bytes on a page ('7 B'); papers' 'B', 'M', 'K' are printed forms.
    UnitSpec("thousand", D.COUNT, "thousand", ("K", "k", "thousand"), _TEN ** 3, ("thousands",)),
    UnitSpec("million", D.COUNT, "million", ("M", "million", "mio"), _TEN ** 6, ("millions",)),
    UnitSpec("billion", D.COUNT, "billion", ("B", "billion", "bn"), _TEN ** 9, ("billions",)),
    UnitSpec("trillion", D.COUNT, "trillion", ("T", "trillion"), _TEN ** 12, ("trillions",)),
    UnitSpec("items-per-second", D.THROUGHPUT, "items/s", ("items/s", "it/s", "items per second", "Items/s")),
    UnitSpec("samples-per-second", D.THROUGHPUT, "samples/s",
             ("samples/s", "samples per second", "Samples/s", "samples/sec")),
    UnitSpec("sequences-per-second", D.THROUGHPUT, "sequences/s",
             ("sequences/s", "seq/s", "Sequences/s", "sequences per second", "seqs/s", "sequences/sec")),
    UnitSpec("tokens-per-second", D.THROUGHPUT, "tokens/s",
             ("tokens/s", "tok/s", "tokens per second", "Tokens/s", "tokens/sec")),
    UnitSpec("nanosecond", D.TIME, "ns", ("ns", "nanoseconds"), _TEN ** -9),
    UnitSpec("microsecond", D.TIME, "µs", ("µs", "μs", "us", "microseconds"), _TEN ** -6),
    UnitSpec("millisecond", D.TIME, "ms", ("ms", "milliseconds", "msec"), _TEN ** -3),
    UnitSpec("second", D.TIME, "s", ("s", "sec", "seconds", "second"), Decimal(1), ("secs",)),
    UnitSpec("minute", D.TIME, "min", ("min", "minutes", "mins"), Decimal(60)),
    UnitSpec("hour", D.TIME, "h", ("h", "hours", "hr", "hrs", "hour"), Decimal(3600)),
    UnitSpec("day", D.TIME, "d", ("days", "d", "day"), Decimal(86400)),
    UnitSpec("byte", D.MEMORY, "B", ("B", "bytes"), Decimal(1)),
    UnitSpec("kilobyte", D.MEMORY, "kB", ("kB", "KB", "kilobytes"), _TEN ** 3),
    UnitSpec("megabyte", D.MEMORY, "MB", ("MB", "megabytes"), _TEN ** 6),
    UnitSpec("gigabyte", D.MEMORY, "GB", ("GB", "gigabytes", "gigabyte", "GByte"), _TEN ** 9),
    UnitSpec("terabyte", D.MEMORY, "TB", ("TB", "terabytes"), _TEN ** 12),
    UnitSpec("kibibyte", D.MEMORY, "KiB", ("KiB",), _TWO ** 10),
    UnitSpec("mebibyte", D.MEMORY, "MiB", ("MiB",), _TWO ** 20),
    UnitSpec("gibibyte", D.MEMORY, "GiB", ("GiB",), _TWO ** 30),
    UnitSpec("tebibyte", D.MEMORY, "TiB", ("TiB",), _TWO ** 40),
    UnitSpec("joule", D.ENERGY, "J", ("J", "joules"), Decimal(1)),
    UnitSpec("kilojoule", D.ENERGY, "kJ", ("kJ",), _TEN ** 3),
    UnitSpec("megajoule", D.ENERGY, "MJ", ("MJ",), _TEN ** 6),
    UnitSpec("watt-hour", D.ENERGY, "Wh", ("Wh",), Decimal(3600)),
    UnitSpec("kilowatt-hour", D.ENERGY, "kWh", ("kWh",), Decimal(3600) * _TEN ** 3),
    UnitSpec("megawatt-hour", D.ENERGY, "MWh", ("MWh",), Decimal(3600) * _TEN ** 6),
    UnitSpec("watt", D.POWER, "W", ("W", "watts"), Decimal(1)),
    UnitSpec("kilowatt", D.POWER, "kW", ("kW",), _TEN ** 3),
    # 'FLOPs' (a count) and 'FLOPS' (a rate, as in 'TFLOPS') are told apart by their last letter's case.
    UnitSpec("flop", D.COMPUTE, "FLOP", ("FLOP", "FLOPs"), Decimal(1), ("floating-point-operations",)),
    UnitSpec("gigaflop", D.COMPUTE, "GFLOP", ("GFLOP", "GFLOPs"), _TEN ** 9),
    UnitSpec("teraflop", D.COMPUTE, "TFLOP", ("TFLOP", "TFLOPs"), _TEN ** 12),
    UnitSpec("petaflop", D.COMPUTE, "PFLOP", ("PFLOP", "PFLOPs"), _TEN ** 15),
    UnitSpec("exaflop", D.COMPUTE, "EFLOP", ("EFLOP", "EFLOPs"), _TEN ** 18),
    UnitSpec("petaflop-day", D.COMPUTE, "PF-days", ("PF-days", "petaflop/s-days", "PF-day"),
             _TEN ** 15 * Decimal(86400)),
    UnitSpec("flop-per-second", D.COMPUTE_RATE, "FLOP/s", ("FLOP/s", "FLOPS"), Decimal(1)),
    UnitSpec("gigaflop-per-second", D.COMPUTE_RATE, "GFLOP/s", ("GFLOP/s", "GFLOPS"), _TEN ** 9),
    UnitSpec("teraflop-per-second", D.COMPUTE_RATE, "TFLOP/s", ("TFLOP/s", "TFLOPS"), _TEN ** 12),
    UnitSpec("petaflop-per-second", D.COMPUTE_RATE, "PFLOP/s", ("PFLOP/s", "PFLOPS"), _TEN ** 15),
)
del D

#: The closed list a result's unit takes: one member per declared unit.
Unit = StrEnum("Unit", {spec.token.upper().replace("-", "_"): spec.token for spec in UNITS.values()})  # type: ignore[misc]
Unit.__doc__ = "The units a result may be in: a closed list (``registry.units.UNITS``), one name per unit."

#: Values that do not come out exact (GiB) are kept to this many decimal places.
DECIMAL_PLACES = 6
_QUANTUM = Decimal(1).scaleb(-DECIMAL_PLACES)


def spec(unit: str) -> UnitSpec:
    """The declaration of ``unit``, or a RegistryError naming the closest unit."""
    try:
        return UNITS[str(unit)]
    except KeyError:
        meant = unit_named(str(unit))
        hint = f"did you mean {meant.value!r}?" if meant else f"the units are: {', '.join(UNITS)}"
        raise RegistryError(f"{str(unit)!r} is not a unit of the registry", hint, found=str(unit)) from None


def symbol(unit: str) -> str:
    """'gigabyte' -> 'GB'; an unknown unit is written out."""
    declared = UNITS.get(str(unit))
    return declared.symbol if declared is not None else str(unit)


def dimension(unit: str) -> Dimension:
    return spec(unit).dimension


def with_unit(value: str, unit: str) -> str:
    """'33.88 GB', '71.3%', '2.4×', '0.681': a value followed by its unit's symbol as pages write it."""
    sym = symbol(unit)
    if not sym:
        return value
    return f"{value}{sym}" if sym in ("%", "×") else f"{value} {sym}"


def printed_forms(unit: str) -> tuple[str, ...]:
    """How papers print ``unit`` (its symbol first), longest first within the declaration's order kept stable."""
    declared = UNITS.get(str(unit))
    if declared is None:
        return ()
    forms = [declared.symbol, *declared.printed] if declared.symbol else list(declared.printed)
    return tuple(dict.fromkeys(f for f in forms if f))


def unit_printed_as(printed: str) -> list[str]:
    """Every unit a page's ``printed`` form can stand for ('GB' -> gigabyte; 'B' -> byte or billion)."""
    text = printed.strip()
    return [token for token in UNITS if text in printed_forms(token)]


#: What a unit_detail says after 'Printed as'.
_PRINTED_AS = re.compile(r"printed as\s+(?P<quote>['\"\u2018\u201c])?(?P<rest>.*)", re.IGNORECASE | re.DOTALL)


@functools.lru_cache(maxsize=4096)  # a registry's unit_details repeat ('Printed as GB'); read each once
def printed_as(unit_detail: str | None) -> str | None:
    """The form 'Printed as <form>' in ``unit_detail`` names: a quoted form whole ("Printed as 'in percent'"), else
    the longest printed form of any unit it starts with ('Printed as sequences per second' -> 'sequences per
    second'), else its first word. Every unit's forms are read, not only the record's own, so that a form of
    another unit is named whole and can be told apart. A record's ``unit_printed`` says it without a sentence."""
    found = _PRINTED_AS.search(unit_detail or "")
    if found is None:
        return None
    rest = found["rest"]
    quoted = re.match(r"([^'\"\u2019\u201d]+)['\"\u2019\u201d]", rest) if found["quote"] else None
    if quoted:  # "Printed as 'in percent'": the quoted form, whole
        return quoted.group(1)
    for form in _every_form():
        if rest.startswith(form) and (len(rest) == len(form) or not rest[len(form)].isalnum()):
            return form
    word = re.match(r"[^'\"\u2019\u201d,;()\s]+", rest)
    return word.group(0) if word else None


@functools.cache
def _every_form() -> tuple[str, ...]:
    """Every printed form of every unit, longest first."""
    return tuple(sorted({form for token in UNITS for form in printed_forms(token)}, key=len, reverse=True))


def other_units_printed_as(form: str, unit: str) -> list[str]:
    """The units other than ``unit`` that pages print as ``form``, where ``unit`` itself is never printed so
    ('ms' for a count -> ['millisecond']; 'B' for a billion -> [], since a billion is printed as 'B' too)."""
    return list(_others_printed_as(form, str(unit)))


@functools.lru_cache(maxsize=4096)  # asked once per result, of a few forms and units
def _others_printed_as(form: str, unit: str) -> tuple[str, ...]:
    if form in printed_forms(unit):
        return ()
    return tuple(token for token in unit_printed_as(form) if token != unit)


def why_several(written: str) -> str | None:
    """Why ``written`` names no one unit where pages print it for several ('B': bytes or billions), else None;
    a curator must say which, whichever command reads it."""
    several = unit_printed_as(written.strip())
    if len(several) < 2:
        return None
    return f"{written.strip()!r} is printed for several units ({', '.join(several)}); write the one meant by its name"


def unit_named(written: str) -> Unit | None:
    """The unit a curator probably meant by ``written`` ('GB', 'Gigabytes', 'seq/s', 'MCC'), or None.

    Printed forms match only as printed: 'gb' and 'Gb' name no unit ('Gb' is a gigabit), and a form two units
    share ('B': bytes or billions) names the first declared; ``unit_printed_as`` lists them all.
    """
    text = written.strip()
    if not text:
        return None
    for token in UNITS:  # printed forms match as printed first: 'Gb' is a gigabit, not a gigabyte
        if text in printed_forms(token):
            return Unit(token)
    lowered = text.lower().replace("_", "-")
    candidates = {lowered, lowered.replace(" ", "-"), lowered.removesuffix("s"),
                  lowered.replace(" ", "-").removesuffix("s")}
    for token, declared in UNITS.items():  # then names, in any case; printed forms only as printed (above)
        if candidates & {token, *(w.lower() for w in declared.words)}:
            return Unit(token)
    close = difflib.get_close_matches(lowered.replace(" ", "-"), list(UNITS), n=1, cutoff=0.75)
    return Unit(close[0]) if close else None


def units_of(dim: Dimension) -> list[str]:
    return [token for token, declared in UNITS.items() if declared.dimension is dim]


def _plain(value: Decimal) -> Decimal:
    """A decimal never in exponent form (30, not 3E+1), exact where it can be."""
    value = value.normalize()
    return value.quantize(Decimal(1)) if value.as_tuple().exponent > 0 else value  # type: ignore[operator]


def gib(value_bytes: int) -> Decimal:
    """Bytes as GiB (2^30 bytes), rounded to ``DECIMAL_PLACES``; ValueError where that needs more than 28 digits."""
    try:
        return (Decimal(value_bytes) / UNITS["gibibyte"].scale).quantize(_QUANTUM)  # type: ignore[operator]
    except InvalidOperation:
        raise ValueError(f"{value_bytes:.3e} bytes is more than the registry computes with exactly") from None


def bytes_in_unit(value_bytes: int, unit: str) -> Decimal:
    """Bytes in ``unit``: exact for the decimal units, ``gib`` for GiB; never in exponent form (30, not 3E+1)."""
    declared = UNITS.get(str(unit))
    if declared is None or declared.dimension is not Dimension.MEMORY:
        memory = [t for t, s in UNITS.items() if s.dimension is Dimension.MEMORY]
        raise RegistryError(f"cannot express a memory peak in unit {str(unit)!r}",
                            f"reproductions compare bytes with results in: {', '.join(memory)}",
                            expected="a memory unit", found=str(unit))
    if declared.token == "gibibyte":
        return gib(value_bytes)
    scale = declared.scale
    assert scale is not None  # every memory unit has one
    value = Decimal(value_bytes) / scale
    if scale.normalize().as_tuple().digits == (1,):  # a power of ten: exact
        return _plain(value)
    return _plain(value) if value == value.to_integral_value() else value.quantize(_QUANTUM)
