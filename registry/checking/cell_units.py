"""The claim about a table cell's unit: the unit printed in the cell, the column header ('Throughput (Sequences/s)')
or the row label ('Max. input length (tokens)'), the first of them that prints one, else in the caption, a table note
or the sentence the locator quotes; a unit set after a number there ('Mix 50%', '95% CI') is that number's, not the
column's. A count or a dimensionless score must find none in the first three; a unit set against the cell's number
('88s') is the cell's, and one the table of units does not read ('10m') cannot be checked. Another unit printed
there fails; none printed anywhere is 'unit not printed'.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from registry.checking.cells import CellAt, _cannot, _glued
from registry.checking.claims import Assertion
from registry.checking.value_units import declared_unit
from registry.units import UnitTable
from registry.units import table as unit_table
from review.pdf.matching import find_text, normalize_quote, unit_pattern
from review.pdf.pdftext import Extraction
from review.tables.captions import caption_texts
from review.tables.cited import Located


def _captions(doc: Extraction, page: int, label: str) -> list[str]:
    words = doc.page_words(page)
    return caption_texts(words, label) if words is not None else []


@functools.lru_cache(maxsize=16)  # per table of units (a registry's own units print forms too) and shape
def _unit_forms(units: UnitTable, bare: bool) -> re.Pattern[str]:
    """The printed forms of every unit that say the unit of a value: at the start of a cell's text after the value
    (``bare``: '17.4 ms'), or in parentheses in a header or a label ('Latency (ms)', 'Params (M)'). Longest first,
    so that '(ms)' is never read as its 's'. Lowercase single letters are left out: '(s)' in 'model(s)', '(a)' and
    '(d)' label parts and panels as often as they print seconds or days."""
    forms = {form for form in units.every_form() if len(form) > 1 or not form.islower()}
    either = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    return re.compile(rf"^(?:{either})(?![A-Za-z])" if bare else rf"\(\s*({either})\s*\)")


@dataclass(frozen=True)
class CellUnit(CellAt):
    """The unit must be the one printed in the cell, its column header or its row label, or else in the caption.

    These are read nearest first, and the first of the three that prints a unit decides: a column header
    'Latency (ms)' says the cell is in milliseconds, whatever a row label ('NT 500M') or the caption holds.
    A unit printed without a symbol (``symbols`` empty: a count, a dimensionless score) must find no unit
    there at all."""

    unit: str
    symbols: tuple[str, ...]
    quote: str | None = field(default=None, kw_only=True)
    """The sentence the locator quotes, where it quotes one: a unit it prints confirms the cell's."""

    def check(self, doc: Extraction) -> Assertion:
        expected = f"{' or '.join(self.symbols)} ({self.unit})" if self.symbols else f"no unit ({self.unit})"
        spot = self.locate(doc)
        if isinstance(spot, str):
            return _cannot(self, doc, expected, spot) or self._result(expected, False, self.page, detail=spot)
        glued = self._glued_unit(expected, spot)
        if glued is not None:
            return glued
        near = [("cell", spot.cell.rest), (f"column header '{spot.column.name}'", spot.column.name),
                (f"row label '{spot.row.name}'", spot.row.name)]
        for name, text in near:
            symbol = self._symbol_in(text, declared=name != "cell")
            if symbol is not None:
                return self._result(expected, True, self.page, text[:120], f"'{symbol}' printed in the {name}",
                                    spot.where)
            other = self._other_unit(text, bare=name == "cell")
            if other is not None:
                printed, units = other
                shown = f"'{printed}'" if name == "cell" else f"'({printed})'"
                mine = f"not {expected}" if self.symbols else f"but the unit {self.unit} is printed without one"
                return self._result(expected, False, self.page, text[:120],
                                    f"the {name} prints {shown} ({' or '.join(units)}), {mine}; correct the record's "
                                    "unit (or unit_detail) to the printed one", spot.where)
        if not self.symbols:
            return self._result(expected, True, self.page, spot.cell.text,
                                "no unit is printed in the cell, its column header or its row label", spot.where)
        farther = [(f"caption of {self.table}", spot.table.caption),
                   *((f"note under {self.table}", note) for note in spot.table.notes),
                   *(("citing sentence", sentence) for sentence in self._sentence(doc))]
        for name, text in farther:
            symbol = declared_unit(text, self.symbols)
            if symbol is not None:
                return self._result(expected, True, self.page, text[:120], f"'{symbol}' printed in the {name}",
                                    spot.where)
        searched = ", ".join(name for name, _ in farther)
        return self._unprinted(expected, self.page, (
            f"unit not printed on the page: no {expected} is printed in the cell, its column header, its row label, "
            f"the {searched} (a unit set after a number, as the % of '95%', is that number's); the value is not "
            "failed by it: cite where the source says the unit (unit_detail), or leave it reported"),
            spot.cell.text, spot.where)

    def _sentence(self, doc: Extraction) -> list[str]:
        """The sentence the record's locator quotes, where it quotes one, as printed on the page."""
        page_text = doc.page(self.page) if self.quote else None
        match = find_text(page_text, self.quote or "") if page_text is not None else None
        if match is None:
            return []
        return [match.before[match.before.rfind(". ") + 1:] + match.normalized + match.after.split(". ")[0]]

    def _glued_unit(self, expected: str, spot: Located) -> Assertion | None:
        """The unit a cell prints set against its number ('88s', '10m'), checked against the record's: its own
        symbol or a form the table of units reads as the record's unit passes, a form of another unit fails, and a
        form the table does not know ('m': minutes or metres) cannot be checked. None where the cell prints none:
        the header, the label and the caption are read then."""
        cell = spot.cell
        letters = _glued(cell)
        if not letters:
            return None
        if letters in self.symbols:
            return self._result(expected, True, self.page, cell.text, f"'{letters}' printed in the cell, set against "
                                "its number", spot.where)
        units = unit_table().unit_printed_as(letters)
        if self.unit in units:
            return self._result(expected, True, self.page, cell.text, f"'{letters}' printed in the cell, set against "
                                f"its number ({self.unit})", spot.where)
        if units:
            return self._result(expected, False, self.page, cell.text,
                                f"the cell prints '{cell.text}', '{letters}' ({' or '.join(units)}) set against its "
                                f"number, not {expected}; correct the record's unit (or unit_detail) to the printed "
                                "one", spot.where)
        return self._unreadable(expected, self.page, (
            f"the cell prints '{cell.text}', '{letters}' set against its number, a sign the registry's table of units "
            f"does not read; whether it is {expected} cannot be checked: where it is, write '{letters}' in the "
            "record's unit_printed"))

    def _symbol_in(self, text: str, *, declared: bool = True) -> str | None:
        """The record's symbol printed in ``text``: in a header or label as its unit, not after a number of it
        ('Mix 50%'); in the cell's text after its value (``declared`` False), anywhere."""
        if declared:
            return declared_unit(text, self.symbols)
        printed = normalize_quote(text)
        return next((s for s in self.symbols if unit_pattern(s).search(printed)), None)

    def _other_unit(self, text: str, *, bare: bool) -> tuple[str, list[str]] | None:
        """A unit other than the record's printed in ``text``: at its start (a cell's text after the value), or
        in parentheses (a header, a label); the form and the units it stands for."""
        known = unit_table()
        for hit in _unit_forms(known, bare).finditer(normalize_quote(text)):
            form = hit.group(0) if bare else hit.group(1)
            units = known.unit_printed_as(form)
            if self.unit not in units:
                return form, units
        return None
