"""A limit of the PDF reader reached is said as a limit, never as damage (issue 36): a valid PDF of 100,001 pages
(its page tree's one array past pypdf's 100,000 elements) was called "a corrupt PDF: LimitReachedError"."""

from __future__ import annotations

from pathlib import Path

import pytest

from review.errors import ReviewLimitError
from review.pdf.pdftext import extract_pdf


def many_pages(path: Path, count: int) -> Path:
    """A sound PDF (a stand-in made for this test) of ``count`` empty pages, all children of one page tree node,
    written by hand with its cross-reference table (one object per page: fast at 100,001 pages)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Count %d /Kids [%s] >>" % (count, b" ".join(b"%d 0 R" % (3 + i)
                                                                             for i in range(count)))]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>"] * count
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def test_a_valid_pdf_past_the_readers_limit_is_a_limit_not_damage(tmp_path: Path) -> None:
    with pytest.raises(ReviewLimitError) as raised:  # a limit, never a PdfError ('corrupt PDF')
        extract_pdf(many_pages(tmp_path / "many.pdf", 100_001))
    said = str(raised.value)
    assert "goes past a limit of the PDF reader (pypdf: Reached maximum array element count.)" in said
    assert "corrupt" not in said and "damaged" not in said


def test_the_same_pdf_within_the_limit_is_read(tmp_path: Path) -> None:
    assert len(extract_pdf(many_pages(tmp_path / "few.pdf", 3)).pages) == 3
