"""Which claims a record makes: the dispatch from a record's kind to the claim types that check it.

The claim types live below this module (``registry.checking.claims`` for the page, quote, value and unit,
``registry.checking.sentences`` for what the quoted sentence says of the device and 'respectively',
``registry.checking.cells`` for table cells, ``registry.checking.consistency`` for the numbers among themselves); this
module alone imports them all, so none of them imports another back.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from registry.checking.cell_units import CellUnit
from registry.checking.cells import InPlace, TableCell
from registry.checking.claims import (
    GRAMMAR,
    Citation,
    Claim,
    CreationDate,
    PageCount,
    PageExists,
    RecordsAgree,
    TextOnPage,
    ValueInQuote,
    _citing,
    _unit_claims,
    is_cell,
    locator_of,
    parse_locator,
    unit_symbols,
)
from registry.checking.consistency import consistency_claims
from registry.checking.sentences import sentence_claims
from registry.checking.uncertainty import CellUncertainty, TextUncertainty, UncertaintyStated
from registry.models import Configuration, Evidence, Record, Result
from registry.models.records import EvidenceProperty
from review.errors import NotCheckableError

if TYPE_CHECKING:
    from registry.models import Source
    from registry.models.values import Uncertainty
    from registry.store.loader import Registry


def source_claims(source: Source) -> list[Claim]:
    """What the source record says about the file: its page count, its heading, its CreationDate."""
    return [
        PageCount(source.id, "page count", source.page_count),
        TextOnPage(source.id, "heading", 1, source.heading),
        CreationDate(source.id, "creation date", source.pdf_creation_date.isoformat()),
    ]


def record_claims(registry: Registry, record: Record) -> list[Claim]:
    """Every claim ``record`` makes about the page its locator cites (NotCheckableError if it cites none)."""
    locator = locator_of(record)
    if locator is None:
        raise NotCheckableError(
            f"cannot check {record.id}: a {record.kind_token} cites no place in a source",
            "give the id of a result, an evidence row, a configuration or a source",
        )
    citations = parse_locator(locator, record.id)
    if not citations and not isinstance(record, Result):
        raise NotCheckableError(f"cannot check {record.id}: its source locator names a table cell but quotes no text",
                                f"a {record.kind_token} is checked by the text it quotes, as in {GRAMMAR}")
    claims: list[Claim] = []
    for citation in citations:
        claims.append(PageExists(record.id, "page", citation.page))
        claims.append(TextOnPage(record.id, "quote", citation.page, citation.quote))
    return claims + kind_claims(record, registry, citations)


@functools.singledispatch
def kind_claims(record: Record, registry: Registry, citations: list[Citation]) -> list[Claim]:
    """The claims of a record's own kind, beyond its locator's page and quote (registered per model class)."""
    return []


@kind_claims.register(Evidence)
def _evidence_claims(record: Evidence, registry: Registry, citations: list[Citation]) -> list[Claim]:
    if record.property is not EvidenceProperty.REPORTED_RESULT:
        return []
    cited = _citing(citations, record.statement)
    return [ValueInQuote(record.id, "statement", cited.page, cited.quote, record.statement)]


@kind_claims.register(Configuration)
def _configuration_claims(record: Configuration, registry: Registry, citations: list[Citation]) -> list[Claim]:
    return [TextOnPage(record.id, "model label", citations[0].page, record.reported_name)]


@kind_claims.register(Result)
def _result_kind_claims(record: Result, registry: Registry, citations: list[Citation]) -> list[Claim]:
    if citations:
        claims = _result_claims(registry, record, citations, units=not is_cell(record.source_locator))
    else:
        claims = [PageExists(record.id, "page", record.source_locator.page or 0)]
    return claims + cell_claims(registry, record, citations) + place_claims(record) + consistency_claims(
        registry, record)


def _result_claims(registry: Registry, result: Result, citations: list[Citation], *, units: bool = True
                   ) -> list[Claim]:
    from registry.models import Configuration, Evaluation
    from registry.models.records import SourceClaim

    cited = _citing(citations, result.as_printed)
    claims: list[Claim] = [ValueInQuote(result.id, "printed value", cited.page, cited.quote, result.as_printed)]
    if units:  # a cell's unit is read from its header, row label or caption (registry.checking.cells)
        claims += _unit_claims(result, cited)
    claims += sentence_claims(registry, result, cited.page, cited.quote)  # the device it names, 'respectively'
    evaluation = registry.records.get(result.evaluation)
    configuration = (registry.records.get(evaluation.configuration)
                     if isinstance(evaluation, Evaluation) else None)
    for check in result.source_checks:
        label = check.claim.value.replace("-", " ")
        claims.append(TextOnPage(result.id, label, check.page or cited.page, check.text))
        if check.claim is SourceClaim.MODEL_LABEL and isinstance(configuration, Configuration):
            claims.append(RecordsAgree(result.id, "model label (config)", check.text,
                                       configuration.reported_name,
                                       "the configuration's reported name"))
    return claims


def cell_claims(registry: Registry, result: Result, citations: list[Citation]) -> list[Claim]:
    """A table cell's value, uncertainty and unit, or the uncertainty printed with a value in a sentence."""
    locator = result.source_locator
    uncertainty = result.uncertainty
    page = locator.page
    if page is None:
        return []
    claims: list[Claim] = []
    if is_cell(locator):
        label = locator.table or locator.figure or ""
        where = (result.id, page, label, locator.row or "", locator.column or "")
        subtable = locator.subtable  # the row is looked up in that sub-table only (``review.tables.subtables``)
        upper = result.range_upper.printed_value if result.range_upper is not None else None
        bound = result.bound.value if result.bound is not None else None
        claims.append(TableCell(where[0], "table cell", *where[1:], result.printed_value, subtable=subtable,
                                upper=upper, bound=bound))
        if uncertainty is not None:
            beside = locator.uncertainty_column  # the ± in a column of its own, in the value's row
            claims.append(CellUncertainty(where[0], "uncertainty", *where[1:4], beside or where[4], uncertainty.printed,
                                          uncertainty.is_interval, own_column=beside is not None, subtable=subtable))
            claims.append(_stated(result, uncertainty, page, table=label, row=locator.row, column=locator.column,
                                  subtable=subtable))
        symbols, agree = unit_symbols(result)
        return [*claims, *agree, CellUnit(where[0], "unit", *where[1:], str(result.unit), symbols, subtable=subtable,
                                          quote=" ".join(locator.quote.split()) if locator.quote else None)]
    if uncertainty is not None and citations:
        cited = _citing(citations, result.printed_value)
        claims.append(TextUncertainty(result.id, "uncertainty", cited.page, cited.quote, result.printed_value,
                                      uncertainty.printed, uncertainty.is_interval))
        claims.append(_stated(result, uncertainty, cited.page, table=locator.table if locator.caption else None,
                              quote=cited.quote))
    return claims


def _stated(result: Result, uncertainty: Uncertainty, page: int, **where: str | None) -> UncertaintyStated:
    aggregate = uncertainty.over
    over = (aggregate.count, aggregate.kind.value) if aggregate is not None and aggregate.count else None
    level = format(uncertainty.level.normalize(), "f") if uncertainty.level is not None else None
    cited = uncertainty.stated_at
    stated_at = (cited.page or page, " ".join(cited.quote.split())) if cited is not None else None
    return UncertaintyStated(result.id, "uncertainty kind", page, uncertainty.kind, level, over, **where,
                             stated_at=stated_at, note=uncertainty.note)


def place_claims(result: Result) -> list[Claim]:
    """A caption or footnote locator: the quote must be printed in that caption or note."""
    locator = result.source_locator
    if locator.page is None or locator.quote is None:
        return []
    quote = " ".join(locator.quote.split())
    if locator.footnote:
        return [InPlace(result.id, "in footnote", locator.page, quote, mark=locator.footnote)]
    if locator.caption:
        return [InPlace(result.id, "in caption", locator.page, quote, label=locator.table or locator.figure)]
    return []
