"""The second extractor: poppler's ``pdftotext``, a separate program with a parser of its own.

A source check that rests on one PDF parser inherits that parser's mistakes (a dropped minus
sign, columns read across, a cell read into its neighbour). poppler shares no code with pypdf or
PDFium, so every claim is checked again against its reading: its page text
(``pdftotext -enc UTF-8``, pages ended by form feeds, the extraction whose SHA-256 a review records
as ``second_extraction_sha256``) and its positioned words (``pdftotext -bbox-layout``, words inside
poppler's lines; a line taller than it is wide, and at least three characters long, is a rotated header).

``pdftotext`` comes with Debian's ``poppler-utils``. Where it is not installed, ``find_pdftotext``
answers None and the review says so and checks with one extractor.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

from review.limits import Limits, run_limited
from review.pdftext import Extraction
from review.words import PageWords, Word

PROGRAM = "pdftotext"
#: The Debian package that holds it, for the message that says it is missing.
PACKAGE = "poppler-utils"

_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">')
_TOKEN = re.compile(r'<page width="(?P<pw>[\d.]+)" height="(?P<ph>[\d.]+)">|'
                    r'<line xMin="(?P<lx0>[\d.]+)" yMin="(?P<ly0>[\d.]+)" xMax="(?P<lx1>[\d.]+)" '
                    r'yMax="(?P<ly1>[\d.]+)">|'
                    r'<word xMin="(?P<x0>[\d.]+)" yMin="(?P<y0>[\d.]+)" xMax="(?P<x1>[\d.]+)" '
                    r'yMax="(?P<y1>[\d.]+)">(?P<text>[^<]*)</word>|'
                    r'(?P<end></line>)')


def find_pdftotext() -> str | None:
    """The path of ``pdftotext``, or None where poppler-utils is not installed."""
    return shutil.which(PROGRAM)


@cache
def version(program: str) -> str:
    """'pdftotext 22.12.0' (poppler's version), as the review records which extractor it used."""
    try:
        done = subprocess.run([program, "-v"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return PROGRAM
    found = re.search(r"version\s+([0-9][0-9.]*)", (done.stderr + done.stdout).decode("utf-8", "replace"))
    return f"{PROGRAM} {found.group(1)}" if found else PROGRAM


def extract(path: Path, program: str, limits: Limits) -> Extraction:
    """poppler's reading of ``path``: the text of every page and every page's positioned words."""
    raw = run_limited([program, "-q", "-enc", "UTF-8", str(path), "-"], limits, what=PROGRAM, path=path).stdout
    text = raw.decode("utf-8", "replace")
    pages = text.split("\f")
    if pages and pages[-1] == "":
        pages.pop()  # pdftotext ends every page, the last one too, with a form feed
    layout = run_limited([program, "-q", "-enc", "UTF-8", "-bbox-layout", str(path), "-"], limits,
                         what=f"{PROGRAM} -bbox-layout", path=path).stdout
    words = parse_bbox_layout(layout.decode("utf-8", "replace"))
    return Extraction(pages=tuple(pages), extractor=version(program), words=words)


def parse_bbox_layout(xhtml: str) -> tuple[PageWords, ...]:
    """Pages of words from ``pdftotext -bbox-layout`` output; a tall, narrow line's words are rotated."""
    pages: list[PageWords] = []
    size = (0.0, 0.0)
    words: list[Word] = []
    line: list[Word] = []
    box = (0.0, 0.0, 0.0, 0.0)

    def close_page() -> None:
        if pages or words or size != (0.0, 0.0):
            pages.append(PageWords(len(pages) + 1, size[0], size[1], tuple(words)))

    started = False
    for token in _TOKEN.finditer(xhtml):
        if token["pw"] is not None:
            if started:
                close_page()
            started = True
            size = (float(token["pw"]), float(token["ph"]))
            words = []
        elif token["lx0"] is not None:
            box = (float(token["lx0"]), float(token["ly0"]), float(token["lx1"]), float(token["ly1"]))
            line = []
        elif token["x0"] is not None:
            line.append(Word(html.unescape(token["text"]), float(token["x0"]), float(token["y0"]),
                             float(token["x1"]), float(token["y1"])))
        elif token["end"] is not None:
            rotated = _rotated(box, line)
            words.extend(Word(w.text, w.x0, w.top, w.x1, w.bottom, rotated=True) if rotated else w for w in line)
            line = []
    if started:
        close_page()
    return tuple(pages)


def _rotated(box: tuple[float, float, float, float], line: list[Word]) -> bool:
    width, height = box[2] - box[0], box[3] - box[1]
    return height > 1.6 * width and sum(len(w.text) for w in line) >= 3
