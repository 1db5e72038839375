"""Each witness's verdict shown apart, never merged: on the review's and the result's pages (in a real browser),
in 'registry show', and in the exports (flat CSV, Every Eval Ever, PROV, Hugging Face eval results).

The registry is the fixture registry with one result citing a cell of the Typst fixture
(tests/data/sources/typst, a stand-in document), reviewed against its PDF and its Typst source with --write.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from registry.cli import app
from tests.browser_support import Watched, browser
from tests.test_sources import RESULT, SOURCES, _registry

__all__ = ["browser"]  # a fixture, used by name

CELL = ("Table 1", "Small models / Base", "Accuracy (%) / Set B", "68.4")


def _run(*args: object) -> Any:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("witnessed")
    records = _registry(base, "typst", "typst/paper.typ", CELL)
    result = _run("review", RESULT, "--records", records, "--pdf", SOURCES / "typst" / "paper.pdf", "--cache-dir",
                  base / "cache", "--source", SOURCES / "typst" / "paper.typ", "--write")
    assert "review" in result.output and list((records / "review").glob("*.yaml")), result.output
    return records


def _review_id(records: Path) -> str:
    import yaml

    for path in sorted((records / "review").glob("*.yaml")):
        record = yaml.safe_load(path.read_text(encoding="utf-8"))
        if RESULT in record.get("subjects", []) and record.get("claims"):
            return str(record["id"])
    raise AssertionError("no review of the result was written")


def test_registry_show_lists_each_witness_of_the_result_and_of_the_review(reviewed: Path) -> None:
    shown = " ".join(_run("show", RESULT, "--records", reviewed).output.split())
    assert "Witness (Source) the source paper.typ (the registry's Typst reader" in shown
    assert "Witness (PDF)" in shown
    review = " ".join(_run("show", _review_id(reviewed), "--records", reviewed).output.split())
    assert "Claims, witness by witness" in review and "Source witness: the source paper.typ" in review


def test_the_review_page_shows_the_witnesses_side_by_side(reviewed: Path, browser: Any, tmp_path: Path) -> None:
    from tests.browser_support import build

    site = build(reviewed, tmp_path / "site")
    watched = Watched(browser)
    try:
        page = watched.open(site / "review" / f"{_review_id(reviewed)}.html")
        section = page.locator("section", has_text="Claims, witness by witness").first
        headers = section.locator("th").all_inner_texts()
        assert "Review's verdict" in headers
        source_column = next(i for i, h in enumerate(headers) if h.startswith("Source witness: the source paper.typ"))
        pdf_columns = [i for i, h in enumerate(headers) if h.startswith("PDF witness:")]
        assert pdf_columns, headers
        row = section.locator("tr", has_text="table cell").first
        cells = row.locator("td").all_inner_texts()
        assert cells[source_column].startswith("pass") and "68.4" in cells[source_column]
        assert all(cells[i].startswith("pass") for i in pdf_columns), cells
        result_page = watched.open(site / "result" / f"{RESULT}.html")
        text = " ".join(result_page.locator("body").inner_text().split())
        assert "Witness (Source)" in text and "Witness (PDF)" in text
        assert not watched.errors and not watched.remote
    finally:
        watched.close()


def test_the_exports_carry_each_witness_apart(reviewed: Path, tmp_path: Path) -> None:
    out = tmp_path / "csv"
    assert _run("export", "--format", "csv", "--records", reviewed, "--out", out).exit_code == 0
    with open(out / "results_flat.csv", encoding="utf-8", newline="") as handle:
        row = next(r for r in csv.DictReader(handle) if r["result_id"] == RESULT)
    assert row["source_witnesses"].startswith("the source paper.typ (the registry's Typst reader")
    assert "pass" in row["source_witnesses"] and row["pdf_witnesses"]
    assert "source" not in row["pdf_witnesses"]  # never merged: the PDF's readings alone
    descriptor = json.loads((out / "datapackage.json").read_text(encoding="utf-8"))
    fields = {f["name"] for r in descriptor["resources"] for f in r["schema"]["fields"]}
    assert {"pdf_witnesses", "source_witnesses"} <= fields
    eee = tmp_path / "eee"
    assert _run("export", "--format", "every-eval-ever", "--records", reviewed, "--out", eee).exit_code == 0
    written = " ".join(p.read_text(encoding="utf-8") for p in eee.rglob("*.json"))
    assert "source_witnesses" in written and "the registry's Typst reader" in written
