"""The validation rule that a result's unit_detail and its unit agree.

A ``unit_detail`` 'Printed as <form>' says how the page prints the value's unit; where that form is
how another unit is printed and never this one ('Printed as ms' on a count, 'Printed as Sequences/s'
on a dimensionless score), one of the two fields is wrong. ``registry review`` checks the same
agreement against the page; this rule catches it without the PDF. Registered on
``registry.rules_registry.record_rules`` (``registry.checks.RULE_MODULES`` lists this module), and reported under
``codes.UNIT_DETAIL_MISMATCH``.
"""

from __future__ import annotations

from registry import codes
from registry.models import Record, Result
from registry.rules_registry import RecordCheck, record_rules
from registry.units import other_units_printed_as, printed_forms


def _unit_detail_agrees(record: Record, check: RecordCheck) -> None:
    """A result whose unit_detail names a printed form only of other units than its own is reported."""
    if not isinstance(record, Result):
        return
    form = record.unit_form
    field = "unit_printed" if record.unit_printed is not None else "unit_detail"
    others = other_units_printed_as(form, record.unit) if form is not None else []
    if not others:
        return
    known = printed_forms(record.unit)
    own = f"is printed as {', '.join(known)}" if known else "is printed without a unit"
    check.add(codes.UNIT_DETAIL_MISMATCH,
              f"{field} says the value is printed as '{form}', which is how {' or '.join(others)} is "
              f"printed, but the unit is {record.unit}, which {own}; make unit the printed unit "
              f"({others[0]}) or correct {field}", (field,))


record_rules.append(_unit_detail_agrees)
