"""Getting the pinned PDF: the order of origins, hash verification, and downloads that go wrong.

Nothing here reaches the network: real downloads come from an HTTP server on 127.0.0.1
(plain http is allowed only to loopback, and only through an explicit parameter), and
the https path runs on httpx's MockTransport.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from registry.cli.options import FLAGS
from registry.models import Source
from registry.validate.runner import validate
from review.errors import BlockedDownloadError, FetchError, HashMismatchError
from review.pdf.fetch import acquire_pdf, cache_path, check_url, default_cache_dir, download_pdf, sha256_file
from tests.conftest import SOURCE
from tests.test_review_support import build_pdf, fresh_records, pin, sha256_of

pytestmark = pytest.mark.pdf  # reads or renders PDFs (pdflatex, pdftotext, PDFium): left out of make test-fast

HTML = b"<!DOCTYPE html><html><head><title>OpenReview</title></head><body>Please enable JavaScript</body></html>"


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    return build_pdf(tmp_path / "paper.pdf", {6: ["the NT 2.5B checkpoint (33.88 -> 11.49 GB)"]})


class _Handler(http.server.BaseHTTPRequestHandler):
    routes: dict[str, tuple[int, str, bytes, bool]] = {}

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        status, content_type, body, with_length = self.routes.get(self.path, (404, "text/plain", b"not found", True))
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if with_length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # keep test output quiet
        pass


@pytest.fixture
def server(paper: Path) -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 in a thread; yields its base URL."""
    data = paper.read_bytes()

    class Handler(_Handler):
        routes = {
            "/paper.pdf": (200, "application/pdf", data, True),
            "/streamed.pdf": (200, "application/pdf", data, False),
            "/blocked": (200, "text/html; charset=utf-8", HTML, True),
            "/forbidden": (403, "text/html", HTML, True),
            "/gone": (500, "text/plain", b"oops", True),
        }

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.protocol_version = "HTTP/1.0"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


# -- real downloads from a local server ---------------------------------------------------------------

def test_a_download_is_verified_and_renamed_into_place(server: str, paper: Path, tmp_path: Path) -> None:
    target = tmp_path / "cache" / f"{sha256_of(paper)}.pdf"
    got = download_pdf(f"{server}/paper.pdf", sha256_of(paper), target, allow_http_loopback=True)
    assert got.origin == "download" and got.path == target and target.read_bytes() == paper.read_bytes()
    assert _leftovers(target.parent) == [target.name]


def test_a_hash_mismatch_deletes_the_download_and_names_both_hashes(server: str, paper: Path,
                                                                    tmp_path: Path) -> None:
    expected = "0" * 64
    target = tmp_path / "cache" / f"{expected}.pdf"
    with pytest.raises(HashMismatchError) as caught:
        download_pdf(f"{server}/paper.pdf", expected, target, allow_http_loopback=True)
    error = caught.value
    assert error.expected == expected and error.found == sha256_of(paper)
    assert f"expected SHA-256 {expected}, found {sha256_of(paper)}" in error.message
    assert "The download was deleted" in error.message and "another version" in (error.hint or "")
    assert _leftovers(target.parent) == []


def test_a_stream_without_length_is_capped(server: str, paper: Path, tmp_path: Path) -> None:
    target = tmp_path / "cache" / "x.pdf"
    with pytest.raises(FetchError, match="more than the 1,000-byte cap; the partial download was deleted"):
        download_pdf(f"{server}/streamed.pdf", sha256_of(paper), target, allow_http_loopback=True, max_bytes=1000)
    assert _leftovers(target.parent) == []


def test_a_declared_length_over_the_cap_is_refused(server: str, paper: Path, tmp_path: Path) -> None:
    target = tmp_path / "cache" / "x.pdf"
    with pytest.raises(FetchError, match="over the 1,000-byte cap"):
        download_pdf(f"{server}/paper.pdf", sha256_of(paper), target, allow_http_loopback=True, max_bytes=1000)
    assert _leftovers(target.parent) == []


