"""A plot group drawn as SVG text: small multiples that read on a phone and scroll with 100+ rows.

Each panel is one dataset of one group (its results share a protocol, metric and unit, so they
are comparable); each row is one result: its label and value written out in full above a strip
where the transcribed value (diamond), our measured (triangle) and estimated (circle) values sit
apart, never merged, each with a bar: the transcribed value's uncertainty as printed (± or an
interval), our runs' spread over the knob sweep. The axis spans the values and their bars only
(no room for labels beside them: labels go above), so an MCC's axis stays near its values.

Drawn in Python, not matplotlib: the layout is simple, the same values give the same bytes, it
costs milliseconds (a site of 10,000 results draws hundreds of these), and every text stays text
with a ``<title>`` on each mark, for readers, search and screen readers alike.
"""

from __future__ import annotations

import html
import math
import textwrap
from decimal import Decimal

from measure.outcome import Method
from registry.site.plot import (
    LEGEND,
    Group,
    Panel,
    Row,
    extent,
    parts_of,
    plot_title,
    transcribed_points,
    uncertainty_bar,
    value_text,
)
from registry.units import with_unit

WIDTH = 400
"""The drawing's width in SVG units; the page scales it to the column (CSS caps it, so text stays near 12 px)."""
MARGIN = 10
FONT = 12
LINE = 15
STRIP = 22
GAP = 8
WRAP = 56
"""Characters per label line at this width and font size."""
COLOURS = {"transcribed": "#111111", Method.ESTIMATED: "#1f5aa6", Method.MEASURED: "#a34700"}
OFFSETS = {"transcribed": 0, Method.MEASURED: -7, Method.ESTIMATED: 7}


def svg_element(groups: list[Group], panels: list[Panel], title: str) -> str:
    """One part of the plot as one ``<svg>`` element: a title, the legend, then its panels (``parts_of``)."""
    out: list[str] = []
    y = MARGIN
    for line in textwrap.wrap(title, WRAP):
        y += LINE
        out.append(_text(MARGIN, y, line, weight="600"))
    y += 4
    shown = {"transcribed"} | {runs.method for group in groups for row in group.rows for runs in row.runs}
    x = MARGIN
    y += LINE
    for key in ("transcribed", Method.MEASURED, Method.ESTIMATED):
        if key in shown:
            out.append(_mark(key, x + 5, y - 4, LEGEND[key]))
            out.append(_text(x + 14, y, LEGEND[key], size=11))
            x += 24 + 6 * len(LEGEND[key])
    for panel_title, group, rows in panels:
        y += GAP * 2
        panel, y = _panel(panel_title, group, rows, y)
        out.append(panel)
    height = y + MARGIN
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
            f'height="{height}" font-family="DejaVu Sans, system-ui, sans-serif" font-size="{FONT}">\n'
            + "\n".join(out) + "\n</svg>")


def svg_document(groups: list[Group], part: list[Panel], title: str) -> str:
    """One part of the plot as a standalone SVG file."""
    return '<?xml version="1.0" encoding="utf-8"?>\n' + svg_element(groups, part, title) + "\n"


def inline_svg(groups: list[Group]) -> str:
    """The plot as ``<svg>`` elements of a page, one per part, each named by the figure's caption (``plot-title``)
    and by its own title (which says which part it is)."""
    parts = parts_of(groups)
    return "".join(svg_element(groups, part, plot_title(groups, i, len(parts))).replace(
        "<svg ", '<svg role="img" aria-labelledby="plot-title" ', 1) + "\n" for i, part in enumerate(parts))


