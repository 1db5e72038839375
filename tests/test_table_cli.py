"""``registry table PDF --page N``: a page's tables as the review reads them, and their CSV imported and reviewed.

End to end on the fixture paper (typeset by this project) and on a real paper of the corpus in
``../shared/papers`` (skipped, with the reason, where the corpus is absent): the CSV that ``registry
table`` writes is imported by ``registry import`` into a registry holding only the paper's source, and
``registry review`` then checks every imported value against the PDF with both extractors.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.conftest import DATA, FIXTURE_SOURCE, ROOT

FIXTURE_PDF = DATA / "papers" / "genomic-benchmarks-fixture" / "paper.pdf"
#: The corpus of real papers: ``../shared/papers`` beside the checkout (or beside the folder of git worktrees).
CORPUS = next((p for p in (ROOT.parent / "shared" / "papers", ROOT.parent.parent / "shared" / "papers") if p.is_dir()),
              ROOT.parent / "shared" / "papers")
KAISER = CORPUS / "kaiser-simple-2019"
KAISER_SOURCE = "corpus-kaiser-20261201-source-model-based-reinforcement-learning-for-atari"

#: What a curator fills for the fixture's Table 1 that the page cannot: the rest comes from the PDF.
FIXTURE_SETTINGS = ("family=Nucleotide Transformer", "dataset={column_last}", "metric=MCC", "direction=higher",
                    "unit=dimensionless", "uncertainty_kind=standard-deviation", "uncertainty_over=10 folds")


def _sets(settings: tuple[str, ...]) -> list[str]:
    return [part for item in settings for part in ("--set", item)]


@pytest.mark.pdf
def test_table_shows_each_cell_as_the_review_reads_it(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("table", FIXTURE_PDF, "--page", "2", "--table", "Table 1")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Table 1 (page 2): Table 1: Matthews correlation coefficient (MCC)" in out
    assert "Rows: 'NT 500M', 'NT 2.5B', 'HyenaDNA'" in out
    assert ("Columns: 'Histone marks / H3K4me3', 'Histone marks / H3K27ac', 'Promoter', 'Splice sites (acceptor)'"
            in out)
    line = next(ln for ln in out.splitlines() if "0.702" in ln)  # the bold best value with its mark
    assert "NT 2.5B" in line and "Histone marks / H3K4me3" in line
    assert "± 0.021" in line and "†" in line and "bold" in line and "agrees" in line
    assert "Table 3" not in out  # --table keeps to the one asked for


@pytest.mark.pdf
def test_without_a_label_every_table_on_the_page(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("table", FIXTURE_PDF, "--page", "2")
    assert result.exit_code == 0, result.output
    for label in ("Table 1 (page 2)", "Table 2 (page 2)", "Table 3 (page 2)"):
        assert label in result.output


@pytest.mark.pdf
def test_json_gives_every_cell_with_both_readings(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("table", FIXTURE_PDF, "--page", "2", "--table", "Table 1", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["page"] == 2 and data["page_count"] == 5 and len(data["extractors"]) == 2
    (table,) = data["tables"]
    assert table["rows"] == ["NT 500M", "NT 2.5B", "HyenaDNA"]
    cell = next(c for c in table["cells"] if c["row"] == "NT 2.5B" and c["column"] == "Histone marks / H3K4me3")
    assert (cell["value"], cell["plus_minus"], cell["marks"], cell["bold"]) == ("0.702", "0.021", "†", True)
    assert cell["found_again"] is None and cell["second"] is None
    assert len(table["cells"]) == 12


@pytest.mark.pdf
def test_csv_imported_then_passes_review(cli, demo: Path) -> None:  # type: ignore[no-untyped-def]
    """The fixture's Table 1 straight from the PDF: imported, then every value checked by the review."""
    made = cli("table", FIXTURE_PDF, "--page", "2", "--table", "Table 1", "--format", "csv",
               *_sets(FIXTURE_SETTINGS))
    assert made.exit_code == 0, made.output
    rows = list(csv.DictReader(io.StringIO(made.stdout)))
    assert len(rows) == 12
    first = rows[0]
    assert (first["model"], first["value"], first["uncertainty"], first["row"], first["column"], first["page"]) == (
        "NT 500M", "0.681", "± 0.019", "NT 500M", "Histone marks / H3K4me3", "2")
    assert first["dataset"] == "H3K4me3" and first["table"] == "Table 1"
    table = demo.parent / "table-1.csv"
    table.write_text(made.stdout, encoding="utf-8")
    imported = cli("import", table, "--source", FIXTURE_SOURCE, "--independence", "developer", "--records", demo)
    assert imported.exit_code == 0, imported.output
    assert "12 result" in imported.output or "new" in imported.output
    review = cli("review", FIXTURE_SOURCE, "--pdf", FIXTURE_PDF, "--records", demo, "--format", "json")
    assert review.exit_code == 0, review.output
    report = json.loads(review.stdout)
    assert report["passed"] and report["failed"] == 0
    cells = [a for a in report["assertions"] if a["claim"] == "table cell"]
    assert len(cells) == 12 and all(a["passed"] for a in cells)


