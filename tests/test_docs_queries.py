"""docs/queries.md's example queries print what it shows (regenerate: REGISTRY_REGENERATE_DOCS=1 pytest this).

Each ```console block that runs `registry query` is run again, against a database built from the
bundled records (or, for `--db fixture.db`, from tests/data/fixture-registry), at 100 columns.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import BUNDLED_RECORDS, DATA, ROOT

QUERIES = ROOT / "docs" / "queries.md"
@dataclass(frozen=True)
class Example:
    """One console block: the command (its continuation lines joined) and where its printed output lies."""

    command: str
    start: int
    end: int
    output: str


def examples(text: str) -> list[Example]:
    """Every ```console block whose command is 'registry query ...', with the offsets of its output."""
    found, offset, lines = [], 0, text.splitlines(keepends=True)
    index = 0
    while index < len(lines):
        if lines[index].rstrip("\n") == "```console" and index + 1 < len(lines) and \
                lines[index + 1].startswith("$ registry query "):
            offset_at = sum(len(line) for line in lines[: index + 1])
            command = [lines[index + 1].strip()]
            cursor = index + 2
            while cursor < len(lines) and lines[cursor].startswith("    "):
                command.append(lines[cursor].strip())
                cursor += 1
            start = offset_at + sum(len(line) for line in lines[index + 1: cursor])
            close = cursor
            while close < len(lines) and lines[close].rstrip("\n") != "```":
                close += 1
            end = start + sum(len(line) for line in lines[cursor:close])
            found.append(Example(" ".join(command).removeprefix("$ "), start, end, text[start:end]))
            index = close
        index += 1
    del offset
    return found


@pytest.fixture(scope="module")
def databases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from typer.testing import CliRunner

    from registry.cli import app

    folder = tmp_path_factory.mktemp("queries")
    built = {}
    for name, records in (("registry.db", BUNDLED_RECORDS), ("fixture.db", DATA / "fixture-registry")):
        result = CliRunner().invoke(app, ["db", "build", "--records", str(records), "--out", str(folder / name)])
        assert result.exit_code == 0, result.output
        built[name] = folder / name
    return built


def run(command: str, databases: dict[str, Path]) -> str:
    args = shlex.split(command)[1:]  # after 'registry'
    if "--db" in args:
        at = args.index("--db") + 1
        args[at] = str(databases[args[at]])
    else:
        args[1:1] = ["--db", str(databases["registry.db"])]
    env = dict(os.environ, COLUMNS="100", TERM="dumb", NO_COLOR="1")
    done = subprocess.run([sys.executable, "-m", "registry", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, (command, done.stderr)
    return done.stdout


@pytest.mark.slow
def test_every_example_query_prints_what_the_document_shows(databases: dict[str, Path]) -> None:
    text = QUERIES.read_text(encoding="utf-8")
    found = examples(text)
    assert len(found) >= 6, "the example queries of docs/queries.md went missing"
    regenerate = os.environ.get("REGISTRY_REGENERATE_DOCS") == "1"
    stale = []
    for example in reversed(found):  # from the end, so that earlier offsets stay right while rewriting
        printed = run(example.command, databases)
        if printed != example.output:
            stale.append(example.command)
            if regenerate:
                text = text[: example.start] + printed + text[example.end:]
    if regenerate:
        QUERIES.write_text(text, encoding="utf-8")
    assert not stale or regenerate, (
        f"{len(stale)} example(s) of docs/queries.md print something else now; regenerate with REGISTRY_REGENERATE_DOCS=1 "
        f"python -m pytest tests/test_docs_queries.py and review the diff: {stale}")
