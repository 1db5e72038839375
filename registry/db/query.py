"""One read-only query against a built database, within limits of time, memory and rows.

Three guards, so that no single mistake lets a query write: the statement must be a single
SELECT or WITH (checked here, before the database sees it, split by the rules of the database's
own SQL); the database runs exactly one statement and is opened read-only (SQLite: a ``mode=ro``
URI, ``PRAGMA query_only``, an authorizer that allows reads only, and ``execute``, which refuses
a second statement; PostgreSQL: a session whose transactions are all read-only, a READ ONLY
transaction rolled back afterwards, and the extended query protocol, with which the server
itself refuses a second statement).

And limits, so that no query holds the machine: a SQLite query runs in a process of its own
(``registry.db.sqlite_worker``) that is killed when its time is up, whatever SQLite is doing,
with SQLite's heap, one value's size and the process's address space capped; a PostgreSQL query
has the server's ``statement_timeout``. Rows are streamed, never collected (``open_query``), and
at most ``max_rows`` of them are given, with ``truncated`` saying more exist. Every failure is a
``QueryError`` that says what to do next. The statement's check is ``registry.db.statement``.
"""

from __future__ import annotations

import json
import pickle
import sqlite3
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from registry import limits
from registry.db.sqlite_worker import connect_read_only, describe
from registry.db.statement import WRITE_HINT, QueryError, check_read_only, split_statements
from registry.sandbox import Plain
from registry.textsafe import excerpt

#: The statement's check, and what a caller catches, as ``registry.db.statement`` declares them.
__all__ = ["QueryError", "check_read_only", "split_statements", "Limits", "QueryResult", "QueryStream", "open_query",
           "run_query", "run_server", "open_sqlite_read_only", "sqlite_path", "is_url"]

DEFAULT_TIMEOUT_S = limits.QUERY_TIMEOUT_S
#: Rows given at most, unless asked for more: a screenful of tables for people, more for tools.
DEFAULT_MAX_ROWS = limits.QUERY_MAX_ROWS
DEFAULT_MAX_ROWS_FOR_TOOLS = limits.QUERY_MAX_ROWS_FOR_TOOLS
#: Memory a SQLite query may use (SQLite's heap); one value may hold a sixteenth of it.
DEFAULT_MAX_MEMORY_MB = limits.QUERY_MAX_MEMORY_MB
VALUE_SHARE = limits.QUERY_VALUE_SHARE
#: Rows from a server passed on at once (they come one at a time; a table lays out the first group together).
SERVER_BATCH_ROWS = 100
#: After the time limit, how long a SQLite query's process may take to stop by itself before it is killed.
KILL_GRACE_S = 1.0
@dataclass
class QueryResult:
    """Column names and rows; ``truncated`` when more rows existed than were asked for."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    truncated: bool = False


@dataclass
class QueryStream:
    """Column names, and the rows as they come (iterate once); ``truncated`` is known once they are all read.

    ``batches()`` gives the rows in the groups they arrived in (each a bounded list), for a reader that
    lays out what it has before waiting for more, as a table does.
    """

    columns: list[str]
    _batches: Iterator[list[tuple[Any, ...]]] = field(repr=False)
    truncated: bool = False

    def batches(self) -> Iterator[list[tuple[Any, ...]]]:
        return self._batches

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return (row for batch in self._batches for row in batch)


@dataclass(frozen=True)
class Limits:
    """What one query may take: seconds, rows (None: all), megabytes of memory (SQLite)."""

    timeout: float = DEFAULT_TIMEOUT_S
    max_rows: int | None = DEFAULT_MAX_ROWS
    max_memory_mb: int = DEFAULT_MAX_MEMORY_MB

    def check(self) -> None:
        if not self.timeout > 0:
            raise QueryError(f"the time limit must be more than 0 seconds, not {self.timeout:g}",
                             "for example {timeout} 30")
        if self.max_rows is not None and self.max_rows < 1:
            raise QueryError(f"the row limit must be at least 1, not {self.max_rows}", "for example {max_rows} 1000")
        if self.max_memory_mb < 16:
            raise QueryError(f"the memory limit must be at least 16 MB, not {self.max_memory_mb}",
                             "for example {max_memory} 1024")


# -- SQLite ---------------------------------------------------------------------------------


def _check_file(path: Path) -> None:
    """A regular file is there, or a QueryError saying what is (opening a named pipe would wait forever)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise QueryError(f"no database at {str(path)!r}",
                         "build it first with 'registry db build' (or point {db_file} at the file)") from None
    except OSError as exc:
        raise QueryError(f"cannot read {str(path)!r}: {exc.strerror}", "check the file's permissions") from exc
    if stat.S_ISDIR(info.st_mode):
        raise QueryError(f"{str(path)!r} is a folder, not a database file", "point {db_file} at a .db file")
    if not stat.S_ISREG(info.st_mode):
        what = "a named pipe" if stat.S_ISFIFO(info.st_mode) else "a device or socket"
        raise QueryError(f"{str(path)!r} is {what}, not a database file", "point {db_file} at a .db file")


