"""One text, one target: where two links of a page read alike and lead to different places, each is told apart by
what it opens, in words a screen reader reads (WCAG 2.4.4: a link's purpose from its text and its context; a list of
a page's links, which screen readers offer, has no context).

The page builders give links texts that name what they open (a value links with its metric, model, dataset and
locator: ``registry.page.display.result_link``; a review, an evidence row and a run with what they are of), so on
the project's registries no two texts meet. Two records can still read alike (two releases or configurations of one
name, a sweep's two runs of one value): this is the last step of writing a page, so it sees every link the page
holds, the shared plot's and the template's too. Each link of a text that leads to more than one place gets what it
opens (``describe``) after its text, visually hidden; a link whose text is still shared after that (two records
that read the same) gets its address as well.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from registry.site.html import hidden_words

#: A link: its address and what it holds (which may hold markup: a value's tag, a visually hidden span).
_ANCHOR = re.compile(r'<a\b[^>]*?\bhref="([^"]*)"[^>]*>([^<]*(?:<(?!/a>)[^<]*)*)</a>')
_MARKUP = re.compile(r"<[^>]*>")


def link_text(inner: str) -> str:
    """A link's text as it is read: its markup dropped (a line break is a space), entities decoded, spaces folded."""
    if "<" in inner:
        inner = _MARKUP.sub("", inner.replace("<br>", " "))
    return " ".join((html.unescape(inner) if "&" in inner else inner).split())


def distinct_link_texts(page: str, describe: Callable[[str], str]) -> str:
    """``page`` with each link of a shared text followed by what it opens (``describe(href)``, visually hidden),
    so that no two links read alike and lead to different places."""
    if not shared_texts(page):  # the usual page: nothing to add
        return page
    links = [(match.end() - len("</a>"), html.unescape(match.group(1)), link_text(match.group(2)))
             for match in _ANCHOR.finditer(page)]
    added: dict[int, str] = {}
    for told in (lambda href: f" ({describe(href)})", lambda href: f" ({href})"):
        read = {at: text + added.get(at, "") for at, _, text in links}
        targets: dict[str, set[str]] = {}
        for at, href, _ in links:
            targets.setdefault(read[at], set()).add(href)
        shared = {text for text, hrefs in targets.items() if len(hrefs) > 1}
        if not shared:
            break
        for at, href, _ in links:
            if read[at] in shared:
                added[at] = added.get(at, "") + told(href)
    out: list[str] = []
    last = 0
    for at in sorted(added):
        out += (page[last:at], hidden_words(added[at]))
        last = at
    out.append(page[last:])
    return "".join(out)


def shared_texts(page: str) -> dict[str, list[str]]:
    """Each link text of ``page`` that leads to more than one place, with those places (their addresses as the
    page writes them)."""
    first: dict[str, str] = {}
    shared: dict[str, set[str]] = {}
    for href, inner in _ANCHOR.findall(page):
        text = link_text(inner)
        if first.setdefault(text, href) != href:
            shared.setdefault(text, {first[text]}).add(href)
    return {text: sorted(hrefs) for text, hrefs in shared.items()}
