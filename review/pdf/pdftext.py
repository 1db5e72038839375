"""Text from the pinned PDF, page by page.

Extraction uses pypdf and keeps the raw text of every page. The *extraction artifact*
is that text with the pages joined by form feeds (``\\f``, as pdftotext separates
them), encoded as UTF-8; its SHA-256 is what a review records as ``extraction_sha256``.

Quotes are matched in that text across the accidents of typesetting by ``review.pdf.matching``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from registry import limits
from registry.textsafe import excerpt
from review.errors import PdfError, ReviewLimitError
from review.pdf.fetch import sniff
from review.pdf.limited import page_chars_checked

if TYPE_CHECKING:
    import datetime as dt

    import pypdf

    from review.pdf.words import PageWords

PAGE_SEPARATOR = "\f"


@dataclass(frozen=True)
class Extraction:
    """The text of every page of one PDF, as pypdf extracted it."""

    pages: tuple[str, ...]
    extractor: str
    """Which library and version extracted the text (for example 'pypdf 5.1.0')."""
    creation_date: str | None = None
    """The PDF's CreationDate as an ISO date (its own time zone), where it has one."""
    creation_date_utc: str | None = None
    creation_date_unread: str | None = None
    """The CreationDate as the PDF states it, where it is not a date in the PDF's own form (``D:YYYYMMDD...``, as
    '12th May 2025'): shown, never read as a date (a metadata field never rejects a document)."""
    words: tuple[PageWords, ...] = ()
    """Every page's positioned words, where the extractor gives them (``review.pdf.words``); empty where not."""

    @property
    def page_count(self) -> int:
        return len(self.pages)

    @property
    def text(self) -> str:
        """The extraction artifact: raw page texts joined by form feeds."""
        return PAGE_SEPARATOR.join(self.pages)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def page(self, number: int) -> str | None:
        """The text of page ``number`` (1-based), or None past the end."""
        return self.pages[number - 1] if 1 <= number <= len(self.pages) else None

    def page_words(self, number: int) -> PageWords | None:
        """The positioned words of page ``number`` (1-based), or None past the end or without words."""
        return self.words[number - 1] if 1 <= number <= len(self.words) else None

    def missing(self, number: int) -> str:
        """Why page ``number`` cannot be read: the PDF has fewer pages."""
        return f"page {number} does not exist: the PDF has {self.page_count} pages"


#: The most text one page may hold. A dense page of a paper holds about 5,000 characters; a page
#: past this is no paper's page (a crafted PDF can put 50 MB of text in one string), and matching
#: quotes on it would take long. ``extract_pdf`` refuses it.
MAX_PAGE_CHARS = limits.REVIEW_MAX_PAGE_CHARS


def pdf_bytes(source: Path | bytes, name: str | None) -> tuple[bytes, str | None]:
    """The bytes of ``source`` (read from it where it is a path, which then names it unless ``name`` does)."""
    if not isinstance(source, Path):
        return source, name
    name = name or str(source)
    try:
        return source.read_bytes(), name
    except OSError as exc:
        raise PdfError(Path(name), f"cannot read {name}: {exc.strerror}", "check the file's permissions") from exc


def extract_pdf(source: Path | bytes, *, name: str | None = None, max_page_chars: int = MAX_PAGE_CHARS) -> Extraction:
    """Every page's text, or a ``PdfError`` saying what is wrong with the file and what to do.

    ``source`` is the file's bytes (as they were hashed: see ``review.pdf.fetch``) or a path to read
    them from; ``name`` is how messages call the file. pypdf's own log lines and warnings about
    damaged files are silenced: the error says it once.
    """
    import logging
    import warnings

    source, name = pdf_bytes(source, name)
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _extract(source, Path(name or "the PDF"), max_page_chars)
    finally:
        logger.setLevel(level)


_ENCRYPTED_HINT = ("save an unencrypted copy (print to PDF) and pass it with {pdf}; its hash will differ, so update "
                   "the source record only if that copy is the one to pin")


def _extract(data: bytes, path: Path, max_page_chars: int) -> Extraction:
    import pypdf

    _refuse_other_files(data, path)
    pages, created, unread = _pypdf_pages(data, path, max_page_chars)
    creation = creation_utc = None
    if created is not None:
        import datetime as dt

        creation = created.date().isoformat()
        aware = created if created.tzinfo else created.replace(tzinfo=dt.UTC)
        try:
            creation_utc = aware.astimezone(dt.UTC).date().isoformat()
        except OverflowError:  # a date at the end of the calendar, with a zone: its UTC day does not exist
            creation_utc = creation
    return Extraction(pages=tuple(pages), extractor=f"pypdf {pypdf.__version__}", creation_date=creation,
                      creation_date_utc=creation_utc, creation_date_unread=unread)


