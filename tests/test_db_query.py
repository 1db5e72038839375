"""`registry query`: read-only, one SELECT at a time, time-limited, clear messages, table/csv/json output."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from registry.db.query import QueryError, check_read_only, open_sqlite_read_only, split_statements
from tests.conftest import BUNDLED_RECORDS, RESULT_11, RESULT_33


@pytest.fixture(scope="module")
def shared_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One database of a copy of the bundled records, built once for the module's tests that only read it."""
    from registry.db.build import build_database

    records = tmp_path_factory.mktemp("query") / "records"
    shutil.copytree(BUNDLED_RECORDS, records)
    out = records.parent / "registry.db"
    build_database(records, out=out)
    return out


@pytest.fixture
def db(request: pytest.FixtureRequest, shared_db: Path) -> Path:
    """The module's database; a test that also takes ``records_dir`` (to edit the records after the build) gets
    one built from its own copy, by the command line."""
    if "records_dir" not in request.fixturenames:
        return shared_db
    records_dir, tmp_path = request.getfixturevalue("records_dir"), request.getfixturevalue("tmp_path")
    out = tmp_path / "registry.db"
    result = request.getfixturevalue("cli")("db", "build", "--records", records_dir, "--out", out)
    assert result.exit_code == 0, result.output
    return out


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(cli, db: Path, sql: str, *options: str):  # type: ignore[no-untyped-def]
    return cli("query", "--db", db, "--records", db.parent / "records", *options, "--", sql)


GOOD = [
    "SELECT result_id, printed_value FROM results_flat",
    "select result_id from results_flat",
    "  \n\tSELECT 1",
    "SELECT 1;",
    "SELECT 1 ;  \n",
    "-- a comment first\nSELECT 1",
    "/* block; comment */ SELECT 1",
    "SELECT 'a;b' AS text_with_semicolon",
    "SELECT 'it''s' AS quoted_quote",
    'SELECT "printed_value" FROM result',
    "SELECT [printed_value] FROM result",
    "WITH big AS (SELECT * FROM result WHERE numeric_value_float > 20) SELECT id FROM big",
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT SUM(i) FROM n",
    "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name",
    "SELECT name, type FROM pragma_table_info('result')",
    "SELECT * FROM missing_metadata_all WHERE field = 'uncertainty'",
    "SELECT COUNT(*) FROM record_review_status GROUP BY review_status",
    "SELECT 1 -- trailing comment with ; inside",
    "SELECT upper('drop table result')",
]

BAD = [
    ("INSERT INTO family (id, name) VALUES ('x', 'y')", "INSERT statements are not allowed"),
    ("insert into family values ('x', 'y', null)", "INSERT statements are not allowed"),
    ("UPDATE result SET printed_value = '1'", "UPDATE statements are not allowed"),
    ("DELETE FROM result", "DELETE statements are not allowed"),
    ("DROP TABLE result", "DROP statements are not allowed"),
    ("DROP VIEW results_flat", "DROP statements are not allowed"),
    ("CREATE TABLE x (a)", "CREATE statements are not allowed"),
    ("ALTER TABLE result ADD COLUMN x", "ALTER statements are not allowed"),
    ("REPLACE INTO family VALUES ('x', 'y', null)", "REPLACE statements are not allowed"),
    ("ATTACH DATABASE '/tmp/other.db' AS other", "ATTACH statements are not allowed"),
    ("DETACH DATABASE main", "DETACH statements are not allowed"),
    ("PRAGMA query_only = 0", "PRAGMA statements are not allowed"),
    ("PRAGMA journal_mode = WAL", "PRAGMA statements are not allowed"),
    ("PRAGMA user_version = 7", "PRAGMA statements are not allowed"),
    ("pragma writable_schema = 1", "PRAGMA statements are not allowed"),
    ("VACUUM", "VACUUM statements are not allowed"),
    ("REINDEX", "REINDEX statements are not allowed"),
    ("ANALYZE", "ANALYZE statements are not allowed"),
    ("BEGIN IMMEDIATE", "BEGIN statements are not allowed"),
    ("  -- sneaky\n  DELETE FROM result", "DELETE statements are not allowed"),
    ("/* comment */ DROP TABLE result", "DROP statements are not allowed"),
    ("SELECT 1; DROP TABLE result", "holds 2 statements"),
    ("SELECT 1; ATTACH DATABASE 'x.db' AS x", "holds 2 statements"),
    ("SELECT 1;SELECT 2", "holds 2 statements"),
    ("WITH x AS (SELECT 1) DELETE FROM result", "the database is read-only"),
    ("WITH x AS (SELECT 1) INSERT INTO family VALUES ('x', 'y', null)", "the database is read-only"),
    ("WITH x AS (SELECT 1) UPDATE result SET unit = 'x'", "the database is read-only"),
    ("", "the query is empty"),
    ("   ;  ; ", "the query is empty"),
    ("-- only a comment", "the query is empty"),
    ("SELEC 1", "must start with SELECT or WITH"),
    ("EXPLAIN SELECT 1", "must start with SELECT or WITH"),
    ("SELECT 'unclosed", "unclosed ' quote"),
    ("SELECT * FROM", "the query failed"),
    ("SELECT * FROM no_such_table", "no such table: no_such_table"),
    ("SELECT no_such_column FROM result", "no such column"),
    ("SELECT load_extension('/tmp/evil.so')", "the query"),
]


