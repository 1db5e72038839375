"""Claims about a value's uncertainty: the ± value or interval printed with it (in its table cell, in a column of
its own, or right after it in the quoted sentence) must be the record's; and the words the header, the row label,
the caption, a table note or the sentence use ('s.d.', 'standard error', '95% CI') must name the record's kind, its
level, and the number of folds or seeds where the record gives one: the nearest that names a kind decides, and it
must name that one alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from registry.checking.cell_units import _captions
from registry.checking.cells import CellAt, _cannot
from registry.checking.claims import Assertion, Claim
from registry.models.uncertainty_kinds import REPEAT_WORDS, kind_words, kinds_in
from registry.models.values import UncertaintyKind
from registry.numbers import FIGURES
from review.pdf.matching import find_text, normalize, normalize_quote, number_pattern
from review.pdf.pdftext import Extraction
from review.tables.cited import Unread, _value

#: The words papers use for each kind of uncertainty, and for what it is taken over (declared once, in
#: ``registry.models.uncertainty_kinds``; ``kinds_in`` reads the kinds' words longest first).
KIND_WORDS = kind_words()


OVER_WORDS: dict[str, tuple[str, ...]] = {repeats.value: words for repeats, words in REPEAT_WORDS.items()}


def _numbers(text: str) -> list[str]:
    from registry.numbers_in_text import numbers_in

    return [_value(n) for n in numbers_in(normalize_quote(text))]


@dataclass(frozen=True)
class CellUncertainty(CellAt):
    """The ± value or interval printed in the cell must be the record's.

    ``own_column``: the source prints it in a column of its own ('SE'), named by the locator's
    ``uncertainty_column``; ``column`` is then that column, and its cell in the value's row prints the number
    itself (or an interval), with or without a '±'."""

    printed: str
    interval: bool
    own_column: bool = False

    def check(self, doc: Extraction) -> Assertion:
        expected = f"'{self.printed}' in column '{self.column}'" if self.own_column else f"'{self.printed}' in the cell"
        spot = self.locate(doc)
        if isinstance(spot, str):
            return _cannot(self, doc, expected, spot, "the cell cannot be read: ") or self._result(
                expected, False, self.page, detail=f"the cited cell is not on the page: {spot}")
        cell = spot.cell
        found: tuple[str, ...] | None = (cell.interval if self.interval else
                                         ((cell.plus_minus,) if cell.plus_minus else
                                          (cell.value,) if self.own_column and cell.value else None))
        wanted = _numbers(self.printed)[: 2 if self.interval else 1]
        if found is not None and [_value(f) for f in found] == wanted:
            where = f"printed in its own column, {spot.where}" if self.own_column else \
                f"printed with the value in {spot.where}"
            return self._result(expected, True, self.page, cell.text, where, spot.where)
        what = "interval" if self.interval else "± value"
        if found is None:  # an uncertainty that cannot be read is no witness of another one
            return self._unreadable(expected, self.page, f"{spot.where} prints '{cell.text}', read with no {what}, "
                                    f"so the record's '{self.printed}' cannot be compared there")
        shown = f"[{', '.join(found)}]" if self.interval else f"± {found[0]}"
        return self._result(expected, False, self.page, cell.text,
                            f"the cell prints '{cell.text}': {shown}, not the record's '{self.printed}'", spot.where)


@dataclass(frozen=True)
class TextUncertainty(Claim):
    """The ± value or interval printed right after the value in the quoted text must be the record's."""

    page: int
    quote: str
    value: str
    printed: str
    interval: bool

    def check(self, doc: Extraction) -> Assertion:
        expected = f"'{self.printed}' with '{self.value}'"
        page_text = doc.page(self.page)
        if page_text is None:
            return self._result(expected, False, self.page, detail=self._missing_page(doc, self.page))
        match = find_text(page_text, self.quote)
        hit = match.search(number_pattern(self.value)) if match is not None else None
        if match is None or hit is None:
            return self._result(expected, False, self.page,
                                detail=f"'{self.value}' is not printed in the quoted text, so its uncertainty cannot "
                                       "be read")
        after = hit.string[hit.end():hit.end() + 60]
        number = rf"[-+]?{FIGURES}"
        shape = (rf"[^\[\]]{{0,30}}?[\[(]\s*({number})\s*[,;\u2013-]\s*({number})\s*[\])]" if self.interval
                 else rf"\s*(?:\u00b1|\+/-|\+-)\s*({number})")
        printed = re.match(shape, after)
        wanted = _numbers(self.printed)[: 2 if self.interval else 1]
        if printed is not None and [_value(g) for g in printed.groups()] == wanted:
            return self._result(expected, True, self.page, hit.string[hit.start():hit.end() + printed.end()],
                                "printed right after the value")
        shown = f"'{hit.string[hit.start():hit.end() + printed.end()]}'" if printed else "no " + (
            "interval" if self.interval else "± value")
        return self._result(expected, False, self.page, hit.string[hit.start():hit.end() + 30].strip(),
                            f"the page prints {shown} with '{self.value}', not the record's '{self.printed}'")


