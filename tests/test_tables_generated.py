"""The table reader on LaTeX tables across the conventions real papers use (``tests/data/generated``, test fixtures).

``generate.py`` there writes, for each convention (booktabs, ``\\hline`` grids, no rules, ``\\multicolumn`` group
headers, ``\\multirow`` row groups, a group label on a line of its own, siunitx, ``\\pm`` with a small std, bold and
underlined best values, ``\\resizebox``, two-column classes with ``table*`` and narrow tables, IEEEtran, captions
above and below, minipages side by side, wrapped labels in ``p{}`` columns, 10-14 columns, dataset groups over
metrics, negatives and percentages, arrows in headers, threeparttable notes, ``\\rowcolor``) several seeded
documents, each compiled by pdflatex, with the gold written from the same data. Every gold cell goes through the
review's cell check as ``benchmarks/bench_tables.py --generated`` runs it: a right claim must never fail, a slip
never pass; the conventions the reader reads whole must keep passing every right cell. The rules added for them
are tested from word coordinates too, each failing with its rule switched off.
"""

from __future__ import annotations

import functools
import importlib.util
import sys

import pytest

from benchmarks.bench_tables import GENERATED, PaperResult, run_paper
from review.pdf import poppler
from review.pdf.words import Line, PageWords, Word
from review.tables import captions, crossing_region, read, table
from review.tables.read import read_tables
from review.tables.table import Column, Row, Table

FOLDERS = sorted(p.name for p in GENERATED.iterdir() if (p / "cells.tsv").is_file())
#: Conventions whose right cells the reader does not all pass yet ('cannot check', never 'fail'), with why.
PARTLY: dict[str, str] = {
    "many-columns": "seed 2's Table 2 (14 columns) runs past the right margin (an overfull box); pdftotext's reading "
                    "loses its last column ('Top5'), whose cells cannot be checked (PDFium reads them)",
}


