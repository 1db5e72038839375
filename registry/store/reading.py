"""Record files to parsed documents, in the order the loader walks them: from the parse cache, or read and parsed.

A file whose size, times and inode are those the parse cache (``registry.store.cache``) holds is not read
at all; the others are read, and parsed only where no file with the same content was parsed before.
Where many files must be parsed (a first run, a new clone), worker processes read and parse them
while the loader types what they sent: parsing is about half of a cold load, and two cores halve it.
A worker sends each file's parsed data as the bytes the cache stores (``cacheformat.encode``), which the
loader decodes in a few microseconds; typed records would cost more to send than to make.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from registry.errors import RecordFileError
from registry.store import cacheformat
from registry.store.cache import DAMAGED, ParseCache, signature
from registry.store.typedfiles import Typed, in_order
from registry.store.typedfiles import typed as typed_record
from registry.store.yamlio import LoadedYaml, content_digest, decode, parse_yaml, read_record

#: Files sent to a worker at a time.
CHUNK = 500
#: Fewer files to parse than this are parsed in the loader's own process (starting workers costs more).
PARALLEL_MIN = 4000

Found = tuple[tuple[str, ...], str]
"""A record file: its path's parts below the records folder, and its path."""


def documents(found: list[Found], store: ParseCache | None, *, jobs: int | None = None, inside: Path | None = None,
              some: bool = False, typed: bool = False) -> Iterator[tuple[Path, LoadedYaml | RecordFileError | Typed]]:
    """(path, document or problem) for each file of ``found`` (sorted as the loader walks), in that order.

    ``inside`` is the records folder: a link to a file outside it is not read (``yamlio.read_record``).
    ``some``: ``found`` is some of the folder's files, not all (an incremental run's): the store is asked
    about those alone, and forgets none of the others. ``typed``: a file read in a worker process comes back typed
    where it types (``typedfiles.Typed``), not as data for the loader to type.
    """
    keys = [_key(parts) for parts, _ in found] if some else None
    known = _unchanged(found, store, keys) if store is not None and store.trust_status else {}
    to_read = [index for index in range(len(found)) if index not in known]
    read = _read(found, to_read, store, jobs, inside, typed)
    stored = _Stored(store, keys) if known and store is not None else None
    path_of = _Paths()
    for index, (parts, name) in enumerate(found):
        path = path_of(name)
        digest = known.get(index)
        if digest is None:
            yield path, _document(path, next(read), store, inside)
            continue
        payload = stored.take(_key(parts)) if stored is not None else None
        data = store.decode(digest, payload) if store is not None and payload is not None else DAMAGED
        if data is DAMAGED:  # gone from the store, or damaged there: read the file after all
            yield path, _document(path, _read_chunk([(name, None)], None, inside)[0], None, inside)
        else:
            yield path, LoadedYaml(data, source=(path, digest))
    for _ in read:  # nothing is left; this lets the workers finish writing to the store and exit
        raise AssertionError("more files read than asked for")


def _key(parts: tuple[str, ...]) -> str:
    """A file's key in the store: its parts joined by NUL, which sorts as the parts do."""
    return "\0".join(parts)


def _unchanged(found: list[Found], store: ParseCache, keys: list[str] | None = None) -> dict[int, bytes]:
    """Index -> digest of each file the store holds with the size, times and inode the file still has.

    The store lists what it knows of the folder in the loader's order (keys are the path parts joined
    by NUL, which sorts as the parts do), so the two are walked side by side like a merge; what it
    knows that is no longer there (removed, renamed) is forgotten. With ``keys`` (``found``'s, when it is
    some of the folder's files), the store lists those alone, and what it does not list is not forgotten.
    """
    unchanged: dict[int, bytes] = {}
    listed = store.known() if keys is None else store.known_of(sorted(keys))
    entry = next(listed, None)
    for index, (parts, path) in enumerate(found):
        key = _key(parts)
        while entry is not None and entry[0] < key:
            if keys is None:
                store.forget(entry[0])
            entry = next(listed, None)
        if entry is not None and entry[0] == key:
            _, seen, digest = entry
            entry = next(listed, None)
            try:
                if signature(os.stat(path)) == seen:
                    unchanged[index] = digest
            except OSError:
                pass
    while entry is not None:
        if keys is None:
            store.forget(entry[0])
        entry = next(listed, None)
    return unchanged


class _Stored:
    """The stored data of the files of a folder, taken in key order from one pass over the store."""

    def __init__(self, store: ParseCache, keys: list[str] | None = None) -> None:
        self._rows = store.data() if keys is None else store.data_of(sorted(keys))
        self._row = next(self._rows, None)

    def take(self, key: str) -> bytes | None:
        while self._row is not None and self._row[0] < key:
            self._row = next(self._rows, None)
        if self._row is not None and self._row[0] == key:
            return self._row[1]
        return None


class _Paths:
    """``Path`` objects for directory entries, made from their folder's (a fifth of the cost of parsing each)."""

    def __init__(self) -> None:
        self.folders: dict[str, Path] = {}

    def __call__(self, path: str) -> Path:
        folder, _, name = path.rpartition(os.sep)
        parent = self.folders.get(folder)
        if parent is None:
            parent = self.folders[folder] = Path(folder)
        child = getattr(parent, "_make_child_relpath", None)  # CPython's own way, where it has one
        return child(name) if child is not None else parent / name  # type: ignore[no-any-return]


