"""A pinned source file read under the review's limits, as the PDF is (``review.pdf.limited``).

A source is input like the PDF: a LaTeX file whose macros expand without end, a Typst program that loops, an
e-print that unpacks to gigabytes, markup nested thousands deep. So each file is read in a child process
(``review.pdf.limited.run_reading``: killed past the review's time left, its memory capped), refused unread above
``ReviewLimits.max_source_bytes``, and its tables' cells counted (at most ``REVIEW_MAX_SOURCE_CELLS``); a
reader's recursion past Python's depth and a Typst program past its steps are limits too. What stops a reading
is a ``ReviewLimitError`` that names the limit: the review goes on, and the source witness says 'cannot check'
with it for each cell the file would have witnessed (``review.sources.witness.SourceTables.unread``).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from registry import limits as registry_limits
from review.errors import ReviewLimitError
from review.pdf.limited import ReviewLimits, run_reading
from review.sources.model import Grid, GridCell


@dataclass(frozen=True)
class ReadRequest:
    """What the child process is sent: the file, its format and the limits it reads under."""

    path: str
    format: str
    max_bytes: int
    max_cells: int


def read_limited(path: Path, kind: str, limits: ReviewLimits, started: float | None = None) -> tuple[
        list[Grid], list[str]]:
    """The file's grids, and (for a LaTeX ``.tex``) the files it inputs, read in a child process under ``limits``
    (the time left since ``started``, a ``time.monotonic()``). Raises ``ReviewLimitError`` naming the limit."""
    size = path.stat().st_size
    if size > limits.max_source_bytes:
        raise ReviewLimitError(f"{path.name} is {size:,} bytes, more than the {limits.max_source_bytes:,} a source "
                               "file may have (a paper's source is a few megabytes): it was not read")
    request = ReadRequest(str(path), kind, limits.max_source_bytes, registry_limits.REVIEW_MAX_SOURCE_CELLS)
    plain = run_reading("review.sources.limited:read_plain", request, limits, what=f"reading {path.name}",
                        doing=f"reading the source {path.name}",
                        started=started if started is not None else time.monotonic())
    return [_grid(g) for g in plain["grids"]], list(plain["loaded"])


def read_plain(request: ReadRequest) -> dict[str, Any]:
    """What the child runs: the file read, its grids as plain data (the child answers with data only)."""
    path = Path(request.path)
    try:
        grids, loaded = _read(path, request)
    except ImportError as exc:
        from registry.errors import RegistryError

        raise RegistryError(f"reading {path.name} needs {exc.name}, which is not installed",
                            "install the registry's 'sources' extra: pip install 'registry[sources]'") from None
    except RecursionError:
        raise ReviewLimitError(f"{path.name} nests its markup deeper than the reader follows (Python's recursion "
                               "limit): it is no document a person wrote") from None
    cells = sum(len(row) for grid in grids for row in grid.rows)
    if cells > request.max_cells:
        raise ReviewLimitError(f"{path.name} holds {cells:,} table cells, more than the {request.max_cells:,} a "
                               "source is read with")
    return {"grids": [_plain(g) for g in grids], "loaded": loaded}


def _read(path: Path, request: ReadRequest) -> tuple[list[Grid], list[str]]:
    if request.format == "latex" and path.suffix == ".tex":
        from review.sources.latex import grids_of, read_path

        document = read_path(path)
        return grids_of(document), list(document.loaded[1:])
    if request.format == "typst":
        from review.sources.typst import read_typst
        from review.sources.typst_eval import Limits
        from review.sources.typst_values import TypstError, TypstLimit

        try:
            return read_typst(path, Limits(max_file_bytes=request.max_bytes)), []
        except TypstLimit as exc:
            raise ReviewLimitError(f"{path.name}: {exc}") from None
        except TypstError as exc:  # the document's own error (its markup or code), not the registry's
            from registry.errors import RegistryError

            raise RegistryError(f"{path.name} cannot be read as Typst: {exc}",
                                "check that the file is the paper's own source and compiles with 'typst compile'"
                                ) from None
    from review.sources import read_grids

    return read_grids(path, request.format), []


def _plain(grid: Grid) -> dict[str, Any]:
    fields = {f.name: getattr(grid, f.name) for f in dataclasses.fields(grid)}
    fields["rows"] = [[dataclasses.astuple(cell) for cell in row] for row in grid.rows]
    return fields


def _grid(plain: dict[str, Any]) -> Grid:
    rows = [[GridCell(*cell) for cell in row] for row in plain["rows"]]
    return Grid(**{**plain, "rows": rows})