@pytest.mark.parametrize("sql", GOOD)
def test_good_queries_run(cli, db: Path, sql: str) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, db, sql)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("sql", "fragment"), BAD)
def test_bad_queries_are_refused_with_a_message(cli, db: Path, sql: str, fragment: str) -> None:  # type: ignore[no-untyped-def]
    before = digest(db)
    result = run(cli, db, sql)
    assert result.exit_code == 1, result.output
    assert fragment in result.output
    assert "Hint:" in result.output
    assert "Traceback" not in result.output
    assert digest(db) == before, "the database is never changed"


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO family (id, name) VALUES ('x', 'y')",
        "DELETE FROM result",
        "DROP TABLE result",
        "UPDATE result SET unit = 'x'",
        "CREATE TABLE x (a)",
        "ATTACH DATABASE ':memory:' AS other",
        "PRAGMA query_only = 0",
        "PRAGMA user_version = 3",
    ],
)
def test_the_connection_itself_refuses_writes(db: Path, statement: str) -> None:
    """Past the statement check, the read-only connection and its authorizer still refuse every write."""
    before = digest(db)
    connection = open_sqlite_read_only(db)
    try:
        with pytest.raises(sqlite3.DatabaseError):
            connection.execute(statement)
            connection.commit()
    finally:
        connection.close()
    assert digest(db) == before


def test_split_statements_ignores_quotes_and_comments() -> None:
    assert split_statements("SELECT ';' -- ;\n; SELECT \"a;b\" /* ; */") == ["SELECT ';'", 'SELECT "a;b"']
    assert check_read_only("  select 1 ; ") == "select 1"
    with pytest.raises(QueryError, match="holds 3 statements"):
        check_read_only("SELECT 1; SELECT 2; SELECT 3")


EXPLOIT = "SELECT $$'$$; COMMIT; CREATE TABLE pwned AS SELECT 1 AS x; SELECT $$'$$"


