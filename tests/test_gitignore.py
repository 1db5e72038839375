"""What the commands of README.md and docs/ write in a checkout is ignored by git (finding P10), and nothing tracked is."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import ROOT

#: Paths the commands of README.md and docs/ write at the checkout's root: the databases and Datasette metadata of
#: 'registry db build' (default, fixture and demo), the walk-through's records, a default site build.
WRITTEN = ("registry.db", "registry.metadata.json", "fixture.db", "fixture.metadata.json", "demo.db",
           "demo.metadata.json", "demo/source/x.yaml", "table-1.csv", "site/index.html", "schema/result.schema.json")


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs git and a checkout")
def test_what_the_readme_writes_is_ignored_and_nothing_tracked_is() -> None:
    checked = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], cwd=ROOT, input="\n".join(WRITTEN),
                             capture_output=True, text=True)
    assert sorted(checked.stdout.split()) == sorted(WRITTEN)
    tracked = subprocess.run(["git", "ls-files", "-ci", "--exclude-standard"], cwd=ROOT, capture_output=True,
                             text=True)
    assert tracked.stdout == "", f"tracked files that .gitignore names: {tracked.stdout}"
