"""Units of printed results, declared once: token, dimension, how pages print it, and its scale.

One table, so that a value is never shown in one unit and labelled with another, and so that
validation, display, the database and ``registry review`` all read the same facts: the symbol a page
shows, the forms a source check looks for, and exact conversion within a dimension come from it.
The built-in units are declared here (``UNITS``); a registry extends them with its own unit records
(``records/unit/``, ``registry.models.unit``), and ``UnitTable`` is the lookup that knows both.

A unit's *scale* is how many of its dimension's base unit one of it holds (a gigabyte holds
10^9 bytes); units of one dimension without a scale (items, samples, tokens per second) are
never converted into one another.
"""

from __future__ import annotations

import contextlib
import difflib
import re
from collections.abc import Iterator
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

#: The built-in units as a closed list (a hardware entry's memory takes one); a result's unit is a token of
#: its registry's table (``UnitTable``), which holds these and the registry's own unit records.
Unit = StrEnum("Unit", {spec.token.upper().replace("-", "_"): spec.token for spec in UNITS.values()})  # type: ignore[misc]
Unit.__doc__ = "The built-in units: a closed list (``registry.units.UNITS``), one name per unit."

#: What a unit's token looks like (the JSON Schema's pattern for a result's unit): lowercase words and hyphens.
TOKEN_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"

#: Values that do not come out exact (GiB) are kept to this many decimal places.
DECIMAL_PLACES = 6
_QUANTUM = Decimal(1).scaleb(-DECIMAL_PLACES)


