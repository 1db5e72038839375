"""Slips the source witness fails because of how sources are written: the source states every cell of a table, so a
value printed by none of the cells a record's names could mean, or printed where another table has the cited row
and column, is a failure with what the source prints (registry.checking.source_witness).

The tables are written here as grids (stand-ins, invented numbers) and read as the readers read a source's.
"""

from __future__ import annotations

from registry.checking.cells import TableCell
from registry.checking.source_witness import check_cell
from review.sources.labels import label_tables
from review.sources.model import Grid, GridCell, tables_of

PAGE = ("Table 1: Accuracy of the models by size. Model Acc Small Base 71.2 Large Base 80.4\n"
        "Table 2: Training cost of the models. Model Hours Tagger 12 Parser 0.5")


def _source():  # type: ignore[no-untyped-def]
    first = Grid("Table 1", "Accuracy of the models by size.", [
        [GridCell("Model"), GridCell("Acc")], [GridCell("Small", colspan=2)], [GridCell("Base"), GridCell("71.2")],
        [GridCell("Large", colspan=2)], [GridCell("Base"), GridCell("80.4")]], 1)
    second = Grid("Table 2", "Training cost of the models.", [
        [GridCell("Model"), GridCell("Hours")], [GridCell("Tagger"), GridCell("12")], [GridCell("Parser"),
                                                                                      GridCell("71.2")]], 1)
    return label_tables("paper.tex", tables_of([first, second]), [PAGE])


def _claim(table: str, row: str, column: str, value: str) -> TableCell:
    return TableCell("r", "table cell", 1, table, row, column, value)  # type: ignore[call-arg]


def test_a_value_no_cell_of_an_ambiguous_name_prints_fails_where_the_table_prints_it_nowhere() -> None:
    verdict = check_cell(_source(), _claim("Table 1", "Base", "Acc", "75.0"))
    assert verdict.outcome == "fail" and "none prints '75.0'" in verdict.detail
    assert "71.2" in verdict.detail and "80.4" in verdict.detail
    elsewhere = check_cell(_source(), _claim("Table 2", "Tagger", "Hours", "12"))
    assert elsewhere.outcome == "pass"
    # a row named 'Base' (two cells), the value printed by another cell of the table: it may be the cell meant
    grid = Grid("Table 1", "Accuracy of the models by size.", [
        [GridCell("Model"), GridCell("Acc")], [GridCell("Small", colspan=2)], [GridCell("Base"), GridCell("71.2")],
        [GridCell("Large", colspan=2)], [GridCell("Base"), GridCell("80.4")], [GridCell("Base (tuned)"),
                                                                               GridCell("75.0")]], 1)
    printed = label_tables("paper.tex", tables_of([grid]), [PAGE])
    assert check_cell(printed, _claim("Table 1", "Base", "Acc", "75.0")).outcome == "cannot check"


def test_a_value_one_cell_of_an_ambiguous_name_prints_cannot_be_told() -> None:
    verdict = check_cell(_source(), _claim("Table 1", "Base", "Acc", "80.4"))
    assert verdict.outcome == "cannot check" and "name the row with its group" in verdict.detail


def test_a_value_cited_in_the_wrong_table_fails_where_another_table_has_its_row_and_column() -> None:
    """Table 2 has neither 'Large / Base' nor 'Acc', and prints 71.2 (another cell); Table 1 has both and prints
    80.4 there, not 71.2; but cited as 'Small / Base', Table 1 prints 71.2: that is the value's table."""
    verdict = check_cell(_source(), _claim("Table 2", "Small / Base", "Acc", "71.2"))
    assert verdict.outcome == "fail" and "Table 1" in verdict.detail and "another table" in verdict.detail
    spelled = check_cell(_source(), _claim("Table 2", "Small / Bse", "Acc.", "71.2"))  # names in no table
    assert spelled.outcome == "cannot check"


def test_a_float_cited_on_a_page_that_does_not_print_its_caption_fails_whatever_its_names() -> None:
    tables = _source().tables
    for table in tables:
        table.breakable = False  # LaTeX floats, set on one page
    source = label_tables("paper.tex", tables, [PAGE, "Some other page of text."])
    verdict = check_cell(source, TableCell("r", "table cell", 2, "Table 1", "Small / Bse", "Acc.", "71.2"))  # type: ignore
    assert verdict.outcome == "fail" and "set on one page: page 2 does not hold it" in verdict.detail
    printed = label_tables("paper.tex", tables, [PAGE, "A page that quotes 71.2 in its text."])
    assert check_cell(printed, TableCell("r", "table cell", 2, "Table 1", "Small / Bse", "Acc.",  # type: ignore
                                         "71.2")).outcome == "cannot check"  # the page prints the value
    breakable = label_tables("paper.html", _source().tables, [PAGE, "Some other page of text."])
    assert check_cell(breakable, TableCell("r", "table cell", 2, "Table 1", "Small / Bse", "Acc.",  # type: ignore
                                           "71.2")).outcome == "cannot check"


def test_a_power_of_ten_is_one_number_however_the_source_and_the_record_set_it() -> None:
    """LaTeX's '3.69 \\times 10^{-31}' reads as '3.69 × 10⁻³¹'; a record files it as printed in the PDF's text,
    '3.69 × 10^−31': the same number, the same digits. Another mantissa or exponent still fails."""
    grid = Grid("Table 1", "Accuracy of the models by size.", [
        [GridCell("Model"), GridCell("p")], [GridCell("Small"), GridCell("3.69 × 10⁻³¹")]], 1)
    printed = label_tables("paper.tex", tables_of([grid]), [PAGE])
    assert check_cell(printed, _claim("Table 1", "Small", "p", "3.69 × 10^−31")).outcome == "pass"
    assert check_cell(printed, _claim("Table 1", "Small", "p", "3.69 × 10^−13")).outcome == "fail"
    assert check_cell(printed, _claim("Table 1", "Small", "p", "3.70 × 10^−31")).outcome == "fail"
