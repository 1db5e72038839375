"""The claims about a result's unit printed with its value: right after it, or after the numbers that share it
('33.88 → 11.49 GB'), in the quoted text or where the cited sentence goes on past the quote (``UnitWithValue``);
the unit the sentence declares for its numbers (``declared_unit``); and a ``unit_detail`` ('Printed as GB') that must
agree with the unit (``UnitDetailAgrees``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from registry.checking.claims import Assertion, Citation, Claim
from registry.checking.text_claims import CannotCheck
from registry.models import Result
from registry.numbers import SIGN
from registry.units import other_units_printed_as, own_form_in, printed_forms, table
from registry.units import symbol as unit_symbol
from review.pdf.matching import TextMatch, find_text, normalize, normalize_quote, number_pattern, unit_pattern
from review.pdf.pdftext import Extraction


def _unit_printed(form: str) -> str | None:
    """The unit a printed form stands for (the first declared, where two share one), of the registry's units."""
    units = table().unit_printed_as(form)
    return units[0] if units else None


#: After a value, further numbers that share its unit: '33.88 → 11.49 GB', '10 to 20 s', '10–20 s'. Only arrows
#: and ranges: in '16 and 94 GB' or '3 or 4 GB' the unit may well belong to the last number alone.
_SHARED_UNIT = re.compile(r"(?:\s*(?:\u2192|->|-|\u2013|\u2014|/|to)\s*-?[0-9]+(?:[.,][0-9]+)*)*")


#: The word or symbol printed next: where a unit would be.
_NEXT_WORD = re.compile(r"\s*(%|[^\W\d_]+)")


#: A number standing alone (not the '1' of 'Top-1' or the '4' of 'H3K4') ending the text before a unit's symbol.
_NUMBER_BEFORE = re.compile(rf"(?:^|[\s(\[=~\u2248:,;])(?:{SIGN}|\u00b1)?\d+(?:[.,]\d+)*\s?$")


def declared_unit(text: str, symbols: tuple[str, ...]) -> str | None:
    """The first of ``symbols`` that ``text`` (a header, a label, a caption, a note, a sentence) prints as the unit
    of what it names ('Win rate (%)', 'in percent', 'Memory [GB]'), not as the unit of a number it prints
    ('Mix 50%', '95% confidence intervals', 'batch of 16 GB'): a symbol set after a number is that number's."""
    printed = normalize_quote(text)
    for symbol in symbols:
        for hit in unit_pattern(symbol).finditer(printed):
            if not _NUMBER_BEFORE.search(printed, 0, hit.start()):
                return symbol
    return None


@dataclass(frozen=True)
class UnitWithValue(Claim):
    """The unit the record gives must be the one printed with the value.

    'With the value' means right after it, or after the further numbers that share its unit
    ('33.88 → 11.49 GB' gives 33.88 its GB), in the quoted text or, where the quote stops before
    the unit, in the sentence the quote comes from; or printed in that sentence as the unit of what it
    reports ('accuracy (%)', 'in percent'), not after another number. Another unit printed with the value
    fails (the witness). A unit printed elsewhere on the page, or after another number of the quote,
    belongs to some other number: 'unit not printed', neither a pass nor a failure of the value.
    """

    page: int
    quote: str
    value: str
    unit: str
    symbols: tuple[str, ...]

    def check(self, doc: Extraction) -> Assertion:
        expected = f"{' or '.join(self.symbols)} ({self.unit})"
        page_text = doc.page(self.page)
        if page_text is None:
            return self._result(expected, False, self.page, detail=self._missing_page(doc, self.page))
        match = find_text(page_text, self.quote)
        if match is None:
            return self._unreadable(expected, self.page,
                                    f"the quoted text is not on page {self.page}, so its unit cannot be read")
        value = match.search(number_pattern(self.value))
        if value is None:
            return self._unreadable(expected, self.page,
                                    f"'{self.value}' is not printed in the quoted text on page {self.page}, so the "
                                    "unit printed with it cannot be read")
        return self._with_value(match, value, page_text, expected)

    def _with_value(self, match: TextMatch, value: re.Match[str], page_text: str, expected: str) -> Assertion:
        text = value.string
        quote_end = len(match.before) + len(match.normalized)
        shared = _SHARED_UNIT.match(text, value.end())  # a range or an arrow shares its unit, inside the quote or on
        at = shared.end() if shared else value.end()
        for symbol in self.symbols:
            hit = re.compile(r"\s*" + unit_pattern(symbol, after_value=True).pattern).match(text, at)
            if hit:
                where = ("in the quoted text" if hit.end() <= quote_end else
                         f"on page {self.page} just after the quoted text, in the sentence the quote comes from")
                return self._result(expected, True, self.page, text[value.start():hit.end()],
                                    f"'{symbol}' printed with '{self.value}' {where}")
        word = _NEXT_WORD.match(text, at)
        other = _unit_printed(word.group(1)) if word else None
        if word and other == str(self.unit):  # another form of the record's own unit ('%' for 'percent')
            return self._result(expected, True, self.page, text[value.start():word.end()],
                                f"'{word.group(1)}' ({other}) printed with '{self.value}'")
        if word and other is not None:  # the witness: another unit printed with the value
            printed = text[value.start():word.end()]
            return self._result(expected, False, self.page, printed,
                                f"the page prints '{printed}' ({other}), not {expected}; "
                                "correct the record's unit (or unit_detail) to the printed one")
        sentence = match.before[match.before.rfind(". ") + 1:] + match.normalized + match.after.split(". ")[0]
        declared = declared_unit(sentence, self.symbols)
        if declared is not None:
            return self._result(expected, True, self.page, match.shown,
                                f"'{declared}' printed in the citing sentence as the unit of what it reports")
        fix = ("quote the text that prints the value with its unit, or cite (unit_detail) where the page says it; "
               "where the page never says it, the unit is the record's own reading")
        for symbol in self.symbols:
            if unit_pattern(symbol).search(match.normalized):
                return self._unprinted(expected, self.page, (
                    f"unit not printed with the value: '{symbol}' is printed in the quoted text with another number, "
                    f"not with '{self.value}'; {fix}"), match.shown)
        on_page = normalize(page_text).text
        for symbol in self.symbols:
            if unit_pattern(symbol).search(on_page):
                return self._unprinted(expected, self.page, (
                    f"unit not printed with the value: '{symbol}' is printed on page {self.page}, but not with "
                    f"'{self.value}' nor in the citing sentence; {fix}"), match.shown)
        return self._unprinted(expected, self.page, (
            f"unit not printed on the page: no {expected} is printed with '{self.value}' on page {self.page}; {fix}"),
            match.shown)


