"""Writing a plot to a file: the one place that picks the drawing by the file's suffix.

It sits above both drawings (``registry.plot``'s PNG through matplotlib, ``registry.plot_svg``'s
SVG, which reads the plot's groups), so that neither imports the other back.
"""

from __future__ import annotations

from pathlib import Path

from registry.atomic import write_bytes_atomic
from registry.errors import RegistryError
from registry.plot import Group, png
from registry.plot_svg import svg_document


def write_plot(groups: list[Group], out: Path) -> None:
    """Write the plot to ``out`` (.svg or .png), atomically: a temporary file beside it, renamed into place."""
    writers = {".svg": lambda: svg_document(groups).encode("utf-8"), ".png": lambda: png(groups)}
    writer = writers.get(out.suffix.lower())
    if writer is None:
        raise RegistryError(f"cannot write a plot as {out.name!r}", "name the file .svg or .png")
    write_bytes_atomic(out, writer())
