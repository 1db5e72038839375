"""Write paper.pdf, a one-page synthetic test fixture drawn with fpdf2 (not LaTeX), for the registry's tests.

Usage: python make_pdf.py [OUTDIR]  (default: this folder). Every number in the PDF is invented, and the PDF says so.
Its table is drawn cell by cell with borders, so table extraction is tried on a PDF that no TeX engine made. The
bytes are reproducible for one fpdf2 and fontTools version and one DejaVu Sans file (truth.json names them): the
creation date is fixed and fpdf2's file /ID is a hash of the content.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

from fpdf import FPDF, FPDF_VERSION

CREATED = dt.datetime(2024, 6, 1, 0, 0, tzinfo=dt.UTC)
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF")
MINUS = "\u2212"

TITLE = "Synthetic Test Fixture: Tokenizers for a Small DNA Classifier"
FIXTURE_NOTE = ("SYNTHETIC TEST FIXTURE \u2014 INVENTED NUMBERS, NOT A REAL PUBLICATION. This page was drawn with fpdf2 "
                "for the registry's test suite; no experiment stands behind it.")
PARAGRAPHS = [
    ("We compare three tokenizers for one small DNA classifier on a promoter task, training each with 5 seeds. The "
     "6-mer tokenizer reaches 71.3% accuracy, and byte-pair encoding (BPE) is 1.2 percentage points lower."),
    ("All runs used one NVIDIA L4 GPU with 24 GB of memory. Throughput is measured at inference with a batch size of "
     "64."),
]
CAPTION = "Table 1: Accuracy and throughput of three tokenizers, mean \u00b1 s.d. over 5 seeds."
HEADER = ["Tokenizer", "Accuracy (%)", "\u0394 vs 6-mer (pp)", "Throughput (tokens/s)"]
ROWS = [
    ["6-mer", "71.3 \u00b1 0.4", "\u2014", "51,900"],
    ["BPE", "70.1 \u00b1 0.6", f"{MINUS}1.2", "48,200"],
    ["Character", "68.4 \u00b1 0.9", f"{MINUS}2.9", "95,750"],
]
NOTE = "\u0394 is the tokenizer's accuracy minus that of 6-mer; \u2014 marks the reference row."
WIDTHS = (34, 38, 40, 52)


def font_file(name: str) -> Path:
    for folder in FONT_DIRS:
        path = Path(folder) / name
        if path.is_file():
            return path
    raise SystemExit(f"{name} not found in {', '.join(FONT_DIRS)}: install DejaVu Sans (Debian: fonts-dejavu-core)")


def build() -> FPDF:
    pdf = FPDF(format="A4")
    pdf.set_creation_date(CREATED)
    pdf.set_title(TITLE)
    pdf.set_author("Registry test suite")
    pdf.set_subject("Test fixture with invented numbers; not a real publication")
    pdf.set_keywords("test fixture, synthetic, invented numbers")
    pdf.set_creator("make_pdf.py")
    pdf.set_producer(f"fpdf2 {FPDF_VERSION}")
    pdf.add_font("DejaVu", "", str(font_file("DejaVuSans.ttf")))
    pdf.add_font("DejaVu", "B", str(font_file("DejaVuSans-Bold.ttf")))
    pdf.set_margins(20, 20, 20)
    pdf.add_page()

    pdf.set_font("DejaVu", "B", 15)
    pdf.multi_cell(0, 8, TITLE, align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.set_font("DejaVu", "B", 9)
    pdf.multi_cell(0, 5, FIXTURE_NOTE, border=1, align="C", padding=2, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font("DejaVu", "", 10)
    for text in PARAGRAPHS:
        pdf.multi_cell(0, 5, text, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)

    pdf.ln(2)
    pdf.set_font("DejaVu", "B", 9)
    pdf.multi_cell(0, 5, CAPTION, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)
    for i, row in enumerate([HEADER, *ROWS]):
        pdf.set_font("DejaVu", "B" if i == 0 else "", 9)
        for j, (text, width) in enumerate(zip(row, WIDTHS, strict=True)):
            pdf.cell(width, 7, text, border=1, align="L" if j == 0 else "R")
        pdf.ln(7)
    pdf.ln(1)
    pdf.set_font("DejaVu", "", 8)
    pdf.multi_cell(0, 4, NOTE, new_x="LMARGIN", new_y="NEXT")
    return pdf


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    build().output(str(out / "paper.pdf"))


if __name__ == "__main__":
    main()
