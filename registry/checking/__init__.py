"""Checking the claims records make against the documents they cite, and writing the review records that say so.

Which claims each record makes (``dispatch``); the claims about pages, quotes, values and units (``claims``), table
cells, captions and footnotes (``cells``), uncertainties (``uncertainty``), a cell's unit (``cell_units``), sentences
(``sentences``) and the numbers among themselves (``consistency``); each checked with both readings of the PDF
(``agreement``) and, where the source pins its own files, against them (``source_witness``), each witness's verdict
kept apart (``witnesses``); the whole review run and its records (``review``), and the command a curator is pointed
to (``hints``). It reads documents through ``review.pdf``, ``review.tables`` and ``review.sources``, which import
nothing from here.
"""
