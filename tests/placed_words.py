"""Words placed on an invented fixture page as the extractors give them: fixed-width glyphs, one height (for the
tests on word coordinates)."""

from __future__ import annotations

from review.pdf.words import Word

HEIGHT = 8.0
CHAR = 5.0


def placed_line(top: float, *words: tuple[str, float]) -> list[Word]:
    """Words set on one line at ``top``, each at its own left edge."""
    return [Word(text, x0, top, x0 + CHAR * len(text), top + HEIGHT) for text, x0 in words]


def placed_text(top: float, text: str, x: float = 100.0) -> list[Word]:
    """A line of text set from ``x``, its words one space apart."""
    placed = []
    for word in text.split():
        placed.append((word, x))
        x += CHAR * len(word) + 3
    return placed_line(top, *placed)
