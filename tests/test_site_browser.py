"""The site as a person uses it, in a real headless Chromium (Debian's, driven by Playwright).

Every page loads from file:// with no console error and no request off the local files; the
facets and the search box narrow the index; the seed result pages show their values and review
status; the plot is there with its labelled values. Screenshots of the two seed result pages are
kept under tests/artifacts/ (git-ignored) and the folder is printed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import BUNDLED_RECORDS, DATA, RESULT_11, RESULT_33, ROOT

CHROMIUM = os.environ.get("REGISTRY_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
ARTIFACTS = ROOT / "tests" / "artifacts"

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright is a test dependency")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from registry.checks import validate
    from registry.site.build import build_site

    registry, _ = validate(BUNDLED_RECORDS)
    out = tmp_path_factory.mktemp("browser") / "site"
    build_site(registry, out)
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


class Watched:
    """A page that records console errors, page errors and every request that is not to a local file."""

    def __init__(self, browser: Any, **options: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900}, **options)
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

    def open(self, path: Path) -> Any:
        self.page.goto(path.as_uri(), wait_until="load")
        return self.page

    def close(self) -> None:
        self.context.close()


def test_every_page_loads_without_errors_or_remote_requests(site: Path, browser: Any) -> None:
    watched = Watched(browser)
    try:
        pages = sorted(site.rglob("*.html"))
        assert len(pages) > 80
        for path in pages:
            watched.open(path)
            assert not watched.errors, f"{path.relative_to(site)}: {watched.errors}"
            assert not watched.remote, f"{path.relative_to(site)} asked another host: {watched.remote}"
    finally:
        watched.close()


def test_facets_and_search_narrow_the_index(site: Path, browser: Any) -> None:
    watched = Watched(browser)
    try:
        page = watched.open(site / "index.html")
        rows = page.locator("#results tbody tr")
        visible = rows.locator("visible=true")
        assert rows.count() == 2 and visible.count() == 2
        assert page.locator("#shown").inner_text() == "2 of 2 results shown"

        page.get_by_label("source checked (1)", exact=True).check()
        assert visible.count() == 1 and "DeepSpeed" in visible.first.inner_text()
        assert page.locator("#shown").inner_text() == "1 of 2 results shown"
        page.get_by_label("source checked (1)", exact=True).uncheck()
        page.get_by_label("estimated only (2)").check()
        assert visible.count() == 2

        page.fill("#search", "checkpointing) of")
        assert visible.count() == 1 and "33.88" in visible.first.inner_text()
        page.fill("#search", "no such model")
        assert visible.count() == 0 and page.locator("#shown").inner_text() == "0 of 2 results shown"
        page.fill("#search", "")
        assert visible.count() == 2
        assert not watched.errors and not watched.remote
    finally:
        watched.close()


def test_index_reads_whole_with_scripts_off(site: Path, browser: Any) -> None:
    watched = Watched(browser, java_script_enabled=False)
    try:
        page = watched.open(site / "index.html")
        assert page.locator("#results tbody tr").locator("visible=true").count() == 2
        assert "Filtering needs scripts" in page.inner_text("body")
        assert page.locator("#search").is_disabled()
    finally:
        watched.close()


def test_seed_result_pages_show_values_review_and_plot(site: Path, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    watched = Watched(browser)
    try:
        for record_id, value, status in ((RESULT_33, "33.88", "source checked (no artifact hash)"),
                                         (RESULT_11, "11.49", "source checked")):
            page = watched.open(site / "result" / f"{record_id}.html")
            headline = page.locator("main > p").nth(1).inner_text()
            assert f"Transcribed value: {value} GB" in headline and f"{status})" in headline
            badge = page.locator(f"span.v[data-exact='{value}'] + span.tag").first
            assert badge.inner_text() == status
            figure = page.locator("figure.plot svg")
            assert figure.is_visible() and figure.bounding_box()["width"] > 300
            svg_text = " ".join(figure.locator("text").all_text_contents())
            assert "33.88 GB transcribed" in svg_text and "11.49 GB transcribed" in svg_text
            assert "(48 estimated)" in svg_text
            shot = ARTIFACTS / f"{record_id}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
        assert not watched.errors and not watched.remote
    finally:
        watched.close()
    print(f"\nscreenshots of the seed result pages: {ARTIFACTS}/")


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the 161-result fixture registry, which has no release record (finding R1)."""
    from typer.testing import CliRunner

    from registry.cli import app

    out = tmp_path_factory.mktemp("browser-fixture") / "site"
    result = CliRunner().invoke(app, ["site", "build", "--records", str(DATA / "fixture-registry"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_the_fixture_registry_site_browses_with_its_derived_inputs_linked(fixture_site: Path, browser: Any) -> None:
    """Findings R1-R3 in the browser: the site builds without a release, its releases page opens, a derived
    result links the results it is computed from (and they open), and a percentage reads '66%'."""
    watched = Watched(browser)
    try:
        releases = watched.open(fixture_site / "release" / "index.html")
        assert "No release has been recorded yet." in releases.inner_text("body")

        page = watched.open(fixture_site / "result" / "fixture-genomic-20261201-result-s5-splice-accuracy-drop.html")
        derived = page.locator("dt", has_text="Derived").locator("xpath=following-sibling::dd[1]")
        assert "inputs:" not in derived.inner_text()
        links = derived.locator("a")
        assert links.all_inner_texts() == ["fixture-genomic-20261201-result-s5-splice-accuracy-fp32",
                                           "fixture-genomic-20261201-result-s5-splice-accuracy-bf16"]
        assert "(94.2%)" in derived.inner_text() and "(93.8%)" in derived.inner_text()
        links.first.click()
        page.wait_for_load_state("load")
        assert page.url.endswith("result/fixture-genomic-20261201-result-s5-splice-accuracy-fp32.html")
        assert "Transcribed value: 94.2%" in page.inner_text("main")

        index = watched.open(fixture_site / "index.html")
        assert index.locator("#results tbody tr").count() == 161
        index.fill("#search", "relative reduction of peak training memory")
        visible = index.locator("#results tbody tr").locator("visible=true")
        assert visible.count() == 1 and "66%" in visible.first.inner_text() and "66 %" not in visible.first.inner_text()
        assert not watched.errors and not watched.remote
    finally:
        watched.close()
