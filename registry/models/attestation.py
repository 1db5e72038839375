"""A person's statement about a value: an author confirms it, a reader disputes it, an author corrects it.

The people who can settle a number are the source's authors (and its readers, and the registry's curators).
An attestation keeps who said what about which value, when, and through what (a link to an issue, an
e-mail's message id, a signed commit), as data beside the value. It never changes the value: a dispute's
value is the disputer's belief and is shown as such; a correction is filed as the registry files every
correction (``registry.models.history.Correction``), and the attestation that announces it names that
correction.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Literal

from pydantic import Field, model_validator

from registry.models.base import Record, Strict, Text, Timestamp, ref


class Relation(StrEnum):
    """How the person relates to the source of the value."""

    AUTHOR = "author"
    """One of the source's authors."""
    READER = "reader"
    """Someone who read the source (a researcher, a reviewer of the paper)."""
    CURATOR = "curator"
    """Someone who curates this registry."""


class Stance(StrEnum):
    """What the statement says about the value."""

    CONFIRMS = "confirms"
    """The value is right (optionally with what it means: the split, the protocol, the sampling)."""
    DISPUTES = "disputes"
    """The value is wrong: the person believes another one, for a stated reason."""
    CORRECTS = "corrects"
    """An author's erratum replaces the value; a correction record files the corrected value."""


class ChannelKind(StrEnum):
    """Through what the statement was made."""

    LINK = "link"
    """A public page (an issue, a forum post, an erratum): its URL."""
    MESSAGE_ID = "message-id"
    """An e-mail: its Message-ID header ('<...@...>')."""
    SIGNED_COMMIT = "signed-commit"
    """A signed commit: its repository and commit id ('https://github.com/org/repo@<sha>', or the sha alone)."""


#: What each channel's reference must look like.
CHANNEL_FORMS: dict[ChannelKind, tuple[re.Pattern[str], str]] = {
    ChannelKind.LINK: (re.compile(r"^https?://\S+$"), "a URL ('https://...')"),
    ChannelKind.MESSAGE_ID: (re.compile(r"^<?[^\s<>@]+@[^\s<>@]+>?$"), "a Message-ID ('<id@host>')"),
    ChannelKind.SIGNED_COMMIT: (re.compile(r"^(?:\S+@)?[0-9a-f]{7,64}$"),
                                "a commit id, after its repository and '@' where given ('<repository>@<sha>')"),
}


class Channel(Strict):
    """Through what a statement was made, so that anyone can find it again."""

    kind: ChannelKind = Field(description="'link', 'message-id' or 'signed-commit'.")
    reference: Text = Field(description="The URL, the e-mail's Message-ID, or the commit ('<repository>@<sha>').")

    @model_validator(mode="after")
    def _reference_has_its_form(self) -> Channel:
        pattern, form = CHANNEL_FORMS[self.kind]
        if not pattern.match(self.reference):
            raise ValueError(f"a {self.kind.value} reference is {form}, not {self.reference!r}")
        return self


class Attestation(Record):
    """One person's dated statement that confirms, disputes or corrects one value.

    It never changes the value: a dispute's value is never the result's, a correction is a correction record."""

    kind: Literal["attestation"]
    subject: str = ref("result", description="The result the statement is about.")
    person: Text = Field(description="Who made the statement (a name, as they sign).")
    relation: Relation = Field(description="How they relate to the value's source: 'author', 'reader' or "
                               "'curator'.")
    stated_at: Timestamp = Field(description="When they made the statement (with a time zone).")
    channel: Channel = Field(description="Through what: a link, an e-mail's Message-ID or a signed commit.")
    stance: Stance = Field(description="'confirms', 'disputes' or 'corrects' the value.")
    meaning: Text | None = Field(None, description="For a confirmation: what the value means, as the person says "
                                 "(the split, the protocol, the sampling).")
    believed_value: Text | None = Field(None, description="For a dispute: the value the person believes right, as "
                                        "they write it. Never used as the result's value.")
    reason: Text | None = Field(None, description="For a dispute: why (for example 'the page prints 1.07'); for a "
                                "correction, what the erratum says was wrong.")
    erratum: Text | None = Field(None, description="For a correction: the citation of the authors' erratum.")
    correction: str | None = ref("correction", default=None, description="For a correction: the correction record "
                                 "that supersedes the result with the corrected value.")
    note: Text | None = Field(None, description="Anything else a reader should know.")

    @model_validator(mode="after")
    def _what_each_stance_says(self) -> Attestation:
        given = {name for name in ("meaning", "believed_value", "reason", "erratum", "correction")
                 if getattr(self, name) is not None}
        needs, allows = STANCE_FIELDS[self.stance]
        if missing := [name for name in needs if name not in given]:
            raise ValueError(f"an attestation that {self.stance.value} a value gives {', '.join(needs)}; missing: "
                             f"{', '.join(missing)}")
        if extra := sorted(given - set(needs) - set(allows)):
            raise ValueError(f"an attestation that {self.stance.value} a value gives no {', '.join(extra)}")
        if self.stance is Stance.CORRECTS and self.relation is not Relation.AUTHOR:
            raise ValueError(f"a correction is an author's erratum, but relation is {self.relation.value!r}; a "
                             "reader or curator who finds a value wrong disputes it")
        return self


#: For each stance, the fields it needs and those it may give besides.
STANCE_FIELDS: dict[Stance, tuple[tuple[str, ...], tuple[str, ...]]] = {
    Stance.CONFIRMS: ((), ("meaning",)),
    Stance.DISPUTES: (("believed_value", "reason"), ()),
    Stance.CORRECTS: (("erratum", "correction"), ("reason",)),
}
