"""The SQL mirror is derived from the record models: the DDL it gives, the naming rule on a made-up kind,
and a field added to a model reaching its table, its child table and ``results_flat`` with no other edit.

The generated DDL is kept in ``tests/data/golden/schema.sqlite.sql`` and ``schema.postgresql.sql``.
After an intended change to the models, the rule or the views, regenerate them and review the diff:

    REGISTRY_REGENERATE_GOLDEN=1 python -m pytest tests/test_db_schema.py
    git diff tests/data/golden/
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
import sqlite3
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import AwareDatetime, Field
from sqlalchemy import create_engine, event

from registry.db import build as build_module
from registry.db import schema as schema_module
from registry.db.rows import record_rows
from registry.db.schema import ordered_tables, schema_ddl
from registry.db.tables import derive, mirror
from registry.db.views import views
from registry.models import KIND_MODELS, MissingMetadata, MissingReason, Record, Result
from registry.models.base import Sql, Strict, ref, refs
from tests.conftest import DATA, RESULT_11, RESULT_33

GOLDEN = DATA / "golden"
REGENERATE = os.environ.get("REGISTRY_REGENERATE_GOLDEN") == "1"


def query(path: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


# -- the golden DDL ---------------------------------------------------------------------------


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_the_generated_ddl_matches_the_golden_file(dialect: str) -> None:
    golden = GOLDEN / f"schema.{dialect}.sql"
    ddl = schema_ddl(dialect)
    if REGENERATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(ddl)
        pytest.skip(f"rewrote {golden.relative_to(DATA.parent.parent)}; review it with git diff")
    expected = golden.read_text()
    if ddl != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), ddl.splitlines(True), str(golden), "generated"))
        pytest.fail(f"the derived schema changed; if that is intended, regenerate the golden files with "
                    f"REGISTRY_REGENERATE_GOLDEN=1 python -m pytest {Path(__file__).name} and review the diff:\n{diff}")


def test_a_build_runs_the_golden_ddl(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The file a build writes holds exactly the statements of the golden SQLite file, in the same order."""
    out = tmp_path / "registry.db"
    assert cli("db", "build", "--records", records_dir, "--out", out).exit_code == 0
    # FTS5 makes its own shadow tables (results_search_data, ...) beside the one statement the golden file keeps.
    built = [sql for (sql,) in query(out, "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL "
                                          "AND name NOT LIKE 'results_search_%' ORDER BY rowid")]
    script = "\n\n".join(f"{sql.strip()};" for sql in built)
    assert "\n".join(line.rstrip() for line in script.splitlines()) + "\n" == (GOLDEN / "schema.sqlite.sql").read_text()


# -- every field has a home -----------------------------------------------------------------


def test_every_field_of_every_kind_has_a_column_or_a_child_table() -> None:
    tables = mirror()
    assert list(tables.kinds) == list(KIND_MODELS)
    for kind, model in KIND_MODELS.items():
        stored = tables.kinds[kind]
        with_children = {path[0] for path, _ in stored.children}
        for name in model.model_fields:
            if name == "kind":
                continue  # in record.kind
            assert stored.columns_of.get(name) or name in with_children, f"{kind}.{name} is not stored"
    assert [t.name for t in ordered_tables()][:3] == ["record", "unit", "source"]
    assert ordered_tables()[-1].name == "registry_meta"


# -- the rule, on a made-up kind with the shapes the next models need ------------------------


class Interval(Strict):
    low: Decimal = Field(description="Lower bound.")
    high: Decimal = Field(description="Upper bound.")


class Uncertainty(Strict):
    kind: Literal["sd", "ci95"] = Field(description="What the spread is.")
    value: Decimal | None = Field(None, description="The spread, where it is one number.")
    interval: Interval | None = Field(None, description="The interval, where it is two.")
    derived_from: Annotated[list[str], Sql(singular="derived_from")] = refs("widget", description="Other widgets.")


