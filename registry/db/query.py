"""One read-only query against a built database, stopped if it runs too long.

Three guards, so that no single mistake lets a query write: the statement must be a single
SELECT or WITH (checked here, before the database sees it, split by the rules of the database's
own SQL); the database runs exactly one statement and is opened read-only (SQLite: a ``mode=ro``
URI, ``PRAGMA query_only``, an authorizer that allows reads only, and ``execute``, which refuses
a second statement; PostgreSQL: a session whose transactions are all read-only, a READ ONLY
transaction rolled back afterwards, and the extended query protocol, with which the server
itself refuses a second statement); and a time limit (SQLite: a progress handler; PostgreSQL:
``statement_timeout``). Every failure is a ``QueryError`` that says what to do next.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from registry.errors import RegistryError

DEFAULT_TIMEOUT_S = 10.0
#: SQLite virtual-machine steps between two looks at the clock.
PROGRESS_STEPS = 1_000
ALLOWED_FIRST_WORDS = ("select", "with")
#: Statements that change a database or a session; named as such when refused.
WRITE_WORDS = frozenset({
    "insert", "update", "delete", "replace", "upsert", "merge", "create", "drop", "alter", "truncate", "attach",
    "detach", "pragma", "vacuum", "reindex", "analyze", "begin", "commit", "end", "rollback", "savepoint",
    "release", "grant", "revoke", "copy", "set", "reset", "call", "do", "lock", "listen", "notify", "load",
    "cluster", "refresh", "comment", "security", "discard", "prepare", "execute", "deallocate", "import",
})
#: Pragmas that only describe the schema, usable as table-valued functions (pragma_table_info('result')).
READ_ONLY_PRAGMAS = frozenset({
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
    "foreign_key_list", "collation_list", "function_list", "module_list", "pragma_list", "database_list",
})
_ALLOWED_ACTIONS = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
                              getattr(sqlite3, "SQLITE_RECURSIVE", 33)})


class QueryError(RegistryError):
    """A query that cannot run, or was stopped; the message says why and the hint what to try."""


@dataclass
class QueryResult:
    """Column names and rows; ``truncated`` when more rows existed than were asked for."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    truncated: bool = False


# -- the statement --------------------------------------------------------------------------

_WRITE_HINT = "only SELECT (or WITH ... SELECT) queries run here; to change data, edit the records and rebuild"


#: An identifier or keyword; both SQLite and PostgreSQL allow ``$`` after its first character.
_WORD = re.compile(r"[A-Za-z_\u0080-\U0010ffff][A-Za-z_0-9$\u0080-\U0010ffff]*")
#: A PostgreSQL dollar quote's opening (and closing) tag: ``$$`` or ``$tag$`` (``$1`` is a parameter).
_DOLLAR_TAG = re.compile(r"\$(?:[A-Za-z_\u0080-\U0010ffff][A-Za-z_0-9\u0080-\U0010ffff]*)?\$")
DIALECTS = ("sqlite", "postgresql")


def split_statements(sql: str, dialect: str = "sqlite") -> list[str]:
    """The statements in ``sql``, split at semicolons outside quotes and comments, comments removed.

    Quotes and comments follow the rules of ``dialect``, so that the statements found are the ones
    that database would see: SQLite also quotes names with `backticks` and [brackets]; PostgreSQL
    has dollar quotes ($$...$$, $tag$...$tag$), escape strings (E'it\\'s', where a backslash
    escapes a quote) and nested block comments. A quote left open is an error.
    """
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}")
    postgres = dialect == "postgresql"
    statements: list[str] = []
    current: list[str] = []
    i, n = 0, len(sql)
    closers = {"'": "'", '"': '"'} if postgres else {"'": "'", '"': '"', "`": "`", "[": "]"}
    while i < n:
        char = sql[i]
        word = _WORD.match(sql, i)
        if word is not None:
            # A whole name at once: a $ inside one (a$$b) opens no quote, and E'...' is told from name'...'.
            i = word.end()
            if postgres and word.group() in ("E", "e") and sql.startswith("'", i):
                end = _escape_string_end(sql, i)
                current.append(sql[word.start():end + 1])
                i = end + 1
            else:
                current.append(word.group())
        elif char in closers:
            end = sql.find(closers[char], i + 1)
            while end != -1 and char in "'\"`" and sql[end + 1:end + 2] == char:  # doubled quote inside
                end = sql.find(char, end + 2)
            if end == -1:
                raise _unclosed(char)
            current.append(sql[i:end + 1])
            i = end + 1
        elif postgres and char == "$" and (tag := _DOLLAR_TAG.match(sql, i)) is not None:
            end = sql.find(tag.group(), tag.end())
            if end == -1:
                raise QueryError(
                    f"the query has an unclosed {tag.group()} quote",
                    f"end the quoted text with a second {tag.group()}, for example: SELECT $$it's$$",
                )
            i = end + len(tag.group())
            current.append(sql[tag.start():i])
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            i = n if end == -1 else end
            current.append(" ")
        elif sql.startswith("/*", i):
            i = _block_comment_end(sql, i, nested=postgres)
            current.append(" ")
        elif char == ";":
            statements.append("".join(current).strip())
            current = []
            i += 1
        else:
            current.append(char)
            i += 1
    statements.append("".join(current).strip())
    return [statement for statement in statements if statement]


