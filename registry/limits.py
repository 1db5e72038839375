"""Every limit ``registry query`` and ``registry review`` apply by default, declared once.

The library reads its defaults from here, the command line its options' defaults, and docs/limits.md's
table is checked against them. Each can be changed for one run by the option named.
"""

from __future__ import annotations

# -- registry query ---------------------------------------------------------------------------
QUERY_TIMEOUT_S = 10.0
"""--timeout: seconds a query may run (on a SQLite file its process is killed then, whatever it does)."""
QUERY_MAX_ROWS = 1_000
"""--max-rows: rows given as a table (more exist: a message says so)."""
QUERY_MAX_ROWS_FOR_TOOLS = 100_000
"""--max-rows: rows given as csv or json (more exist: a warning on stderr says so)."""
QUERY_MAX_MEMORY_MB = 1_024
"""--max-memory: megabytes SQLite may allocate for one query on a SQLite file."""
QUERY_VALUE_SHARE = 16
"""One value (a text or a blob) may hold this fraction of the memory limit: 64 MB of the default 1,024."""

# -- registry review --------------------------------------------------------------------------
REVIEW_TIMEOUT_S = 300.0
"""--timeout: seconds a whole review may take (getting the PDF, reading its text, checking every claim)."""
REVIEW_MAX_MEMORY_MB = 2_048
"""--max-memory: megabytes the process that reads the PDF and checks its claims may use."""
REVIEW_MAX_PAGE_CHARS = 100_000
"""--max-page-chars: characters of text one page may hold (a dense page of a paper holds about 5,000)."""
REVIEW_MAX_PDF_BYTES = 200 * 1024 * 1024
"""The largest PDF read or downloaded: papers are a few megabytes."""
REVIEW_MAX_SOURCE_BYTES = 100 * 1024 * 1024
"""The largest source file (LaTeX e-print, JATS, HTML, Word, Typst, or a file a Typst source reads) the review reads."""
REVIEW_MAX_SOURCE_CELLS = 200_000
"""The most table cells one source file's tables may hold (a long paper's hold a few thousand)."""
