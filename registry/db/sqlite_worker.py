"""The process one SQLite query runs in, so that its time and its memory have hard limits.

SQLite looks at its progress handler only between steps of its virtual machine, and one step can
be one call of an expensive function: ``printf('%.*c', 999999999, 'x')`` builds a gigabyte before
the handler is asked, and a SELECT of 2,000 such columns runs for minutes between two looks. So
``registry.db.query`` runs each query in this process, and kills it once the time is up; here, the
progress handler stops a query cleanly in the common case, ``PRAGMA hard_heap_limit`` caps what
SQLite may allocate, ``SQLITE_LIMIT_LENGTH`` the size of one value and ``RLIMIT_AS`` the whole
process (where the system has it).

It is run as a script (``python -I -S sqlite_worker.py``), so it uses the standard library only,
starts in milliseconds and reads nothing of the caller's environment. It reads one request (JSON)
from stdin and writes messages to stdout, each a pickle of plain values (tuples, lists, text,
bytes, numbers, None), which the caller reads with an unpickler that refuses anything else:
``("columns", [name, ...])``, ``("rows", [row, ...])`` a batch at a time (``BATCH_*``), ``("end", truncated)``,
or ``("error", kind, message)``. The read-only guards are here too, since this is where the
database is opened: a ``mode=ro`` URI, ``PRAGMA query_only`` and an authorizer that allows reads
only.
"""

from __future__ import annotations

import json
import pickle
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

#: SQLite virtual-machine steps between two looks at the clock.
PROGRESS_STEPS = 1_000
#: Rows sent at once, and roughly how many bytes of values.
BATCH_ROWS, BATCH_BYTES = 500, 1 << 20
#: A batch is also sent once SQLite has done this many looks' worth of steps since the last (a million steps,
#: tens of milliseconds), so the rows of a slow query show as they come. Counted in steps, not seconds, so
#: which rows travel together (and so a table's layout, made from its first batch) never depends on the
#: machine's speed or load.
BATCH_LOOKS = 1_000
#: The statement's own length: a query is typed or kept in a file, never megabytes long.
MAX_SQL_BYTES = 1 << 20
#: Address space the process may use beyond SQLite's heap limit: the interpreter, a batch of rows.
HEADROOM_BYTES = 512 << 20

#: Pragmas that only describe the schema, usable as table-valued functions (pragma_table_info('result')), and
#: data_version, a counter FTS5 reads when it opens the full-text table (results_search).
READ_ONLY_PRAGMAS = frozenset({
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
    "foreign_key_list", "collation_list", "function_list", "module_list", "pragma_list", "database_list",
    "data_version",
})
_ALLOWED_ACTIONS = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
                              getattr(sqlite3, "SQLITE_RECURSIVE", 33)})


def _authorize(action: int, arg1: str | None, arg2: str | None, _db: str | None, _trigger: str | None) -> int:
    """Reads only: SELECT, reading columns, functions, recursive CTEs and schema-describing pragmas."""
    if action in _ALLOWED_ACTIONS:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA and arg1 is not None and arg1.lower() in READ_ONLY_PRAGMAS:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_UPDATE and arg1 in ("sqlite_master", "sqlite_schema"):
        # SQLite asks this while a pragma function reads the schema; IGNORE leaves the schema unchanged
        # (and the connection is read-only anyway).
        return sqlite3.SQLITE_IGNORE
    return sqlite3.SQLITE_DENY


def connect_read_only(path: Path, *, heap_bytes: int | None = None,
                      value_bytes: int | None = None) -> sqlite3.Connection:
    """``path`` opened read-only, with the given limits; sqlite3's own errors if it cannot be read."""
    connection = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, check_same_thread=False)
    try:
        connection.execute("PRAGMA query_only = ON")
        if heap_bytes is not None:
            connection.execute(f"PRAGMA hard_heap_limit = {int(heap_bytes)}")
        if value_bytes is not None:
            connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, int(value_bytes))
        connection.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, MAX_SQL_BYTES)
        connection.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except BaseException:
        connection.close()
        raise
    connection.set_authorizer(_authorize)
    return connection


