"""Where validation rules are registered: a leaf that the rule modules and the runner both import.

A kind's own rules register on ``kind_rules`` for its model class (``@kind_rules.register``), so a
new kind adds rules without a dispatch chain; rules every record obeys append to ``record_rules``,
rules over the records folder as a whole to ``registry_rules``. The runner (``registry.validate.runner``)
imports the rule modules from one list, ``RULE_MODULES`` there, as datasette registers its default
plugins; no rule module imports the runner back.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from registry.issues.codes import Code
    from registry.issues.report import Report
    from registry.models import Record
    from registry.store.loader import Registry


class RecordCheck(Protocol):
    """What a kind's rule is given: the registry, the record being checked, now, and a way to report on it."""

    registry: Registry
    record: Record
    now: dt.datetime
    today: str
    """Today in UTC as an id writes it (``yyyymmdd``), compared as text."""
    root_parts: tuple[str, ...]
    """The records folder's path, in parts (a record's file lies two parts below)."""

    def add(self, code: Code, message: str, field: tuple[str | int, ...] = ()) -> None: ...

    def suggest(self, value: str, kinds: list[str]) -> str | None:
        """'Did you mean': the id of one of ``kinds`` closest to ``value``, or None."""
        ...

    def wait_for(self, value: str) -> None:
        """Leave a reference to ``value``, a record that did not load, to be checked once that record loads."""
        ...


@functools.singledispatch
def kind_rules(record: Record, check: RecordCheck) -> None:
    """The rules of a record's own kind (registered per model class); most kinds have none."""


#: Rules every record obeys, whatever its kind (each tells the kinds it checks apart itself). What one finds about
#: a record depends only on it and on what it looks up in the registry, which is what lets
#: ``registry.validate.incremental`` keep it.
record_rules: list[Callable[[Record, RecordCheck], None]] = []

#: Rules over the records folder as a whole rather than one record: they run in full on every run, incremental
#: or not.
registry_rules: list[Callable[[Registry, Report], None]] = []
