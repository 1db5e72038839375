"""The records as they are now, for a database update, from the incremental index: no unchanged record is loaded.

An update needs the report (the registry must be valid, exactly as a cold run would say) and, for
each record, its id, file and content digest, to compare with the database's manifest
(``registry.db.update.plan``); then it reads only the records that changed. The incremental index
(``registry.validate.incremental_index``) holds all of that for every file. It comes from a running
``registry watch``, which holds it in memory and answers at once, or else from an incremental run in
this process, which keeps the index and the report for the next run as ``registry validate`` does.

A record read for the update must hold the content the report was made from: a file changed since is
``NotUpdatable`` (the build is then a full one, which validates again).
"""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

from registry.db.manifest import Folders
from registry.db.update import Current, EveryRecordNeeded, NotUpdatable
from registry.errors import InvalidRegistryError
from registry.models.unit import UnitRecord
from registry.store.loader import Registry
from registry.units import use
from registry.validate.report import Report


def records_now(root: Path) -> Current:
    """The records under ``root`` as an update reads them; ``InvalidRegistryError`` where they are not valid."""
    from registry.store.cache import refusal
    from registry.validate import memo

    now = memo.now()
    refused = refusal()
    if refused is not None:  # the run below then keeps nothing and reads every file
        from registry.cli._errors import err_console

        err_console.print(f"Not using the cache: {refused}. Every file is read.", soft_wrap=True)
    answered = _from_watcher(root, now)
    report, folders = answered or _from_run(root, now)
    if not report.valid:
        raise InvalidRegistryError(report)
    count = sum(len(digests) // 16 for _, digests in folders.values())  # a valid registry: a record a file
    return Current(root, count, lambda: folders, lambda wanted: _loaded(root, wanted),
                   "by the watcher" if answered else "incrementally")


def _from_watcher(root: Path, now: dt.datetime) -> tuple[Report, Folders] | None:
    """The report and the records from a running watcher of ``root`` (None: none answers, or it failed)."""
    from registry.watch import client

    answered, why = client.records(root, now)
    if answered is None and why is not None:
        from registry.cli._errors import err_console

        err_console.print(f"The watcher of {root} could not answer ({why}); validating without it.")
    return answered


def _from_run(root: Path, now: dt.datetime) -> tuple[Report, Folders]:
    """The report and the records from an incremental run in this process; the index and the report kept for
    the next run, as ``registry validate`` keeps them."""
    from registry.validate import incremental, memo

    started = time.time_ns()
    listing: list[memo.Folder] = []
    tree = memo.tree_state(root, listing)  # before the run: a file changed during it makes the kept report stale
    report, index = incremental.validated(root, now, listing, started=started)
    memo.keep(root, tree, now, report)
    return report, index["files"].folder_digests() if report.valid else {}


def _loaded(root: Path, wanted: dict[str, tuple[str, bytes | None]]) -> Registry:
    """A registry of the records ``wanted`` (id: (path below ``root``, '/' between folders; digest)), each read
    from its file and typed; the file must still hold that digest and that record."""
    from registry.store.loader import _load_file
    from registry.store.reading import documents

    registry = Registry(root=root)
    report = Report()
    found = sorted((tuple(path.split("/")), str(root.joinpath(*path.split("/")))) for path, _ in wanted.values())
    for path, doc in documents(found, None, inside=root):
        _load_file(path, doc, registry, report)
    for record_id, (_, digest) in wanted.items():
        typed = registry.docs.get(record_id)
        if record_id not in registry.records or typed is None or typed.digest != digest:
            raise NotUpdatable("a record file changed while the build ran")
    if registry.of_kind(UnitRecord):
        raise EveryRecordNeeded("a unit record was added or changed")  # every record's rows may read the units
    use(registry.units)
    return registry
