"""Plots of one group of results: the transcribed values beside our measured and estimated ones.

A group is every result evaluated under one protocol (for the seed paper, the stages of its
Figure 3). Each result is a row: its transcribed value, and apart from it our measured and
our estimated values with the spread of the knob sweep, each labelled with its numbers. The
values come from ``group_values`` (also shown as a table under the plot, on the site and by
``registry plot``); matplotlib draws them, imported only here and only when a plot is made,
with fixed metadata and hash salt, so that the same records give the same SVG, byte for byte.
"""

from __future__ import annotations

import functools
import io
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from measure.outcome import Method
from registry import display as d
from registry.errors import RegistryError
from registry.history import current_only
from registry.ids import a_kind
from registry.loader import Registry
from registry.models import Evaluation, Protocol, Record, Reproduction, Result
from registry.page.blocks import Column, Content, Piece, Table, Tag, plain
from registry.units import with_unit

#: Where each kind of value sits in its row, so that they never overlap (never merge).
OFFSETS = {"transcribed": 0.0, Method.ESTIMATED: 0.22, Method.MEASURED: -0.22}
COLOURS = {"transcribed": "#111111", Method.ESTIMATED: "#2f6db5", Method.MEASURED: "#c75d00"}
MARKERS = {"transcribed": "D", Method.ESTIMATED: "o", Method.MEASURED: "^"}
LEGEND = {"transcribed": "transcribed (as printed)", Method.ESTIMATED: "estimated by us",
          Method.MEASURED: "measured by us"}
SVG_SALT = "registry-plot"


@dataclass(frozen=True)
class Runs:
    """Our runs of one method for one result: their values in the result's unit, and how many gave none."""

    method: Method
    values: tuple[Decimal, ...]
    without_value: int
    tag: Tag

    def label(self, unit: str) -> str:
        """'11.44–11.45 GB (48 estimated)', the words beside the points: the spread of the knob sweep (``unit``:
        the unit's name)."""
        lo, hi = min(self.values), max(self.values)
        spread = f"{lo:.2f}" if f"{lo:.2f}" == f"{hi:.2f}" else f"{lo:.2f}–{hi:.2f}"
        failed = f", {self.without_value} without a value" if self.without_value else ""
        return f"{with_unit(spread, unit)} ({len(self.values)} {self.method.value}{failed})"


@dataclass(frozen=True)
class Row:
    """One result of a group, with our runs beside it."""

    result: Result
    label: str
    tag: Tag | None
    runs: tuple[Runs, ...]
    dataset: str = ""
    """The name of the dataset it was evaluated on: a plot draws one panel per dataset (small multiples)."""


@dataclass(frozen=True)
class Group:
    """The results of one protocol that share a metric and unit (one panel of a plot)."""

    protocol: Protocol
    metric: str
    unit: str
    rows: tuple[Row, ...]

    @property
    def title(self) -> str:
        return d.record_name(self.protocol)

    @property
    def has_runs(self) -> bool:
        return any(row.runs for row in self.rows)

    @property
    def axis_label(self) -> str:
        """'Peak memory (GB)'; a dimensionless metric has no unit to name: 'MCC'."""
        symbol = d.unit_symbol(self.unit)
        return f"{d.metric_label(self.metric)} ({symbol})" if symbol else d.metric_label(self.metric)


def groups_of(registry: Registry) -> dict[str, list[Group]]:
    """Every protocol's groups (one per metric and unit), by protocol id, current results in id order.

    A superseded or retracted result is history, not a value to plot beside ours: its page says so.
    """
    by_protocol: dict[str, dict[tuple[str, str], list[Result]]] = {}
    for result in current_only(registry, registry.of_kind(Result)):
        evaluation = registry.get_as(result.evaluation, Evaluation)
        by_protocol.setdefault(evaluation.protocol, {}).setdefault((result.metric, result.unit), []).append(result)
    return {protocol_id: [_group(registry, registry.get_as(protocol_id, Protocol), key, results)
                          for key, results in sorted(panels.items())]
            for protocol_id, panels in sorted(by_protocol.items())}


def protocol_of(registry: Registry, record: Record) -> str:
    """The protocol whose plot shows ``record``: a protocol itself, or the protocol of a result or evaluation."""
    return _protocol_of(record, registry)


@functools.singledispatch
def _protocol_of(record: Record, registry: Registry) -> str:
    raise RegistryError(f"{record.id!r} is {a_kind(record.kind_token)} record, which no plot shows",
                        "give the id of a protocol, an evaluation or a result")


@_protocol_of.register
def _(record: Protocol, registry: Registry) -> str:
    return record.id


