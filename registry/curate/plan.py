"""What importing a results table does, as the command shows it: the records it writes and why, the ones it shares,
the rows it leaves alone, and the options it was given.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from registry.curate.precheck import Staged
from registry.curate.table import Table
from registry.issues.report import Issue
from registry.store.batch import Written


class Action(StrEnum):
    NEW = "new"
    REPLACEMENT = "replacement"
    CORRECTION = "correction"
    EVIDENCE = "evidence"



@dataclass(frozen=True)
class ImportOptions:
    """What the command line gives an import besides the table."""

    source: str
    batch: str | None = None
    date: str | None = None
    independence: str | None = None
    review: str | None = None
    reason: str | None = None
    curator: str | None = None
    now: dt.datetime | None = None



@dataclass
class Planned:
    """A record the import writes, why, and the rows it comes from."""

    staged: Staged
    action: Action
    rows: list[int]



@dataclass
class Plan:
    """What importing a table does: the records it writes, the ones it shares, the rows it leaves alone."""

    table: Table
    written: list[Planned] = field(default_factory=list)
    shared: dict[str, list[int]] = field(default_factory=dict)
    """Existing records the rows use, with those rows."""
    unchanged: list[tuple[int, str]] = field(default_factory=list)
    """(row, result id) for each row whose result exists with the same values."""
    withdrawn: list[tuple[int, str]] = field(default_factory=list)
    """(row, result id) for each row whose result was retracted: not filed again."""
    notes: list[str] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    """What validation warns about the new records (they are valid all the same)."""
    batch: Written | None = None
    """What the write did (None for a dry run)."""



#: Called with (what is being done, steps done, steps in all) as an import reads its rows and writes its files.
Steps = Callable[[str, int, int], None]