@dataclass(frozen=True)
class UncertaintyStated(Claim):
    """The words printed with the value (caption, header, row label, table note, sentence) name the record's kind.

    The places are read nearest first (a column header before the caption), and the first that names any
    kind decides: it must name the record's kind and no other, since a caption that says both 's.d.' and
    'standard error' does not say which of the two a ± is. A record may cite where the source states the kind,
    level or count away from the value (``Uncertainty.stated_at``: a sentence, another page, a header such as
    '[N=1000]'): those words are read first, and the level and count may be printed there or in the place that
    names the kind. Kind 'other' has no words to find: it passes on the value alone, and says so."""

    page: int
    kind: UncertaintyKind
    level: str | None
    over: tuple[int, str] | None
    table: str | None = None
    row: str | None = None
    column: str | None = None
    subtable: str | None = None
    quote: str | None = None
    stated_at: tuple[int, str] | None = None
    """The page and the words the record cites as stating the kind, level or count."""
    note: str | None = None

    def check(self, doc: Extraction) -> Assertion:
        expected = self.kind.value + (f" ({self.level}%)" if self.level else "") + (
            f" over {self.over[0]} {self.over[1]}" if self.over else "")
        if self.kind is UncertaintyKind.OTHER:
            return self._result(expected, True, self.page, detail=f"kind 'other' ({self.note or 'no note'}): the "
                                "registry has no words for it to find on the page, so it passes on the printed value "
                                "and its uncertainty alone")
        cited = self._cited(doc)
        if isinstance(cited, str):
            return self._result(expected, False, self.stated_at[0] if self.stated_at else self.page, detail=cited)
        places = self._places(doc)
        if isinstance(places, Unread):
            return self._unreadable(expected, self.page, str(places))
        if isinstance(places, str):
            return self._result(expected, False, self.page, detail=places)
        places = cited + places
        for name, text in places:
            printed = normalize(text).text
            kinds = kinds_in(printed)
            if not kinds:
                continue
            named = " and ".join(f"'{w}' ({k.value})" for k, w in kinds.items())
            if self.kind not in kinds:
                return self._result(expected, False, self.page, text[:160],
                                    f"the {name} says {named}, not {self.kind.value}")
            if len(kinds) > 1:
                return self._result(expected, False, self.page, text[:160],
                                    f"the {name} names more than one kind of uncertainty, {named}, so it does not say "
                                    f"which one is printed with the value; quote the words that say {self.kind.value} "
                                    "of this value, or check the record's kind")
            word = kinds[self.kind]
            also = [normalize(t).text for _, t in cited]
            problems = []
            if self.level and not any(self._level_in(t) for t in (printed, *also)):
                problems.append(f"but not the level {self.level}%")
            if self.over and not any(self._over_in(t) for t in (printed, *also)):
                problems.append(f"but not '{self.over[0]} {self.over[1]}'")
            if problems:
                elsewhere = "" if cited else "; where the source states it elsewhere, cite that place as the " \
                    "uncertainty's stated_at (page and quote)"
                return self._result(expected, False, self.page, text[:160],
                                    f"the {name} says '{word}' " + " and ".join(problems) + elsewhere)
            where = f"the {name} says '{word}'"
            if cited and name != cited[0][0]:
                where += f", and the {cited[0][0]} gives the rest"
            return self._result(expected, True, self.page, text[:160], where)
        searched = ", ".join(name for name, _ in places) or "nothing"
        return self._result(expected, False, self.page,
                            detail=f"no words for {self.kind.value} ({', '.join(KIND_WORDS.get(self.kind, ()))}) in "
                                   f"the {searched}; the record's kind of uncertainty is not what the source states "
                                   "where the value is printed" + ("" if self.stated_at else "; where the source "
                                   "states it elsewhere, cite that place as the uncertainty's stated_at (page and "
                                   "quote)"))

    def _cited(self, doc: Extraction) -> list[tuple[str, str]] | str:
        """The words the record cites as stating the kind, level or count, as printed on their page."""
        if self.stated_at is None:
            return []
        page, quote = self.stated_at
        text = doc.page(page)
        if text is None:
            return f"the place the record cites for what its uncertainty is: {self._missing_page(doc, page)}"
        match = find_text(text, quote)
        if match is None:
            return (f"the words the record cites for what its uncertainty is, '{quote}', are not printed on page "
                    f"{page}")
        return [(f"quote cited on page {page}", match.normalized)]

    def _level_in(self, text: str) -> bool:
        return bool(re.search(rf"(?<![\d.]){re.escape(self.level or '')}\s*%", text))

    def _over_in(self, text: str) -> bool:
        count, kind = self.over  # type: ignore[misc]
        words = "|".join(re.escape(w) for w in OVER_WORDS.get(kind, (kind,)))
        printed = f"(?:{count}|{count:,})"
        return bool(re.search(rf"(?<![\d.,]){printed}\s+(?:\w+\s+){{0,2}}(?:{words})\b", text) or re.search(
            rf"\bn\s*=\s*{printed}\b", text, re.IGNORECASE))

    def _places(self, doc: Extraction) -> list[tuple[str, str]] | str:
        if self.table is not None and self.row is not None and self.column is not None:
            spot = CellAt(self.record_id, self.claim, self.page, self.table, self.row, self.column,
                          subtable=self.subtable).locate(doc)
            if isinstance(spot, str):
                why = f"the cell cannot be read: {spot}"
                return Unread(why) if isinstance(spot, Unread) else why
            return [(f"column header '{spot.column.name}'", spot.column.name), (f"row label '{spot.row.name}'",
                                                                                   spot.row.name),
                    (f"caption of {self.table}", spot.table.caption),
                    *((f"note under {self.table}", note) for note in spot.table.notes)]
        page_text = doc.page(self.page)
        if page_text is None:
            return self._missing_page(doc, self.page)
        match = find_text(page_text, self.quote or "")
        if match is None:
            return "the quoted text is not on the page, so the words around the value cannot be read"
        places = [("quoted text and the sentence it comes from", match.before[-30:] + match.normalized + match.after)]
        if self.table is not None:
            places += [(f"caption of {self.table}", text) for text in _captions(doc, self.page, self.table)]
        return places
