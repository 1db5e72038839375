"""Release names computed from content: '<date>-<hash prefix>', the same for anyone with the same records.

The date is the latest date any record holds (not today's), and the hash is the
SHA-256 of the records' canonical JSON, so the name changes exactly when the content
does. Release records themselves are left out: naming a release must not change it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json

from registry.errors import RegistryError
from registry.models import Release
from registry.models.fields import dates_in
from registry.store.loader import Registry

HASH_PREFIX_LENGTH = 12
#: How a recorded release stands against the records now, as the command and the site say it.
SAME_CONTENT = "the records have not changed since it was named"
CHANGED_CONTENT = "the records have changed since it was named: its hash prefix is not the current content's"


def content_digest(registry: Registry) -> str:
    """SHA-256 of every non-release record, as canonical JSON sorted by id."""
    digest = hashlib.sha256()
    for record_id in sorted(registry.records):
        record = registry.records[record_id]
        if isinstance(record, Release):
            continue
        canonical = json.dumps(record.model_dump(mode="json"), sort_keys=True, separators=(",", ":"),
                               ensure_ascii=False)
        digest.update(canonical.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def content_date(registry: Registry) -> dt.date | None:
    """The latest date held anywhere in the non-release records."""
    days = [day for record in registry.records.values() if not isinstance(record, Release)
            for _, _, day in dates_in(record)]
    return max(days, default=None)


def release_name(registry: Registry, digest: str | None = None) -> str:
    """The name of the registry's current content, for example '2026-10-22-1b7cf027e4f6'.

    ``digest`` is the registry's ``content_digest`` where the caller has worked it out already (a site build).
    """
    day = content_date(registry)
    if day is None:
        raise RegistryError("no record holds a date, so the registry's content has no release date yet",
                            "add a record with a date (a source's publication date, a review's time) and try again")
    stamp = day.isoformat()
    return f"{stamp}-{(digest or content_digest(registry))[:HASH_PREFIX_LENGTH]}"


def hash_prefix(release: Release) -> str:
    """The content hash prefix a release's name ends with ('<date>-<prefix>')."""
    return release.name.rsplit("-", 1)[-1]


def same_content(release: Release, digest: str) -> bool:
    """Whether the records hold the content ``release`` named: ``digest`` (``content_digest``) has its prefix."""
    return digest.startswith(hash_prefix(release))


def standing(release: Release, digest: str) -> str:
    """Whether the records changed since ``release`` was named, in words."""
    return SAME_CONTENT if same_content(release, digest) else CHANGED_CONTENT
