"""What a review found, claim by claim: what the record asserted, what each witness read, and the verdict.

A review (``registry.models.records.Review``) of any verdict keeps its claims: a review that failed
says what the page printed instead, one that could not check says what was read there. Each claim is
read by one or more witnesses (the PDF's text as each extractor reads it, and, where the source's own
document is pinned, that document); the claim's verdict combines theirs (``registry.checking.agreement``), and the
review's status follows from its claims' verdicts (``status_of_verdicts``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field, PositiveInt

from registry.models.base import Sql, Strict, Text


class ClaimVerdict(StrEnum):
    """The verdict on one claim."""

    PASS = "pass"
    """The witnesses read what the record asserts."""
    FAIL = "fail"
    """The page (or the source document) prints something else."""
    CANNOT_CHECK = "cannot-check"
    """What the claim rests on (a table, row or column) could not be read: neither a pass nor a failure."""
    UNIT_NOT_PRINTED = "unit-not-printed"
    """The unit is printed nowhere near the value (not with it, nor in its header, row label, caption, table note or
    citing sentence), and no other unit is: neither a pass nor a failure of the value; the unit is the record's own
    reading."""


class WitnessKind(StrEnum):
    """What a witness reads."""

    PDF_TEXT = "pdf-text"
    """The pinned PDF's text, as one extractor reads it."""
    SOURCE_DOCUMENT = "source-document"
    """The document the PDF was made from (LaTeX, JATS, HTML, DOCX), where a source record pins it."""


class Witness(Strict):
    """One witness's reading of a claim."""

    witness: Text = Field(description="Who read it: the extractor or reader with its version (for example "
                          "'pdftotext 24.02.0').")
    kind: WitnessKind = Field(description="What it read: the PDF's text or the source document.")
    verdict: ClaimVerdict | None = Field(None, description="Its own verdict; empty where the claim reads no text "
                                         "(records compared with each other, the PDF's metadata).")
    read: Text | None = Field(None, description="What it read where the claim points (the matched text).")
    detail: Text | None = Field(None, description="How it matched, or why not.")


class CheckedClaim(Strict):
    """One claim a review checked: what the record asserts, what was found, and the verdict."""

    claim: Text = Field(description="What is asserted (for example 'printed value', 'table cell', 'quote').")
    asserted: Text = Field(description="What the record says, as checked (for example \"'0.702' in Table 1, row "
                           "'NT 2.5B', column 'H3K4me3'\").")
    verdict: ClaimVerdict = Field(description="The claim's verdict, all witnesses together.")
    page: PositiveInt | None = Field(None, description="The page it was checked on.")
    printed: Text | None = Field(None, description="What the page printed there: the matched text, or, for a table "
                                 "cell, the cell where the value was found.")
    detail: Text | None = Field(None, description="How it matched, or why not (what the page prints instead, what "
                                "could not be read).")
    witnesses: Annotated[list[Witness], Sql(singular="witness")] = Field(
        default_factory=list, description="Each witness's own reading and verdict, where more than one read it.")

    @property
    def shown(self) -> str:
        """What was found, in words: the cell or text the page printed, else why nothing was."""
        return "; ".join(part for part in (self.printed, self.detail) if part) or "(nothing recorded)"