@pytest.mark.pdf
def test_csv_without_settings_leaves_required_columns_for_the_curator(cli, demo: Path) -> None:  # type: ignore[no-untyped-def]
    made = cli("table", FIXTURE_PDF, "--page", "2", "--table", "Table 1", "--format", "csv")
    assert made.exit_code == 0, made.output
    header = made.stdout.splitlines()[0].split(",")
    for required in ("family", "model", "dataset", "metric", "direction", "value", "unit"):
        assert required in header
    assert "hardware" not in header and "checkpoint" not in header  # never 'unreported' by an empty column
    table = demo.parent / "blank.csv"
    table.write_text(made.stdout, encoding="utf-8")
    refused = cli("import", table, "--source", FIXTURE_SOURCE, "--records", demo)
    assert refused.exit_code == 1 and "family" in refused.output and "nothing was written" in refused.output


def _kaiser_source(root: Path) -> None:
    """A source record pinning the corpus's copy of Kaiser et al. (2019), as its SOURCE.md describes the file."""
    (root / "source").mkdir(parents=True)
    (root / "source" / f"{KAISER_SOURCE}.yaml").write_text(f"""\
kind: source
id: {KAISER_SOURCE}
title: Model Based Reinforcement Learning for Atari
authors:
- Łukasz Kaiser
year: 2019
venue: arXiv preprint built with the ICML 2019 style (no venue printed)
role: original
host: GitHub, piotrmilos/mbrl_arXiv at commit 0c2d0c7f3726297a52e2b8386d7fde2f82598a2b
heading: Model Based Reinforcement Learning for Atari
page_count: 17
pdf_creation_date: 2019-06-02
sha256: 66360c51d07084aa2f28d22081993eb73e3db52644c1d88f2245eb37c1027bb3
hash_scope: The whole PDF file, main.pdf at that commit.
retrieval_url: https://github.com/piotrmilos/mbrl_arXiv/raw/0c2d0c7f3726297a52e2b8386d7fde2f82598a2b/main.pdf
""", encoding="utf-8")


