"""The limits of `registry query` and `registry review`: declared once, the options' defaults, and the table in docs/limits.md."""

from __future__ import annotations

import re

import typer.main

from registry import limits
from registry.cli import app
from tests.conftest import ROOT


def option_default(command: str, flag: str) -> object:
    group = typer.main.get_command(app)
    found = group.commands[command]  # type: ignore[attr-defined]
    return next(p.default for p in found.params if flag in getattr(p, "opts", ()))


def test_the_options_default_to_the_declared_limits() -> None:
    assert option_default("query", "--timeout") == limits.QUERY_TIMEOUT_S
    assert option_default("query", "--max-memory") == limits.QUERY_MAX_MEMORY_MB
    assert option_default("review", "--timeout") == limits.REVIEW_TIMEOUT_S
    assert option_default("review", "--max-memory") == limits.REVIEW_MAX_MEMORY_MB
    assert option_default("review", "--max-page-chars") == limits.REVIEW_MAX_PAGE_CHARS


def test_the_table_of_limits_says_the_declared_limits() -> None:
    table = (ROOT / "docs" / "limits.md").read_text()
    rows = {tuple(cell.strip() for cell in line.strip("|").split("|")[:3]) for line in table.splitlines()
            if line.startswith("| `")}
    expected = {
        ("`query`", "time", f"{limits.QUERY_TIMEOUT_S:g} s"),
        ("`query`", "memory", f"{limits.QUERY_MAX_MEMORY_MB:,} MB"),
        ("`query`", "one value", f"{limits.QUERY_MAX_MEMORY_MB // limits.QUERY_VALUE_SHARE} MB"),
        ("`query`", "rows", f"{limits.QUERY_MAX_ROWS:,} as a table, {limits.QUERY_MAX_ROWS_FOR_TOOLS:,} as CSV or JSON"),
        ("`review`", "time", f"{limits.REVIEW_TIMEOUT_S:g} s"),
        ("`review`", "memory", f"{limits.REVIEW_MAX_MEMORY_MB:,} MB"),
        ("`review`", "page text", f"{limits.REVIEW_MAX_PAGE_CHARS:,} characters"),
        ("`review`", "PDF size", f"{limits.REVIEW_MAX_PDF_BYTES >> 20} MB"),
    }
    assert rows == expected
    assert re.search(r"a 16th of it", table) and limits.QUERY_VALUE_SHARE == 16
