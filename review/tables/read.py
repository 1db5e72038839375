"""Reading a table off a page from positioned words: its caption, column headers, rows and cells.

The record names a cell as a printed table label, a row label and a column header (a header over
several levels joined by ' / ', outermost first). ``read_tables`` turns the words of one page
(``review.pdf.words``) into that shape:

0. **Sideways pages** (most words turned a quarter) are turned upright first (``upright``).
1. **Caption**: a line that starts with the label followed by ':', '.' or '|', or by
   '(continued)', or a line that is the label alone ('TABLE II'). A mention in prose ('Table 1
   gives ...') is not a caption.
2. **Column of the page**: on a two-column page (few words cross the gutter), a caption in one
   column keeps the table to that column; a caption across the gutter, or a one-column page, gives
   the full width; a caption that starts mid-line after running text (a ``wraptable``, or the right
   column beside the left one's prose) keeps the table right of the gap (``_beside_text``). Lines are
   grouped again inside that extent, so that the next column's lines do not join the table's.
3. **Block**: the caption paragraph, then the lines (and rotated words) next to it, below it or
   above it (captions under tables), until a vertical gap wider than ``GAP`` points (wider between
   header and body, and before rows set wide apart), a line of running text (``is_prose``) or another
   caption. Of two tables stacked on a page, a block that runs up to the other caption is the other's.
   Subtables under one caption (``(a) ...``, ``(b) ...``, or centred titles over one repeated header) are
   read each as a table of its own, the subcaption the outer level of its rows (``_subtables``).
4. **Header and body**: the header is the block's lines before its first row of numbers (a line
   that is half numbers after its label; a line of one label at the left edge just before numbers is
   a *row group*, as in 'NT 2.5B' over its folds); the body is the rest. Header words are clustered at
   gaps wider than ``CELL_GAP`` (spanning headers at ``LABEL_GAP``), and bottom-level clusters are
   split where a gap between the body's columns falls between their words. A cluster nothing is printed
   under is a bottom-level header, and so is each rotated header (rotated words side by side, read line
   by line). Above the bottom-level headers, a cluster spans those it overlaps, or else the run of them
   it is centred over (``_spanned``): over several it is a level of its own ('Histone marks'), over one
   the line before it ('Splice sites' over '(acceptor)', joined by ``joined_lines``).
5. **Row labels**: the leading columns whose cells hold no number are row labels; the rows' label
   words form label columns, the innermost the row's own label and each outer one a multirow label
   naming the run of rows it is centred on or starts (``_runs``).
6. **Cells**: a column owns the words whose centre lies between the midpoints to its neighbours'
   headers, which holds for right-aligned numbers under wide headers and for wide '0.681 ± 0.019'
   cells under narrow ones, or else the one gap between the body's columns of numbers there
   (``_fitted_to_gutters``); the first column owns a row's words after its label; thousands set apart
   by a thin space are one word ('45 000').

A table continued on the next page ('Table 5 (continued)') keeps the row group that was open at
the end of the previous page, whose label is printed there only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from registry.numbers import FIGURES, SIGN, SUPERSCRIPT, TIMES, glued_unit
from registry.printed_forms import Printed, read_printed
from review.pdf.words import ANNOTATION, Line, PageWords, Word, lines_of, squeezed
from review.tables.figures import note_words

#: A vertical gap (points) wider than this ends a table: rules and spacing inside tables stay under it.
GAP = 12.5
#: A horizontal gap (points) wider than this separates header cells (an interword space is 2-3.5 points).
CELL_GAP = 4.2
#: Footnote marks printed after a value or a label.
MARKS = "*\u2020\u2021\u00a7\u00b6\u2016#"
#: After a cell's number: its marks and superscripts ('0.681¹'; '10⁴' is read as a power by ``read_cell``).
_AFTER = MARKS + "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207b\u207a"
_NUMBER = rf"[-+]?{FIGURES}(?:[eE][-+]?\d+)?"
_CELL = re.compile(
    rf"^(?P<bound>[<>\u2264\u2265~\u2248])?[(\[]?(?P<value>{_NUMBER})(?P<marks>[{_AFTER}]*)"
    rf"(?:(?:\u00b1|\+/-|\+-)(?P<pm>{_NUMBER})(?P<marks2>[{_AFTER}]*)|\((?P<spread>{_NUMBER})\)(?![,;]))?"
    rf"(?:[\[(](?P<lo>{_NUMBER})[,;-](?P<hi>{_NUMBER})[\])])?"
    r"(?P<rest>.*)$")
_PRINTED = re.compile(rf"\s*({SIGN}?{FIGURES}(?:[eE]{SIGN}?\d+)?)")
_VALUE_WORD = re.compile(rf"^(?:\u00b1|[<>\u2264\u2265])?{_NUMBER}%?[{_AFTER}]*(?:\u00b1{_NUMBER}[{_AFTER}]*"
                         rf"|-\d*\.\d+%?)?(?:{ANNOTATION[0]}[^{ANNOTATION[1]}]*{ANNOTATION[1]})?$")


def is_value(word: Word) -> bool:
    """Whether a word is a printed number as a cell prints it ('0.681', '−0.021', '0.702†', '±0.019', '3e-5'), a
    bound ('<12', '≥0.5') or a range of decimals set as one word ('0.61–0.67'; '2014–2016' may be a label), a raised
    annotation glued to it included ('71.2⟨+10.8%⟩', ``review.pdf.words.ANNOTATION``)."""
    return bool(_VALUE_WORD.match(squeezed(word.text)))


@dataclass(frozen=True)
class CellText:
    """A cell's printed text read as value, marks, ± and interval."""

    text: str
    value: str | None
    marks: str = ""
    plus_minus: str | None = None
    interval: tuple[str, str] | None = None
    rest: str = ""
    bold: bool = False
    form: Printed | None = None
    """The cell's printed form (``registry.printed_forms``): a range's upper end, a bound, an approximation, an
    annotation after the value; None where the cell starts with no number."""

    @property
    def printed_value(self) -> str | None:
        """The value as the page prints it (a U+2212 minus kept), for messages."""
        if self.form is not None and self.value in (self.form.number, squeezed(self.form.number)):
            return self.form.number  # as printed: '−0.021', '12 345', '3.2×10−⁴'
        found = _PRINTED.match(self.text)
        return found.group(1) if found else self.value

    @property
    def upper(self) -> str | None:
        """A range's upper end ('0.67' of '0.61–0.67', '15' of '12–15 GB'), None for a cell that prints no range."""
        return self.form.upper or None if self.form is not None else None

    @property
    def bound(self) -> str:
        """The sign of a bound the cell prints before its number ('<' of '< 0.001' or 'under 12'), else ''."""
        return self.form.bound if self.form is not None else ""


#: A power of ten or a bare power in a cell's value: its value is the whole form, not its first digits.
_BROKEN_POWER = re.compile(rf"[\^{TIMES}\u207b\u207a{SUPERSCRIPT}]|\d\s?e")


def read_cell(words: list[Word]) -> CellText:
    text = _cell_text(words)
    found = _CELL.match(_squeezed_cell(text))
    digits = next((w for w in words if any(c.isdigit() for c in w.text)), None)
    bold = digits is not None and digits.bold  # the value's own word: '± 0.021' after a bold 0.702 is not bold
    if found is None:
        return CellText(text, None, bold=bold)
    interval = (found["lo"], found["hi"]) if found["lo"] is not None else None
    form = read_printed(text)
    if form is not None and form.value is not None and _BROKEN_POWER.search(form.number):
        # '3.2×10−⁴', '3.2 × 10 −4', '-0.04 e-2', '2−6': the power is the value's, never dropped
        return CellText(text, form.number, rest=form.rest, bold=bold, form=form)
    return CellText(text, found["value"], (found["marks"] or "") + (found["marks2"] or ""),
                    found["pm"] or found["spread"], interval, found["rest"], bold, form)


#: A word set this much of its own height above the one before it is raised: a superscript ('2' then '−6', a
#: flattened 2⁻⁶; '73.1' then '+10.8%', an annotation).
RAISED = 0.25
_TO_SUPERSCRIPT = str.maketrans("0123456789", SUPERSCRIPT)
_EXPONENT_WORD = re.compile(rf"^{SIGN}?\d{{1,2}}$")


