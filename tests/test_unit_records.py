"""Units as registry data: a registry's unit records extend the built-in units, and every reader of units sees them.

tests/data/own-unit is laid over tests/data/fixture-registry: two unit records (images-per-second, printed
'img/s', without a factor; petabyte, printed 'PB', with one) and a result in img/s. The registry validates,
its database, pages and exports show the unit, review's cell check and the reading of printed numbers accept its
forms, and import takes it in the unit column. Each rule a unit record breaks is a case under tests/data/invalid
(tests/test_validate.py).
"""

from __future__ import annotations

import csv
import json
import shutil
import sqlite3
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest

from registry.models import Result
from registry.store.loader import load_registry
from registry.units import BUILT_IN, UnitTable, table, use, using
from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, DATA, FIXTURE_SOURCE

OWN_RESULT = "fixture-genomic-20261201-result-own-unit-hyenadna-images-throughput"


@pytest.fixture(autouse=True)
def built_in_units_after() -> Iterator[None]:
    """Loading a registry puts its units in effect for the process; the tests after these see the built-in ones."""
    yield
    use(BUILT_IN)


@pytest.fixture(scope="module")
def own_unit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture registry with units of its own."""
    root = tmp_path_factory.mktemp("own-unit") / "records"
    shutil.copytree(DATA / "fixture-registry", root)
    shutil.copytree(DATA / "own-unit", root, dirs_exist_ok=True)
    return root


@pytest.fixture(scope="module")
def units(own_unit: Path) -> UnitTable:
    registry, _ = load_registry(own_unit)
    return registry.units


def test_a_registry_with_its_own_unit_validates(own_unit: Path) -> None:
    registry, report = validate(own_unit)
    assert report.valid and not report.warnings, [(i.code, i.message) for i in report.issues]
    result = registry.get_as(OWN_RESULT, Result)
    assert result.unit == "images-per-second" and result.unit in registry.units
    assert registry.units.symbol("images-per-second") == "img/s"
    assert registry.units.spec("images-per-second").dimension.value == "throughput"
    assert registry.units.factor("images-per-second") is None, "no factor: it converts to no other unit"
    assert registry.units.factor("petabyte") == Decimal("1000000000000000")
    assert table() is not BUILT_IN and "images-per-second" in table(), "loading puts the registry's units in effect"


def test_a_registry_without_unit_records_has_the_built_in_units() -> None:
    registry, _ = load_registry(BUNDLED_RECORDS)
    assert registry.units.specs == BUILT_IN.specs
    assert "images-per-second" not in table()


def test_the_forms_of_a_unit_record_are_read_wherever_units_are(units: UnitTable) -> None:
    from registry.curate.values import read_unit
    from registry.numbers import read_number

    with using(units):
        assert units.unit_printed_as("img/s") == ["images-per-second"]
        assert units.unit_named("images per second") == "images-per-second"
        assert read_unit("img/s") == ("images-per-second", None)
        assert read_unit("images/s") == ("images-per-second", None)
        assert read_number("1,230 img/s", "images-per-second").value == Decimal("1230")
        assert read_number("2 PB", "gigabyte").value == Decimal("2000000"), "a unit record's factor scales a reading"
        assert units.printed_as("Printed as images/s in the header") == "images/s"
    with using(BUILT_IN):
        assert read_unit("img/s")[0] is None
        assert "unit record (records/unit/<id>.yaml)" in str(read_unit("img/s")[1])
        assert read_number("2 PB", "gigabyte").value is None and "'2 PB' holds more" in str(
            read_number("2 PB", "gigabyte").advice)


def test_the_database_has_the_unit(own_unit: Path, tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "registry.db"
    result = cli("db", "build", "--records", own_unit, "--out", db)
    assert result.exit_code == 0, result.output
    with sqlite3.connect(db) as connection:
        rows = dict(connection.execute("SELECT token, symbol || ' ' || dimension FROM unit").fetchall())
        assert rows["images-per-second"] == "img/s throughput" and rows["gigabyte"] == "GB memory"
        assert connection.execute("SELECT scale, record_id FROM unit WHERE token = 'petabyte'").fetchone() == (
            "1000000000000000", "fixture-genomic-20261201-unit-petabyte")
        assert connection.execute("SELECT record_id FROM unit WHERE token = 'gigabyte'").fetchone() == (None,)
        declared = connection.execute("SELECT token, id FROM unit_record ORDER BY token").fetchall()
        assert declared == [("images-per-second", "fixture-genomic-20261201-unit-images-per-second"),
                            ("petabyte", "fixture-genomic-20261201-unit-petabyte")]
        forms = connection.execute("SELECT printed_form FROM unit_record_printed_form WHERE unit_record_id = "
                                   "'fixture-genomic-20261201-unit-images-per-second'").fetchall()
        assert sorted(f for (f,) in forms) == ["images/s", "img/s"]
        assert connection.execute("SELECT unit, unit_symbol, unit_dimension FROM results_flat WHERE result_id = ?",
                                  (OWN_RESULT,)).fetchone() == ("images-per-second", "img/s", "throughput")


def test_the_pages_show_the_unit(own_unit: Path, tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    site = tmp_path / "site"
    result = cli("site", "build", "--records", own_unit, "--out", site)
    assert result.exit_code == 0, result.output
    page = (site / "result" / f"{OWN_RESULT}.html").read_text(encoding="utf-8")
    assert "1,230 img/s" in page
    assert 'data-exact="1230">1,230 img/s</span>' in (site / "index.html").read_text(encoding="utf-8")


def test_the_exports_show_the_unit(own_unit: Path, tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    from tests.test_export import eee_logs, export

    out = export(cli, tmp_path, "csv", "--records", str(own_unit))
    with (out / "results_flat.csv").open(encoding="utf-8", newline="") as handle:
        [row] = [r for r in csv.DictReader(handle) if r["result_id"] == OWN_RESULT]
    assert (row["unit"], row["unit_symbol"], row["unit_dimension"]) == ("images-per-second", "img/s", "throughput")
    logs = eee_logs(export(cli, tmp_path, "every-eval-ever", "--records", str(own_unit)))
    units = {r["metric_config"]["metric_unit"] for log in logs.values() for r in log.get("evaluation_results", [])
             if OWN_RESULT in json.dumps(r)}
    assert units == {"images-per-second"}


def test_review_reads_a_unit_records_form_in_a_cell(units: UnitTable) -> None:
    """CellUnit on a cell that prints '1,230 img/s': the registry's unit passes; another unit is named."""
    from registry.checking.cell_units import CellUnit
    from review.tables.cell import CellText

    def spot(text: str, rest: str, column: str = "Throughput") -> SimpleNamespace:
        return SimpleNamespace(cell=CellText(text, text.split()[0], rest=rest), column=SimpleNamespace(name=column),
                               row=SimpleNamespace(name="HyenaDNA"), table=SimpleNamespace(caption="Table 3"),
                               where=f"row 'HyenaDNA', column '{column}'")

    def check(unit: str, symbols: tuple[str, ...], found: SimpleNamespace):  # type: ignore[no-untyped-def]
        claim = CellUnit(OWN_RESULT, "unit", 2, "Table 3", "HyenaDNA", "Throughput", unit, symbols)
        object.__setattr__(claim, "locate", lambda doc: found)
        return claim.check(None)  # type: ignore[arg-type]

    with using(units):
        mine = check("images-per-second", units.printed_forms("images-per-second"), spot("1,230 img/s", "img/s"))
        assert mine.passed and mine.detail == "'img/s' printed in the cell", mine
        header = check("images-per-second", ("img/s", "images/s"), spot("1,230", "", "Throughput (images/s)"))
        assert header.passed and "column header" in header.detail
        other = check("sequences-per-second", BUILT_IN.printed_forms("sequences-per-second"),
                      spot("1,230 img/s", "img/s"))
        assert not other.passed and "the cell prints 'img/s' (images-per-second)" in other.detail