def _unclosed(char: str) -> QueryError:
    return QueryError(
        f"the query has an unclosed {char} quote",
        "close the quote; in SQL, text is written in single quotes: WHERE unit = 'gigabyte'",
    )


def _escape_string_end(sql: str, start: int) -> int:
    """The closing quote of the PostgreSQL escape string whose opening quote is at ``start``."""
    i, n = start + 1, len(sql)
    while i < n:
        if sql[i] == "\\":
            i += 2  # a backslash escapes the next character, a quote included
        elif sql[i] == "'":
            if sql.startswith("'", i + 1):  # a doubled quote inside
                i += 2
            else:
                return i
        else:
            i += 1
    raise _unclosed("'")


def _block_comment_end(sql: str, start: int, *, nested: bool) -> int:
    """Just past the block comment opened at ``start``; PostgreSQL's nest (/* /* */ */), SQLite's do not."""
    if not nested:
        end = sql.find("*/", start + 2)
        return len(sql) if end == -1 else end + 2
    depth, i, n = 1, start + 2, len(sql)
    while i < n and depth:
        if sql.startswith("/*", i):
            depth, i = depth + 1, i + 2
        elif sql.startswith("*/", i):
            depth, i = depth - 1, i + 2
        else:
            i += 1
    return i


def check_read_only(sql: str, dialect: str = "sqlite") -> str:
    """The single SELECT/WITH statement in ``sql`` (comments removed), or a QueryError saying what is wrong."""
    statements = split_statements(sql, dialect)
    if not statements:
        raise QueryError("the query is empty",
                         "write a SELECT, for example: registry query \"SELECT * FROM results_flat\"")
    if len(statements) > 1:
        raise QueryError(
            f"the query holds {len(statements)} statements; only one runs at a time",
            "remove the semicolons between statements and run them one by one",
        )
    statement = statements[0]
    match = re.match(r"[(\s]*([A-Za-z_]+)", statement)
    first = match.group(1).lower() if match else ""
    if first in ALLOWED_FIRST_WORDS:
        return statement
    if first in WRITE_WORDS:
        raise QueryError(f"{first.upper()} statements are not allowed: the database is read-only", _WRITE_HINT)
    raise QueryError(
        f"a query must start with SELECT or WITH, but this one starts with {statement.split()[0]!r}",
        "check the spelling, for example: SELECT result_id, printed_value, unit FROM results_flat",
    )


# -- SQLite ---------------------------------------------------------------------------------


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


def open_sqlite_read_only(path: Path) -> sqlite3.Connection:
    """``path`` opened read-only, or a QueryError saying how to get a database there."""
    if not path.exists():
        raise QueryError(f"no database at {str(path)!r}",
                         "build it first with 'registry db build' (or point {db_file} at the file)")
    if path.is_dir():
        raise QueryError(f"{str(path)!r} is a folder, not a database file", "point {db_file} at a .db file")
    uri = path.resolve().as_uri() + "?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True, check_same_thread=False)
        connection.execute("PRAGMA query_only = ON")
        connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        raise QueryError(f"{str(path)!r} is not a database SQLite can read: {exc}",
                         "rebuild it with 'registry db build'") from exc
    connection.set_authorizer(_authorize)
    return connection


