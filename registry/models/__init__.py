"""Every record kind, registered once: the table from kind token to model class and what derives from it.

Adding a kind is one class (see ``Record`` for what it declares) and one line in ``KINDS_IN_ORDER``.
"""

from __future__ import annotations

from registry.models.base import MissingMetadata, MissingReason, Record
from registry.models.records import (
    Configuration,
    Dataset,
    Evaluation,
    Evidence,
    ModelFamily,
    Protocol,
    Release,
    Result,
    Review,
    Source,
)
from registry.models.reproduction import Recipe, Reproduction

#: The registration: every kind, in the order records are listed, shown and stored.
KINDS_IN_ORDER: tuple[type[Record], ...] = (
    Source,
    ModelFamily,
    Configuration,
    Protocol,
    Dataset,
    Evaluation,
    Result,
    Review,
    Evidence,
    Release,
    Recipe,
    Reproduction,
)

#: Record model for each kind token.
KIND_MODELS: dict[str, type[Record]] = {model.kind_token: model for model in KINDS_IN_ORDER}
#: Every kind token, in order.
KINDS: tuple[str, ...] = tuple(KIND_MODELS)
#: Kinds whose records are read off a source, so that a review can check them against it.
TRANSCRIBED_KINDS: tuple[str, ...] = tuple(m.kind_token for m in KINDS_IN_ORDER if m.transcribed)

__all__ = [
    "KINDS",
    "KINDS_IN_ORDER",
    "KIND_MODELS",
    "TRANSCRIBED_KINDS",
    "Configuration",
    "Dataset",
    "Evaluation",
    "Evidence",
    "MissingMetadata",
    "MissingReason",
    "ModelFamily",
    "Protocol",
    "Recipe",
    "Record",
    "Release",
    "Reproduction",
    "Result",
    "Review",
    "Source",
]
