"""The validation rules of units: unit records that fit the table, results in a known unit, unit_detail agreeing.

A registry's unit records extend the built-in units (``registry.models.unit.accept`` says which fit);
a result's ``unit`` is a token that must name one of them (a cross-reference like any other); and a
``unit_detail`` 'Printed as <form>' must not name a form only other units are printed as
('Printed as ms' on a count). ``registry review`` checks the last against the page; this rule catches
it without the PDF. The first is a unit record's kind rule, the other two rules every record obeys
(``registry.validate.rules_registry.record_rules``), so that ``registry.validate.incremental`` keeps them per record;
``registry.validate.runner.RULE_MODULES`` lists this module.
"""

from __future__ import annotations

from registry.issues import codes
from registry.models import Record, Result
from registry.models.unit import UnitRecord, accept
from registry.units import UnitTable
from registry.validate.rules_registry import RecordCheck, kind_rules, record_rules


@kind_rules.register
def _unit_record_fits(record: UnitRecord, check: RecordCheck) -> None:
    """A unit record whose token is taken, or whose printed form a unit of another dimension has, is reported
    (and left out of the registry's units); which of two clashing records is refused is decided over all the
    unit records, in id order."""
    _, refused = accept(check.registry.of_kind(UnitRecord))
    for refusal in refused:
        if refusal.record.id == record.id:
            code = codes.UNIT_TOKEN_TAKEN if refusal.taken else codes.UNIT_FORM_CLAIMED
            check.add(code, refusal.message, tuple(refusal.path))


def _unit_is_known(record: Record, check: RecordCheck) -> None:
    """A result whose unit is neither built in nor declared by a unit record of the registry is reported, with
    the closest units and how to declare one."""
    if not isinstance(record, Result):
        return
    units = check.registry.units
    if record.unit in units:
        return
    close = units.closest(record.unit)
    meant = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    check.add(codes.UNKNOWN_UNIT,
              f"unit {record.unit!r} is neither a built-in unit nor declared by a unit record; {meant}A unit "
              f"of your own is a record records/unit/<id>.yaml (kind: unit, token: {record.unit}, name, "
              "symbol, dimension, factor, printed)", ("unit",))


def _unit_detail_agrees(record: Record, check: RecordCheck) -> None:
    """A result whose unit_detail names a printed form only of other units than its own is reported."""
    if not isinstance(record, Result):
        return
    units = check.registry.units
    if record.unit not in units:
        return
    form = record.unit_printed if record.unit_printed is not None else units.printed_as(record.unit_detail)
    field = "unit_printed" if record.unit_printed is not None else "unit_detail"
    others = units.other_units_printed_as(form, record.unit) if form is not None else []
    if not others:
        return
    known = units.printed_forms(record.unit)
    own = f"is printed as {', '.join(known)}" if known else "is printed without a unit"
    check.add(codes.UNIT_DETAIL_MISMATCH,
              f"{field} says the value is printed as '{form}', which is how {' or '.join(others)} is "
              f"printed, but the unit is {record.unit}, which {own}; make unit the printed unit "
              f"({others[0]}) or correct {field}", (field,))


def _unit_detail_old_form(record: Record, check: RecordCheck) -> None:
    """A result whose unit_detail quotes a phrase holding its unit's form ("Printed as 'in percent'") and that has no
    unit_printed is told to run the formatter, which writes the form as unit_printed (``upgraded_unit``)."""
    if not isinstance(record, Result) or record.unit not in check.registry.units:
        return
    own = upgraded_unit(record, check.registry.units)
    if own is not None:
        check.add(codes.UNIT_DETAIL_OLD_FORM,
                  f"unit_detail says the value is printed as '{record.unit_form}', a phrase older records quote "
                  f"whole; the unit's own form in it is '{own}': run 'registry fmt' to write unit_printed: {own} (the "
                  "sentence is kept)", ("unit_detail",))


def upgraded_unit(record: Result, units: UnitTable) -> str | None:
    """The unit_printed an older record's unit_detail sentence names ('percent' of "Printed as 'in percent'"), where
    the record has none and the sentence's form is a phrase holding the unit's own form; None otherwise."""
    if record.unit_printed is not None:
        return None
    form = units.printed_as(record.unit_detail)
    return units.own_form_in(form, record.unit) if form is not None else None


record_rules.extend([_unit_is_known, _unit_detail_agrees, _unit_detail_old_form])
