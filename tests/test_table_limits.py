"""``registry table`` reads a page as ``registry review`` reads a PDF: one reader (``review.pdf.limited``), one set of
limits (time, memory, characters on a page, bytes in the file), the same options, a limit reached said as a limit.

The hostile inputs are made here: a ``pdftotext`` that never answers (a stand-in put first on the PATH, as a
page that makes poppler run for minutes would), a page of 300 by 300 numbers (issue 36: 7 min 25 s in
pdftotext, 81 s in the grid reader, before these limits), a sparse file of 300 MB.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.conftest import DATA
from tests.test_review_support import fresh_records, grid_pdf, many_pages_pdf, pin

pytestmark = pytest.mark.pdf  # starts PDFium and pdftotext in a process of their own

FIXTURE_PDF = DATA / "papers" / "genomic-benchmarks-fixture" / "paper.pdf"
RESULT_11 = "saadat-fellay-20261015-result-nt-2-5b-training-peak-memory-flashattention-checkpointing-zero2"
DAMAGE = ("corrupt", "damaged", "cannot be opened", "Traceback")


def one_line(output: str) -> str:
    return " ".join(output.split())


@pytest.fixture
def hanging_pdftotext(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ``pdftotext`` first on the PATH that reads nothing and never ends (the reading process inherits the PATH)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    program = folder / "pdftotext"
    program.write_text("#!/bin/sh\nexec sleep 300\n", encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    return program


@pytest.mark.parametrize("command", ["table", "review"])
def test_a_pdftotext_that_hangs_is_stopped_by_the_one_time_limit(cli, tmp_path: Path, hanging_pdftotext: Path,
                                                                  command: str) -> None:  # type: ignore[no-untyped-def]
    """Both commands take --timeout and stop at it, saying it was the time, never that the file is damaged."""
    if command == "table":
        arguments: tuple[object, ...] = ("table", FIXTURE_PDF, "--page", "2")
    else:
        records = fresh_records(tmp_path / "review")
        pin(records, FIXTURE_PDF)
        arguments = ("review", RESULT_11, "--pdf", FIXTURE_PDF, "--records", records, "--cache-dir",
                     tmp_path / "cache")
    started = time.monotonic()
    result = cli(*arguments, "--timeout", "4")
    assert time.monotonic() - started < 60
    out = one_line(result.output)
    assert result.exit_code == 1, out
    assert "ran past the" in out or "ran longer than 4 s" in out, out
    assert "allow more time with --timeout SECONDS" in out
    assert not any(word in out for word in DAMAGE), out


def test_a_page_of_too_many_characters_is_refused_before_pdftotext_starts(cli, tmp_path: Path,
                                                                          hanging_pdftotext: Path) -> None:  # type: ignore[no-untyped-def]
    pdf = tmp_path / "grid.pdf"
    pdf.write_bytes(grid_pdf(300, 300))
    started = time.monotonic()
    result = cli("table", pdf, "--page", "1", "--timeout", "120")
    assert time.monotonic() - started < 60, "refused before the hanging pdftotext was started"
    out = one_line(result.output)
    assert result.exit_code == 1
    assert "page 1 of" in out and "characters of text, more than the 100,000 a page is allowed" in out
    assert "allow more with --max-page-chars" in out and not any(word in out for word in DAMAGE)


def test_the_grid_of_300_by_300_numbers_is_stopped_at_the_time_allowed(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """With the page's characters allowed, the reading (PDFium, pdftotext, the grid reader) stops at --timeout."""
    pdf = tmp_path / "grid.pdf"
    pdf.write_bytes(grid_pdf(300, 300))
    started = time.monotonic()
    result = cli("table", pdf, "--page", "1", "--max-page-chars", "10000000", "--timeout", "3")
    assert time.monotonic() - started < 30
    out = one_line(result.output)
    assert result.exit_code == 1
    assert "ran longer than 3 s" in out or "ran past the" in out, out
    assert not any(word in out for word in DAMAGE), out


def test_the_memory_limit_holds_for_table(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The 90,000 words of the grid need more than 80 MB: the reading stops there, and says so."""
    pdf = tmp_path / "grid.pdf"
    pdf.write_bytes(grid_pdf(300, 300))
    result = cli("table", pdf, "--page", "1", "--max-page-chars", "10000000", "--timeout", "120", "--max-memory", "80")
    out = one_line(result.output)
    assert result.exit_code == 1
    assert "needed more than 80 MB of memory and was stopped" in out and "--max-memory MB" in out
    assert not any(word in out for word in DAMAGE), out


def test_a_file_larger_than_a_paper_is_refused_unread(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A sparse file of 300 MB: refused from its size, before any of it is read (no 300 MB held)."""
    import resource

    pdf = tmp_path / "sparse.pdf"
    with pdf.open("wb") as handle:
        handle.write(b"%PDF-1.4\n")
        handle.truncate(300 * 1024 * 1024)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = cli("table", pdf, "--page", "1")
    out = one_line(result.output)
    assert result.exit_code == 1
    assert "is 314,572,800 bytes, larger than the 209,715,200 a paper's PDF can be" in out
    assert "--pdf" not in out and not any(word in out for word in DAMAGE), out
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100 * 1024  # kilobytes: not read


def test_a_pipe_is_refused_without_waiting(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pipe = tmp_path / "paper.pdf"
    os.mkfifo(pipe)
    result = cli("table", pipe, "--page", "1")
    assert result.exit_code == 1 and "is not a file" in result.output


def test_a_bound_of_pypdf_is_a_limit_not_damage(tmp_path: Path) -> None:
    """200,000 empty pages: a valid PDF past pypdf's own bound on an array's length (it was 'a corrupt PDF:
    LimitReachedError')."""
    from review.errors import ReviewLimitError
    from review.pdf.pdftext import extract_pdf

    pdf = tmp_path / "pages.pdf"
    pdf.write_bytes(many_pages_pdf(200_000))
    with pytest.raises(ReviewLimitError) as caught:
        extract_pdf(pdf)
    assert "goes past a limit of the PDF reader (pypdf" in caught.value.message
    assert "corrupt" not in caught.value.message
