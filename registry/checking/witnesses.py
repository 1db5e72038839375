"""Two witnesses of one claim: the printed PDF and the document's own source, each with its own verdict.

A claim about a table cell is checked against the PDF (``registry.checking.agreement``: both extractors) and, where
the source record pins source files, against the source (``registry.checking.source_witness``). Each keeps its verdict
(``Assertion.witnesses``: 'pdf: pass', 'source: pass'); the assertion's own outcome combines them so that no
display merges them:

- the PDF passes: the claim passes (source-checked), whatever the source could not check; where the source prints
  another value, the witnesses disagree and the claim **fails**, with both values in its detail;
- the PDF fails: the claim fails (and where the source passes it, the disagreement is said);
- the PDF cannot read the cell: a source that prints another value fails the claim; a source that confirms it
  leaves the claim **checked against the source, not the PDF** (``confirmed_by``: 'source'): not a pass, so that
  no 'source-checked' review is written over it, and shown as its own, weaker status.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

#: ``registry.checking.claims.Assertion``, which imports this module (its field ``witnesses``), named here without
#: importing it.
Assertion = Any

PASS, FAIL, CANNOT_CHECK = "pass", "fail", "cannot check"
#: What a claim the source alone confirmed is, in the words the review shows.
SOURCE_ONLY = "checked against the source, not the PDF"


@dataclass(frozen=True)
class Witness:
    """One witness's verdict on a claim: 'pdf' (the printed page) or 'source' (the document's source)."""

    name: str
    outcome: str
    """'pass', 'fail' or 'cannot check'."""
    matched: str = ""
    """What the witness read in the cell."""
    detail: str = ""
    document: str = ""
    """The file the witness read ('paper.pdf', 'main.tex')."""
    reader: str = ""
    """What read it, with its version ('pylatexenc 2.10', 'pypdf 6.1.1'), where known."""

    @property
    def verdict(self) -> str:
        """'source: pass', as the review shows it."""
        return f"{self.name}: {self.outcome}"


def with_source(assertion: Assertion, source: Witness, pdf_name: str = "") -> Assertion:
    """``assertion`` (the PDF's verdict) with the source's beside it, its outcome combined (module docstring)."""
    pdf = Witness("pdf", assertion.outcome, assertion.matched, assertion.detail, pdf_name)
    witnesses = (pdf, source)
    if source.outcome == CANNOT_CHECK or source.outcome == pdf.outcome:
        return dataclasses.replace(assertion, witnesses=witnesses)
    both = (f"the witnesses disagree: the PDF {_reads(pdf)}, the source {_reads(source)} ({source.detail})")
    if pdf.outcome == PASS:  # the source prints another value: a finding, never a pass
        return dataclasses.replace(assertion, passed=False, unreadable=False, witnesses=witnesses,
                                   detail=f"{assertion.detail}; {both}" if assertion.detail else both)
    if pdf.outcome == FAIL:
        return dataclasses.replace(assertion, witnesses=witnesses, detail=f"{assertion.detail}; {both}")
    if source.outcome == FAIL:  # the PDF cannot read the cell; the source prints something else there
        return dataclasses.replace(assertion, passed=False, unreadable=False, witnesses=witnesses,
                                   matched=source.matched, detail=f"the source: {source.detail}; the PDF cannot "
                                                                  f"read it: {assertion.detail}")
    return dataclasses.replace(assertion, witnesses=witnesses,
                               detail=f"{SOURCE_ONLY}: {source.detail}; the PDF cannot read it: {assertion.detail}")


def _reads(witness: Witness) -> str:
    if witness.outcome == PASS:
        return f"prints {witness.matched!r}, as claimed" if witness.matched else "confirms it"
    if witness.outcome == FAIL:
        return f"prints {witness.matched!r}" if witness.matched else "contradicts it"
    return "cannot read it"


def confirmed_by(assertion: Assertion) -> str | None:
    """'pdf' where the PDF confirmed the claim, 'source' where only the source did, None where neither did."""
    if assertion.passed:
        return "pdf"
    if assertion.unreadable and any(w.name == "source" and w.outcome == PASS for w in assertion.witnesses):
        return "source"
    return None
