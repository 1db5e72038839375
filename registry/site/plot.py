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
from registry.errors import RegistryError
from registry.ids import a_kind
from registry.models import Evaluation, Protocol, Record, Reproduction, Result
from registry.page import display as d
from registry.page.blocks import Column, Content, Piece, Table, Tag, plain
from registry.status.versions import current_only
from registry.store.loader import Registry
from registry.units import with_unit

#: Where each kind of value sits in its row's strip (a fraction of half its height), so that they never overlap
#: (never merge).
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
    words: str = ""
    """What the row's link opens, for a screen reader (``display.result_words``): the label names the evaluation."""


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
        rows.append(Row(result, label, d.record_tag(registry, result), tuple(by_method), dataset,
                        f": {d.result_words(registry, result)}"))
    return Group(protocol, key[0], key[1], tuple(sorted(rows, key=lambda row: d.natural_key(row.label))))


def values_table(group: Group) -> Table:
    """The plotted values as a table: what the plot shows, for readers and tools that cannot see it."""
    unit = group.unit

    def runs_cell(row: Row, method: Method) -> Content:
        runs = next((r for r in row.runs if r.method is method), None)
        return (Piece(runs.label(unit), tag=runs.tag),) if runs else plain("none")

    rows = tuple(
        ((Piece(row.label, link=row.result.id, hidden=row.words or None),),
         (Piece(with_unit(row.result.as_printed, unit), tag=row.tag, exact=d.result_exact(row.result)),),
         runs_cell(row, Method.MEASURED), runs_cell(row, Method.ESTIMATED))
        for row in group.rows
    )
    return Table((Column("Result", fold=True), Column("Transcribed", right=True), Column("Measured by us", fold=True),
                  Column("Estimated by us", fold=True)), rows, title=f"{group.title}: {group.axis_label}",
                 lines=True)


# -- drawing ------------------------------------------------------------------------------------


Panel = tuple[str, Group, tuple[Row, ...]]
"""One panel of a plot: its title, its group, and the rows it draws."""

#: The most rows one image draws: a group of 100+ results (136 in the fixture's cross-validation) is drawn
#: as parts of at most this many rows, each an image that reads on a phone (390 px) without a 10,000 px scroll.
ROWS_PER_PART = 25


def png(groups: list[Group], part: list[Panel], title: str) -> bytes:
    return _render(groups, part, title, "png", dpi=150, metadata={"Software": None})


def plot_title(groups: list[Group], index: int, count: int) -> str:
    """The title of one part of the plot: the group's, with 'part 2 of 6' where there are several."""
    return groups[0].title if count == 1 else f"{groups[0].title} (part {index + 1} of {count})"


def parts_of(groups: Iterable[Group]) -> list[list[Panel]]:
    """The plot's panels cut into parts of at most ``ROWS_PER_PART`` rows, every row in exactly one part.

    A panel longer than that is cut into near-equal runs, each titled with the rows it holds ('rows
    26-50 of 136'); the runs and short panels are then packed, in order, into parts that stay within
    the bound, so small panels share an image and a long one spans several.
    """
    pieces: list[Panel] = []
    for title, group, rows in panels_of(groups):
        count = -(-len(rows) // ROWS_PER_PART)
        size, extra = divmod(len(rows), count)
        start = 0
        for index in range(count):
            end = start + size + (index < extra)
            shown = title if count == 1 else f"{title} (rows {start + 1}\u2013{end} of {len(rows)})"
            pieces.append((shown, group, rows[start:end]))
            start = end
    parts: list[list[Panel]] = [[]]
    for piece in pieces:
        if parts[-1] and sum(len(rows) for _, _, rows in parts[-1]) + len(piece[2]) > ROWS_PER_PART:
            parts.append([])
        parts[-1].append(piece)
    return parts


def panels_of(groups: Iterable[Group]) -> list[Panel]:
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


def _render(groups: list[Group], panels: list[Panel], plot_title: str, format: str, **options: Any) -> bytes:
    """One part's panels one under another, the title and legend above them; as the SVG lays them out, each row's
    label and values are written above its strip, so that the image reads on a phone at 390 px wide."""
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    title = textwrap.wrap(plot_title, WRAP)
    with matplotlib.rc_context(RC):  # type: ignore[arg-type]
        labels = [[_row_label(row, group.unit) for row in rows] for _, group, rows in panels]
        bodies = [sum(LINE_INCHES * len(lines) + STRIP_INCHES for lines in rows) for rows in labels]
        titles = [textwrap.wrap(panel_title, WRAP) for panel_title, _, _ in panels]
        heights = [body + LINE_INCHES * len(lines) + PANEL_INCHES for body, lines in zip(bodies, titles, strict=True)]
        head = 0.15 + LINE_INCHES * len(title) + 0.35  # the title's lines and the legend under them
        figure = Figure(figsize=(WIDTH_INCHES, head + sum(heights) + 0.1))
        inches = figure.get_figheight()
        figure.suptitle("\n".join(title), fontsize=FONT, x=0.03, y=1 - 0.1 / inches, ha="left", va="top",
                        fontweight="bold")
        shown = {"transcribed"} | {runs.method for group in groups for row in group.rows for runs in row.runs}
        handles = [Line2D([], [], color=COLOURS[k], marker=MARKERS[k], linestyle="none", label=LEGEND[k])
                   for k in OFFSETS if k in shown]
        figure.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.02, 1 - (0.1 + LINE_INCHES * len(title))
                                                                          / inches),
                      ncols=2, frameon=False, fontsize=FONT - 1.5)
        top = inches - head
        for (_, group, rows), lines, body, height, panel_title in zip(panels, labels, bodies, heights, titles,
                                                                      strict=True):
            below_title = top - LINE_INCHES * len(panel_title) - 0.1
            axes = figure.add_axes((0.04, (below_title - body) / inches, 0.92, body / inches))
            _draw(axes, group, rows, lines)
            figure.text(0.03, top / inches, "\n".join(panel_title), fontsize=FONT, fontweight="bold", va="top",
                        ha="left")
            top -= height
        buffer = io.BytesIO()
        figure.savefig(buffer, format=format, **options)
    return buffer.getvalue()


