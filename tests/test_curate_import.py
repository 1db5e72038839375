"""`registry import`: a results table becomes the chain of records it needs, once, with corrections, never edits.

The table is the example docs/curating.md walks through: Table 1 of the fixture paper
(tests/data/papers/genomic-benchmarks-fixture; invented numbers), imported into a registry that holds
only the fixture's source.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest

from registry.models import Correction, Evidence, Result
from registry.validate.runner import validate
from tests.conftest import DATA, ROOT
from tests.conftest import FIXTURE_SOURCE as SOURCE
from tests.conftest import FIXTURE_TABLE as TABLE

TRUTH = DATA / "papers" / "genomic-benchmarks-fixture" / "truth.json"
PDF = DATA / "papers" / "genomic-benchmarks-fixture" / "paper.pdf"


def tree(root: Path) -> dict[str, str]:
    """Every file under the records folder (hidden ones included), by path, with its SHA-256."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*"))
            if p.is_file()}


def rows_of(path: Path = TABLE) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def write_rows(path: Path, rows: list[dict[str, str]], columns: list[str] | None = None) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns or list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


def put(path: Path, data: str | bytes) -> Path:
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


def run_import(cli, table: Path, records: Path, *extra: str):  # type: ignore[no-untyped-def]
    return cli("import", table, "--source", "genomic-benchmarks-fixture", "--records", records, *extra)


