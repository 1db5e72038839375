"""The kinds of uncertainty, each declared once: how papers name it, how a table labels it, what it is.

``UncertaintyKind`` (``registry.models.values``) holds the tokens a record writes; this table says
the rest, and every reader derives from it: ``registry review`` finds the words a page prints with a
value (``kinds_in``), ``registry migrate`` reads an old free-text uncertainty with the same words,
the results tables show the short label, validation and review recompute a spread from the results
a mean is taken over, and the import column's help lists the tokens. What an uncertainty is taken
over (``Repeats``: seeds, folds, ...) has its printed words here too (``REPEAT_WORDS``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from registry.models.values import Repeats, UncertaintyKind


@dataclass(frozen=True)
class KindSpec:
    """One kind of uncertainty."""

    kind: UncertaintyKind
    short: str
    """Its label in a results table ('± 0.021 (s.d., 10 folds)')."""
    words: tuple[str, ...] = ()
    """How papers print its name, as printed: a long word or phrase in any case, an abbreviation as printed."""
    spread: bool = False
    """A spread of the values themselves, so that it can be recomputed from the results a mean is taken over."""
    interval: bool = False
    """Printed as two bounds, lower and upper ('[0.66, 0.70]'), where it is not a ± half-width."""


#: Every kind of ``UncertaintyKind``, once (a test checks that each has its entry).
UNCERTAINTY_KINDS: dict[UncertaintyKind, KindSpec] = {spec.kind: spec for spec in (
    KindSpec(UncertaintyKind.STANDARD_DEVIATION, "s.d.",
             ("standard deviation", "std. dev.", "std dev", "stdev", "s.d.", "SD", "std", "st. dev."), spread=True),
    KindSpec(UncertaintyKind.STANDARD_ERROR, "s.e.",
             ("standard error", "std. error", "std error", "std. err.", "std err", "s.e.m.", "SEM", "s.e.", "SE"),
             spread=True),
    KindSpec(UncertaintyKind.CONFIDENCE_INTERVAL, "CI", ("confidence interval", "CI", "c.i."), interval=True),
    KindSpec(UncertaintyKind.MIN_MAX, "range", ("min-max", "min\u2013max", "min/max", "range", "minimum and maximum"),
             interval=True),
    KindSpec(UncertaintyKind.OTHER, "other"),
)}

#: The kinds recomputable from the results a mean is taken over (standard deviation, standard error).
SPREADS = frozenset(kind for kind, spec in UNCERTAINTY_KINDS.items() if spec.spread)
#: The kinds a page may print as two bounds (a confidence interval, a min-max range).
INTERVALS = frozenset(kind for kind, spec in UNCERTAINTY_KINDS.items() if spec.interval)


#: What an uncertainty is taken over, as papers print it ('over 10 folds', 'across 5 seeds'), for every ``Repeats``.
REPEAT_WORDS: dict[Repeats, tuple[str, ...]] = {
    Repeats.SEEDS: ("seeds", "seed", "random seeds"),
    Repeats.FOLDS: ("folds", "fold", "cross-validation folds"),
    Repeats.RUNS: ("runs", "run", "repetitions", "trials"),
    Repeats.SAMPLES: ("samples", "items", "examples"),
    Repeats.BOOTSTRAP_RESAMPLES: ("resamples", "bootstrap resamples", "bootstrap samples"),
}


def kind_words() -> dict[UncertaintyKind, tuple[str, ...]]:
    """Each kind's words, for the kinds that have any."""
    return {kind: spec.words for kind, spec in UNCERTAINTY_KINDS.items() if spec.words}


def tokens_in_words() -> str:
    """'`standard-deviation`, `standard-error`, ... or `other`': the tokens, for help texts."""
    tokens = [f"`{kind.value}`" for kind in UNCERTAINTY_KINDS]
    return ", ".join(tokens[:-1]) + f" or {tokens[-1]}"


def _kind_pattern(word: str) -> re.Pattern[str]:
    """A word for a kind as a token: a long word or a phrase in any case, an abbreviation as printed; 'std' not
    where it begins 'std.' or 'std err'."""
    flags = re.IGNORECASE if len(word) > 4 and word.isalpha() or " " in word else 0
    tail = "" if word[-1] == "." else r"(?![A-Za-z])"
    if word == "std":
        tail += r"(?!\.)(?!\s*err)"
    return re.compile(r"(?<![A-Za-z.])" + re.escape(word) + tail, flags)


@functools.cache
def _kind_patterns() -> tuple[tuple[re.Pattern[str], UncertaintyKind, str], ...]:
    """Every kind's words, longest first."""
    words = [(word, kind) for kind, kind_words in kind_words().items() for word in kind_words]
    return tuple((_kind_pattern(word), kind, word) for word, kind in sorted(words, key=lambda w: -len(w[0])))


def kinds_in(text: str) -> dict[UncertaintyKind, str]:
    """The kinds of uncertainty ``text`` names, each with the first word that names it, in the order printed.

    Words are matched longest first and each stretch of text is read once: in 'mean ± std. err.' the
    span 'std. err.' is a standard error, and its 'std' is not read again as a standard deviation."""
    taken: list[tuple[int, int]] = []
    first: dict[UncertaintyKind, tuple[int, str]] = {}
    for pattern, kind, word in _kind_patterns():
        for hit in pattern.finditer(text):
            if any(hit.start() < end and start < hit.end() for start, end in taken):
                continue
            taken.append(hit.span())
            if kind not in first or hit.start() < first[kind][0]:
                first[kind] = (hit.start(), word)
    return {kind: word for kind, (_, word) in sorted(first.items(), key=lambda item: item[1][0])}
