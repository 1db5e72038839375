"""Source files read inside the review's limits (review.sources.limited): a hostile or huge source is a
'cannot check' with the limit named, never a hang, and the review goes on.

The fixtures under tests/data/sources/hostile are hostile stand-ins (each says it is a test fixture): ``loop.typ``
(Typst code that never ends), ``nested.tex`` (a cell nested 5,000 braces deep), ``bomb.tex`` (macros that expand
ten-fold, eight deep).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from review.errors import ReviewLimitError
from review.pdf.limited import ReviewLimits
from review.sources.limited import read_limited
from tests.conftest import DATA
from tests.test_sources import RESULT, SOURCES, _registry, _review

HOSTILE = DATA / "sources" / "hostile"


def test_a_typst_program_that_never_ends_stops_at_its_step_limit() -> None:
    with pytest.raises(ReviewLimitError, match="more than 2,000,000 steps"):
        read_limited(HOSTILE / "loop.typ", "typst", ReviewLimits())


def test_markup_nested_deeper_than_the_reader_follows_is_a_limit() -> None:
    with pytest.raises(ReviewLimitError, match="nests its markup deeper"):
        read_limited(HOSTILE / "nested.tex", "latex", ReviewLimits())


def test_macros_that_expand_without_end_stop_at_the_time_or_memory_limit() -> None:
    with pytest.raises(ReviewLimitError, match="longer than 3 s|more than 512 MB"):
        read_limited(HOSTILE / "bomb.tex", "latex", ReviewLimits(timeout=3, max_memory_mb=512))


def test_a_file_over_the_size_limit_is_not_read() -> None:
    with pytest.raises(ReviewLimitError, match="more than the 1,000 a source file may have"):
        read_limited(HOSTILE / "nested.tex", "latex", ReviewLimits(max_source_bytes=1_000))


def test_a_readable_source_reads_the_same_through_the_limits() -> None:
    from review.sources import read_grids

    grids, inputs = read_limited(SOURCES / "typst" / "paper.typ", "typst", ReviewLimits())
    assert grids == read_grids(SOURCES / "typst" / "paper.typ") and inputs == []
    _, inputs = read_limited(SOURCES / "latex" / "paper.tex", "latex", ReviewLimits())
    assert inputs == ["tables/rates.tex"]


def test_registry_review_of_a_hostile_source_says_cannot_check_and_names_the_limit(cli, tmp_path: Path) -> None:  # type: ignore
    cell = ("Table 1", "Small models / Base", "Accuracy (%) / Set B", "68.4")
    records = _registry(tmp_path, "typst", "hostile/loop.typ", cell)
    result = _review(cli, records, tmp_path, SOURCES / "typst" / "paper.pdf", HOSTILE / "loop.typ")
    data = json.loads(result.output)
    assertion = next(a for a in data["assertions"] if a["claim"] == "table cell")
    source = next(w for w in assertion["witnesses"] if w["name"] == "source")
    assert source["outcome"] == "cannot check" and "2,000,000 steps" in source["detail"], source
    assert {w["name"]: w["outcome"] for w in assertion["witnesses"]}["pdf"] == "pass"
    assert RESULT in result.output


def test_registry_table_from_a_hostile_source_names_the_limit(cli) -> None:  # type: ignore
    result = cli("table", "--source", str(HOSTILE / "loop.typ"), "--table", "Table 1")
    assert result.exit_code == 1
    assert "more than 2,000,000 steps" in " ".join(result.output.split())
