"""Every record kind, registered once: the table from kind token to model class and what derives from it.

Adding a kind is one class (see ``Record`` for what it declares) and one line in ``KINDS_IN_ORDER``
(or, from outside the package, one call of ``register``). ``KIND_MODELS``, ``KINDS`` and
``TRANSCRIBED_KINDS`` are derived from it; the loader, the checks, the JSON Schemas and the
database read them.
"""

from __future__ import annotations

from registry.ids import StableId, split_id
from registry.models.attestation import Attestation
from registry.models.base import MissingMetadata, MissingReason, Record
from registry.models.benchmark import Benchmark
from registry.models.fields import field_plan, transcribed_kinds
from registry.models.history import Correction, Retraction
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
)
from registry.models.reproduction import Recipe, Reproduction
from registry.models.source import Source
from registry.models.unit import UnitRecord

#: The registration: every kind, in the order records are listed, shown and stored.
KINDS_IN_ORDER: tuple[type[Record], ...] = (
    Source,
    ModelFamily,
    Configuration,
    Protocol,
    Benchmark,
    Dataset,
    Evaluation,
    Result,
    Review,
    Evidence,
    Release,
    Recipe,
    Reproduction,
    Correction,
    Retraction,
    UnitRecord,
    Attestation,
)

#: Record model for each kind token.
KIND_MODELS: dict[str, type[Record]] = {}
#: Every kind token, in order.
KINDS: tuple[str, ...] = ()
#: Kinds whose records are read off a source, so that a review can check them against it.
TRANSCRIBED_KINDS: tuple[str, ...] = ()


def _derive() -> None:
    global KINDS, TRANSCRIBED_KINDS

    KIND_MODELS.clear()  # kept as one object: modules that imported it see every registration
    KIND_MODELS.update((model.kind_token, model) for model in KINDS_IN_ORDER)
    KINDS = tuple(KIND_MODELS)
    TRANSCRIBED_KINDS = tuple(model.kind_token for model in KINDS_IN_ORDER if model.transcribed)
    transcribed_kinds[:] = TRANSCRIBED_KINDS
    field_plan.cache_clear()  # its '@transcribed' references name the kinds registered now


def register(model: type[Record]) -> type[Record]:
    """Add a kind declared outside this package (a plugin, a test), after the built-in ones."""
    global KINDS_IN_ORDER
    if model.kind_token in KIND_MODELS and KIND_MODELS[model.kind_token] is not model:
        raise ValueError(f"kind {model.kind_token!r} is already registered, by {KIND_MODELS[model.kind_token]!r}")
    if model not in KINDS_IN_ORDER:
        KINDS_IN_ORDER = (*KINDS_IN_ORDER, model)
        _derive()
    return model


def unregister(model: type[Record]) -> None:
    """Take a kind added with ``register`` out again (a test's clean-up)."""
    global KINDS_IN_ORDER
    KINDS_IN_ORDER = tuple(m for m in KINDS_IN_ORDER if m is not model)
    _derive()


_derive()

__all__ = [
    "KINDS",
    "KINDS_IN_ORDER",
    "KIND_MODELS",
    "TRANSCRIBED_KINDS",
    "register",
    "unregister",
    "Attestation",
    "Configuration",
    "Correction",
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
    "Retraction",
    "Review",
    "Source",
    "UnitRecord",
    "Benchmark",
]


def parse_id(value: str) -> StableId:
    """Split an id into its parts, or raise ``ValueError`` saying what is wrong with it, its kind one of those
    registered: the check lives beside the registration (the id grammar, ``registry.ids``, knows no kinds)."""
    return split_id(value, KINDS)
