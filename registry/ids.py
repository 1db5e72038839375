"""The stable-id grammar: one pattern for every record, safe to use as a file name.

An id reads ``<batch>-<yyyymmdd>-<kind>-<slug>``, for example
``saadat-fellay-20261015-result-nt-2-5b-training-peak-memory-…``. Only lowercase
letters, digits and single hyphens are allowed, so an id can never contain a
path separator, a dot or ``..`` and can never escape the records folder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_ID_LENGTH = 200

_WORD = r"[a-z0-9]+"
_WORDS = rf"{_WORD}(?:-{_WORD})*"
#: The batch is the shortest run of words before the first 8-digit date (a slug may hold dates of its own); the
#: kind is one word, checked against the registered kinds by ``parse_id`` (and against the record's own kind by
#: the whole-registry checks), so that this grammar does not depend on which kinds exist.
ID_PATTERN = rf"^(?P<batch>(?:{_WORD}(?:-{_WORD})*?)??)-(?P<date>\d{{8}})-(?P<kind>[a-z]+)-(?P<slug>{_WORDS})$"
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


def split_id(value: str) -> StableId:
    """Split an id into its parts by the grammar alone (any one-word kind), or raise ``ValueError``."""
    if not isinstance(value, str):
        raise ValueError(f"an id must be a string, not {type(value).__name__}")
    if len(value) > MAX_ID_LENGTH:
        raise ValueError(f"id is {len(value)} characters long; the limit is {MAX_ID_LENGTH}")
    match = _ID_RE.fullmatch(value)  # not .match: '$' would let a trailing line break through
    if match is None:
        raise ValueError(_not_an_id(value))
    return StableId(**match.groupdict())


def date_and_kind(value: str) -> tuple[str, str]:
    """The date and kind of an id, as ``split_id`` gives them (and raising as it does), without making a
    ``StableId``: the whole-registry checks ask it of every record."""
    match = _ID_RE.fullmatch(value) if isinstance(value, str) and len(value) <= MAX_ID_LENGTH else None
    if match is None:
        parsed = split_id(value)  # raises, saying what is wrong
        return parsed.date, parsed.kind
    return match.group("date", "kind")  # type: ignore[return-value]


def parse_id(value: str) -> StableId:
    """Split an id into its parts, or raise ``ValueError`` saying what is wrong with it (its kind included)."""
    from registry.models import KINDS

    parsed = split_id(value)
    if parsed.kind not in KINDS:
        raise ValueError(_not_an_id(value))
    return parsed


def _not_an_id(value: str) -> str:
    from registry.models import KINDS

    return (f"{value!r} is not a stable id: expected '<batch>-<yyyymmdd>-<kind>-<slug>' in lowercase letters, "
            f"digits and single hyphens, with kind one of {', '.join(KINDS)}")


def slugify(text: str) -> str:
    """Turn free text into an id slug ('NT 2.5B' -> 'nt-2-5b')."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def a_kind(kind: str) -> str:
    """'a result', 'an evaluation': a kind (or any noun) with its article, for messages."""
    return f"{'an' if kind.lstrip(chr(39))[:1] in 'aeiou' else 'a'} {kind}"
