"""`registry db build --db URL` and `registry query --db URL` against a real PostgreSQL server.

The server is the one `.ci/run` installs and starts (Debian's postgresql, on loopback). Set
REGISTRY_TEST_POSTGRES_URL to run these tests elsewhere; without it they skip, unless
REGISTRY_REQUIRE_POSTGRES=1 (as in CI), where a missing server is a failure.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from registry.db import build as build_module
from registry.db.schema import ordered_tables
from tests.conftest import RESULT_11, RESULT_33
from tests.test_db_build import RECIPE, REPRODUCTION, add_reproduction
from tests.test_db_schema import widen_results

pytestmark = pytest.mark.postgres

URL = os.environ.get("REGISTRY_TEST_POSTGRES_URL")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The test server's URL, with this registry's tables dropped before and after each test."""
    if not URL:
        if os.environ.get("REGISTRY_REQUIRE_POSTGRES") == "1":
            pytest.fail("REGISTRY_REQUIRE_POSTGRES=1 but REGISTRY_TEST_POSTGRES_URL is not set; run .ci/run")
        pytest.skip("no PostgreSQL server: set REGISTRY_TEST_POSTGRES_URL (as .ci/run does) to run these tests")
    from sqlalchemy import create_engine, text

    engine = create_engine(URL)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001
        engine.dispose()
        pytest.fail(f"REGISTRY_TEST_POSTGRES_URL is set but the server cannot be reached: {exc}")

    def drop_all() -> None:
        with engine.begin() as connection:
            for table in reversed(ordered_tables()):
                connection.execute(text(f'DROP TABLE IF EXISTS "{table.name}" CASCADE'))

    drop_all()
    yield URL
    drop_all()
    engine.dispose()


def pg(url: str, sql: str) -> list[tuple]:  # type: ignore[type-arg]
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(sql))]
    finally:
        engine.dispose()


def build_pg(cli, records: Path, url: str):  # type: ignore[no-untyped-def]
    result = cli("db", "build", "--records", records, "--db", url)
    assert result.exit_code == 0, result.output
    return result


def query_json(cli, url: str, sql: str) -> list[dict]:  # type: ignore[no-untyped-def,type-arg]
    result = cli("query", "--db", url, "--format", "json", "--", sql)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_build_and_query_the_results(cli, records_dir: Path, pg_url: str) -> None:  # type: ignore[no-untyped-def]
    result = build_pg(cli, records_dir, pg_url)
    assert "Built postgresql+psycopg://registry:***@" in result.output, "the password is never printed"
    rows = query_json(cli, pg_url, "SELECT result_id, printed_value, numeric_value, unit, review_status "
                                   "FROM results_flat ORDER BY numeric_value")
    assert rows == [
        {"result_id": RESULT_11, "printed_value": "11.49", "numeric_value": "11.49", "unit": "gigabyte",
         "review_status": "source-checked"},
        {"result_id": RESULT_33, "printed_value": "33.88", "numeric_value": "33.88", "unit": "gigabyte",
         "review_status": "source-checked"},
    ]


def test_exact_decimals_are_numeric_on_the_server(cli, records_dir: Path, pg_url: str) -> None:  # type: ignore[no-untyped-def]
    build_pg(cli, records_dir, pg_url)
    assert pg(pg_url, "SELECT numeric_value, pg_typeof(numeric_value)::text FROM result ORDER BY numeric_value") == [
        (Decimal("11.49"), "numeric"), (Decimal("33.88"), "numeric")]
    assert pg(pg_url, "SELECT SUM(numeric_value) FROM result") == [(Decimal("45.37"),)]


