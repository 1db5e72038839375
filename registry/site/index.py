"""The results index: one row per current result, the facets that narrow it, and the text the search box reads."""

from __future__ import annotations

from dataclasses import dataclass

from measure.outcome import Method
from registry import display as d
from registry.history import current_only
from registry.loader import Registry
from registry.models import Reproduction, Result
from registry.page.blocks import Content, Piece, plain, text_of
from registry.page.kinds import runs_summary
from registry.units import with_unit

#: The facets, in the order the index shows them: (key, title).
FACETS = (("family", "Model family"), ("metric", "Metric"), ("dataset", "Dataset"), ("status", "Review status"),
          ("reproduced", "Reproduced by us"))


@dataclass(frozen=True)
class IndexRow:
    cells: tuple[Content, ...]
    facets: tuple[tuple[str, str], ...]
    search: str


@dataclass(frozen=True)
class Facet:
    key: str
    title: str
    values: tuple[tuple[str, int], ...]


def index_rows(registry: Registry) -> list[IndexRow]:
    """One row per current result: superseded and retracted ones are history (``earlier_versions``), not values."""
    rows = []
    for result in current_only(registry, registry.of_kind(Result)):
        evaluation, configuration, protocol, dataset = d.result_context(registry, result)
        family = registry.records[configuration.model_family]
        runs = registry.referrers(result.id, Reproduction, "result")
        by_method = {m: [r for r in runs if r.method is m] for m in Method}
        unit = d.unit_symbol(result.unit)
        status = d.status_label(registry, result.id)
        reproduced = ("measured by us" if by_method[Method.MEASURED]
                      else "estimated only" if by_method[Method.ESTIMATED] else "not reproduced")
        cells: tuple[Content, ...] = (
            (Piece(d.result_title(registry, result), link=result.id),),
            (Piece(with_unit(result.as_printed, result.unit), tag=d.record_tag(registry, result),
                   exact=str(result.numeric_value)), Piece(f" (display {d.display_value(result.numeric_value)})")),
            plain(status),
            (Piece(d.record_name(family), link=family.id),),
            (Piece(d.record_name(dataset), link=dataset.id),),
            *((Piece(runs_summary(by_method[m], unit), tag=d.runs_tag(m, by_method[m])),) if by_method[m]
              else plain("none") for m in (Method.MEASURED, Method.ESTIMATED)),
        )
        facets = (("family", d.record_name(family)), ("metric", d.metric_label(result.metric)),
                  ("dataset", d.record_name(dataset)), ("status", status), ("reproduced", reproduced))
        search = " ".join([result.id, evaluation.name, configuration.reported_name, protocol.id,
                           *(text_of(cell) for cell in cells), *(value for _, value in facets)]).lower()
        rows.append(IndexRow(cells, facets, search))
    return rows


def facets_of(rows: list[IndexRow]) -> list[Facet]:
    """Each facet's values with how many results have each, most frequent first, then alphabetically."""
    found = []
    for key, title in FACETS:
        counts: dict[str, int] = {}
        for row in rows:
            value = dict(row.facets)[key]
            counts[value] = counts.get(value, 0) + 1
        found.append(Facet(key, title, tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))))
    return found