@pytest.mark.pdf
@pytest.mark.skipif(not (KAISER / "paper.pdf").is_file(), reason=f"the corpus paper {KAISER} is absent")
def test_corpus_table_imported_then_passes_review(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Table 2 of a real ICML-style paper (counts of games, one column group per statistic): the values the CSV
    carries are the gold's, and the review passes every imported cell with both extractors."""
    pdf = KAISER / "paper.pdf"
    made = cli("table", pdf, "--page", "8", "--table", "Table 2", "--format", "csv",
               *_sets(("family=SimPLe", "dataset=Atari games", "metric={column_last}", "direction=higher",
                       "unit=count")))
    assert made.exit_code == 0, made.output
    rows = list(csv.DictReader(io.StringIO(made.stdout)))
    gold = {(g["row"], g["column"]): g["value"] for g in csv.DictReader(
        (KAISER / "cells.tsv").open(encoding="utf-8"), delimiter="\t") if g["table"] == "Table 2"}
    assert rows and {(r["row"], r["column"]): r["value"] for r in rows} == gold
    records = tmp_path / "records"
    _kaiser_source(records)
    table = tmp_path / "table-2.csv"
    table.write_text(made.stdout, encoding="utf-8")
    imported = cli("import", table, "--source", KAISER_SOURCE, "--independence", "developer", "--records", records)
    assert imported.exit_code == 0, imported.output
    review = cli("review", KAISER_SOURCE, "--pdf", pdf, "--records", records, "--format", "json")
    report = json.loads(review.stdout)
    failed = [(a["record_id"], a["claim"], a["detail"]) for a in report["assertions"] if not a["passed"]]
    assert review.exit_code == 0 and not failed, failed
    assert sum(a["claim"] == "table cell" for a in report["assertions"]) == len(gold)


@pytest.mark.pdf
@pytest.mark.parametrize(("slug", "page", "label"), [
    ("kaiser-simple-2019", 8, "Table 2"),  # ICML two-column, caption below, a two-level header
    ("kula-mixture-2018", 3, "Table 1"),  # ACM two-column, thousands separators, small decimals, trailing zeros
])
def test_corpus_csv_carries_the_printed_values(cli, slug: str, page: int, label: str) -> None:  # type: ignore[no-untyped-def]
    """Every cell of these corpus tables reaches the CSV at the row and column the gold names, with its value as
    printed (cells.tsv was transcribed from the LaTeX sources, independently of any extractor)."""
    from decimal import Decimal

    paper = CORPUS / slug
    if not (paper / "paper.pdf").is_file():
        pytest.skip(f"the corpus paper {paper} is absent")
    made = cli("table", paper / "paper.pdf", "--page", str(page), "--table", label, "--format", "csv")
    assert made.exit_code == 0, made.output
    got = {(r["row"], r["column"]): Decimal(r["value"].replace(",", "").replace("\u2212", "-"))
           for r in csv.DictReader(io.StringIO(made.stdout))}
    gold = {(g["row"], g["column"]): Decimal(g["value"]) for g in csv.DictReader(
        (paper / "cells.tsv").open(encoding="utf-8"), delimiter="\t") if g["table"] == label and g["page"] == str(page)}
    assert got == gold


@pytest.mark.pdf
@pytest.mark.parametrize(("args", "message"), [
    (("table", "missing.pdf", "--page", "1"), "no file missing.pdf"),
    (("table", FIXTURE_PDF, "--page", "9"), "page 9 does not exist: "),
    (("table", FIXTURE_PDF, "--page", "2", "--table", "Table 9"),
     "no table 'Table 9' on page 2 of "),
    (("table", FIXTURE_PDF, "--page", "1"), "no table on page 1 of "),
    (("table", FIXTURE_PDF, "--page", "2", "--format", "xml"), "unknown format 'xml'"),
    (("table", FIXTURE_PDF, "--page", "2", "--format", "csv", "--set", "dataset"), "--set 'dataset' is not "
     "COLUMN=VALUE"),
    (("table", FIXTURE_PDF, "--page", "2", "--format", "csv", "--set", "datasett=X"), "no import column 'datasett'"),
    (("table", FIXTURE_PDF, "--page", "2", "--set", "unit=percent"), "--set fills columns of the CSV, which only "
     "--format csv writes"),
    (("table", FIXTURE_PDF, "--page", "2", "--format", "csv", "--set", "metric={colum}"),
     "cannot fill column 'metric' from '{colum}'"),
])
def test_bad_input_is_named(cli, args: tuple[str, ...], message: str) -> None:  # type: ignore[no-untyped-def]
    result = cli(*args)
    assert result.exit_code == 1
    assert message in result.output, result.output
    assert "Traceback" not in result.output and "Hint:" in result.output


@pytest.mark.pdf
def test_a_label_not_on_the_page_names_those_that_are(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("table", FIXTURE_PDF, "--page", "2", "--table", "Table 9")
    assert "the tables found there are 'Table 1', 'Table 2', 'Table 3'" in result.output


@pytest.mark.pdf
def test_a_label_on_another_page_says_where(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("table", FIXTURE_PDF, "--page", "3", "--table", "Table 1")
    assert result.exit_code == 1 and "Table 1 is on page 2" in result.output


def test_not_a_pdf(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    fake = tmp_path / "paper.pdf"
    fake.write_text("not a PDF at all\n")
    result = cli("table", fake, "--page", "1")
    assert result.exit_code == 1 and "is not a PDF: it starts with b'not a PDF at all" in result.output
    assert "Hint: give the PDF file of the source" in result.output and "--pdf" not in result.output


def test_a_damaged_pdf(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    broken = tmp_path / "paper.pdf"
    broken.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage\n")
    result = cli("table", broken, "--page", "1")
    assert result.exit_code == 1 and "cannot be opened as a PDF" in result.output
    assert "check that it opens in a PDF viewer" in result.output and "Traceback" not in result.output


@pytest.mark.pdf
def test_a_cell_that_cannot_be_read_points_to_the_table_command() -> None:
    from registry.checking.cells import TableCell
    from review.pdf.extract import read_pdf

    doc = read_pdf(FIXTURE_PDF, second=False).primary
    assertion = TableCell("r", "table cell", 2, "Table 1", "NT 9B", "Promoter", "0.912").check(doc)
    assert not assertion.passed and assertion.outcome == "cannot check"
    assert "no row 'NT 9B' in Table 1 on page 2; read 3 rows ('NT 500M', 'NT 2.5B', 'HyenaDNA')" in assertion.detail


@pytest.mark.pdf
def test_the_review_of_a_cell_it_cannot_read_points_to_the_table_command(tmp_path: Path) -> None:
    """The command's report names the `registry table` line to run, with the PDF's path quoted for the shell."""
    import shutil

    from typer.testing import CliRunner

    from registry.cli import app

    records = tmp_path / "records"
    shutil.copytree(DATA / "fixture-registry", records)
    tampered = DATA / "review-tampered" / "unreadable-row"
    for path in tampered.rglob("*.yaml"):
        shutil.copyfile(path, records / path.relative_to(tampered))
    (unread,) = [path.stem for path in tampered.rglob("*.yaml")]
    pdf = tmp_path / "my paper.pdf"
    shutil.copy(FIXTURE_PDF, pdf)
    result = CliRunner().invoke(app, ["review", unread, "--records", str(records), "--pdf", str(pdf),
                                      "--cache-dir", str(tmp_path / "cache")], env={"COLUMNS": "250"})
    out = " ".join(result.output.split())
    assert f"registry table '{pdf}' --page 2 --table 'Table 1'" in out, out


@pytest.mark.parametrize(("text", "interval", "printed"), [
    ("0.64 [0.61, 0.67]", ("0.61", "0.67"), "[0.61, 0.67]"),
    ("0.64 (0.61-0.67)", ("0.61", "0.67"), "(0.61, 0.67)"),
])
def test_an_interval_keeps_the_brackets_the_page_prints(text: str, interval: tuple[str, str], printed: str) -> None:
    from review.tables.grid_cells import GridCell

    cell = GridCell("r", "c", text, "0.64", None, interval, "", False, "", None, None)
    assert cell.uncertainty == printed


def test_hint_quotes_for_the_shell() -> None:
    from registry.checking.hints import hint

    assert hint("my paper.pdf", 4, "Table 3") == "registry table 'my paper.pdf' --page 4 --table 'Table 3'"
    assert hint(None, 2) == "registry table PDF --page 2"


@pytest.mark.pdf
@pytest.mark.parametrize("width", ["100", "250"])
def test_each_cell_says_whether_the_csv_carries_it_and_as_what(width: str) -> None:
    """A mantissa and its exponent set apart ('−0.04 e−2', a generated layout of tests/data/producers) is shown
    with the number the review reads, and the CSV either carries it whole or says why not: never '−0.04'."""
    from typer.testing import CliRunner

    from registry.cli import app

    pdf = DATA / "producers" / "pandoc" / "paper.pdf"
    result = CliRunner().invoke(app, ["table", str(pdf), "--page", "1"], env={"COLUMNS": width})
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.replace("\u2502", " ").split())
    # The value column shows the printed form whole ('−0.04 e−2', one number since the spaced exponent is read), or
    # the number the review reads beside a shorter printed value: never '−0.04' alone.
    assert "\u22120.04 e\u22122" in out or "\u22120.04 (read as -0.04e-2)" in out
    assert ("import cannot read '\u22120.04 e\u22122' as one number exactly" in out
            or "as '\u22120.04 e\u22122'" in out), out
    assert "as '47.2'" in out  # a plain cell: carried as printed
