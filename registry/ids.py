"""The stable-id grammar: one pattern for every record, safe to use as a file name.

An id reads ``<batch>-<yyyymmdd>-<kind>-<slug>``, for example
``saadat-fellay-20261015-result-nt-2-5b-training-peak-memory-…``. Only lowercase
letters, digits and single hyphens are allowed, so an id can never contain a
path separator, a dot or ``..`` and can never escape the records folder.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Collection
from dataclasses import dataclass

from registry.text import a_kind

__all__ = ["ID_FORM", "ID_PATTERN", "MAX_ID_LENGTH", "StableId", "a_kind", "compose_id", "date_and_kind", "is_real_day",
           "slugify", "split_id"]

MAX_ID_LENGTH = 200

_WORD = r"[a-z0-9]+"
_WORDS = rf"{_WORD}(?:-{_WORD})*"
#: The batch is the shortest run of words before the first 8-digit date (a slug may hold dates of its own); the
#: kind is one word, checked against the registered kinds by ``registry.models.parse_id`` (and against the record's
#: own kind by the whole-registry checks), so that this grammar does not depend on which kinds exist.
ID_PATTERN = rf"^(?P<batch>(?:{_WORD}(?:-{_WORD})*?)??)-(?P<date>\d{{8}})-(?P<kind>[a-z]+)-(?P<slug>{_WORDS})$"
_ID_RE = re.compile(ID_PATTERN)


def compose_id(batch: str, date: str, kind: str, slug: str) -> str:
    """The one way an id is put together from its parts (``ID_PATTERN`` reads it back)."""
    return f"{batch}-{date}-{kind}-{slug}"


#: An id's parts, as messages name them: '<batch>-<yyyymmdd>-<kind>-<slug>'.
ID_FORM = compose_id("<batch>", "<yyyymmdd>", "<kind>", "<slug>")


@functools.lru_cache(maxsize=4096)
def is_real_day(yyyymmdd: str) -> bool:
    """Whether 'yyyymmdd' (eight digits) names a day that exists (cached: a batch's records share their date)."""
    if not (len(yyyymmdd) == 8 and yyyymmdd.isascii() and yyyymmdd.isdigit()):
        return False
    try:
        dt.date(int(yyyymmdd[:4]), int(yyyymmdd[4:6]), int(yyyymmdd[6:]))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class StableId:
    """A parsed stable id."""

    batch: str
    date: str
    kind: str
    slug: str

    def __str__(self) -> str:
        return compose_id(self.batch, self.date, self.kind, self.slug)


def split_id(value: str, kinds: Collection[str] | None = None) -> StableId:
    """Split an id into its parts by the grammar alone (any one-word kind, or one of ``kinds`` where given), or
    raise ``ValueError`` saying what is wrong with it."""
    if not isinstance(value, str):
        raise ValueError(f"an id must be a string, not {type(value).__name__}")
    if len(value) > MAX_ID_LENGTH:
        raise ValueError(f"id is {len(value)} characters long; the limit is {MAX_ID_LENGTH}")
    match = _ID_RE.fullmatch(value)  # not .match: '$' would let a trailing line break through
    if match is None or (kinds is not None and match["kind"] not in kinds):
        raise ValueError(_not_an_id(value, kinds))
    return StableId(**match.groupdict())


def date_and_kind(value: str) -> tuple[str, str]:
    """The date and kind of an id, as ``split_id`` gives them (and raising as it does), without making a
    ``StableId``: the whole-registry checks ask it of every record."""
    match = _ID_RE.fullmatch(value) if isinstance(value, str) and len(value) <= MAX_ID_LENGTH else None
    if match is None:
        parsed = split_id(value)  # raises, saying what is wrong
        return parsed.date, parsed.kind
    return match.group("date", "kind")  # type: ignore[return-value]


def _not_an_id(value: str, kinds: Collection[str] | None) -> str:
    return (f"{value!r} is not a stable id: expected '{ID_FORM}' in lowercase letters, "
            "digits and single hyphens" + (f", with kind one of {', '.join(kinds)}" if kinds is not None else ""))


def slugify(text: str) -> str:
    """Turn free text into an id slug ('NT 2.5B' -> 'nt-2-5b')."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
