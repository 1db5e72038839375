"""The fixture paper transcribed: every result filed as printed, where printed, typed; validate, show, list, SQL.

tests/data/fixture-registry/ is written by tests/data/papers/genomic-benchmarks-fixture/transcribe.py from the
paper's truth file; these tests hold it to that file, so a transcription that drifts from the PDF fails here.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from registry.models import Result
from registry.store.loader import Registry
from registry.validate.runner import validate
from tests.conftest import DATA

FIXTURE = DATA / "fixture-registry"
TRUTH = json.loads((DATA / "papers" / "genomic-benchmarks-fixture" / "truth.json").read_text(encoding="utf-8"))
RESULTS = [e for e in TRUTH["numbers"] if e["role"] == "result" and not e.get("same_as")]
UNITS = {None: "dimensionless", "%": "percent", "GB": "gigabyte", "Sequences/s": "sequences-per-second",
         "sequences per second": "sequences-per-second", "ms": "millisecond", "s": "second",
         "percentage points": "percentage-point", "×": "times", "times": "times"}


@pytest.fixture(scope="module")
def fixture_registry() -> Registry:
    registry, report = validate(FIXTURE)
    assert report.valid and not report.warnings, [(i.location, i.message) for i in report.issues]
    return registry


def filed(registry: Registry, entry: dict[str, Any]) -> Result:
    from registry.ids import slugify

    return registry.get_as(f"fixture-genomic-20261201-result-{slugify(entry['id'])}", Result)


def test_every_result_the_paper_prints_is_filed(fixture_registry: Registry) -> None:
    assert len(fixture_registry.of_kind(Result)) == len(RESULTS) == 161


@pytest.mark.parametrize("entry", RESULTS, ids=[e["id"] for e in RESULTS])
def test_each_result_is_filed_as_printed_where_printed(fixture_registry: Registry, entry: dict[str, Any]) -> None:
    result = filed(fixture_registry, entry)
    assert result.printed_value == entry["printed"] and result.numeric_value == Decimal(entry["value"])
    assert result.unit == UNITS[entry.get("unit")]
    where, locator = entry["location"], result.source_locator
    assert locator.page == entry["page"]
    if where["kind"] == "table-cell":
        assert (locator.table, locator.row, locator.column) == (
            where["label"], " / ".join(where["row"]), " / ".join(where["column"]))
        assert locator.quote == where["cell_text"]
    else:
        assert locator.quote == where["quote"] and locator.caption == (where["kind"] == "caption")
    printed = entry.get("uncertainty")
    if printed is None:
        assert result.uncertainty is None and result.missing("uncertainty") is not None
    else:
        assert result.uncertainty is not None and result.uncertainty.printed == printed["printed"]
        assert result.uncertainty.over is not None and result.uncertainty.over.count == printed["n"]
    hardware = {"hw-h100": "NVIDIA H100", "hw-a100": "NVIDIA A100"}[entry["hardware"]]
    assert [h.accelerator for h in result.hardware] == [hardware]


def test_derived_values_name_their_inputs(fixture_registry: Registry) -> None:
    derived = {r.id: r.derived for r in fixture_registry.of_kind(Result) if r.derived is not None}
    operations = sorted(d.operation.value for d in derived.values())
    assert operations.count("mean") == 12 and operations.count("difference") == 5
    assert {"ratio", "reduction", "speed-up"} <= set(operations)
    delta = derived["fixture-genomic-20261201-result-t2-h3k27ac-delta"]
    assert delta is not None and delta.value == "fixture-genomic-20261201-result-t2-h3k27ac-lora"
    assert delta.baseline == "fixture-genomic-20261201-result-t1-nt-2-5b-h3k27ac"  # Table 2 repeats Table 1's cell


@pytest.mark.parametrize(("record", "edits", "message"), [
    ("t2-h3k27ac-delta", [("printed_value: \u22120.021", "printed_value: \u22120.031"), ("'-0.021'", "'-0.031'")],
     "printed \u22120.031, but 0.667 - 0.688 = -0.0210"),
    ("t5-nt-500m-fold-3-h3k4me3", [("'0.694'", "'0.794'")], "but the mean of its inputs ="),
    ("t1-nt-2-5b-h3k4me3", [("\u00b1 0.021", "\u00b1 0.031"), ("'0.021'", "'0.031'")],
     "the standard-deviation is printed '\u00b1 0.031', but the standard deviation (sample or population) of 10 "
     "values"),
])
def test_a_mistranscribed_number_is_caught_by_the_numbers_it_follows_from(
        tmp_path: Path, record: str, edits: list[tuple[str, str]], message: str) -> None:
    records = tmp_path / "records"
    shutil.copytree(FIXTURE, records)
    path = records / "result" / f"fixture-genomic-20261201-result-{record}.yaml"
    text = path.read_text()
    for old, new in edits:
        assert old in text, (old, path.name)
        text = text.replace(old, new)
    path.write_text(text)
    _, report = validate(records)
    assert {i.code for i in report.errors} == {"derived-mismatch"}, [(i.code, i.message) for i in report.errors]
    assert any(message in i.message for i in report.errors), [i.message for i in report.errors]


def test_the_readme_query_of_mcc_by_model_and_task_needs_no_string_parsing(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "fixture.db"
    assert cli("db", "build", "--records", FIXTURE, "--out", db).exit_code == 0
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT dataset_name, reported_name, numeric_value, uncertainty_half_width, uncertainty_over_count "
            "FROM results_flat WHERE metric = 'mcc' AND uncertainty_kind = 'standard-deviation' "
            "AND aggregated_over_kind = 'folds' ORDER BY dataset_name, numeric_value_float DESC").fetchall()
        dimensions = dict(connection.execute(
            "SELECT unit_dimension, COUNT(*) FROM results_flat GROUP BY unit_dimension").fetchall())
        accelerators = dict(connection.execute(
            "SELECT hardware_accelerator, COUNT(*) FROM results_flat GROUP BY hardware_accelerator").fetchall())
    assert len(rows) == 12 and rows[0][:2] == ("H3K27ac (genomic benchmarks fixture)", "NT 2.5B")
    assert rows[0][2:] == ("0.688", "0.017", 10)
    assert set(dimensions) == {"dimensionless", "percentage", "percentage-point", "memory", "time", "throughput"}
    assert accelerators == {"NVIDIA H100": 154, "NVIDIA A100": 7}  # Table 3 and section 6 ran on the A100


def test_show_and_list_render_the_typed_values(cli) -> None:  # type: ignore[no-untyped-def]
    shown = cli("show", "fixture-genomic-20261201-result-t1-nt-2-5b-h3k4me3", "--records", FIXTURE)
    assert shown.exit_code == 0, shown.output
    page = " ".join(shown.output.split())
    for phrase in ("0.702", "\u00b1 0.021", "Table 1 (page 2), row 'NT 2.5B', column 'Histone marks / H3K4me3'",
                   "'one node with 8 NVIDIA H100 GPUs (80 GB each)' (section 4)"):
        assert phrase in page, phrase
    listed = cli("list", "--kind", "result", "--records", FIXTURE)
    assert listed.exit_code == 0 and "0.702" in listed.output
