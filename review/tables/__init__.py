"""Reading tables off a page's positioned words: the reader (``read``), what a cell prints besides its value
(``figures``), sub-tables under one caption (``subtables``), a cited cell read where its row and column cross
(``crossing``) or as 'row = value' under its header (``keyvalue``), a cited cell found again by those readings in
turn (``cited``), and a page's tables cell by cell in both readings
(``grid``, what ``registry table`` shows).

Nothing here checks a claim: the checking of claims (``registry.checking``) reads through this package.
"""
