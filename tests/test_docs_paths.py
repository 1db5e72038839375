"""No document names a file or a module that does not exist: README.md, CHANGELOG.md and everything under docs/
(and benchmarks/, whose results name the modules they measured). A path (`registry/store/cache.py`, `tests/...`,
a link's target) must be in the checkout; a module (`registry.store.cache`, `registry.units.factor`) must be
one, or a name such a module defines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

#: The checkout's top folders a document names files in. records/ is left out: documents name example records
#: that a reader would write (`records/unit/my-batch-...yaml`).
FOLDERS = ("registry", "review", "measure", "tests", "benchmarks", "examples", "docs", ".ci")
PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(re.escape(f) for f in FOLDERS) + r")/[\w./-]*[\w/])")
#: A module, as a document names it in code: `registry.store.cache`, `registry.units.factor()`.
MODULE = re.compile(r"`((?:registry|review|measure)(?:\.[A-Za-z_]\w*)+)(?:\(\))?`")
#: A dotted name with one of these endings is a file's name (`registry.metadata.json`), not a module.
FILE_ENDINGS = (".json", ".db", ".yaml", ".md", ".py", ".sql", ".svg", ".png", ".csv", ".tsv", ".txt", ".html")
#: Folders the commands make in a checkout, which a document names as where their output goes.
MADE_BY_COMMANDS = ("measure/runs",)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
#: A path with one of these is a pattern or an elision, not a file's name.
PATTERNS = ("<", "*", "{", "...", "…")


def documents() -> list[Path]:
    found = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md")),
             *sorted((ROOT / "benchmarks").glob("*.md"))]
    return [path for path in found if path.is_file()]


def defines(module: Path, name: str) -> bool:
    text = module.read_text(encoding="utf-8")
    return re.search(rf"^\s*(?:def|class|async def)\s+{re.escape(name)}\b|^\s*{re.escape(name)}\s*[:=]"
                     rf"|^\s*(?:from\s+\S+\s+)?import\s+.*\b{re.escape(name)}\b", text, re.MULTILINE) is not None


def module_exists(dotted: str) -> bool:
    """A module or package of the checkout, or a name the longest such prefix defines."""
    parts = dotted.split(".")
    for end in range(len(parts), 1, -1):
        base = ROOT.joinpath(*parts[:end])
        found = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
        if found.is_file():
            rest = parts[end:]
            return not rest or defines(found, rest[0])
    return False


def missing(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    gone = []
    for name in PATH.findall(text):
        if not any(mark in name for mark in PATTERNS) and not (ROOT / name).exists() and \
                name.rstrip("/") not in MADE_BY_COMMANDS:
            gone.append(name)
    for dotted in MODULE.findall(text):
        if not dotted.endswith(FILE_ENDINGS) and not module_exists(dotted):
            gone.append(dotted)
    for target in LINK.findall(text):
        if "://" not in target and not target.startswith("mailto:") and not (path.parent / target).exists():
            gone.append(target)
    return sorted(set(gone))


@pytest.mark.parametrize("document", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_and_module_a_document_names_exists(document: Path) -> None:
    assert missing(document) == [], f"{document.relative_to(ROOT)} names what does not exist"


def test_the_check_finds_what_is_gone(tmp_path: Path) -> None:
    """The rule fails where a document names a moved module, a file or a link that is not there."""
    document = tmp_path / "doc.md"
    document.write_text("See `registry/validate/runner.py`, `registry/checks/rules.py`, `registry.store.cache`, "
                        "`registry.checks.rules`, `registry.units.factor`, `registry.units.no_such_name`, "
                        "[a link](nowhere.md) and `records/<kind>/<id>.yaml`.\n", encoding="utf-8")
    assert missing(document) == ["nowhere.md", "registry.checks.rules", "registry.units.no_such_name",
                                 "registry/checks/rules.py"]
