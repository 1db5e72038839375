"""The rules of sources: a source's identifiers agree with its retrieval URL, a locator's page is one of its
pinned PDF's pages; and the sources each record was transcribed from (``sources_of``), which reviews are checked
against."""

from __future__ import annotations

import functools
import re

from registry.issues import codes
from registry.models import Configuration, Evaluation, ModelFamily, Record, Source
from registry.store.loader import Registry
from registry.validate.rules_registry import RecordCheck, kind_rules, record_rules


def locator(record: Record, check: RecordCheck) -> None:
    """A locator's page must be one of its source's pages: the PDF is pinned, so its page count is known."""
    locator = getattr(record, "source_locator", None)
    if locator is None or locator.page is None:
        return
    source = check.registry.records.get(getattr(record, "source", None) or "")
    if isinstance(source, Source) and locator.page > source.page_count:
        check.add(codes.LOCATOR_PAGE_OUT_OF_RANGE, f"page {locator.page} lies beyond the {source.page_count} "
                  f"pages of the pinned source {source.id!r}; correct the page, counted from 1 in the pinned PDF",
                  ("source_locator", "page"))


#: Where an identifier shows in a retrieval URL, by field: a URL that names another identifier contradicts it.
_IDENTIFIER_IN_URL = {
    "openreview": re.compile(r"openreview\.net/(?:pdf|forum)\?id=([A-Za-z0-9_-]+)"),
    "arxiv": re.compile(r"arxiv\.org/(?:abs|pdf)/([^?#]+?)(?:\.pdf)?(?:[?#]|$)"),
    "doi": re.compile(r"doi\.org/(10\.[^?#]+)"),
}


@kind_rules.register
def _identifiers(source: Source, check: RecordCheck) -> None:
    for field, pattern in _IDENTIFIER_IN_URL.items():
        identifier = getattr(source, field)
        found = pattern.search(source.retrieval_url or "")
        if identifier is not None and found is not None and found.group(1) != identifier:
            check.add(codes.SOURCE_IDENTIFIER_MISMATCH,
                      f"{field} is {identifier!r}, but the retrieval URL names {found.group(1)!r}", (field,))


@functools.singledispatch
def sources_of(record: Record, registry: Registry) -> set[str]:
    """The sources a record was transcribed from: its own, or those of the records it is made of.

    Empty where nothing says (a dangling reference, or a kind that cites no source).
    """
    own = getattr(record, "source", None)
    return {own} if isinstance(own, str) else set()


@sources_of.register
def _source_itself(record: Source, registry: Registry) -> set[str]:
    return {record.id}


@sources_of.register
def _evaluation_parts(record: Evaluation, registry: Registry) -> set[str]:
    """An evaluation comes from the sources of its configuration, protocol and dataset."""
    parts = (registry.records.get(record.configuration), registry.records.get(record.protocol),
             registry.records.get(record.dataset))
    return {source for p in parts if isinstance(source := getattr(p, "source", None), str)}


@sources_of.register
def _family_configurations(record: ModelFamily, registry: Registry) -> set[str]:
    """A model family comes from the sources of its configurations."""
    return {c.source for c, _ in registry.links_to(record.id) if isinstance(c, Configuration)}


record_rules.append(locator)
