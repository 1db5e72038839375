"""The stable-id grammar: one pattern for every record, safe to use as a file name.

An id reads ``<batch>-<yyyymmdd>-<kind>-<slug>``, for example
``saadat-fellay-20261015-result-nt-2-5b-training-peak-memory-…``. Only lowercase
letters, digits and single hyphens are allowed, so an id can never contain a
path separator, a dot or ``..`` and can never escape the records folder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Kind tokens, as they appear both in ids and in a record's ``kind`` field.
KINDS: tuple[str, ...] = (
    "source",
    "family",
    "config",
    "protocol",
    "dataset",
    "evaluation",
    "result",
    "review",
    "evidence",
    "release",
    "recipe",
    "reproduction",
)

MAX_ID_LENGTH = 200

_WORD = r"[a-z0-9]+"
_WORDS = rf"{_WORD}(?:-{_WORD})*"
ID_PATTERN = rf"^(?P<batch>{_WORDS}?)-(?P<date>\d{{8}})-(?P<kind>{'|'.join(KINDS)})-(?P<slug>{_WORDS})$"
_ID_RE = re.compile(ID_PATTERN)


@dataclass(frozen=True)
class StableId:
    """A parsed stable id."""

    batch: str
    date: str
    kind: str
    slug: str

    def __str__(self) -> str:
        return f"{self.batch}-{self.date}-{self.kind}-{self.slug}"


def parse_id(value: str) -> StableId:
    """Split an id into its parts, or raise ``ValueError`` saying what is wrong with it."""
    if not isinstance(value, str):
        raise ValueError(f"an id must be a string, not {type(value).__name__}")
    if len(value) > MAX_ID_LENGTH:
        raise ValueError(f"id is {len(value)} characters long; the limit is {MAX_ID_LENGTH}")
    match = _ID_RE.fullmatch(value)  # not .match: '$' would let a trailing line break through
    if match is None:
        raise ValueError(
            f"{value!r} is not a stable id: expected '<batch>-<yyyymmdd>-<kind>-<slug>' in lowercase "
            f"letters, digits and single hyphens, with kind one of {', '.join(KINDS)}"
        )
    return StableId(**match.groupdict())


def slugify(text: str) -> str:
    """Turn free text into an id slug ('NT 2.5B' -> 'nt-2-5b')."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def a_kind(kind: str) -> str:
    """'a result', 'an evaluation': a kind (or any noun) with its article, for messages."""
    return f"{'an' if kind.lstrip(chr(39))[:1] in 'aeiou' else 'a'} {kind}"
