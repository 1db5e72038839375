"""Typst sources as a witness: the parser (review.sources.typst_syntax), the evaluator (typst_eval, typst_lib), the
tables laid out (review.sources.typst), and the cells checked against a compiled PDF.

The fixtures under tests/data/sources/typst are stand-in documents with invented numbers (each says it is a test
fixture): ``paper.typ`` (with ``data/scores.csv``), compiled to ``paper.pdf`` by the Typst compiler
(tests/data/sources/build.py), and ``package.typ``, whose tables use package functions (never compiled: packages
are not downloaded).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from registry.checking.cells import TableCell
from registry.checking.source_witness import check_cell
from review.sources import format_of, read_source
from review.sources.labels import label_tables
from review.sources.typst_eval import Evaluator, Limits
from review.sources.typst_syntax import (
    Call,
    ContentBlock,
    Embed,
    Ident,
    Lit,
    Strong,
    Text,
    TypstSyntaxError,
    parse,
)
from review.sources.typst_values import TypstError, TypstLimit
from tests.conftest import DATA

TYPST = DATA / "sources" / "typst"


def _tables(name: str = "paper.typ") -> dict[str, object]:
    return {t.label: t for t in read_source(TYPST / name)}


def _run(tmp_path: Path, text: str, limits: Limits | None = None) -> str:
    path = tmp_path / "doc.typ"
    path.write_text(text, encoding="utf-8")
    content = Evaluator(tmp_path, limits).run(path)
    return "".join(getattr(p, "text", "") for p in content.parts).strip()


# -- the parser ----------------------------------------------------------------------------------------------------


def test_strings_escapes_and_comments_are_read_as_typst_reads_them() -> None:
    nodes = parse('#let s = "a \\"quoted\\" \\u{b1} // not a comment"\n// a comment\n/* a /* nested */ one */x')
    let = nodes[0].expr  # type: ignore[attr-defined]
    assert let.value == Lit('a "quoted" \u00b1 // not a comment')
    assert [n for n in nodes if isinstance(n, Text)] == [Text("x")]


def test_calls_with_named_arguments_and_trailing_content_blocks() -> None:
    (embed,) = parse("#table.cell(colspan: 2, rowspan: 1)[*a*][b]")
    assert isinstance(embed, Embed)
    call = embed.expr
    assert isinstance(call, Call)
    assert [a.name for a in call.args] == ["colspan", "rowspan", None, None]
    content = call.args[2].value
    assert isinstance(content, ContentBlock) and isinstance(content.body[0], Strong)


def test_code_after_a_hash_ends_where_typst_ends_it() -> None:
    nodes = parse("#r.at(0)] and #x. Then #f(1) + 2")
    embeds = [n.expr for n in nodes if isinstance(n, Embed)]  # type: ignore[attr-defined]
    assert isinstance(embeds[0], Call) and isinstance(embeds[1], Ident) and isinstance(embeds[2], Call)
    assert any(isinstance(n, Text) and n.text == "+" for n in nodes)  # '+ 2' after the call is text


def test_brackets_in_markup_and_escaped_brackets_are_text() -> None:
    nodes = parse("a [b] \\[c\\]")
    text = "".join(getattr(n, "text", " ") for n in nodes if not isinstance(n, ContentBlock))
    assert "[c]" in text


def test_a_syntax_error_names_its_line() -> None:
    with pytest.raises(TypstSyntaxError, match="line 3"):
        parse('a\nb\n#f("never closed')


def test_typst_files_are_a_source_format() -> None:
    assert format_of("paper.typ") == "typst"


# -- the evaluator -------------------------------------------------------------------------------------------------


def test_closures_loops_and_joins_evaluate_as_in_typst(tmp_path: Path) -> None:
    text = ("#let total(..xs, start: 0) = { let s = start; for x in xs.pos() { s += x }; s }\n"
            "#total(1, 2, 3, start: 10) #(1 / 2) #str(2.0) #(\"ab\" * 2) "
            "#range(3).map(i => i * i).filter(i => i > 0).len() #(1e-5)")
    assert _run(tmp_path, text) == "16 0.5 2 abab 2 0.00001"


def test_an_endless_loop_stops_at_the_step_limit(tmp_path: Path) -> None:
    with pytest.raises(TypstLimit, match="steps"):
        _run(tmp_path, "#let f() = { while true { } }\n#f()", Limits(max_steps=10_000))


def test_deep_recursion_stops_at_the_depth_limit(tmp_path: Path) -> None:
    with pytest.raises(TypstLimit, match="deep"):
        _run(tmp_path, "#let f(n) = f(n + 1)\n#f(0)", Limits(max_depth=50))


def test_a_file_outside_the_documents_folder_is_not_read(tmp_path: Path) -> None:
    inner = tmp_path / "doc"
    inner.mkdir()
    (tmp_path / "secret.csv").write_text("a,b\n", encoding="utf-8")
    path = inner / "doc.typ"
    path.write_text('#let rows = csv("../secret.csv")\n#rows.len()', encoding="utf-8")
    content = Evaluator(inner).run(path)
    assert "1" not in "".join(getattr(p, "text", "") for p in content.parts)
    with pytest.raises(TypstError, match="outside the document's folder"):
        Evaluator(inner).resolve("../secret.csv")


# -- tables --------------------------------------------------------------------------------------------------------


def test_a_table_written_cell_by_cell_with_a_header_spans_math_and_bold() -> None:
    first = _tables()["Table 1"]
    assert first.caption.startswith("Accuracy of the models on three sets")  # type: ignore[attr-defined]
    assert [c.name for c in first.columns] == [  # type: ignore[attr-defined]
        "Accuracy (%) / Set A", "Accuracy (%) / Set B", "Accuracy (%) / Set C"]
    assert [r.name for r in first.rows] == [  # type: ignore[attr-defined]
        "Small models / Base", "Small models / FixNet", "Large models / Base", "Large models / FixNet [ours]"]
    small, fixnet, _, large = first.rows  # type: ignore[attr-defined]
    assert small.cells[1].text == "68.4 \u00b1 0.5" and small.cells[1].reading.plus_minus == "0.5"
    assert fixnet.cells[0].bold and fixnet.cells[0].text == "74.9"
    assert fixnet.cells[1].text == "73.0*" and not fixnet.cells[1].bold  # an escaped star is a mark
    assert [c.text for c in large.cells] == ["83.6", "82.2", "81.5"]  # best("83.6"), #(81.0 + 0.5)


def test_a_table_built_from_a_csv_by_a_function_merging_a_column() -> None:
    second = _tables()["Table 2"]  # the figure of an image between them is counted as a figure, not a table
    assert [c.name for c in second.columns] == ["Accuracy", "95% CI"]  # type: ignore[attr-defined]
    assert [r.name for r in second.rows] == [  # type: ignore[attr-defined]
        "FixNet / dev", "FixNet / test", "Baseline / dev", "Baseline / test"]
    assert [c.text for c in second.rows[1].cells] == ["0.88", "0.8511 \u2013 0.9046"]  # type: ignore[attr-defined]


def test_a_spread_loop_and_a_let_bound_math_value_fill_cells() -> None:
    third = _tables()["Table 3"]
    assert [(r.name, [c.text for c in r.cells]) for r in third.rows] == [  # type: ignore[attr-defined]
        ("short", ["3", "0.412"]), ("long", ["12", "0.198"]), ("warm-up", ["1", "10\u207b\u2074"])]


def test_a_known_package_function_is_evaluated_and_an_unknown_one_leaves_its_table_unread() -> None:
    tables = _tables("package.typ")
    assert [c.text for r in tables["Table 1"].rows for c in r.cells] == ["0.912", "2.50"]  # type: ignore
    assert "tablex" in tables["Table 2"].unread  # type: ignore[attr-defined]
    assert [r.name for r in tables["Table 3"].rows] == ["c"]  # type: ignore[attr-defined]  # still Table 3


def test_an_unread_table_is_cannot_check_with_its_reason_never_a_fail() -> None:
    path = TYPST / "package.typ"
    witness = label_tables(path.name, read_source(path), None)
    claim = TableCell("r", "table cell", 1, "Table 2", "a", "Score", "0.5")  # type: ignore[call-arg]
    verdict = check_cell(witness, claim)
    assert verdict.outcome == "cannot check" and "tablex" in verdict.detail


# -- against the compiled PDF --------------------------------------------------------------------------------------

CELLS = [("Table 1", "Small models / Base", "Accuracy (%) / Set B", "68.4"),
         ("Table 1", "Large models / FixNet [ours]", "Accuracy (%) / Set C", "81.5"),
         ("Table 2", "Baseline / test", "Accuracy", "0.79"),
         ("Table 3", "warm-up", "Loss", "10\u207b\u2074")]


def _witness():  # type: ignore[no-untyped-def]
    from review.pdf.extract import read_pdf

    primary = read_pdf(TYPST / "paper.pdf", second=False).primary
    pages = [primary.page(n) or "" for n in range(1, primary.page_count + 1)]
    return label_tables("paper.typ", read_source(TYPST / "paper.typ"), pages)


def _claim(table: str, row: str, column: str, value: str) -> TableCell:
    return TableCell("r", "table cell", 1, table, row, column, value)  # type: ignore[call-arg]


def test_the_source_confirms_the_compiled_pdfs_cells_and_fails_a_slip_with_both_values() -> None:
    witness = _witness()
    for cell in CELLS:
        verdict = check_cell(witness, _claim(*cell))
        assert verdict.outcome == "pass", (cell, verdict.detail)
    slip = check_cell(witness, _claim("Table 1", "Small models / Base", "Accuracy (%) / Set B", "79.9"))
    assert slip.outcome == "fail" and "68.4" in slip.detail and "79.9" in slip.detail


def test_a_range_filed_as_a_point_value_fails_the_source_witness() -> None:
    witness = _witness()
    point = check_cell(witness, _claim("Table 2", "FixNet / test", "95% CI", "0.8511"))
    assert point.outcome == "fail" and "range" in point.detail
    ranged = TableCell("r", "table cell", 1, "Table 2", "FixNet / test", "95% CI", "0.8511",  # type: ignore
                       upper="0.9046")
    assert check_cell(witness, ranged).outcome == "pass"


def test_the_pdf_witness_reads_the_compiled_fixture_too() -> None:
    from registry.checking.agreement import check_both
    from review.pdf.extract import read_pdf

    readings = read_pdf(TYPST / "paper.pdf")
    outcomes = [check_both(_claim(*cell), readings).outcome for cell in CELLS[:3]]
    assert "fail" not in outcomes, outcomes


def test_the_fixture_compiles_to_the_cells_the_source_reader_reads(tmp_path: Path) -> None:
    """The Typst compiler (the test extras' ``typst``) lays out the fixture's tables as the reader does: every cell
    the reader reads is printed in the compiled PDF's text."""
    compiler = pytest.importorskip("typst")
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(compiler.compile(str(TYPST / "paper.typ")))
    import unicodedata

    from review.pdf.extract import read_pdf

    def plain(text: str) -> str:  # a raised '⁻⁴' as the extractor writes it, '-4'
        return unicodedata.normalize("NFKC", text).replace("\u2212", "-")

    primary = read_pdf(pdf, second=False).primary
    text = plain(" ".join((primary.page(n) or "") for n in range(1, primary.page_count + 1)))
    values = [cell.reading.value for table in read_source(TYPST / "paper.typ") for row in table.rows
              for cell in row.cells if cell.reading.value is not None]
    assert len(values) == 12 + 8 + 6
    for value in values:
        assert plain(value) in text, value


def test_registry_table_from_a_typst_source_writes_the_import_columns(cli) -> None:  # type: ignore
    import csv
    import io

    result = cli("table", str(TYPST / "paper.pdf"), "--source", str(TYPST / "paper.typ"), "--table", "Table 2",
                 "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(line for line in io.StringIO(result.output) if "," in line))
    found = {(r["row"], r["column"]): r for r in rows if r.get("column")}
    assert found[("Baseline / test", "Accuracy")]["value"] == "0.79"
    assert found[("FixNet / dev", "Accuracy")]["page"] == "1"  # the page printing the caption


def test_registry_review_with_a_typst_source_names_each_witness_and_its_reader(cli, tmp_path: Path) -> None:  # type: ignore
    import json

    from tests.test_sources import _registry, _review

    records = _registry(tmp_path, "typst", "typst/paper.typ", CELLS[0])
    result = _review(cli, records, tmp_path, TYPST / "paper.pdf", TYPST / "paper.typ")
    cell = next(a for a in json.loads(result.output)["assertions"] if a["claim"] == "table cell")
    witnesses = {w["name"]: w for w in cell["witnesses"]}
    assert witnesses["source"]["outcome"] == "pass" and witnesses["pdf"]["outcome"] == "pass"
    assert witnesses["source"]["reader"].startswith("the registry's Typst reader")
    assert witnesses["source"]["document"] == "paper.typ"
    shown = cli("review", "fixture-genomic-20261201-result-abstract-lora-max-mcc-cost", "--records", str(records),
                "--pdf", str(TYPST / "paper.pdf"), "--cache-dir", str(tmp_path / "cache"), "--source",
                str(TYPST / "paper.typ"))
    words = " ".join(shown.output.split())
    assert "paper.typ (typst, read with the registry's Typst reader" in words, shown.output


def test_registry_table_on_a_typst_file_that_does_not_parse_says_so_as_the_users_error(cli, tmp_path: Path) -> None:  # type: ignore
    """A source whose markup is broken is the document's error, worded with a hint, never 'report it'."""
    broken = tmp_path / "paper.typ"
    broken.write_text("#table(columns: 2, [a], [1]\n")  # a stand-in fixture: the call never closed
    result = cli("table", "--source", str(broken), "--table", "Table 1")
    assert result.exit_code == 1, result.output
    assert "paper.typ cannot be read as Typst" in result.output and "typst compile" in result.output
    assert "report it" not in result.output