#: The PNG's layout: 780 px wide at 150 dpi, so shown at 390 px (a phone) its text is still about 10 px high.
WIDTH_INCHES = 5.2
FONT = 10.5
WRAP = 54
"""Characters per line of a label at that width and size."""
LINE_INCHES = 0.19
STRIP_INCHES = 0.26
PANEL_INCHES = 0.55
"""Below a panel's rows: its axis, the axis label and the gap before the next panel."""


def _row_label(row: Row, unit: str) -> list[str]:
    return textwrap.wrap(f"{row.label}: {value_text(row, unit)}", WRAP)


def _draw(axes: Any, group: Group, rows: tuple[Row, ...], labels: list[list[str]]) -> None:
    """The rows from the top down, in inches from the panel's bottom: each row's label lines, then its strip."""
    from matplotlib.ticker import MaxNLocator
    from matplotlib.transforms import blended_transform_factory

    beside = blended_transform_factory(axes.transAxes, axes.transData)
    height = sum(LINE_INCHES * len(lines) + STRIP_INCHES for lines in labels)
    top = height
    for row, lines in zip(rows, labels, strict=True):
        axes.text(0.0, top, "\n".join(lines), transform=beside, fontsize=FONT - 1.5, va="top", ha="left",
                  linespacing=1.15)
        y = top - LINE_INCHES * len(lines) - STRIP_INCHES / 2
        _row_marks(axes, row, y)
        top -= LINE_INCHES * len(lines) + STRIP_INCHES
    low, high = extent(rows)
    pad = 0.04 * (high - low)
    axes.set_xlim(low - pad if low else low, high + pad)
    axes.set_ylim(0, height)
    axes.set_yticks([])
    axes.spines["left"].set_visible(False)
    axes.set_xlabel(group.axis_label, fontsize=FONT - 1)
    axes.xaxis.set_major_locator(MaxNLocator(nbins=4))  # tick labels that never run into each other at this width
    axes.tick_params(axis="x", labelsize=FONT - 2)
    axes.grid(axis="x", color="#dddddd", lw=0.5)
    axes.set_axisbelow(True)


def _row_marks(axes: Any, row: Row, y: float) -> None:
    """A row's marks on its strip: the transcribed value with its error bar, our runs apart above and below."""
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
        at = y + OFFSETS[runs.method] * STRIP_INCHES / 2  # inside the strip, above or below the transcribed value
        points = [float(v) for v in runs.values]
        axes.plot([min(points), max(points)], [at, at], "-", color=COLOURS[runs.method], lw=1, alpha=0.6)
        # A fixed spread of the points around their line, by position: repeatable, never random.
        jitter = [at + 0.01 * (((i * 7) % 5) - 2) / 2 for i in range(len(points))]
        axes.plot(points, jitter, MARKERS[runs.method], color=COLOURS[runs.method], ms=3, alpha=0.75)