@_protocol_of.register
def _(record: Evaluation, registry: Registry) -> str:
    return record.protocol


@_protocol_of.register
def _(record: Result, registry: Registry) -> str:
    return registry.get_as(record.evaluation, Evaluation).protocol


@_protocol_of.register
def _(record: Reproduction, registry: Registry) -> str:
    return _protocol_of(registry.get_as(record.result, Result), registry)


def _group(registry: Registry, protocol: Protocol, key: tuple[str, str], results: list[Result]) -> Group:
    names = [registry.get_as(r.evaluation, Evaluation).name for r in results]
    rows = []
    for result, name in zip(results, names, strict=True):
        label = name if names.count(name) == 1 else f"{name}: {result.metric_qualifier}"
        runs = registry.referrers(result.id, Reproduction, "result")
        by_method = []
        for method in (Method.MEASURED, Method.ESTIMATED):
            mine = [r for r in runs if r.method is method]
            values = tuple(r.value for r in mine if r.value is not None)
            if values:
                by_method.append(Runs(method, values, len(mine) - len(values), d.runs_tag(method, mine)))
        dataset = d.record_name(registry.records[registry.get_as(result.evaluation, Evaluation).dataset])
        rows.append(Row(result, label, d.record_tag(registry, result), tuple(by_method), dataset))
    return Group(protocol, key[0], key[1], tuple(sorted(rows, key=lambda row: d.natural_key(row.label))))


def values_table(group: Group) -> Table:
    """The plotted values as a table: what the plot shows, for readers and tools that cannot see it."""
    unit = group.unit

    def runs_cell(row: Row, method: Method) -> Content:
        runs = next((r for r in row.runs if r.method is method), None)
        return (Piece(runs.label(unit), tag=runs.tag),) if runs else plain("none")

    rows = tuple(
        ((Piece(row.label, link=row.result.id),),
         (Piece(with_unit(row.result.as_printed, unit), tag=row.tag, exact=d.result_exact(row.result)),),
         runs_cell(row, Method.MEASURED), runs_cell(row, Method.ESTIMATED))
        for row in group.rows
    )
    return Table((Column("Result", fold=True), Column("Transcribed", right=True), Column("Measured by us", fold=True),
                  Column("Estimated by us", fold=True)), rows, title=f"{group.title}: {group.axis_label}",
                 lines=True)


# -- drawing ------------------------------------------------------------------------------------


def png(groups: list[Group]) -> bytes:
    return _render(groups, "png", dpi=150, metadata={"Software": None})


def panels_of(groups: Iterable[Group]) -> list[tuple[str, Group, tuple[Row, ...]]]:
    """(title, group, rows) for each panel of a plot: a group's rows split by dataset where it has several.

    Small multiples: a group of 100+ results (ten folds of four tasks and three models) reads as
    panels of a few dozen rows, each on one dataset.
    """
    found = []
    for group in groups:
        for dataset in dict.fromkeys(row.dataset for row in group.rows):
            rows = tuple(row for row in group.rows if row.dataset == dataset)
            found.append((f"{group.axis_label} · {dataset}" if dataset else group.axis_label, group, rows))
    return found


def uncertainty_bar(row: Row) -> tuple[Decimal, Decimal] | None:
    """The span of the uncertainty the source prints with the value: value ± half width, or the interval."""
    found = row.result.uncertainty
    if found is None:
        return None
    if found.half_width is not None:
        return row.result.numeric_value - found.half_width, row.result.numeric_value + found.half_width
    if found.lower is not None and found.upper is not None:
        return found.lower, found.upper
    return None


def transcribed_points(row: Row) -> tuple[Decimal, ...]:
    """Where the transcribed value is marked: the value, or both ends of a range (a line joins them), so that a
    range is never drawn as its lower end alone."""
    upper = row.result.range_upper
    return (row.result.numeric_value,) if upper is None else (row.result.numeric_value, upper.numeric_value)


def extent(rows: Iterable[Row]) -> tuple[float, float]:
    """The span an axis needs for the rows' values, their error bars and our runs (from zero for a quantity near it)."""
    values: list[Decimal] = []
    for row in rows:
        values.extend(transcribed_points(row))
        values.extend(uncertainty_bar(row) or ())
        for runs in row.runs:
            values.extend(runs.values)
    low, high = float(min(values)), float(max(values))
    if 0 <= low < 0.25 * high:
        low = 0.0
    if low == high:
        low, high = low - (abs(low) or 1) * 0.05, high + (abs(high) or 1) * 0.05
    return low, high


