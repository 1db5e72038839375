"""Running a document's console blocks as written: each '$ ' command in turn, checking the lines shown under it.

Used by the README's five-minute walk (tests/test_readme_walk.py) and docs/curating.md's import walkthrough
(tests/test_docs_import_walkthrough.py). Besides 'registry ...' commands (run in this process, as the console script
runs them, with '> FILE' writing standard output there), a walk may make the demo registry's source folder
('mkdir -p demo/source && cp ...') and set a variable ('export NAME=VALUE').
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

from tests.conftest import ROOT

#: What the walks' 'mkdir ... && cp ...' line makes: a registry holding the fixture paper's source alone.
DEMO_SOURCE = "mkdir -p demo/source && cp tests/data/fixture-registry/source/*.yaml demo/source/"


def steps(document: Path, begin: str, end: str) -> list[tuple[str, list[str]]]:
    """(command, the output lines shown for it) for each '$ ' line of the console blocks between the markers;
    '...' (output left out) is not a line to look for."""
    text = document.read_text(encoding="utf-8")
    block = text[text.index(begin) + len(begin): text.index(end)]
    found: list[tuple[str, list[str]]] = []
    inside = False
    for line in block.splitlines():
        if line.startswith("```"):
            inside = line == "```console"
        elif inside and line.startswith("$ "):
            found.append((line[2:], []))
        elif inside and found and line.strip() not in ("", "..."):
            found[-1][1].append(line)
    return found


def walk(found: list[tuple[str, list[str]]], folder: Path, env: dict[str, str], *, succeed: bool) -> None:
    """Run the steps in ``folder`` (the working folder, with ``env``); each must print what is shown under it,
    never a traceback, and (``succeed``) exit 0."""
    from click.testing import CliRunner

    from tests.conftest import registry_command

    for command, shown in found:
        if command == DEMO_SOURCE:
            (folder / "demo" / "source").mkdir(parents=True)
            for source in (ROOT / "tests" / "data" / "fixture-registry" / "source").glob("*.yaml"):
                shutil.copy(source, folder / "demo" / "source")
            continue
        if command.startswith("export "):
            name, value = command.removeprefix("export ").split("=", 1)
            env[name] = value
            continue
        args = shlex.split(command)
        into = None
        if ">" in args:
            args, into = args[: args.index(">")], args[args.index(">") + 1]
        assert args[0] == "registry", command
        result = CliRunner().invoke(registry_command(), args[1:], env=env)
        assert "Traceback" not in result.output, (command, result.output)
        assert result.exit_code == 0 or not succeed, (command, result.output)
        if into is not None:
            (folder / into).write_text(result.stdout, encoding="utf-8")
        for line in shown:
            assert line in result.output, (command, line, result.output)
