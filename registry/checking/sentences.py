"""Claims about what the quoted sentence says besides the value: the hardware it names, and which value
'respectively' gives to which name.

A result's quote is the sentence that prints its value; where that sentence names a device or lists models
'respectively', it says something the record must agree with, and a record that disagrees fails with the
sentence as the witness:

- **hardware**: a device the sentence names ('8 NVIDIA A100 GPUs') that is not the record's (an accelerator
  copied from another paragraph: 'NVIDIA H100'). A device is read where the sentence marks it as one: a
  model number set after a maker's or a line's name (NVIDIA, AMD, Tesla, RTX, ...) or before 'GPU';
- **respectively**: 'A and B reach 71.3 and 72.1, respectively' pairs the n-th value with the n-th name; the
  names are the reported names of the configurations that cite the same source. The record's value must be
  the one in its own model's place.

The claims are made only where the quote prints such words (``sentence_claims``); nothing here passes a record
on a sentence that says nothing of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from registry.checking.claims import Assertion, Claim
from review.pdf.pdftext import Extraction, find_text, normalize_quote, number_pattern

if TYPE_CHECKING:
    from registry.models import Result
    from registry.store.loader import Registry

#: A device's model number as a sentence marks it: after a maker's or a product line's name, or before 'GPU'.
_MAKERS = r"(?:NVIDIA|Nvidia|AMD|Tesla|GeForce|RTX|GTX|Quadro|Radeon|Instinct|Intel|Google|TPU|Apple)"
_MODEL = r"[A-Z]{1,3}\d{1,4}[A-Za-z]{0,3}|v\d|\d{3,4}(?:\s?Ti)?"
DEVICE = re.compile(rf"\b{_MAKERS}\s+(?:{_MAKERS}\s+)?({_MODEL})\b|\b([A-Z]{{1,3}}\d{{2,4}}[A-Za-z]{{0,3}})"
                    rf"(?:\s+\d+\s?GB)?\s+(?:GPU|TPU|accelerator)s?\b")


def devices_in(text: str) -> list[str]:
    """The device model numbers ``text`` names ('A100', 'H100', 'MI250X'), in order."""
    return [m.group(1) or m.group(2) for m in DEVICE.finditer(normalize_quote(text))]


def _sentence(doc: Extraction, page: int, quote: str) -> str | None:
    """The sentence ``quote`` comes from on ``page``, as printed (None where the quote is not on the page)."""
    text = doc.page(page)
    match = find_text(text, quote) if text is not None else None
    if match is None:
        return None
    return match.before[match.before.rfind(". ") + 1:] + match.normalized + match.after.split(". ")[0]


@dataclass(frozen=True)
class SentenceDevice(Claim):
    """The device the quoted sentence names must be the record's."""

    page: int
    quote: str
    accelerators: tuple[str, ...]

    def check(self, doc: Extraction) -> Assertion:
        expected = " or ".join(f"'{a}'" for a in self.accelerators)
        sentence = _sentence(doc, self.page, self.quote)
        if sentence is None:
            return self._unreadable(expected, self.page, f"the quoted text is not on page {self.page}, so the device "
                                    "it names cannot be read")
        named = devices_in(sentence)
        own = [d for d in named if any(re.search(rf"(?<![\w]){re.escape(d)}(?![\w])", a) for a in self.accelerators)]
        if own:
            return self._result(expected, True, self.page, sentence[:160],
                                f"the quoted sentence names '{own[0]}', the record's device")
        if not named:
            return self._unreadable(expected, self.page, "the quoted sentence names no device on this page")
        return self._result(expected, False, self.page, sentence[:160], (
            f"the quoted sentence names '{named[0]}', but the record's hardware is {expected}: the value was measured "
            "on the device its own sentence names; correct the record's hardware"))


@dataclass(frozen=True)
class Respectively(Claim):
    """'A and B reach 1 and 2, respectively': the record's value must be in its own model's place."""

    page: int
    quote: str
    value: str
    name: str
    names: tuple[str, ...]
    """Every configuration's reported name that cites the same source (the record's own among them)."""

    def check(self, doc: Extraction) -> Assertion:
        expected = f"'{self.value}' paired with '{self.name}'"
        sentence = _sentence(doc, self.page, self.quote)
        if sentence is None or "respectively" not in sentence:
            return self._unreadable(expected, self.page, "no sentence saying 'respectively' is read around the quote")
        clause = sentence[:sentence.index("respectively")]
        spans = _name_spans(clause, self.names)
        listed = [name for _, _, name in spans]
        after = spans[-1][1] if spans else 0
        from registry.numbers_in_text import numbers_in

        values = [(m.start(), m.group()) for n in dict.fromkeys(numbers_in(clause[after:]))
                  for m in number_pattern(n).finditer(clause, after)]
        values = [v for _, v in sorted(set(values))]
        if self.name not in listed or len(values) != len(listed):
            return self._unreadable(expected, self.page, (
                f"the sentence lists {len(listed)} name(s) ({', '.join(listed) or 'none known'}) and {len(values)} "
                "number(s) before 'respectively', so which value is whose cannot be read"))
        mine = listed.index(self.name)
        wanted = number_pattern(self.value)
        if wanted.fullmatch(values[mine]):
            return self._result(expected, True, self.page, sentence[:160],
                                f"'respectively' gives '{values[mine]}' to '{self.name}' ({mine + 1} of {len(listed)})")
        if not any(wanted.fullmatch(v) for v in values):
            return self._unreadable(expected, self.page, f"'{self.value}' is not among the values the sentence "
                                    f"lists ({', '.join(values)})")
        theirs = next(i for i, v in enumerate(values) if wanted.fullmatch(v))
        return self._result(expected, False, self.page, sentence[:160], (
            f"'respectively' gives '{self.value}' to '{listed[theirs]}' and '{values[mine]}' to '{self.name}': the "
            "n-th value goes with the n-th name; correct the record's value or its configuration"))


def _name_spans(text: str, names: tuple[str, ...]) -> list[tuple[int, int, str]]:
    """Where each name is printed in ``text``, longest names first, without overlaps, in reading order."""
    taken: list[tuple[int, int, str]] = []
    for name in sorted(set(names), key=len, reverse=True):
        for hit in re.finditer(rf"(?<![\w.]){re.escape(name)}(?![\w])", text):
            if all(hit.end() <= a or hit.start() >= b for a, b, _ in taken):
                taken.append((hit.start(), hit.end(), name))
    return sorted(taken)


def sentence_claims(registry: Registry, result: Result, page: int, quote: str) -> list[Claim]:
    """The claims a result's quoted sentence makes beyond the value: the device it names, and 'respectively'."""
    from registry.models import Configuration, Evaluation

    claims: list[Claim] = []
    accelerators = tuple(entry.accelerator for entry in result.hardware)
    if accelerators and devices_in(quote):
        claims.append(SentenceDevice(result.id, "hardware in sentence", page, quote, accelerators))
    if "respectively" in quote:
        evaluation = registry.records.get(result.evaluation)
        own = registry.records.get(evaluation.configuration) if isinstance(evaluation, Evaluation) else None
        if isinstance(own, Configuration):
            names = tuple(c.reported_name for c in registry.of_kind(Configuration) if c.source == own.source)
            claims.append(Respectively(result.id, "respectively", page, quote, result.printed_value,
                                       own.reported_name, names))
    return claims
