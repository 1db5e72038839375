"""The one atomic writer: stable key order, round trip, never overwrites, nothing half-written."""

from __future__ import annotations

import datetime as dt
import os
import stat
from pathlib import Path

import pytest

from registry.errors import RegistryError
from registry.models import Review
from registry.store.atomic import write_atomic
from registry.store.writer import record_to_yaml, write_record
from registry.validate.runner import validate
from tests.conftest import RESULT_33, SOURCE

SHA = "4bc2452110f280a7ba8baa4c7c28beac89769511019666bc77fc33af9b3bcd60"


def new_review() -> Review:
    return Review(
        kind="review",
        id="saadat-fellay-20261101-review-result-33-recheck",
        subjects=[RESULT_33],
        source=SOURCE,
        status="source-checked",
        reviewer="a curator",
        reviewed_at=dt.datetime(2026, 11, 1, 12, 0, tzinfo=dt.UTC),
        artifact_sha256=SHA,
        retrieval_url="https://openreview.net/pdf?id=NUleWh1GFx",
        methods=["source-hash-verification", "human-source-review"],
        note="Re-read page 6: 'the NT 2.5B checkpoint (33.88 → 11.49 GB)'.",
    )


def test_written_record_is_valid_and_ordered(records_dir: Path) -> None:
    path = write_record(records_dir, new_review(), comment="Written by a test.")
    assert path == records_dir / "review" / "saadat-fellay-20261101-review-result-33-recheck.yaml"
    text = path.read_text()
    assert text.startswith("# Written by a test.\nkind: review\nid: saadat-fellay-20261101-review-result-33-recheck\n")
    assert "reviewed_at: 2026-11-01T12:00:00Z" in text and "33.88 → 11.49" in text
    registry, report = validate(records_dir)
    assert report.valid
    assert registry.records[new_review().id] == new_review()


def test_never_overwrites(records_dir: Path) -> None:
    path = write_record(records_dir, new_review())
    before = path.read_bytes()
    with pytest.raises(RegistryError, match="already exists; records are never overwritten"):
        write_record(records_dir, new_review().model_copy(update={"note": "changed"}))
    assert path.read_bytes() == before


def test_failure_part_way_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "review" / "x.yaml"

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="No space left"):
        write_atomic(target, "kind: review\n")
    assert not target.exists()
    assert list(target.parent.iterdir()) == []


def test_decimal_survives_as_text() -> None:
    from registry.validate.runner import validate as load
    from tests.conftest import BUNDLED_RECORDS, RESULT_11

    registry, _ = load(BUNDLED_RECORDS)
    text = record_to_yaml(registry.records[RESULT_11])
    assert "printed_value: '11.49'" in text and "numeric_value: '11.49'" in text


def test_shared_values_are_written_out_not_aliased() -> None:
    from decimal import Decimal

    from registry.store.yamlio import dump_yaml, parse_yaml

    shared = Decimal("33.88")  # one object in two fields, as a reproduction's value and comparison hold it
    text = dump_yaml({"value": shared, "comparison": {"reproduced": shared}})
    assert "&" not in text and "*" not in text
    assert parse_yaml(text).data == {"value": "33.88", "comparison": {"reproduced": "33.88"}}


def test_written_files_get_the_umask_permissions_and_links_are_optional(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.yaml", "kind: family\n")
        assert stat.S_IMODE((tmp_path / "a.yaml").stat().st_mode) == 0o644  # not the temporary file's 0600

        def no_links(*_args: object) -> None:
            raise PermissionError("hard links are not supported here")

        monkeypatch.setattr(os, "link", no_links)
        write_atomic(tmp_path / "b.yaml", "kind: family\n")
        assert (tmp_path / "b.yaml").read_text() == "kind: family\n"

        def another_writer_first(_tmp: object, target: Path) -> None:  # the name appears between look and link
            Path(target).write_text("kind: theirs\n")
            raise PermissionError("hard links are not supported here")

        monkeypatch.setattr(os, "link", another_writer_first)
        with pytest.raises(FileExistsError, match="records are never overwritten"):
            write_atomic(tmp_path / "c.yaml", "kind: ours\n")
        assert (tmp_path / "c.yaml").read_text() == "kind: theirs\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml", "c.yaml"]  # no temporary file left
    finally:
        os.umask(old)
