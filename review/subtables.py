"""The claim that a cited cell is in the sub-table its locator names ('(b)' under one caption of two).

The table reader (``review.tables``) reads a caption's table whole: it has no notion of sub-tables, so
which of them holds a row cannot be confirmed. The claim says so (cannot check, naming why) rather
than pass; what it can check, it does: a mark that is printed nowhere on the page fails, since no
sub-table is marked so there.
"""

from __future__ import annotations

from dataclasses import dataclass

from review.claims import Assertion, Claim
from review.pdftext import Extraction, find_text


@dataclass(frozen=True)
class InSubtable(Claim):
    """The sub-table's mark ('(b)') must be printed on the cell's page; which sub-table holds the cell cannot be
    read yet, and the assertion says so."""

    page: int
    table: str
    subtable: str

    def check(self, doc: Extraction) -> Assertion:
        mark = self.subtable.strip()
        expected = f"the cell in sub-table {mark} of {self.table}"
        text = doc.page(self.page)
        if text is None:
            return self._result(expected, False, self.page, detail=self._missing_page(doc, self.page))
        bare = mark.strip("()")
        found = next((m for m in dict.fromkeys((mark, f"({bare})", f"{bare})")) if find_text(text, m)), None)
        if found is None:
            return self._result(expected, False, self.page,
                                detail=f"'{mark}' is not printed on page {self.page}, so no sub-table of {self.table} "
                                       "there is marked so; correct the locator's subtable")
        return self._unreadable(expected, self.page,
                                f"'{found}' is printed on page {self.page}, but the table reader reads {self.table} "
                                "whole and has no notion of sub-tables, so which of them holds the row and column "
                                "cannot be checked")
