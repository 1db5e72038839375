"""Getting the pinned PDF, and proving it is the pinned PDF.

The file comes from, in order: a path the user gives (``--pdf``), the local cache
(``<cache>/<sha256>.pdf``), or a download of the source's retrieval URL. Whatever the
origin, its SHA-256 must equal the one the source record pins; a file with another hash
is never accepted. The file is read once, into memory, and the bytes that were hashed are
the bytes that are parsed: a file swapped between hashing and parsing cannot give a review
whose hash is one file's and whose text is another's. A download streams to a temporary
file beside the cache entry, with a timeout and a size cap, over https only; it is renamed
into the cache only after its hash matched, and deleted otherwise (pooch's
``stream_download`` works the same way).
"""

from __future__ import annotations

import hashlib
import os
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from registry import limits
from registry.store.atomic import temporary_beside
from review.errors import BlockedDownloadError, FetchError, HashMismatchError

if TYPE_CHECKING:
    from registry.models import Source

DEFAULT_TIMEOUT_S = 60.0
#: Papers are a few megabytes; anything past this is not the PDF we want.
DEFAULT_MAX_BYTES = limits.REVIEW_MAX_PDF_BYTES
CACHE_ENV = "REGISTRY_CACHE_DIR"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
_CHUNK = 64 * 1024
_HEAD = 1024
#: Status codes with which hosts refuse scripted clients.
_REFUSALS = frozenset({401, 403, 406, 429, 451})


@dataclass(frozen=True)
class PdfArtifact:
    """The bytes of a file whose SHA-256 equals the source's pin, where they were read, and where they came from."""

    path: Path
    sha256: str
    data: bytes = field(repr=False, compare=False)
    """The file's content as it was read and hashed: what is parsed."""
    origin: str = "given"
    """'given' (--pdf), 'cache' or 'download'."""
    url: str | None = None
    cached_at: Path | None = None
    """Where a verified copy now lies in the cache, if it was put there."""

    def describe(self) -> str:
        if self.origin == "download":
            return f"downloaded from {self.url} into {self.path}"
        if self.origin == "cache":
            return f"the cached copy {self.path}"
        kept = f" (a copy is now cached at {self.cached_at})" if self.cached_at else ""
        return f"the file given to check, {self.path}{kept}"


def default_cache_dir() -> Path:
    """``$REGISTRY_CACHE_DIR``, or ``~/.cache/registry/pdfs``."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "registry" / "pdfs"


def cache_path(cache_dir: Path, sha256: str) -> Path:
    """Where the PDF with this SHA-256 lives in the cache (also where to put a hand-downloaded copy)."""
    return cache_dir / f"{sha256}.pdf"


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_pdf(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The whole file, read once (OSError if it cannot be; FetchError if it is larger than a paper can be).

    A file larger than ``max_bytes`` is refused before any of it is read (a sparse file of gigabytes costs
    nothing), and so is anything that is not a regular file (a FIFO would block the read)."""
    import os
    import stat

    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(descriptor, "rb") as handle:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise FetchError(f"{path} is not a regular file", "pass the PDF file itself with {pdf}")
        if status.st_size > max_bytes:
            raise FetchError(f"{path} is {status.st_size:,} bytes, larger than the {max_bytes:,} a paper's PDF can "
                             "be", "pass the PDF of the source with {pdf}")
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:  # it grew while it was read
        raise FetchError(f"{path} is larger than {max_bytes:,} bytes, more than a paper's PDF can be",
                         "pass the PDF of the source with {pdf}")
    return data


def sniff(head: bytes) -> str:
    """What the first bytes of a file look like: 'pdf', 'html', 'empty' or 'other'."""
    if not head.strip():
        return "empty"
    if b"%PDF-" in head[:_HEAD]:
        return "pdf"
    lowered = head[:_HEAD].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if lowered.startswith((b"<!doctype html", b"<html", b"<head", b"<body", b"<?xml")) or b"<html" in lowered:
        return "html"
    return "other"


def describe_content(head: bytes) -> str:
    """A phrase for what a file is, to add to a hash-mismatch message."""
    kind = sniff(head)
    if kind == "html":
        return "it is an HTML page, not a PDF (a login, error or 'blocked' page saved in its place?)"
    if kind == "empty":
        return "it is empty"
    if kind == "other":
        return f"it is not a PDF (it starts with {head[:16]!r})"
    return "it is a PDF, but another file or version than the one the source pins"


