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
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
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
OFFSETS = {"transcribed": 0.0, Method.ESTIMATED: 0.24, Method.MEASURED: -0.24}
COLOURS = {"transcribed": "#111111", Method.ESTIMATED: "#2f6db5", Method.MEASURED: "#c75d00"}
MARKERS = {"transcribed": "D", Method.ESTIMATED: "o", Method.MEASURED: "^"}
LEGEND = {"transcribed": "transcribed (as printed)", Method.ESTIMATED: "estimated by us",
          Method.MEASURED: "measured by us"}
SVG_SALT = "registry-plot"
LABEL_WIDTH = 34


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
        rows.append(Row(result, label, d.record_tag(registry, result), tuple(by_method)))
    return Group(protocol, key[0], key[1], tuple(rows))


def values_table(group: Group) -> Table:
    """The plotted values as a table: what the plot shows, for readers and tools that cannot see it."""
    unit = group.unit

    def runs_cell(row: Row, method: Method) -> Content:
        runs = next((r for r in row.runs if r.method is method), None)
        return (Piece(runs.label(unit), tag=runs.tag),) if runs else plain("none")

    rows = tuple(
        ((Piece(row.label, link=row.result.id),),
         (Piece(with_unit(row.result.as_printed, unit), tag=row.tag, exact=str(row.result.numeric_value)),),
         runs_cell(row, Method.MEASURED), runs_cell(row, Method.ESTIMATED))
        for row in group.rows
    )
    return Table((Column("Result", fold=True), Column("Transcribed", right=True), Column("Measured by us", fold=True),
                  Column("Estimated by us", fold=True)), rows, title=f"{group.title}: {group.axis_label}",
                 lines=True)


# -- drawing ------------------------------------------------------------------------------------


def svg(groups: list[Group]) -> str:
    """The plot as an SVG document (text kept as text, so values can be read and searched)."""
    return _render(groups, "svg", metadata={"Date": None}).decode("utf-8")


def png(groups: list[Group]) -> bytes:
    return _render(groups, "png", dpi=150, metadata={"Software": None})


def inline_svg(groups: list[Group]) -> str:
    """The plot as an ``<svg>`` element for an HTML page: no XML prologue, no RDF metadata block."""
    text = svg(groups)
    text = text[text.index("<svg"):]
    start, end = text.find("<metadata>"), text.find("</metadata>")
    if start != -1 and end != -1:
        text = text[:start] + text[end + len("</metadata>"):]
    return text.replace("<svg ", '<svg role="img" aria-labelledby="plot-title" ', 1).strip() + "\n"


def write_plot(groups: list[Group], out: Path) -> None:
    """Write the plot to ``out`` (.svg or .png), atomically: a temporary file beside it, renamed into place."""
    from registry.atomic import write_bytes_atomic

    writers = {".svg": lambda: svg(groups).encode("utf-8"), ".png": lambda: png(groups)}
    writer = writers.get(out.suffix.lower())
    if writer is None:
        raise RegistryError(f"cannot write a plot as {out.name!r}", "name the file .svg or .png")
    write_bytes_atomic(out, writer())


#: Fixed settings: text stays text, ids come from a fixed salt, so the same values give the same bytes.
RC: dict[str, Any] = {"svg.hashsalt": SVG_SALT, "svg.fonttype": "none", "font.size": 9, "font.family": "DejaVu Sans",
      "axes.spines.top": False, "axes.spines.right": False}


def _render(groups: list[Group], format: str, **options: Any) -> bytes:
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    with matplotlib.rc_context(RC):  # type: ignore[arg-type]
        heights = [0.8 + 0.75 * len(group.rows) for group in groups]
        figure = Figure(figsize=(8.5, 0.8 + sum(heights)))
        top = 1 - 0.5 / figure.get_figheight()
        span = (top - 0.3 / figure.get_figheight()) / sum(heights)
        for group, height in zip(groups, heights, strict=True):
            bottom = top - height * span
            _draw(figure.add_axes((0.36, bottom + 0.55 * span, 0.52, (height - 0.75) * span)), group)
            top = bottom
        figure.suptitle("\n".join(textwrap.wrap(groups[0].title, 90)), fontsize=9, x=0.02, ha="left")
        shown = {"transcribed"} | {runs.method for group in groups for row in group.rows for runs in row.runs}
        handles = [Line2D([], [], color=COLOURS[k], marker=MARKERS[k], linestyle="none", label=LEGEND[k])
                   for k in OFFSETS if k in shown]
        figure.legend(handles=handles, loc="lower center", ncols=3, frameon=False, fontsize=8)
        buffer = io.BytesIO()
        figure.savefig(buffer, format=format, **options)
    return buffer.getvalue()


def _draw(axes: Any, group: Group) -> None:
    unit = group.unit
    values: list[Decimal] = []
    for y, row in enumerate(reversed(group.rows)):
        transcribed = row.result.numeric_value
        values.append(transcribed)
        axes.plot([float(transcribed)], [y], MARKERS["transcribed"], color=COLOURS["transcribed"], ms=6)
        axes.annotate(f"{with_unit(row.result.as_printed, unit)} transcribed", (float(transcribed), y),
                      xytext=(7, -3), textcoords="offset points", fontsize=8)
        for runs in row.runs:
            at = y + OFFSETS[runs.method]
            points = [float(v) for v in runs.values]
            values.extend(runs.values)
            lo, hi = min(points), max(points)
            axes.plot([lo, hi], [at, at], "-", color=COLOURS[runs.method], lw=1, alpha=0.6)
            axes.plot([lo, lo, hi, hi], [at - 0.06, at + 0.06, at - 0.06, at + 0.06], "|",
                      color=COLOURS[runs.method], ms=0)
            # A fixed spread of the points around their line, by position: repeatable, never random.
            jitter = [at + 0.05 * (((i * 7) % 5) - 2) / 2 for i in range(len(points))]
            axes.plot(points, jitter, MARKERS[runs.method], color=COLOURS[runs.method], ms=3.5, alpha=0.75)
            axes.annotate(runs.label(unit), (hi, at), xytext=(7, -3), textcoords="offset points",
                          fontsize=8, color=COLOURS[runs.method])
    lo, hi = float(min(values + [Decimal(0)])), float(max(values + [Decimal(0)]))
    axes.set_xlim(lo - 0.02 * (hi - lo or 1), hi + 0.55 * (hi - lo or 1))  # room for the labels on the right
    axes.set_ylim(-0.6, len(group.rows) - 0.4)
    axes.set_yticks(range(len(group.rows)),
                    ["\n".join(textwrap.wrap(row.label, LABEL_WIDTH)) for row in reversed(group.rows)])
    axes.set_xlabel(group.axis_label)
    axes.grid(axis="x", color="#dddddd", lw=0.5)
    axes.set_axisbelow(True)
