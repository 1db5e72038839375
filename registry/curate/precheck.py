"""Validating records before they are written: the registry's rules, run as if the new files were there.

A new record is checked together with the whole registry (its references, its missing metadata, the
chains it joins, every kind rule), without touching a file: the records are added to a copy of the
loaded registry's index, at the paths they would get, and the whole-registry checks run over it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from registry.issues.report import Report
from registry.models import Record
from registry.store.batch import Progress, Write, Written, write_batch
from registry.store.loader import Registry, load_registry
from registry.store.yamlio import parse_yaml
from registry.validate.runner import check_registry


@dataclass(frozen=True)
class Staged:
    """A record that is about to be written: where, and as what text."""

    record: Record
    path: Path
    text: str


def check_with(registry: Registry, staged: list[Staged], *, now: dt.datetime | None = None) -> Report:
    """The report of the registry with ``staged`` added (the registry itself was valid when loaded)."""
    trial = Registry(root=registry.root, records=dict(registry.records), paths=dict(registry.paths),
                     docs=dict(registry.docs), failed=dict(registry.failed))
    for item in staged:
        trial.records[item.record.id] = item.record
        trial.paths[item.record.id] = item.path
        trial.docs[item.record.id] = parse_yaml(item.text)
    report = Report(files=len(trial.paths), records=len(trial.records))
    return check_registry(trial, report, now=now)


def write_checked(root: Path, staged: list[Staged], *, rejected: Callable[[Report], Exception],
                  now: dt.datetime | None = None, progress: Progress | None = None) -> Written:
    """Write ``staged`` as one batch, checked once more, under the batch lock, against the records as they are then.

    A writer checks its records against the registry it loaded, but another writer may put files in
    place between that load and this write (a correction of the same record, its retraction). The
    lock makes writers take turns; checking again once it is held means the second of two writers
    that loaded the same registry sees what the first wrote, and is refused (``rejected`` makes the
    error from the report) rather than leave the registry invalid. Nothing is written then.
    """

    def still_valid() -> None:
        fresh, loaded = load_registry(root)
        report = check_with(fresh, staged, now=now)
        report.issues[:0] = loaded.errors  # a file someone else broke since the load
        if not report.valid:
            raise rejected(report)

    return write_batch(root, [Write(item.path, item.text) for item in staged], progress=progress, check=still_valid)