def test_import_takes_a_unit_records_form(demo: Path, tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    shutil.copytree(DATA / "own-unit" / "unit", demo / "unit")
    header = "family,model,dataset,protocol,independence,metric,direction,value,unit,hardware,table,row,column,page,quote"
    table = tmp_path / "throughput.csv"
    table.write_text(f"{header}\nHyenaDNA,HyenaDNA,ImageNet,inference,developer,throughput,higher,\"1,230\",img/s,"
                     "NVIDIA A100,Table 3,HyenaDNA,Throughput (img/s),2,\"1,230\"\n", encoding="utf-8")
    result = cli("import", table, "--source", FIXTURE_SOURCE, "--records", demo)
    assert result.exit_code == 0, result.output
    registry, report = validate(demo)
    assert report.valid, [(i.code, i.message) for i in report.errors]
    [filed] = registry.of_kind(Result)
    assert filed.unit == "images-per-second" and filed.numeric_value == Decimal("1230")


def test_import_refuses_an_unknown_unit_saying_how_to_declare_one(demo: Path, tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    header = "family,model,dataset,protocol,independence,metric,direction,value,unit,table,row,column,page,quote"
    table = tmp_path / "throughput.csv"
    table.write_text(f"{header}\nHyenaDNA,HyenaDNA,ImageNet,inference,developer,throughput,higher,1230,img/s,"
                     "Table 3,HyenaDNA,Throughput,2,1230\n", encoding="utf-8")
    result = cli("import", table, "--source", FIXTURE_SOURCE, "--records", demo)
    assert result.exit_code != 0
    assert "'img/s' is not a unit the registry knows" in result.output and "records/unit/" in result.output
    assert not (demo / "result").exists()


def test_new_takes_a_unit_records_form_and_the_new_locator_fields(own_unit: Path, cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("new", "result", "--records", own_unit, "--dry-run", "--evaluation",
                 "fixture-genomic-20261201-evaluation-hyenadna-throughput-all-tasks", "--metric", "throughput",
                 "--metric-direction", "higher", "--metric-qualifier", "batch size 32", "--unit", "img/s",
                 "--printed-value", "1,230", "--source", FIXTURE_SOURCE, "--source-locator-page", "2",
                 "--source-locator-table", "Table 3", "--source-locator-subtable", "(b)", "--source-locator-row",
                 "HyenaDNA", "--source-locator-column", "Throughput", "--source-locator-uncertainty-column", "SE",
                 "--missing", "uncertainty=unreported", "--missing", "hardware=unreported")
    assert result.exit_code == 0, result.output
    assert "Completed unit 'img/s' to images-per-second" in result.output
    assert "\nunit: images-per-second\n" in result.output
    assert "  subtable: (b)\n" in result.output and "  uncertainty_column: SE\n" in result.output


def test_the_schema_takes_any_token_and_says_the_registry_checks_it() -> None:
    from registry.export.schema import kind_schema

    schema = kind_schema("result")
    unit = schema["properties"]["unit"]  # type: ignore[index]
    assert "enum" not in json.dumps(unit) and unit["pattern"] == "^[a-z0-9]+(?:-[a-z0-9]+)*$"
    assert "unknown-unit" in unit["description"] and "unit record" in unit["description"]
    assert set(kind_schema("unit")["properties"])  # type: ignore[call-overload] >= {"token", "name", "symbol", "dimension", "factor", "printed"}


# -- the locator's new fields, as review reads them -------------------------------------------------------------


def test_review_reads_the_uncertainty_from_its_own_column() -> None:
    from registry.checking.uncertainty import CellUncertainty
    from review.tables.cell import CellText

    def check(printed: str, cell: str):  # type: ignore[no-untyped-def]
        claim = CellUncertainty("r", "uncertainty", 2, "Table 1", "NT 500M", "SE", printed, False, own_column=True)
        found = SimpleNamespace(cell=CellText(cell, cell.lstrip("± ") or None,
                                              plus_minus=cell.lstrip("± ") if cell.startswith("±") else None),
                                where="row 'NT 500M', column 'SE'")
        object.__setattr__(claim, "locate", lambda doc: found)
        return claim.check(None)  # type: ignore[arg-type]

    assert check("0.012", "0.012").passed
    assert check("± 0.012", "± 0.012").passed
    wrong = check("0.012", "0.021")
    assert not wrong.passed and "the cell prints '0.021'" in wrong.detail and wrong.expected.endswith("column 'SE'")


def test_the_uncertainty_column_and_the_subtable_become_claims() -> None:
    from registry.checking.cells import CellAt
    from registry.checking.dispatch import cell_claims
    from registry.checking.uncertainty import CellUncertainty, UncertaintyStated
    from registry.models.values import Locator

    registry, _ = load_registry(DATA / "fixture-registry")
    base = next(r for r in registry.of_kind(Result) if r.uncertainty is not None and r.source_locator.row)
    locator = base.source_locator.model_copy(update={"uncertainty_column": "SE", "subtable": "(b)"})
    result = base.model_copy(update={"source_locator": Locator.model_validate(locator.model_dump())})
    claims = cell_claims(registry, result, [])
    [uncertainty] = [c for c in claims if isinstance(c, CellUncertainty)]
    assert uncertainty.column == "SE" and uncertainty.own_column and uncertainty.row == base.source_locator.row
    # every claim that reads the cited cell looks its row up in the cited sub-table: none passes on the mark alone
    reading = [c for c in claims if isinstance(c, CellAt | UncertaintyStated)]
    assert {type(c).__name__ for c in reading} == {"TableCell", "CellUncertainty", "CellUnit", "UncertaintyStated"}
    assert {c.subtable for c in reading} == {"(b)"}
    assert not any(type(c).__name__ == "InSubtable" for c in claims)
    plain = cell_claims(registry, base, [])
    assert {c.subtable for c in plain if isinstance(c, CellAt)} == {None}


def test_a_subtable_is_cannot_check_never_a_silent_pass() -> None:
    # text without positioned words, though it prints the marks: no sub-table can be read, so a cell cited in one
    # is not passed (tests/test_review_subtables.py reads real and typeset sub-tables)
    from registry.checking.cells import TableCell
    from review.pdf.pdftext import Extraction

    doc = Extraction(pages=("", "Table 2: (a) Histone marks (b) Splice sites\nNT 500M 0.681"), extractor="plain-text")
    got = TableCell("r", "table cell", 2, "Table 2", "NT 500M", "AUC", "0.681", subtable="(b)").check(doc)
    assert (got.passed, got.unreadable) == (False, True)
    assert "gives no positioned words, so the cell cannot be read" in got.detail


def test_the_documented_unit_record_validates(records_dir: Path) -> None:
    """docs/records.md's example unit record is a record the registry takes, as written there."""
    from tests.conftest import ROOT

    readme = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    start = readme.index("  # records/unit/")
    block = readme[start:readme.index("```", start)]
    text = "\n".join(line.removeprefix("  ") for line in block.splitlines())
    name = text.splitlines()[0].removeprefix("# records/unit/")
    (records_dir / "unit").mkdir()
    (records_dir / "unit" / name).write_text(text, encoding="utf-8")
    registry, report = validate(records_dir)
    assert report.valid, [(i.code, i.message) for i in report.errors]
    assert registry.units.symbol("images-per-second") == "img/s"


def _unit(records: Path, slug: str, token: str, dimension: str, printed: list[str]) -> None:
    (records / "unit").mkdir(exist_ok=True)
    forms = "".join(f"- {form}\n" for form in printed)
    (records / "unit" / f"saadat-fellay-20261015-unit-{slug}.yaml").write_text(
        f"kind: unit\nid: saadat-fellay-20261015-unit-{slug}\ntoken: {token}\nname: {slug}\nsymbol: {printed[0]}\n"
        f"dimension: {dimension}\nprinted:\n{forms}", encoding="utf-8")


def test_two_unit_records_of_one_token_or_form_the_later_is_refused(records_dir: Path) -> None:
    """Records are taken in id order: the first keeps the token or form, the later one is reported and left out."""
    _unit(records_dir, "a-images", "images-per-second", "throughput", ["img/s"])
    _unit(records_dir, "b-images", "images-per-second", "throughput", ["images/s"])
    _unit(records_dir, "c-frames", "frames", "count", ["img/s"])
    _unit(records_dir, "d-frames-per-second", "frames-per-second", "throughput", ["img/s", "fps"])
    registry, report = validate(records_dir)
    issues = sorted((i.code, i.record_id, i.field) for i in report.errors)
    assert issues == [("unit-form-claimed", "saadat-fellay-20261015-unit-c-frames", "symbol"),
                      ("unit-token-taken", "saadat-fellay-20261015-unit-b-images", "token")]
    taken = next(i for i in report.errors if i.code == "unit-token-taken")
    assert "token 'images-per-second' is already taken by unit record saadat-fellay-20261015-unit-a-images;" in taken.message
    assert registry.units.unit_printed_as("img/s") == ["images-per-second", "frames-per-second"], \
        "a form two units of one dimension share is kept; read_unit then asks which"
    assert "frames" not in registry.units and registry.units.symbol("images-per-second") == "img/s"