def acquire_pdf(
    source: Source,
    *,
    pdf: Path | None = None,
    cache_dir: Path | None = None,
    transport: Any = None,
    allow_http_loopback: bool = False,
    timeout: float = DEFAULT_TIMEOUT_S,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> PdfArtifact:
    """The source's pinned PDF as a verified local file: from ``pdf``, the cache, or a download."""
    cache_dir = cache_dir if cache_dir is not None else default_cache_dir()
    cached = cache_path(cache_dir, source.sha256)
    if pdf is not None:
        return _given(pdf, source, cached, max_bytes)
    if cached.is_file():
        return _from_cache(cached, source, max_bytes)
    if source.retrieval_url is None:
        raise FetchError(
            f"the source {source.id} names no retrieval URL, and its PDF is not in the cache ({cached})",
            f"pass the PDF with {{pdf}}, or save it as {cached}",
        )
    return download_pdf(
        source.retrieval_url,
        source.sha256,
        cached,
        transport=transport,
        allow_http_loopback=allow_http_loopback,
        timeout=timeout,
        max_bytes=max_bytes,
    )


def where_to_get(source: Source) -> str:
    """Where the pinned PDF can be had, in words: its retrieval URL, or what the source says instead."""
    if source.retrieval_url is not None:
        return f"the PDF from {source.retrieval_url} ({source.version_statement})"
    return f"the PDF the source pins ({source.version_statement}; the source names no retrieval URL)"


def _given(pdf: Path, source: Source, cached: Path, max_bytes: int) -> PdfArtifact:
    if not pdf.is_file():
        what = ("is a folder" if pdf.is_dir() else "is not a regular file (a device, pipe or socket)"
                if pdf.exists() else "does not exist")
        raise FetchError(f"{pdf} {what}", "pass the path of the downloaded PDF file with {pdf}")
    try:
        data = read_pdf(pdf, max_bytes)
    except OSError as exc:
        raise FetchError(f"cannot read {pdf}: {exc.strerror}", "check the file's permissions") from exc
    found = hashlib.sha256(data).hexdigest()
    if found != source.sha256:
        raise HashMismatchError(
            f"{pdf} is not the pinned source: expected SHA-256 {source.sha256}, found {found}; "
            f"{describe_content(data[:_HEAD])}",
            f"a file with another hash is never accepted as the source; get {where_to_get(source)} "
            f"and pass it with {{pdf}}, or save it as {cached}",
            expected=source.sha256,
            found=found,
        )
    kept = _copy_into_cache(data, cached)
    return PdfArtifact(path=pdf, sha256=found, data=data, origin="given", url=None, cached_at=kept)


def _copy_into_cache(data: bytes, cached: Path) -> Path | None:
    """Keep a verified copy (the bytes that were hashed) in the cache, so the next run needs no --pdf; best effort.

    A cached file with other bytes (damaged, or another file saved there by hand) is replaced: the
    cache is never trusted, and the next run without --pdf would only be refused by it again.
    """
    if cached.is_file() and _holds(cached, data):
        return None
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        with temporary_beside(cached) as tmp:
            tmp.write_bytes(data)
            os.replace(tmp, cached)
        return cached
    except OSError:
        return None


def _holds(path: Path, data: bytes) -> bool:
    """Whether the file at ``path`` has exactly the SHA-256 of ``data`` (False where it cannot be read)."""
    try:
        return sha256_file(path) == hashlib.sha256(data).hexdigest()
    except OSError:
        return False


def _from_cache(cached: Path, source: Source, max_bytes: int) -> PdfArtifact:
    try:
        data = read_pdf(cached, max_bytes)
    except OSError as exc:
        raise FetchError(f"cannot read the cached copy {cached}: {exc.strerror}",
                         "check its permissions, or pass the PDF with {pdf}") from exc
    found = hashlib.sha256(data).hexdigest()
    if found != source.sha256:
        raise HashMismatchError(
            f"the cached copy {cached} is not the pinned source: expected SHA-256 {source.sha256}, found {found}; "
            f"{describe_content(data[:_HEAD])}",
            f"a file with another hash is never accepted as the source; delete {cached} and run again, "
            f"or replace it with {where_to_get(source)}, or pass the right file with {{pdf}}",
            expected=source.sha256,
            found=found,
        )
    return PdfArtifact(path=cached, sha256=found, data=data, origin="cache", url=None)


def check_url(url: str, *, allow_http_loopback: bool = False) -> None:
    """Refuse anything but https (plain http only to this machine, and only when a caller allows it)."""
    parts = urlsplit(url)
    if parts.scheme == "https":
        return
    if parts.scheme == "http" and allow_http_loopback and (parts.hostname or "") in LOOPBACK_HOSTS:
        return
    raise FetchError(
        f"refusing to download {url}: only https downloads are allowed",
        "download the PDF by hand and pass it with {pdf} FILE",
    )


def download_pdf(
    url: str,
    expected_sha256: str,
    target: Path,
    *,
    transport: Any = None,
    allow_http_loopback: bool = False,
    timeout: float = DEFAULT_TIMEOUT_S,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> PdfArtifact:
    """Stream ``url`` to a temporary file beside ``target``, verify its SHA-256, then rename it to ``target``.

    ``transport`` is an httpx transport (tests pass a mock); ``allow_http_loopback`` lets
    tests serve the file over plain http from 127.0.0.1. The temporary file is always removed.
    """
    import httpx

    from review import __version__

    check_url(url, allow_http_loopback=allow_http_loopback)
    by_hand = (f"download it in a browser from {url} and save it as {target}, or pass it with {{pdf}} FILE; "
               f"its SHA-256 must be {expected_sha256}")
    cleanup = ExitStack()  # the temporary file goes, whatever happens
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = cleanup.enter_context(temporary_beside(target))
    except OSError as exc:
        raise FetchError(f"cannot write to the cache folder {target.parent}: {exc.strerror}",
                         "choose a writable folder with {cache_dir}") from exc
    digest = hashlib.sha256()
    received = bytearray()
    head = b""
    content_type = ""
    try:
        with open(tmp, "wb") as out:
            client = httpx.Client(transport=transport, timeout=timeout, follow_redirects=True,
                                  headers={"User-Agent": f"registry-review/{__version__}"})
            with client, client.stream("GET", url) as response:
                for hop in (*response.history, response):
                    check_url(str(hop.url), allow_http_loopback=allow_http_loopback)
                host = response.url.host or url
                if response.status_code in _REFUSALS:
                    raise BlockedDownloadError(
                        f"{host} refused the scripted download of {url} (HTTP {response.status_code}); "
                        "some hosts, OpenReview among them, block scripted retrieval",
                        by_hand,
                    )
                if response.status_code >= 400:
                    raise FetchError(f"{url} answered HTTP {response.status_code} {response.reason_phrase}",
                                     f"check the source's retrieval URL, or {by_hand}")
                content_type = response.headers.get("content-type", "")
                length = response.headers.get("content-length", "")
                if length.isdigit() and int(length) > max_bytes:
                    raise FetchError(f"{url} is {int(length):,} bytes, over the {max_bytes:,}-byte cap; "
                                     "nothing was kept", by_hand)
                size = 0
                for chunk in response.iter_bytes(_CHUNK):
                    size += len(chunk)
                    if size > max_bytes:
                        raise FetchError(f"{url} sent more than the {max_bytes:,}-byte cap; the partial "
                                         "download was deleted", by_hand)
                    if len(head) < _HEAD:
                        head += chunk[: _HEAD - len(head)]
                    digest.update(chunk)
                    received += chunk
                    out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        found = digest.hexdigest()
        if found != expected_sha256:
            if sniff(head) == "html" or "html" in content_type.lower():
                raise BlockedDownloadError(
                    f"{host} answered the scripted download of {url} with an HTML page instead of the PDF "
                    "(some hosts, OpenReview among them, block scripted retrieval); the page was deleted",
                    by_hand,
                )
            raise HashMismatchError(
                f"the download from {url} is not the pinned source: expected SHA-256 {expected_sha256}, "
                f"found {found}; {describe_content(head)}. The download was deleted",
                f"the host may now serve another version of the paper; {by_hand}",
                expected=expected_sha256,
                found=found,
            )
        os.replace(tmp, target)
    except httpx.TimeoutException as exc:
        raise FetchError(f"downloading {url} timed out after {timeout:g} s ({type(exc).__name__})",
                         f"try again later, or {by_hand}") from exc
    except httpx.HTTPError as exc:
        raise FetchError(f"cannot download {url}: {exc or type(exc).__name__}",
                         f"check the network connection, or {by_hand}") from exc
    except OSError as exc:
        raise FetchError(f"cannot write the download to {target.parent}: {exc.strerror}",
                         "choose a writable folder with {cache_dir}") from exc
    finally:
        cleanup.close()
    return PdfArtifact(path=target, sha256=found, data=bytes(received), origin="download", url=url)
