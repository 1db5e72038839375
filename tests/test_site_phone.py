"""The site on a phone (390×844) and a desk (1280×800), on the registry of two papers: nothing wider than its table
cell, no word broken mid-word, and the index's facets folded behind their summary on a phone so that the first
result is on the first screen (finding: badges over the next column on 50 of 186 pages, 'trainin g', facets
taking 1,340 px before the first result)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import Watched, browser, two_papers_site

pytestmark = pytest.mark.browser
__all__ = ["browser", "two_papers_site"]  # fixtures, used by name

SCREENS = ((390, 844), (1280, 800))

#: Elements inside a table cell that stick out of it (a badge over the next column), for the message.
OUT_OF_CELL = """() => {
  const out = [];
  for (const cell of document.querySelectorAll('main td, main th')) {
    const c = cell.getBoundingClientRect();
    if (c.width === 0) continue;
    for (const el of cell.querySelectorAll('*')) {
      const b = el.getBoundingClientRect();
      if ((b.width || b.height) && (b.right > c.right + 1 || b.left < c.left - 1)) {
        out.push(`${el.tagName}.${el.className} '${(el.textContent || '').slice(0, 30)}' ${Math.round(b.right - c.right)} px`);
        break;
      }
    }
  }
  return out.slice(0, 3);
}"""

#: Words laid out over two lines though they are shorter than a line (a break mid-word: 'trainin g'). A word here
#: is a run between the places a line may break (spaces, hyphens, slashes); ids and hashes longer than 24
#: characters may wrap where nothing else can.
MID_WORD = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const re = /[^\\s\\-\\/_.,;:()=]+/g; let m;
    while ((m = re.exec(node.data))) {
      if (m[0].length > 24) continue;
      const range = document.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      if (new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size > 1) found.push(m[0]);
    }
  }
  return found.slice(0, 5);
}"""


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_nothing_is_wider_than_its_cell_and_no_word_breaks(width: int, height: int, two_papers_site: Path,
                                                           browser: Any) -> None:
    watched = Watched(browser, width=width, height=height)
    try:
        pages = sorted(two_papers_site.rglob("*.html"))
        assert {"benchmark", "source", "family", "result"} <= {p.parent.name for p in pages}
        out, broken, wide = {}, {}, []
        for path in pages:
            page = watched.open(path)
            name = str(path.relative_to(two_papers_site))
            if found := page.evaluate(OUT_OF_CELL):
                out[name] = found
            if found := page.evaluate(MID_WORD):
                broken[name] = found
            if page.evaluate("document.documentElement.scrollWidth") > width:
                wide.append(name)
        assert not out, f"{len(out)} page(s) with an element wider than its cell: {dict(list(out.items())[:3])}"
        assert not broken, f"{len(broken)} page(s) with words broken: {dict(list(broken.items())[:3])}"
        assert not wide, wide[:5]
        assert not watched.errors
    finally:
        watched.close()


def test_on_a_phone_the_facets_fold_and_the_first_result_is_on_the_first_screen(two_papers_site: Path,
                                                                                  browser: Any) -> None:
    watched = Watched(browser, width=390, height=844)
    try:
        page = watched.open(two_papers_site / "index.html")
        panel = page.locator("#facet-panel")
        assert panel.evaluate("e => e.open") is False
        first = page.locator("#results tbody tr").first.bounding_box()
        assert first["y"] < 844, f"the first result starts at {first['y']:.0f} px"
        page.get_by_text("Filter by facet").click()  # the summary is the button that opens them
        assert panel.evaluate("e => e.open") is True
        assert page.locator("fieldset[data-facet=metric]").is_visible()
        chosen = watched.open(two_papers_site / "index.html", "?metric=Accuracy")  # a link that chose a facet
        assert chosen.locator("#facet-panel").evaluate("e => e.open") is True
    finally:
        watched.close()
    desk = Watched(browser, width=1280, height=800)
    try:
        assert desk.open(two_papers_site / "index.html").locator("#facet-panel").evaluate("e => e.open") is True
    finally:
        desk.close()


def test_the_benchmark_page_shows_both_papers_on_one_leaderboard(two_papers_site: Path, browser: Any) -> None:
    watched = Watched(browser, width=390, height=844)
    try:
        page = watched.open(two_papers_site / "benchmark" / "fixture-shared-20261202-benchmark-splice-sites.html")
        text = page.locator("main").inner_text()
        assert "Lumen-B (second fixture paper)" in text and "NT 2.5B, full fine-tuning" in text
        assert "Not comparable because" in text and "it is a bound ('> 0.95'), not one value" in text
        board = page.locator("section", has=page.locator("h3", has_text="Accuracy in percent")).first
        ranks = board.locator("tbody tr td:first-child").all_inner_texts()
        assert ranks[:3] == ["1", "2", "3"]
    finally:
        watched.close()
