"""Record files read, parsed and typed in worker processes: the cold load without the parse cache.

``registry.store.reading`` sends each file's parsed data from its workers and types every record in the loader's
own process, which then does most of the work while the other cores wait. Without a parse cache to fill
(``registry validate --no-cache``, a fresh clone), a worker here does all of one file's work: reads it once,
parses it on the fast YAML path, types it with one ``model_validate`` and shares its texts (``compact``), and sends
the typed record (pickled, a tenth of what typing costs). A file that does not type (not YAML, not a mapping, an
unknown kind, a schema error) is sent as parsed data, and the loader works out its issues as a one-process run
does, key lines included; a typed record's key lines are worked out only if one of its issues asks for them.

The workers are forked: they hold the loader's code and the state its models read (the units in use), so a
record types in a worker exactly as it would in the loader. Results come back in the order the files were given,
chunk after chunk, so the registry and its report are the same whatever the number of workers.
"""

from __future__ import annotations

import collections
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from registry.errors import RecordFileError
from registry.models import KIND_MODELS, Record
from registry.store import cacheformat
from registry.store.compact import compact
from registry.store.yamlio import LoadedYaml, content_digest, decode, parse_yaml, read_record

#: Files sent to a worker at a time.
CHUNK = 400
#: Fewer files than this are loaded in the loader's own process: starting and feeding workers costs more than
#: they save below it (measured with benchmarks/bench_db.py on 2 cores; see docs/design/cold-path.md).
PARALLEL_MIN = 3000

class Typed(NamedTuple):
    """A record typed in a worker, and its document: no data, its key lines worked out from its file if asked for."""

    record: Record
    doc: LoadedYaml


def available_cores() -> int:
    """The processors this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def workers_for(count: int, jobs: int | None) -> int:
    """How many worker processes to load ``count`` files with; 1 means this process alone.

    Workers are forked, which is safe only while this process runs no other thread.
    """
    if jobs is None:
        if count < PARALLEL_MIN:
            return 1
        jobs = available_cores()
    if jobs < 2 or "fork" not in multiprocessing.get_all_start_methods() or threading.active_count() > 1:
        return 1
    return max(1, min(jobs, -(-count // CHUNK)))


def typed_documents(paths: list[str], *, jobs: int | None = None,
                    inside: Path | None = None) -> Iterator[tuple[Path, Typed | LoadedYaml | RecordFileError]]:
    """(path, typed record, or document, or problem) for each file of ``paths``, in that order.

    ``jobs``: worker processes (None: one per available processor where there are ``PARALLEL_MIN`` files or more;
    1: this process alone). ``inside``: the records folder (a link to a file outside it is not read).
    """
    chunks = [paths[start:start + CHUNK] for start in range(0, len(paths), CHUNK)]
    workers = workers_for(len(paths), jobs)
    results = (_in_workers(chunks, workers, inside) if workers > 1
               else (result for chunk in chunks for result in _load_chunk(chunk, inside)))
    for name, result in zip(paths, results, strict=True):
        path = Path(name)
        yield path, _outcome(path, result)


def _outcome(path: Path, result: tuple[str, Any]) -> Typed | LoadedYaml | RecordFileError:
    kind, value = result
    if kind == "record":
        record, digest = value
        return Typed(record, LoadedYaml(None, source=(path, digest)))
    if kind == "problem":
        code, message, line = value
        return RecordFileError(code, message, line)
    digest, payload = value
    return LoadedYaml(cacheformat.decode(digest, payload), source=(path, digest))


def _in_workers(chunks: list[list[str]], workers: int, inside: Path | None) -> Iterator[tuple[str, Any]]:
    context = multiprocessing.get_context("fork")  # workers share the loaded code and state; nothing is imported
    try:
        pool = context.Pool(workers)
    except OSError:  # no processes to be had (a limit, no memory): load them here
        yield from (result for chunk in chunks for result in _load_chunk(chunk, inside))
        return
    yield from in_order(pool, _load_chunk, [(chunk, inside) for chunk in chunks], workers)


def in_order(pool: Any, work: Callable[..., list[Any]], calls: list[tuple[Any, ...]], workers: int) -> Iterator[Any]:
    """The results of ``work(*call)`` for each of ``calls``, run in ``pool``, one after the other in the order
    given; the pool is closed and joined after (its workers finish what they hold), or ended on an error."""
    try:
        # At most two calls a worker ahead of the caller: what is done but not yet taken stays bounded.
        pending: collections.deque[Any] = collections.deque()
        for call in calls:
            pending.append(pool.apply_async(work, call))
            if len(pending) >= 2 * workers:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()
        pool.close()
        pool.join()
    finally:
        pool.terminate()


def _load_chunk(chunk: list[str], inside: Path | None) -> list[tuple[str, Any]]:
    """Each file of ``chunk`` read, parsed and typed: ('record', (record, digest)), ('data', (digest, payload))
    for a file that parsed but did not type, or ('problem', (code, message, line))."""
    return [_load_one(name, inside) for name in chunk]


def _load_one(name: str, inside: Path | None) -> tuple[str, Any]:
    try:
        raw, _ = read_record(Path(name), inside=inside)
        digest = content_digest(raw)
        data = parse_yaml(decode(raw), raw).data
    except RecordFileError as exc:
        return "problem", (exc.code, exc.message, exc.line)
    record = typed(data)
    if record is not None:
        return "record", (record, digest)
    return "data", (digest, cacheformat.encode(digest, data))


def typed(data: Any) -> Record | None:
    """``data`` typed as its kind's record, its texts shared (None: it names no known kind, or does not type; the
    loader types it again and words each error with its line)."""
    kind = data.get("kind") if type(data) is dict else None
    model = KIND_MODELS.get(kind) if type(kind) is str else None
    if model is None:
        return None
    try:
        record = model.model_validate(data)
    except ValidationError:
        return None
    compact(record)
    return record
