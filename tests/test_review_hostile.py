"""`registry review` against hostile PDFs and a hostile cache: each gets its own message, within its limits.

The PDFs are data files under tests/data/hostile/review (``make_pdfs.py`` there writes them);
each test pins its PDF in a private copy of the records, as a source that pins such a file would.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import DATA, RESULT_11
from tests.test_review_support import fresh_records, huge_text_pdf, pin, source_like_pdf

pytestmark = pytest.mark.pdf  # reads or renders PDFs (pdflatex, pdftotext, PDFium): left out of make test-fast

HOSTILE = DATA / "hostile" / "review"


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: httpx.HTTPTransport, request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"a test tried to download {request.url}")

    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", refuse)
    monkeypatch.delenv("REGISTRY_CACHE_DIR", raising=False)


def review(cli, tmp_path: Path, pdf: Path, *options: object):  # type: ignore[no-untyped-def]
    records = fresh_records(tmp_path)
    pin(records, pdf)
    return cli("review", RESULT_11, "--pdf", pdf, "--records", records, "--cache-dir", tmp_path / "cache", *options)


def one_line(output: str) -> str:
    return " ".join(output.split())


def test_a_page_of_more_text_than_a_paper_holds_is_refused(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A million characters in one string (huge-text.pdf holds fifty million: the limits of time and memory stop
    reading it before its page could be refused, see below)."""
    pdf = tmp_path / "million.pdf"
    pdf.write_bytes(huge_text_pdf(1_000_000))
    result = review(cli, tmp_path, pdf)
    assert result.exit_code == 1
    out = one_line(result.output)
    assert "page 1 of" in out and "holds 1,000,000 characters of text, more than the 100,000 a page is allowed" in out
    assert "allow more with --max-page-chars" in out
    allowed = review(cli, tmp_path / "more", pdf, "--max-page-chars", "2000000")
    assert "characters of text" not in allowed.output and "FAIL" in allowed.output, "read, then its claims fail"


def test_the_whole_review_has_a_time_limit(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    started = time.monotonic()
    result = review(cli, tmp_path, HOSTILE / "huge-text.pdf", "--timeout", "3")
    assert time.monotonic() - started < 30
    assert result.exit_code == 1
    out = one_line(result.output)
    assert "the review ran longer than 3 s (reading the PDF's text and checking its claims) and was stopped" in out
    assert "allow more time with --timeout SECONDS" in out


def test_the_whole_review_has_a_memory_limit(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = review(cli, tmp_path, HOSTILE / "huge-text.pdf", "--max-memory", "300")
    assert result.exit_code == 1
    out = one_line(result.output)
    assert "needed more than 300 MB of memory and was stopped" in out and "--max-memory MB" in out


@pytest.mark.parametrize(("name", "fragment"), [
    ("unknown-filter.pdf", "is encrypted in a way pypdf cannot decrypt (only Standard PDF encryption handler"),
    ("aes256-password.pdf", "is an encrypted PDF that needs a password to open"),
])
def test_encrypted_pdfs_say_so(cli, tmp_path: Path, name: str, fragment: str) -> None:  # type: ignore[no-untyped-def]
    result = review(cli, tmp_path, HOSTILE / name)
    assert result.exit_code == 1
    out = one_line(result.output)
    assert fragment in out and "save an unencrypted copy" in out and "unexpected" not in out


def test_an_aes_encrypted_paper_without_a_password_is_read(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Publishers often encrypt papers with an empty password; with 'cryptography' (a dependency) they read."""
    result = review(cli, tmp_path, HOSTILE / "aes256-no-password.pdf")
    assert result.exit_code == 0, result.output
    assert "All 9 assertions passed." in result.output


def test_without_cryptography_aes_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from pypdf.errors import DependencyError

    from review.errors import PdfError
    from review.pdf.pdftext import extract_pdf

    def missing(*args: object, **kwargs: object) -> bytes:
        raise DependencyError("cryptography>=3.1 is required for AES algorithm")

    import pypdf._encryption as encryption

    monkeypatch.setattr(encryption, "aes_cbc_decrypt", missing)
    monkeypatch.setattr(encryption, "aes_ecb_decrypt", missing)
    with pytest.raises(PdfError, match="needs the 'cryptography' package, which is not installed") as caught:
        extract_pdf(HOSTILE / "aes256-no-password.pdf")
    assert "pip install cryptography" in (caught.value.hint or "")


def test_the_bytes_checked_are_the_bytes_hashed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file swapped for another right after it was read and hashed: the review still checks what was hashed."""
    from registry.checking.review import run_review
    from registry.validate.runner import validate
    from review.pdf import fetch

    paper = source_like_pdf(tmp_path / "paper.pdf")
    other = source_like_pdf(tmp_path / "other.pdf", value="44.44")
    records = fresh_records(tmp_path)
    pin(records, paper)
    registry, _ = validate(records)
    real = fetch.read_pdf

    def read_then_swap(path: Path, max_bytes: int = fetch.DEFAULT_MAX_BYTES) -> bytes:
        data = real(path, max_bytes)
        path.write_bytes(other.read_bytes())  # the swap the audit made between hashing and parsing
        return data

    monkeypatch.setattr(fetch, "read_pdf", read_then_swap)
    run = run_review(registry, RESULT_11, pdf=paper, cache_dir=tmp_path / "cache")
    assert run.pdf.sha256 == hashlib.sha256(run.pdf.data).hexdigest() != hashlib.sha256(paper.read_bytes()).hexdigest()
    assert run.passed, [a for a in run.failures]
    assert "33.88" in run.extraction.pages[5] and "44.44" not in run.extraction.text
    cached = tmp_path / "cache" / f"{run.pdf.sha256}.pdf"
    assert hashlib.sha256(cached.read_bytes()).hexdigest() == run.pdf.sha256, "the cache holds what was hashed"


def test_a_planted_text_in_the_cache_is_replaced(tmp_path: Path) -> None:
    from registry.checking.review import run_review
    from registry.validate.runner import validate

    paper = source_like_pdf(tmp_path / "paper.pdf")
    records = fresh_records(tmp_path)
    pin(records, paper)
    registry, _ = validate(records)
    cache = tmp_path / "cache"
    first = run_review(registry, RESULT_11, pdf=paper, cache_dir=cache)
    assert first.text_path is not None
    first.text_path.write_text("planted: not the text of this PDF", encoding="utf-8")
    again = run_review(registry, RESULT_11, pdf=paper, cache_dir=cache)
    assert again.text_path == first.text_path
    assert hashlib.sha256(again.text_path.read_bytes()).hexdigest() == again.extraction.sha256
    assert not [p for p in cache.iterdir() if p.name.startswith(".")], "no temporary file is left"


def test_finding_the_closest_text_is_linear() -> None:
    """The closest passage to a quote on a page of 100,000 characters, in one pass (it was one pass per window)."""
    from review.pdf.pdftext import closest_text

    page = ("lorem ipsum dolor sit amet " * 4000)[:99_000] + " the NT 2.5B checkpoint (33.8 -> 11.49 GB) " + "x" * 900
    started = time.monotonic()
    found = closest_text(page, "the NT 2.5B checkpoint (33.88 -> 11.49 GB)")
    assert time.monotonic() - started < 30
    assert found is not None and "checkpoint (33.8" in found[0] and found[1] > 0.9
