"""One field added to ``Result`` and nothing else edited: it reaches every reader of the model (issue 26).

JSON Schema, SQL (the result table and results_flat), ``registry show``, the site's result page, the
CSV export, the list of fields each other export does not carry (Every Eval Ever, Hugging Face, PROV),
``registry import``'s columns (and a cell of that column filed into the record), and ``registry new
result``'s options, where the generated table of options regenerates itself because a model changed.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
import yaml
from pydantic import Field

from registry.models import KIND_MODELS, Result
from tests.conftest import FIXTURE_TABLE, RESULT_33

NAME = "confidence_note"
WORDS = "A made-up field for this test: how sure the source says it is."


class WiderResult(Result):
    """Result with one more optional field, and nothing else edited."""

    confidence_note: str | None = Field(None, description=WORDS)


@pytest.fixture
def wider(monkeypatch: pytest.MonkeyPatch, records_dir: Path) -> Path:
    """The wider model in place of Result's, and one bundled result holding a value for the new field."""
    monkeypatch.setitem(KIND_MODELS, "result", WiderResult)
    path = records_dir / "result" / f"{RESULT_33}.yaml"
    path.write_text(path.read_text() + f"{NAME}: stated in the fixture\n")
    return records_dir


def test_json_schema_and_sql(wider: Path, cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from registry.export.schema import kind_schema

    assert kind_schema("result")["properties"][NAME]["description"] == WORDS  # type: ignore[index]
    import sqlite3

    out = tmp_path / "registry.db"
    result = cli("db", "build", "--records", wider, "--out", out)
    assert result.exit_code == 0, result.output
    with sqlite3.connect(out) as connection:
        assert connection.execute(f"SELECT {NAME} FROM result WHERE id = ?", (RESULT_33,)).fetchone() == (
            "stated in the fixture",)
        assert connection.execute(f"SELECT {NAME} FROM results_flat WHERE result_id = ?", (RESULT_33,)).fetchone() \
            == ("stated in the fixture",)


def test_show_and_the_site(wider: Path, cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    shown = cli("show", RESULT_33, "--records", wider)
    assert shown.exit_code == 0, shown.output
    assert "Confidence note" in shown.output and "stated in the fixture" in shown.output
    out = tmp_path / "site"
    built = cli("site", "build", "--records", wider, "--out", out)
    assert built.exit_code == 0, built.output
    page = next(out.rglob(f"{RESULT_33}.html")).read_text(encoding="utf-8")
    assert "Confidence note" in page and "stated in the fixture" in page


def manifest(out: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((out / "registry-export.json").read_text(encoding="utf-8"))


def test_csv_carries_it_and_every_other_export_lists_it_as_not_carried(wider: Path, cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "csv"
    assert cli("export", "--format", "csv", "--records", wider, "--out", out).exit_code == 0
    with open(out / "results_flat.csv", newline="", encoding="utf-8") as handle:
        rows = {row["result_id"]: row for row in csv.DictReader(handle)}
    assert rows[RESULT_33][NAME] == "stated in the fixture"
    for fmt in ("every-eval-ever", "hf", "prov"):
        out = tmp_path / fmt
        result = cli("export", "--format", fmt, "--records", wider, "--out", out)
        assert result.exit_code == 0, result.output
        fields = manifest(out)["result_fields"]
        assert NAME in fields["not_carried"] and NAME not in fields["carried"], fmt
        assert set(fields["carried"]) | set(fields["not_carried"]) == set(WiderResult.model_fields), fmt
    written = [item for item in manifest(tmp_path / "every-eval-ever")["not_carried"] if "fields" in item]
    assert written and all(NAME in item["fields"] for item in written)
    assert any(NAME in item.get("fields", ()) for item in manifest(tmp_path / "prov")["not_carried"])


def test_a_declaration_of_a_field_the_model_lacks_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from registry.export.every_eval_ever import RESULT_FIELDS
    from registry.export.fields import ResultFields

    assert "hardware" in RESULT_FIELDS.carried and "hardware" not in RESULT_FIELDS.not_carried()
    stale = ResultFields(carried={**RESULT_FIELDS.carried, "confidence": "somewhere"})
    with pytest.raises(ValueError, match="the model does not have: confidence"):
        stale.not_carried()


def test_import_has_a_column_for_it_and_files_its_cell(wider: Path, cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from registry.curate.table import columns, markdown_table

    column = next(c for c in columns() if c.name == NAME)
    assert column.fills == (f"result.{NAME}",) and column.help == WORDS
    assert f"| `{NAME}` | `result.{NAME}` |  | {WORDS} |" in markdown_table()
    with open(FIXTURE_TABLE, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    table = tmp_path / "table.csv"
    with open(table, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=[*rows[0], NAME], lineterminator="\n")
        writer.writeheader()
        writer.writerows([{**row, NAME: "as the fixture says" if n == 0 else ""} for n, row in enumerate(rows)])
    result = cli("import", table, "--source", "genomic-benchmarks-fixture", "--records", demo)
    assert result.exit_code == 0, result.output
    filed = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted((demo / "result").glob("*.yaml"))]
    assert [r[NAME] for r in filed if NAME in r] == ["as the fixture says"]


def test_new_result_has_an_option_for_it_once_its_table_regenerates(wider: Path, cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The table of options is older than the model (its stamp names a module that changed since): the first
    'registry new result' reads the options off the model again, rewrites the table, and offers the field."""
    from registry.generated import kindoptions

    table, stamp = tmp_path / "kindoptions.json", tmp_path / ".kindoptions.stamp"
    shutil.copy(kindoptions.TABLE, table)
    module = tmp_path / "records_module.py"
    module.write_text("# the models as they were\n")
    stamp.write_text(json.dumps({"table": kindoptions._digest(table), "sources": {str(module): kindoptions._digest(
        module)}}))
    monkeypatch.setattr(kindoptions, "TABLE", table)
    monkeypatch.setattr(kindoptions, "STAMP", stamp)
    kindoptions.written.cache_clear()
    assert kindoptions.fresh()
    module.write_text("# the models with one more field\n")
    assert not kindoptions.fresh()
    try:
        shown = cli("new", "result", "--help")
        assert shown.exit_code == 0, shown.output
        assert "--confidence-note" in shown.output and "how sure the source says it is" in " ".join(shown.output.split())
        assert "--confidence-note" in table.read_text(encoding="utf-8")
        assert kindoptions.fresh()
    finally:
        kindoptions.written.cache_clear()  # the real table, for the tests after this one


def test_a_list_field_is_a_column_of_several_values(monkeypatch: pytest.MonkeyPatch, cli, demo: Path,  # type: ignore[no-untyped-def]
                                                    tmp_path: Path) -> None:
    class SeededResult(Result):
        seeds: list[int] = Field(default_factory=list, description="The seeds the source ran, made up for a test.")

    monkeypatch.setitem(KIND_MODELS, "result", SeededResult)
    from registry.curate.table import columns

    column = next(c for c in columns() if c.name == "seeds")
    assert column.many and column.help == "The seeds the source ran, made up for a test. Several values separated " \
                                          "by `;`."
    with open(FIXTURE_TABLE, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    table = tmp_path / "table.csv"
    with open(table, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=[*rows[0], "seeds"], lineterminator="\n")
        writer.writeheader()
        writer.writerows([{**row, "seeds": "7; 3" if n == 0 else "x" if n == 1 else ""} for n, row in enumerate(rows)])
    refused = cli("import", table, "--source", "genomic-benchmarks-fixture", "--records", demo)
    assert refused.exit_code == 1 and "row 3, column 'seeds'" in refused.output, refused.output
    with open(table, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=[*rows[0], "seeds"], lineterminator="\n")
        writer.writeheader()
        writer.writerows([{**row, "seeds": "7; 3" if n == 0 else ""} for n, row in enumerate(rows)])
    result = cli("import", table, "--source", "genomic-benchmarks-fixture", "--records", demo)
    assert result.exit_code == 0, result.output
    filed = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted((demo / "result").glob("*.yaml"))]
    assert [r["seeds"] for r in filed if r.get("seeds")] == [[7, 3]]


def test_the_table_of_options_is_stale_without_its_stamp_or_after_a_hand_edit(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from registry.generated import kindoptions

    table, stamp = tmp_path / "kindoptions.json", tmp_path / ".kindoptions.stamp"
    monkeypatch.setattr(kindoptions, "TABLE", table)
    monkeypatch.setattr(kindoptions, "STAMP", stamp)
    table.write_text(kindoptions.render(kindoptions.of_models()).replace("Title as printed", "Older words"))
    assert not kindoptions.fresh()  # no stamp
    kindoptions.refresh()
    assert kindoptions.fresh() and "Older words" not in table.read_text()
    assert kindoptions.parse(table.read_text()) == kindoptions.of_models()
    table.write_text(table.read_text().replace("Title as printed", "Edited by hand"))
    assert not kindoptions.fresh()