def run_sqlite(path: Path, sql: str, *, timeout: float = DEFAULT_TIMEOUT_S, max_rows: int | None = None) -> QueryResult:
    """Run one read-only statement against the SQLite file ``path``."""
    statement = check_read_only(sql)
    connection = open_sqlite_read_only(path)
    deadline = time.monotonic() + timeout
    connection.set_progress_handler(lambda: int(time.monotonic() > deadline), PROGRESS_STEPS)
    try:
        cursor = connection.execute(statement)
        columns = [column[0] for column in cursor.description or []]
        rows = cursor.fetchall() if max_rows is None else cursor.fetchmany(max_rows + 1)
    except sqlite3.DatabaseError as exc:
        raise _sqlite_error(exc, timeout, time.monotonic() > deadline) from exc
    except (sqlite3.Warning, sqlite3.ProgrammingError) as exc:
        raise QueryError(f"the query cannot run: {exc}", "run one SELECT statement at a time") from exc
    finally:
        connection.close()
    truncated = max_rows is not None and len(rows) > max_rows
    return QueryResult(columns, rows[:max_rows] if truncated else rows, truncated)


def _sqlite_error(exc: sqlite3.DatabaseError, timeout: float, late: bool) -> QueryError:
    message = str(exc)
    if message == "interrupted" and late:
        return QueryError(
            f"the query ran longer than {timeout:g} s and was stopped",
            "narrow it (WHERE, LIMIT, fewer joins), or allow more time with {timeout} SECONDS",
        )
    if "not authorized" in message or "readonly" in message or "read-only" in message:
        return QueryError(f"the query tries to change the database ({message}); the database is read-only",
                          _WRITE_HINT)
    if "no such table" in message or "no such column" in message:
        return QueryError(
            f"the query failed: {message}",
            "list the tables and views with: registry query \"SELECT type, name FROM sqlite_master ORDER BY name\"",
        )
    return QueryError(f"the query failed: {message}", "check the SQL syntax near the place SQLite names")


# -- a server (PostgreSQL) ------------------------------------------------------------------


def run_server(url: str, sql: str, *, timeout: float = DEFAULT_TIMEOUT_S, max_rows: int | None = None) -> QueryResult:
    """Run one statement in a READ ONLY transaction with a statement timeout, then roll back.

    The session is opened with every transaction read-only (``default_transaction_read_only``), so
    even a COMMIT smuggled past the statement check would only start another read-only transaction;
    and the statement is sent as a prepared statement (the extended query protocol), which the
    server refuses outright when it holds more than one command. Without ``prepare``, psycopg sends
    a query without parameters as a simple query, where "SELECT 1; COMMIT; ..." runs every part.
    """
    from registry.db.build import connection_error, server_engine

    statement = check_read_only(sql, "postgresql")
    _require_psycopg(url)
    engine = server_engine(url, read_only=True, file_input="db_file")
    try:
        try:
            raw = engine.raw_connection()
        except Exception as exc:  # noqa: BLE001 - SQLAlchemy may pass the driver's own error through
            raise connection_error(url, exc) from exc
        try:
            cursor: Any = raw.cursor()  # psycopg 3's own cursor, whose execute takes prepare=
            cursor.execute("SET TRANSACTION READ ONLY")
            cursor.execute(f"SET LOCAL statement_timeout = {max(1, int(timeout * 1000))}")
            try:
                # No parameters are passed, so a % in the query (LIKE '%gig%') is sent as it is.
                cursor.execute(statement, prepare=True)
                columns = [column[0] for column in cursor.description or []]
                rows = cursor.fetchall() if max_rows is None else cursor.fetchmany(max_rows + 1)
            except Exception as exc:  # noqa: BLE001 - the driver's errors, translated below
                raise _server_error(exc, timeout) from exc
        finally:
            raw.rollback()
            raw.close()
    finally:
        engine.dispose()
    truncated = max_rows is not None and len(rows) > max_rows
    return QueryResult(columns, [tuple(row) for row in (rows[:max_rows] if truncated else rows)], truncated)


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
                          _WRITE_HINT)
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


def run_query(db: str, sql: str, *, timeout: float = DEFAULT_TIMEOUT_S, max_rows: int | None = None) -> QueryResult:
    """Run ``sql`` read-only against ``db``: a SQLite file path, a sqlite:/// URL or a PostgreSQL URL."""
    if timeout <= 0:
        raise QueryError(f"the time limit must be more than 0 seconds, not {timeout:g}", "for example {timeout} 30")
    path = sqlite_path(db)
    if path is None:
        return run_server(db, sql, timeout=timeout, max_rows=max_rows)
    return run_sqlite(path, sql, timeout=timeout, max_rows=max_rows)
