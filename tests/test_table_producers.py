"""One gold table typeset by five producers (``tests/data/producers``, test fixtures made by ``generate.py``
there): ``registry table`` CSV -> ``registry import`` -> ``registry review``, with no hand edit, per producer.

Every row the CSV writes must pass the review with both extractors (the CSV is the review's own reading);
the cells it leaves out are named, with why, and counted here against the gold. Where a producer is
installed, the PDF is rendered again and its text compared with the committed PDF's.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import importlib.util
import io
import json
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from registry.numbers import parse_printed
from review.pdf import poppler
from tests.conftest import DATA

PRODUCERS = DATA / "producers"
NAMES = ("latex", "pandoc", "html", "typst", "libreoffice", "libreoffice-odt", "libreoffice-tagged",
         "libreoffice-ruled")
SOURCE_ID = "fixture-{name}-20261207-source-latency-of-generated-models"
#: What a curator fills that the page cannot (the unit is printed only in the caption: milliseconds).
SETTINGS = ("family=Generated models", "dataset=Latency benchmark", "metric={column_last}", "direction=lower",
            "unit=ms", "uncertainty_kind=standard-deviation")
#: Producers whose page the reader cannot yet read as a table the CSV can carry any row of (strict expected
#: failures; the reading belongs to the table reader, review/tables/read.py and review/tables/crossing.py).
UNREAD: dict[str, str] = {
    "libreoffice": "LibreOffice sets the column headers 'Batch 1' 'Batch 8' 'Peak' close together and the row labels "
                   "wrapped over two to four lines: the reader merges neighbouring columns ('31.7 0.52') and takes a "
                   "wrapped label's second line for a row group, so no cell is found again as a record would cite it",
    "libreoffice-odt": "the same table with its numeric headers flush right: the reader finds no table under the "
                       "caption at all (the lines of the wrapped row labels, between the rows of numbers, break it "
                       "up), so 'registry table' says 'no table on page 1'",
}

pytestmark = [pytest.mark.pdf, pytest.mark.skipif(poppler.find_pdftotext() is None,
                                                  reason="poppler-utils is not installed")]


@functools.cache
def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("producers_generate", PRODUCERS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _source(records: Path, name: str, pdf: Path) -> str:
    from review.pdf.pdftext import extract_pdf

    source_id = SOURCE_ID.format(name=name)
    created = extract_pdf(pdf).creation_date or "2024-06-01"
    (records / "source").mkdir(parents=True)
    (records / "source" / f"{source_id}.yaml").write_text(f"""\