@pytest.mark.parametrize(("route", "error", "message"), [
    ("/blocked", BlockedDownloadError, "with an HTML page instead of the PDF"),
    ("/forbidden", BlockedDownloadError, "refused the scripted download"),
    ("/gone", FetchError, "answered HTTP 500"),
])
def test_refusals_say_where_to_put_a_hand_download(server: str, paper: Path, tmp_path: Path, route: str,
                                                   error: type[Exception], message: str) -> None:
    target = tmp_path / "cache" / f"{sha256_of(paper)}.pdf"
    with pytest.raises(error, match=message) as caught:
        download_pdf(f"{server}{route}", sha256_of(paper), target, allow_http_loopback=True)
    _, hint = caught.value.worded(FLAGS)  # type: ignore[attr-defined]
    assert hint is not None and f"save it as {target}" in hint and "--pdf FILE" in hint
    assert _leftovers(target.parent) == []


def test_plain_http_is_refused_unless_explicitly_allowed_for_loopback(server: str, paper: Path,
                                                                      tmp_path: Path) -> None:
    with pytest.raises(FetchError, match="only https downloads are allowed"):
        download_pdf(f"{server}/paper.pdf", sha256_of(paper), tmp_path / "x.pdf")
    with pytest.raises(FetchError, match="only https"):
        check_url("http://example.org/paper.pdf", allow_http_loopback=True)
    with pytest.raises(FetchError, match="only https"):
        check_url("ftp://127.0.0.1/paper.pdf", allow_http_loopback=True)
    check_url("https://openreview.net/pdf?id=NUleWh1GFx")


# -- the https path, on a mock transport -----------------------------------------------------------

def test_https_download_through_a_mock_transport(paper: Path, tmp_path: Path) -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, headers={"Content-Type": "application/pdf"}, content=paper.read_bytes())

    target = tmp_path / "cache" / "p.pdf"
    got = download_pdf("https://papers.example/p.pdf", sha256_of(paper), target,
                       transport=httpx.MockTransport(handler))
    assert seen == ["https://papers.example/p.pdf"] and got.path.read_bytes() == paper.read_bytes()


def test_a_redirect_to_plain_http_is_refused(paper: Path, tmp_path: Path) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.scheme == "https":
            return httpx.Response(302, headers={"Location": "http://papers.example/p.pdf"})
        return httpx.Response(200, content=paper.read_bytes())

    with pytest.raises(FetchError, match="refusing to download http://papers.example/p.pdf"):
        download_pdf("https://papers.example/p.pdf", sha256_of(paper), tmp_path / "c" / "p.pdf",
                     transport=httpx.MockTransport(handler))
    assert _leftovers(tmp_path / "c") == []