class UnitTable:
    """Every unit one registry knows: the built-in ones (``UNITS``) and those its unit records declare.

    The one lookup of a unit's symbol, dimension, scale and printed forms: validation, review, import,
    ``registry new``, pages, the database and exports all ask a table, so that a registry's own unit
    (``records/unit/...``: 'img/s') is read wherever a built-in one is. Answers that cost a scan of every
    unit (which units print a form) are kept per table.
    """

    def __init__(self, specs: dict[str, UnitSpec]) -> None:
        self.specs = specs
        self._forms: dict[str, tuple[str, ...]] = {}
        self._printed_as: dict[str, list[str]] | None = None
        self._others: dict[tuple[str, str], tuple[str, ...]] = {}
        self._details: dict[str | None, str | None] = {}
        self._every: tuple[str, ...] | None = None

    def extended(self, specs: list[UnitSpec]) -> UnitTable:
        """This table with ``specs`` added after its own (a registry's unit records after the built-in ones)."""
        return UnitTable({**self.specs, **{declared.token: declared for declared in specs}})

    def __contains__(self, unit: object) -> bool:
        return str(unit) in self.specs

    def __iter__(self) -> Iterator[str]:
        return iter(self.specs)

    def get(self, unit: str) -> UnitSpec | None:
        return self.specs.get(str(unit))

    def spec(self, unit: str) -> UnitSpec:
        """The declaration of ``unit``, or a RegistryError naming the closest unit."""
        try:
            return self.specs[str(unit)]
        except KeyError:
            meant = self.unit_named(str(unit))
            hint = f"did you mean {meant!r}?" if meant else f"the units are: {', '.join(self.specs)}"
            raise RegistryError(f"{str(unit)!r} is not a unit of the registry", hint, found=str(unit)) from None

    def factor(self, unit: str) -> Decimal | None:
        """How many of its dimension's base unit one ``unit`` holds; None where it converts to no other unit."""
        return self.spec(unit).scale

    def symbol(self, unit: str) -> str:
        """'gigabyte' -> 'GB'; an unknown unit is written out."""
        declared = self.specs.get(str(unit))
        return declared.symbol if declared is not None else str(unit)

    def with_unit(self, value: str, unit: str) -> str:
        """'33.88 GB', '71.3%', '2.4×', '0.681': a value followed by its unit's symbol as pages write it."""
        sym = self.symbol(unit)
        if not sym:
            return value
        return f"{value}{sym}" if sym in ("%", "×") else f"{value} {sym}"

    def printed_forms(self, unit: str) -> tuple[str, ...]:
        """How papers print ``unit`` (its symbol first), in the declaration's order."""
        unit = str(unit)
        forms = self._forms.get(unit)
        if forms is None:
            declared = self.specs.get(unit)
            if declared is None:
                return ()
            written = [declared.symbol, *declared.printed] if declared.symbol else list(declared.printed)
            forms = self._forms[unit] = tuple(dict.fromkeys(f for f in written if f))
        return forms

    def unit_printed_as(self, printed: str) -> list[str]:
        """Every unit a page's ``printed`` form can stand for ('GB' -> gigabyte; 'B' -> byte or billion)."""
        if self._printed_as is None:
            index: dict[str, list[str]] = {}
            for token in self.specs:
                for form in self.printed_forms(token):
                    index.setdefault(form, []).append(token)
            self._printed_as = index
        return list(self._printed_as.get(printed.strip(), ()))

    def every_form(self) -> tuple[str, ...]:
        """Every printed form of every unit, longest first."""
        if self._every is None:
            self._every = tuple(sorted({f for token in self.specs for f in self.printed_forms(token)}, key=len,
                                       reverse=True))
        return self._every

    def own_form_in(self, form: str, unit: str) -> str | None:
        """The form of ``unit`` that a longer phrase names ('percent' of 'in percent', which older records quote
        whole in unit_detail), where ``form`` is not itself one of the unit's forms; None otherwise. The longest
        form printed in it as a word, of the unit's own only: a phrase that names another unit's is none."""
        own = self.printed_forms(str(unit))
        if form in own:
            return None
        inside = [f for f in sorted(own, key=len, reverse=True)
                  if re.search(rf"(?<![^\W_]){re.escape(f)}(?![^\W_])", form)]
        others = [f for f in self.every_form() if f not in own and len(f) > 1
                  and re.search(rf"(?<![^\W_]){re.escape(f)}(?![^\W_])", form)]
        return inside[0] if inside and not others else None

    def printed_as(self, unit_detail: str | None) -> str | None:
        """The form a unit_detail's 'Printed as <form>' names (see the module function ``printed_as``)."""
        if unit_detail not in self._details:
            self._details[unit_detail] = _printed_as(unit_detail, self.every_form())
        return self._details[unit_detail]

    def other_units_printed_as(self, form: str, unit: str) -> list[str]:
        """The units other than ``unit`` that pages print as ``form``, where ``unit`` itself is never printed so
        ('ms' for a count -> ['millisecond']; 'B' for a billion -> [], since a billion is printed as 'B' too)."""
        key = (form, str(unit))
        if key not in self._others:
            self._others[key] = () if form in self.printed_forms(str(unit)) else tuple(
                token for token in self.unit_printed_as(form) if token != str(unit))
        return list(self._others[key])

    def why_several(self, written: str) -> str | None:
        """Why ``written`` names no one unit where pages print it for several ('B': bytes or billions), else None;
        a curator must say which, whichever command reads it."""
        several = self.unit_printed_as(written.strip())
        if len(several) < 2:
            return None
        return (f"{written.strip()!r} is printed for several units ({', '.join(several)}); write the one meant by "
                "its name")

    def unit_named(self, written: str) -> str | None:
        """The unit a curator probably meant by ``written`` ('GB', 'Gigabytes', 'seq/s', 'MCC'), or None.

        Printed forms match only as printed: 'gb' and 'Gb' name no unit ('Gb' is a gigabit), and a form two units
        share ('B': bytes or billions) names the first declared; ``unit_printed_as`` lists them all.
        """
        text = written.strip()
        if not text:
            return None
        printed = self.unit_printed_as(text)  # printed forms match as printed first: 'Gb' is a gigabit
        if printed:
            return printed[0]
        lowered = text.lower().replace("_", "-")
        candidates = {lowered, lowered.replace(" ", "-"), lowered.removesuffix("s"),
                      lowered.replace(" ", "-").removesuffix("s")}
        for token, declared in self.specs.items():  # then names, in any case
            if candidates & {token, *(w.lower() for w in declared.words)}:
                return token
        close = difflib.get_close_matches(lowered.replace(" ", "-"), list(self.specs), n=1, cutoff=0.75)
        return close[0] if close else None

    def closest(self, written: str, n: int = 3) -> list[str]:
        """Up to ``n`` units nearest to ``written``: the one it names first, then those spelled alike."""
        named = self.unit_named(written)
        alike = difflib.get_close_matches(written.strip().lower(), list(self.specs), n=n, cutoff=0.5)
        return list(dict.fromkeys([*([named] if named else []), *alike]))[:n]

    def units_of(self, dim: Dimension) -> list[str]:
        return [token for token, declared in self.specs.items() if declared.dimension is dim]


#: The built-in units alone: the table of a registry without unit records.
BUILT_IN = UnitTable(UNITS)

#: The units in effect, for every thread of the process alike (a worker thread of a command reads the same units).
_ACTIVE: list[UnitTable] = [BUILT_IN]


