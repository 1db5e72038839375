"""Writing a plot to files: the one place that picks the drawing by the file's suffix.

It sits above both drawings (``registry.site.plot``'s PNG through matplotlib, ``registry.site.plot_svg``'s
SVG, which reads the plot's groups), so that neither imports the other back.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from registry.errors import RegistryError
from registry.site.plot import Group, Panel, parts_of, plot_title, png
from registry.site.plot_svg import svg_document
from registry.store.atomic import write_bytes_atomic


def part_paths(out: Path, count: int) -> list[Path]:
    """Where the parts go: ``out`` itself for a plot of one part, else ``<stem>-1<suffix>``, ``<stem>-2<suffix>``..."""
    return [out] if count == 1 else [out.with_name(f"{out.stem}-{i}{out.suffix}") for i in range(1, count + 1)]


def write_plot(groups: list[Group], out: Path) -> list[Path]:
    """Write the plot to ``out`` (.svg or .png), one file per part (``parts_of``); returns the files written.

    All or nothing: every part is made in memory first, then each is written to a temporary file
    beside its target and renamed into place.
    """
    writers: dict[str, Callable[[list[Panel], str], bytes]] = {
        ".svg": lambda part, title: svg_document(groups, part, title).encode("utf-8"),
        ".png": lambda part, title: png(groups, part, title)}
    writer = writers.get(out.suffix.lower())
    if writer is None:
        raise RegistryError(f"cannot write a plot as {out.name!r}", "name the file .svg or .png")
    parts = parts_of(groups)
    made = [writer(part, plot_title(groups, i, len(parts))) for i, part in enumerate(parts)]
    paths = part_paths(out, len(parts))
    for path, data in zip(paths, made, strict=True):
        write_bytes_atomic(path, data)
    return paths
