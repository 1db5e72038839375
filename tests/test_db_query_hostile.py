"""`registry query` against queries and files meant to hold the machine: each stops within its limits, with a message.

The figures of how long each takes and how much memory it holds are in benchmarks/bench_query.py;
these tests check the outcome and the message (and, loosely, that nothing runs on for long).
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
from pathlib import Path

import pytest

from registry.db.query import Limits, QueryError, open_query, run_query
from tests.conftest import DATA
from tests.test_db_postgres import pg_url  # noqa: F401,F811 - the server fixture

pytestmark = pytest.mark.sandbox  # starts processes that are limited or killed (sandboxes, torch runs): left out of make test-fast

HOSTILE = DATA / "hostile" / "query"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import shutil

    from registry.db.build import build_sqlite
    from registry.validate.runner import validate
    from tests.conftest import BUNDLED_RECORDS

    root = tmp_path_factory.mktemp("query") / "records"
    shutil.copytree(BUNDLED_RECORDS, root)
    registry, _ = validate(root)
    out = root.parent / "registry.db"
    build_sqlite(registry, out)
    return out


def query(cli, db: Path, sql: str, *options: str):  # type: ignore[no-untyped-def]
    return cli("query", "--db", db, "--records", db.parent / "records", *options, "--", sql)


def test_a_named_pipe_is_refused_not_waited_on(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    fifo = tmp_path / "registry.db"
    os.mkfifo(fifo)
    result = query(cli, fifo, "SELECT 1")
    assert result.exit_code == 1
    assert f"'{fifo}' is a named pipe, not a database file" in result.output and "point --db at a .db file" in result.output


@pytest.mark.parametrize(("sql", "fragment"), [
    # 40 chained calls of 400 MB each: the first value past the size limit ends it.
    ("SELECT " + " + ".join(["length(hex(zeroblob(4e8)))"] * 40), "a value in the query grew past 67,108,864 bytes"),
    ("SELECT randomblob(1e9)", "a value in the query grew past 67,108,864 bytes"),
    # 1,000 columns of 60 MB each, in one step of SQLite's machine: its own clock is never looked at, so the
    # process is killed at the time limit, unless it reached the memory limit first. Either way it never
    # finishes: 60 GB of hexadecimal is far beyond the time limit on any machine.
    ("SELECT " + ", ".join(["length(hex(zeroblob(30000000)))"] * 1000),
     "ran longer than 0.1 s and was stopped|needed more than 1,024 MB of memory and was stopped"),
    # Endless: only the time limit can end it, however fast or busy the machine is.
    ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n",
     "ran longer than 0.1 s and was stopped"),
])
@pytest.mark.parametrize("format", ["table", "json"])
def test_an_expensive_query_is_stopped_within_its_limits(cli, db: Path, sql: str, fragment: str,  # type: ignore[no-untyped-def]
                                                         format: str) -> None:
    """Each query here can only end by a limit, whatever the machine's speed or load (no race against a clock).

    How long a single expensive call (printf('%.*c', 999999999, 'x')) takes depends on the machine, so it is
    measured in benchmarks/bench_query.py; the process kill it needs is tested with a query process that hangs.
    """
    result = query(cli, db, sql, "--timeout", "0.1", "--format", format)
    assert result.exit_code == 1
    assert any(one in result.output for one in fragment.split("|")) and "Hint:" in result.output
    assert len(result.stdout) < 1000, "nothing of the value was printed"


def test_a_query_process_that_never_answers_is_killed(cli, db: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """One step of SQLite's machine that never looks at its clock: the process is killed once its time is up."""
    hung = tmp_path / "hung_worker.py"
    hung.write_text("import sys, time\nsys.stdin.buffer.read()\nwhile True:\n    time.sleep(60)\n")
    monkeypatch.setattr("registry.db.query.WORKER", hung)
    monkeypatch.setattr("registry.db.query.KILL_GRACE_S", 0.0)
    result = query(cli, db, "SELECT 1", "--timeout", "0.01")
    assert result.exit_code == 1
    assert "the query ran longer than 0.01 s and was stopped" in result.output and "--timeout SECONDS" in result.output


