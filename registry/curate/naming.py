"""Ids for new records, by the registry's convention: '<batch>-<yyyymmdd>-<kind>-<slug>'.

The batch is the curator's batch name (a new record takes its source's by default), the date the day
it is filed, the kind the record's, and the slug is read off the record itself: its name or title
(without the citation in parentheses that display names end with), or, for a kind without one, the
slug of the record it is about and a word that tells it apart (``SLUG_FROM``). An id that is taken
gets '-2', '-3', ... (an import) or is refused (``registry new``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Callable, Mapping
from typing import Any

from registry.errors import RegistryError
from registry.ids import MAX_ID_LENGTH, compose_id, is_real_day, slugify, split_id

#: Where the slug of a kind without a name or title comes from: '@field' is the slug of the record the field
#: names, '@@field' that record's kind and slug, anything else a field's own value. Other kinds: name or title.
SLUG_FROM: dict[str, tuple[str, ...]] = {
    "result": ("@evaluation", "metric"),
    "review": ("@@subjects",),
    "evidence": ("@@subject", "property"),
    "recipe": ("@result",),
    "reproduction": ("@result", "method"),
    "correction": ("@@supersedes",),
    "unit": ("token",),
    "retraction": ("@@retracts",),
    "attestation": ("@subject", "stance"),
}

_CITATION = re.compile(r"\s*\([^()]*\)\s*$")


def display_slug(name: str) -> str:
    """A display name's slug, without the citation it ends with ('NT 2.5B (Saadat and Fellay 2026)' -> 'nt-2-5b')."""
    return slugify(_CITATION.sub("", name)) or slugify(name)


def slug_for(kind: str, data: Mapping[str, Any]) -> str | None:
    """The slug the convention gives a record of ``kind`` with these values, or None if they do not say."""
    parts: list[str] = []
    for source in SLUG_FROM.get(kind, ("name", "title")):
        value = data.get(source.lstrip("@"))
        if isinstance(value, list):
            value = value[0] if value else None
        if not isinstance(value, str) or not value.strip():
            if source.startswith("@"):
                return None
            continue
        if source.startswith("@@"):
            parts.append(_about(value, with_kind=True))
        elif source.startswith("@"):
            parts.append(_about(value, with_kind=False))
        else:
            parts.append(display_slug(value))
        if kind not in SLUG_FROM:
            break  # the name, or else the title
    slug = "-".join(p for p in parts if p)
    return slug or None


def _about(record_id: str, *, with_kind: bool) -> str:
    try:
        parsed = split_id(record_id)
    except ValueError:
        return slugify(record_id)
    return f"{parsed.kind}-{parsed.slug}" if with_kind else parsed.slug


def today() -> str:
    """Today's date (UTC) as an id writes it: 'yyyymmdd'."""
    return dt.datetime.now(dt.UTC).strftime("%Y%m%d")


def checked_batch(batch: str) -> str:
    """A batch name as ids write it ('Saadat Fellay' -> 'saadat-fellay'), or a RegistryError."""
    slug = slugify(batch)
    if not slug:
        raise RegistryError(f"{batch!r} cannot be a batch name", "a batch is a few words such as 'saadat-fellay'")
    return slug


def checked_date(date: str) -> str:
    """A day as ids write it ('yyyymmdd'; '2026-12-01' is accepted too), or a RegistryError.

    An id's date is the day its batch was filed, so a day after today (UTC) is refused too.
    """
    compact = date.replace("-", "")
    if not is_real_day(compact):
        raise RegistryError(f"{date!r} is not a day", "write the batch's date as yyyymmdd, for example "
                            f"{today()}")
    if compact > today():
        raise RegistryError(f"{date!r} is after today ({today()}, UTC): an id's date is the day its batch was filed",
                            "give today's date or an earlier one ({date}), or leave it out for today")
    return compact


def make_id(batch: str, date: str, kind: str, slug: str) -> str:
    """The id, with a slug cut short at a word (and a digest of the whole slug added) where it would be too long."""
    head = compose_id(batch, date, kind, "")
    room = MAX_ID_LENGTH - len(head)
    if room < 12:
        raise RegistryError(f"the batch name {batch!r} is too long to leave room for a slug",
                            "use a batch name of a few words")
    if len(slug) > room:
        digest = hashlib.sha256(slug.encode()).hexdigest()[:6]
        cut = slug[: room - len(digest) - 1].rstrip("-")
        cut = cut.rsplit("-", 1)[0] if "-" in cut else cut
        slug = f"{cut}-{digest}"
    return head + slug


def free_id(base: str, taken: Callable[[str], bool]) -> str:
    """``base``, or the first of 'base-2', 'base-3', ... that is not taken (kept within the length limit)."""
    if not taken(base):
        return base
    for number in range(2, 100_000):
        suffix = f"-{number}"
        candidate = base[: MAX_ID_LENGTH - len(suffix)].rstrip("-") + suffix
        if not taken(candidate):
            return candidate
    raise RegistryError(f"no free id near {base!r}")  # pragma: no cover - 100,000 records of one slug
