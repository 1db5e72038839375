"""The registry as an incremental run's checks see it: every fact they read is noted, records read on demand.

A record's kept findings stay valid while every fact its check read is as it was; this registry notes
each one (a record looked up, the records naming one, the list of ids, whether a kind is held, the whole
registry) as the checks ask, and brings a record in from its file only when first asked for. It asks
the run it belongs to (``RunView``: ``registry.validate.incremental.view.IndexView``) what the index holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

from registry.models import KIND_MODELS, Record
from registry.models.fields import references_in
from registry.models.unit import UnitRecord
from registry.store.loader import R, Registry
from registry.units import BUILT_IN, UnitTable
from registry.validate import runner as checks
from registry.validate.incremental.index import (
    FACT_ID_LIST,
    FACT_KINDS_HELD,
    FACT_WHOLE_REGISTRY,
    RecordEntries,
    Unsure,
    record_fact,
    referrers_fact,
)

#: The kind of a unit record (``registry.models.unit``), whose units every result's checks read.
UNIT_KIND = UnitRecord.kind_token


class RunView(Protocol):
    """What the tracked registry asks of the run it belongs to, from the index."""

    entries: RecordEntries

    def order(self, record_id: str) -> str: ...

    def kinds(self) -> set[str]: ...

    def ids(self, kinds: tuple[str, ...] | None) -> list[str]: ...

    def linking(self, record_id: str) -> list[str]: ...


class Reads:
    """The facts the record being checked has read through the registry (none while no record is checked)."""

    def __init__(self) -> None:
        self.keys: set[str] | None = None
        self.asked: set[str] = set()

    def start(self, record_id: str) -> None:
        self.keys, self.asked = {record_fact(record_id)}, set()

    def stop(self) -> tuple[set[str], set[str]]:
        read, asked = self.keys or set(), self.asked
        self.keys, self.asked = None, set()
        return read, asked

    def add(self, key: str) -> None:
        if self.keys is not None:
            self.keys.add(key)


_ABSENT: Any = object()


class _Lookups(dict):  # type: ignore[type-arg]
    """A mapping by id that notes each id looked up, and brings a record in from its file when first asked for."""

    def __init__(self, reads: Reads, load: Callable[[str], bool], everything: Callable[[], None]) -> None:
        super().__init__()
        self._reads, self._load, self._everything = reads, load, everything

    def get(self, key: Any, default: Any = None) -> Any:
        self._reads.add(record_fact(key))
        if dict.__contains__(self, key) or (isinstance(key, str) and self._load(key)):
            return dict.__getitem__(self, key)
        return default

    def __getitem__(self, key: Any) -> Any:
        found = self.get(key, _ABSENT)
        if found is _ABSENT:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return self.get(key, _ABSENT) is not _ABSENT

    def __iter__(self) -> Iterator[Any]:
        self._everything()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._everything()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._everything()
        return dict.keys(self)

    def values(self) -> Any:
        self._everything()
        return dict.values(self)

    def items(self) -> Any:
        self._everything()
        return dict.items(self)


class Tracked(Registry):
    """The registry as the checks see it: every fact they read is noted, and records are read only when asked for."""

    def __init__(self, root: Path, reads: Reads, load: Callable[[str], bool]) -> None:
        super().__init__(root=root)
        self._reads = reads
        self._load_record = load
        self._run: RunView | None = None
        self._whole = False
        self.records = _Lookups(reads, load, self._everything)
        self.paths = _Lookups(reads, load, self._everything)
        self.docs = _Lookups(reads, load, self._everything)
        self.failed = _Lookups(reads, lambda _: False, lambda: None)

    def attach(self, run: RunView) -> None:
        self._run = run

    def _everything(self) -> None:
        """Every record, in the loader's order: a check that goes through them all reads the whole registry."""
        self._reads.add(FACT_WHOLE_REGISTRY)
        run = self._run
        if run is None or self._whole:
            return
        self._whole = True
        order = sorted(run.entries, key=run.order)
        for record_id in order:
            if not dict.__contains__(self.records, record_id):
                self._load_record(record_id)
        mappings: tuple[dict[str, Any], ...] = (self.records, self.paths, self.docs)
        for mapping in mappings:
            held = {record_id: dict.__getitem__(mapping, record_id) for record_id in order}
            dict.clear(mapping)
            dict.update(mapping, held)

    def links_to(self, record_id: str) -> list[tuple[Record, Any]]:
        self._reads.add(referrers_fact(record_id))
        run = self._run
        if run is None:
            return super().links_to(record_id)
        found: list[tuple[Record, Any]] = []
        for other_id in sorted(run.linking(record_id), key=run.order):
            other = self.records.get(other_id)
            if other is None:
                raise Unsure  # the index names a record no file holds now
            found.extend((other, path) for path, value, _ in references_in(other) if value == record_id)
        return found

    def referrers(self, record_id: str, model: type[R], field_name: str) -> list[R]:
        """Found afresh each time, never from the loader's kept answers: each record's checks must note the back
        links they read (``links_to``), and the kept answers' key counts every record."""
        return self._find_referrers(record_id, model, field_name)

    def of_kind(self, model: type[R]) -> list[R]:
        """The records of ``model`` from the index's list of ids (the fact of that list, and of each record, noted),
        not from the whole registry: a rule that asks it of every record it checks (each dataset, for the
        benchmarks) would otherwise read every record, and its records be checked again on every run."""
        run = self._run
        if run is None:
            return super().of_kind(model)
        kinds = tuple(sorted(kind for kind, kind_model in KIND_MODELS.items() if issubclass(kind_model, model)))
        found: list[R] = []
        for record_id in self._sorted_ids(kinds):
            record = self.records.get(record_id)
            if not isinstance(record, model):
                raise Unsure  # the index names a record no file holds now, or one of another kind
            found.append(record)
        return found

    @property
    def units(self) -> UnitTable:
        """The built-in units where the registry holds no unit record, which is the only case an incremental run
        checks (``incremental._Run.incremental`` runs in full where one is held now or was last time); else the
        loader's."""
        run = self._run
        if run is not None and UNIT_KIND not in run.kinds():
            return BUILT_IN
        return super().units

    def _sorted_ids(self, kinds: tuple[str, ...] | None) -> list[str]:
        self._reads.add(FACT_ID_LIST)
        run = self._run
        if run is None:
            return super()._sorted_ids(kinds)
        return run.ids(kinds)

    def holds(self, *models: type[Record]) -> bool:
        self._reads.add(FACT_KINDS_HELD)
        run = self._run
        if run is None:
            return super().holds(*models)
        return any(issubclass(KIND_MODELS[kind], models) for kind in run.kinds())


class Asked(checks._Suggestions):
    """'Did you mean', noting which were asked (a cold run answers only the first ``LIMIT``, in its order)."""

    def __init__(self, registry: Registry, reads: Reads, limit: int | None = checks._Suggestions.LIMIT) -> None:
        super().__init__(registry)
        self.reads = reads
        if limit is None:
            self.LIMIT = 1 << 62  # an incremental run answers every one; more than LIMIT in all runs in full

    def suggest(self, value: str, kinds: list[str]) -> str | None:
        self.reads.asked.add("\0".join((value, *kinds)))
        self.reads.add(FACT_ID_LIST)  # read even where an earlier record's answer is given again: it comes from the ids
        return super().suggest(value, kinds)
