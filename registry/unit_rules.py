"""The validation rules of units: unit records that fit the table, results in a known unit, unit_detail agreeing.

A registry's unit records extend the built-in units (``registry.models.unit.accept`` says which fit);
a result's ``unit`` is a token that must name one of them (a cross-reference like any other); and a
``unit_detail`` 'Printed as <form>' must not name a form only other units are printed as
('Printed as ms' on a count). ``registry review`` checks the last against the page; this rule catches
it without the PDF. Registered on ``registry.checks.registry_rules``, which imports this module.
"""

from __future__ import annotations

from registry import codes
from registry.checks import registry_rules
from registry.loader import Registry
from registry.models import Result
from registry.models.unit import UnitRecord, accept
from registry.report import Report


def _unit_records_fit(registry: Registry, report: Report) -> None:
    """Each unit record whose token is taken, or whose printed form a unit of another dimension has, is reported
    (and left out of the registry's units)."""
    _, refused = accept(r for r in registry.records.values() if isinstance(r, UnitRecord))
    for refusal in refused:
        code = codes.UNIT_TOKEN_TAKEN if refusal.taken else codes.UNIT_FORM_CLAIMED
        record_id = refusal.record.id
        report.add(code.issue(registry.relpath(record_id), registry.line_of(record_id, refusal.path),
                              refusal.message, record_id=record_id, field=".".join(map(str, refusal.path))))


def _units_are_known(registry: Registry, report: Report) -> None:
    """Each result whose unit is neither built in nor declared by a unit record of the registry is reported, with
    the closest units and how to declare one."""
    units = registry.units
    for record in registry.records.values():
        if not isinstance(record, Result) or record.unit in units:
            continue
        close = units.closest(record.unit)
        meant = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
        report.add(codes.UNKNOWN_UNIT.issue(
            registry.relpath(record.id), registry.line_of(record.id, ("unit",)), record_id=record.id, field="unit",
            message=f"unit {record.unit!r} is neither a built-in unit nor declared by a unit record; {meant}A unit "
                    f"of your own is a record records/unit/<id>.yaml (kind: unit, token: {record.unit}, name, "
                    "symbol, dimension, factor, printed)"))


def _unit_detail_agrees(registry: Registry, report: Report) -> None:
    """Each result whose unit_detail names a printed form only of other units than its own is reported."""
    units = registry.units
    for record in registry.records.values():
        if not isinstance(record, Result) or record.unit not in units:
            continue
        form = record.unit_printed if record.unit_printed is not None else units.printed_as(record.unit_detail)
        field = "unit_printed" if record.unit_printed is not None else "unit_detail"
        others = units.other_units_printed_as(form, record.unit) if form is not None else []
        if not others:
            continue
        known = units.printed_forms(record.unit)
        own = f"is printed as {', '.join(known)}" if known else "is printed without a unit"
        report.add(codes.UNIT_DETAIL_MISMATCH.issue(
            registry.relpath(record.id), registry.line_of(record.id, (field,)), record_id=record.id,
            field=field,
            message=f"{field} says the value is printed as '{form}', which is how {' or '.join(others)} is "
                    f"printed, but the unit is {record.unit}, which {own}; make unit the printed unit "
                    f"({others[0]}) or correct {field}"))


registry_rules.extend([_unit_records_fit, _units_are_known, _unit_detail_agrees])