def _panel(title: str, group: Group, rows: tuple[Row, ...], y: int) -> tuple[str, int]:
    unit = group.unit
    low, high = extent(rows)
    ticks = _ticks(low, high)
    low, high = min(low, ticks[0]), max(high, ticks[-1])
    left, right = MARGIN + 4, WIDTH - MARGIN - 4

    def at(value: Decimal | float) -> float:
        return left + (float(value) - low) / ((high - low) or 1) * (right - left)

    out: list[str] = []
    for line in textwrap.wrap(title, WRAP):
        y += LINE
        out.append(_text(MARGIN, y, line, weight="600"))
    y += LINE
    axis_top = y - FONT - 2
    out += [_text(at(t), y, _tick_text(t), size=10, anchor="start" if i == 0 else "end" if i == len(ticks) - 1
                  else "middle") for i, t in enumerate(ticks)]
    y += 4
    for row in rows:
        label = f"{row.label}: {value_text(row, unit)}"
        for line in textwrap.wrap(label, WRAP):
            y += LINE
            out.append(_text(MARGIN, y, line, size=11))
        centre = y + STRIP // 2 + 2
        out.append(f'<line x1="{left}" x2="{right}" y1="{centre}" y2="{centre}" stroke="#eeeeee"/>')
        out += _row_marks(row, unit, centre, at)
        y += STRIP + GAP
    grid = "".join(f'<line x1="{at(t):.1f}" x2="{at(t):.1f}" y1="{axis_top + FONT + 4}" y2="{y}" stroke="#dddddd" '
                   f'stroke-width="0.5"/>' for t in ticks)
    return grid + "\n" + "\n".join(out), y


def _row_marks(row: Row, unit: str, centre: int, at: object) -> list[str]:
    place = at  # a function of a value: its x
    assert callable(place)
    out = []
    bar = uncertainty_bar(row)
    described = f"{with_unit(row.result.as_printed, unit)} transcribed"
    if bar is not None:
        out.append(_bar(place(bar[0]), place(bar[1]), centre, COLOURS["transcribed"]))
        described += f" {row.result.uncertainty.printed}" if row.result.uncertainty is not None else ""
    points = transcribed_points(row)
    if len(points) > 1:  # a range: its two ends, joined
        out.append(_bar(place(points[0]), place(points[-1]), centre, COLOURS["transcribed"]))
    out.extend(_mark("transcribed", place(point), centre, f"{row.label}: {described}") for point in points)
    for runs in row.runs:
        level = centre + OFFSETS[runs.method]
        out.append(_bar(place(min(runs.values)), place(max(runs.values)), level, COLOURS[runs.method]))
        out.append(_mark(runs.method, place(min(runs.values)), level, f"{row.label}: {runs.label(unit)}"))
        if max(runs.values) != min(runs.values):
            out.append(_mark(runs.method, place(max(runs.values)), level, f"{row.label}: {runs.label(unit)}"))
    return out


def _ticks(low: float, high: float) -> list[float]:
    """About five round ticks covering [low, high]: steps of 1, 2 or 5 times a power of ten."""
    raw = (high - low) / 4
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step + 1e-9) * step
    ticks = []
    value = first
    while value < high - 1e-9 * step:
        ticks.append(round(value, 12))
        value += step
    ticks.append(round(value, 12))
    return ticks


def _tick_text(value: float) -> str:
    return f"{value:g}"


def _mark(key: object, x: float, y: float, title: str) -> str:
    colour = COLOURS[key]  # type: ignore[index]
    label = f"<title>{html.escape(title)}</title>"
    if key == "transcribed":
        return (f'<path d="M{x:.1f} {y - 5} l5 5 l-5 5 l-5 -5 z" fill="{colour}">{label}</path>')
    if key == Method.MEASURED:
        return f'<path d="M{x:.1f} {y - 4} l4 7 l-8 0 z" fill="{colour}">{label}</path>'
    return f'<circle cx="{x:.1f}" cy="{y}" r="3.5" fill="{colour}">{label}</circle>'


def _bar(x1: float, x2: float, y: float, colour: str) -> str:
    return (f'<path d="M{x1:.1f} {y} H{x2:.1f} M{x1:.1f} {y - 4} V{y + 4} M{x2:.1f} {y - 4} V{y + 4}" '
            f'stroke="{colour}" stroke-width="1.2" fill="none"/>')


def _text(x: float, y: float, text: str, *, size: int | None = None, weight: str | None = None,
          anchor: str | None = None) -> str:
    attributes = "".join(f' {name}="{value}"' for name, value in (("font-size", size), ("font-weight", weight),
                                                                   ("text-anchor", anchor)) if value is not None)
    return f'<text x="{x:.1f}" y="{y}"{attributes}>{html.escape(text)}</text>'
