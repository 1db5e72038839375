"""How a transcribed record changes once filed: a correction supersedes it, a retraction withdraws it.

A transcribed record is never edited in place. A correction names the record it supersedes and
the record that replaces it (a record of the same kind, with its own id and its own review), so
that every version stays a typed record that validates, renders and queries like any other; a
retraction withdraws a record without a replacement. The old record stays where it is: the
chain of versions is the history (``registry.status.versions`` reads it), and the last version that is
neither superseded nor retracted is the current one.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from registry.models.base import Record, Text, Timestamp, ref


class Correction(Record):
    """One record superseded by another that holds the corrected values; both stay in the registry."""

    kind: Literal["correction"]
    supersedes: str = ref("@transcribed", description="The record whose values are corrected; it stays, marked "
                          "superseded, and keeps its reviews and evidence.")
    replacement: str = ref("@transcribed", description="The record that holds the corrected values, of the same "
                           "kind; it is current until a later correction supersedes it or a retraction withdraws "
                           "it, and reads 'source checked' only once a review of its own checks it.")
    reason: Text = Field(description="What was wrong and how it was found (for example 'Table 2 prints 0.681, "
                         "not 0.618').")
    corrected_by: Text = Field(description="Who filed the correction: a person, or a script with its version.")
    corrected_at: Timestamp = Field(description="When the correction was filed (with a time zone).")
    note: Text | None = Field(None, description="Anything else a reader of the history should know.")


class Retraction(Record):
    """One record withdrawn without a replacement (a value the source does not print, a duplicate); it stays."""

    kind: Literal["retraction"]
    retracts: str = ref("@transcribed", description="The record withdrawn: the current record of its chain (a "
                        "superseded record is withdrawn by retracting the record that replaced it).")
    reason: Text = Field(description="Why the record is withdrawn (for example 'the value is printed for another "
                         "model').")
    retracted_by: Text = Field(description="Who withdrew it: a person, or a script with its version.")
    retracted_at: Timestamp = Field(description="When it was withdrawn (with a time zone).")
    note: Text | None = Field(None, description="Anything else a reader of the history should know.")
