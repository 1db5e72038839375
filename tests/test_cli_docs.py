"""Every command has help text and a section in docs/; everyday commands start without heavy imports."""

from __future__ import annotations

import subprocess
import sys

import typer.main

from registry.cli import app
from tests.conftest import ROOT, modules_imported_by

HEAVY = ("torch", "deepspeed", "transformers", "peft", "pypdf", "sqlalchemy", "sqlmodel", "httpx")


def all_commands() -> list[tuple[str, object]]:
    """(full name, click command) for every leaf command, groups included ('db build')."""
    group = typer.main.get_command(app)
    found = []

    def walk(prefix: str, command) -> None:  # type: ignore[no-untyped-def]
        subcommands = getattr(command, "commands", None)
        if subcommands:
            for name, sub in subcommands.items():
                walk(f"{prefix} {name}".strip(), sub)
        else:
            found.append((prefix, command))

    walk("", group)
    return found


def test_every_command_has_help(cli) -> None:  # type: ignore[no-untyped-def]
    commands = all_commands()
    assert {"validate", "show", "list", "release", "schema"} <= {name for name, _ in commands}
    for name, command in commands:
        assert (command.help or "").strip(), f"'registry {name}' has no help text"
        result = cli(*name.split(), "--help")
        assert result.exit_code == 0 and "Usage:" in result.output, name
        for param in command.params:
            if param.param_type_name == "option" and not param.hidden:
                assert param.help, f"option {param.opts} of 'registry {name}' has no help"


def test_every_command_is_documented() -> None:
    """Each command has its section in the generated reference, and a guide under docs/ that names it."""
    reference = (ROOT / "docs" / "cli.md").read_text()
    guides = "".join(path.read_text() for path in (ROOT / "docs").rglob("*.md") if path.name != "cli.md")
    for name, _ in all_commands():
        assert f"## `registry {name}`" in reference, f"docs/cli.md has no section for 'registry {name}'"
        if not name.startswith("new "):  # 'registry new KIND': one guide for every kind
            assert f"`registry {name}" in guides, f"no guide under docs/ names 'registry {name}'"


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()  # its two set-up commands
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme and "make demo" in readme
    assert ci.rstrip().splitlines()[-1].strip() == "make test"


def test_help_and_validate_do_not_import_heavy_libraries() -> None:
    commands = [["--help"], ["validate", "--records", str(ROOT / "records")]]
    assert modules_imported_by(commands, HEAVY) == []


def test_help_builds_no_model() -> None:
    """Every '--help' (groups, 'registry new' and each 'registry new KIND' included) starts without defining, let
    alone building, a Pydantic model: no module of the models, and not Pydantic either. A kind's options come from
    registry/generated/kindoptions.json, generated from the models (tests/test_kinds.py keeps it true)."""
    helps = [[*name.split(), "--help"] for name, _ in all_commands()]
    helps += [["--help"], ["db", "--help"], ["site", "--help"], ["new", "--help"]]
    assert ["new", "result", "--help"] in helps
    watched = ("pydantic", "pydantic_core", "registry.models", "registry.curate.form", "yaml", "rich")
    assert modules_imported_by(helps, watched) == []
    # A command that reads records builds them, so the check above can fail (--no-cache: a report kept from an
    # earlier run of unchanged records is given without reading them).
    built = modules_imported_by([["validate", "--records", str(ROOT / "records"), "--no-cache"]], ("registry.models",))
    assert "registry.models" in built


def test_console_script_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "registry", "--help"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and "validate" in done.stdout


def test_the_table_of_codes_is_generated_from_their_declarations() -> None:
    """docs/validation.md's codes are exactly those declared in registry/issues/codes.py (regenerate:
    python -m registry.cli.docs --write)."""
    from registry.cli.docs import SECTIONS

    (section,) = [s for s in SECTIONS if s.name == "codes"]
    document = (ROOT / section.document).read_text()
    assert section.with_section(document) == document, (
        f"{section.document}'s table of codes is stale: run python -m registry.cli.docs --write")


def test_no_code_is_reported_without_a_declaration() -> None:
    """Codes are never written as bare strings in the library: each comes from its declaration."""
    import re

    sources = {p: p.read_text() for p in (ROOT / "registry").rglob("*.py") if p.name != "codes.py"}
    bare = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p, text in sources.items()
            for m in re.finditer(r'(?:RecordFileError\(|code=|(?:self|check)\.add\()\s*"[a-z][a-z-]*[a-z]"', text)]
    assert not bare, bare


def test_version_names_the_release_the_changelog_describes(cli) -> None:  # type: ignore[no-untyped-def]
    """'registry --version' prints the one declared release, which pyproject.toml reads and CHANGELOG.md has a section
    for (under an 'Unreleased' section for what is not released yet)."""
    import re

    from registry import __version__

    result = cli("--version")
    assert result.exit_code == 0 and result.output == f"registry {__version__}\n"
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'version = {attr = "registry.__version__"}' in pyproject
    releases = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert releases[:2] == ["Unreleased", __version__], releases
