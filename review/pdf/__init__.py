"""Reading a PDF: the pinned file fetched and verified (``fetch``), its text page by page (``pdftext``), its
positioned words (``words``, PDFium), the second extractor (``poppler``), both readings of the verified bytes
(``extract``), and every reading run in a child process under the review's limits (``limited``).

Nothing here checks a claim: the checking of claims (``registry.checking``) reads through this package.
"""
