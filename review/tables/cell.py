"""What a table's cell prints, read from its words: its value, footnote marks, a ± or an interval after it, a bound's
sign, a power of ten set raised, and what else it prints (``read_cell``); whether a word is a value (``is_value``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from registry.numbers import FIGURES, SIGN, SUPERSCRIPT, TIMES
from registry.printed_forms import Printed, read_printed
from review.pdf.words import ANNOTATION, Word, squeezed

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
