"""The source record kind: a published document pinned to one exact file by its SHA-256, and its own source files
(LaTeX, JATS XML, HTML, Word), pinned the same way, that a review reads as a second witness."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, model_validator

from registry.models.base import ArxivId, Doi, HttpsUrl, OpenReviewId, Record, Sha256, Sql, Strict, Text, reportable


class SourceFormat(StrEnum):
    """The kind of a document's own source file: what ``registry review`` reads it with (``review.sources``)."""

    LATEX = "latex"
    """A LaTeX e-print: a ``.tar.gz`` (its file with ``\\documentclass`` the main one) or a main ``.tex`` whose
    inputs sit beside it."""
    JATS = "jats"
    HTML = "html"
    DOCX = "docx"
    ODT = "odt"
    TYPST = "typst"
    """A Typst ``.typ`` main file; the files it reads (``csv()``, ``#include``) sit beside it."""


class SourceFile(Strict):
    """One of the document's own source files (LaTeX, JATS XML, HTML, Word), pinned by its SHA-256 like the PDF: a
    second witness of the numbers the PDF prints."""

    path: Text = Field(description="The file's name as the review is given it (for example 'arXiv-2101.00001.tar.gz' "
                       "or 'main.tex'); a main .tex with inputs is looked up beside the PDF's cache by this name.")
    format: SourceFormat = Field(description="How the file is read: latex, jats, html, docx, odt or typst.")
    sha256: Sha256 = Field(description="SHA-256 of the file's bytes, as retrieved.")
    retrieval_url: HttpsUrl | None = Field(None, description="Where the file was retrieved from.")
    retrieval_note: Text | None = Field(
        None, description="Why no retrieval URL can be given (for example 'sent by the authors'); required without "
        "one.")

    @model_validator(mode="after")
    def _where_from(self) -> SourceFile:
        if self.retrieval_url is None and self.retrieval_note is None:
            raise ValueError(f"source file {self.path!r}: give its retrieval_url, or a retrieval_note saying why "
                             "none can be given")
        return self


class Source(Record, transcribed=True):
    """A published document, pinned to one exact file by its SHA-256."""

    kind: Literal["source"]
    title: Text = Field(description="Title as printed on the document.")
    authors: Annotated[list[Text], Sql(singular="author")] = Field(
        min_length=1, description="Author surnames in printed order."
    )
    year: int = Field(ge=1900, le=2100, description="Year of publication.")
    venue: Text = Field(description="Where it appeared, as cited (for example 'ICLR 2026 workshop').")
    role: Literal["original"] = Field(
        description=(
            "How the source relates to the results it supports: 'original' is the publication that printed them."
        )
    )
    host: Text = Field(description="Who serves the pinned file (for example 'OpenReview').")
    heading: Text = Field(description="The running heading that identifies this version of the document.")
    page_count: int = Field(ge=1, description="Number of pages in the pinned PDF.")
    pdf_creation_date: dt.date = Field(description="The pinned PDF's CreationDate.")
    retrieval_url: HttpsUrl | None = reportable(
        "Where the pinned PDF was retrieved from; empty with a reason where it was not downloaded (a file the "
        "authors sent).")
    doi: Doi | None = Field(None, description="The document's DOI, where it has one.")
    arxiv: ArxivId | None = Field(None, description="The document's arXiv identifier, where it has one.")
    openreview: OpenReviewId | None = Field(None, description="The document's OpenReview forum id, where it has one.")
    sha256: Sha256 = Field(description="SHA-256 of the pinned PDF file: the artifact every review must match.")
    hash_scope: Text | None = reportable("What bytes the SHA-256 covers (for example the whole file as downloaded).")
    source_files: Annotated[list[SourceFile], Sql(singular="source_file")] = Field(
        default_factory=list, description="The document's own source files (a LaTeX e-print, JATS XML, HTML, a Word "
        "file), each pinned by its SHA-256: 'registry review' reads each cited table from them as a second witness "
        "beside the PDF.")

    @property
    def authors_label(self) -> str:
        if len(self.authors) == 1:
            return self.authors[0]
        if len(self.authors) == 2:
            return f"{self.authors[0]} and {self.authors[1]}"
        return f"{self.authors[0]} et al."

    @property
    def citation(self) -> str:
        """'Title (Saadat and Fellay, ICLR 2026 workshop)', as the pages cite it."""
        return f"{self.title} ({self.authors_label}, {self.venue})"

    @property
    def version_statement(self) -> str:
        """Which file this is, in the words the pages use."""
        return (
            f"{self.host} PDF headed '{self.heading}' "
            f"({self.page_count} pages; PDF CreationDate {self.pdf_creation_date.isoformat()})"
        )
