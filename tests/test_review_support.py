"""Helpers for the review tests (no tests here): PDFs built at test time, and records that pin them.

The real paper cannot be downloaded in a test, so the tests write their own PDFs with fpdf2
and rewrite a private copy of the records so that the source pins the generated file's
SHA-256 (and the existing reviews name that hash, as the registry requires). The text
around the quote is made-up filler: only the quote and the heading are the paper's words.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import shutil
import subprocess
import zlib
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import BUNDLED_RECORDS, SOURCE

pytestmark = pytest.mark.pdf  # reads or renders PDFs (pdflatex, pdftotext, PDFium): left out of make test-fast

HEADING = "Published as a workshop paper at ICLR 2026"
QUOTE = "the NT 2.5B checkpoint (33.88 \u2192 11.49 GB)"
CREATED = dt.datetime(2026, 3, 9, 12, 0, tzinfo=dt.UTC)
PINNED_SHA256 = "4bc2452110f280a7ba8baa4c7c28beac89769511019666bc77fc33af9b3bcd60"

#: Page 6 as a typeset paper extracts: the quote broken across lines and hyphenated at a line end,
#: a real hyphen at a line end ('Stage-2'), a non-breaking space, a ligature and a minus sign.
SOURCE_PAGE = [
    "ZeRO offload. Moving optimizer states to the CPU with DeepSpeed ZeRO Stage-",
    "2 offload lowers the peak further, most of all for",
    "the NT\u00a02.5B check-",
    "point (33.88 \u2192 11.49 GB), at the cost of a slower and less e\ufb03cient",
    "step (\u22121.2 samples per second).",
]
FILLER = ["Filler text for a page of a generated test PDF.", "It quotes nothing a record cites."]
UNICODE_CHARS = "\u2192\u2212\ufb03\u00a0"

FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/Library/Fonts/DejaVuSans.ttf",
)


def _has_glyphs(path: Path) -> bool:
    try:
        from fontTools.ttLib import TTFont

        cmap = TTFont(str(path), lazy=True).getBestCmap() or {}
    except Exception:  # noqa: BLE001 - any unreadable font is simply not used
        return False
    return all(ord(c) in cmap for c in UNICODE_CHARS)


@cache
def unicode_font() -> Path | None:
    """A TrueType font on this machine with '→', '−', 'ﬃ' and NBSP, for PDFs that print them; None if none."""
    candidates = [Path(p) for p in FONT_CANDIDATES]
    if shutil.which("fc-match"):
        done = subprocess.run(["fc-match", "--format=%{file}", "DejaVu Sans:charset=2192 2212 fb03"],
                              capture_output=True, text=True, check=False)
        if done.returncode == 0 and done.stdout.strip():
            candidates.insert(0, Path(done.stdout.strip()))
    return next((p for p in candidates if p.is_file() and p.suffix.lower() == ".ttf" and _has_glyphs(p)), None)


def needs_unicode_font() -> Path:
    """The font, or skip: without one fpdf2 cannot print the arrow, the minus sign or the ligature."""
    font = unicode_font()
    if font is None:
        pytest.skip("no TrueType font with '\u2192', '\u2212' and '\ufb03' on this machine (install fonts-dejavu-core)")
    return font


def _latin1(line: str) -> str:
    """What a core PDF font can print: '→' as '->', the ligature spelled out, '−' as '-'."""
    return line.replace("\u2192", "->").replace("\ufb03", "ffi").replace("\u2212", "-")


def as_printed(text: str) -> str:
    """``text`` as ``build_pdf`` prints it by default: unchanged with a Unicode font, '→' as '->' without."""
    return text if unicode_font() is not None else _latin1(text)


def build_pdf(path: Path, pages: dict[int, list[str]], *, page_count: int = 11, heading: str = HEADING,
              created: dt.datetime | None = CREATED, font: Path | None | str = "auto") -> Path:
    """A PDF of ``page_count`` pages, each headed ``heading``, with ``pages[n]`` as the lines of page n.

    Lines are placed one by one, so text extraction breaks lines exactly where they break here.
    With ``font='auto'`` a Unicode font is used where one exists; without one, the text is
    printed in Helvetica with '→' as '->' (which the checker reads as '→').
    """
    from fpdf import FPDF

    chosen = unicode_font() if font == "auto" else font
    pdf = FPDF(unit="pt", format="A4")
    pdf.set_auto_page_break(False)
    if created is not None:
        pdf.set_creation_date(created)
    if isinstance(chosen, Path):
        pdf.add_font("Body", "", str(chosen))
        pdf.set_font("Body", size=10)
    else:
        pdf.set_font("Helvetica", size=10)
    for number in range(1, page_count + 1):
        pdf.add_page()
        lines = [heading, *pages.get(number, FILLER), str(number)]
        for index, line in enumerate(lines):
            text = line if isinstance(chosen, Path) else _latin1(line)
            pdf.text(72, 72 + 14 * index, text)
    path.write_bytes(bytes(pdf.output()))
    return path


def source_like_pdf(path: Path, *, value: str = "33.88", page: int = 6, **options: object) -> Path:
    """The source as the records cite it: the quote on ``page`` (6), with ``value`` where 33.88 is printed."""
    lines = [line.replace("33.88", value) for line in SOURCE_PAGE]
    return build_pdf(path, {page: lines}, **options)  # type: ignore[arg-type]


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pin(records: Path, artifact: Path) -> str:
    """Make the records' source pin ``artifact``: its SHA-256 replaces the pinned one wherever it is named.

    The source's ``sha256`` and the reviews' ``artifact_sha256`` change together, so the registry
    stays valid (a review of another file than the source pins is an error); nothing else changes.
    """
    digest = sha256_of(artifact)
    for path in [*(records / "source").glob("*.yaml"), *(records / "review").glob("*.yaml")]:
        text = path.read_text(encoding="utf-8")
        if PINNED_SHA256 in text:
            path.write_text(text.replace(PINNED_SHA256, digest), encoding="utf-8")
    assert f"sha256: {digest}" in (records / "source" / f"{SOURCE}.yaml").read_text()
    return digest


def fresh_records(tmp_path: Path) -> Path:
    target = tmp_path / "records"
    shutil.copytree(BUNDLED_RECORDS, target)
    return target


def corrupt(pdf: Path, target: Path) -> Path:
    """A PDF whose body is overwritten with garbage, keeping its header and end-of-file marker."""
    data = bytearray(pdf.read_bytes())
    for index in range(16, len(data) - 64):
        data[index] = (index * 7 + 13) % 256
    target.write_bytes(bytes(data))
    return target


def truncated(pdf: Path, target: Path) -> Path:
    data = pdf.read_bytes()
    target.write_bytes(data[: len(data) // 2])
    return target


def encrypted(pdf: Path, target: Path, password: str = "secret") -> Path:
    """The same PDF, encrypted (RC4, which pypdf can write without extra packages) with a user password."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(pdf))
    writer.encrypt(user_password=password, owner_password="owner", algorithm="RC4-128")
    with target.open("wb") as handle:
        writer.write(handle)
    return target