# -- reading and parsing -----------------------------------------------------------------------

Result = tuple[str, Any]
"""What reading one file gave: ('data', (digest, payload)), ('typed', (digest, record)), ('cached', digest) or
('problem', (code, message, line))."""
Task = tuple[str, str | None]
"""A file to read: its path and its key in the store (None without a store)."""


def _read(found: list[Found], to_read: list[int], store: ParseCache | None, jobs: int | None,
          inside: Path | None, typed: bool = False) -> Iterator[Result]:
    """The result of each file in ``to_read``, in order: in worker processes when there are many."""
    tasks = [(found[index][1], _key(found[index][0]) if store is not None else None) for index in to_read]
    chunks = [tasks[start:start + CHUNK] for start in range(0, len(tasks), CHUNK)]
    workers = _workers(len(tasks), jobs)
    if workers < 2:
        return (result for chunk in chunks for result in _read_chunk(chunk, store, inside))
    return _in_workers(chunks, store, workers, inside, typed)


def _workers(count: int, jobs: int | None) -> int:
    """How many worker processes to parse ``count`` files with: one (this process) unless it pays.

    Workers are forked, which is safe only while this process runs no other thread.
    """
    if (count < PARALLEL_MIN or "fork" not in multiprocessing.get_all_start_methods()
            or threading.active_count() > 1):
        return 1
    if jobs is None:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(jobs, -(-count // CHUNK)))


def _in_workers(chunks: list[list[Task]], store: ParseCache | None, workers: int,
                inside: Path | None, typed: bool) -> Iterator[Result]:
    context = multiprocessing.get_context("fork")  # workers share the loaded code; nothing is imported again
    where = (str(store.path), store.root) if store is not None else None
    try:
        pool = context.Pool(workers, initializer=_start_worker, initargs=(where, inside))
    except OSError:  # no processes to be had (a limit, no memory): read them here
        yield from (result for chunk in chunks for result in _read_chunk(chunk, store, inside))
        return
    # each worker writes what it still holds to the store as it exits (the pool is joined)
    yield from in_order(pool, _read_in_worker, [(chunk, typed) for chunk in chunks], workers)


_worker_store: ParseCache | None = None
_worker_inside: Path | None = None


def _start_worker(where: tuple[str, str] | None, inside: Path | None) -> None:
    global _worker_store, _worker_inside
    _worker_inside = inside
    if where is not None:
        _worker_store = ParseCache(Path(where[0]), where[1])
        multiprocessing.util.Finalize(None, _worker_store.close, exitpriority=10)


def _read_in_worker(chunk: list[Task], typed: bool) -> list[Result]:
    return _read_chunk(chunk, _worker_store, _worker_inside, typed)


def _read_chunk(chunk: list[Task], store: ParseCache | None, inside: Path | None,
                typed: bool = False) -> list[Result]:
    """Read each file of ``chunk``; parse those whose content the store does not hold (telling the store), and type
    them too where ``typed`` (what does not type is sent as data)."""
    results: list[Result | None] = [None] * len(chunk)
    read: list[tuple[int, bytes, os.stat_result, bytes]] = []
    for index, (path, _) in enumerate(chunk):
        try:
            raw, status = read_record(Path(path), inside=inside)
        except RecordFileError as exc:
            results[index] = _problem(exc)
            continue
        read.append((index, raw, status, content_digest(raw)))
    held = store.held([digest for *_, digest in read]) if store is not None and read else set()
    for index, raw, status, digest in read:
        key = chunk[index][1]
        if digest in held:  # touched, renamed or copied, but parsed before
            results[index] = ("cached", digest)
            payload = None
        else:
            try:
                doc = parse_yaml(decode(raw), raw)
            except RecordFileError as exc:
                results[index] = _problem(exc)
                continue
            payload = cacheformat.encode(digest, doc.data)
            record = typed_record(doc.data) if typed else None
            results[index] = ("data", (digest, payload)) if record is None else ("typed", (digest, record))
        if store is not None and key is not None:
            store.remember(key, status, digest, payload)
    return results  # type: ignore[return-value]


def _problem(exc: RecordFileError) -> Result:
    return "problem", (exc.code, exc.message, exc.line)


def _document(path: Path, result: Result, store: ParseCache | None,
              inside: Path | None) -> LoadedYaml | RecordFileError | Typed:
    kind, value = result
    if kind == "problem":
        code, message, line = value
        return RecordFileError(code, message, line)
    if kind == "typed":
        digest, record = value
        return Typed(record, LoadedYaml(None, source=(path, digest)))
    if kind == "cached":
        digest = value
        payload = store.payloads_of([digest]).get(digest) if store is not None else None
        data = store.decode(digest, payload) if store is not None and payload is not None else DAMAGED
        if data is DAMAGED:  # gone from the store since, or damaged there
            return _document(path, _read_chunk([(str(path), None)], None, inside)[0], None, inside)
        return LoadedYaml(data, source=(path, digest))
    digest, payload = value
    return LoadedYaml(cacheformat.decode(digest, payload), source=(path, digest))
