"""The ``unit`` kind: a unit a registry declares beside the built-in ones (``registry.units.UNITS``).

A paper may print a unit the built-in table lacks ('img/s'); a curator adds it as a record
(``records/unit/<id>.yaml``) instead of changing the code, and every reader of units (validation,
review, import, ``registry new``, pages, the database, exports) finds it through the registry's
``UnitTable``. The whole-registry rules (``registry.validate.rules.units``) refuse a unit whose token is taken or
whose printed form another unit of another dimension claims.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, field_validator

from registry.models.base import Record, Sql, Text
from registry.units import TOKEN_PATTERN, Dimension, UnitSpec

#: A unit's token as a result's ``unit`` names it: built-in or declared by a unit record.
UnitToken = Annotated[
    str,
    StringConstraints(pattern=TOKEN_PATTERN, max_length=80),
    Field(description="A unit's token: lowercase words joined by hyphens (for example 'gigabyte' or "
          "'images-per-second'). Any well-formed token passes this schema; the registry's checks then require a "
          "built-in unit (registry.units) or one a unit record of the registry declares (code 'unknown-unit')."),
]


class UnitRecord(Record):
    """A unit the registry declares beside the built-in ones: its token, dimension, scale and printed forms."""

    kind: Literal["unit"]
    token: Annotated[UnitToken, Sql(index=True)] = Field(
        description="The name results give in 'unit' (for example 'images-per-second'); no built-in unit or other "
        "unit record may have it.")
    name: Text = Field(description="What the unit is, in words (for example 'images per second').")
    symbol: str = Field(description="How the registry's pages write it after a value (for example 'img/s'); '' "
                        "for none.")
    dimension: Dimension = Field(description="What kind of quantity it measures (one of registry.units.Dimension); "
                                 "a query never averages across two.")
    factor: Decimal | None = Field(
        None, description="How many of its dimension's base unit (the built-in unit of factor 1: byte, second, "
        "joule, ...) one of it holds, as an exact decimal written as text (for example '1000000000000000' for a "
        "petabyte). Empty: it converts to no other unit (throughput of other items).")
    printed: Annotated[list[Text], Sql(singular="printed_form")] = Field(
        default_factory=list, description="How papers print it after a value, exactly as printed (case matters: "
        "'img/s', 'images/s'); no unit of another dimension may be printed the same way.")
    words: Annotated[list[Text], Sql(singular="word")] = Field(
        default_factory=list, description="Other names a curator may type for it (for the 'did you mean' of a "
        "mistaken unit).")
    note: Text | None = Field(None, description="Where the unit is printed, or anything else a reader should know.")

    @classmethod
    def sql_name(cls) -> str:
        """'unit_record': the database's ``unit`` table lists every unit, built-in ones and these alike."""
        return "unit_record"

    @field_validator("factor", mode="before")
    @classmethod
    def _exact_factor(cls, value: object) -> object:
        if isinstance(value, float):
            raise ValueError(f"factor is a YAML float, which cannot hold decimals exactly; quote it: factor: "
                             f"'{value!r}'")
        return value

    @field_validator("factor")
    @classmethod
    def _positive_factor(cls, value: Decimal | None) -> Decimal | None:
        if value is not None and not value > 0:
            raise ValueError(f"factor must be more than 0 (how many of the dimension's base unit one of this unit "
                             f"holds), not {value}; leave it out where the unit converts to no other")
        return value

    def spec(self) -> UnitSpec:
        """The unit as the table of units holds it."""
        return UnitSpec(self.token, self.dimension, self.symbol, tuple(self.printed), self.factor, tuple(self.words))


@dataclass(frozen=True)
class Refusal:
    """Why a unit record is left out of its registry's table of units: which field, and what is wrong."""

    record: UnitRecord
    path: tuple[str] | tuple[str, int]
    taken: bool
    """True: its token is taken; False: one of its printed forms is a unit's of another dimension."""
    message: str


def accept(records: Iterable[UnitRecord]) -> tuple[list[UnitRecord], list[Refusal]]:
    """The unit records that extend the built-in table (in id order), and why each of the others does not.

    A record is refused where its token is a built-in unit's or an earlier record's, or where a form it is
    printed as is already how a unit of another dimension is printed ('B' for a record of throughput): a
    page's form must keep one dimension, or a review could not tell what a cell's '12 B' measures.
    """
    from registry.units import BUILT_IN

    accepted: list[UnitRecord] = []
    refused: list[Refusal] = []
    units = BUILT_IN
    for record in sorted(records, key=lambda r: r.id):
        owner = next((r.id for r in accepted if r.token == record.token), None)
        if record.token in units:
            whose = f"unit record {owner}" if owner else "a built-in unit (registry/units.py)"
            refused.append(Refusal(record, ("token",), True, f"token {record.token!r} is already taken by {whose}; "
                                   "give this unit another token, or remove the record and use that unit"))
            continue
        forms: list[tuple[tuple[str] | tuple[str, int], str]] = [(("symbol",), record.symbol)] if record.symbol else []
        forms += [(("printed", i), form) for i, form in enumerate(record.printed)]
        clash = next(((path, form, other) for path, form in forms for other in units.unit_printed_as(form)
                      if units.spec(other).dimension is not record.dimension), None)
        if clash is not None:
            path, form, other = clash
            refused.append(Refusal(record, path, False, (
                f"{path[0]} {form!r} is already how {other} ({units.spec(other).dimension.value}) is printed, and "
                f"this unit is {record.dimension.value}; a printed form names one dimension: remove it, or write "
                "the form as the source prints it where that tells the two apart")))
            continue
        accepted.append(record)
        units = units.extended([record.spec()])
    return accepted, refused
