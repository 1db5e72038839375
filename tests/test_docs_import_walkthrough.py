"""docs/curating.md's path from a results table to records runs as written, and prints what it shows."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.sandbox  # starts processes that are limited or killed (sandboxes, torch runs): left out of make test-fast

BEGIN, END = "<!-- import walkthrough: begin -->", "<!-- import walkthrough: end -->"


def walkthrough() -> list[tuple[str, list[str]]]:
    """(command, the output lines the document shows for it) for each '$ registry ...' line of the block."""
    readme = (ROOT / "docs" / "curating.md").read_text()
    block = readme[readme.index(BEGIN) + len(BEGIN): readme.index(END)]
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps and line.strip() not in ("", "...", "```"):
            steps[-1][1].append(line)
    return steps


def test_the_walkthrough_runs_as_written(runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from registry.cli import app
    from registry.curate import filing, naming

    for shared in ("examples", "tests"):
        (tmp_path / shared).symlink_to(ROOT / shared)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(naming, "today", lambda: "20261201")  # the day the document's ids were filed
    monkeypatch.setattr(filing, "today", lambda: "20261201")
    env = {"REGISTRY_CACHE_DIR": str(tmp_path / "cache")}
    steps = walkthrough()
    assert len([c for c, _ in steps if c.startswith("registry ")]) >= 10
    for command, shown in steps:
        if command.startswith("mkdir"):
            (tmp_path / "demo" / "source").mkdir(parents=True)
            for source in (ROOT / "tests" / "data" / "fixture-registry" / "source").glob("*.yaml"):
                shutil.copy(source, tmp_path / "demo" / "source")
            continue
        if command.startswith("export "):
            name, value = command.removeprefix("export ").split("=", 1)
            env[name] = value
            continue
        args = shlex.split(command)
        assert args[0] == "registry", command
        result = runner.invoke(app, args[1:], env=env)
        assert "Traceback" not in result.output, (command, result.output)
        for line in shown:
            assert line in result.output, (command, line, result.output)