@functools.cache
def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("generated_generate", GENERATED / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@functools.cache
def _result(name: str) -> PaperResult:
    return run_paper(GENERATED / name)


def test_every_convention_has_several_seeded_documents_with_source_pdf_and_gold() -> None:
    generator = _generator()
    names = {generator.convention_of(name) for name in FOLDERS}
    assert names == {c.name for c in generator.CONVENTIONS}
    for convention in generator.CONVENTIONS:
        assert sum(generator.convention_of(n) == convention.name for n in FOLDERS) >= 3, convention.name
    for name in FOLDERS:
        folder = GENERATED / name
        assert (folder / "paper.pdf").is_file() and "test fixture" in (folder / "paper.tex").read_text("utf-8")


def test_each_source_is_what_the_generator_writes_for_its_seed() -> None:
    """paper.tex (and so the gold written beside it) is the generator's, seed for seed: an edit to either alone,
    or a generator change not run again, is caught here (no TeX needed)."""
    generator = _generator()
    by_name = {c.name: c for c in generator.CONVENTIONS}
    for name in FOLDERS:
        convention, seed = name.rsplit("-", 1)
        source, gold = generator.document(by_name[convention], int(seed))
        assert source == (GENERATED / name / "paper.tex").read_text(encoding="utf-8"), name
        lines = (GENERATED / name / "cells.tsv").read_text(encoding="utf-8").splitlines()
        assert len(lines) == len(gold) + 1, name


@pytest.mark.pdf
@pytest.mark.skipif(poppler.find_pdftotext() is None, reason="poppler-utils is not installed")
@pytest.mark.parametrize("name", FOLDERS)
def test_no_right_cell_fails_and_no_slip_passes(name: str) -> None:
    result = _result(name)
    assert result.cells > 0
    assert result.right["fail"] == 0, [why for _, _, why in result.unpassed if why.startswith("fail")][:3]
    assert result.slips["passed"] == 0, result.passed_slips[:3]
    if _generator().convention_of(name) not in PARTLY:
        assert result.right["pass"] == sum(result.right.values()), result.unpassed[:3]


def _words(top: float, *words: tuple[str, float]) -> list[Word]:
    return [Word(text, x0, top, x0 + 5.0 * len(text), top + 7.0) for text, x0 in words]


# Two tables side by side in minipages, each with its own caption over it, on one baseline, on a one-column page
# (its running text crosses the page's middle).
PROSE = [w for i in range(6) for w in _words(200 + 12 * i, ("The", 60), ("methods", 80), ("are", 125),
                                                          ("compared", 280), ("on", 330), ("the", 350),
                                                          ("same", 370), ("splits.", 400))]
SIDE_BY_SIDE = PageWords(1, 600.0, 800.0, tuple(PROSE +
    _words(100, ("Table", 60), ("1:", 90), ("Scores", 105), ("of", 140), ("A.", 155),
           ("Table", 330), ("2:", 360), ("Scores", 375), ("of", 410), ("B.", 425))
    + _words(120, ("Method", 60), ("Acc", 150), ("F1", 200), ("Method", 330), ("BLEU", 420), ("EM", 470))
    + _words(134, ("Alpha", 60), ("71.2", 150), ("68.4", 200), ("Gamma", 330), ("12.4", 420), ("3.1", 470))
    + _words(146, ("Beta", 60), ("73.5", 150), ("70.1", 200), ("Delta", 330), ("9.7", 420), ("2.4", 470))))


def _shape(label: str) -> tuple[list[str], list[str]]:
    (table,) = read_tables(SIDE_BY_SIDE, label)
    return [r.name for r in table.rows], [c.name for c in table.columns]


def test_two_tables_side_by_side_are_each_read_under_their_own_caption() -> None:
    assert _shape("Table 1") == (["Alpha", "Beta"], ["Acc", "F1"])
    assert _shape("Table 2") == (["Gamma", "Delta"], ["BLEU", "EM"])


def test_without_the_side_by_side_rule_the_left_table_takes_the_right_ones_cells(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(captions, "_beside_caption", lambda page, line, start, lo, hi: (lo, hi))
    assert _shape("Table 1") != (["Alpha", "Beta"], ["Acc", "F1"])


# IEEE's style: each caption above its table, the label alone on a line ('TABLE I') over the caption's text; two
# tables stacked in one column, running text under them.
STACKED = PageWords(1, 300.0, 800.0, tuple(
    _words(50, ("TABLE", 118), ("I", 148))
    + _words(60, ("SCORES", 70), ("OF", 105), ("THE", 120), ("SMALL", 140), ("MODELS.", 170))
    + _words(80, ("Method", 60), ("Acc", 150), ("F1", 200))
    + _words(94, ("Alpha", 60), ("71.2", 150), ("68.4", 200))
    + _words(106, ("Beta", 60), ("73.5", 150), ("70.1", 200))
    + _words(130, ("TABLE", 116), ("II", 146))
    + _words(140, ("SCORES", 70), ("OF", 105), ("THE", 120), ("LARGE", 140), ("MODELS.", 170))
    + _words(160, ("Method", 60), ("Acc", 150), ("F1", 200))
    + _words(174, ("Gamma", 60), ("80.4", 150), ("78.9", 200))
    + _words(186, ("Delta", 60), ("82.7", 150), ("80.3", 200))
    + [w for i in range(4) for w in _words(215 + 12 * i, ("The", 20), ("methods", 45), ("are", 90),
                                                         ("compared", 110), ("on", 160), ("the", 175),
                                                         ("same", 195), ("splits", 220), ("here.", 255))]))


def test_a_table_under_another_caption_is_that_captions() -> None:
    rows = [[r.name for r in t.rows] for t in read_tables(STACKED, "TABLE II")]
    assert rows == [["Gamma", "Delta"]]


def test_without_the_caption_above_rule_the_table_over_a_caption_is_read_as_its_own_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(read, "captioned_above", lambda lines, first: False)
    rows = [[r.name for r in t.rows] for t in read_tables(STACKED, "TABLE II")]
    assert ["Alpha", "Beta"] in rows


def test_the_crossing_reads_a_table_under_another_caption_as_that_captions() -> None:
    regions = crossing_region.table_regions(STACKED, "TABLE II")
    assert len(regions) == 1 and [ln.text.split()[0] for ln in regions[0].lines][:3] == ["Method", "Gamma", "Delta"]


def test_without_the_caption_above_rules_the_crossing_reads_the_table_over_the_caption(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Both rules: a label alone ('TABLE I') ends a region as a caption does, and a region under another caption's
    paragraph is that caption's (where the region stops at the paragraph's text, before its label)."""
    monkeypatch.setattr(crossing_region, "captioned_above", lambda lines, first: False)
    monkeypatch.setattr(crossing_region, "label_alone", lambda line: False)
    regions = crossing_region.table_regions(STACKED, "TABLE II")
    assert any("Alpha" in ln.text for r in regions for ln in r.lines)


def test_a_label_wrapped_at_a_hyphen_is_found_with_or_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """'Supervised fine-' over 'tuning' in a p{} column reads 'Supervised finetuning' (a hyphen at a line's end
    before a lower-case letter is TeX's); the name a record cites, 'fine-tuning', is found all the same, where no
    row is named exactly so. With the rule off it is not."""
    lines = (Line(tuple(_words(100, ("Supervised", 60), ("finetuning", 115), ("71.2", 200)))),
             Line(tuple(_words(112, ("Fine", 60), ("tuning", 85), ("73.5", 200)))))
    rows = tuple(Row((ln.words[0].text + " " + ln.words[1].text,), ln, (ln.words[2],)) for ln in lines)
    columns = (Column(("Acc",), 200.0, 220.0),)
    found = Table("Table 1", 1, "Table 1: x.", False, (), columns, None, rows, ())
    assert [r.name for r in table.find_rows(found, "Supervised fine-tuning")] == ["Supervised finetuning"]
    assert [r.name for r in table.find_rows(found, "Fine tuning")] == ["Fine tuning"]  # an exact name first
    monkeypatch.setattr(table, "_same_but_hyphens", table._same)
    assert table.find_rows(found, "Supervised fine-tuning") == []