def value_text(row: Row, unit: str) -> str:
    """'0.937 ± 0.021 transcribed; 11.44–11.45 GB (48 estimated)': every value a row draws, in words."""
    printed = with_unit(row.result.as_printed, unit)
    spread = f" {row.result.uncertainty.printed}" if row.result.uncertainty is not None else ""
    return "; ".join([f"{printed}{spread} transcribed", *(runs.label(unit) for runs in row.runs)])


#: Fixed settings: text stays text, ids come from a fixed salt, so the same values give the same bytes.
RC: dict[str, Any] = {"svg.hashsalt": SVG_SALT, "svg.fonttype": "none", "font.size": 9, "font.family": "DejaVu Sans",
      "axes.spines.top": False, "axes.spines.right": False}


def _render(groups: list[Group], format: str, **options: Any) -> bytes:
    """The panels one under another, each row's label and values as its tick label, the title above them all."""
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    panels = panels_of(groups)
    title = textwrap.wrap(groups[0].title, 90)
    with matplotlib.rc_context(RC):  # type: ignore[arg-type]
        heights = [ROW_INCHES * len(rows) + PANEL_INCHES for _, _, rows in panels]
        head = 0.25 + 0.18 * len(title) + 0.3  # the title's lines and the legend under them
        figure = Figure(figsize=(8.5, head + sum(heights) + 0.2))
        inches = figure.get_figheight()
        figure.suptitle("\n".join(title), fontsize=9, x=0.02, y=1 - 0.15 / inches, ha="left", va="top")
        shown = {"transcribed"} | {runs.method for group in groups for row in group.rows for runs in row.runs}
        handles = [Line2D([], [], color=COLOURS[k], marker=MARKERS[k], linestyle="none", label=LEGEND[k])
                   for k in OFFSETS if k in shown]
        figure.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.02, 1 - (0.2 + 0.18 * len(title)) / inches),
                      ncols=3, frameon=False, fontsize=8)
        top = inches - head
        for (panel_title, group, rows), height in zip(panels, heights, strict=True):
            body = height - PANEL_INCHES
            axes = figure.add_axes((0.5, (top - 0.45 - body) / inches, 0.46, body / inches))
            _draw(axes, group, rows)
            axes.set_title("\n".join(textwrap.wrap(panel_title, 100)), fontsize=8.5, loc="left", x=-1.05,
                           fontweight="bold")
            top -= height
        buffer = io.BytesIO()
        figure.savefig(buffer, format=format, **options)
    return buffer.getvalue()


#: Inches per row (its label and values take two or three lines of tick label) and per panel's title and axis.
ROW_INCHES = 0.42
PANEL_INCHES = 0.9


def _draw(axes: Any, group: Group, rows: tuple[Row, ...]) -> None:
    unit = group.unit
    for y, row in enumerate(reversed(rows)):
        value = float(row.result.numeric_value)
        bar = uncertainty_bar(row)
        if bar is not None:
            axes.errorbar([value], [y], xerr=[[value - float(bar[0])], [float(bar[1]) - value]], fmt="none",
                          ecolor=COLOURS["transcribed"], elinewidth=1, capsize=3)
        points = [float(v) for v in transcribed_points(row)]
        if len(points) > 1:  # a range: its two ends, joined
            axes.plot(points, [y, y], "-", color=COLOURS["transcribed"], lw=1.5)
        axes.plot(points, [y] * len(points), MARKERS["transcribed"], color=COLOURS["transcribed"], ms=5)
        for runs in row.runs:
            at = y + OFFSETS[runs.method]
            points = [float(v) for v in runs.values]
            axes.plot([min(points), max(points)], [at, at], "-", color=COLOURS[runs.method], lw=1, alpha=0.6)
            # A fixed spread of the points around their line, by position: repeatable, never random.
            jitter = [at + 0.05 * (((i * 7) % 5) - 2) / 2 for i in range(len(points))]
            axes.plot(points, jitter, MARKERS[runs.method], color=COLOURS[runs.method], ms=3, alpha=0.75)
    low, high = extent(rows)
    pad = 0.04 * (high - low)
    axes.set_xlim(low - pad if low else low, high + pad)
    axes.set_ylim(-0.6, len(rows) - 0.4)
    axes.set_yticks(range(len(rows)), ["\n".join(textwrap.wrap(f"{row.label}: {value_text(row, unit)}", 62))
                                       for row in reversed(rows)], fontsize=7.5)
    axes.set_xlabel(group.axis_label)
    axes.grid(axis="x", color="#dddddd", lw=0.5)
    axes.set_axisbelow(True)