@pytest.mark.parametrize(("exc", "message"), [
    (httpx.ReadTimeout("slow"), "timed out after 5 s"),
    (httpx.ConnectError("no route to host"), "cannot download https://papers.example/p.pdf: no route to host"),
])
def test_network_failures_are_messages(paper: Path, tmp_path: Path, exc: Exception, message: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc

    with pytest.raises(FetchError, match=message) as caught:
        download_pdf("https://papers.example/p.pdf", sha256_of(paper), tmp_path / "c" / "p.pdf",
                     transport=httpx.MockTransport(handler), timeout=5)
    assert "--pdf" in (caught.value.worded(FLAGS)[1] or "")
    assert _leftovers(tmp_path / "c") == []


# -- the order of origins ----------------------------------------------------------------------------

def _source(tmp_path: Path, paper: Path) -> Source:
    records = fresh_records(tmp_path)
    pin(records, paper)
    registry, report = validate(records)
    assert report.valid
    return registry.get_as(SOURCE, Source)


def _no_download(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"unexpected download of {request.url}")


def test_a_given_file_comes_first_and_is_cached(paper: Path, tmp_path: Path) -> None:
    source = _source(tmp_path, paper)
    cache = tmp_path / "cache"
    got = acquire_pdf(source, pdf=paper, cache_dir=cache, transport=httpx.MockTransport(_no_download))
    assert got.origin == "given" and got.path == paper
    assert got.cached_at == cache_path(cache, source.sha256) and sha256_file(got.cached_at) == source.sha256
    again = acquire_pdf(source, cache_dir=cache, transport=httpx.MockTransport(_no_download))
    assert again.origin == "cache" and again.path == got.cached_at


def test_without_a_file_or_cache_the_retrieval_url_is_downloaded(paper: Path, tmp_path: Path) -> None:
    source = _source(tmp_path, paper)
    asked: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        return httpx.Response(200, headers={"Content-Type": "application/pdf"}, content=paper.read_bytes())

    got = acquire_pdf(source, cache_dir=tmp_path / "cache", transport=httpx.MockTransport(handler))
    assert asked == [source.retrieval_url] and got.origin == "download"
    assert got.path == cache_path(tmp_path / "cache", source.sha256)


def test_the_openreview_block_page_says_where_to_put_the_pdf(paper: Path, tmp_path: Path) -> None:
    source = _source(tmp_path, paper)

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "text/html"}, content=HTML)

    with pytest.raises(BlockedDownloadError) as caught:
        acquire_pdf(source, cache_dir=tmp_path / "cache", transport=httpx.MockTransport(handler))
    assert "openreview.net answered the scripted download" in caught.value.message
    assert "OpenReview among them, block scripted retrieval" in caught.value.message
    assert str(cache_path(tmp_path / "cache", source.sha256)) in (caught.value.hint or "")
    assert _leftovers(tmp_path / "cache") == []


def test_a_given_file_with_another_hash_is_never_accepted(paper: Path, tmp_path: Path) -> None:
    source = _source(tmp_path, paper)
    cache = tmp_path / "cache"
    acquire_pdf(source, pdf=paper, cache_dir=cache)  # the right file is cached now
    other = build_pdf(tmp_path / "other.pdf", {6: ["something else"]})
    with pytest.raises(HashMismatchError, match=f"expected SHA-256 {source.sha256}, found {sha256_of(other)}") as c:
        acquire_pdf(source, pdf=other, cache_dir=cache)
    assert "another file or version" in c.value.message and "never accepted" in (c.value.hint or "")
    html = tmp_path / "saved.pdf"
    html.write_bytes(HTML)
    with pytest.raises(HashMismatchError, match="it is an HTML page, not a PDF"):
        acquire_pdf(source, pdf=html, cache_dir=cache)


def test_a_cached_file_with_another_hash_is_refused_and_kept(paper: Path, tmp_path: Path) -> None:
    source = _source(tmp_path, paper)
    cache = tmp_path / "cache"
    wrong = cache_path(cache, source.sha256)
    wrong.parent.mkdir(parents=True)
    wrong.write_bytes(HTML)
    with pytest.raises(HashMismatchError, match="the cached copy .* is not the pinned source") as caught:
        acquire_pdf(source, cache_dir=cache, transport=httpx.MockTransport(_no_download))
    assert f"delete {wrong}" in (caught.value.hint or "") and wrong.exists()


@pytest.mark.parametrize("make", ["missing", "folder"])
def test_a_given_path_that_is_no_file(paper: Path, tmp_path: Path, make: str) -> None:
    source = _source(tmp_path, paper)
    path = tmp_path / "nothing.pdf"
    if make == "folder":
        path.mkdir()
    with pytest.raises(FetchError, match="does not exist" if make == "missing" else "is a folder"):
        acquire_pdf(source, pdf=path, cache_dir=tmp_path / "cache")


def test_the_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("REGISTRY_CACHE_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / ".cache" / "registry" / "pdfs"
    monkeypatch.setenv("REGISTRY_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert default_cache_dir() == tmp_path / "elsewhere"
    assert cache_path(tmp_path, "ab" * 32) == tmp_path / f"{'ab' * 32}.pdf"
