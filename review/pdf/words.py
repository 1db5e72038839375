"""Positioned text: the words of a page with their boxes, grouped into lines, as the table-cell check reads them.

Two extractors give words with boxes, independently of each other and of pypdf's text:

- PDFium (``pypdfium2``), the primary: characters with their boxes, their rotation angle and
  their font weight, joined into words at the spaces PDFium generates between them;
- poppler (``pdftotext -bbox-layout``, in ``review.pdf.poppler``), the second opinion: words with
  boxes inside poppler's own lines, a rotated line being tall and narrow.

Coordinates are PDF points measured from the top-left corner of the page (``top`` grows downward),
as poppler gives them; PDFium's bottom-up boxes are turned over. Nothing here knows a table:
``review.tables`` reads tables from these words.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from dataclasses import dataclass

from registry.numbers import FIGURES, MINUS_SIGNS, SIGN
from review.pdf.drawn import page_grids
from review.pdf.structtree import TaggedTable, page_tables

#: Characters PDFium or poppler may print for a minus sign, read as '-' when comparing text.
_MINUS = str.maketrans({**dict.fromkeys(MINUS_SIGNS + "\u2010\u2011", "-"), "\u2019": "'", "\u2018": "'"})
#: PDFium gives a hyphen printed at a line's end as U+FFFE (and joins the lines' words); read as the '-' it prints,
#: ending its word, as poppler gives it.
_SOFT_BREAK = "\ufffe"
#: Digits set raised and smaller after a number ('10⁴', '2.10³'), given as the Unicode superscripts they print.
SUPERSCRIPTS = str.maketrans("0123456789-\u2212+", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
                             "\u207b\u207b\u207a")
#: A superscript is at most this share of its number's digits' height, and its foot is raised by at least
#: ``RAISED`` of that height.
SMALLER = 0.85
RAISED = 0.2
#: A sign is a superscript's where its foot stands this high on the digits' height: a minus or a hyphen on the
#: line is small and off the baseline too ('3e-5'), but under the digits' middle.
SIGN_RAISED = 0.5
#: Radians: a slant up to this is an oblique face, not a turned word (oblique faces lean 10-20 degrees; a turned
#: header is set at 45 degrees or more).
OBLIQUE = 0.4
#: A weight from this on is bold (the OpenType scale: 400 regular, 700 bold).
BOLD_WEIGHT = 600


@functools.lru_cache(maxsize=16384)
def squeezed(text: str) -> str:
    """``text`` for comparing printed words: compatibility forms (ligatures), one minus sign, no spaces at all.

    Table text comes out with spaces in other places than a curator types them ('0.681±0.019',
    '0.681 ± 0.019', '0.681± 0.019'): comparing without spaces is the one reading every extractor agrees on.
    """
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).translate(_MINUS))


@dataclass(frozen=True)
class Word:
    """One word on a page and its box (points from the top-left corner)."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    bold: bool = False
    rotated: bool = False
    """Printed turned by a quarter (a rotated column header): its box is tall and narrow."""

    @property
    def centre(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass(frozen=True)
class PageWords:
    """Every word of one page, in the order the extractor gave them."""

    number: int
    width: float
    height: float
    words: tuple[Word, ...]
    tagged: tuple[TaggedTable, ...] = ()
    """The tables the PDF's structure tree states on this page (``review.pdf.structtree``); empty where it has none."""
    ruled: tuple[TaggedTable, ...] = ()
    """The grids the page's drawn rules enclose (``review.pdf.drawn``); empty where it draws none."""


@dataclass(frozen=True)
class Line:
    """Horizontal words that share a line, left to right."""

    words: tuple[Word, ...]

    @property
    def top(self) -> float:
        return min(w.top for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w.bottom for w in self.words)

    @property
    def x0(self) -> float:
        return self.words[0].x0

    @property
    def x1(self) -> float:
        return max(w.x1 for w in self.words)

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    def within(self, lo: float, hi: float) -> Line | None:
        """The part of the line whose words start between ``lo`` and ``hi`` (one column of a page), if any."""
        kept = tuple(w for w in self.words if lo <= w.x0 < hi)
        return Line(kept) if kept else None


def lines_of(words: tuple[Word, ...] | list[Word]) -> list[Line]:
    """Horizontal words grouped into lines, top to bottom.

    Words join a line when their boxes overlap vertically by 40% of the smaller one, not when their
    centres agree: a '±', a raised '†' and a superscript have boxes of their own height, and must stay
    on the line of the number they belong to. Rotated words belong to no line.
    """
    lines: list[list[Word]] = []
    spans: list[tuple[float, float]] = []
    for word in sorted((w for w in words if not w.rotated), key=lambda w: (w.bottom, w.x0)):
        if lines:
            top, bottom = spans[-1]
            overlap = min(bottom, word.bottom) - max(top, word.top)
            if overlap > 0.4 * min(bottom - top, word.bottom - word.top):
                lines[-1].append(word)
                spans[-1] = (min(top, word.top), max(bottom, word.bottom))
                continue
        lines.append([word])
        spans.append((word.top, word.bottom))
    return [Line(_superscripts(sorted(line, key=lambda w: w.x0))) for line in lines]


def _superscripts(words: list[Word]) -> tuple[Word, ...]:
    """A line's words with each superscript number glued to the number it follows, as the page prints it: an
    extractor that gives the raised, smaller digits a word of their own ('10' '4') would read a power of ten as
    two cells, or one glued into another number ('2.10' '3' as 2.103)."""
    out: list[Word] = []
    for word in words:
        last = out[-1] if out else None
        if last is None or word.height >= SMALLER * last.height or word.bottom >= last.bottom - RAISED * last.height:
            out.append(word)  # not raised over a word before it
        elif _SUPERSCRIPT_TEXT.match(word.text) and last.text[-1:].isdigit() and word.x0 - last.x1 < 1.0:
            out[-1] = Word(last.text + word.text.translate(SUPERSCRIPTS), last.x0, min(last.top, word.top),
                           max(last.x1, word.x1), last.bottom, last.bold, last.rotated)
        elif (_ANNOTATION_TEXT.match(word.text) and _VALUE_END.search(last.text)
              and word.x0 - last.x1 < ANNOTATION_GAP * last.height):
            out[-1] = Word(f"{last.text}{ANNOTATION[0]}{word.text}{ANNOTATION[1]}", last.x0, min(last.top, word.top),
                           max(last.x1, word.x1), last.bottom, last.bold, last.rotated)
        else:
            out.append(word)
    return tuple(out)


_SIGNS = frozenset("+-" + MINUS_SIGNS)
_SUPERSCRIPT_TEXT = re.compile(rf"^{SIGN}?\d{{1,3}}$")
#: A raised, smaller number set after a value that is no power of ten ('+10.8%', '−42.3%', '(+2.1)' printed as a
#: superscript: a relative change, a difference to a baseline) annotates the value: it is glued to the value's
#: word between these brackets, so that no reader takes it for a cell of its own, nor its sign for a subtraction.
ANNOTATION = ("\u27e8", "\u27e9")
_ANNOTATION_TEXT = re.compile(rf"^[(\[]?{SIGN}?{FIGURES}%?[)\]]?$")
_VALUE_END = re.compile(r"\d%?[*\u2020\u2021\u00a7]*$")
#: An annotation is set at most this share of its value's height after it (a browser's or word processor's space).
ANNOTATION_GAP = 0.6


# -- PDFium ---------------------------------------------------------------------------------------


def pdfium_words(data: bytes) -> tuple[PageWords, ...]:
    """Every page's words from PDFium: characters joined at spaces and line breaks, with weight and rotation."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(data)
    try:
        pages = []
        for index in range(len(document)):
            page = document[index]
            try:
                textpage = page.get_textpage()
                try:
                    height = float(page.get_height())
                    pages.append(PageWords(index + 1, float(page.get_width()), height,
                                           tuple(_page_words(textpage, raw, height)),
                                           page_tables(document, page, textpage, height),
                                           page_grids(page, height)))
                finally:
                    textpage.close()
            finally:
                page.close()
        return tuple(pages)
    finally:
        document.close()


def pdfium_tagged(document: object, numbers: range) -> dict[int, tuple[TaggedTable, ...]]:
    """The tagged tables of the pages ``numbers`` (from 1) of an open PDFium document, where they hold any: read
    from the document itself, since a copy of its pages leaves its structure tree behind."""
    found = {}
    for number in numbers:
        page = document[number - 1]  # type: ignore[index]
        try:
            textpage = page.get_textpage()
            try:
                tables = page_tables(document, page, textpage, float(page.get_height()))
            finally:
                textpage.close()
        finally:
            page.close()
        if tables:
            found[number] = tables
    return found


def with_tags(pages: tuple[PageWords, ...], tagged: tuple[PageWords, ...]) -> tuple[PageWords, ...]:
    """``pages`` (another extractor's words) with the tagged tables ``tagged`` (PDFium's pages) read on the same
    page: the structure tree is the PDF's, whichever extractor reads the words in its cells."""
    import dataclasses

    tables = {page.number: page for page in tagged if page.tagged or page.ruled}
    return tuple(dataclasses.replace(page, tagged=tables[page.number].tagged, ruled=tables[page.number].ruled)
                 if page.number in tables else page for page in pages)


def _page_words(textpage: object, raw: object, height: float) -> list[Word]:
    count = textpage.count_chars()  # type: ignore[attr-defined]
    handle = textpage.raw  # type: ignore[attr-defined]
    whole = textpage.get_text_range(0, count) if count else ""  # type: ignore[attr-defined]
    # a character PDFium counts but prints as more or fewer (one outside the BMP, as its two halves): one by one
    text: list[str | None] | str = whole if len(whole) == count else _char_texts(textpage, raw, handle, count)
    words: list[Word] = []
    chars: list[tuple[str, tuple[float, float, float, float], bool, bool]] = []

    def flush() -> None:
        if chars:
            boxes = [box for _, box, _, _ in chars]
            words.append(Word(
                "".join(c for c, _, _, _ in chars),
                min(b[0] for b in boxes), height - max(b[3] for b in boxes),
                max(b[2] for b in boxes), height - min(b[1] for b in boxes),
                bold=_bold(chars),
                rotated=chars[0][3],
            ))
            chars.clear()

    for i, char in enumerate(text):
        if char is None:  # the second half of a character read whole at its first
            continue
        if char.isspace() or not char:
            flush()
            continue
        box = textpage.get_charbox(i)  # type: ignore[attr-defined]
        if ord(char) > 0xFFFF and chars and chars[-1][0] == char and chars[-1][1] == tuple(box):
            continue  # a math letter twice at one glyph's spot: its text given twice (Word's math), not a ligature's
            # letters ('ff' from 'ﬀ', two letters at one box, which are the letters printed)
        angle = raw.FPDFText_GetCharAngle(handle, i)  # type: ignore[attr-defined]
        rotated = _quarter_turned(angle)
        if chars and chars[-1][3] != rotated:
            flush()
        bold = raw.FPDFText_GetFontWeight(handle, i) >= BOLD_WEIGHT  # type: ignore[attr-defined]
        if char in _SIGNS and not rotated and _raised(tuple(box), chars, SIGN_RAISED):  # type: ignore[arg-type]
            flush()  # a raised sign starts a superscript of its own ('10⁻³', an annotation '+10.8%')
        elif char.isdigit() and not rotated and _raised(tuple(box), chars):  # type: ignore[arg-type]
            char = char.translate(SUPERSCRIPTS)
        if char == _SOFT_BREAK:  # the hyphen printed at the line's end, which ends the word there
            chars.append(("-", tuple(box), bold, rotated))  # type: ignore[arg-type]
            flush()
            continue
        chars.append((char, tuple(box), bold, rotated))  # type: ignore[arg-type]
    flush()
    return words


def _char_texts(textpage: object, raw: object, handle: object, count: int) -> list[str | None]:
    """Each character's text, one by one: a character outside the Basic Multilingual Plane (a math letter '𝐼'),
    which PDFium counts as its two UTF-16 halves, whole at its first half and None at its second (read alone, each
    half is lost); every other as PDFium's text gives it (a space where it gives none)."""
    codes = [raw.FPDFText_GetUnicode(handle, i) for i in range(count)]  # type: ignore[attr-defined]
    texts: list[str | None] = []
    for i, code in enumerate(codes):
        low = codes[i + 1] if i + 1 < count else 0
        if 0xD800 <= code < 0xDC00 and 0xDC00 <= low < 0xE000:
            texts.append(chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)))
        elif 0xDC00 <= code < 0xE000 and i and 0xD800 <= codes[i - 1] < 0xDC00:
            texts.append(None)
        elif 0xD800 <= code < 0xE000:
            texts.append(" ")  # a half alone
        else:
            texts.append((textpage.get_text_range(i, 1) or " ")[:1])  # type: ignore[attr-defined]
    return texts


