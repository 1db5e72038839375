"""Where the review points a curator who needs to see what it read: the command that shows a table as read.

A leaf module, so that what reports on claims can name the command without importing
the module that reads whole grids (``review.tables.grid``), which imports them.
"""

from __future__ import annotations

import shlex
from pathlib import Path

#: Stands for the PDF's path where a message is worded without it (a claim knows the page, not the file).
PDF_PLACEHOLDER = "PDF"


def hint(pdf: str | Path | None, page: int, label: str | None = None) -> str:
    """The command that prints ``label`` on ``page`` of ``pdf`` as the review reads it (every table of the page
    without a label); ``pdf`` None writes ``PDF`` for the file."""
    shown = shlex.quote(str(pdf)) if pdf is not None else PDF_PLACEHOLDER
    table = f" --table {shlex.quote(label)}" if label else ""
    return f"registry table {shown} --page {page}{table}"

