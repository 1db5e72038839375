"""What the browser tests share: a headless Chromium (Debian's, driven by Playwright), a page that records
errors and stops requests to other hosts, and the sites of the bundled and fixture registries.

Each test module imports the fixtures it uses from here; the module skips, with a reason, where
Playwright or Chromium is missing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import BUNDLED_RECORDS, DATA

CHROMIUM = os.environ.get("REGISTRY_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]

playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright is a test dependency")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


def build(records: Path, out: Path) -> Path:
    from registry.site.build import build_site
    from registry.validate.runner import validate

    registry, _ = validate(records)
    build_site(registry, out)
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the bundled records."""
    return build(BUNDLED_RECORDS, tmp_path_factory.mktemp("browser") / "site")


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the 161-result fixture registry, which has no release record (finding R1)."""
    from typer.testing import CliRunner

    from registry.cli import app

    out = tmp_path_factory.mktemp("browser-fixture") / "site"
    result = CliRunner().invoke(app, ["site", "build", "--records", str(DATA / "fixture-registry"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def two_papers_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of two papers on one benchmark (``tests.test_comparability.two_papers``): a benchmark page with its
    leaderboard, values in two scales, a bound and a zero-shot value."""
    from tests.test_comparability import two_papers

    base = tmp_path_factory.mktemp("browser-two")
    return build(two_papers(base / "records"), base / "site")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


def shown(locator: Any) -> str:
    """An element's text as a screen shows it: without the words only a screen reader reads (class 'vh')."""
    return str(locator.evaluate("e => { const c = e.cloneNode(true); c.querySelectorAll('.vh').forEach(h => h.remove());"
                                " return c.textContent; }"))


class Watched:
    """A page that records console errors, page errors and every request that is not to a local file."""

    def __init__(self, browser: Any, width: int = 1280, height: int = 900, **options: Any) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height}, **options)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.remote: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("requestfailed", lambda r: self.errors.append(f"failed: {r.url}"))
        self.context.route("**/*", self._route)

    def _route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith("file://"):
            route.continue_()
        else:  # never let a request leave the machine; record it
            self.remote.append(url)
            route.abort()

    def open(self, path: Path, query: str = "") -> Any:
        self.page.goto(path.as_uri() + query, wait_until="load")
        return self.page

    def close(self) -> None:
        self.context.close()