@dataclass(frozen=True)
class UnitDetailAgrees(Claim):
    """A result's unit_detail 'Printed as <form>' must name a form of the result's own unit, not of another one
    (also where the unit has no printed form: a count 'Printed as Sequences/s' is a throughput)."""

    unit: str
    form: str
    reads_text: ClassVar[bool] = False

    def check(self, doc: Extraction) -> Assertion:
        expected = f"'{self.form}' is how {self.unit} is printed"
        if not detail_disagrees(self.form, self.unit):
            return self._result(expected, True, detail=f"unit_detail says the unit is printed as '{self.form}'")
        others = other_units_printed_as(self.form, self.unit)
        known = printed_forms(self.unit)
        whose = f", which is how {' or '.join(others)} is printed" if others else ""
        own = f"printed as {', '.join(known)}" if known else "printed without a unit"
        return self._result(expected, False, detail=(
            f"unit_detail says the unit is printed as '{self.form}'{whose}; the unit {self.unit} is {own}: correct "
            "the record's unit (or unit_detail) to the printed one"))


def detail_disagrees(form: str, unit: str) -> bool:
    """Whether 'Printed as <form>' cannot be how ``unit`` is printed: not one of its forms, where it has forms, or
    a form of another unit only, where it has none (a dimensionless score 'Printed as MCC' is left alone)."""
    known = printed_forms(unit)
    return form not in known and own_form_in(form, unit) is None and bool(known or other_units_printed_as(form, unit))


def unit_symbols(result: Result) -> tuple[tuple[str, ...], list[Claim]]:
    """The forms the result's unit may be printed in, and the claim that unit_detail and unit agree. A phrase an
    older record quotes whole ("Printed as 'in percent'") is read with the unit's own form in it ('percent')."""
    symbol = result.unit_form
    if symbol is None:
        return printed_forms(result.unit), []
    agree: list[Claim] = []
    if detail_disagrees(symbol, result.unit):
        agree.append(UnitDetailAgrees(result.id, "unit detail = unit", str(result.unit), symbol))
    own = own_form_in(symbol, result.unit)
    return ((symbol, own) if own else (symbol,)), agree


def _unit_claims(result: Result, cited: Citation) -> list[Claim]:
    symbols, agree = unit_symbols(result)
    if not symbols and not unit_symbol(result.unit):
        return []  # a dimensionless score or a count is printed without a unit: nothing to check
    if symbols:
        return [*agree, UnitWithValue(result.id, "unit", cited.page, cited.quote, result.printed_value, result.unit,
                                      symbols)]
    return [CannotCheck(result.id, "unit", str(result.unit),
                        f"no printed form of the unit {str(result.unit)!r} is known, and neither unit_printed nor "
                        f"unit_detail says how the page prints it: write it as printed in unit_printed (for example "
                        f"'ms')")]
