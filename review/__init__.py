"""Source checking: re-parse the pinned PDF and check every transcribed claim against the page it cites.

A result is *source checked* when someone confirmed that the number in the registry is the
number in the paper. This package makes that check a program anyone can re-run:

- ``fetch``: get the PDF (a given file, the local cache, or a download) and prove by SHA-256
  that it is the artifact the source record pins;
- ``pdftext``: extract its text page by page with pypdf and match quotes across the
  accidents of typesetting (line breaks, hyphenation, ligatures, arrows, minus signs);
- ``claims``: the assertions the records make (locator page and quote, printed value, unit,
  listed source checks), each checked against the text; ``dispatch`` says which claims each
  record class makes, above ``claims``, ``cells`` and ``consistency`` (none imports another back);
- ``words``, ``tables``, ``cells``: positioned words, tables read from them, and the claims about
  table cells, uncertainties, units in headers, captions and footnotes; ``crossing`` and ``keyvalue``: a cited
  cell read where its row and column cross, or as the cell printing 'row = value' under its header, where the
  grid cannot read it; ``figures``: what a cell prints besides its value (a bracketed note, a pair);
- ``poppler``, ``extract``, ``agreement``: the second extractor (``pdftotext``), both readings of
  the verified bytes, and every claim checked with both (in the review's one child process,
  ``registry.sandbox``, under the review's time and memory limits);
- ``grid``, ``hints``: a page's tables as the cell checks read them, cell by cell in both readings (``registry
  table``, and its CSV for ``registry import``), and the command a cell check that cannot read its cell names;
- ``consistency``: derived values recomputed at their printed rounding (``registry.derived``, the
  arithmetic ``registry validate`` runs too), and GRIM;
- ``review``: run the whole check and build the review records it files, one per checked record, of any verdict.

**Why PDFium for positioned words** (measured on the fixture papers, tests/data/papers/EXTRACTORS.md,
344 table cells of 11 pages): pypdfium2 (PDFium) found 328 with a simple locator, at 16 ms a page,
9 MB with no dependencies, BSD/Apache licensed, and it alone gives each character's rotation angle and
font weight (rotated headers, bold best values); pdfplumber found 320 at 61-79 ms a page and pulls in
55 MB; pymupdf is AGPL; camelot is 300 MB and merged a right-hand column with the prose beside it; pypdf's
visitor found 8 (TeX sets text in runs it cannot measure). With this package's table reader (header
levels from clusters, rotated stacks, column boundaries at midpoints, row groups carried across pages)
every table cell of the truth files (168 in the LaTeX paper, 8 in the fpdf2 page, whole cell text
with ± and marks) is read by PDFium and by poppler's ``pdftotext -bbox-layout`` alike
(tests/test_review_cells.py). poppler, a separate program with its own parser, is the second opinion;
its text is read with ``-raw``, since its reading order drops a hyphen at a line end ('Stage-⏎2' becomes
'Stage2').

pypdf, pypdfium2 and httpx are imported inside the functions that need them.
"""

from __future__ import annotations

from registry import __version__

#: How written reviews name their reviewer: the script and its version.
REVIEWER = f"registry review/ {__version__}"
