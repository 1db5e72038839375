"""The CSV of ``registry table`` never changes a printed sign, exponent, uncertainty or bound.

A cell is written as the page prints it (its bound's sign, a range's two ends, a power of ten kept with its
number) where the import reads that text as the number the review reads in the cell; otherwise it is left out,
with why, and never written as a part of itself ('−0.04 e−2' as '−0.04').
"""

from __future__ import annotations

import pytest

from review.tables.grid_cells import GridCell, GridTable, PageGrid
from review.tables.grid_import import import_rows


def _cell(text: str, value: str | None, number: str | None, *, rest: str = "", plus_minus: str | None = None,
          interval: tuple[str, str] | None = None, marks: str = "") -> GridCell:
    return GridCell("Model A", "Score", text, value, plus_minus, interval, marks, False, rest, None, None, number)


def _imported(cell: GridCell) -> tuple[dict[str, str] | None, str | None]:
    table = GridTable("Table 1", 1, "Table 1: scores (a test fixture)", False, None, ("Score",), ("Model A",),
                      (cell,), (), None)
    made = import_rows(PageGrid("paper.pdf", 1, 1, ("PDFium",), None, (table,)))
    return (made.rows[0] if made.rows else None), (made.left_out[0][1] if made.left_out else None)


@pytest.mark.parametrize(("cell", "written"), [
    (_cell("0.681", "0.681", "0.681"), "0.681"),
    (_cell("\u22122.1", "\u22122.1", "-2.1"), "\u22122.1"),  # the minus sign as printed
    (_cell("0.702\u2020 \u00b1 0.021", "0.702", "0.702", plus_minus="0.021", marks="\u2020"), "0.702"),
    (_cell("0.64 [0.61, 0.67]", "0.64", "0.64", interval=("0.61", "0.67")), "0.64"),
    (_cell("< 0.001", "0.001", "0.001"), "< 0.001"),  # the bound's sign kept: the import files it as a bound
    (_cell("12\u201315", "12", "12", rest="\u201315"), "12\u201315"),  # a range: both ends
    (_cell("3.2 \u00d7 10\u207b\u2074", "3.2", "3.2\u00d710\u207b\u2074"), "3.2 \u00d7 10\u207b\u2074"),
    # only an interval: a range of two numbers, no point value claimed, however the grid split it
    (_cell("[0.61, 0.67]", "0.61", "0.61", interval=("0.61", "0.67")), "[0.61, 0.67]"),
    (_cell("[70.5, 71.9]", "70.5", "70.5", rest=",71.9]"), "[70.5, 71.9]"),
])
def test_a_cell_is_written_as_printed(cell: GridCell, written: str) -> None:
    row, why = _imported(cell)
    assert why is None and row is not None
    assert row["value"] == written
    if written.startswith("["):
        assert row.get("uncertainty", "") == "", "the interval is the value's range, not also its uncertainty"


def test_a_plus_minus_is_written_beside_the_value() -> None:
    row, _ = _imported(_cell("0.702\u2020 \u00b1 0.021", "0.702", "0.702", plus_minus="0.021", marks="\u2020"))
    assert row is not None and row["uncertainty"] == "\u00b1 0.021"


def test_a_spaced_exponent_is_never_cut_to_its_mantissa() -> None:
    """'−0.04 e−2' (a mantissa and its exponent set apart by a publisher's pipeline) is −0.0004: written whole
    where the import reads it so, else left out with why, never as '−0.04' (a value 100 times off)."""
    row, why = _imported(_cell("\u22120.04 e\u22122", "\u22120.04", "-0.04e-2"))
    if row is not None:
        assert row["value"] == "\u22120.04 e\u22122"
    else:
        assert why is not None and "'\u22120.04 e\u22122'" in why and "transcribe it by hand" in why


def test_a_number_the_review_reads_otherwise_is_left_out() -> None:
    """The review reads a power where the text's first number is its mantissa: the import must read the same."""
    row, why = _imported(_cell("3.2 \u00d7 10\u207b\u2074", "3.2", "3.2"))
    assert row is None and why is not None and "the review reads the cell as 3.2" in why


def test_a_unit_after_the_number_is_named() -> None:
    row, why = _imported(_cell("71.2 ms", "71.2", "71.2", rest="ms"))
    assert row is None and why == "it prints more than a number and its uncertainty: 'ms'"


def test_the_reading_process_answers_with_plain_values_only() -> None:
    """Why a cell cannot be found again is a ``str`` subclass (``Unread``): the page's grid crosses from the reading
    process to the command as plain text, never as an object the sandbox refuses to read."""
    import io
    import pickle

    from registry.sandbox import Plain
    from review.tables.cited import Unread
    from review.tables.grid import plain_data

    answer = {"tables": ({"cells": [{"found_again": Unread("no row 'A' in Table 1")}], "rows": ("A",)},)}
    with pytest.raises(pickle.UnpicklingError):
        Plain(io.BytesIO(pickle.dumps(answer))).load()
    plain = Plain(io.BytesIO(pickle.dumps(plain_data(answer)))).load()
    assert plain == answer and type(plain["tables"][0]["cells"][0]["found_again"]) is str


def test_an_answer_of_objects_is_named_as_such() -> None:
    from registry.sandbox import ChildFailed, run_limited

    with pytest.raises(ChildFailed) as caught:
        run_limited("review.tables.cited:Unread", "why", timeout=60, memory_mb=None)
    assert caught.value.error_type == "UnpicklingError" and "more than plain values" in caught.value.message
