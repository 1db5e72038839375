"""Reading the documents a review checks: the pinned PDF, its tables, and the source files it was typeset from.

A result is *source checked* when someone confirmed that the number in the registry is the
number in the paper. ``registry review`` makes that check a program anyone can re-run; this package reads what it
checks against:

- ``review.pdf``: reading a PDF. ``fetch`` gets it (a given file, the local cache, or a download) and proves by
  SHA-256 that it is the artifact the source record pins; ``pdftext`` extracts its text page by page with pypdf and
  ``matching`` matches quotes across the accidents of typesetting (line breaks, hyphenation, ligatures, arrows,
  minus signs); ``words`` gives its positioned words (PDFium), ``poppler`` the second extractor (``pdftotext``),
  ``extract`` both readings of the verified bytes, and ``limited`` runs every reading in a child process
  (``registry.sandbox``) under the review's time and memory limits;
- ``review.tables``: tables read from positioned words (``read`` and the modules beside it), a cited cell read where
  its row and column cross (``crossing``) or as 'row = value' under its header (``keyvalue``), found again by those
  readings in turn (``cited``), and a page's tables cell by cell in both readings (``grid``: ``registry table``, and
  its CSV for ``registry import``);
- ``review.sources``: a document's own source files (LaTeX, HTML, JATS, Word, ODT) read into tables;
- ``errors``: what can go wrong, each with the next thing to try.

Nothing here checks a claim. The claims records make, checked against what this package reads, and the review
records that say so, are ``registry.checking``'s.

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