class Deviation(Strict):
    kind: Literal["sd"] = Field(description="A standard deviation.")
    value: Decimal = Field(description="Its value.")


class Spread(Strict):
    kind: Literal["range"] = Field(description="A range.")
    low: Decimal = Field(description="Lowest.")
    high: Decimal = Field(description="Highest.")


class PageLocator(Strict):
    kind: Literal["page"] = Field(description="A place on a page.")
    page: int = Field(description="Page.")
    quote: str | None = Field(None, description="Quoted text.")
    figures: Annotated[list[str], Sql(singular="figure", index=True)] = Field(default_factory=list, description="F.")


class CellLocator(Strict):
    kind: Literal["cell"] = Field(description="A cell of a table.")
    page: int = Field(description="Page.")
    cell: str = Field(description="Row and column as printed.")


class HardwareEntry(Strict):
    name: str = Field(description="Device.")
    count: int = Field(1, description="How many.")
    memory: Annotated[dict[str, int], Sql(key="kind", value="bytes")] = Field(default_factory=dict, description="M.")


class Split(Strict):
    size: int | None = Field(None, description="Items in the split.")
    seeds: list[int] = Field(default_factory=list, description="No marker: the table and column take the field's name.")


class Widget(Record):
    """A made-up kind with the shapes the next models need: typed (union) uncertainty and locators, lists of
    objects holding nested objects, lists and mappings, a mapping of objects holding a list."""

    kind: Literal["widget"]
    parent: str | None = ref("widget", default=None, description="Another widget.")
    anything: str | None = ref("widget", "result", default=None, description="A record of either kind.")
    measured_at: AwareDatetime = Field(description="When.")
    flag: bool | int | str = Field(description="A value that may be text, a number or a flag.")
    uncertainty: Uncertainty | None = Field(None, description="An uncertainty with a nested object and a list.")
    error: Deviation | Spread | None = Field(None, description="Typed uncertainty: one of two shapes.")
    locators: Annotated[list[PageLocator | CellLocator], Sql(singular="locator")] = Field(
        default_factory=list, description="Typed locators: each of one of two shapes."
    )
    hardware: list[HardwareEntry] = Field(default_factory=list, description="Devices.")
    splits: Annotated[dict[str, Split], Sql(singular="split", key="name")] = Field(
        default_factory=dict, description="Dataset splits by name."
    )


WIDGET_1 = "test-20260101-widget-one"
WIDGET_2 = "test-20260101-widget-two"


def widget_tables() -> dict[str, Any]:
    tables = derive((("widget", Widget), ("result", Result)))
    return {str(t.name): t for t in tables.tables()}


def columns(table: Any) -> list[tuple[str, str, bool, bool]]:
    """(name, SQLite type, nullable, primary key) of each column."""
    from sqlalchemy.dialects import sqlite

    return [(c.name, c.type.compile(dialect=sqlite.dialect()), bool(c.nullable), bool(c.primary_key))
            for c in table.columns]


def foreign_keys(table: Any) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
    return {(tuple(fk.column_keys), tuple(e.target_fullname for e in fk.elements)) for fk in table.foreign_key_constraints}


def test_the_rule_names_every_table_of_a_made_up_kind() -> None:
    tables = widget_tables()
    assert [name for name in tables if name.startswith("widget")] == [
        "widget", "widget_uncertainty_derived_from", "widget_locator", "widget_locator_figure", "widget_hardware",
        "widget_hardware_memory", "widget_split", "widget_split_seeds",
    ]
    assert "missing_metadata" in tables and "result_source_check" in tables


