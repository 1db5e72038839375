"""Runs of equally long items packed into one bytes object (files' statuses, contents' digests): where two differ.

Kept packed because a registry of 100,000 results has 295,100 files: one object per file costs more to keep, read
and compare than the run it is kept for. Two runs are compared by halving, so that equal stretches are passed
with one comparison of bytes each, not item by item.
"""

from __future__ import annotations


def differing(before: bytes, after: bytes, width: int) -> set[int]:
    """The places of the items (``width`` bytes each) where two equally long runs differ."""
    found = set()
    pending = [(0, len(after) // width)]
    while pending:
        low, high = pending.pop()
        if before[width * low:width * high] == after[width * low:width * high]:
            continue
        if high - low == 1:
            found.add(low)
            continue
        middle = (low + high) // 2
        pending += [(low, middle), (middle, high)]
    return found


def places_of(item: bytes, packed: bytes) -> set[int]:
    """The places where ``item`` (as wide as each item) stands in ``packed``."""
    found = set()
    at = packed.find(item)
    while at != -1:
        if at % len(item) == 0:
            found.add(at // len(item))
        at = packed.find(item, at + 1)
    return found
