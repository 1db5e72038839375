"""The second extractor: poppler's ``pdftotext``, a separate program with a parser of its own.

A source check that rests on one PDF parser inherits that parser's mistakes (a dropped minus
sign, columns read across, a cell read into its neighbour). poppler shares no code with pypdf or
PDFium, so every claim is checked again against its reading: its page text
(``pdftotext -raw -enc UTF-8``: content-stream order, which keeps a hyphen at a line end as printed, where
poppler's reading order drops it; pages ended by form feeds, the extraction whose SHA-256 a review records
as ``second_extraction_sha256``) and its positioned words (``pdftotext -bbox-layout``, words inside
poppler's lines; a line taller than it is wide, and at least three characters long, is a rotated header).

``pdftotext`` comes with Debian's ``poppler-utils``. Where it is not installed, ``find_pdftotext``
answers None and the review says so and checks with one extractor.
"""

from __future__ import annotations

import dataclasses
import errno
import html
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

from registry.textsafe import excerpt
from review.errors import PdfError, ReviewLimitError
from review.pdf.pdftext import Extraction
from review.pdf.words import PageWords, Word

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


#: What pdftotext is asked for: its page text (content-stream order) and its positioned words; '-' '-' reads the
#: PDF from standard input and writes to standard output.
_RUNS = ((PROGRAM, ("-q", "-raw", "-enc", "UTF-8", "-", "-")),
         (f"{PROGRAM} -bbox-layout", ("-q", "-enc", "UTF-8", "-bbox-layout", "-", "-")))


class Reading:
    """poppler's reading of a PDF's bytes: both pdftotext runs started at once, fed the bytes on their standard
    input, and read when ``result`` is asked for.

    Used as a context manager: leaving it kills whatever still runs (the primary reading failed,
    or the time is up), so no pdftotext outlives the review.
    """

    def __init__(self, data: bytes, program: str, name: str, timeout: float | None = None, *,
                 pages: tuple[int, int] | None = None, text: bool = True) -> None:
        """``pages``: the first and last page to read (default: all); ``text``: the page text too, not only the
        positioned words (``registry table`` needs the words alone)."""
        self._name = name
        self._timeout = timeout
        self._program = program
        self._first = pages[0] if pages is not None else 1
        self._processes: list[subprocess.Popen[bytes]] = []
        runs = _RUNS if text else _RUNS[1:]
        self._pool = ThreadPoolExecutor(max_workers=len(runs))
        self._runs = []
        chosen = ("-f", str(pages[0]), "-l", str(pages[1])) if pages is not None else ()
        for what, options in runs:
            try:
                process = subprocess.Popen([program, *chosen, *options], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE)
            except OSError as exc:
                self.close()
                if exc.errno == errno.ENOMEM:  # the review's memory limit left no room to start it
                    raise MemoryError(f"cannot start {program}") from exc
                raise PdfError(Path(name), f"cannot run {program}: {exc.strerror or exc}",
                               f"check the installation of {PACKAGE}") from exc
            self._processes.append(process)
            self._runs.append(self._pool.submit(self._finish, process, data, what))

    def __enter__(self) -> Reading:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for process in self._processes:
            if process.poll() is None:
                process.kill()
        self._pool.shutdown(wait=True)

    def result(self) -> Extraction:
        """The text of every page and every page's positioned words; PdfError (or ReviewLimitError) if pdftotext
        failed or ran past the time left."""
        *raw, layout = (run.result() for run in self._runs)
        words = parse_bbox_layout(layout.decode("utf-8", "replace"))
        if self._first != 1:  # pages counted as the PDF counts them, not from the first one read
            words = tuple(dataclasses.replace(page, number=self._first + i) for i, page in enumerate(words))
        pages = raw[0].decode("utf-8", "replace").split("\f") if raw else [""] * len(words)
        if raw and pages and pages[-1] == "":
            pages.pop()  # pdftotext ends every page, the last one too, with a form feed
        return Extraction(pages=tuple(pages), extractor=version(self._program), words=words)

    def _finish(self, process: subprocess.Popen[bytes], data: bytes, what: str) -> bytes:
        try:
            out, err = process.communicate(data, timeout=self._timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise ReviewLimitError(f"{what} ran past the {self._timeout:g} s left for reading {self._name} and "
                                   "was stopped") from None
        except BrokenPipeError:  # it ended before reading all of the PDF; its status says why
            out, err = b"", b""
            process.wait()
        if process.returncode == 0:
            return out
        stderr = err.decode("utf-8", "replace")
        if "bad_alloc" in stderr or "out of memory" in stderr.lower():
            raise MemoryError(f"{what} ran out of memory")  # the review's memory limit: its message says so
        path = Path(self._name)
        if process.returncode < 0:
            raise PdfError(path, f"{what} was stopped by signal {-process.returncode} on {self._name}",
                           "check that the file opens in a PDF viewer")
        raise PdfError(path, f"{what} failed on {self._name} (exit status {process.returncode}): "
                       f"{excerpt(_last_line(stderr), 300)[1:-1] if stderr.strip() else 'no message'}",
                       "check that the file opens in a PDF viewer")


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


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
            line.append(Word(undoubled(html.unescape(token["text"])), float(token["x0"]), float(token["y0"]),
                             float(token["x1"]), float(token["y1"])))
        elif token["end"] is not None:
            rotated = _rotated(box, line)
            words.extend(Word(w.text, w.x0, w.top, w.x1, w.bottom, rotated=True) if rotated else w
                         for w in (line if rotated else _on_the_line(line)))
            line = []
    if started:
        close_page()
    return tuple(pages)


#: A word this many times taller than its line's other words is set in a font whose box says nothing of its glyphs.
TALL = 2.0


def _on_the_line(line: list[Word]) -> list[Word]:
    """The line's words, each far taller than the line's other words (``TALL``) given their height, at their foot:
    poppler boxes a word by its font's ascent and descent, and a math font's (Cambria Math, as Word sets it) are
    several lines high, so that its words would join the lines above and below into one."""
    heights = sorted(w.bottom - w.top for w in line)
    usual = heights[len(heights) // 2]
    if len(line) < 2 or heights[-1] <= TALL * usual:
        return line
    plain = [w for w in line if w.bottom - w.top <= TALL * usual]
    bottom = sorted(w.bottom for w in plain)[len(plain) // 2]
    return [w if w.bottom - w.top <= TALL * usual else dataclasses.replace(w, top=bottom - usual, bottom=bottom)
            for w in line]


#: Unicode's mathematical alphanumeric symbols (italic 𝐼, bold 𝐱, ...), the letters a math font prints.
_MATH_LETTERS = re.compile(r"([\U0001D400-\U0001D7FF])\1*")


def undoubled(text: str) -> str:
    """``text`` with each math letter once where a word gives every one of them twice over: Word writes a math
    letter's ``/ActualText`` with its UTF-16 pair twice (``<FEFF D835DC3C D835DC3C>`` for 𝐼), which poppler
    follows ('|𝐼𝐼|' for |I|, '𝑃𝑃𝑙𝑙' for Pl); PDFium gives the two at one glyph's box and reads it once
    (``review.words``). A word whose math letters do not all come in pairs is as printed."""
    runs = list(_MATH_LETTERS.finditer(text))
    if not runs or any(len(run.group()) % 2 for run in runs):
        return text
    return _MATH_LETTERS.sub(lambda run: run.group()[: len(run.group()) // 2], text)


def _rotated(box: tuple[float, float, float, float], line: list[Word]) -> bool:
    width, height = box[2] - box[0], box[3] - box[1]
    return height > 1.6 * width and sum(len(w.text) for w in line) >= 3