def _refuse_other_files(data: bytes, path: Path) -> None:
    """A ``PdfError`` for bytes that are no PDF: an HTML page, another file, an empty one, a truncated download."""
    kind = sniff(data[:1024])
    if kind == "html":
        raise PdfError(path, f"{path} is an HTML page, not a PDF",
                       "save the PDF itself (not the web page that links to it) and pass it with {pdf}")
    if kind != "pdf":
        shown = "is empty" if kind == "empty" else f"starts with {data[:16]!r}"
        raise PdfError(path, f"{path} is not a PDF: it {shown}", "pass the PDF file of the source with {pdf}")
    if b"%%EOF" not in data[-4096:] and b"%%EOF" not in data:
        raise PdfError(path, f"{path} is a truncated PDF: it has no end-of-file marker",
                       "download the PDF again; an interrupted download leaves such a file")


def _pypdf_pages(data: bytes, path: Path, max_page_chars: int
                 ) -> tuple[list[str], dt.datetime | None, str | None]:
    """Every page's text as pypdf extracts it, and the PDF's CreationDate; each way a PDF fails to read (damaged,
    encrypted, past a limit of the reader, without pages) a ``PdfError`` or ``ReviewLimitError`` that says so."""
    import io

    import pypdf
    from pypdf.errors import DependencyError, FileNotDecryptedError, LimitReachedError, PdfReadError, PyPdfError

    broken = (PdfReadError, PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError,
              AssertionError, RecursionError, OverflowError, ZeroDivisionError)
    corrupt_hint = "the file is damaged; download the PDF again, or check it opens in a PDF viewer"
    reader: pypdf.PdfReader | None = None
    try:
        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfError(path, f"{path} is an encrypted PDF that needs a password to open", _ENCRYPTED_HINT)
        pages = []
        for index, page in enumerate(reader.pages, start=1):
            try:
                text = page.extract_text() or ""
            except (DependencyError, NotImplementedError, FileNotDecryptedError, LimitReachedError):
                raise
            except broken as exc:
                raise PdfError(path, f"page {index} of {path} cannot be read: {type(exc).__name__}: "
                               f"{excerpt(str(exc), 200)[1:-1]}", corrupt_hint) from exc
            page_chars_checked(len(text), index, str(path), max_page_chars)
            pages.append(text)
        created, unread = _creation_date(reader)
    except (PdfError, ReviewLimitError):
        raise
    except LimitReachedError as exc:  # one of pypdf's own bounds (a 200,000-page PDF is valid): a limit, not damage
        raise ReviewLimitError(f"{path} goes past a limit of the PDF reader (pypdf: {excerpt(str(exc), 200)[1:-1]}): "
                               "the file may well be a sound PDF, larger or more deeply nested than the reader reads",
                               "pass a copy holding only the pages the records cite (print those pages to PDF)"
                               ) from exc
    except FileNotDecryptedError as exc:
        raise PdfError(path, f"{path} is an encrypted PDF that needs a password to open", _ENCRYPTED_HINT) from exc
    except DependencyError as exc:
        raise PdfError(path, f"{path} is encrypted with a cipher (AES) that needs the 'cryptography' package, "
                       "which is not installed", "install it (pip install cryptography), or pass a decrypted copy "
                       "with {pdf}") from exc
    except NotImplementedError as exc:
        what = "is encrypted in a way pypdf cannot decrypt" if reader is None or _encrypted(reader) else \
            "uses a PDF feature pypdf cannot read"
        raise PdfError(path, f"{path} {what} ({excerpt(str(exc), 120)[1:-1]})", _ENCRYPTED_HINT) from exc
    except broken as exc:
        raise PdfError(path, f"{path} is a corrupt PDF: {type(exc).__name__}: {excerpt(str(exc), 200)[1:-1]}",
                       corrupt_hint) from exc
    if not pages:
        raise PdfError(path, f"{path} is a PDF without pages", corrupt_hint)
    return pages, created, unread


def _creation_date(reader: pypdf.PdfReader) -> tuple[dt.datetime | None, str | None]:
    """The PDF's CreationDate as a datetime (None where it states none), and its text where it states one that is
    not a PDF date: the metadata describes the file and is never its content, so a field pypdf cannot parse leaves
    the date unknown and the document readable."""
    try:
        metadata = reader.metadata
        if metadata is None or metadata.get("/CreationDate") is None:
            return None, None
        return metadata.creation_date, None
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError) as exc:
        try:
            stated = reader.metadata.get("/CreationDate") if reader.metadata is not None else None
            return None, str(stated)[:100]
        except Exception:  # noqa: BLE001 - a metadata dictionary that cannot be read at all states no date
            return None, f"unreadable ({type(exc).__name__})"


def _encrypted(reader: object) -> bool:
    try:
        return bool(getattr(reader, "is_encrypted", False))
    except Exception:  # noqa: BLE001 - reading the flag is what failed
        return True


# -- normalization ----------------------------------------------------------------------------


# -- matching -------------------------------------------------------------------------------------


# -- numbers and units ----------------------------------------------------------------------------


