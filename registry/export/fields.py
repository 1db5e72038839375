"""Which of a result's fields each export writes, and where; every other field is derived as not carried.

An export declares the ``Result`` fields its format holds (``ResultFields.carried``: field -> where the
format holds it). What it does not carry is the model's fields less those, read at the time of the
export: a field added to ``Result`` lands in every export's list of fields not carried, in
``registry-export.json``, until a writer declares where it goes. A declaration that names a field the
model no longer has is refused, so a renamed field cannot be claimed as carried.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def result_field_names() -> tuple[str, ...]:
    """The fields of the result kind as the registry's models declare it now (in the model's order)."""
    from registry.models import KIND_MODELS

    return tuple(KIND_MODELS["result"].model_fields)


@dataclass(frozen=True)
class ResultFields:
    """A format's declaration of the result fields it writes."""

    carried: Mapping[str, str]
    """Field -> where the format holds it."""
    worded: Mapping[str, str] = field(default_factory=dict)
    """How the list of what is lost words a field not carried (default: the field's name)."""
    also_lost: tuple[str, ...] = ()
    """What else the format loses that is no field of a result (our runs, a field's type)."""

    def not_carried(self) -> tuple[str, ...]:
        """The result fields the format does not hold, in the model's order."""
        names = result_field_names()
        unknown = sorted(set(self.carried) - set(names)) + sorted(set(self.worded) - set(names))
        if unknown:
            raise ValueError(f"an export declares result field(s) the model does not have: {', '.join(unknown)}")
        return tuple(name for name in names if name not in self.carried)

    def lost(self) -> list[str]:
        """Everything a written result loses, as the manifest lists it: its fields not carried, then the rest."""
        return [self.worded.get(name, name) for name in self.not_carried()] + list(self.also_lost)

    def manifest(self) -> dict[str, Any]:
        """The manifest's account of the result's fields: where each carried one went, and which are not."""
        return {"carried": dict(self.carried), "not_carried": list(self.not_carried())}
