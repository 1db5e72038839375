"""Every link of every page says where it goes, and one text leads to one place (WCAG 2.4.4 and 2.4.9; finding: 193
of 220 pages of the registry of two papers had a text with two targets: index rows and plot tables that repeat
'NT 2.5B LoRA, cv on H3K4me3', values such as '0.685' with no model, dataset or metric).

Read in Chromium, as a screen reader's list of links reads them: each link's accessible name (its text and the
visually hidden words after it) with its address, every folded table opened, on every page of the three test
registries. ``registry.site.link_texts`` is tested on its own below, on pages whose texts meet.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.browser_support import Watched, browser, fixture_site, site, two_papers_site

__all__ = ["browser", "fixture_site", "site", "two_papers_site"]  # fixtures, used by name

#: Names that say nothing of where a link goes.
GENERIC = frozenset({"here", "click here", "view", "more", "read more", "link", "this", "details", "open", "go", "page",
                     "json", "record", "record file", "show", "see", "result", "value"})

#: A value alone ('0.685', '11.45 GB', '> 0.95', '86.9 %'): no metric, model or dataset.
BARE_VALUE = re.compile(r"[<>≤≥~±+\-−–]?\s*[\d.,]+(\s*[–-]\s*[\d.,]+)?\s*(%|[A-Za-z]{1,3})?")

_LINK = re.compile(r'link "(.*)"')


def links_of(page: Any) -> list[tuple[str, str]]:
    """(accessible name, address) of each link of the page, folded parts opened, as Chromium's tree names them."""
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    found: list[tuple[str, str]] = []
    _walk(yaml.safe_load(page.locator("body").aria_snapshot()), found)
    return found


def _walk(node: Any, found: list[tuple[str, str]]) -> None:
    for key, children in _entries(node):
        link = _LINK.fullmatch(key)
        if link is not None:
            url = next((c["/url"] for c in children or [] if isinstance(c, dict) and "/url" in c), "")
            found.append((" ".join(json.loads(f'"{link.group(1)}"').split()), url))
        _walk(children, found)


def _entries(node: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(node, list):
        for item in node:
            yield from _entries(item)
    elif isinstance(node, dict):
        yield from ((key, value) for key, value in node.items() if isinstance(key, str))
    elif isinstance(node, str):
        yield node, None


def problems(links: list[tuple[str, str]]) -> list[str]:
    """A text with two targets, an empty or generic text, a value alone."""
    targets: dict[str, set[str]] = {}
    for name, url in links:
        targets.setdefault(name, set()).add(url)
    found = [f"{name!r} leads to {len(urls)} places: {sorted(urls)[:3]}" for name, urls in targets.items()
             if len(urls) > 1]
    found += [f"{name!r} ({url}) says nothing of where it goes" for name, url in links
              if name.lower().strip(" .:") in GENERIC or not name or BARE_VALUE.fullmatch(name)]
    return found


@pytest.mark.browser
@pytest.mark.parametrize("which", ["site", "fixture_site", "two_papers_site"])
def test_every_link_of_every_page_names_one_place(which: str, browser: Any, request: pytest.FixtureRequest) -> None:
    root: Path = request.getfixturevalue(which)
    watched = Watched(browser, width=390, height=844)
    try:
        found, count = {}, 0
        for path in sorted(root.rglob("*.html")):
            links = links_of(watched.open(path))
            count += len(links)
            if wrong := problems(links):
                found[str(path.relative_to(root))] = wrong
        assert count > 1000
        assert not found, f"{len(found)} page(s) with a link that does not name one place: {dict(list(found.items())[:3])}"
        assert not watched.errors
    finally:
        watched.close()


@pytest.mark.browser
def test_a_value_links_with_its_metric_model_dataset_and_locator(two_papers_site: Path, browser: Any) -> None:
    """The leaderboard's model names and the source page's values open results, and say which."""
    watched = Watched(browser)
    try:
        page = watched.open(two_papers_site / "benchmark" / "fixture-shared-20261202-benchmark-splice-sites.html")
        lumen = [name for name, url in links_of(page) if name.startswith("Lumen-B") and "/result/" in url]
        assert lumen and all(re.search(r": .*\d%? (Accuracy|TOP1|MCC) \(.* of Lumen-B .* on Splice.*, Table 1", name)
                             for name in lumen), lumen
        page = watched.open(two_papers_site / "source" / "fixture-second-20261202-source-lumen-fixture.html")
        values = [name for name, url in links_of(page) if "/result/" in url and name[:1].isdigit()]
        assert values and all(" of " in name and " on " in name and "Table" in name for name in values), values
    finally:
        watched.close()


@pytest.mark.browser
def test_the_check_reports_a_text_with_two_targets_and_a_bare_value(two_papers_site: Path, browser: Any) -> None:
    """The check above can fail: two links 'View' to two places and a value alone are reported."""
    watched = Watched(browser)
    try:
        page = watched.open(two_papers_site / "index.html")
        page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<a href=\"a.html\">View</a> "
                      "<a href=\"b.html\">View</a> <a href=\"c.html\">0.685</a>')")
        found = " ".join(problems(links_of(page)))
        assert "'View' leads to 2 places" in found and "'0.685' (c.html) says nothing" in found
    finally:
        watched.close()