def test_same_rows_as_the_sqlite_file(cli, records_dir: Path, pg_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    add_reproduction(records_dir)
    build_pg(cli, records_dir, pg_url)
    out = tmp_path / "registry.db"
    assert cli("db", "build", "--records", records_dir, "--out", out).exit_code == 0
    connection = sqlite3.connect(out)
    try:
        for table in ordered_tables():
            lite = connection.execute(f'SELECT COUNT(*) FROM "{table.name}"').fetchone()[0]
            assert pg(pg_url, f'SELECT COUNT(*) FROM "{table.name}"') == [(lite,)], table.name
        missing_lite = sorted(connection.execute("SELECT record_id, field, reason FROM missing_metadata_all"))
    finally:
        connection.close()
    assert sorted(pg(pg_url, "SELECT record_id, field, reason FROM missing_metadata_all")) == missing_lite


def test_reproductions_view_on_the_server(cli, records_dir: Path, pg_url: str) -> None:  # type: ignore[no-untyped-def]
    add_reproduction(records_dir)
    build_pg(cli, records_dir, pg_url)
    [row] = query_json(cli, pg_url, "SELECT reproduction_id, transcribed_value, our_value, ratio "
                                    "FROM reproductions_side_by_side WHERE reproduction_id = "
                                    f"'{REPRODUCTION}'")
    assert row["reproduction_id"] == REPRODUCTION
    assert (row["transcribed_value"], row["our_value"]) == ("33.88", "30.12")
    assert row["ratio"] == "0.889020"  # exact, as filed (NUMERIC on the server)


def test_rebuilding_replaces_the_tables(cli, records_dir: Path, pg_url: str) -> None:  # type: ignore[no-untyped-def]
    build_pg(cli, records_dir, pg_url)
    add_reproduction(records_dir)
    build_pg(cli, records_dir, pg_url)
    assert pg(pg_url, f"SELECT COUNT(*) FROM reproduction WHERE id = '{REPRODUCTION}'") == [(1,)]
    assert pg(pg_url, "SELECT COUNT(*) FROM result") == [(2,)]


def test_a_failed_build_changes_nothing_on_the_server(  # type: ignore[no-untyped-def]
    cli, records_dir: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_pg(cli, records_dir, pg_url)
    add_reproduction(records_dir)
    real_insert = build_module.insert_rows
    calls = []

    def failing_insert(connection, table, rows):  # type: ignore[no-untyped-def]
        calls.append(table.name)
        if table.name == "reproduction":
            raise RuntimeError("simulated failure part-way")
        real_insert(connection, table, rows)

    monkeypatch.setattr(build_module, "insert_rows", failing_insert)
    result = cli("db", "build", "--records", records_dir, "--db", pg_url)
    assert result.exit_code == 1
    assert "simulated failure part-way" in result.output and "Traceback" not in result.output
    assert "reproduction" in calls
    assert pg(pg_url, "SELECT COUNT(*) FROM results_flat") == [(2,)]
    assert pg(pg_url, f"SELECT COUNT(*) FROM recipe WHERE id = '{RECIPE}'") == [(0,)], "rolled back"


def test_a_new_result_field_reaches_the_server(  # type: ignore[no-untyped-def]
    cli, records_dir: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One edit in the model (see tests/test_db_schema.py) reaches the server's tables and results_flat too."""
    widen_results(monkeypatch, records_dir)
    try:
        build_pg(cli, records_dir, pg_url)
        assert pg(pg_url, "SELECT id, confidence_interval FROM result ORDER BY id") == [
            (RESULT_33, "made up for a test"), (RESULT_11, None)]
        assert pg(pg_url, "SELECT result_id, position, seed FROM result_seed ORDER BY position") == [
            (RESULT_33, 0, 7), (RESULT_33, 1, 3)]
        assert pg(pg_url, "SELECT data_type FROM information_schema.columns WHERE table_name = 'result_seed' "
                          "AND column_name = 'seed'") == [("bigint",)]
        assert pg(pg_url, "SELECT result_id, confidence_interval FROM results_flat ORDER BY result_id") == [
            (RESULT_33, "made up for a test"), (RESULT_11, None)]
    finally:
        from sqlalchemy import create_engine, text

        engine = create_engine(pg_url)  # the fixture drops only the tables of the models as they are
        with engine.begin() as connection:
            connection.execute(text("DROP TABLE IF EXISTS result_seed"))
        engine.dispose()


@pytest.mark.parametrize(
    ("sql", "fragment"),
    [
        ("DELETE FROM result", "DELETE statements are not allowed"),
        ("WITH gone AS (DELETE FROM result RETURNING id) SELECT * FROM gone", "the database is read-only"),
        ("SELECT 1; DROP TABLE result", "holds 2 statements"),
        ("SELECT nextval('no_such_sequence')", "the query failed"),
        ("SELECT * FROM no_such_table", "the query failed"),
        ("SELEC 1", "must start with SELECT or WITH"),
    ],
)
def test_server_queries_are_read_only(cli, records_dir: Path, pg_url: str, sql: str, fragment: str) -> None:  # type: ignore[no-untyped-def]
    build_pg(cli, records_dir, pg_url)
    result = cli("query", "--db", pg_url, "--", sql)
    assert result.exit_code == 1, result.output
    assert fragment in result.output and "Traceback" not in result.output
    assert pg(pg_url, "SELECT COUNT(*) FROM result") == [(2,)]


EXPLOIT = "SELECT $$'$$; COMMIT; CREATE TABLE pwned AS SELECT 1 AS x; SELECT $$'$$"


@pytest.fixture
def no_pwned(pg_url: str) -> Iterator[str]:
    """The test server's URL, with no table 'pwned' before or after (should a test fail half-way)."""
    from sqlalchemy import create_engine, text

    def drop() -> None:
        engine = create_engine(pg_url)
        try:
            with engine.begin() as connection:
                connection.execute(text("DROP TABLE IF EXISTS pwned"))
        finally:
            engine.dispose()

    drop()
    yield pg_url
    drop()


def pwned_exists(url: str) -> bool:
    return pg(url, "SELECT to_regclass('public.pwned') IS NOT NULL") == [(True,)]


def test_a_dollar_quoted_commit_cannot_write(cli, records_dir: Path, no_pwned: str) -> None:  # type: ignore[no-untyped-def]
    """The finding: $$'$$ hid the semicolons from the check, and COMMIT ended the READ ONLY transaction."""
    result = cli("query", "--db", no_pwned, "--", EXPLOIT)
    assert result.exit_code == 1, result.output
    assert "holds 4 statements" in result.output and "Traceback" not in result.output
    assert not pwned_exists(no_pwned)


@pytest.mark.parametrize(
    "sql",
    [
        EXPLOIT,
        "SELECT 1; COMMIT; CREATE TABLE pwned AS SELECT 1 AS x",
        "SELECT 1; SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE; CREATE TABLE pwned AS SELECT 1 AS x",
    ],
)
def test_the_server_itself_runs_one_statement(no_pwned: str, monkeypatch: pytest.MonkeyPatch, sql: str) -> None:
    """Should the statement check ever miss a semicolon, the server still refuses a second statement."""
    from registry.db import query as query_module

    monkeypatch.setattr(query_module, "check_read_only", lambda statement, dialect="sqlite": statement)
    with pytest.raises(query_module.QueryError, match="holds more than one statement"):
        query_module.run_server(no_pwned, sql)
    assert not pwned_exists(no_pwned)


def test_every_transaction_of_the_session_is_read_only(pg_url: str) -> None:
    from registry.db.query import run_server

    result = run_server(pg_url, "SELECT current_setting('default_transaction_read_only'), "
                                "current_setting('transaction_read_only')")
    assert result.rows == [("on", "on")]


def test_options_in_the_url_are_kept(pg_url: str) -> None:
    from urllib.parse import quote

    from registry.db.query import run_server

    separator = "&" if "?" in pg_url else "?"
    url = f"{pg_url}{separator}options={quote('-c application_name=registry-probe')}"
    result = run_server(url, "SELECT current_setting('application_name'), current_setting('default_transaction_read_only')")
    assert result.rows == [("registry-probe", "on")]


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT COUNT(*) AS n FROM results_flat WHERE unit LIKE '%gig%'", [{"n": 2}]),
        ("SELECT '100%' AS text", [{"text": "100%"}]),
        ("SELECT $$it's; %s fine$$ AS text", [{"text": "it's; %s fine"}]),
        ("SELECT E'it\\'s' AS text", [{"text": "it's"}]),
        ("-- a comment first\nSELECT 1 AS n", [{"n": 1}]),
    ],
)
def test_quotes_and_percent_signs_on_the_server(  # type: ignore[no-untyped-def]
    cli, records_dir: Path, pg_url: str, sql: str, expected: list[dict]  # type: ignore[type-arg]
) -> None:
    build_pg(cli, records_dir, pg_url)
    assert query_json(cli, pg_url, sql) == expected


def test_a_long_server_query_is_stopped(cli, records_dir: Path, pg_url: str) -> None:  # type: ignore[no-untyped-def]
    result = cli("query", "--db", pg_url, "--timeout", "0.5", "--", "SELECT pg_sleep(5)")
    assert result.exit_code == 1
    assert "ran longer than 0.5 s and was stopped" in result.output


def test_a_wrong_password_gets_a_message(cli, records_dir: Path, pg_url: str) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy.engine import make_url

    wrong = make_url(pg_url).set(password="not-the-password").render_as_string(hide_password=False)
    for args in (("db", "build", "--records", records_dir, "--db", wrong), ("query", "--db", wrong, "SELECT 1")):
        result = cli(*args)
        assert result.exit_code == 1, result.output
        assert "cannot use the database at" in result.output and "password" in result.output
        assert "not-the-password" not in result.output


def test_the_views_link_the_site_pages_on_the_server(cli, records_dir: Path, pg_url: str) -> None:  # type: ignore[no-untyped-def]
    """--base-url reaches the server's views as on SQLite: each id's page on the site; none without it."""
    build_pg(cli, records_dir, pg_url)
    assert {row["result_page"] for row in query_json(cli, pg_url, "SELECT result_page FROM results_flat")} == {None}
    result = cli("db", "build", "--records", records_dir, "--db", pg_url, "--base-url", "https://example.org/r")
    assert result.exit_code == 0, result.output
    rows = query_json(cli, pg_url, "SELECT result_id, result_page FROM results_flat ORDER BY result_id")
    assert rows and all(row["result_page"] == f"https://example.org/r/result/{row['result_id']}.html" for row in rows)
    kinds = query_json(cli, pg_url, "SELECT kind, record_id, record_page FROM record_status")
    assert all(row["record_page"] == f"https://example.org/r/{row['kind']}/{row['record_id']}.html" for row in kinds)
