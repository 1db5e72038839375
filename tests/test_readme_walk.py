"""The README runs as written: its five-minute walk, command by command, printing the lines it shows; every
'$ ' command of the README is in that walk; and 'make demo' runs the commands the README says it runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.console_walks import steps, walk

pytestmark = pytest.mark.sandbox  # 'registry review' reads the PDF in a limited process of its own

README = ROOT / "README.md"
BEGIN, END = "<!-- five-minute walk: begin -->", "<!-- five-minute walk: end -->"


def test_every_command_of_the_readme_is_in_the_walk() -> None:
    """A '$ ' line outside the walk would be a command no test runs."""
    text = README.read_text(encoding="utf-8")
    outside = text[: text.index(BEGIN)] + text[text.index(END):]
    assert re.findall(r"^\$ .*", outside, re.MULTILINE) == []
    assert {command.split()[1] for command, _ in steps(README, BEGIN, END) if command.startswith("registry ")} >= {
        "validate", "show", "table", "import", "review", "db", "query", "site"}


def test_make_demo_runs_what_the_readme_says(cli) -> None:  # type: ignore[no-untyped-def]
    """The Makefile's demo recipe is 'registry validate' then 'registry list --kind result', and both succeed on
    the bundled records."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ndemo:", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    commands = [line.strip().removeprefix("$(VENV)/bin/") for line in recipe]
    assert commands == ["registry validate", "registry list --kind result"]
    assert "`make demo` runs `registry validate` then `registry list --kind result`" in README.read_text()
    for command in commands:
        result = cli(*command.split()[1:], "--records", ROOT / "records")
        assert result.exit_code == 0, (command, result.output)


def test_the_walk_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for shared in ("records", "tests"):
        (tmp_path / shared).symlink_to(ROOT / shared)
    monkeypatch.chdir(tmp_path)
    found = steps(README, BEGIN, END)
    assert len([c for c, _ in found if c.startswith("registry ")]) >= 9
    walk(found, tmp_path, {"REGISTRY_CACHE_DIR": str(tmp_path / "cache"), "COLUMNS": "80"}, succeed=True)
    assert (tmp_path / "site" / "index.html").is_file()
