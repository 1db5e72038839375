"""What a run's index answers about the registry as the run leaves it: the files whose entries are lists, the file
that holds an id and its place in the loader's order, the kinds and ids held, the records naming one; each worked
out once per run. The tracked registry (``tracking.RunView``) asks these while the checks run."""

from __future__ import annotations

from typing import Any

from registry.validate.incremental.files import Files, list_entries
from registry.validate.incremental.index import RecordEntries, split_items


class IndexView:
    """The registry as ``index`` holds it, for one run (``run._Run``) that updates it."""

    def __init__(self, index: dict[str, Any]) -> None:
        self.index = index
        self.files: Files = index["files"]
        self.entries: RecordEntries = index["records"]
        self._links: dict[str, list[str]] = {}
        self._kinds: set[str] | None = None
        self._list_keys: list[str] | None = None
        self._ids: dict[tuple[str, ...] | None, list[str]] = {}

    def list_keys(self) -> list[str]:
        """The keys of the files whose entries are lists (``incremental.files.list_entries``), once the files are
        as this run leaves them."""
        if self._list_keys is None:
            self._list_keys = list_entries(self.files)
        return self._list_keys

    def file_of(self, record_id: str) -> str:
        """The key of the file that holds ``record_id``."""
        entry = self.entries[record_id]
        return entry.file or f"{entry.kind}\0{record_id}.yaml"

    def order(self, record_id: str) -> str:
        """The record's place in the loader's order: the key of the first file that typed its id."""
        return self.entries[record_id].loader_order or self.file_of(record_id)

    def kinds(self) -> set[str]:
        """The kinds of the records held (once per run: asked while checking, when no record changes)."""
        if self._kinds is None:
            self._kinds = self.entries.kinds()
        return self._kinds

    def ids(self, kinds: tuple[str, ...] | None) -> list[str]:
        """The ids held (of ``kinds``), in order (once per run and kinds)."""
        if kinds not in self._ids:
            self._ids[kinds] = sorted(i for i, entry in self.entries.items() if kinds is None or entry.kind in kinds)
        return self._ids[kinds]

    def linking(self, record_id: str) -> list[str]:
        """The ids of the records naming ``record_id``, from what the index keeps (once per run and id): the
        entries whose bytes hold the id, opened and read."""
        if record_id not in self._links:
            needle = record_id.encode("utf-8", "surrogatepass")
            candidates = {*self.entries.holding(needle), *self.entries.open_ids()}
            self._links[record_id] = [other for other in candidates
                                      if record_id in split_items(self.entries[other].references)]
        return self._links[record_id]
