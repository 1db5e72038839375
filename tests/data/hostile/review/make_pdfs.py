"""Writes the hostile PDFs beside this file (run from the repository root: python tests/data/hostile/review/make_pdfs.py).

- ``huge-text.pdf``: one page whose text is one string of 50,000,000 characters, 49 KB on disk
  (its content stream is compressed), which once made normalizing and matching run for minutes;
- ``unknown-filter.pdf``: the source-like test PDF, encrypted, with its /Encrypt filter renamed
  to one no reader knows (pypdf raised NotImplementedError);
- ``aes256-no-password.pdf``: the source-like test PDF encrypted with AES-256 and an empty user
  password, as publishers protect papers (pypdf needs the 'cryptography' package to read it);
- ``aes256-password.pdf``: the same with a user password.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3]))

from tests.test_review_support import huge_text_pdf, source_like_pdf  # noqa: E402

HUGE_CHARS = 50_000_000


def encrypted_copy(source: Path, target: Path, *, algorithm: str, user_password: str) -> Path:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(source))
    writer.encrypt(user_password=user_password, owner_password="owner of the fixture", algorithm=algorithm)
    with target.open("wb") as handle:
        writer.write(handle)
    return target


def main() -> None:
    (HERE / "huge-text.pdf").write_bytes(huge_text_pdf(HUGE_CHARS))
    paper = source_like_pdf(HERE / "source-like.pdf")
    encrypted_copy(paper, HERE / "aes256-no-password.pdf", algorithm="AES-256", user_password="")
    encrypted_copy(paper, HERE / "aes256-password.pdf", algorithm="AES-256", user_password="secret")
    rc4 = encrypted_copy(paper, HERE / "unknown-filter.pdf", algorithm="RC4-128", user_password="")
    data = rc4.read_bytes()
    assert data.count(b"/Filter /Standard") == 1
    rc4.write_bytes(data.replace(b"/Filter /Standard", b"/Filter /Unknown1"))
    paper.unlink()


if __name__ == "__main__":
    main()
