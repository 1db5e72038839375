"""axe-core, injected with Playwright, finds no accessibility violation on any kind of page, at 390 and 1280 px.

axe-core comes from the npm registry: .ci/run installs the pinned version under .cache/axe (git-ignored);
elsewhere run the same line, or point REGISTRY_AXE at an axe.min.js. Without it the module skips, naming
the command. One page per kind (the pages of a kind share their template and blocks), the index with a
filter applied, and both registries.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import Watched, browser, fixture_site, site, two_papers_site
from tests.conftest import ROOT

pytestmark = pytest.mark.browser
__all__ = ["browser", "fixture_site", "site", "two_papers_site"]  # fixtures, used by name

AXE = Path(os.environ.get("REGISTRY_AXE", ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"))
if not AXE.is_file():
    pytest.skip(f"no axe-core at {AXE} (npm install --prefix .cache/axe axe-core@4.14.1, as .ci/run does)",
                allow_module_level=True)

#: The rule sets axe runs: WCAG 2.0-2.2 A and AA, and its best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def one_page_per_kind(root: Path) -> list[Path]:
    chosen: dict[str, Path] = {}
    for path in sorted(root.rglob("*.html")):
        chosen.setdefault(str(path.parent.relative_to(root)), path)
    return sorted(chosen.values())


def violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", TAGS)["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}" for v in found]


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("which", ["site", "fixture_site", "two_papers_site"])
def test_axe_finds_no_violation(which: str, width: int, browser: Any, request: pytest.FixtureRequest) -> None:
    root: Path = request.getfixturevalue(which)
    watched = Watched(browser, width=width)
    try:
        found = {}
        for path in one_page_per_kind(root):
            if path.name != "index.html" or path.parent != root:
                found[str(path.relative_to(root))] = violations(watched.open(path))
        # The index filtered and sorted by the URL: axe reads the rows shown (every row is the same markup),
        # which keeps it to seconds on the fixture's 161 rows.
        page = watched.open(root / "index.html", "?q=standard+deviation&sort=value&order=descending")
        found["index.html (filtered, sorted)"] = violations(page)
        assert len(found) >= 8
        assert not {name: v for name, v in found.items() if v}
    finally:
        watched.close()


def test_axe_reports_a_planted_violation(site: Path, browser: Any) -> None:
    """The check above can fail: an image without alternative text and an unlabelled box are reported."""
    watched = Watched(browser)
    try:
        page = watched.open(site / "release" / "index.html")
        page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', "
                      "'<img src=\"../assets/none.png\"><input type=\"text\">')")
        found = " ".join(violations(page))
        assert "image-alt" in found and "label" in found
    finally:
        watched.close()
