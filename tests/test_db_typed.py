"""Typed rows: docs/database.md's Python example, run as written on a SQLite build and on PostgreSQL; the classes
follow the models (a field of the mirror is an attribute), relationships follow references, nothing writes."""

from __future__ import annotations

import contextlib
import io
import os
import re
from decimal import Decimal
from pathlib import Path

import pytest

from tests.conftest import RESULT_11, RESULT_33, ROOT

pytest.importorskip("sqlmodel", reason="typed rows need sqlmodel: pip install -e .")


def readme_example() -> str:
    text = (ROOT / "docs" / "database.md").read_text()
    section = text.split("**Python: typed rows.**", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.DOTALL)[1]  # type: ignore[index]


def run_example(database: str) -> str:
    code = readme_example().replace('"registry.db"', repr(database))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "docs/database.md", "exec"), {})  # noqa: S102 (the document's own example)
    return printed.getvalue()


def check_output(printed: str) -> None:
    lines = printed.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("33.88 gigabyte | NT 2.5B | [") and lines[0].endswith("| 33.88")
    assert lines[1].startswith("11.49 gigabyte | NT 2.5B | [")
    # Each result lists the reviewer of each review that checks it (one review names none: None, as filed).
    assert all(line.split("|")[2].strip() not in ("[]", "") for line in lines)
    assert "'claude'" in lines[1]


def test_the_readme_example_runs_on_sqlite(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    assert cli("db", "build", "--records", ROOT / "records", "--out", "registry.db").exit_code == 0
    check_output(run_example("registry.db"))


@pytest.mark.postgres
def test_the_readme_example_runs_on_postgresql(pg_url: str, cli) -> None:  # type: ignore[no-untyped-def]
    from tests.test_db_postgres import build_pg

    build_pg(cli, ROOT / "records", pg_url)
    check_output(run_example(pg_url))


def test_rows_are_typed_and_related(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    from sqlmodel import select

    from registry.db.tables import mirror
    from registry.db.typed import open_read_only, row_classes, rows

    db = tmp_path / "registry.db"
    assert cli("db", "build", "--out", db).exit_code == 0
    classes = row_classes()
    assert set(classes) == {table.name for table in mirror().tables()}
    for table in mirror().tables():  # every column of the derived table is an attribute of its class
        assert set(classes[table.name].model_fields) == {column.name for column in table.columns}
    with open_read_only(db) as session:
        result = session.exec(select(rows.result).where(rows.result.id == RESULT_11)).one()
        assert result.numeric_value == Decimal("11.49") and isinstance(result.numeric_value, Decimal)
        assert result.evaluation_record.id == result.evaluation
        assert result.id in {r.id for r in result.evaluation_record.results}
        assert [h.accelerator for h in result.hardware] and result.source_record.id == result.source
        review = result.reviews[0]
        assert review.reviewed_at.tzinfo is not None and RESULT_11 in {s.subject for s in review.subject}
        assert {r.id for r in session.exec(select(rows.result))} == {RESULT_11, RESULT_33}
        session.add(rows.family(id="x-20260101-family-new", name="New"))
        with pytest.raises(Exception, match="readonly|read-only"):
            session.flush()


def test_a_missing_database_gets_a_message(tmp_path: Path) -> None:
    from registry.db.typed import open_read_only
    from registry.errors import RegistryError

    with pytest.raises(RegistryError, match="is not a database file"):
        with open_read_only(tmp_path / "none.db"):
            pass


if os.environ.get("REGISTRY_TEST_POSTGRES_URL"):  # the server fixture, for the PostgreSQL run above
    from tests.test_db_postgres import pg_url  # noqa: F401
else:
    @pytest.fixture
    def pg_url() -> str:
        if os.environ.get("REGISTRY_REQUIRE_POSTGRES") == "1":
            pytest.fail("REGISTRY_REQUIRE_POSTGRES=1 but REGISTRY_TEST_POSTGRES_URL is not set; run .ci/run")
        pytest.skip("no PostgreSQL server: set REGISTRY_TEST_POSTGRES_URL (as .ci/run does) to run this test")
