"""The site on a phone and a desk: no page of the bundled or fixture registry is wider than a 390 px or a
1280 px viewport, and the index reads as cards on a phone, its words whole (finding: pages 557-791 px wide).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import Watched, browser, fixture_site, site

pytestmark = pytest.mark.browser
__all__ = ["browser", "fixture_site", "site"]  # fixtures, used by name

WIDTHS = (390, 1280)

#: What sticks out past the viewport's right edge, outside the one thing allowed to scroll on its own (a table
#: in its wrapper on a desk), for the message.
OVERFLOW = """(width) => {
  const out = [];
  for (const element of document.querySelectorAll("body *")) {
    const box = element.getBoundingClientRect();
    if (box.right > width + 1 && !element.closest(".table-wrap")) out.push(element.tagName + "." + element.className);
  }
  return out.slice(0, 5);
}"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("which", ["site", "fixture_site"])
def test_no_page_is_wider_than_the_viewport(which: str, width: int, browser: Any,
                                           request: pytest.FixtureRequest) -> None:
    root: Path = request.getfixturevalue(which)
    watched = Watched(browser, width=width)
    try:
        pages = sorted(root.rglob("*.html"))
        kinds = {path.parent.name for path in pages}
        assert {"result", "dataset", "config", "evaluation", "protocol", "source", "release"} <= kinds
        wide = []
        for path in pages:
            page = watched.open(path)
            scroll = page.evaluate("document.documentElement.scrollWidth")
            if scroll > width:
                wide.append(f"{path.relative_to(root)}: {scroll} px ({page.evaluate(OVERFLOW, width)})")
        assert not wide, f"{len(wide)} page(s) wider than {width} px: {wide[:5]}"
    finally:
        watched.close()


def test_the_index_is_cards_on_a_phone_with_words_whole(fixture_site: Path, browser: Any) -> None:
    """At 390 px no index cell scrolls inside the table either, and no word is split across lines."""
    watched = Watched(browser, width=390)
    try:
        page = watched.open(fixture_site / "index.html")
        wrap = page.locator(".table-wrap").first
        assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")
        first = page.locator("#results tbody tr").first
        assert first.evaluate("e => getComputedStyle(e).display") == "block"
        label = first.locator("td").nth(2).evaluate("e => getComputedStyle(e, '::before').content")
        assert label == '"Value ± uncertainty"'
        # A word split mid-word would make a text node's line boxes start inside a word: check every cell's
        # words are each laid out on one line.
        split = page.evaluate("""() => {
          const found = [];
          for (const cell of document.querySelectorAll('#results tbody tr:nth-child(-n+20) td')) {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const re = /\\S+/g; let m;
              while ((m = re.exec(node.data))) {
                const range = document.createRange();
                range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
                const tops = new Set(Array.from(range.getClientRects(), r => Math.round(r.top)));
                if (tops.size > 1 && !m[0].includes('-') && !m[0].includes('/')) found.push(m[0]);
              }
            }
          }
          return found;
        }""")
        assert split == []
    finally:
        watched.close()


def test_plots_read_on_a_phone(fixture_site: Path, browser: Any) -> None:
    """Every protocol has its plot (transcribed values only included); at 390 px it fits the screen and its
    text is drawn at a readable size, each row's label on its own lines (no label over another)."""
    watched = Watched(browser, width=390)
    try:
        protocols = sorted((fixture_site / "protocol").glob("*.html"))
        assert len(protocols) == 6
        for path in protocols:
            page = watched.open(path)
            parts = page.locator("figure.plot svg")
            assert parts.count() >= 1, path.name  # one <svg> per part of at most 25 rows (136 rows: 8 parts)
            for index in range(parts.count()):
                svg = parts.nth(index)
                box = svg.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= 390
                assert box["height"] < 2000, f"{path.name}: part {index + 1} is {box['height']:.0f} px high"
                heights = svg.locator("text").evaluate_all(
                    "texts => texts.map(t => t.getBoundingClientRect().height)")
                assert min(heights) >= 9, f"{path.name}: text {min(heights):.1f} px high"
                boxes = svg.locator("text[font-size='11']").evaluate_all(
                    "texts => texts.map(t => { const b = t.getBoundingClientRect(); return [b.top, b.bottom]; })")
                overlaps = [a for a, b in zip(boxes, boxes[1:], strict=False) if b[0] < a[1] - 1]
                assert not overlaps, f"{path.name}: {len(overlaps)} label lines overlap"
    finally:
        watched.close()
