"""Every record kind, and the table from kind token to model class."""

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

#: Record model for each kind token, in the order records are listed and shown.
KIND_MODELS: dict[str, type[Record]] = {
    model.kind_token: model
    for model in (
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
}

__all__ = [
    "KIND_MODELS",
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
