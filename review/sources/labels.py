"""A source's tables labelled as the PDF prints them, and their rows and columns found by the names a record cites.

The source's floats are numbered as its typesetter numbers them; each is matched to the PDF's caption by its label and
the first words of its caption (``label_tables``), so that a table the PDF prints as 'Table 3' is the source's
'Table 3' even where an earlier float was not counted as the reader counts. A row or a column is found by the names
the PDF reader matches (``review.tables.table.matches``; a repeated label's ' #N' counts its rows from the top; a
citation printed after a name may be left out). The source witness (``registry.checking.source_witness``) and
``registry table --source`` (``review.sources.table``) read a source's tables through here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from review.pdf.words import squeezed
from review.sources.model import SourceRow, SourceTable
from review.tables.table import matches


@dataclass
class SourceTables:
    """A source's tables, labelled as the PDF prints them, with the pages where each caption is printed."""

    document: str
    tables: list[SourceTable]
    pages: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """For each table (by its index in ``tables``), the PDF pages printing its caption; absent: not looked up."""
    page_texts: list[str] = field(default_factory=list)
    """The PDF's pages' text, for the page check."""
    unread: str = ""
    """Why the file could not be read, where a limit stopped its reading (``review.sources.limited``)."""
    reader: str = ""
    """What read the file, with its version (``review.sources.reader_of``)."""


_LABEL = re.compile(r"(?<![a-z])(table|tab\.)\s*([a-z]?\d+(?:\.\d+)?|[ivxlc]+)\s*(?:[:.|\u2014\u2013-]|\(continued\))?",
                    re.IGNORECASE)


def _letters(text: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKC", text).lower() if c.isalpha())


def label_tables(document: str, tables: list[SourceTable], page_texts: list[str] | None) -> SourceTables:
    """The tables labelled as the PDF prints them: where the PDF prints a table label followed by the first words
    of a source table's caption, that label is the table's; the pages where it does are the table's pages."""
    found = SourceTables(document, tables)
    if not page_texts:
        return found
    found.page_texts = list(page_texts)
    heads: list[tuple[int, str, str]] = []  # page, printed label, the caption's letters after it
    for number, text in enumerate(page_texts, start=1):
        for hit in _LABEL.finditer(text):
            heads.append((number, f"{hit.group(1).capitalize()} {hit.group(2)}",
                          _letters(text[hit.end():hit.end() + 400])))
    for index, table in enumerate(tables):
        key = _letters(table.caption)[:24]
        if len(key) < 8:
            continue
        hits = [(page, label) for page, label, after in heads if after.startswith(key)]
        if not hits:
            continue
        labels = {squeezed(label).lower() for _, label in hits}
        if len(labels) == 1:
            table.label = "Table " + hits[0][1].split(" ", 1)[1] if hits[0][1].lower().startswith("tab") else \
                hits[0][1]
        found.pages[index] = tuple(sorted({page for page, _ in hits}))
    return found


def same_label(a: str, b: str) -> bool:
    return squeezed(a).lower().rstrip(".:") == squeezed(b).lower().rstrip(".:")


NTH = re.compile(r"^(?P<name>.*?)\s+#(?P<n>\d+)$")


#: A citation as the PDF prints it after a name ('MMTL [7]', 'BERT (Devlin et al., 2019)'): the source writes
#: ``\cite``, which prints what the bibliography gives, so a cited name is also looked up without it.
_CITATION = re.compile(r"\s*(?:\[[^\]]*\d[^\]]*\]|(?:[A-Z][\w'-]+(?:\s+(?:et\s+al\.?|and|&)(?:\s+[A-Z][\w'-]+)?)*\s*)?"
                       r"\((?:[^()]*\s)?\d{4}[a-z]?\))")


def named(levels: tuple[str, ...], wanted: str) -> bool:
    if matches(levels, wanted):
        return True
    uncited = _CITATION.sub("", wanted)
    return uncited != wanted and matches(tuple(_CITATION.sub("", level) for level in levels), uncited)


def named_rows(table: SourceTable, wanted: str) -> list[SourceRow]:
    nth = NTH.match(wanted)
    name = nth["name"] if nth else wanted
    rows = [row for row in table.rows if named(row.levels, name)]
    if nth is None:
        return rows
    n = int(nth["n"])
    return rows[n - 1:n] if 0 < n <= len(rows) else []


def named_columns(table: SourceTable, wanted: str) -> list[int]:
    return [i for i, column in enumerate(table.columns) if named(column.levels, wanted)]