def test_memory_is_limited(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    wide = "SELECT " + ", ".join(["zeroblob(900000)"] * 40)
    result = query(cli, db, wide, "--max-memory", "16")
    assert result.exit_code == 1
    assert "the query needed more than 16 MB of memory and was stopped" in result.output
    assert "--max-memory MB" in result.output
    one = query(cli, db, "SELECT zeroblob(2000000)", "--max-memory", "16")
    assert "grew past 1,048,576 bytes, the most one value may hold (a 16th of the memory limit)" in one.output
    assert query(cli, db, "SELECT length(zeroblob(2000000))").exit_code == 0


def test_a_blob_is_shown_as_its_size_and_long_text_is_cut(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    result = query(cli, db, "SELECT randomblob(4194304) AS b, printf('%.*c', 5000, 'x') AS t")
    assert result.exit_code == 0
    assert "<blob: 4,194,304 bytes>" in result.output
    assert "... (5,000 characters; --format csv or json gives the whole value)" in result.output
    whole = query(cli, db, "SELECT printf('%.*c', 5000, 'x') AS t", "--format", "json")
    assert json.loads(whole.stdout) == [{"t": "x" * 5000}]


def test_terminal_escapes_in_a_database_are_shown_not_acted_on(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    sql = "SELECT char(27) || '[2J' || char(27) || '[31mred' AS name, char(155) || '31m' AS c1"
    table = query(cli, db, sql)
    assert "\x1b" not in table.stdout and "\x9b" not in table.stdout
    assert "\\x1b[2J\\x1b[31mred" in table.stdout and "\\x9b31m" in table.stdout
    as_json = query(cli, db, sql, "--format", "json")
    assert "\x1b" not in as_json.stdout and "\x9b" not in as_json.stdout
    assert json.loads(as_json.stdout) == [{"name": "\x1b[2J\x1b[31mred", "c1": "\x9b31m"}], "the same value"
    as_csv = query(cli, db, sql, "--format", "csv")  # escaped as the table shows them, even into a pipe
    assert "\x1b" not in as_csv.stdout and "\x9b" not in as_csv.stdout
    assert as_csv.stdout.splitlines()[1] == "\\x1b[2J\\x1b[31mred,\\x9b31m"


def test_csv_escapes_control_characters_as_the_table_does(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 28 item 14: a carriage return, a NUL, DEL and a bidirectional override are written as escapes in CSV;
    a tab and a line feed stay (CSV quotes them), and JSON keeps the exact value."""
    sql = ("SELECT char(13) || 'a' || char(0) || char(127) AS x, char(8238) || 'b' AS y, "
           "'c' || char(9) || 'd' || char(10) || 'e' AS z")
    as_csv = query(cli, db, sql, "--format", "csv")
    assert as_csv.exit_code == 0, as_csv.output
    assert as_csv.stdout == 'x,y,z\n\\x0da\\x00\\x7f,\\u202eb,"c\td\ne"\n'
    table = query(cli, db, sql)
    assert "\\x0da\\x00\\x7f" in table.stdout and "\\u202eb" in table.stdout
    as_json = query(cli, db, sql, "--format", "json")
    assert json.loads(as_json.stdout) == [{"x": "\ra\x00\x7f", "y": "\u202eb", "z": "c\td\ne"}]


def test_a_malformed_json_literal_is_the_querys_fault_not_the_database(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 28 item 13: SQLite's 'malformed JSON' names the query and says the database is fine."""
    result = query(cli, db, "SELECT json('[1,')")
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "the query \"SELECT json('[1,')\" gives a json function text that is not valid JSON" in text
    assert "the database itself is fine" in text and "check the JSON literals in the query" in text
    assert "damaged" not in text and "rebuild" not in text
    damaged = query(cli, db, "SELECT json_extract('{\"a\": ', '$.a')")
    assert "not valid JSON" in damaged.output and "damaged" not in damaged.output


def test_rows_stream_as_they_come(db: Path) -> None:
    """Rows are never collected: the first arrives before the query ends, and closing early ends the query.

    The query is endless and has no time limit to speak of: only reading one row and closing can end this test.
    """
    endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n"
    with open_query(str(db), endless, Limits(timeout=86400, max_rows=None)) as stream:
        assert next(iter(stream)) == (1,)


def test_a_damaged_schema_gets_a_message(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A schema whose SQL holds bytes that are not UTF-8: SQLite's own error message is not UTF-8 either."""
    damaged = tmp_path / "registry.db"
    damaged.write_bytes((HOSTILE / "damaged-schema.db").read_bytes())
    result = query(cli, damaged, "SELECT * FROM record")
    assert result.exit_code == 1
    assert "is not a database SQLite can read: the file is damaged" in result.output
    assert "rebuild it with 'registry db build'" in result.output
    refused = cli("db", "build", "--records", tmp_path / "records", "--out", damaged)
    assert "unexpected" not in refused.output


def test_damaged_databases_never_give_an_unexpected_error(db: Path, tmp_path: Path) -> None:
    """Seeded corruptions of a built database (bytes overwritten anywhere): a result or a QueryError, never else."""
    original = db.read_bytes()
    damaged = tmp_path / "damaged.db"
    outcomes = {"rows": 0, "error": 0}
    for seed in range(60):
        rng = random.Random(seed)
        data = bytearray(original)
        for _ in range(rng.choice([1, 5, 50, 500])):
            data[rng.randrange(len(data))] = rng.randrange(256)
        damaged.write_bytes(bytes(data))
        for sql in ("SELECT * FROM results_flat", "SELECT name, sql FROM sqlite_master"):
            try:
                run_query(str(damaged), sql, timeout=10)
                outcomes["rows"] += 1
            except QueryError as exc:
                assert "unexpected" not in exc.message
                outcomes["error"] += 1
    assert outcomes["rows"] and outcomes["error"]


def test_the_in_process_connection_is_read_only_and_names_damage(db: Path) -> None:
    """``open_sqlite_read_only`` (for tools and tests) refuses a damaged file with the same message."""
    from registry.db.query import open_sqlite_read_only

    connection = open_sqlite_read_only(db)
    try:
        with pytest.raises(sqlite3.DatabaseError):
            connection.execute("CREATE TABLE x (a)")
    finally:
        connection.close()
    with pytest.raises(QueryError, match="the file is damaged"):
        open_sqlite_read_only(HOSTILE / "damaged-schema.db")


@pytest.mark.postgres
def test_a_server_query_streams_and_stops_at_its_row_limit(cli, pg_url: str) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """On PostgreSQL rows come one at a time (single-row mode) and the rest are cancelled past --max-rows.

    The series has no end a server could reach: collecting it before the first row could only be stopped by
    the time limit, an error here. It is called in the select list, where PostgreSQL yields it a row at a time
    (a set-returning function in FROM is gathered whole first, by the server, before any row is sent).
    """
    many = "SELECT generate_series(1::bigint, 9223372036854775807::bigint) AS i"
    result = cli("query", "--db", pg_url, "--format", "csv", "--max-rows", "5", "--", many)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["i", "1", "2", "3", "4", "5"]
    assert "Warning: only the first 5 rows were given; more exist" in result.stderr
    with open_query(pg_url, "SELECT 1 AS n UNION ALL SELECT 2", Limits(max_rows=None)) as stream:
        assert list(stream) == [(1,), (2,)] and not stream.truncated