def test_a_kind_table_flattens_nested_objects_and_keeps_references() -> None:
    widget = widget_tables()["widget"]
    assert columns(widget) == [
        ("id", "VARCHAR", False, True),
        ("parent", "VARCHAR", True, False),
        ("anything", "VARCHAR", True, False),
        ("measured_at", "DATETIME", False, False),
        ("flag", "VARCHAR", False, False),
        ("flag_type", "VARCHAR", False, False),
        # A required field inside an optional object may still be empty.
        ("uncertainty_kind", "VARCHAR", True, False),
        ("uncertainty_value", "VARCHAR", True, False),
        ("uncertainty_value_float", "DOUBLE", True, False),
        ("uncertainty_interval_low", "VARCHAR", True, False),
        ("uncertainty_interval_low_float", "DOUBLE", True, False),
        ("uncertainty_interval_high", "VARCHAR", True, False),
        ("uncertainty_interval_high_float", "DOUBLE", True, False),
        # One of two shapes: the columns of both, 'kind' once.
        ("error_kind", "VARCHAR", True, False),
        ("error_value", "VARCHAR", True, False),
        ("error_value_float", "DOUBLE", True, False),
        ("error_low", "VARCHAR", True, False),
        ("error_low_float", "DOUBLE", True, False),
        ("error_high", "VARCHAR", True, False),
        ("error_high_float", "DOUBLE", True, False),
        ("derivation", "VARCHAR", True, False),
    ]
    assert foreign_keys(widget) == {(("id",), ("record.id",)), (("parent",), ("widget.id",)),
                                    (("anything",), ("record.id",))}
    assert sorted(str(i.name) for i in widget.indexes) == ["ix_widget_anything", "ix_widget_parent"]


def test_lists_of_objects_get_child_and_grandchild_tables() -> None:
    tables = widget_tables()
    # Items of two shapes: a column every shape requires stays NOT NULL, the others may be empty.
    assert columns(tables["widget_locator"]) == [
        ("widget_id", "VARCHAR", False, True), ("position", "BIGINT", False, True), ("kind", "VARCHAR", False, False),
        ("page", "BIGINT", False, False), ("quote", "VARCHAR", True, False), ("cell", "VARCHAR", True, False)]
    assert foreign_keys(tables["widget_locator"]) == {(("widget_id",), ("widget.id",))}
    assert columns(tables["widget_locator_figure"]) == [
        ("widget_id", "VARCHAR", False, True), ("locator_position", "BIGINT", False, True),
        ("position", "BIGINT", False, True), ("figure", "VARCHAR", False, False)]
    assert foreign_keys(tables["widget_locator_figure"]) == {
        (("widget_id", "locator_position"), ("widget_locator.widget_id", "widget_locator.position"))}
    assert [str(i.name) for i in tables["widget_locator_figure"].indexes] == ["ix_widget_locator_figure_figure"]
    # A mapping inside a list item: keyed by the item's position and the mapping's key.
    assert columns(tables["widget_hardware_memory"]) == [
        ("widget_id", "VARCHAR", False, True), ("hardware_position", "BIGINT", False, True),
        ("kind", "VARCHAR", False, True), ("bytes", "BIGINT", False, False)]
    # A list inside a mapping's item: keyed by the item's key.
    assert columns(tables["widget_split"]) == [
        ("widget_id", "VARCHAR", False, True), ("name", "VARCHAR", False, True), ("size", "BIGINT", True, False)]
    assert columns(tables["widget_split_seeds"]) == [
        ("widget_id", "VARCHAR", False, True), ("split_name", "VARCHAR", False, True),
        ("position", "BIGINT", False, True), ("seeds", "BIGINT", False, False)]
    assert foreign_keys(tables["widget_split_seeds"]) == {
        (("widget_id", "split_name"), ("widget_split.widget_id", "widget_split.name"))}
    # A list of references inside a nested object: named by its path, a foreign key per item.
    assert columns(tables["widget_uncertainty_derived_from"])[-1] == ("derived_from", "VARCHAR", False, False)
    assert (("derived_from",), ("widget.id",)) in foreign_keys(tables["widget_uncertainty_derived_from"])