@pytest.mark.parametrize(
    ("sql", "statements"),
    [
        # Dollar quotes: a quote or a semicolon inside is text; the tag must match.
        ("SELECT $$it's; fine$$", ["SELECT $$it's; fine$$"]),
        ("SELECT $tag$ a $$ ; b $tag$; SELECT 2", ["SELECT $tag$ a $$ ; b $tag$", "SELECT 2"]),
        ("SELECT $a$ $b$ ; $a$", ["SELECT $a$ $b$ ; $a$"]),
        ("SELECT $_ü1$;$_ü1$", ["SELECT $_ü1$;$_ü1$"]),
        (EXPLOIT, ["SELECT $$'$$", "COMMIT", "CREATE TABLE pwned AS SELECT 1 AS x", "SELECT $$'$$"]),
        # Not dollar quotes: a $ inside a name, and a positional parameter.
        ("SELECT a$$b; SELECT 2", ["SELECT a$$b", "SELECT 2"]),
        ("SELECT $1; SELECT $2", ["SELECT $1", "SELECT $2"]),
        # Escape strings: a backslash escapes a quote, and E must stand alone before the quote.
        ("SELECT E'it\\'s; fine'", ["SELECT E'it\\'s; fine'"]),
        ("SELECT e'\\\\'; SELECT 2", ["SELECT e'\\\\'", "SELECT 2"]),
        ("SELECT E'a''b;c'", ["SELECT E'a''b;c'"]),
        ("SELECT E'\\'; COMMIT; SELECT \\''", ["SELECT E'\\'; COMMIT; SELECT \\''"]),
        ("SELECT name'\\'; SELECT 2", ["SELECT name'\\'", "SELECT 2"]),
        # Block comments nest on PostgreSQL.
        ("SELECT 1 /* a /* b */ ; c */ ; SELECT 2", ["SELECT 1", "SELECT 2"]),
        ("SELECT ARRAY[']'] -- ;", ["SELECT ARRAY[']']"]),
    ],
)
def test_split_statements_by_postgresql_rules(sql: str, statements: list[str]) -> None:
    assert split_statements(sql, "postgresql") == statements


def test_split_statements_by_sqlite_rules() -> None:
    """SQLite has no dollar quotes or escape strings: what it would read as one statement stays one."""
    assert split_statements(EXPLOIT) == [EXPLOIT]
    assert split_statements("SELECT E'\\'; SELECT 2") == ["SELECT E'\\'", "SELECT 2"]
    assert split_statements("SELECT 1 /* a /* b */ ; SELECT 2") == ["SELECT 1", "SELECT 2"]
    assert split_statements("SELECT [a;b], `c;d`") == ["SELECT [a;b], `c;d`"]


def test_the_dollar_quote_exploit_is_refused_by_the_statement_check() -> None:
    with pytest.raises(QueryError, match="holds 4 statements"):
        check_read_only(EXPLOIT, "postgresql")
    assert check_read_only("SELECT $$'$$; ", "postgresql") == "SELECT $$'$$"


@pytest.mark.parametrize(
    ("sql", "fragment"),
    [("SELECT $$open", "unclosed $$ quote"), ("SELECT $x$ a $y$", "unclosed $x$ quote"),
     ("SELECT E'open\\'", "unclosed ' quote")],
)
def test_unclosed_postgresql_quotes(sql: str, fragment: str) -> None:
    with pytest.raises(QueryError, match=re.escape(fragment)):
        split_statements(sql, "postgresql")