def _raised(box: tuple[float, float, float, float],
            chars: list[tuple[str, tuple[float, float, float, float], bool, bool]], raised: float = RAISED) -> bool:
    """Whether a digit is a superscript of the number before it in its word: smaller than that number's last
    digit and raised above its foot by ``raised`` of its height (PDFium gives '2.10³' as one word '2.103')."""
    digit = next((b for c, b, _, _ in reversed(chars) if c.isdigit()), None)
    if digit is None:
        return False
    height = digit[3] - digit[1]
    return box[3] - box[1] < SMALLER * height and box[1] > digit[1] + raised * height


def _quarter_turned(angle: float) -> bool:
    """Whether a character's angle (radians, PDFium's) turns it off the horizontal: by more than ``OBLIQUE``, the
    slant of an oblique face drawn with a skewed text matrix (a synthetic italic, as a browser prints one), which
    PDFium reports as an angle although its characters run across the page."""
    if angle < 0:
        return False  # PDFium answers -1 where it cannot tell
    turned = angle % (2 * math.pi)
    return min(turned, 2 * math.pi - turned) > OBLIQUE and abs(turned - math.pi) > OBLIQUE


def _bold(chars: list[tuple[str, tuple[float, float, float, float], bool, bool]]) -> bool:
    """Whether a word's letters and digits are all bold: footnote marks and '±' come from symbol fonts, whose
    weight says nothing about the digits beside them."""
    weights = [bold for char, _, bold, _ in chars if char.isalnum()]
    return bool(weights) and all(weights)