def test_the_made_up_kind_round_trips_through_sqlite(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Rows from the same derivation go into the derived tables, with every foreign key checked."""
    monkeypatch.setitem(KIND_MODELS, "widget", Widget)
    at = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    # Built without validation: the id grammar knows only the registered kinds, and rows do not validate.
    first = Widget.model_construct(kind="widget", id=WIDGET_1, measured_at=at, flag=True)
    second = Widget.model_construct(
        kind="widget", id=WIDGET_2, parent=WIDGET_1, anything=WIDGET_1, measured_at=at, flag=7,
        uncertainty=Uncertainty(kind="ci95", interval=Interval(low=Decimal("1.50"), high=Decimal("2.25")),
                                derived_from=[WIDGET_1]),
        error=Spread(kind="range", low=Decimal("1.5"), high=Decimal("2")),
        locators=[PageLocator(kind="page", page=3, quote="q", figures=["2a", "2b"]),
                  CellLocator(kind="cell", page=4, cell="row 2, GB")],
        hardware=[HardwareEntry(name="NVIDIA H200", memory={"hbm": 150_000_000_000})],
        splits={"test": Split(size=10, seeds=[1, 2]), "train": Split()},
        missing_metadata=[MissingMetadata(field="quote", reason=MissingReason.UNREPORTED)],
    )
    out = tmp_path / "widgets.db"
    engine = create_engine(f"sqlite:///{out}")
    event.listen(engine, "connect", lambda connection, _: connection.execute("PRAGMA foreign_keys = ON"))
    by_table: dict[str, list[dict[str, Any]]] = {}
    for record in (first, second):
        for table, row in record_rows(record, f"widget/{record.id}.yaml"):
            by_table.setdefault(table, []).append(row)
    with engine.begin() as connection:
        for table in ordered_tables():
            connection.execute(schema_module.CreateTable(table))
        for table in ordered_tables():
            if table.name in by_table:
                build_module.insert_rows(connection, table, by_table[str(table.name)])
    engine.dispose()
    assert query(out, "PRAGMA foreign_key_check") == []
    assert query(out, "SELECT id, parent, measured_at, flag, flag_type, uncertainty_kind, uncertainty_interval_low, "
                      "uncertainty_interval_high_float FROM widget ORDER BY id") == [
        (WIDGET_1, None, "2026-01-01 10:00:00.000000", "true", "boolean", None, None, None),
        (WIDGET_2, WIDGET_1, "2026-01-01 10:00:00.000000", "7", "integer", "ci95", "1.50", 2.25)]
    assert query(out, "SELECT id, error_kind, error_value, error_low, error_high_float FROM widget ORDER BY id") == [
        (WIDGET_1, None, None, None, None), (WIDGET_2, "range", None, "1.5", 2.0)]
    assert query(out, "SELECT * FROM widget_locator ORDER BY position") == [
        (WIDGET_2, 0, "page", 3, "q", None), (WIDGET_2, 1, "cell", 4, None, "row 2, GB")]
    assert query(out, "SELECT l.page, f.figure FROM widget_locator l JOIN widget_locator_figure f "
                      "ON f.widget_id = l.widget_id AND f.locator_position = l.position ORDER BY l.position, f.position"
                 ) == [(3, "2a"), (3, "2b")]
    assert query(out, "SELECT * FROM widget_hardware") == [(WIDGET_2, 0, "NVIDIA H200", 1)]
    assert query(out, "SELECT * FROM widget_hardware_memory") == [(WIDGET_2, 0, "hbm", 150_000_000_000)]
    assert query(out, "SELECT * FROM widget_split ORDER BY name") == [(WIDGET_2, "test", 10), (WIDGET_2, "train", None)]
    assert query(out, "SELECT * FROM widget_split_seeds") == [(WIDGET_2, "test", 0, 1), (WIDGET_2, "test", 1, 2)]
    assert query(out, "SELECT * FROM widget_uncertainty_derived_from") == [(WIDGET_2, 0, WIDGET_1)]
    assert query(out, "SELECT record_id, field, reason FROM missing_metadata") == [(WIDGET_2, "quote", "unreported")]


def test_a_shape_the_rule_cannot_store_is_refused() -> None:
    class Grid(Record):
        kind: Literal["grid"]
        cells: list[list[int]] = Field(default_factory=list, description="A list of lists.")

    with pytest.raises(TypeError, match="Grid.cells: a list or mapping of lists has no table rule"):
        derive((("grid", Grid),))

    class Clash(Record):
        kind: Literal["clash"]
        uncertainty: Uncertainty | None = Field(None, description="Nested.")
        uncertainty_kind: str | None = Field(None, description="The same column by another road.")

    with pytest.raises(TypeError, match="table 'clash': two fields are stored in column.s. uncertainty_kind"):
        derive((("clash", Clash),))

    class Mixed(Record):
        kind: Literal["mixed"]
        error: Deviation | Decimal | None = Field(None, description="An object or a number.")

    with pytest.raises(TypeError, match="Mixed.error: a value that may be an object or a plain value has no table"):
        derive((("mixed", Mixed),))


# -- one edit in the model reaches the database ----------------------------------------------


class WiderResult(Result):
    """Result with one more optional scalar field and one more list field, and nothing else edited."""

    confidence_interval: str | None = Field(None, description="A made-up field for this test.")
    seeds: Annotated[list[int], Sql(singular="seed")] = Field(default_factory=list, description="Made up too.")


def widen_results(monkeypatch: pytest.MonkeyPatch, records: Path) -> None:
    """Swap in the wider model and give one bundled result values for its two new fields."""
    monkeypatch.setitem(KIND_MODELS, "result", WiderResult)
    path = records / "result" / f"{RESULT_33}.yaml"
    path.write_text(path.read_text() + "confidence_interval: made up for a test\nseeds: [7, 3]\n")


def test_a_new_result_field_reaches_its_table_and_results_flat(  # type: ignore[no-untyped-def]
    cli, records_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    widen_results(monkeypatch, records_dir)
    out = tmp_path / "registry.db"
    result = cli("db", "build", "--records", records_dir, "--out", out)
    assert result.exit_code == 0, result.output
    assert query(out, "SELECT id, confidence_interval FROM result ORDER BY id") == [
        (RESULT_33, "made up for a test"), (RESULT_11, None)]
    assert query(out, "SELECT result_id, position, seed FROM result_seed ORDER BY position") == [
        (RESULT_33, 0, 7), (RESULT_33, 1, 3)]
    assert ("result_seed", "result_id", "result") in query(
        out, "SELECT 'result_seed', \"from\", \"table\" FROM pragma_foreign_key_list('result_seed')")
    flat = query(out, "SELECT result_id, confidence_interval FROM results_flat ORDER BY result_id")
    assert flat == [(RESULT_33, "made up for a test"), (RESULT_11, None)]
    names = [row[1] for row in query(out, "PRAGMA table_info(results_flat)")]
    assert names.index("confidence_interval") == names.index("source_locator_note") + 1, "after the result's own columns"
    assert "seeds" not in names and "seed" not in names, "a list stays in its child table"


def test_the_views_keep_their_columns_when_results_widen(monkeypatch: pytest.MonkeyPatch) -> None:
    before = {name: select for name, (_, select) in views().items()}
    monkeypatch.setitem(KIND_MODELS, "result", WiderResult)
    after = {name: select for name, (_, select) in views().items()}
    for name in ("results_flat", "results_all"):
        assert after[name] == before[name].replace(
            "       r.source_locator_note,\n", "       r.source_locator_note,\n       r.confidence_interval,\n")
    assert {k: v for k, v in after.items() if k not in ("results_flat", "results_all")} == {
        k: v for k, v in before.items() if k not in ("results_flat", "results_all")}