def open_sqlite_read_only(path: Path) -> sqlite3.Connection:
    """``path`` opened read-only in this process (no limits: for tests and tools), or a QueryError."""
    _check_file(path)
    try:
        return connect_read_only(path)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise _not_a_database(path, describe(exc)) from exc


def _not_a_database(path: Path, why: str) -> QueryError:
    return QueryError(f"{str(path)!r} is not a database SQLite can read: {excerpt(why, 120)[1:-1]}",
                      "rebuild it with 'registry db build'")


WORKER = Path(__file__).with_name("sqlite_worker.py")


@contextmanager
def _sqlite_stream(path: Path, statement: str, limits: Limits) -> Iterator[QueryStream]:
    """Run ``statement`` in a process of its own (``sqlite_worker``), killed when its time is up."""
    _check_file(path)
    memory = limits.max_memory_mb << 20
    request = {"path": str(path.resolve()), "sql": statement, "timeout": limits.timeout,
               "max_rows": limits.max_rows, "memory_bytes": memory, "value_bytes": memory // VALUE_SHARE}
    process = subprocess.Popen([sys.executable, "-I", "-S", str(WORKER)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        process.kill()

    timer = threading.Timer(limits.timeout + KILL_GRACE_S, kill)
    timer.daemon = True
    timer.start()
    try:
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(request).encode())
            process.stdin.close()
        except BrokenPipeError:
            pass  # it ended already; reading says why

        def receive() -> tuple[Any, ...]:
            return _message(process, killed, path, statement, limits)

        columns = receive()[1]
        stream = QueryStream(list(columns), iter(()))

        def batches() -> Iterator[list[tuple[Any, ...]]]:
            while True:
                message = receive()
                if message[0] == "end":
                    stream.truncated = bool(message[1])
                    return
                if message[1]:
                    yield [tuple(row) for row in message[1]]

        stream._batches = batches()
        yield stream
    finally:
        timer.cancel()
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()


def _message(process: subprocess.Popen[bytes], killed: threading.Event, path: Path, statement: str,
             limits: Limits) -> tuple[Any, ...]:
    """The worker's next message; its error, or its end without an answer (killed when its time was up, or
    not), raised as the ``QueryError`` that says so."""
    assert process.stdout is not None
    try:
        message = Plain(process.stdout).load()  # a fresh unpickler each time: one keeps every message it read
    except (EOFError, pickle.UnpicklingError, OSError) as exc:
        process.wait()
        if killed.is_set():
            raise _timed_out(limits.timeout) from exc
        raise QueryError(
            f"the query's process ended without an answer (exit status {process.returncode})",
            "run it again; if it ends the same way, narrow the query or raise {max_memory}",
        ) from exc
    if message[0] == "error":
        raise _sqlite_error(path, statement, message[1], message[2], limits)
    return message  # type: ignore[no-any-return]


def _timed_out(timeout: float) -> QueryError:
    return QueryError(
        f"the query ran longer than {timeout:g} s and was stopped",
        "narrow it (WHERE, LIMIT, fewer joins), or allow more time with {timeout} SECONDS",
    )


def _sqlite_error(path: Path, statement: str, kind: str, message: str, limits: Limits) -> QueryError:
    """The message for a failure the query's process reported, by its kind (see ``sqlite_worker._kind``)."""
    shown = excerpt(message, 200)[1:-1]
    if kind == "json":
        return QueryError(
            f"the query {excerpt(statement, 120)} gives a json function text that is not valid JSON ({shown}); "
            "the database itself is fine",
            "check the JSON literals in the query (such as json('[1,')), or the column a json function reads",
        )
    if kind == "open":
        return _not_a_database(path, message)
    if kind == "timeout":
        return _timed_out(limits.timeout)
    if kind == "memory":
        return QueryError(f"the query needed more than {limits.max_memory_mb:,} MB of memory and was stopped",
                          "narrow it (WHERE, LIMIT, fewer joins), or allow more with {max_memory} MB")
    if kind == "too-big":
        return QueryError(
            f"a value in the query grew past {(limits.max_memory_mb << 20) // VALUE_SHARE:,} bytes, the most one "
            f"value may hold (a {VALUE_SHARE}th of the memory limit), and the query was stopped",
            "build smaller values, or allow more memory with {max_memory} MB")
    if kind == "damaged":
        return QueryError(f"{str(path)!r} is damaged: {shown}", "rebuild it with 'registry db build'")
    if kind == "statement":
        return QueryError(f"the query cannot run: {shown}", "run one SELECT statement at a time")
    if "not authorized" in message or "readonly" in message or "read-only" in message:
        return QueryError(f"the query tries to change the database ({shown}); the database is read-only",
                          WRITE_HINT)
    if "no such table" in message or "no such column" in message:
        return QueryError(
            f"the query failed: {shown}",
            "list the tables and views with: registry query \"SELECT type, name FROM sqlite_master ORDER BY name\"",
        )
    return QueryError(f"the query failed: {shown}", "check the SQL syntax near the place SQLite names")


def _collect(opener: Any, target: Any, statement: str, limits: Limits) -> QueryResult:
    limits.check()
    with opener(target, statement, limits) as stream:
        rows = list(stream)
        return QueryResult(stream.columns, rows, stream.truncated)


# -- a server (PostgreSQL) ------------------------------------------------------------------


@contextmanager
def _server_stream(url: str, statement: str, limits: Limits) -> Iterator[QueryStream]:
    """Run one statement in a READ ONLY transaction with a statement timeout, streamed, then roll back.

    The session is opened with every transaction read-only (``default_transaction_read_only``), so
    even a COMMIT smuggled past the statement check would only start another read-only transaction;
    and the statement is sent with the extended query protocol (``Cursor.stream`` always uses it),
    with which the server refuses outright a statement that holds more than one command. A simple
    query (psycopg's ``execute`` without parameters) would run every part of "SELECT 1; COMMIT; ...".
    Rows come one at a time (libpq's single-row mode), so memory holds one row, not the result.
    """
    from registry.db.server import connection_error, server_engine

    _require_psycopg(url)
    engine = server_engine(url, read_only=True, file_input="db_file")
    try:
        try:
            raw = engine.raw_connection()
        except Exception as exc:  # noqa: BLE001 - SQLAlchemy may pass the driver's own error through
            raise connection_error(url, exc) from exc
        try:
            cursor: Any = raw.cursor()  # psycopg 3's own cursor
            cursor.execute("SET TRANSACTION READ ONLY")
            cursor.execute(f"SET LOCAL statement_timeout = {max(1, int(limits.timeout * 1000))}")
            # No parameters are passed, so a % in the query (LIKE '%gig%') is sent as it is.
            rows = cursor.stream(statement)
            try:
                first = next(rows, None)
            except Exception as exc:  # noqa: BLE001 - the driver's errors, translated below
                raise _server_error(exc, limits.timeout) from exc
            stream = QueryStream([column[0] for column in cursor.description or []], iter(()))

            def given() -> Iterator[list[tuple[Any, ...]]]:
                count, row = 0, first
                batch: list[tuple[Any, ...]] = []
                try:
                    while row is not None:
                        if limits.max_rows is not None and count >= limits.max_rows:
                            stream.truncated = True
                            break
                        batch.append(tuple(row))
                        count += 1
                        if len(batch) >= SERVER_BATCH_ROWS:
                            yield batch
                            batch = []
                        row = next(rows, None)
                except Exception as exc:  # noqa: BLE001 - the driver's errors, translated below
                    raise _server_error(exc, limits.timeout) from exc
                finally:
                    rows.close()  # cancels what the server still sends
                if batch:
                    yield batch

            stream._batches = given()
            yield stream
        finally:
            raw.rollback()
            raw.close()
    finally:
        engine.dispose()


def run_server(url: str, sql: str, *, timeout: float = DEFAULT_TIMEOUT_S, max_rows: int | None = None) -> QueryResult:
    """Run one read-only statement against a PostgreSQL server; every row (up to ``max_rows``) in a list."""
    return _collect(_server_stream, url, check_read_only(sql, "postgresql"), Limits(timeout, max_rows))


def _require_psycopg(url: str) -> None:
    """Queries need psycopg 3: its prepared statements make the server itself refuse a second command."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        name = make_url(url).drivername
    except ArgumentError:
        return  # server_engine says what is wrong with the URL
    if name.startswith("postgresql+") and name != "postgresql+psycopg":
        raise QueryError(
            f"queries run only through the psycopg (version 3) driver, not {name.split('+', 1)[1]!r}: it is the one "
            "that makes the server itself refuse a second statement",
            "write the URL as postgresql+psycopg://USER:PASSWORD@HOST/DB (or postgresql://, which means the same here)",
        )


def _server_error(exc: Exception, timeout: float) -> QueryError:
    sqlstate = getattr(exc, "sqlstate", None)
    message = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    if sqlstate == "57014":  # query_canceled
        return QueryError(
            f"the query ran longer than {timeout:g} s and was stopped",
            "narrow it (WHERE, LIMIT, fewer joins), or allow more time with {timeout} SECONDS",
        )
    if sqlstate == "25006" or (sqlstate or "").startswith("42501"):  # read_only_sql_transaction, no privilege
        return QueryError(f"the query tries to change the database ({message}); the database is read-only",
                          WRITE_HINT)
    if sqlstate == "42601" and "multiple commands" in message:  # the server's own one-statement rule
        return QueryError(f"the query holds more than one statement ({message}); only one runs at a time",
                          "remove the semicolons between statements and run them one by one")
    return QueryError(f"the query failed: {message}", "check the SQL near the place the server names")


# -- either ---------------------------------------------------------------------------------


def is_url(db: str) -> bool:
    return "://" in db


def sqlite_path(db: str) -> Path | None:
    """The SQLite file ``db`` names (a path, or a sqlite:/// URL), or None for a server URL.

    URLs follow SQLAlchemy: sqlite:///registry.db is relative to the current folder,
    sqlite:////srv/registry.db (four slashes) is absolute.
    """
    if db.startswith("sqlite:///"):
        return Path(db[len("sqlite:///"):])
    return None if is_url(db) else Path(db)


@contextmanager
def open_query(db: str, sql: str, limits: Limits = Limits()) -> Iterator[QueryStream]:
    """Run ``sql`` read-only against ``db`` (a SQLite file path, a sqlite:/// URL or a PostgreSQL URL), streamed.

    The rows are read as the caller iterates, within ``limits``; they must be read inside the block.
    """
    limits.check()
    path = sqlite_path(db)
    if path is None:
        with _server_stream(db, check_read_only(sql, "postgresql"), limits) as stream:
            yield stream
    else:
        with _sqlite_stream(path, check_read_only(sql), limits) as stream:
            yield stream


def run_query(db: str, sql: str, *, timeout: float = DEFAULT_TIMEOUT_S, max_rows: int | None = None,
              max_memory_mb: int = DEFAULT_MAX_MEMORY_MB) -> QueryResult:
    """``open_query``, with every row (up to ``max_rows``) collected in a list."""
    with open_query(db, sql, Limits(timeout, max_rows, max_memory_mb)) as stream:
        return QueryResult(stream.columns, list(stream), stream.truncated)