def _cell_text(words: list[Word]) -> str:
    """A cell's words as one text; a superscript set as a word of its own after a number is read as what it is: an
    exponent after a whole number or a power of ten's '10' ('2' '−6' is '2^-6'), digits after a decimal a mark
    ('0.5' '2' is '0.5²'), else an annotation kept after a space ('73.1 +10.8%')."""
    parts: list[str] = []
    for before, word in zip([None, *words], words, strict=False):
        raised = (before is not None and before.height > 0 and before.text[-1:].isdigit()
                  and before.bottom - word.bottom > RAISED * before.height and word.height < before.height)
        if raised and _EXPONENT_WORD.match(word.text) and re.search(r"(?:^|[^0-9.,])(?:[0-9]+)$", before.text):
            parts[-1] += "^" + squeezed(word.text)  # one minus sign, as the flattened form reads ("2^-6")
        elif raised and word.text.isdigit():  # a mark after a decimal ('0.5²'), never more digits of it
            parts[-1] += word.text.translate(_TO_SUPERSCRIPT)
        else:
            parts.append(word.text)
    return " ".join(parts)


def _squeezed_cell(text: str) -> str:
    """A cell's text squeezed for reading (``squeezed``), its superscripts kept: '2.10³' is 2.10 and a mark, not
    2.103."""
    return "".join(c if c in _SUPERSCRIPT else squeezed(c) for c in text)


_SUPERSCRIPT = frozenset(_AFTER) - frozenset(MARKS)
@dataclass(frozen=True)
class Column:
    """One bottom-level column: its header levels (outermost first), its header's extent and its boundaries."""

    levels: tuple[str, ...]
    x0: float
    x1: float
    lo: float = float("-inf")
    hi: float = float("inf")

    @property
    def name(self) -> str:
        return " / ".join(self.levels)


@dataclass(frozen=True)
class Row:
    """One body line: its label (its group first, where rows are grouped), and the words after the label."""

    levels: tuple[str, ...]
    line: Line
    cells: tuple[Word, ...]
    group_page: int | None = None
    """Where the row's group label is printed, if on another page (a continued table)."""

    @property
    def name(self) -> str:
        return " / ".join(self.levels)


@dataclass(frozen=True)
class Table:
    """A table read off one page."""

    label: str
    page: int
    caption: str
    continued: bool
    header: tuple[Line, ...]
    columns: tuple[Column, ...]
    stub: Column | None
    rows: tuple[Row, ...]
    notes: tuple[str, ...]
    open_group: str | None = None
    """The group of the last rows, which a continuation on the next page carries on."""
    carried_from: int | None = None
    words: tuple[Word, ...] = field(default=(), repr=False)
    others: tuple[Row, ...] = field(default=(), repr=False)
    """The rows of the other subtables under the same caption: a row label they print too is ambiguous."""
    subcaption: str | None = None
    """The caption or title of the subtable this is, under the table's caption ('(a) Sequence models'); none where
    the caption holds one table."""

    def cell(self, row: Row, column: Column) -> CellText:
        return read_cell([w for w in row.cells if column.lo <= w.centre < column.hi])


# -- reading a page -------------------------------------------------------------------------------


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


def read_tables(page: PageWords, label: str, previous: PageWords | None = None) -> list[Table]:
    """Every reading of ``label`` on ``page``: one per caption, the block nearer to it first (a page printed
    sideways read turned upright). Of two tables stacked on a page, the block beside a caption that runs up to
    the other caption is the other's, and where both blocks do, the farther one is."""
    page = upright(page)
    previous = upright(previous) if previous is not None else None
    tables = []
    for line, start in find_captions(page, label):
        lo, hi = _page_column(page, line, start)
        inside = [w for w in page.words if lo <= w.x0 < hi]
        lines = lines_of(inside)
        rotated = [w for w in inside if w.rotated]
        first = line.words[start]
        at = next((i for i, ln in enumerate(lines) if first in ln.words), None)
        if at is None:
            continue
        caption_end = at
        continued = bool(re.search(r"\((?:continued|cont'd|cont\.)\)", lines[at].text, re.IGNORECASE))
        while not continued and caption_end + 1 < len(lines) and _continues(lines[caption_end], lines[caption_end + 1],
                                                                            lines[at]):
            caption_end += 1
        caption = " ".join(ln.text for ln in lines[at:caption_end + 1])
        carried = _open_group(previous, label) if continued and previous is not None else None
        width = max(ln.x1 for ln in lines) - min(ln.x0 for ln in lines)
        found: list[tuple[list[Table], bool, float]] = []
        for block in (_block(lines[caption_end + 1:], rotated, lines[caption_end].bottom, down=True, width=width),
                      _block(lines[:at][::-1], rotated, lines[at].top, down=False, width=width)):
            if block is None:
                continue
            block_lines, block_rotated, bounded = block
            parts = [_table(label, page.number, caption, continued, part, block_rotated, carried,
                            previous.number if carried is not None and previous is not None else None, group)
                     for part, group in _subtables(block_lines)]
            read = _siblings([t for t in parts if t is not None])
            if read:
                away = (block_lines[0].top - lines[caption_end].bottom if block_lines[0].top >= lines[at].top
                        else lines[at].top - block_lines[-1].bottom)
                found.append((read, bounded, away))
        if len(found) == 2 and found[0][1] != found[1][1]:
            found = [f for f in found if not f[1]]  # the block that runs up to another caption is that table's
        elif len(found) == 2:
            found.sort(key=lambda f: f[2])  # a caption is set closer to its own table than to the next float
            if found[0][1]:
                found = found[:1]  # stacked between two captions: the farther block is the other caption's
        tables += [table for read_block, _, _ in found for table in read_block]
    return tables


def continued_tables(page: PageWords, label: str, before: Table, previous: PageWords) -> list[Table]:
    """The tables of ``label`` that ``page`` continues without a caption of its own: a table broken across pages
    whose caption is printed once, on the page before (a browser prints a long web-page table so, a word
    processor too), read where ``before`` (its last reading there) runs to the foot of ``previous``: no running
    text under it. The continuation is the block at the top of ``page``; a heading in larger letters in it
    starts a new table under the same caption (``_headings``), and the rows before the first one keep the title
    of ``before``, or of a heading left alone at the foot of ``previous``."""
    if not runs_to_foot(before, previous):
        return []
    page, previous = upright(page), upright(previous)
    width = max(w.x1 for w in before.words) - min(w.x0 for w in before.words)
    under = _under(before, previous)
    title = next((ln.text for ln in under if _larger(ln, before.words)), before.subcaption)
    lines = lines_of(page.words)
    rotated = [w for w in page.words if w.rotated]
    if not lines:
        return []
    block = _block(lines, rotated, lines[0].top - 0.5, down=True, width=width)
    if block is None:
        return []
    block_lines, block_rotated, _ = block
    starts = _headings(block_lines)
    parts = [(block_lines[:starts[0]] if starts else block_lines, title)]
    ends = [*starts[1:], len(block_lines)] if starts else []
    parts += [(block_lines[i + 1:end], block_lines[i].text) for i, end in zip(starts, ends, strict=True)]
    read = [_table(label, page.number, before.caption, True, part, block_rotated, None, None, name)
            for part, name in parts if part]
    return _siblings([t for t in read if t is not None])


def _under(before: Table, previous: PageWords) -> list[Line]:
    bottom = max(w.bottom for w in before.words)
    return [ln for ln in lines_of(previous.words) if ln.top > bottom]


def runs_to_foot(before: Table, previous: PageWords) -> bool:
    """Whether ``before`` (a table read on ``previous``) may go on on the next page: it runs to the foot of its
    page, no running text nor another caption under it (at most a few lines: a page number, a footnote, a heading
    left alone). A table with running text under it ends on its page."""
    if not before.words:
        return False
    previous = upright(previous)
    width = max(w.x1 for w in before.words) - min(w.x0 for w in before.words)
    under = _under(before, previous)
    return not (any(is_prose(ln, width) and not _larger(ln, before.words) or starts_caption(ln) for ln in under)
                or len(under) > 3)


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


