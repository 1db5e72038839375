"""Reading tables off a page's positioned words.

The reader (``read``) finds a table's caption and where it is on its page (``captions``), its block of lines
(``blocks``), tells what each line is (``lines``), reads the column headers (``headers``), the row labels (``rows``)
and each cell (``cell``) into a table (``table``, where a row or a column is found by name). Besides it: what a cell
prints besides its value (``figures``), sub-tables under one caption (``subtables``), a cited cell read where its row
and column cross (``crossing``; its region, row and header in ``crossing_region``, ``crossing_row``,
``crossing_header``) or as 'row = value' under its header (``keyvalue``), a cited cell found again by those
readings in turn (``cited``), and a page's tables cell by cell in both readings (``grid``, what ``registry table``
shows; each cell in ``grid_cells``, the rows ``registry import`` reads in ``grid_import``).

Nothing here checks a claim: the checking of claims (``registry.checking``) reads through this package.
"""
