"""The records as they are now, for a database update, from the incremental index: no unchanged record is loaded.

An update needs the report (the registry must be valid, exactly as a cold run would say) and, for
each record, its id, file and content digest, to compare with the database's manifest
(``registry.db.update.plan``); then it reads only the records that changed. The incremental index
(``registry.validate.incremental.index``) holds all of that for every file. ``registry.validation`` decides where it
comes from, as for ``registry validate``: a running ``registry watch``, which holds it in memory and answers at once,
or else an incremental run in this process, which keeps the index and the report for the next run.

A record read for the update must hold the content the report was made from: a file changed since is
``NotUpdatable`` (the build is then a full one, which validates again).
"""

from __future__ import annotations

from pathlib import Path

from registry.db.update import Current, EveryRecordNeeded, NotUpdatable
from registry.errors import InvalidRegistryError
from registry.issues.report import Report
from registry.models.unit import UnitRecord
from registry.store.loader import Registry
from registry.units import use


def records_now(root: Path) -> Current:
    """The records under ``root`` as an update reads them; ``InvalidRegistryError`` where they are not valid."""
    from registry.validation import validation

    made = validation(root, files=True)
    if not made.report.valid:
        raise InvalidRegistryError(made.report)
    folders = made.folders or {}
    count = sum(len(digests) // 16 for _, digests in folders.values())  # a valid registry: a record a file
    return Current(root, count, lambda: folders, lambda wanted: _loaded(root, wanted), made.way.value,
                   made.watcher_failed, made.cache_refused)


def _loaded(root: Path, wanted: dict[str, tuple[str, bytes | None]]) -> Registry:
    """A registry of the records ``wanted`` (id: (path below ``root``, '/' between folders; digest)), each read
    from its file and typed; the file must still hold that digest and that record."""
    from registry.store.loader import _load_file
    from registry.store.reading import documents

    registry = Registry(root=root)
    report = Report()
    found = sorted((tuple(path.split("/")), str(root.joinpath(*path.split("/")))) for path, _ in wanted.values())
    for path, doc in documents(found, None, inside=root, typed=True):  # typed in workers where there are many
        _load_file(path, doc, registry, report)
    for record_id, (_, digest) in wanted.items():
        typed = registry.docs.get(record_id)
        if record_id not in registry.records or typed is None or typed.digest != digest:
            raise NotUpdatable("a record file changed while the build ran")
    if registry.of_kind(UnitRecord):
        raise EveryRecordNeeded("a unit record was added or changed")  # every record's rows may read the units
    use(registry.units)
    return registry
