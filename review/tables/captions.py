"""Where a table is on its page: its caption (a line that starts with the label, not a mention in prose), the
column of the page it keeps to, a caption set beside running text, the page turned upright where it is printed
sideways; and the texts of captions and of the notes under a table's marks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from review.pdf.words import Line, PageWords, Word, lines_of, squeezed
from review.tables.cell import MARKS
from review.tables.lines import _running, starts_caption


def caption_pattern(label: str) -> re.Pattern[str]:
    """A caption's start for ``label`` ('Table 1' matches 'Table1:', 'Table1.', 'Table1(continued)', and 'Table1-'
    as a web page or a word processor sets it, where no digit follows: 'Table 1-3' is a range), squeezed."""
    return re.compile(re.escape(squeezed(label)) + r"(?:[:.|\u2014\u2013]|-(?!\d)|\(continued\)|\(cont(?:'d|\.)\))",
                      re.IGNORECASE)


def find_captions(page: PageWords, label: str) -> list[tuple[Line, int]]:
    """Every line of the page that starts a caption of ``label``, with the index of its first word."""
    pattern = caption_pattern(label)
    whole = squeezed(label).lower()
    found = []
    for line in lines_of(page.words):
        words = line.words
        for j, word in enumerate(words):
            if not squeezed(word.text).lower().startswith(whole[:3]):
                continue
            if j and word.x0 - words[j - 1].x1 < 8:  # inside a sentence, not at the start of a column's line
                continue
            run = "".join(squeezed(w.text) for w in words[j:j + 4])
            segment_end = next((k for k in range(j + 1, len(words)) if words[k].x0 - words[k - 1].x1 > 8),
                               len(words))
            alone = "".join(squeezed(w.text) for w in words[j:segment_end]).lower() == whole
            if pattern.match(run) or alone:
                found.append((line, j))
                break
    return found


def caption_columns(page: PageWords, label: str) -> Iterator[tuple[list[Line], int, int]]:
    """For each caption of ``label`` on ``page``: the lines of the page column it is set in (the whole page for a
    caption across both columns), the index of its first line among them, and the word it starts at."""
    for line, start in find_captions(page, label):
        lo, hi = _page_column(page, line, start)
        lines = lines_of([w for w in page.words if lo <= w.x0 < hi])
        first = line.words[start]
        at = next((i for i, ln in enumerate(lines) if first in ln.words), None)
        if at is not None:
            yield lines, at, start


def caption_texts(page: PageWords, label: str) -> list[str]:
    """The text of every caption of ``label`` (a table or a figure) on ``page``: its whole paragraph, lines joined
    by line breaks (so that quote matching reads hyphenation at line ends as it does on a page)."""
    texts = []
    for lines, at, start in caption_columns(page, label):
        end = at
        while end + 1 < len(lines) and _continues(lines[end], lines[end + 1], lines[at]):
            end += 1
        texts.append("\n".join(" ".join(w.text for w in (ln.words[start:] if i == at else ln.words))
                               for i, ln in enumerate(lines[at:end + 1], start=at)))
    return texts


def footnote_texts(page: PageWords, mark: str) -> list[str]:
    """The text of every note on ``page`` that starts with ``mark`` ('1', '†'): a footnote or a table note, read in
    each column of the page and across it, the mark itself left out."""
    wanted = squeezed(mark)
    texts: list[str] = []
    for lo, hi in ((0.0, page.width), (0.0, page.width / 2), (page.width / 2, page.width)):
        lines = lines_of([w for w in page.words if lo <= w.x0 < hi])
        for i, line in enumerate(lines):
            head = squeezed(line.words[0].text)
            if not head.startswith(wanted) or (head[len(wanted):len(wanted) + 1].isdigit() and wanted.isdigit()):
                continue
            end = i
            while end + 1 < len(lines) and lines[end + 1].top - lines[end].bottom < 0.8 * lines[end].height and (
                    abs(lines[end + 1].x0 - line.x0) < 12) and not _starts_note(lines[end + 1]):
                end += 1
            first = line.words[0].text[len(mark):] if line.words[0].text.startswith(mark) else ""
            body = [first, *(w.text for w in line.words[1:])]
            text = "\n".join([" ".join(t for t in body if t), *(ln.text for ln in lines[i + 1:end + 1])])
            if text not in texts:
                texts.append(text)
    return texts


def _starts_note(line: Line) -> bool:
    head = line.words[0].text
    return head[:1] in MARKS or (head[:1].isdigit() and line.words[0].height < 0.8 * line.height)


def upright(page: PageWords) -> PageWords:
    """A page printed sideways (a rotated table: most of its words turned a quarter) turned upright, so that its
    lines run left to right again; any other page as it is. Words reading upward (the usual landscape page)
    have their top at the page's left edge; words reading downward, at its right edge. A page whose words an
    extractor turned already keeps them, with its width and height swapped to hold them."""
    turned = [w for w in page.words if w.rotated]
    if len(turned) * 2 <= len(page.words):
        right = max((w.x1 for w in page.words), default=0.0)
        if right > page.width + 1:  # an extractor that turned the words but gives the page's size unturned
            return PageWords(page.number, max(page.height, right), page.width, page.words)
        return page
    votes = sum((1 if b.top < a.top else -1) for a, b in zip(turned, turned[1:], strict=False)
                if abs(a.x0 - b.x0) < 2 and abs(a.x1 - b.x1) < 2)
    if votes >= 0:  # reading upward
        words = [Word(w.text, page.height - w.bottom, w.x0, page.height - w.top, w.x1, w.bold) for w in turned]
    else:
        words = [Word(w.text, w.top, page.width - w.x1, w.bottom, page.width - w.x0, w.bold) for w in turned]
    return PageWords(page.number, max(page.height, max(w.x1 for w in words)),
                     max(page.width, max(w.bottom for w in words)), tuple(words))


def label_at_line_start(page: PageWords, label: str) -> bool:
    """Whether ``label`` ('Table 3') starts a line of ``page``, or a run of words after a wide gap (the start of a
    column's line), in any form: a caption the reader does not recognise as one (no ':' after the label, a
    caption set otherwise) is printed so, and so is a mention that a line break puts at a line's start. Only a page
    where this is false can be said to print no caption of the label; a mention inside a sentence is no caption."""
    whole = squeezed(label).lower()
    for line in lines_of(upright(page).words):
        words = line.words
        for j, word in enumerate(words):
            if j and word.x0 - words[j - 1].x1 < 8:
                continue
            run = "".join(squeezed(w.text) for w in words[j:j + 4]).lower()
            if run.startswith(whole) and not run[len(whole):len(whole) + 1].isdigit():
                return True
    return False


def _continues(line: Line, following: Line, first: Line) -> bool:
    """Whether ``following`` goes on with the caption paragraph: close below, flush left, or centred alike and
    set with a paragraph's spaces. A centred last line of a paragraph is set at its spaces' natural width, so a
    line centred alike with gaps wider than any space of running text (``_running``) is a table's row: the
    header set close under a centred one-line caption (``article``'s caption above a table has no skip below
    it)."""
    close = following.top - line.bottom < 0.8 * line.height
    flush = abs(following.x0 - first.x0) < 3
    centred = abs((following.x0 + following.x1) - (first.x0 + first.x1)) < 6 and _running(following)
    return close and (flush or centred) and not starts_caption(following)


def _page_column(page: PageWords, line: Line, start: int) -> tuple[float, float]:
    """The horizontal extent of the table a caption belongs to: the page's width, or one column of it, narrowed
    to the caption's side of running text set on the caption's own line (``_beside_text``)."""
    words = line.words
    end = start
    while end + 1 < len(words) and words[end + 1].x0 - words[end].x1 < 8:
        end += 1
    lo, hi = _column_of(page, words[start].x0, words[end].x1)
    if hi - lo < page.width and _caption_runs_across(page, line, start):
        lo, hi = 0.0, page.width
    return _beside_text(line, start, *_beside_caption(page, line, start, lo, hi))


def _beside_caption(page: PageWords, line: Line, start: int, lo: float, hi: float) -> tuple[float, float]:
    """The extent ``lo``..``hi`` of a caption across a one-column page narrowed to its half where another table's
    caption stands in the other half: two floats set side by side (minipages, each with its own ``\\caption``)
    centre each caption in its own box, so that one caption ends left of the page's middle and the other starts
    right of it (on one baseline, or not, as the boxes' heights differ); each table stands under or over its own
    caption only. The boundary is halfway across the gap between the two captions, the gap between the boxes. A
    caption centred on a one-column page crosses the middle, and so never narrows another."""
    mid = page.width / 2
    if hi - lo < page.width:
        return lo, hi
    x0, x1 = _segment(line.words, start)
    if x0 < mid < x1:
        return lo, hi
    for other in lines_of(page.words):
        for k, word in enumerate(other.words):
            if (other is line and k == start) or (k and word.x0 - other.words[k - 1].x1 <= 8):
                continue
            if not starts_caption(Line(other.words[k:k + 3])):
                continue
            o0, o1 = _segment(other.words, k)
            if x1 < mid < o0:
                hi = min(hi, (x1 + o0) / 2)
            elif o1 < mid < x0:
                lo = max(lo, (o1 + x0) / 2)
    return lo, hi


def _segment(words: tuple[Word, ...], start: int) -> tuple[float, float]:
    """Where the run of words from ``start`` set at a sentence's spaces (no gap wider than 8 points) begins and
    ends: a caption's first line, not the text beside it."""
    end = start
    while end + 1 < len(words) and words[end + 1].x0 - words[end].x1 <= 8:
        end += 1
    return words[start].x0, words[end].x1


def _caption_runs_across(page: PageWords, line: Line, start: int) -> bool:
    """Whether the caption's paragraph, begun on ``line`` by a label set alone there ('Table 2', as a publisher
    sets it on a line of its own), runs on under it across the page's middle: the caption, and its table, take
    the page's width."""
    mid, first = page.width / 2, line.words[start]
    return any(ln.top > line.top and ln.top - line.bottom < line.height and abs(ln.x0 - first.x0) < 3
               and ln.x0 < mid < ln.x1
               and _running(ln) for ln in lines_of(page.words))


def _column_of(page: PageWords, x0: float, x1: float) -> tuple[float, float]:
    """The page's width, or the column of a two-column page that a caption set from ``x0`` to ``x1`` lies in."""
    mid = page.width / 2
    lines = lines_of(page.words)
    crossing = sum(1 for w in page.words if w.x0 < mid - 4 and w.x1 > mid + 4)
    if not lines or crossing > 0.3 * len(lines) or x0 < mid < x1:
        return 0.0, page.width
    return (mid, page.width) if x0 >= mid else (0.0, mid)


#: Running text beside a caption on its line holds at least this many words (a table's cells beside a caption
#: set beside its table are apart by wide gaps).
BESIDE_WORDS = 3


def _beside_text(line: Line, start: int, lo: float, hi: float) -> tuple[float, float]:
    """The extent ``lo``..``hi`` narrowed to the caption's side of the running text on its line: a table set in a
    wrapped float (``wraptable``) or in the right column beside the left one's prose has its caption start
    mid-line, after a wide gap (``find_captions``), the paragraph beside it running on; the gap bounds the
    table, its caption and its body alike. (Text on the right of a caption is not read so: a justified
    caption's space after 'Table 3:' stretches as wide as a gutter.)"""
    words = line.words
    left = [w for w in words[:start] if w.x0 >= lo]
    if len(left) >= BESIDE_WORDS and _running(Line(tuple(left))):
        lo = max(lo, (left[-1].x1 + words[start].x0) / 2)
    return lo, hi