def test_the_dollar_quote_exploit_against_a_sqlite_file(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    """SQLite reads it as one (broken) statement; it fails, and the file is unchanged."""
    before = digest(db)
    result = run(cli, db, EXPLOIT)
    assert result.exit_code == 1 and "the query failed" in result.output and "Traceback" not in result.output
    assert digest(db) == before


def test_results_as_a_table(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, db, "SELECT printed_value, unit, review_status FROM results_flat ORDER BY numeric_value_float")
    assert result.exit_code == 0, result.output
    assert "11.49" in result.output and "33.88" in result.output
    assert "gigabyte" in result.output and "source-checked" in result.output
    assert "2 row(s)" in result.output


def test_long_values_are_wrapped_not_cut(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, db, "SELECT result_id FROM results_flat")
    assert "…" not in result.output
    assert "".join(result.output.split()).count("flashattention-checkpointing") == 2


def test_null_is_shown_as_null(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, db, "SELECT uncertainty_printed FROM results_flat LIMIT 1")
    assert "NULL" in result.output


def test_results_as_csv(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, db, "SELECT result_id, numeric_value, uncertainty_printed FROM results_flat ORDER BY result_id", "-f",
                 "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows == [["result_id", "numeric_value", "uncertainty_printed"], [RESULT_33, "33.88", ""], [RESULT_11, "11.49", ""]]


def test_results_as_json(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, db, "SELECT result_id, numeric_value, numeric_value_float, uncertainty_printed, review_status "
                          "FROM results_flat ORDER BY result_id", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [
        {"result_id": RESULT_33, "numeric_value": "33.88", "numeric_value_float": 33.88, "uncertainty_printed": None,
         "review_status": "source-checked"},
        {"result_id": RESULT_11, "numeric_value": "11.49", "numeric_value_float": 11.49, "uncertainty_printed": None,
         "review_status": "source-checked"},
    ]


def test_rows_are_capped_in_every_format_with_a_message(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    sql = "SELECT field FROM missing_metadata ORDER BY record_id, position"
    capped = run(cli, db, sql, "--max-rows", "3")
    assert capped.exit_code == 0
    assert "the first 3 rows; more exist" in capped.output
    for format in ("csv", "json"):
        cut = run(cli, db, sql, "--max-rows", "3", "-f", format)
        assert cut.exit_code == 0
        assert "Warning: only the first 3 rows were given; more exist (raise --max-rows" in cut.stderr
        assert (len(cut.stdout.splitlines()) == 4) if format == "csv" else (len(json.loads(cut.stdout)) == 3)
    full = run(cli, db, sql, "-f", "csv")
    assert len(full.stdout.splitlines()) > 4 and "Warning" not in full.stderr


def test_a_long_query_is_stopped(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n"
    result = run(cli, db, endless, "--timeout", "0.3")
    assert result.exit_code == 1
    assert "ran longer than 0.3 s and was stopped" in result.output and "--timeout" in result.output
    assert "Traceback" not in result.output


def test_a_missing_database_says_how_to_build_one(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("query", "SELECT 1", "--db", tmp_path / "nowhere.db", "--records", tmp_path)
    assert result.exit_code == 1
    assert "no database at" in result.output and "registry db build" in result.output
    assert not (tmp_path / "nowhere.db").exists(), "a read-only open never creates the file"


def test_a_file_that_is_not_a_database(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bogus = tmp_path / "registry.db"
    bogus.write_text("this is not a database\n" * 100)
    result = cli("query", "SELECT 1", "--db", bogus, "--records", tmp_path)
    assert result.exit_code == 1
    assert "is not a database SQLite can read" in result.output
    assert "Traceback" not in result.output


def test_a_folder_is_not_a_database(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("query", "SELECT 1", "--db", tmp_path, "--records", tmp_path)
    assert result.exit_code == 1 and "is a folder" in result.output


def test_an_unreachable_server_gets_a_message(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("query", "SELECT 1", "--db", "postgresql+psycopg://u:secret@127.0.0.1:1/x", "--records", tmp_path)
    assert result.exit_code == 1
    assert "cannot use the database at" in result.output and "secret" not in result.output


def test_a_record_edited_in_place_after_the_build(cli, db: Path, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """An edit that leaves the folder's time alone (writing into the file) is noticed too."""
    assert "Warning" not in run(cli, db, "SELECT 1").output
    folder = records_dir / "result"
    folder_time = folder.stat().st_mtime_ns
    record = folder / f"{RESULT_33}.yaml"
    with open(record, "r+", encoding="utf-8") as handle:
        text = handle.read()
        assert "33.88" in text
        handle.seek(0)
        handle.write(text.replace("33.88", "44.88"))
    assert folder.stat().st_mtime_ns == folder_time, "an edit in place, as the finding describes"
    stale = run(cli, db, "SELECT 1")
    assert stale.exit_code == 0
    assert f"record files under {records_dir}/ changed after {db} was built (1 edited)" in stale.output
    assert f"registry db build --records {records_dir} --out {db}" in stale.output


def test_records_added_and_removed_after_the_build(cli, db: Path, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    removed = records_dir / "result" / f"{RESULT_11}.yaml"
    added = records_dir / "family" / "new-family.yaml"
    added.write_text("kind: family\n")
    original = removed.read_bytes()
    removed.unlink()
    stale = run(cli, db, "SELECT 1")
    assert "(1 added, 1 removed)" in stale.output
    removed.write_bytes(original)  # back, but written after the build: its content may differ
    added.unlink()
    assert "(1 edited)" in run(cli, db, "SELECT 1").output


def test_files_the_build_does_not_read_are_not_changes(cli, db: Path, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    (records_dir / "result" / ".draft.yaml").write_text("kind: result\n")  # hidden: a temporary write
    (records_dir / "NOTES.md").write_text("not a record\n")
    (records_dir / ".cache").mkdir()
    (records_dir / ".cache" / "x.yaml").write_text("{}\n")
    assert "Warning" not in run(cli, db, "SELECT 1").output


def test_no_stale_check_without_the_records(cli, db: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("query", "SELECT 1", "--db", db, "--records", tmp_path / "elsewhere")
    assert result.exit_code == 0 and "Warning" not in result.output


def test_the_stale_check_also_follows_a_sqlite_url(cli, db: Path, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    os.utime(records_dir / "result" / f"{RESULT_33}.yaml")  # touched now, after the build
    result = cli("query", "SELECT 1", "--db", f"sqlite:///{db}", "--records", records_dir)
    assert result.exit_code == 0 and "(1 edited)" in result.output


def test_a_query_that_starts_with_a_comment_goes_after_double_dash(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    sql = "-- results in gigabytes\nSELECT COUNT(*) AS n FROM results_flat WHERE unit LIKE '%gig%'"
    as_option = cli("query", "--db", db, "--format", "json", sql)
    assert as_option.exit_code == 2
    assert "looks like SQL, not an option: put -- before SQL" in as_option.output
    assert 'registry query -- "$(cat query.sql)"' in as_option.output
    after_dashes = cli("query", "--db", db, "--format", "json", "--records", db.parent / "records", "--", sql)
    assert after_dashes.exit_code == 0, after_dashes.output
    assert json.loads(after_dashes.stdout) == [{"n": 2}]
    help_text = " ".join(cli("query", "--help").output.split())
    assert "SQL that starts with '-' (such as a -- comment) goes after --" in help_text


def test_an_unknown_option_still_gets_click_s_message(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("query", "--db", db, "--fromat", "csv", "SELECT 1")
    assert result.exit_code == 2 and "No such option: --fromat" in result.output


def test_a_value_with_spaces_after_an_option_is_not_taken_for_sql(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("query", "--db", "-odd name.db", "SELECT 1", "--records", tmp_path)
    assert result.exit_code == 1 and "no database at '-odd name.db'" in result.output


def test_a_url_of_another_server_gets_a_query_hint(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("query", "SELECT 1", "--db", "mysql://x", "--records", tmp_path)
    assert result.exit_code == 1
    assert "only PostgreSQL servers are supported" in result.output
    assert "--db FILE for a SQLite file" in result.output and "--out" not in result.output


@pytest.mark.parametrize("driver", ["psycopg2", "pg8000", "asyncpg"])
def test_queries_need_the_driver_that_refuses_a_second_statement(cli, tmp_path: Path, driver: str) -> None:  # type: ignore[no-untyped-def]
    result = cli("query", "SELECT 1", "--db", f"postgresql+{driver}://u:p@127.0.0.1:1/x", "--records", tmp_path)
    assert result.exit_code == 1
    assert f"queries run only through the psycopg (version 3) driver, not '{driver}'" in result.output


def test_the_records_changed_after_the_build(cli, db: Path, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    fresh = run(cli, db, "SELECT 1")
    assert "Warning" not in fresh.output
    os.utime(db, (1_000_000_000, 1_000_000_000))  # built long ago
    stale = cli("query", "SELECT 1", "--db", db, "--records", records_dir)
    assert stale.exit_code == 0
    assert "changed after" in stale.output and "registry db build" in stale.output


@pytest.mark.parametrize("format", ["csv", "json", "table"])
def test_output_piped_into_head_ends_quietly(db: Path, format: str) -> None:
    """'registry query ... | head -1' is normal use: the first row comes before the query ends, and when the reader
    goes away the command ends quietly (no 'unexpected BrokenPipeError', exit status 0).

    The query is endless and its time limit far away: only rows printed as they come can reach the reader, and
    only ending at the closed pipe can end the command (the time limit would end it with status 1).
    """
    import subprocess
    import sys

    endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n"
    command = [sys.executable, "-m", "registry", "query", "--db", str(db), "--format", format, "--max-rows",
               "1000000000", "--timeout", "600", endless]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=db.parent)
    assert process.stdout is not None and process.stderr is not None
    first_value = {"csv": b"1\n", "json": b'  {\n', "table": "│ 1 ".encode()}[format]
    for line in process.stdout:  # the header, then the first row
        if line.startswith(first_value):
            break
    else:
        raise AssertionError("the output ended before the first row")
    process.stdout.close()  # the reader goes away, as head does
    errors = process.stderr.read().decode()
    assert process.wait(timeout=600) == 0 and errors == "", errors


def test_a_long_table_keeps_its_columns_widths_from_batch_to_batch(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    """A table is printed a batch at a time: widths set by the first batch, a longer value later folds within them."""
    from registry.db.sqlite_worker import BATCH_ROWS

    rows = 3 * BATCH_ROWS
    sql = (f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {rows}) "
           f"SELECT CASE WHEN i = {rows} THEN 'a much longer value than any before it' ELSE 'short' END AS v "
           "FROM n")
    result = cli("query", "--db", db, "--max-rows", str(rows), sql)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    table = [line for line in lines if line[:1] in "┏┃┡│└"]
    assert len({len(line) for line in table}) == 1, "every line of the table has the same width"
    assert sum(line.startswith("┏") for line in lines) == 1 and sum(line.startswith("└") for line in lines) == 1
    body = [line.split("│")[1].strip() for line in table if line.startswith("│")]
    assert body[:rows - 1] == ["short"] * (rows - 1) and len(table[0]) == len("┏━━━━━━━┓")
    assert len(body) > rows and "".join(body[rows - 1:]).replace(" ", "") == "amuchlongervaluethananybeforeit"
    assert lines[-1] == f"{rows} row(s)"


def test_a_wide_result_shows_every_column(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    """Columns that cannot fit the terminal go one block per row, never silently dropped."""
    result = cli("query", "SELECT *, 'LASTVALUE' AS last_col FROM results_flat", "--db", db)
    assert result.exit_code == 0, result.output
    assert "columns do not fit" in result.output and "row 2" in result.output
    assert result.output.count("LASTVALUE") == 2 and "source_sha256" in result.output


def test_the_stale_check_compares_with_the_folder_the_database_was_built_from(  # type: ignore[no-untyped-def]
        cli, db: Path, records_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A database built from another folder is compared with that folder, and the advice rebuilds from it
    (finding P3): following it never replaces the database with the records of the current folder."""
    elsewhere = tmp_path / "work"
    (elsewhere / "records" / "result").mkdir(parents=True)  # a records/ folder here, which the build never read
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("REGISTRY_RECORDS", raising=False)
    assert "Warning" not in cli("query", "--db", db, "SELECT 1").output
    os.utime(records_dir / "result" / f"{RESULT_33}.yaml")  # touched now, after the build
    stale = cli("query", "--db", db, "SELECT 1")
    assert stale.exit_code == 0
    text = " ".join(stale.output.split())
    assert f"record files under {records_dir.resolve()}/ changed after {db} was built (1 edited)" in text
    assert f"registry db build --records {records_dir.resolve()} --out {db}" in text
    # --records still names another folder to compare with, where a user asks for one.
    assert "(1 edited)" not in cli("query", "--db", db, "--records", elsewhere / "records", "SELECT 1").output


def test_the_database_names_the_folder_it_was_built_from(db: Path, records_dir: Path) -> None:
    from registry.db.freshness import RECORDS_FOLDER_KEY, built_from

    assert built_from(db) == records_dir.resolve()
    connection = sqlite3.connect(db)
    try:
        (value,) = connection.execute("SELECT value FROM registry_meta WHERE key = ?", (RECORDS_FOLDER_KEY,)).fetchone()
    finally:
        connection.close()
    assert value == str(records_dir.resolve())