def _limit_address_space(total_bytes: int) -> None:
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        wanted = total_bytes if hard == resource.RLIM_INFINITY else min(total_bytes, hard)
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    except (ValueError, OSError):  # pragma: no cover - a system that refuses it: SQLite's own limit remains
        pass


def _size(row: tuple[Any, ...]) -> int:
    return sum(len(v) if isinstance(v, (str, bytes)) else 8 for v in row)


def run(request: dict[str, Any], send: Any) -> None:
    """Run the request's statement and send its columns, rows and end (or an error), as the docstring says."""
    deadline = time.monotonic() + float(request["timeout"])
    heap = int(request["memory_bytes"])
    _limit_address_space(heap + HEADROOM_BYTES)
    try:
        connection = connect_read_only(Path(request["path"]), heap_bytes=heap, value_bytes=request["value_bytes"])
    except Exception as exc:  # noqa: BLE001 - each reported with its kind
        send(("error", "open", describe(exc)))
        return
    looks = [0]  # how often SQLite looked at the clock: its work, counted in PROGRESS_STEPS steps

    def progress() -> int:
        looks[0] += 1
        return int(time.monotonic() > deadline)

    connection.set_progress_handler(progress, PROGRESS_STEPS)
    max_rows = request["max_rows"]
    try:
        cursor = connection.execute(request["sql"])
        send(("columns", [column[0] for column in cursor.description or []]))
        sent, size, looked = 0, 0, 0
        batch: list[tuple[Any, ...]] = []
        while max_rows is None or sent + len(batch) <= max_rows:
            row = cursor.fetchone()
            if row is None:
                break
            batch.append(row)
            size += _size(row)
            if len(batch) >= BATCH_ROWS or size >= BATCH_BYTES or looks[0] - looked >= BATCH_LOOKS:
                send(("rows", batch))
                sent, batch, size, looked = sent + len(batch), [], 0, looks[0]
        truncated = max_rows is not None and sent + len(batch) > max_rows
        send(("rows", batch[:max_rows - sent] if truncated else batch))
        send(("end", truncated))
    except Exception as exc:  # noqa: BLE001 - each reported with its kind
        send(("error", _kind(exc, time.monotonic() > deadline), describe(exc)))
    finally:
        connection.close()


def _kind(exc: BaseException, late: bool) -> str:
    """What kind of failure ``exc`` is, for the caller's message."""
    message = describe(exc)
    if isinstance(exc, MemoryError) or "out of memory" in message:
        return "memory"
    if "string or blob too big" in message:
        return "too-big"
    if message == "interrupted" and late:
        return "timeout"
    if "malformed JSON" in message:  # a JSON text the query gave a json function: the query's, not the file's
        return "json"
    if isinstance(exc, UnicodeDecodeError) or message.startswith("Could not decode to UTF-8") or "malformed" in message:
        return "damaged"
    if isinstance(exc, (sqlite3.Warning, sqlite3.ProgrammingError)):
        return "statement"
    if isinstance(exc, sqlite3.DatabaseError):
        return "database"
    return "other"


def describe(exc: BaseException) -> str:
    """A failure of sqlite3 in words (its own message, where that is readable)."""
    if isinstance(exc, UnicodeDecodeError):  # SQLite's message itself was not UTF-8: the file is damaged
        return "the file is damaged: it holds text that is not UTF-8 where SQLite reads its schema or its rows"
    if isinstance(exc, MemoryError):
        return "out of memory"
    text = str(exc) or type(exc).__name__
    return text if isinstance(exc, sqlite3.Error) else f"{type(exc).__name__}: {text}"


def main() -> int:
    request = json.loads(sys.stdin.buffer.read())
    out = sys.stdout.buffer

    def send(message: tuple[Any, ...]) -> None:
        pickle.dump(message, out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()

    try:
        run(request, send)
    except BrokenPipeError:  # the caller stopped reading (its own reader went away): nothing to say
        return 0
    except MemoryError:
        send(("error", "memory", "out of memory"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
