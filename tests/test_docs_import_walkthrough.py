"""docs/curating.md's path from a results table to records runs as written, and prints what it shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.console_walks import steps, walk

pytestmark = pytest.mark.sandbox  # starts processes that are limited or killed (sandboxes, torch runs): left out of make test-fast

BEGIN, END = "<!-- import walkthrough: begin -->", "<!-- import walkthrough: end -->"


def test_the_walkthrough_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from registry.curate import filing, naming

    for shared in ("examples", "tests"):
        (tmp_path / shared).symlink_to(ROOT / shared)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(naming, "today", lambda: "20261201")  # the day the document's ids were filed
    monkeypatch.setattr(filing, "today", lambda: "20261201")
    found = steps(ROOT / "docs" / "curating.md", BEGIN, END)
    assert len([c for c, _ in found if c.startswith("registry ")]) >= 10
    walk(found, tmp_path, {"REGISTRY_CACHE_DIR": str(tmp_path / "cache")}, succeed=False)  # one import fails on purpose