def table() -> UnitTable:
    """The units in effect: those of the registry loaded last (``registry.store.loader.load_registry`` puts them in
    effect), else the built-in ones. Readers given no registry (a page's symbol, a cell's printed unit, the
    reading of a printed number) ask it; those given one may ask ``Registry.units`` directly, the same table."""
    return _ACTIVE[0]


def use(units: UnitTable) -> None:
    """Put ``units`` in effect (see ``table``)."""
    _ACTIVE[0] = units


@contextlib.contextmanager
def using(units: UnitTable) -> Iterator[UnitTable]:
    """Put ``units`` in effect for a block (a test, a command over a registry not loaded last)."""
    before = _ACTIVE[0]
    _ACTIVE[0] = units
    try:
        yield units
    finally:
        _ACTIVE[0] = before


def factor(unit: str, units: UnitTable | None = None) -> Decimal | None:
    """How many of its dimension's base unit one ``unit`` holds in ``units`` (default: the units in effect);
    None where it converts to no other unit. A stable entry point for derived arithmetic's scaling."""
    return (units or table()).factor(unit)


def spec(unit: str) -> UnitSpec:
    """The declaration of ``unit``, or a RegistryError naming the closest unit."""
    return table().spec(unit)


def symbol(unit: str) -> str:
    """'gigabyte' -> 'GB'; an unknown unit is written out."""
    return table().symbol(unit)


def dimension(unit: str) -> Dimension:
    return table().spec(unit).dimension


def with_unit(value: str, unit: str) -> str:
    """'33.88 GB', '71.3%', '2.4×', '0.681': a value followed by its unit's symbol as pages write it."""
    return table().with_unit(value, unit)


def printed_forms(unit: str) -> tuple[str, ...]:
    """How papers print ``unit`` (its symbol first), in the declaration's order."""
    return table().printed_forms(unit)


def unit_printed_as(printed: str) -> list[str]:
    """Every unit a page's ``printed`` form can stand for ('GB' -> gigabyte; 'B' -> byte or billion)."""
    return table().unit_printed_as(printed)


#: What a unit_detail says after 'Printed as'.
_PRINTED_AS = re.compile(r"printed as\s+(?P<quote>['\"\u2018\u201c])?(?P<rest>.*)", re.IGNORECASE | re.DOTALL)


def printed_as(unit_detail: str | None) -> str | None:
    """The form 'Printed as <form>' in ``unit_detail`` names: a quoted form whole ("Printed as 'in percent'"), else
    the longest printed form of any unit it starts with ('Printed as sequences per second' -> 'sequences per
    second'), else its first word. Every unit's forms are read, not only the record's own, so that a form of
    another unit is named whole and can be told apart. A record's ``unit_printed`` says it without a sentence."""
    return table().printed_as(unit_detail)


def _printed_as(unit_detail: str | None, every_form: tuple[str, ...]) -> str | None:
    found = _PRINTED_AS.search(unit_detail or "")
    if found is None:
        return None
    rest = found["rest"]
    quoted = re.match(r"([^'\"\u2019\u201d]+)['\"\u2019\u201d]", rest) if found["quote"] else None
    if quoted:  # "Printed as 'in percent'": the quoted form, whole
        return quoted.group(1)
    for form in every_form:
        if rest.startswith(form) and (len(rest) == len(form) or not rest[len(form)].isalnum()):
            return form
    word = re.match(r"[^'\"\u2019\u201d,;()\s]+", rest)
    return word.group(0) if word else None


def own_form_in(form: str, unit: str) -> str | None:
    """The form of ``unit`` a longer phrase names ('in percent' -> 'percent'), else None."""
    return table().own_form_in(form, unit)


def other_units_printed_as(form: str, unit: str) -> list[str]:
    """The units other than ``unit`` that pages print as ``form``, where ``unit`` itself is never printed so."""
    return table().other_units_printed_as(form, unit)


def why_several(written: str) -> str | None:
    """Why ``written`` names no one unit where pages print it for several ('B': bytes or billions), else None."""
    return table().why_several(written)


def unit_named(written: str) -> str | None:
    """The unit a curator probably meant by ``written`` ('GB', 'Gigabytes', 'seq/s', 'MCC'), or None."""
    return table().unit_named(written)


def units_of(dim: Dimension) -> list[str]:
    return table().units_of(dim)


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
    declared = table().get(str(unit))
    if declared is None or declared.dimension is not Dimension.MEMORY:
        memory = table().units_of(Dimension.MEMORY)
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
