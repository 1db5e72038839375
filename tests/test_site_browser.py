"""The site as a person uses it, in a real headless Chromium (Debian's, driven by Playwright).

Every page loads from file:// with no console error and no request off the local files; the
facets and the search box narrow the index; the seed result pages show their values and review
status; the plot is there with its labelled values. Screenshots of the two seed result pages are
kept under tests/artifacts/ (git-ignored) and the folder is printed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import Watched, browser, fixture_site, shown, site
from tests.conftest import RESULT_11, RESULT_33, ROOT

ARTIFACTS = ROOT / "tests" / "artifacts"
pytestmark = pytest.mark.browser
__all__ = ["browser", "fixture_site", "site"]  # fixtures, used by name


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

        page.fill("#search", "33.88")
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
        assert "Filtering and sorting need scripts" in page.inner_text("body")
        assert page.locator("#search").is_disabled() and page.locator("button.sort").first.is_disabled()
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
            badge = page.locator(f"span.v[data-exact='{value}'] + a.tag").first
            assert shown(badge) == status
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
        links = derived.locator("a:not(.tag)")  # the inputs; the tag's label links to what backs the value
        assert [shown(link) for link in links.all()] == ["Splice sites, Accuracy in fp32", "Splice sites, Accuracy in bf16"]
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