def huge_text_pdf(chars: int) -> bytes:
    """A one-page PDF whose page text is one string of ``chars`` characters, saying it is a test fixture."""
    lead = b"This is a test fixture of the registry: one string of %d characters. " % chars
    text = lead + b"x" * (chars - len(lead))
    return one_page_pdf(b"BT /F1 12 Tf 72 720 Td (" + text + b") Tj ET")


def grid_pdf(rows: int, columns: int) -> bytes:
    """A one-page PDF of one table: a caption saying it is a test fixture, a header row and ``rows`` rows of
    ``columns`` numbers (300 by 300 is the hostile page of issue 36, on which pdftotext ran for minutes)."""
    width, height = 40 * (columns + 2), 12 * (rows + 6)
    parts = [b"BT /F1 9 Tf 40 %d Td (Table 1: A grid of %d by %d numbers, a test fixture of the registry) Tj ET"
             % (height - 30, rows, columns)]
    top = height - 60
    parts += [b"BT /F1 7 Tf %d %d Td (C%d) Tj ET" % (80 + 40 * c, top, c + 1) for c in range(columns)]
    for r in range(rows):
        y = top - 12 * (r + 1)
        parts.append(b"BT /F1 7 Tf 20 %d Td (Row %d) Tj ET" % (y, r + 1))
        parts += [b"BT /F1 7 Tf %d %d Td (%d.%d) Tj ET" % (80 + 40 * c, y, (r * 7 + c) % 100, (r + c) % 10)
                  for c in range(columns)]
    return one_page_pdf(b"\n".join(parts), (width, height))


def many_pages_pdf(count: int) -> bytes:
    """A PDF of ``count`` empty pages, each a page object of its own under one page tree node (a valid file:
    issue 36's 200,000 pages that the review called corrupt, its 1,000,000 pages that grew memory)."""
    out = bytearray(b"%PDF-1.4\n% a test fixture of the registry: empty pages\n")
    offsets = []

    def written(body: bytes) -> None:
        offsets.append(len(out))
        out.extend(b"%d 0 obj\n" % len(offsets) + body + b"\nendobj\n")

    written(b"<< /Type /Catalog /Pages 2 0 R >>")
    written(b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (3 + i) for i in range(count))
            + b"] /Count %d /MediaBox [0 0 612 792] >>" % count)
    for _ in range(count):
        written(b"<< /Type /Page /Parent 2 0 R >>")
    xref = len(out)
    out.extend(b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1))
    out.extend(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    out.extend(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, xref))
    return bytes(out)


def one_page_pdf(content: bytes, size: tuple[int, int] = (612, 792)) -> bytes:
    """A one-page PDF drawing ``content`` (a content stream, compressed here) in Helvetica."""
    content = zlib.compress(content, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>" % size,
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
