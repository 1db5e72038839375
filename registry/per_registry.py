"""Answers worked out once per registry: memos that a build asks from many pages, dropped when the registry changes.

A site of 10,000 results asks each record's review status, tag and place in its chain of versions
dozens of times (its page, the pages that name it, the index); each answer is kept here, beside
the registry it is about, and forgotten when that registry is freed or gains or loses records.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def memo(registry: Any, question: str) -> dict[Any, Any]:
    """The memo of one question about one registry (a dict to fill), empty after the registry changed size."""
    key = (id(registry), question)
    entry = _MEMOS.get(key)
    if entry is None or entry[0]() is not registry or entry[1] != len(registry.records):
        entry = (weakref.ref(registry), len(registry.records), {})
        _MEMOS[key] = entry
    return entry[2]


def once(registry: Any, question: str, make: Callable[[Any], T]) -> T:
    """``make(registry)``, worked out once per registry (see ``memo``)."""
    box = memo(registry, question)
    if "answer" not in box:
        box["answer"] = make(registry)
    return box["answer"]  # type: ignore[no-any-return]


_MEMOS: dict[tuple[int, str], tuple[Any, int, dict[Any, Any]]] = {}