def test_a_table_becomes_the_whole_chain_and_every_value_is_the_papers(cli, demo: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_import(cli, TABLE, demo)
    assert result.exit_code == 0, result.output
    assert "34 new; 0 correction(s); 0 evidence row(s)" in result.output
    registry, report = validate(demo)
    assert report.valid and not report.warnings, [i.message for i in report.issues]
    kinds = {}
    for record in registry.records.values():
        kinds[record.kind_token] = kinds.get(record.kind_token, 0) + 1
    assert kinds == {"source": 1, "family": 2, "config": 3, "protocol": 1, "dataset": 4, "evaluation": 12,
                     "result": 12}
    truth = {(n["location"]["row"][0], " / ".join(n["location"]["column"])): n
             for n in json.loads(TRUTH.read_text())["numbers"]
             if n["location"].get("label") == "Table 1" and n["location"]["kind"] == "table-cell"}
    results = registry.of_kind(Result)
    assert len(results) == len(truth) == 12
    for r in results:
        expected = truth[(r.source_locator.row, r.source_locator.column)]
        assert r.printed_value == expected["printed"] and r.numeric_value == Decimal(expected["value"])
        assert r.uncertainty is not None and r.uncertainty.half_width == Decimal(expected["uncertainty"]["half_width"])
        assert r.uncertainty.over is not None and r.uncertainty.over.count == expected["uncertainty"]["n"]
        assert r.source_locator.page == expected["page"] and r.source_locator.quote == expected["location"]["cell_text"]
        assert r.source_locator.table == "Table 1" and r.unit == "dimensionless" and r.metric == "mcc"
        evaluation = registry.records[r.evaluation]
        config = registry.records[evaluation.configuration]
        assert config.reported_name == r.source_locator.row, "each row's model is its configuration"
        assert r.missing("uncertainty") is None and r.hardware[0].accelerator == "NVIDIA H100"
    nt = registry.records["fixture-genomic-" + results[0].id.split("-")[2] + "-config-nt-2-5b"]
    assert nt.missing("checkpoint").reason.value == "not-transcribed", "a column the table lacks: nobody transcribed it"


@pytest.mark.pdf
def test_the_imported_records_pass_the_source_check_against_the_pdf(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert run_import(cli, TABLE, demo).exit_code == 0
    checked = cli("review", SOURCE, "--pdf", PDF, "--records", demo, "--cache-dir", tmp_path / "cache")
    assert checked.exit_code == 0, checked.output
    import re

    passed = re.search(r"All (\d+) assertions passed\.", checked.output)
    assert passed and int(passed.group(1)) >= 39, "every quote, page, printed value and cell is on the page"


def test_importing_the_same_table_again_writes_nothing(cli, demo: Path) -> None:  # type: ignore[no-untyped-def]
    assert run_import(cli, TABLE, demo).exit_code == 0
    before = tree(demo)
    again = run_import(cli, TABLE, demo)
    assert again.exit_code == 0, again.output
    assert "Nothing to write: every row of genomic-benchmarks-fixture-table-1.csv (12 rows) is in the registry" in \
        again.output
    assert "12 row(s) unchanged" in again.output
    assert tree(demo) == before


def test_a_changed_value_is_filed_as_a_correction_never_an_edit(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert run_import(cli, TABLE, demo).exit_code == 0
    before = tree(demo)
    rows = rows_of()
    rows[0]["value"], rows[0]["quote"] = "0.618", "0.618 ± 0.019"
    changed = write_rows(tmp_path / "changed.csv", rows)
    refused = run_import(cli, changed, demo)
    assert refused.exit_code == 1
    assert "changed.csv row 2, column 'value': the registry holds this result as" in refused.output
    assert "printed_value: 0.681 -> 0.618" in refused.output and "give its reason (--reason)" in refused.output
    assert tree(demo) == before, "nothing is written until the correction has its reason and its curator"
    done = run_import(cli, changed, demo, "--reason", "Table 1 prints 0.618", "--curator", "A. Curator")
    assert done.exit_code == 0, done.output
    assert "0 new; 1 correction(s)" in done.output
    after = tree(demo)
    assert {k: v for k, v in after.items() if k in before} == before, "no file that existed changed"
    registry, report = validate(demo)
    assert report.valid
    (correction,) = registry.of_kind(Correction)
    old, new = registry.records[correction.supersedes], registry.records[correction.replacement]
    assert isinstance(old, Result) and isinstance(new, Result)
    assert (old.printed_value, new.printed_value) == ("0.681", "0.618")
    assert correction.reason == "Table 1 prints 0.618" and correction.corrected_by == "A. Curator"
    assert new.evaluation == old.evaluation, "the replacement is of the same evaluation"
    assert run_import(cli, changed, demo).exit_code == 0 and tree(demo) == after, "the corrected table is filed"


def test_an_import_planned_before_another_writer_wrote_is_checked_again_and_refused(cli, demo: Path,  # type: ignore[no-untyped-def]
                                                                                    tmp_path: Path) -> None:
    """The import's plan was checked against the registry it loaded; a correction filed since of the same result
    would branch its chain. Checked again under the batch lock, the import is refused and writes nothing."""
    from registry.curate.importer import ImportOptions, import_table
    from registry.curate.table import TableError

    assert run_import(cli, TABLE, demo).exit_code == 0
    stale, _ = validate(demo)
    (first,) = [r for r in stale.of_kind(Result) if r.printed_value == "0.681"]
    other = cli("correct", first.id, "--set", "printed_value=0.682", "--reason", "another writer", "--curator", "B",
                "--date", "20261130", "--records", demo)  # another day's id: no file name the import writes
    assert other.exit_code == 0, other.output
    before = tree(demo)
    rows = rows_of()
    rows[0]["value"], rows[0]["quote"] = "0.618", "0.618 ± 0.019"
    changed = write_rows(tmp_path / "changed.csv", rows)
    options = ImportOptions(source=SOURCE, reason="Table 1 prints 0.618", curator="A. Curator")
    with pytest.raises(TableError) as refused:
        import_table(demo, stale, changed, options)
    assert "correction-branch" in str(refused.value) and "nothing was written" in str(refused.value)
    assert tree(demo) == before
    assert validate(demo)[1].valid


def test_a_review_of_the_results_gives_each_its_evidence_row(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert run_import(cli, TABLE, demo).exit_code == 0
    reviewed = cli("review", SOURCE, "--pdf", PDF, "--records", demo, "--cache-dir", tmp_path / "cache", "--write")
    assert reviewed.exit_code == 0, reviewed.output
    result = run_import(cli, TABLE, demo, "--review", "pdf-check")
    assert result.exit_code == 0, result.output
    assert "12 evidence row(s)" in result.output
    registry, report = validate(demo)
    assert report.valid, [i.message for i in report.errors]
    rows = registry.of_kind(Evidence)
    assert len(rows) == 12 and all(e.statement == registry.records[e.subject].printed_value for e in rows)
    assert all(e.source_artifact_sha256 == registry.records[SOURCE].sha256 for e in rows)
    before = tree(demo)
    assert run_import(cli, TABLE, demo, "--review", "pdf-check").exit_code == 0 and tree(demo) == before


def test_dry_run_says_what_it_would_write(cli, demo: Path) -> None:  # type: ignore[no-untyped-def]
    before = tree(demo)
    result = run_import(cli, TABLE, demo, "--dry-run")
    assert result.exit_code == 0 and "Would write 34 record(s)" in result.output and "(dry run: nothing written)" \
        in result.output
    assert tree(demo) == before


def test_a_tsv_table_and_a_task_column_read_the_same(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rows = rows_of()
    columns = ["task" if c == "dataset" else c for c in rows[0]]
    renamed = [{("task" if k == "dataset" else k): v for k, v in row.items()} for row in rows]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, delimiter="\t", lineterminator="\n")
    writer.writeheader()
    writer.writerows(renamed)
    (tmp_path / "table.tsv").write_text(buffer.getvalue())
    assert run_import(cli, tmp_path / "table.tsv", demo).exit_code == 0
    before = tree(demo)
    assert run_import(cli, TABLE, demo).exit_code == 0 and tree(demo) == before, "the CSV finds the TSV's records"


def test_records_that_exist_are_shared_and_near_duplicate_names_are_noted(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rows = rows_of()
    assert run_import(cli, write_rows(tmp_path / "first.csv", rows[:4]), demo).exit_code == 0
    rows[4]["family"] = "Nucleotide Transformers"
    rows[4]["model"] = rows[4]["row"] = "NT 2.5B v2"
    result = run_import(cli, write_rows(tmp_path / "second.csv", rows[4:5]), demo)
    assert result.exit_code == 0, result.output
    assert "model family 'Nucleotide Transformers' is new; the registry has 'Nucleotide Transformer'" in result.output
    registry, _ = validate(demo)
    datasets = [r for r in registry.records.values() if r.kind_token == "dataset"]
    assert len(datasets) == 4, "the second table's H3K4me3 is the first table's"


#: (what is wrong, a change to the rows or the file, the message it must give)
BAD: list[tuple[str, Callable[[Path, list[dict[str, str]]], Path], str]] = [
    ("missing value", lambda p, rows: write_rows(p, [*rows[:1], {**rows[1], "value": ""}, *rows[2:]]),
     "row 3, column 'value': missing value"),
    ("unknown unit", lambda p, rows: write_rows(p, [{**rows[0], "unit": "gigabite"}, *rows[1:]]),
     "row 2, column 'unit': 'gigabite' is not a unit the registry knows; did you mean 'gigabyte' (GB)?"),
    ("ambiguous unit", lambda p, rows: write_rows(p, [{**rows[0], "unit": "B"}, *rows[1:]]),
     "row 2, column 'unit': 'B' is printed for several units (billion, byte)"),
    ("no such record", lambda p, rows: write_rows(p, [{**rows[0], "family":
                                                       "fixture-genomic-20261201-family-nucleotide-transformr"},
                                                      *rows[1:]]),
     "row 2, column 'family': 'fixture-genomic-20261201-family-nucleotide-transformr' names no record in the registry"),
    ("duplicate row", lambda p, rows: write_rows(p, [*rows, rows[0]]),
     "row 14: the row repeats the result of row 2"),
    ("unknown column", lambda p, rows: write_rows(p, [{("vlaue" if k == "value" else k): v for k, v in r.items()}
                                                      for r in rows]),
     "row 1, column 'vlaue': unknown column; did you mean 'value'?"),
    ("missing column", lambda p, rows: write_rows(p, [{k: v for k, v in r.items() if k != "direction"}
                                                      for r in rows]),
     "row 1: the table has no column 'direction', which every results table needs"),
    ("a number with its uncertainty", lambda p, rows: write_rows(p, [{**rows[0], "value": "0.681 ± 0.019"},
                                                                    *rows[1:]]),
     "row 2, column 'value': '0.681 ± 0.019' holds an uncertainty"),
    ("an uncertainty without its kind", lambda p, rows: write_rows(p, [{**rows[0], "uncertainty_kind": ""},
                                                                      *rows[1:]]),
     "row 2, column 'uncertainty_kind': missing value: an uncertainty needs its kind"),
    ("a flattened power of ten", lambda p, rows: write_rows(p, [{**rows[0], "value": "3.2 × 104"}, *rows[1:]]),
     "row 2, column 'value': '3.2 × 104' may be a product or a power of ten whose superscript the text flattened "
     "('3.2 × 10^4'): write the power with a caret"),
    ("a page that is no number", lambda p, rows: write_rows(p, [{**rows[0], "page": "two"}, *rows[1:]]),
     "row 2, column 'page': 'two' is not a page number"),
    ("an interval that excludes its value", lambda p, rows: write_rows(p, [
        {**rows[0], "uncertainty": "[0.70, 0.75]", "uncertainty_kind": "min-max"}, *rows[1:]]),
     "row 2, column 'uncertainty': uncertainty-excludes-value: the min-max [0.70, 0.75] does not contain the value"),
    ("a ragged row", lambda p, rows: put(p, TABLE.read_text().replace("\n", ",extra\n", 2).replace(
        ",extra\n", "\n", 1)),
     "row 2: the row has 19 cells but the header names 18 columns"),
    ("a binary file", lambda p, rows: put(p, PDF.read_bytes()),
     "the file holds binary data, so it is not a table"),
    ("a record file", lambda p, rows: put(p, (DATA / "fixture-registry" / "source" / f"{SOURCE}.yaml").read_text()),
     "the first row names none of the columns of a results table"),
    ("an empty file", lambda p, rows: put(p, ""), "the file is empty"),
    ("a header only", lambda p, rows: put(p, TABLE.read_text().splitlines()[0] + "\n"),
     "the table holds no rows below its header"),
]


@pytest.mark.parametrize("case", [case for case, _, _ in BAD])
def test_each_bad_input_is_named_by_row_and_column_and_nothing_is_written(cli, demo: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                          case: str) -> None:
    _, make, expected = next(entry for entry in BAD if entry[0] == case)
    table = make(tmp_path / "bad.csv", rows_of())
    before = tree(demo)
    result = run_import(cli, table, demo)
    assert result.exit_code == 1, result.output
    assert expected in result.output, result.output
    assert "nothing was written" in result.output and "Traceback" not in result.output
    assert tree(demo) == before


def test_every_problem_of_a_table_is_listed_at_once(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rows = rows_of()
    rows[0]["unit"], rows[3]["value"], rows[7]["direction"] = "gigabite", "", "up"
    result = run_import(cli, write_rows(tmp_path / "bad.csv", rows), demo)
    assert result.exit_code == 1
    assert "row 2, column 'unit'" in result.output and "row 5, column 'value'" in result.output
    assert "row 9, column 'direction': 'up' is not 'higher' or 'lower'" in result.output
    assert "3 problems in bad.csv (listed above); nothing was written" in result.output


def test_a_row_that_changes_a_shared_record_is_refused(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert run_import(cli, TABLE, demo).exit_code == 0
    rows = rows_of()
    rows[2]["independence"] = "independent-external"
    result = run_import(cli, write_rows(tmp_path / "other.csv", rows), demo)
    assert result.exit_code == 1
    assert "row 4, column 'independence': the registry's evaluation" in result.output
    assert "has independence 'developer', the row 'independent-external'; a table does not change a record it " \
           "shares" in result.output


def test_a_retracted_result_is_not_filed_again(cli, demo: Path) -> None:  # type: ignore[no-untyped-def]
    assert run_import(cli, TABLE, demo).exit_code == 0
    registry, _ = validate(demo)
    first = sorted(r.id for r in registry.of_kind(Result))[0]
    assert cli("retract", first, "--reason", "a test", "--curator", "a test", "--records", demo).exit_code == 0
    before = tree(demo)
    result = run_import(cli, TABLE, demo)
    assert result.exit_code == 0 and "1 row(s) retracted earlier, not filed again" in result.output
    assert tree(demo) == before


@pytest.mark.slow
def test_a_large_table_shows_its_progress(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    template = rows_of()[0]
    rows = [{**template, "model": f"Model {n}", "row": f"Model {n}", "family": "Nucleotide Transformer"}
            for n in range(250)]
    result = run_import(cli, write_rows(tmp_path / "large.csv", rows), demo)
    assert result.exit_code == 0, result.output
    assert "Reading rows" in result.output and "Writing files" in result.output and "250/250" in result.output
    assert "753 new" in result.output  # 250 configurations, evaluations and results; a family, a dataset, a protocol


def test_the_table_of_columns_is_generated_from_their_declarations() -> None:
    """Regenerate with: python -m registry.cli.docs --write"""
    from registry.cli.docs import SECTIONS
    from registry.curate.table import COLUMNS

    (section,) = [s for s in SECTIONS if s.name == "import columns"]
    document = (ROOT / section.document).read_text()
    assert section.with_section(document) == document, f"{section.document}'s table of columns is stale"
    assert all(f"`{column.name}`" in document for column in COLUMNS)


def test_a_short_row_does_not_hide_the_problems_of_the_other_rows(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rows = rows_of()
    rows[1]["unit"], rows[3]["value"], rows[4]["direction"] = "gigabite", "0.655 ± 0.024", "up"
    rows[5]["uncertainty_kind"], rows[6]["value"] = "sd", "~0.70"  # a range (0.70–0.72) is read now
    text = write_rows(tmp_path / "bad.csv", [*rows, rows[0]]).read_text(encoding="utf-8").splitlines()
    text[3] = text[3].rsplit(",", 3)[0]  # row 4 loses its last three cells
    result = run_import(cli, put(tmp_path / "bad.csv", "\n".join(text) + "\n"), demo)
    assert result.exit_code == 1
    for expected in ("row 3, column 'unit'", "row 4: the row has 15 cells but the header names 18 columns",
                     "row 5, column 'value': '0.655 ± 0.024' holds an uncertainty", "row 6, column 'direction'",
                     "row 7, column 'uncertainty_kind'", "row 8, column 'value'",
                     "row 14: the row repeats the result of row 2", "7 problems in bad.csv (listed above)"):
        assert expected in result.output, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("bad.csv row")]
    assert [line.split(",")[0].split(":")[0] for line in lines] == [f"bad.csv row {n}" for n in (3, 4, 5, 6, 7, 8, 14)]


def test_an_import_dated_after_today_is_refused(cli, demo: Path) -> None:  # type: ignore[no-untyped-def]
    import datetime as dt

    tomorrow = (dt.datetime.now(dt.UTC) + dt.timedelta(days=1)).strftime("%Y%m%d")
    before = tree(demo)
    result = run_import(cli, TABLE, demo, "--date", tomorrow)
    assert result.exit_code == 1
    assert f"Error: '{tomorrow}' is after today" in result.output and "(--date)" in result.output
    assert tree(demo) == before


def test_a_source_that_names_no_record_gets_the_ids_there_are(cli, demo: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("import", TABLE, "--source", "saadat", "--records", demo, "--dry-run")
    assert result.exit_code == 1
    assert "Error: source 'saadat' names no record; it needs a source" in result.output
    assert f"Hint: no id is close to it; the source ids are: {SOURCE}" in result.output


def test_recover_and_fmt_refuse_a_records_folder_that_is_not_one(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "empty").mkdir()
    for command in (["recover"], ["fmt"], ["fmt", "--check"]):
        missing = cli(*command, "--records", tmp_path / "nonexistent")
        assert missing.exit_code == 1, missing.output
        assert f"Error: the records folder '{tmp_path / 'nonexistent'}' does not exist" in missing.output
        empty = cli(*command, "--records", tmp_path / "empty")
        assert empty.exit_code == 1 and f"no record files (*.yaml) under '{tmp_path / 'empty'}'" in empty.output
        assert "Hint: point --records at the folder that holds '<kind>/<id>.yaml' files" in empty.output
        assert "nothing to undo" not in empty.output and "Reformatted 0" not in empty.output
