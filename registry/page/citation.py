"""How to find and cite a source: its links (URL, DOI, arXiv, OpenReview) and a BibTeX entry.

Both are built from the source record's own fields and nothing else: a field the record leaves
empty is left out of the entry, never guessed (no invented pages, publisher or first names). The
entry is ``@misc``, the one BibTeX type whose fields are all optional, because the record does
not say whether a venue is a journal, a proceedings or a workshop.
"""

from __future__ import annotations

import re

from registry.models import Source

#: Each identifier field's link and label, in the order the pages list them.
LINKS = (
    ("retrieval_url", "PDF as retrieved", "{}"),
    ("doi", "DOI", "https://doi.org/{}"),
    ("arxiv", "arXiv", "https://arxiv.org/abs/{}"),
    ("openreview", "OpenReview", "https://openreview.net/forum?id={}"),
)


def links(source: Source) -> list[tuple[str, str]]:
    """(label, URL) for each identifier the source record holds."""
    return [(label, pattern.format(getattr(source, field))) for field, label, pattern in LINKS
            if getattr(source, field, None)]


def bibtex(source: Source) -> str:
    """The source as a BibTeX ``@misc`` entry, with only the fields its record holds."""
    fields = [("title", "{" + _escape(source.title) + "}"),
              ("author", " and ".join(_escape(author) for author in source.authors)),
              ("year", str(source.year)),
              ("howpublished", _escape(source.venue))]
    if source.doi:
        fields.append(("doi", source.doi))
    if source.arxiv:
        fields += [("eprint", source.arxiv), ("archiveprefix", "arXiv")]
    url = next((url for _, url in links(source)), None)
    if url:
        fields.append(("url", url))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@misc{{{cite_key(source)},\n{body}\n}}"


def cite_key(source: Source) -> str:
    """'saadat2026optimizing': the first author's surname, the year and the title's first long word."""
    surname = re.sub(r"[^a-z]", "", source.authors[0].lower()) or "source"
    word = next((w for w in re.findall(r"[a-z]+", source.title.lower()) if len(w) > 3), "")
    return f"{surname}{source.year}{word}"


def _escape(text: str) -> str:
    """Braces and the characters TeX reads as commands, made literal."""
    return re.sub(r"([&%$#_{}])", r"\\\1", text)
