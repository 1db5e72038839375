"""The results index: one row per current result, its columns and their sort keys, the facets, and the search text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from measure.outcome import Method
from registry.comparability import place
from registry.models import Reproduction, Result, Source
from registry.page import display as d
from registry.page.blocks import Content, Piece, Style, plain, text_of
from registry.page.runs import runs_summary
from registry.status import provenance
from registry.status.value_roles import value_kind
from registry.status.versions import current_only
from registry.store.loader import Registry
from registry.units import with_unit

#: The columns, in the order the index shows them: (key, header). Every column sorts.
COLUMNS = (("result", "Result"), ("metric", "Metric"), ("value", "Value ± uncertainty"), ("model", "Model"),
           ("dataset", "Dataset"), ("status", "Review status"), ("kind", "Kind of value"),
           ("measured", "Measured by us"), ("estimated", "Estimated by us"))

#: The facets, in the order the index shows them: (key, title).
FACETS = (("family", "Model family"), ("metric", "Metric"), ("dataset", "Dataset"), ("status", "Review status"),
          ("kind", "Kind of value"), ("reproduced", "Reproduced by us"))


@dataclass(frozen=True)
class IndexRow:
    cells: tuple[Content, ...]
    sort: tuple[str, ...]
    """Each cell's sort key: its text, or, for the value column, the comparability key and the canonical value."""
    facets: tuple[tuple[str, str], ...]
    search: str


@dataclass(frozen=True)
class Facet:
    key: str
    title: str
    values: tuple[tuple[str, int], ...]


def searchable(text: str) -> str:
    """Text as the search box compares it: lower case, with hyphens, slashes and brackets read as spaces.

    So 'NT-2.5B' finds 'NT 2.5B' and 'standard deviation' finds 'standard-deviation'; the page's
    script applies the same rule to what is typed (``site.js``, ``words``).
    """
    return " ".join(_SEPARATORS.sub(" ", text.lower()).split())


_SEPARATORS = re.compile(r"[\s\-_/,;:()\[\]'\"“”‘’]+")


def index_rows(registry: Registry) -> list[IndexRow]:
    """One row per current result: superseded and retracted ones are history (``earlier_versions``), not values."""
    return [_row(registry, result) for result in current_only(registry, registry.of_kind(Result))]


def _row(registry: Registry, result: Result) -> IndexRow:
    evaluation, configuration, protocol, dataset = d.result_context(registry, result)
    family = registry.records[configuration.model_family]
    source = registry.get_as(result.source, Source)
    runs = registry.referrers(result.id, Reproduction, "result")
    by_method = {m: [r for r in runs if r.method is m] for m in Method}
    unit = d.unit_symbol(result.unit)
    status = provenance.status_label(registry, result.id)
    kind = value_kind(registry, result)
    metric = d.metric_label(result.metric)
    reproduced = ("measured by us" if by_method[Method.MEASURED]
                  else "estimated only" if by_method[Method.ESTIMATED] else "not reproduced")
    value: Content = (
        Piece(with_unit(result.as_printed, result.unit), tag=d.record_tag(registry, result),
              exact=d.result_exact(result)),
        *((Piece(f" {result.uncertainty.printed}"), Piece(f"\n{_what(result)}", Style.NOTE))
          if result.uncertainty is not None else (Piece("\nno uncertainty printed", Style.NOTE),)),
    )
    cells: tuple[Content, ...] = (
        (d.result_link(registry, result, result.metric_qualifier),),
        (Piece(metric), Piece(f"\n{result.metric_direction.value} is better" if result.metric_direction is not None
                              else "\nno direction", Style.NOTE)),
        value,
        (Piece(configuration.name, link=configuration.id), Piece("\nfamily: "), Piece(d.record_name(family),
                                                                                      link=family.id)),
        (Piece(d.record_name(dataset), link=dataset.id),),
        plain(status),
        plain(kind),
        *((Piece(runs_summary(by_method[m], unit), tag=d.runs_tag(m, by_method[m])),) if by_method[m]
          else plain("none") for m in (Method.MEASURED, Method.ESTIMATED)),
    )
    sort = tuple(value_sort_key(registry, result) if key == "value" else text_of(cell).lower()
                 for (key, _), cell in zip(COLUMNS, cells, strict=True))
    facets = (("family", d.record_name(family)), ("metric", metric), ("dataset", d.record_name(dataset)),
              ("status", status), ("kind", kind), ("reproduced", reproduced))
    hidden = [result.id, evaluation.name, configuration.reported_name, protocol.id, d.record_name(protocol),
              d.hardware_text(result), source.citation, d.result_display(result)]
    search = searchable(" ".join([*hidden, *(text_of(cell) for cell in cells), *(v for _, v in facets)]))
    return IndexRow(cells, sort, facets, search)


#: Between a value's comparability key and its number in the value column's sort key (``site.js`` splits there): an
#: invisible separator, which no key holds and HTML allows in an attribute (a control character it does not).
SORT_GROUP = "\u2063"


def value_sort_key(registry: Registry, result: Result) -> str:
    """The value column's sort key: the comparability key, then the value in the metric's canonical unit, so that
    sorting by value ranks only within a key (a fraction of accuracy converted to percent beside the percents;
    a zero-shot value, a single seed, a bound or a fold of a mean never among the others' ranks)."""
    placed = place(registry, result)
    group = placed.facets.key if placed.why_not is None else f"~ not ranked ({placed.why_not}): {placed.facets.key}"
    return f"{group}{SORT_GROUP}{placed.canonical.value}"


def _what(result: Result) -> str:
    """'standard error over 5 seeds': what the uncertainty is, from its text without the printed part."""
    assert result.uncertainty is not None
    return result.uncertainty.text.removeprefix(result.uncertainty.printed).strip().removeprefix("(").removesuffix(")")


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
