"""Both readings of a PDF, each under a time and memory limit: pypdf with PDFium, and poppler.

The *primary* reading is pypdf's page text (its SHA-256 is the review's ``extraction_sha256``)
with PDFium's positioned words for table cells; it runs in a child process, ``python -m
review.extract FILE``, which prints it as JSON. The *second* reading is poppler's ``pdftotext``
(``review.poppler``). Both run at once, each in its own process, so the check costs the slower
of the two. A file that is not a PDF, is encrypted, damaged, or has no text at all (a scan) gets a
``PdfError`` with what to do; so does one that runs past a limit.
"""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from review.errors import PdfError
from review.limits import OUT_OF_MEMORY, Limits, child_environment, run_limited
from review.pdftext import Extraction
from review.words import PageWords, Word

#: Exit status of the worker for a PdfError it printed as JSON.
_PDF_ERROR = 3


@dataclass(frozen=True)
class Readings:
    """The primary extraction, the second one (None where poppler is missing), and why it is missing."""

    primary: Extraction
    second: Extraction | None
    second_missing: str | None = None

    @property
    def all(self) -> tuple[Extraction, ...]:
        return (self.primary,) if self.second is None else (self.primary, self.second)


def read_pdf(path: Path, limits: Limits | None = None, *, second: bool = True) -> Readings:
    """Both readings of ``path`` (the second only where ``second`` and pdftotext is installed)."""
    from review import poppler

    limits = limits or Limits()
    program = poppler.find_pdftotext() if second else None
    if program is None:
        why = None if not second else (f"poppler's {poppler.PROGRAM} is not installed (Debian package "
                                       f"{poppler.PACKAGE}), so every claim was checked with one extractor only")
        return Readings(primary_reading(path, limits), None, why)
    with ThreadPoolExecutor(max_workers=2) as pool:
        first = pool.submit(primary_reading, path, limits)
        other = pool.submit(poppler.extract, path, program, limits)
        primary = first.result()  # the primary's error (not a PDF, encrypted, ...) is the one to report
        return Readings(primary, other.result())


def primary_reading(path: Path, limits: Limits) -> Extraction:
    """pypdf's text and PDFium's words, from the worker process."""
    argv = [sys.executable, "-m", "review.extract", str(path)]
    done = run_limited(argv, limits, what="text extraction (pypdf and PDFium)", path=path, env=child_environment(),
                       answers=(_PDF_ERROR,))
    if done.returncode == _PDF_ERROR:  # the worker met a PdfError and printed it as JSON
        error = json.loads(done.stdout)
        raise PdfError(path, error["message"], error.get("hint"))
    return _from_json(json.loads(done.stdout))


def _from_json(data: dict[str, Any]) -> Extraction:
    pages = tuple(PageWords(p["number"], p["width"], p["height"], tuple(
        Word(w[0], w[1], w[2], w[3], w[4], bold=bool(w[5] & 1), rotated=bool(w[5] & 2)) for w in p["words"]))
        for p in data["words"])
    return Extraction(pages=tuple(data["pages"]), extractor=data["extractor"], creation_date=data["creation_date"],
                      creation_date_utc=data["creation_date_utc"], words=pages)


def _to_json(extraction: Extraction) -> dict[str, Any]:
    return {
        "pages": list(extraction.pages), "extractor": extraction.extractor,
        "creation_date": extraction.creation_date, "creation_date_utc": extraction.creation_date_utc,
        "words": [{"number": p.number, "width": p.width, "height": p.height,
                   "words": [[w.text, round(w.x0, 2), round(w.top, 2), round(w.x1, 2), round(w.bottom, 2),
                              int(w.bold) | 2 * int(w.rotated)] for w in p.words]} for p in extraction.words],
    }


def extract_in_process(path: Path) -> Extraction:
    """What the worker does: pypdf's text of every page and PDFium's words; PdfError for what is not readable."""
    import dataclasses

    from review.pdftext import extract_pdf
    from review.words import pdfium_words

    text = extract_pdf(path)
    if not any(page.strip() for page in text.pages):
        raise PdfError(path, f"{path} has no text to check: none of its {text.page_count} pages holds any (a scanned "
                       "image without a text layer?)",
                       "a source check reads the PDF's text; check this source by hand against the pages, since an "
                       "OCR'd copy would be another file with another hash")
    try:
        words = pdfium_words(path.read_bytes())
    except Exception as exc:  # noqa: BLE001 - PDFium's errors have no common class beyond its own
        raise PdfError(path, f"PDFium cannot read the positioned text of {path}: {type(exc).__name__}: {exc}",
                       "the file may be damaged; download the PDF again, or check it opens in a PDF viewer") from exc
    versions = _pdfium_version()
    return dataclasses.replace(text, extractor=f"{text.extractor} (words: {versions})", words=words)


def _pdfium_version() -> str:
    from pypdfium2.version import PYPDFIUM_INFO

    return f"pypdfium2 {PYPDFIUM_INFO}"


def main(argv: list[str]) -> int:
    """``python -m review.extract FILE``: the primary reading as JSON on stdout, or a PdfError on stderr."""
    try:
        extraction = extract_in_process(Path(argv[0]))
    except PdfError as exc:
        sys.stdout.write(json.dumps({"message": exc.message, "hint": exc.hint}))
        return _PDF_ERROR
    except MemoryError:
        return OUT_OF_MEMORY
    sys.stdout.write(json.dumps(_to_json(extraction), ensure_ascii=False, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