kind: source
id: {source_id}
title: Latency of generated models (a test fixture typeset by {name})
authors:
- Registry Test Fixture
year: 2026
venue: none (a test fixture of the registry, tests/data/producers/{name})
role: original
host: this repository, tests/data/producers/{name}/paper.pdf
heading: This page is a test fixture of the registry
page_count: 1
pdf_creation_date: {created}
sha256: {hashlib.sha256(pdf.read_bytes()).hexdigest()}
hash_scope: The whole PDF file.
retrieval_url: https://example.org/registry-test-fixture/{name}.pdf
""", encoding="utf-8")
    return source_id


def test_every_producer_has_its_source_pdf_and_gold() -> None:
    generate = _generator()
    gold = generate.gold_rows()
    for name in NAMES:
        folder = PRODUCERS / name
        source = folder / generate.SOURCES[name][0]
        assert (folder / "paper.pdf").is_file() and source.is_file(), name
        with (folder / "cells.tsv").open(encoding="utf-8", newline="") as handle:
            assert list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)) == gold, name
        if source.suffix not in generate.BINARY:
            assert generate.FIXTURE in source.read_text(encoding="utf-8"), name


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=UNREAD[name])) if name in UNREAD else name
    for name in NAMES])
def test_table_csv_imported_then_reviewed(cli, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    pdf = PRODUCERS / name / "paper.pdf"
    made = cli("table", pdf, "--page", "1", "--table", "Table 1", "--format", "csv",
               *[part for item in SETTINGS for part in ("--set", item)])
    assert made.exit_code == 0, made.output
    rows = list(csv.DictReader(io.StringIO(made.stdout)))
    assert rows, f"{name}: no row written; left out: {made.stderr}"
    gold = {(g["row"], g["column"]): g for g in csv.DictReader((PRODUCERS / name / "cells.tsv").open(
        encoding="utf-8"), delimiter="\t", quoting=csv.QUOTE_NONE)}
    for row in rows:  # what is written is what the page prints, wherever the row path is the gold's
        printed = gold.get((row["row"], row["column"]))
        if printed is not None:
            expected = printed["printed"].split(" \u00b1 ")[0].removesuffix(printed["marks"])
            # as printed, or a raised exponent written on the line ('10⁻⁴' as '10^-4'): the same number
            assert row["value"] == expected or parse_printed(row["value"]) == parse_printed(expected), row
    records = tmp_path / "records"
    source_id = _source(records, name, pdf)
    table = tmp_path / "table-1.csv"
    table.write_text(made.stdout, encoding="utf-8")
    imported = cli("import", table, "--source", source_id, "--independence", "developer", "--records", records)
    assert imported.exit_code == 0, imported.output
    review = cli("review", source_id, "--pdf", pdf, "--records", records, "--cache-dir", tmp_path / "cache",
                 "--format", "json")
    report = json.loads(review.stdout)
    failed = [(a["record_id"], a["claim"], a["detail"]) for a in report["assertions"] if not a["passed"]
              and not _unread_date(a)]
    assert not failed, failed
    assert review.exit_code == 0 or any(_unread_date(a) for a in report["assertions"]), review.output
    assert sum(a["claim"] == "table cell" for a in report["assertions"]) == len(rows)
    print(f"{name}: {len(rows)} of {len(gold)} gold cells written and reviewed")


def _unread_date(assertion: dict[str, str]) -> bool:
    """LibreOffice writes its CreationDate as "D:20261207191741Z'", which is no date in the PDF's form: the source's
    date claim cannot be checked (and is no failure), whatever the table."""
    return assertion["claim"] == "creation date" and "not a date in the PDF's form" in assertion["detail"]


#: Producers whose CSV writes a row under a path the page does not print (the review, reading as the table
#: command does, passes it all the same): strict expected failures naming the misreading.
MISNAMED: dict[str, str] = {
    "latex": "the second line of a wrapped row label ('from the base model') is read as the group of the next row: "
             "'from the base model / Base encoder'",
}
# (Chromium's print and Typst tag their PDFs: their rows and columns are read from the structure tree, review.tables.tagged)


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=MISNAMED[name])) if name in MISNAMED else name
    for name in NAMES if name not in UNREAD])
def test_every_row_of_the_csv_names_a_gold_cell(cli, name: str) -> None:  # type: ignore[no-untyped-def]
    """The review passes what the CSV writes because it reads the page as the table command does: the gold,
    written from the source, says whether the row and column paths are the ones the page prints."""
    made = cli("table", PRODUCERS / name / "paper.pdf", "--page", "1", "--table", "Table 1", "--format", "csv")
    assert made.exit_code == 0, made.output
    gold = {(g["row"], g["column"]) for g in csv.DictReader((PRODUCERS / name / "cells.tsv").open(
        encoding="utf-8"), delimiter="\t", quoting=csv.QUOTE_NONE)}
    written = [(r["row"], r["column"]) for r in csv.DictReader(io.StringIO(made.stdout))]
    assert written and not [at for at in written if at not in gold], [at for at in written if at not in gold]


def _text(pdf: Path) -> str:
    done = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True)
    return " ".join(done.stdout.split())


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_rendering_again_gives_the_committed_text(tmp_path: Path, name: str) -> None:
    generate = _generator()
    if not generate.installed(name):
        pytest.skip(f"{name} is not installed ({', '.join(generate.NEEDS[name]) or 'the typst package'})")
    folder = tmp_path / name
    shutil.copytree(PRODUCERS / name, folder)
    generate.render(name, folder, folder / "again.pdf")
    assert _text(folder / "again.pdf") == _text(PRODUCERS / name / "paper.pdf"), (
        f"{name}: the committed paper.pdf does not hold what the producer makes of the source now; run "
        "generate.py --render and check the gold")


def test_the_gold_values_are_the_printed_numbers() -> None:
    """A power of ten, a spaced exponent, a range and a bound in words each carry their plain decimal."""
    gold = {(g["row"], g["column"]): g for g in _generator().gold_rows()}
    peak = gold[("Decoder-only models / Tiny decoder", "Peak")]
    assert peak["printed"] == "\u22120.04 e\u22122" and Decimal(peak["value"]) == Decimal("-0.0004")
    power = gold[("Decoder-only models / Large decoder trained with a long context window", "Peak")]
    assert Decimal(power["value"]) == Decimal("3.2e-4") and "\u00d7 10\u207b\u2074" in power["printed"]


def test_a_creation_date_pypdf_cannot_read_is_no_damage() -> None:
    """LibreOffice writes CreationDate as "D:20261207191741Z'", which pypdf cannot convert: the text is read all
    the same, without a date (it was 'a corrupt PDF: ValueError: Can not convert date')."""
    from review.pdf.pdftext import extract_pdf

    pdf = PRODUCERS / "libreoffice" / "paper.pdf"
    assert b"Z')" in pdf.read_bytes() or b"Z'" in pdf.read_bytes()
    extraction = extract_pdf(pdf)
    assert "test fixture of the registry" in extraction.pages[0] and extraction.creation_date is None