def _larger(line: Line, words: tuple[Word, ...] | list[Word]) -> bool:
    """Whether a line of one label is set in larger letters (``LARGER``) than ``words``: a heading."""
    if len(_label_clusters(line.words)) != 1 or _numbers_line(line) or not words:
        return False
    size = sorted(w.height for w in line.words)[len(line.words) // 2]
    return size > LARGER * sorted(w.height for w in words)[len(words) // 2]


def _headings(lines: list[Line]) -> list[int]:
    """The lines of a block that are headings over the tables under them: one label in larger letters than the
    block's other lines (``_larger``), a line of numbers after it."""
    words = [w for ln in lines for w in ln.words]
    return [i for i, ln in enumerate(lines[:-1]) if _larger(ln, words) and any(
        _numbers_line(after) for after in lines[i + 1:])]


def _siblings(tables: list[Table]) -> list[Table]:
    """Subtables under one caption, each knowing the others' rows (``Table.others``), so that a row label printed
    in several of them is found ambiguous rather than looked up in the first."""
    if len(tables) < 2:
        return tables
    return [replace(t, others=tuple(r for o in tables if o is not t for r in o.rows)) for t in tables]


def _title(line: Line, lines: list[Line]) -> bool:
    """Whether a line is a subtable's title ('AUC', 'TPR@K = 10'): one cell that is no number, centred on the
    block's ``lines`` (stacked subtables, each under its title and its own header)."""
    cells = _label_clusters(line.words)
    if len(cells) != 1 or _number_cell(cells[0]) or len(lines) < 2:
        return False
    left, right = min(ln.x0 for ln in lines), max(ln.x1 for ln in lines)
    return abs((line.x0 + line.x1) - (left + right)) / 2 < max(3.0, 0.03 * (right - left)) and (
        line.x1 - line.x0 < 0.5 * (right - left))


#: A sub-table's mark, without its parentheses: a letter or a roman numeral ('b' of '(b)', 'iv' of '(iv)'); read
#: from a locator's ``subtable`` by ``review.tables.subtables``.
SUBTABLE_MARK = r"(?:[a-z]|[ivx]+)"
_SUBCAPTION = re.compile(rf"^\({SUBTABLE_MARK}\)\S", re.IGNORECASE)


def _is_subcaption(line: Line) -> bool:
    """Whether a line is a subtable's caption ('(a) Sequence models'): one cell, no number, starting with a
    subfigure's letter or numeral in parentheses."""
    return (len(_label_clusters(line.words)) == 1 and not any(is_value(w) for w in line.words)
            and bool(_SUBCAPTION.match("".join(squeezed(w.text) for w in line.words[:2]))))


def _titled(lines: list[Line]) -> list[int]:
    """The lines that title stacked subtables: two or more titles (``_title``), each over the same header line
    (the header each subtable repeats); none where the block is one table."""
    found = [i for i, line in enumerate(lines[:-1]) if _title(line, lines) and not _numbers_line(lines[i + 1])]
    heads = {squeezed(lines[i + 1].text) for i in found}
    return found if len(found) >= 2 and len(heads) == 1 else []


def _subtables(lines: list[Line]) -> list[tuple[list[Line], str | None]]:
    """A block's subtables, each with its caption ('(a) Sequence models'), or the whole block with none.
    Subtables under one caption (``subcaption``, ``subfloat``) set their own header and columns under their
    own captions: each is read as a table of its own, its caption the group of its rows; lines over the first
    subcaption (a header the subtables share) head each of them."""
    starts = [i for i, line in enumerate(lines) if _is_subcaption(line)]
    if not starts:
        starts = _titled(lines)
    if not starts:
        return [(lines, None)]
    shared = lines[:starts[0]]
    return [(shared + lines[i + 1:end], lines[i].text) for i, end in zip(starts, [*starts[1:], len(lines)],
                                                                          strict=True)
            if end > i + 1]


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
    return _beside_text(line, start, lo, hi)


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


def _block(lines: list[Line], rotated: list[Word], edge: float, *, down: bool, width: float = 0.0
           ) -> tuple[list[Line], list[Word], bool] | None:
    """The lines and rotated words next to the caption (below it, or above it going up) up to a wide gap or a
    line of running text.

    The gap allowed is ``GAP``, or 2.2 line heights before a line of two numbers or more (rows set wide
    apart); between the header and the first line of numbers (a line of no number and a
    line of numbers, in either order), three line heights: the space around the rule there grows with the
    font. A line of running text (``is_prose``, as wide as the text column) ends the block whatever the gap.
    The flag says whether the block ran up to another caption (tables stacked on a page: the block may be that
    caption's table)."""
    spans: list[tuple[float, float, Line | Word]] = [(ln.top, ln.bottom, ln) for ln in lines]
    spans += [(w.top, w.bottom, w) for w in rotated if (w.top >= edge if down else w.bottom <= edge)]
    spans.sort(key=lambda s: s[0] if down else -s[1])
    kept: list[Line | Word] = []
    reach: float | None = None
    paces = _paces([item for _, _, item in spans], 1 if down else 2)
    spacing = 0.0  # the widest gap kept between two lines of numbers
    numbers = False  # whether the block holds a line of numbers yet
    previous = False  # whether the line kept last holds numbers
    bounded = False
    for index, (top, bottom, item) in enumerate(spans):
        if down and top < edge - 0.5 or not down and bottom > edge + 0.5:
            continue
        if isinstance(item, Line) and (starts_caption(item) or is_prose(item, width)):
            bounded = starts_caption(item) and (reach is None or (top - reach if down else reach - bottom) <= 80)
            break
        if reach is None:
            if (top - edge if down else edge - bottom) > 80:
                return None  # nothing close to the caption on this side
        else:
            valued = isinstance(item, Line) and any(is_value(w) for w in item.words)
            rule = numbers != valued if down else (previous and not valued)
            lines_kept = [k for k in kept if isinstance(k, Line)]
            if numbers and lines_kept and (isinstance(item, Line) and _title(item, lines_kept)
                                           or isinstance(kept[-1], Line) and _title(kept[-1], lines_kept)):
                rule = True  # a subtable's title, set apart from the subtables around it as a header is
            row = isinstance(item, Line) and sum(is_value(w) for w in item.words) >= 2
            allowed = max(GAP, 3 * (bottom - top)) if rule else max(GAP, 2.2 * (bottom - top)) if row else GAP
            gap = top - reach if down else reach - bottom
            valued_line = isinstance(item, Line) and any(is_value(w) for w in item.words)
            if gap > max(allowed, paces[index], spacing if valued_line else 0.0):
                break
            if valued_line and previous:
                spacing = max(spacing, gap)  # rows already kept this far apart: the table's own spacing
        previous = isinstance(item, Line) and any(is_value(w) for w in item.words)
        numbers = numbers or previous
        kept.append(item)
        reach = bottom if reach is None else (max(reach, bottom) if down else min(reach, top))
        if reach is not None and not down:
            reach = min(reach, top)
    if not kept:
        return None
    block_lines = sorted((k for k in kept if isinstance(k, Line)), key=lambda ln: ln.top)
    return block_lines, [k for k in kept if isinstance(k, Word)], bounded


#: Rows of numbers set at one pitch, this many in a row, are a table's body whatever the pitch.
PACED_ROWS = 3


def _paces(items: list[Line | Word], values: int = 2) -> list[float]:
    """For each item of a block's lines (in reading order away from the caption): the pitch of the run of
    ``PACED_ROWS`` rows of numbers it leads up to or lies in, where they are set at one pitch (within a tenth),
    else 0. A
    table drawn with cell padding (a word processor's, a web page's) sets its rows farther apart than ``GAP``, and
    its header and titles as far from them: a gap no wider than the pitch of the rows that follow it is inside the
    table. A row is a line of ``values`` numbers or more: under a caption, one (a table of one column of numbers,
    as word processors set it under its caption); over one, two (a figure's axis prints one number a line)."""
    rows: list[tuple[int, float]] = []
    for i, item in enumerate(items):
        if isinstance(item, Line) and sum(is_value(w) for w in item.words) >= values and _numbers_line(item):
            if rows and abs(item.top - rows[-1][1]) < item.height:
                continue  # a line of the same row (a label's number under its values, '133' of 'Neuron 133')
            rows.append((i, item.top))
    paces = [0.0] * len(items)
    for k in range(len(rows) - PACED_ROWS + 1):
        tops = [top for _, top in rows[k:k + PACED_ROWS]]
        steps = [abs(b - a) for a, b in zip(tops, tops[1:], strict=False)]
        if max(steps) <= 1.1 * min(steps):
            start = rows[k - 1][0] + 1 if k else 0
            for i in range(start, rows[k + PACED_ROWS - 1][0] + 1):
                paces[i] = max(paces[i], min(steps))
    return paces


#: A gap (points) between words wider than this is no space of running text, even justified.
PROSE_GAP = 8.0


def is_prose(line: Line, width: float) -> bool:
    """Whether a line is running text: at least six words, no wide gap between them, fewer than half of them
    numbers, and nearly as wide as the text column (``width``), which a table's line spanning the column is not
    without gaps between its cells (a row of numbers set as close as words, 8 points apart, is no prose)."""
    words = line.words
    if len(words) < 6 or width <= 0 or line.x1 - line.x0 < 0.8 * width:
        return False
    return 2 * sum(1 for w in words if is_value(w)) < len(words) and _running(line)


_ANY_CAPTION = re.compile(r"^(?:table|figure|fig\.|tab\.)\S*?[:.|]", re.IGNORECASE)


def starts_caption(line: Line) -> bool:
    """Whether a line starts some table's or figure's caption ('Figure 1:', 'Table 2.')."""
    return bool(_ANY_CAPTION.match("".join(squeezed(w.text) for w in line.words[:3])))


def _clusters(line: Line) -> list[list[Word]]:
    clusters: list[list[Word]] = []
    for word in line.words:
        if clusters and word.x0 - clusters[-1][-1].x1 <= _join_gap(clusters[-1][-1], word):
            clusters[-1].append(word)
        else:
            clusters.append([word])
    return clusters


#: Relation signs, which math mode sets with a thick space on each side ('H1: b. > a.', 'S = 96').
RELATIONS = frozenset("<>=\u2264\u2265\u2248\u223c\u2260\u2192")


def _join_gap(left: Word, right: Word) -> float:
    """The widest gap at which two words of a line are one cell: an interword space (``CELL_GAP``), or on either
    side of a relation sign set alone, TeX's thick math space (up to ``LABEL_GAP``): no cell starts or ends with a
    relation, so a '>' set apart is never where a header or a cell ends."""
    if left.text in RELATIONS or right.text in RELATIONS:
        return LABEL_GAP
    return CELL_GAP


def _rotated_stacks(words: list[Word]) -> list[list[list[Word]]]:
    """Rotated words as header cells: words side by side (within ``CELL_GAP``) form one cell, read line by line
    (left to right), each line from its bottom up."""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: w.x0):
        if lines and word.x0 < max(w.x1 for w in lines[-1]) - 1:
            lines[-1].append(word)
        else:
            lines.append([word])
    widths = sorted(max(w.x1 for w in line) - min(w.x0 for w in line) for line in lines)
    # A rotated header's lines are a line pitch apart: their gap is under a line's own width, a column gap is not.
    joins = max(CELL_GAP, 0.8 * widths[len(widths) // 2]) if widths else CELL_GAP
    stacks: list[list[list[Word]]] = []
    for line in lines:
        line.sort(key=lambda w: -w.bottom)
        if stacks and min(w.x0 for w in line) - max(w.x1 for w in stacks[-1][-1]) <= joins:
            stacks[-1].append(line)
        else:
            stacks.append([line])
    return stacks


def _text(words: list[Word]) -> str:
    return " ".join(w.text for w in words)


@dataclass
class _Piece:
    text: str
    x0: float
    x1: float
    line: int
    words: tuple[Word, ...] = ()

    @property
    def centre(self) -> float:
        return (self.x0 + self.x1) / 2


def _table(label: str, page: int, caption: str, continued: bool, lines: list[Line], rotated: list[Word],
           carried: str | None, carried_from: int | None, subcaption: str | None = None) -> Table | None:
    numeric = [_numbers_line(ln) for ln in lines]
    if True not in numeric:
        return None
    first_body = numeric.index(True)
    if _ordinals(lines[first_body]) and True in numeric[first_body + 1:]:
        numeric[first_body] = False  # columns named by their numbers ('Month 1 2 ... 12'): a header
        first_body = numeric.index(True)
    left_edge = min(ln.x0 for ln, n in zip(lines, numeric, strict=True) if n)
    right_edge = max(ln.x1 for ln, n in zip(lines, numeric, strict=True) if n)
    if first_body > 0 and (_group_line(lines[first_body - 1], left_edge, rotated)
                           or _centred_group(lines[first_body - 1], left_edge, right_edge)) and any(
            len(_clusters(ln)) > 1 for ln in lines[:first_body - 1]):
        first_body -= 1
    header, body = lines[:first_body], lines[first_body:]
    if subcaption is None and len(header) > 1 and _heading(header[0], lines[1:], left_edge):
        subcaption, header = header[0].text, header[1:]
    columns, stub = _columns(header, rotated, left_edge, body)
    labels, columns = _label_columns(columns, body)
    if not columns:
        return None
    # A row's cells are its words after its label (``_label_end``): the first column owns all of them up to the
    # next column, a cell wider than its header reaching left of the midpoint to the stub ('80.41 +/- 0.85' under
    # 'MLP') included.
    columns[0] = replace(columns[0], lo=float("-inf"))
    columns = _fitted_to_gutters(columns, _body_columns(body))
    if stub is None and labels:
        stub = labels[-1]
    data_lo = columns[0].x0 + 1  # a row label ends before the first column's header starts
    body = unwrapped_labels(body, data_lo)
    right = max(ln.x1 for ln in body)
    rows: list[Row] = []
    notes: list[str] = []
    items: list[tuple[Line, int | None]] = []  # body lines: a row and its label's length, or a line of no number
    for line in body:
        if notes or (items and line.words[0].text[:1] in MARKS and _running(line)):
            notes.append(line.text)  # a table note ('† Fold 7 ...'), and everything after it
        elif any(is_value(w) for w in line.words) or _unit_row(line):
            items.append((line, _label_end(line.words, data_lo)))
        else:
            items.append((line, None))
    spans = _label_spans([line.words[:n] for line, n in items if n is not None])
    group = carried
    pending: list[tuple[Line, tuple[Word, ...], tuple[Word, ...], str | None]] = []
    loose: list[tuple[Word, ...]] = []  # label-only lines amid the rows: multirow labels of outer label columns
    for line, n in items:
        if n is not None:
            pending.append((line, line.words[:n], line.words[n:], group))
        elif line.x1 <= data_lo and pending and _outer_column(line.words, spans) is not None:
            loose.append(line.words)
        elif _group_line(line, left_edge, []) and (line.x1 <= data_lo or 2 * (line.x1 - left_edge) < right - left_edge
                                                   ) or _centred_group(line, left_edge, right):
            group = line.text  # a row group's name may run on over the first columns, in less than half the width
        elif pending:
            notes.append(line.text)
    outer = _multirow_levels([p[1] for p in pending], [_middle(p[2] or p[0].words) for p in pending], loose, spans)
    for (line, stub_words, cells, row_group), levels in zip(pending, outer, strict=True):
        own = _text([w for w in stub_words if w not in levels[1]]).strip()
        path = tuple(p for p in (subcaption, row_group, *levels[0], own) if p)
        rows.append(Row(path, line, _thousands(cells), carried_from if row_group is not None and row_group == carried
                        else None))
    words = tuple(w for ln in lines for w in ln.words) + tuple(rotated)
    return Table(label, page, caption, continued, tuple(header), tuple(columns), stub, tuple(rows), tuple(notes),
                 open_group=group, carried_from=carried_from if carried else None, words=words, subcaption=subcaption)


#: A title is set in letters at least this much taller than the table's own.
LARGER = 1.25


def _heading(line: Line, rest: list[Line], left_edge: float) -> bool:
    """Whether a table's first line is a heading over it, not a header: one label, no number, from the table's
    left edge, in larger letters than every line after it (a document's heading set between the caption and the
    table, as a web page or a word processor sets one over each of several tables under one caption). It titles
    the table's rows, as a subcaption does."""
    if len(_label_clusters(line.words)) != 1 or _numbers_line(line) or line.x0 > left_edge + 3:
        return False
    size = sorted(w.height for w in line.words)[len(line.words) // 2]
    return all(size > LARGER * sorted(w.height for w in ln.words)[len(ln.words) // 2] for ln in rest)


#: A label's lines are set at a pitch under this share of the rows' own pitch (the font's line spacing, where a
#: row's pitch adds the cell's padding).
PITCH_RATIO = 0.85
#: A label's lines are set closer than this share of the space on their other side (the space between rows).
WRAP_RATIO = 0.75


def unwrapped_labels(body: list[Line], data_lo: float) -> list[Line]:
    """The body's lines with each row label set over several lines read as one label on its row's line.

    A label too long for its column wraps: its lines follow one another at the font's line spacing, closer than
    the space that sets rows (and the group labels over them) apart. A line of label words alone (nothing right of
    the labels) belongs with its neighbour above or below where it is set clearly closer to that one than to the
    other (``WRAP_RATIO``, the space between their boxes) and, where two rows of numbers follow one another in the
    body, at a pitch (top to top, which a descender does not change) under theirs (``PITCH_RATIO``). Where the
    spaces on both sides are alike (a table set without padding), a line that starts in lower case goes on from
    the line above it (``_goes_on``). Lines so held together that hold one row of numbers are that row: the
    label's lines above it (a label centred on its row) and below it (a label set at its row's top) join its
    label, line by line in its label column. A line of a few numbers alone (no label, at most half the words of
    the body's lines) joins a row so too: a cell's text wrapped in its cell ('96.30' over '%'). Lines held
    together with no row, or with several, are left as they are (a group label)."""
    label_only = [ln.x1 <= data_lo for ln in body]  # a label's line holds no cell ('Neuron' over '116')
    widths = sorted(len(ln.words) for ln in body)
    fragment = [ln.x0 >= data_lo and 2 * len(ln.words) <= widths[len(widths) // 2]
                and any(is_value(w) for w in ln.words) for ln in body]  # a group's name across the table is none
    is_row = [not alone and not part and (any(_number_cell(c) for c in _label_clusters(ln.words)) or _unit_row(ln))
              for ln, alone, part in zip(body, label_only, fragment, strict=True)]
    label_only = [a or b for a, b in zip(label_only, fragment, strict=True)]  # lines that join a row
    if not any(label_only):
        return body
    gaps = [b.top - a.bottom for a, b in zip(body, body[1:], strict=False)]
    pitches = [b.top - a.top for a, b in zip(body, body[1:], strict=False)]
    between_rows = sorted(g for g, r0, r1 in zip(pitches, is_row, is_row[1:], strict=False) if r0 and r1)
    row_pitch = between_rows[len(between_rows) // 2] if between_rows else float("inf")
    parent = list(range(len(body)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, alone in enumerate(label_only):
        if not alone:
            continue
        up = gaps[i - 1] if i > 0 else float("inf")
        down = gaps[i] if i < len(gaps) else float("inf")
        near_up = i > 0 and pitches[i - 1] < PITCH_RATIO * row_pitch
        near_down = i < len(pitches) and pitches[i] < PITCH_RATIO * row_pitch
        if near_up and _goes_on(body[i]):
            parent[root(i)] = root(i - 1)
        elif near_down and _goes_on(body[i + 1]):
            parent[root(i)] = root(i + 1)
        elif near_up and up < WRAP_RATIO * down:
            parent[root(i)] = root(i - 1)
        elif near_down and down < WRAP_RATIO * up:
            parent[root(i)] = root(i + 1)
    groups: dict[int, list[int]] = {}
    for i in range(len(body)):
        groups.setdefault(root(i), []).append(i)
    out: dict[int, Line] = {}
    dropped: set[int] = set()
    for members in groups.values():
        rows = [i for i in members if is_row[i]]
        if len(members) == 1 or len(rows) != 1 or any(not is_row[i] and not label_only[i] for i in members):
            continue
        out[rows[0]] = _with_label_lines(body[rows[0]], [body[i] for i in sorted(members)], data_lo)
        dropped.update(i for i in members if i != rows[0])
    return [out.get(i, line) for i, line in enumerate(body) if i not in dropped]


def _goes_on(line: Line) -> bool:
    """Whether a line's first word starts in lower case: the rest of a phrase begun on the line above."""
    first = next((c for c in line.words[0].text if c.isalpha()), "")
    return first.islower()


def _with_label_lines(row: Line, lines: list[Line], data_lo: float) -> Line:
    """``row`` with the label words of ``lines`` (its own among them, top to bottom) joined, in each label column,
    into one word: the column's words line by line (``joined_lines``); and the words of a line of a few cells
    alone joined with the row's word in their cell."""
    labels = [w for ln in lines for w in (ln.words[:_label_end(ln.words, data_lo)] if ln is row else
                                          [w for w in ln.words if w.x0 < data_lo])]
    columns: list[list[Word]] = []  # words of one label column, overlapping from line to line
    for word in sorted(labels, key=lambda w: w.x0):
        if columns and word.x0 < max(w.x1 for w in columns[-1]) + LABEL_GAP:
            columns[-1].append(word)
        else:
            columns.append([word])
    joined: list[Word] = []
    for words in columns:
        by_line = [[w for w in ln.words if w in words] for ln in lines]
        texts = [_text(part) for part in by_line if part]
        text = texts[0]
        for more in texts[1:]:
            text = joined_lines(text, more)
        joined.append(Word(text, min(w.x0 for w in words), min(w.top for w in words), max(w.x1 for w in words),
                           max(w.bottom for w in words), all(w.bold for w in words)))
    cells = list(row.words[_label_end(row.words, data_lo):])
    for line in lines:  # a cell's text wrapped in its cell ('96.30' over '%'): joined with its row's word there
        if line is row:
            continue
        for word in (w for w in line.words if w.x0 >= data_lo):
            at = next((k for k, c in enumerate(cells) if c.x0 < word.x1 and c.x1 > word.x0), None)
            if at is None:
                cells.append(word)
                continue
            upper, lower = (word, cells[at]) if word.top < cells[at].top else (cells[at], word)
            cells[at] = Word(joined_lines(upper.text, lower.text), min(word.x0, upper.x0, lower.x0),
                             upper.top, max(upper.x1, lower.x1), lower.bottom, upper.bold and lower.bold)
    return Line(tuple(joined) + tuple(sorted(cells, key=lambda w: w.x0)))


_BRACKETED = re.compile(rf"^[(\[]?{SIGN}?{FIGURES}%?[)\],;]*$")


def _numbers_line(line: Line) -> bool:
    """Whether a line is a row of numbers: after its label (the words before its first number), at least half
    its words are numbers (bracketed ones too: '(85.5)', '[0.61,'), and some cell (words within ``LABEL_GAP``,
    as wide as an interword space of a large font gets) prints a number (``_number_cell``). A header that holds
    a number ('SD γ = 0.90' among names of columns), or whose every number is part of a name in its cell ('Case 1
    Case 2  Case 3', '95% CI'), is not one."""
    words = line.words
    first = next((i for i, w in enumerate(words) if is_value(w)), None)
    if first is None or not any(_number_cell(cell) for cell in _label_clusters(words)):
        return False  # every number is part of a name in its cell ('Case 1', '95% CI'): a header
    rest = _without_notes(words[first:])
    return 2 * sum(1 for w in rest if is_value(w) or _BRACKETED.match(squeezed(w.text))) >= len(rest)


#: Column numbers counted this far (1, 2, 3) name columns.
ORDINALS = 3


def _ordinals(line: Line) -> bool:
    """Whether a line's numbers count columns, 1, 2, 3 ... (at least ``ORDINALS`` of them, each one more than the
    one before): a header that names columns by their number (a run, a month, a fold), not a row of values."""
    numbers = [w.text for w in line.words if is_value(w)]
    return len(numbers) >= ORDINALS and all(t.isdigit() for t in numbers) and [int(t) for t in numbers] == list(
        range(int(numbers[0]), int(numbers[0]) + len(numbers))) and int(numbers[0]) in (0, 1)


def _without_notes(words: tuple[Word, ...]) -> list[Word]:
    """A row's words less those of a bracketed note after a number ('397 (1F)', '725 (5M, 2F; 32 mins)'): the note
    is part of its value's cell (``review.tables.figures``), no word of a name."""
    notes = note_words([w.text for w in words])
    return [w for k, w in enumerate(words) if k not in notes]


def _number_cell(cell: tuple[Word, ...]) -> bool:
    """Whether a cell's words print a number, not a name holding one: it starts with a
    number that no word goes on from ('71.2 ± 0.8', '1 · 10⁴'; not 'Case 1', '95% CI')."""
    return is_value(cell[0]) and not (len(cell) > 1 and cell[1].text[:1].isalpha())


def _unit_row(line: Line) -> bool:
    """Whether a body line is a row whose cells print numbers with a unit set against them ('Solve time 24s 40s
    28s', 'cutoff 10m 20m'): after its label, two or more words, every one a number with letters glued on
    (``registry.numbers.glued_unit``), a dash for an empty cell aside. It holds no value word as ``is_value`` reads
    one, yet it is no row group's label nor a note, which print names. Such a line never starts a body: a header
    may name its columns so ('20m', '5k')."""
    words = line.words
    first = next((i for i, w in enumerate(words) if glued_unit(w.text) is not None), None)
    if first is None or first == 0:
        return False
    rest = [w for w in words[first:] if any(c.isalnum() for c in w.text)]  # a dash for an empty cell is no name
    return len(rest) >= 2 and all(glued_unit(w.text) is not None for w in rest)


#: A gap (points) narrower than this between digit groups is a thin space inside one number ('45 000').
THIN_SPACE = 3.0
_LEAD_GROUP = re.compile(rf"^{SIGN}?\d{{1,3}}$")
_GROUP = re.compile(r"^\d{3}(?:[.,]\d+)?[%" + re.escape(MARKS) + r"]*$")


def _thousands(words: tuple[Word, ...]) -> tuple[Word, ...]:
    """A row's words with numbers whose thousands are set apart by a thin space ('45 000', '453 291') joined into
    one word, so that the groups are read as one value in one cell."""
    out: list[Word] = []
    for word in words:
        last = out[-1] if out else None
        if (last is not None and _GROUP.match(word.text) and word.x0 - last.x1 < THIN_SPACE
                and (_LEAD_GROUP.match(last.text) or re.match(rf"^{SIGN}?\d{{1,3}}(?: \d{{3}})+$", last.text))):
            out[-1] = Word(f"{last.text} {word.text}", last.x0, min(last.top, word.top), word.x1,
                           max(last.bottom, word.bottom), last.bold and word.bold)
        else:
            out.append(word)
    return tuple(out)


def _running(line: Line) -> bool:
    """Whether a line's words run on without a gap between cells (a note, not a row that starts with '#')."""
    words = line.words
    return all(b.x0 - a.x1 <= PROSE_GAP for a, b in zip(words, words[1:], strict=False))


def _label_end(words: tuple[Word, ...], data_lo: float) -> int:
    """How many of a row's first words are its label: those left of the first data column (a label word that
    is no number may run on past the column's header start). A number set close to words that reach over the
    first column is that column's cell, wider than its header ('1 · 10⁴' under '|D|')."""
    n = 0
    while n < len(words) and (words[n].x1 <= data_lo or not is_value(words[n]) and words[n].x0 < data_lo - 2):
        if is_value(words[n]) and _cell_end(words, n) > data_lo:
            break
        n += 1
    return n


def _cell_end(words: tuple[Word, ...], start: int) -> float:
    """Where the cell a row's word starts ends: the words after it set within ``CELL_GAP`` are the same cell."""
    end = start
    while end + 1 < len(words) and words[end + 1].x0 - words[end].x1 <= CELL_GAP:
        end += 1
    return words[end].x1


def _label_columns(columns: list[Column], body: list[Line]) -> tuple[list[Column], list[Column]]:
    """The leading columns whose cells print no number are row labels (a stub of several columns: 'Task',
    'Domain', 'Dataset'); the rest hold data. A number in a name ('Suffix 3', ``_number_cell``), or set under a
    name in its cell, is no number of the cell."""
    labels: list[Column] = []
    for column in columns[:-1]:
        # a line with words in this column alone is a label's line, its number part of a name ('116' under
        # 'Neuron', ``unwrapped_labels``)
        cells = [[w for w in line.words if column.lo <= w.centre < column.hi] for line in body
                 if not all(column.lo <= w.centre < column.hi for w in line.words)]
        if any(_number_cell(cluster) and not _stacked(cluster[0], cell)
               for cell in cells for cluster in _label_clusters(tuple(cell))):
            break
        labels.append(column)
    return labels, columns[len(labels):]


def _stacked(word: Word, words: list[Word]) -> bool:
    """Whether a word is set under or over a word of a name among its line's words in its cell (a wrapped
    label's '133' under 'Neuron', which poppler gives on one line with it): part of the name."""
    return any(w is not word and not is_value(w) and w.x0 < word.x1 and w.x1 > word.x0
               and (w.bottom <= word.top + 1 or w.top >= word.bottom - 1) and abs(w.top - word.top) < 2 * word.height
               for w in words)


#: A gap (points) wider than this between a row's label words separates label columns (an interword space is
#: 2-3.5 points).
LABEL_GAP = 7.0


def _label_clusters(words: tuple[Word, ...]) -> list[tuple[Word, ...]]:
    clusters: list[list[Word]] = []
    for word in words:
        if clusters and word.x0 - clusters[-1][-1].x1 <= LABEL_GAP:
            clusters[-1].append(word)
        else:
            clusters.append([word])
    return [tuple(c) for c in clusters]


def _middle(words: tuple[Word, ...] | list[Word]) -> float:
    """The height of words' middle: a row's height is its values', not that of a multirow label its line took in."""
    return (min(w.top for w in words) + max(w.bottom for w in words)) / 2


def _label_spans(labels: list[tuple[Word, ...]]) -> list[tuple[float, float]]:
    """The label columns the rows' label words form, left to right: clusters apart by more than ``LABEL_GAP``
    whose extents overlap from row to row form one column."""
    spans: list[list[float]] = []
    for label in labels:
        for cluster in _label_clusters(label):
            spans.append([cluster[0].x0, max(w.x1 for w in cluster)])
    return [(a, b) for a, b in _merged(spans)]


def _outer_column(words: tuple[Word, ...], spans: list[tuple[float, float]]) -> int | None:
    """The outer label column (not the rows' own, innermost one) that all of ``words`` lie in, if any."""
    if len(spans) < 2:
        return None
    x0, x1 = words[0].x0, max(w.x1 for w in words)
    hits = [i for i, (a, b) in enumerate(spans) if x0 < b and x1 > a]
    return hits[0] if len(hits) == 1 and hits[0] < len(spans) - 1 else None


def _multirow_levels(labels: list[tuple[Word, ...]], ys: list[float], loose: list[tuple[Word, ...]],
                     spans: list[tuple[float, float]]) -> list[tuple[tuple[str, ...], tuple[Word, ...]]]:
    """Each row's outer label levels (the multirow labels of the label columns left of its own), and the words
    of its label that are those levels.

    The innermost label column is the row's own label; an outer label (set once, by ``\\multirow``, on a
    row's line or between rows) names a run of rows: a label on the first row's line and on rows' lines
    only starts its run (top-aligned), otherwise it sits at its run's middle (centred).
    """
    if len(spans) < 2:
        return [((), ())] * len(labels)
    per_column: list[list[tuple[float, str]]] = [[] for _ in spans[:-1]]
    taken: list[list[Word]] = [[] for _ in labels]
    for i, label in enumerate(labels):
        for cluster in _label_clusters(label):
            k = _outer_column(cluster, spans)
            if k is not None:
                per_column[k].append((_middle(cluster), _text(list(cluster))))
                taken[i] += cluster
    for words in loose:
        for cluster in _label_clusters(words):
            k = _outer_column(cluster, spans)
            if k is not None:
                per_column[k].append((_middle(cluster), _text(list(cluster))))
    runs = [_runs(ys, sorted(found)) for found in per_column]
    return [(tuple(run[i] for run in runs if run[i]), tuple(taken[i])) for i in range(len(labels))]


def _merged(spans: list[list[float]]) -> list[list[float]]:
    merged: list[list[float]] = []
    for a, b in sorted(spans):
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return merged


def _runs(ys: list[float], labels: list[tuple[float, str]]) -> list[str]:
    """Each row's label in one outer label column, from the labels' heights (see ``_multirow_levels``)."""
    if not labels:
        return [""] * len(ys)
    gaps = sorted(b - a for a, b in zip(ys, ys[1:], strict=False)) or [10.0]
    pitch = gaps[len(gaps) // 2] or 10.0
    on_rows = [min(range(len(ys)), key=lambda i: abs(ys[i] - y)) for y, _ in labels]
    on_lines = all(abs(ys[r] - y) < 0.3 * pitch for r, (y, _) in zip(on_rows, labels, strict=True))
    out = [""] * len(ys)
    if on_lines and (on_rows[0] == 0 or not _centred_runs(on_rows, len(ys))):  # top-aligned: each starts its run
        for k, (r, (_, text)) in enumerate(zip(on_rows, labels, strict=True)):
            end = on_rows[k + 1] if k + 1 < len(labels) else len(ys)
            for i in range(r, end):
                out[i] = text
        return out
    start = 0
    for k, (y, text) in enumerate(labels):
        if start >= len(ys):
            break
        if k + 1 == len(labels):
            end = len(ys) - 1
        else:
            target = 2 * y - ys[start]
            end = min(range(start, len(ys)), key=lambda i: abs(ys[i] - target))
        for i in range(start, end + 1):
            out[i] = text
        start = end + 1
    return out


def _centred_runs(on_rows: list[int], rows: int) -> bool:
    """Whether labels on the rows ``on_rows`` can each be centred on a run of rows, the runs following one another
    from the first row to the last: otherwise they are set at their runs' tops, and the rows over the first label
    belong to a label printed before them (on the page before, where the table began)."""
    start = 0
    for k, row in enumerate(on_rows):
        end = 2 * row - start
        if end < row or (k + 1 < len(on_rows) and end >= on_rows[k + 1]) or end >= rows:
            return False
        start = end + 1
    return start == rows


def _centred_group(line: Line, left_edge: float, right: float) -> bool:
    """A line of one label centred on the table's body, no number in it, set between the header and the rows or
    amid them: a row group's name set across the table (``\\multicolumn{n}{c}{List Processing}``)."""
    if len(_label_clusters(line.words)) != 1 or any(is_value(w) for w in line.words):
        return False
    return abs((line.x0 + line.x1) - (left_edge + right)) / 2 < max(3.0, 0.03 * (right - left_edge))


def _group_line(line: Line, left_edge: float, rotated: list[Word]) -> bool:
    """A line of one label at the table's left edge, with no rotated header beside it: a row group's name."""
    if len(_clusters(line)) != 1 or line.x0 > left_edge + 3 or any(is_value(w) for w in line.words):
        return False
    return not any(w.top < line.bottom and w.bottom > line.top for w in rotated)


def _columns(header: list[Line], rotated: list[Word], left_edge: float, body: list[Line] | None = None
             ) -> tuple[list[Column], Column | None]:
    pieces: list[_Piece] = []
    for index, line in enumerate(header):
        pieces += [_Piece(_text(c), c[0].x0, max(w.x1 for w in c), index, tuple(c)) for c in _clusters(line)]
    pieces = _spanning_pieces(pieces)
    if body:
        pieces = _split_at_gutters(pieces, _body_columns(body))
        pieces = _joined_over_one_column(pieces, _merged([[w.x0, w.x1] for line in body for w in line.words
                                                          if is_value(w)]))
    bottom: list[tuple[_Piece, list[str]]] = []
    for piece in pieces:
        below = [p for p in pieces if p.line > piece.line and p.x0 < piece.x1 and p.x1 > piece.x0]
        if not below and not any(w.x0 < piece.x1 and w.x1 > piece.x0 and w.top >= header[piece.line].bottom - 1
                                 for w in rotated):
            bottom.append((piece, [piece.text]))
    for stack in _rotated_stacks(rotated):
        words = [w for line in stack for w in line]
        text = " ".join(_text(line) for line in stack)
        stack_piece = _Piece(text, min(w.x0 for w in words), max(w.x1 for w in words), len(header))
        bottom.append((stack_piece, [text]))
    bottom.sort(key=lambda b: b[0].x0)
    bottoms = [b[0] for b in bottom]
    uppers = [p for p in pieces if not any(p is b for b in bottoms)]
    stub_first = bool(bottoms) and bottoms[0].x0 <= left_edge + 3
    spanned: dict[int, set[int]] = {}
    for upper in sorted(uppers, key=lambda u: -u.line):  # lower levels first: a level above spans whole ones
        lower = [spanned[id(o)] for o in uppers if o.line > upper.line and id(o) in spanned]
        spanned[id(upper)] = _spanned(upper, bottoms, [o for o in uppers if o.line == upper.line and o is not upper],
                                      stub_first, lower)
    tiled: set[int] = set()  # headers set flush left over their groups: each a level of its own
    for level in {u.line for u in uppers}:
        groups = _tiled(sorted((u for u in uppers if u.line == level), key=lambda u: u.x0), bottoms, stub_first)
        spanned.update(groups)
        tiled.update(groups)
    named: list[tuple[_Piece, tuple[str, ...]]] = []
    for i, piece in enumerate(bottoms):
        levels: list[str] = [piece.text]
        above = [u for u in uppers if u.line < piece.line and i in spanned[id(u)]]
        last: set[int] = {i}
        for upper in sorted(above, key=lambda p: -p.line):
            grouping = any(len(spanned[id(u)]) > 1 for u in uppers if u.line == upper.line)
            if spanned[id(upper)] == last and not (id(upper) in tiled and last == {i}) and not (
                    grouping and last == {i} and len(spanned[id(upper)]) == 1
                    and upper.x1 - upper.x0 > 1.5 * (piece.x1 - piece.x0)):
                levels[0] = joined_lines(upper.text, levels[0])
            else:
                levels.insert(0, upper.text)  # a header over several columns: a level of its own
            last = spanned[id(upper)]
        named.append((piece, tuple(levels)))
    stub: Column | None = None
    if named and named[0][0].x0 <= left_edge + 3:
        stub_piece, stub_levels = named.pop(0)
        stub = Column(stub_levels, stub_piece.x0, stub_piece.x1)
    columns = []
    for i, (piece, names) in enumerate(named):
        left = stub.x1 if (i == 0 and stub is not None) else (named[i - 1][0].x1 if i else None)
        right = named[i + 1][0].x0 if i + 1 < len(named) else None
        lo = (left + piece.x0) / 2 if left is not None else float("-inf")
        hi = (piece.x1 + right) / 2 if right is not None else float("inf")
        columns.append(Column(names, piece.x0, piece.x1, lo, hi))
    return columns, stub


def _tiled(line: list[_Piece], bottoms: list[_Piece], stub_first: bool) -> dict[int, set[int]]:
    """The columns each header of one line spans where the line's headers are set flush left over their groups
    of columns (a publisher's style: 'Reconstruction-based' from its first column's left edge, narrower than
    the three columns under it): each starts at a column's left edge, the first at the first column of data,
    and at least two of them overlap several columns; then each spans from its column up to the next one's.
    Empty where the line is not so set (centred spanning headers are ``_spanned``'s)."""
    first = 1 if stub_first else 0
    starts = [next((i for i, b in enumerate(bottoms) if b.line > u.line and abs(b.x0 - u.x0) <= 2 * EDGE), None)
              for u in line]
    line = [u for u, s in zip(line, starts, strict=True) if s is None or s >= first]  # the stub's own header aside
    starts = [s for s in starts if s is None or s >= first]
    if len(line) < 2 or None in starts or starts[0] != first or starts != sorted(set(starts)):  # type: ignore[type-var]
        return {}
    wide = sum(1 for u in line if sum(1 for b in bottoms if min(u.x1, b.x1) - max(u.x0, b.x0) > 2) >= 2)
    if wide < 2:
        return {}
    ends = [*starts[1:], len(bottoms)]
    return {id(u): set(range(a, b)) for u, a, b in zip(line, starts, ends, strict=True)}  # type: ignore[arg-type]


def joined_lines(upper: str, lower: str) -> str:
    """A header's text set on two lines, read as one: a hyphen at the line's end before a lower-case letter is a
    word broken there ('Non High-' 'light-based'); another hyphen at either side joins without a space
    ('Model-' 'B/16')."""
    if upper.endswith("-") and lower[:1].islower():
        return upper[:-1] + lower
    if upper.endswith("-") or lower.startswith("-"):
        return upper + lower
    return f"{upper} {lower}"


def _spanned(upper: _Piece, bottoms: list[_Piece], beside: list[_Piece], stub_first: bool = False,
             lower: list[set[int]] | None = None) -> set[int]:
    """The bottom-level headers (indices) a header above them spans: those it overlaps, where it overlaps
    several; else the run of neighbouring headers no other header of its line covers that it is centred over
    (a spanning header narrower than its columns, 'Set B' over 'PPL' and 'Hit@1'), which is the one it
    overlaps alone where it is the first line of a header on two lines. One that overlaps several spans the
    run of uncovered headers around them it is centred over, where there is one ('Unstructured models' over
    six columns, overlapping the middle three). The stub (``stub_first``: the first header, at the table's left
    edge) heads the row labels and is never spanned: a run from the stub to the column after the spanned ones
    can be centred by chance ('Histone marks' over two columns, not over 'Model' and 'Promoter' too). Nor does
    a run cut through the span of a header between it and the bottom (``lower``): 'Corpus-Level Metrics' over
    'CoNLL', 'SEEDA-S', 'SEEDA-E' spans their six columns, not the four in the middle, centred as well."""
    def overlaps(a: _Piece, b: _Piece) -> bool:
        return min(a.x1, b.x1) - max(a.x0, b.x0) > 2

    over = {i for i, b in enumerate(bottoms) if b.line > upper.line and overlaps(upper, b)}
    free = [b.line > upper.line and not any(overlaps(o, b) for o in beside) and not (i == 0 and stub_first)
            for i, b in enumerate(bottoms)]
    centre = upper.centre
    # A header much wider than the one column it overlaps is no first line of that column's header set on two
    # lines: it spans a run of columns centred under it, where there is one ('10% training' over 'Ebola',
    # 'Hep-C', 'Influenza', overlapping only the middle one)
    wide = len(over) == 1 and all(upper.x1 - upper.x0 > 1.5 * (bottoms[i].x1 - bottoms[i].x0) for i in over)
    best: tuple[float, set[int]] | None = None
    widest: tuple[float, set[int]] | None = None
    for start in range(len(bottoms)):
        for end in range(start, len(bottoms)):
            if not free[end]:
                break
            run = set(range(start, end + 1))
            if any(run & block and not block <= run for block in lower or []):
                continue
            if over and not over <= run or len(over) > 1 and any(free[k] is False for k in run):
                continue
            middle = (bottoms[start].x0 + bottoms[end].x1) / 2
            off = abs(middle - centre)
            if off <= max(3.0, 0.15 * (bottoms[end].x1 - bottoms[start].x0)) and (best is None or off < best[0]):
                best = (off, run)
            if wide and len(run) > 1 and off <= max(3.0, 0.15 * (bottoms[end].x1 - bottoms[start].x0)) and (
                    widest is None or off < widest[0]):
                widest = (off, run)
    if widest is not None:
        return widest[1]
    return best[1] if best is not None else over


def _spanning_pieces(pieces: list[_Piece]) -> list[_Piece]:
    """Header cells over other header cells joined at gaps up to ``LABEL_GAP``: a spanning header's words are
    set apart more than a cell's ('MASE' and its '↓'), and spanning headers stand far apart."""
    out: list[_Piece] = []
    for piece in pieces:
        last = out[-1] if out else None
        if (last is not None and last.line == piece.line and piece.x0 - last.x1 <= LABEL_GAP
                and any(p.line > last.line and p.x0 < last.x1 and p.x1 > last.x0 for p in pieces)):
            out[-1] = _Piece(f"{last.text} {piece.text}", last.x0, max(last.x1, piece.x1), last.line,
                             last.words + piece.words)
        else:
            out.append(piece)
    return out


def _body_columns(body: list[Line]) -> list[list[float]]:
    """The extents of the body's columns of numbers, left to right: each row's cells (words within ``CELL_GAP``)
    that hold a number, their extents merged from row to row."""
    spans: list[list[float]] = []
    for line in body:
        for cluster in _clusters(line):
            if any(is_value(w) for w in cluster):
                spans.append([cluster[0].x0, max(w.x1 for w in cluster)])
    return _merged(spans)


def _fitted_to_gutters(columns: list[Column], body_columns: list[list[float]]) -> list[Column]:
    """Columns whose shared boundary lies in the one gap between the body's columns of numbers that falls between
    their headers' centres, where there is exactly one and the numbers on each side of it reach under their
    headers' centres: cells wider than their headers ('91.17 +/- 2.6' under 'LZ') reach past the midpoint between
    the headers, never across the gap that sets the columns apart. Where no such gap, or several, fall there
    (a '±' and its number set apart inside a cell make a second one), the midpoint stays."""
    out = list(columns)
    for i in range(len(out) - 1):
        left, right = out[i], out[i + 1]
        lo, hi = (left.x0 + left.x1) / 2, (right.x0 + right.x1) / 2
        pairs = [(a, b) for a, b in zip(body_columns, body_columns[1:], strict=False) if lo < (a[1] + b[0]) / 2 < hi]
        gaps = [(a[1] + b[0]) / 2 for a, b in pairs if lo < a[1] and b[0] < hi]  # numbers under both headers
        if len(pairs) == 1 and len(gaps) == 1:
            out[i] = replace(left, hi=gaps[0])
            out[i + 1] = replace(right, lo=gaps[0])
    return out


EDGE = 1.5  # points: a header's word ends this close to its column's edge where both are set flush to it


def _split_at_gutters(pieces: list[_Piece], body_columns: list[list[float]]) -> list[_Piece]:
    """Bottom-level header cells split between two words where a gap between the body's columns falls, or where
    one column's edge lines up with the words' gap, a column of numbers on each side: headers of narrow
    columns set close together ('Influenza A Hepatitis C Ebola', each header set flush right over its numbers)
    are several headers. A header with headers under it spans columns and stays whole."""
    gutters = [(a[1] + b[0]) / 2 for a, b in zip(body_columns, body_columns[1:], strict=False)]

    def boundary(left: Word, right: Word) -> bool:
        if any(left.x1 <= g <= right.x0 for g in gutters):
            return True
        flush = any(left.x1 - EDGE <= hi < right.x0 for _, hi in body_columns) or any(
            left.x1 < lo <= right.x0 + EDGE for lo, _ in body_columns)
        return flush and any(hi <= right.x0 + EDGE for _, hi in body_columns if hi > left.x0) and any(
            lo >= left.x1 - EDGE for lo, _ in body_columns if lo < right.x1)

    out: list[_Piece] = []
    for piece in pieces:
        below = any(p.line > piece.line and p.x0 < piece.x1 and p.x1 > piece.x0 for p in pieces)
        if below or len(piece.words) < 2:
            out.append(piece)
            continue
        part: list[Word] = [piece.words[0]]
        for word in piece.words[1:]:
            if boundary(part[-1], word):
                out.append(_Piece(_text(part), part[0].x0, max(w.x1 for w in part), piece.line, tuple(part)))
                part = []
            part.append(word)
        out.append(_Piece(_text(part), part[0].x0, max(w.x1 for w in part), piece.line, tuple(part)))
    return out


def _flush_right(piece: _Piece, body_columns: list[list[float]]) -> bool:
    """Whether a header cell ends where the column of numbers under it ends (both set flush right)."""
    return any(piece.x0 < hi and piece.x1 > lo and abs(piece.x1 - hi) <= EDGE for lo, hi in body_columns)


def _joined_over_one_column(pieces: list[_Piece], value_columns: list[list[float]]) -> list[_Piece]:
    """Neighbouring bottom-level header cells of a line that both stand over one and the same column of numbers
    (``value_columns``: the extents of the body's numbers, word by word, so that two columns of numbers set close
    stay two),
    and over no other, joined, and a cell over no column with the cell after it set flush right over its
    column: one header an extractor set apart ('Hepatitis' 'C'; 'No.' 'classes' set flush right over numbers
    narrower than the header)."""
    def over(piece: _Piece) -> list[int]:
        return [k for k, (lo, hi) in enumerate(value_columns) if piece.x0 < hi and piece.x1 > lo]

    out: list[_Piece] = []
    for piece in pieces:
        last = out[-1] if out else None
        below = any(p.line > piece.line and p.x0 < piece.x1 and p.x1 > piece.x0 for p in pieces)
        if (last is not None and last.line == piece.line and not below and len(over(piece)) == 1
                and (over(last) == over(piece) or not over(last) and _flush_right(piece, value_columns))
                and piece.x0 - last.x1 <= LABEL_GAP
                and not any(p.line > last.line and p.x0 < last.x1 and p.x1 > last.x0 for p in pieces)):
            out[-1] = _Piece(f"{last.text} {piece.text}", last.x0, max(last.x1, piece.x1), last.line,
                             last.words + piece.words)
        else:
            out.append(piece)
    return out


def _open_group(previous: PageWords, label: str) -> str | None:
    """The row group still open at the end of ``label`` on the previous page."""
    for table in read_tables(previous, label):
        if table.rows and table.open_group is not None:
            return table.open_group
    return None


# -- looking a cell up ----------------------------------------------------------------------------


def levels_of(name: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in name.split(" / ") if part.strip())


#: How a curator types a sub- or superscript that the page prints as smaller letters on the line ('M_N', 'x^{2}'):
#: left out when names are compared, on both sides.
_SCRIPT_MARKUP = str.maketrans("", "", "_^{}")


#: Math fonts' glyphs that print as a letter or sign a curator types otherwise, and that NFKC keeps apart: the
#: increment sign for a capital delta ('∆Acc' for 'ΔAcc'), the asterisk operator for an asterisk ('∆∗').
_LOOKALIKES = str.maketrans({"\u2206": "\u0394", "\u2217": "*"})


def plain_glyphs(text: str) -> str:
    """``text`` with math fonts' look-alike glyphs as a curator types them (``_LOOKALIKES``)."""
    return text.translate(_LOOKALIKES)


def _same(a: str, b: str) -> bool:
    """Whether two names are one printed name: compared squeezed, without trailing marks, in any case, with a
    sub- or superscript typed as markup ('M_N') the same as printed ('MN'), and a math font's look-alike glyph
    the same as the letter typed ('∆' and 'Δ')."""
    return (plain_glyphs(squeezed(a)).rstrip(MARKS).lower().translate(_SCRIPT_MARKUP)
            == plain_glyphs(squeezed(b)).rstrip(MARKS).lower().translate(_SCRIPT_MARKUP))


def matches(levels: tuple[str, ...], wanted: str) -> bool:
    """Whether a header or row named ``levels`` is the one a record names ``wanted`` (its last levels may do)."""
    asked = levels_of(wanted)
    if not asked or len(asked) > len(levels):
        return _same(" ".join(levels), wanted)
    return all(_same(a, b) for a, b in zip(levels[-len(asked):], asked, strict=True)) or _same(
        " ".join(levels), wanted)


def find_rows(table: Table, wanted: str) -> list[Row]:
    """The rows of ``table`` named ``wanted``, and, where there are any, those of its sibling subtables named so
    too (a label printed in two subtables, cited without its subcaption, is ambiguous)."""
    own = [row for row in table.rows if matches(row.levels, wanted)]
    return own + [row for row in table.others if matches(row.levels, wanted)] if own else own


def find_columns(table: Table, wanted: str) -> list[Column]:
    return [column for column in table.columns if matches(column.levels, wanted)]
