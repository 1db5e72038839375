"""What a loaded registry holds in memory is shared, not copied, and what is written as it is made is the same bytes.

A cold ``validate`` at 100,000 results held 1.7 GB; ``registry.store.compact`` shares equal texts and field sets
between records, and ``cacheformat.write_encoded`` writes the incremental index a run of items at a time. Neither
may change a value, a dump or a byte written.
"""

from __future__ import annotations

import io

import pytest

from registry.models import Record
from registry.store import cacheformat, compact
from registry.store.loader import load_registry
from tests.conftest import BUNDLED_RECORDS


@pytest.fixture(scope="module")
def loaded() -> dict[str, Record]:
    registry, _ = load_registry(BUNDLED_RECORDS, cache=False)
    return registry.records


def test_records_of_one_shape_share_one_field_set(loaded: dict[str, Record]) -> None:
    by_fields: dict[frozenset[str], set[int]] = {}
    for record in loaded.values():
        by_fields.setdefault(frozenset(record.model_fields_set), set()).add(id(record.model_fields_set))
    assert len(loaded) > len(by_fields)  # several records of one shape: the test can tell sharing from copying
    assert all(len(ids) == 1 for ids in by_fields.values())


def test_equal_texts_are_one_object(loaded: dict[str, Record]) -> None:
    """The id a result names its source by, read from the result's file, is the source's own id, read from another."""
    named = [(record.source, loaded[record.source].id) for record in loaded.values()  # type: ignore[attr-defined]
             if record.kind == "result" and getattr(record, "source", None) in loaded]
    assert named
    assert all(reference is own for reference, own in named)


def test_equal_small_values_inside_records_are_one_object() -> None:
    """Equal ``missing_metadata`` entries of two records are one entry; a value holding a decimal is never shared
    (equal decimals can print differently: 1.0 and 1.00)."""
    from registry.models import MissingMetadata
    from registry.models.values import HardwareEntry, Quantity

    first = {"field": "uncertainty", "reason": "unreported"}
    a, b = (compact._inner(MissingMetadata.model_validate(dict(first))) for _ in range(2))
    assert a is b
    other = compact._inner(MissingMetadata.model_validate({**first, "note": "none given"}))
    assert other is not a and other.note == "none given"
    memory = {"accelerator": "NVIDIA H100", "stated": "H100", "memory": {"value": "80", "unit": "gigabyte"}}
    one = compact._inner(HardwareEntry.model_validate(memory))
    two = compact._inner(HardwareEntry.model_validate({**memory, "memory": {"value": "80.0", "unit": "gigabyte"}}))
    assert one is not two and str(two.memory.value) == "80.0"  # type: ignore[union-attr]
    assert isinstance(one.memory, Quantity)


def test_a_shared_record_dumps_and_copies_as_its_own(loaded: dict[str, Record]) -> None:
    """The dumps that read the field set are those of a record typed afresh; a copy with changes has its own set."""
    record = next(r for r in loaded.values() if r.kind == "result")
    fresh = type(record).model_validate(record.model_dump(mode="json", exclude_unset=True))
    assert record.model_dump(mode="json", exclude_unset=True) == fresh.model_dump(mode="json", exclude_unset=True)
    assert record == fresh
    shared = record.model_fields_set
    before = set(shared)
    name = next(field for field in type(record).model_fields if field not in shared)
    changed = record.model_copy(update={name: None})
    assert name in changed.model_fields_set
    assert record.model_fields_set is shared and shared == before


def test_a_frozen_record_refuses_changes_to_its_shared_set(loaded: dict[str, Record]) -> None:
    record = next(iter(loaded.values()))
    with pytest.raises(Exception, match="frozen"):
        record.id = "other"  # type: ignore[misc]


def test_field_sets_shared_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder of records of ever new shapes cannot grow the table of shared sets past its bound."""
    monkeypatch.setattr(compact, "_field_sets", {})
    monkeypatch.setattr(compact, "MAX_FIELD_SETS", 1)
    registry, _ = load_registry(BUNDLED_RECORDS, cache=False)
    assert len(compact._field_sets) == 1
    shapes = {frozenset(r.model_fields_set) for r in registry.records.values()}
    assert len(shapes) > 1  # the others kept sets of their own
    assert registry.records  # and loaded all the same


def _large() -> dict[str, object]:
    return {"small": [1, 2, 3], "files": {f"k{i}": (b"x" * i if i % 3 else [i, "\ud800", (i,)]) for i in range(40)},
            "nested": {"inner": {str(i): {"v": i} for i in range(30)}, "list": list(range(25))}, "n": 7}


@pytest.mark.parametrize("value", [_large(), list(range(50)), {}, [], "text", 12, {"a": {"b": {"c": list(range(9))}}}])
def test_written_as_made_is_what_encoded_gives(value: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cacheformat, "PIECE_ITEMS", 4)  # runs of four items: every path through the pieces
    file = io.BytesIO()
    file.write(b"before")
    cacheformat.write_encoded(file, b"digest", value, b"context")
    written = file.getvalue()
    assert written == b"before" + b"".join(cacheformat.encoded(b"digest", value, b"context"))
    assert cacheformat.decode(b"digest", written[len(b"before"):], b"context") == value


def test_written_as_made_carries_a_mac_that_catches_a_change(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cacheformat, "PIECE_ITEMS", 4)
    file = io.BytesIO()
    cacheformat.write_encoded(file, b"digest", _large(), b"context")
    damaged = bytearray(file.getvalue())
    damaged[-1] ^= 1
    with pytest.raises(cacheformat.CorruptEntry):
        cacheformat.decode(b"digest", bytes(damaged), b"context")
