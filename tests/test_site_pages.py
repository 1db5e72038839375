"""Record pages in Chromium: what a researcher looks for on them (issue 24's record-page findings).

A dataset's and a protocol's page list their results; a result's headline carries its ±; a
configuration's table leaves out its own column and sorts fold 10 after fold 9; references read as
names; one 'Missing metadata' row per gap; what backs a value opens by keyboard; a skip link; the
paper linked with a BibTeX entry of the record's own fields; the seed pages' sentences word for
word and the evidence filter; a review's pinned hash beside the evidence row.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from registry.page import display as d
from tests.browser_support import Watched, browser, fixture_site, shown, site
from tests.conftest import CONFIG_33, RESULT_11, SOURCE

pytestmark = pytest.mark.browser
__all__ = ["browser", "fixture_site", "site"]  # fixtures, used by name

F = "fixture-genomic-20261201-"


def test_dataset_and_protocol_pages_list_their_results(fixture_site: Path, browser: Any) -> None:
    watched = Watched(browser)
    try:
        page = watched.open(fixture_site / "dataset" / f"{F}dataset-splice.html")
        results = page.locator("#results")
        assert "6 evaluations · 39 results." in results.inner_text()
        rows = results.locator("table tbody tr")
        assert rows.count() == 39
        assert rows.first.locator("a[href*='/result/']").count() >= 1
        protocol = watched.open(fixture_site / "protocol" / f"{F}protocol-seeds.html")
        assert "0.947" in protocol.locator("#results").inner_text()
        assert not watched.errors and not watched.remote
    finally:
        watched.close()


def test_a_result_headline_carries_its_uncertainty(fixture_site: Path, browser: Any) -> None:
    watched = Watched(browser)
    try:
        page = watched.open(fixture_site / "result" / f"{F}result-s5-hyenadna-splice-seeds.html")
        headline = page.locator("main > p").nth(1).inner_text()
        assert headline.startswith("0.947 ± 0.004 · MCC")
        assert "Transcribed value: 0.947 ± 0.004" in headline and "(standard error over 5 seeds)" in headline
    finally:
        watched.close()


def test_a_configuration_table_leaves_out_its_own_column_and_sorts_folds_as_numbers(fixture_site: Path,
                                                                                   browser: Any) -> None:
    watched = Watched(browser)
    try:
        page = watched.open(fixture_site / "config" / f"{F}config-nt-500m.html")
        page.locator("#evaluations-and-results summary").first.click()  # a long table opens under its title
        table = page.locator("#evaluations-and-results table").first
        headers = table.locator("thead th").all_inner_texts()
        assert headers == ["Protocol and dataset", "Finding", "Evidence and details"]
        findings = table.locator("tbody tr td:nth-child(2)").all_inner_texts()
        folds = [int(m.group(1)) for text in findings if (m := re.search(r"Splice sites, test fold (\d+)", text))]
        assert folds == list(range(1, 11))
    finally:
        watched.close()


def test_technical_metadata_names_records_and_lists_a_gap_once(site: Path, browser: Any) -> None:
    watched = Watched(browser)
    try:
        page = watched.open(site / "result" / f"{RESULT_11}.html")
        metadata = page.locator("#technical-metadata-and-extraction-receipts")
        labels = metadata.locator("dt").all_inner_texts()
        assert labels.count("Missing metadata") == 1 and "Uncertainty" not in labels
        evaluation = metadata.locator("dt", has_text="Evaluation").locator("xpath=following-sibling::dd[1]")
        assert evaluation.inner_text() == "NT 2.5B training peak memory, stage + DeepSpeed"
        assert evaluation.locator("a").get_attribute("href").endswith(
            "evaluation/saadat-fellay-20261015-evaluation-nt-2-5b-training-peak-memory-deepspeed.html")
    finally:
        watched.close()


def test_what_backs_a_value_opens_by_keyboard(site: Path, browser: Any) -> None:
    watched = Watched(browser)
    try:
        page = watched.open(site / "result" / f"{RESULT_11}.html")
        page.keyboard.press("Tab")
        skip = page.locator(":focus")
        assert skip.inner_text() == "Skip to the content"
        page.keyboard.press("Enter")
        assert page.url.endswith("#main") and page.evaluate("document.activeElement.id") == "main"

        badge = page.locator("main > p").nth(1).locator("a.tag").first
        assert shown(badge) == "source checked" and badge.text_content() == "source checked: what backs it, note 1"
        badge.focus()
        page.keyboard.press("Enter")
        fragment = page.url.rsplit("#", 1)[1]
        backing = page.locator(f"#{fragment}")
        assert backing.is_visible()
        text = backing.inner_text()
        assert "review saadat-fellay-20261015-review-result" in text and "artifact sha256 4bc24521" in text
        assert "Source checking is not independent reproduction." in text
    finally:
        watched.close()


def test_the_paper_is_linked_with_a_citation_of_its_own_fields(site: Path, browser: Any) -> None:
    watched = Watched(browser)
    try:
        page = watched.open(site / "source" / f"{SOURCE}.html")
        cite = page.locator("#read-and-cite")
        hrefs = cite.locator("a").evaluate_all("links => links.map(a => a.href)")
        assert hrefs == ["https://openreview.net/pdf?id=NUleWh1GFx", "https://openreview.net/forum?id=NUleWh1GFx"]
        entry = cite.locator("pre").inner_text()
        assert entry.startswith("@misc{saadat2026optimizing,")
        assert "author = {Saadat and Fellay}" in entry and "year = {2026}" in entry
        assert "doi" not in entry and "eprint" not in entry and "pages" not in entry  # the record has none
        result = watched.open(site / "result" / f"{RESULT_11}.html")
        sources = result.locator("#sources-and-history")
        assert sources.locator("a[href='https://openreview.net/forum?id=NUleWh1GFx']").count() == 1
        assert not watched.remote  # a link is followed when clicked, never loaded with the page
    finally:
        watched.close()


def test_the_seed_sentences_and_the_evidence_filter(site: Path, browser: Any) -> None:
    watched = Watched(browser)
    try:
        config = watched.open(site / "config" / f"{CONFIG_33}.html")
        text = config.inner_text("main")
        for sentence in (d.CONSULT_SOURCES, d.EVIDENCE_CAVEAT, d.EVIDENCE_TABLE_INTRO, d.EVIDENCE_TABLE_ROWS,
                         d.EVIDENCE_NONE_MATCH, "0 evidence rows matching the loaded filters",
                         "Applied filters: All linked evaluations"):
            assert sentence in text, sentence
        result = watched.open(site / "result" / f"{RESULT_11}.html")
        text = result.inner_text("main")
        for sentence in (d.REPRODUCTION_REQUIREMENTS, d.EVIDENCE_CAVEAT, d.EVIDENCE_TABLE_SUMMARY,
                         d.EVIDENCE_TABLE_INTRO, d.EVIDENCE_TABLE_ROWS, "1 evidence row matching the loaded filters"):
            assert sentence in text, sentence
        # The review pins the PDF's hash: the evidence row says so, not 'Not transcribed'.
        assert "Source artifact SHA-256: 4bc2452110f280a7ba8baa4c7c28beac89769511019666bc77fc33af9b3bcd60 (pinned " \
               "by the review)" in text
        assert "Source artifact SHA-256: Not transcribed" not in text
        evidence = result.locator("#evidence-table")
        box = evidence.get_by_role("searchbox", name="Filter evidence rows")
        box.fill("no such words")
        assert evidence.locator("tbody tr").locator("visible=true").count() == 0
        assert evidence.locator("caption").inner_text() == "0 evidence rows matching the loaded filters"
        assert "Applied filters: search 'no such words'" in evidence.inner_text()
        box.fill("11.49")
        assert evidence.locator("tbody tr").locator("visible=true").count() == 1
        assert evidence.locator("caption").inner_text() == "1 evidence row matching the loaded filters"
        assert not watched.errors and not watched.remote
    finally:
        watched.close()
