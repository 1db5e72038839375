"""The table reader on generated LaTeX layouts the real papers lack (``tests/data/layouts``, test fixtures).

Each folder is one common layout (booktabs with spanning headers and row groups, two columns with ``table*``,
uncertainty printed three ways, ``\\resizebox`` and ``sidewaystable``, ``longtable`` over two pages,
``threeparttable`` with marks and notes), built by
``build.sh`` there, with its gold ``cells.tsv`` transcribed from the LaTeX source. Every gold cell goes through
the review's own cell check exactly as ``benchmarks/bench_tables.py --layouts`` runs it: as a right record
(value and ±) and as the slips a curator makes. A right claim must never fail and a slip never pass, on every
layout; the targets (at least 99% pass, at most 1% cannot check) hold per layout where the reader meets them,
and are strict expected failures, naming what the reader misreads, where it does not yet.
"""

from __future__ import annotations

import csv
import functools
import importlib.util
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.bench_tables import LAYOUTS, PaperResult, run_paper
from review.pdf import poppler

pytestmark = pytest.mark.skipif(poppler.find_pdftotext() is None, reason="poppler-utils is not installed")

#: Layouts whose targets the review does not meet yet, with what it misreads (strict expected failures). Empty:
#: the grid reader keeps a header row set close under a centred one-line caption out of the caption
#: (``twocol-tablestar``, ``sideways-resizebox``), and a cell it cannot read is read where the row and the column
#: cross (``review.tables.crossing``).
MISREAD: dict[str, str] = {}
FOLDERS = sorted(p.name for p in LAYOUTS.iterdir() if (p / "cells.tsv").is_file())


@functools.cache
def _result(name: str) -> PaperResult:
    return run_paper(LAYOUTS / name)


def _counts(result: PaperResult) -> str:
    right, slips = result.right, result.slips
    return (f"{result.slug}: right claims pass {right['pass']}, fail {right['fail']}, cannot check "
            f"{right['cannot check']} of {sum(right.values())}; slips caught {slips['caught']}"
            f" of {sum(slips.values())}")


def test_every_layout_has_its_source_pdf_and_gold() -> None:
    assert len(FOLDERS) >= 6, FOLDERS
    for name in FOLDERS:
        folder = LAYOUTS / name
        assert (folder / "paper.pdf").is_file() and (folder / "paper.tex").is_file(), name
        assert "test fixture" in (folder / "paper.tex").read_text(encoding="utf-8"), name


@pytest.mark.pdf
@pytest.mark.parametrize("name", FOLDERS)
def test_no_right_cell_fails_and_no_slip_passes(name: str, record_property: Callable[[str, object], None]) -> None:
    result = _result(name)
    print(_counts(result))
    for verdict in ("pass", "fail", "cannot check"):
        record_property(f"right {verdict}", result.right[verdict])
    record_property("slips passed", result.slips["passed"])
    assert result.cells > 0
    assert result.right["fail"] == 0, [why for _, _, why in result.unpassed if why.startswith("fail")][:5]
    assert result.slips["passed"] == 0, result.passed_slips[:5]


@pytest.mark.pdf
@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=MISREAD[name])) if name in MISREAD else name
    for name in FOLDERS])
def test_targets_met_per_layout(name: str) -> None:
    result = _result(name)
    total = sum(result.right.values())
    print(_counts(result))
    assert result.right["pass"] >= 0.99 * total, result.unpassed[:3]
    assert result.right["cannot check"] <= 0.01 * total, result.unpassed[:3]


def test_the_gold_of_each_misread_layout_exists() -> None:
    """An expected failure must name a layout that is here: a renamed folder would turn it into a plain pass."""
    assert set(MISREAD) <= set(FOLDERS)


def test_each_gold_is_the_transcription_of_its_source() -> None:
    """cells.tsv is what transcribe.py reads from paper.tex: an edit to either alone is caught here."""
    spec = importlib.util.spec_from_file_location("layouts_transcribe", LAYOUTS / "transcribe.py")
    assert spec is not None and spec.loader is not None
    transcribe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(transcribe)
    for name in FOLDERS:
        with (LAYOUTS / name / "cells.tsv").open(encoding="utf-8", newline="") as handle:
            committed = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
        assert committed == transcribe.transcribe(LAYOUTS / name), name


@pytest.mark.pdf
@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex (TeX Live) is not installed")
@pytest.mark.skipif(any(shutil.which("kpsewhich") is None or not subprocess.run(
    ["kpsewhich", sty], capture_output=True, text=True).stdout.strip() for sty in ("multirow.sty", "threeparttable.sty")),
    reason="multirow.sty or threeparttable.sty is not installed (Debian: texlive-latex-extra)")
def test_build_sh_rebuilds_the_committed_pdfs_byte_for_byte(tmp_path: Path) -> None:
    copy = tmp_path / "layouts"
    shutil.copytree(LAYOUTS, copy, ignore=shutil.ignore_patterns("*.pdf", "cells.tsv", "__pycache__"))
    done = subprocess.run(["bash", str(copy / "build.sh")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    for name in FOLDERS:
        assert (copy / name / "paper.pdf").read_bytes() == (LAYOUTS / name / "paper.pdf").read_bytes(), (
            f"{name}: the committed paper.pdf is not what build.sh makes of paper.tex (another TeX Live release "
            "makes another file: rebuild with build.sh and check the gold)")
