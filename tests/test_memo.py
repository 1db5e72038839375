"""A kept report (``registry.validate.memo``) is given only when it is exactly what a full run would give.

The property test applies random sequences of edits to a registry (valid and invalid values, broken
YAML, broken references, new corrections, deleted, renamed, added and linked files, a clock moved
forward, across a day, past a date) and after each step compares ``registry validate`` (which may
give the kept report) with ``registry validate --no-cache`` (always a full run), text and JSON.
Short in CI; ``REGISTRY_MEMO_EXAMPLES=2000 pytest tests/test_memo.py`` runs a long one by hand.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry.validate import memo
from tests.conftest import BUNDLED_RECORDS, RESULT_11

EXAMPLES = int(os.environ.get("REGISTRY_MEMO_EXAMPLES", "8"))


class Clock:
    """The moment runs check against: far enough after the files' times that the kept report may be used."""

    def __init__(self) -> None:
        self.moment = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=10)

    def __call__(self) -> dt.datetime:
        return self.moment


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    moving = Clock()
    monkeypatch.setattr(memo, "now", moving)
    return moving


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """One entry per kept report looked for: whether it was taken (so a test shows the kept path ran)."""
    found: list[bool] = []
    recall = memo.recall

    def counted(*args: Any) -> Any:
        report = recall(*args)
        found.append(report is not None)
        return report

    monkeypatch.setattr(memo, "recall", counted)
    return found


def runs(cli: Any, records: Path) -> tuple[list[str], list[str]]:
    """(text, json) output of validate through the kept report, and of a full run, for comparison."""
    kept = [cli("validate", "--records", records, *fmt) for fmt in ([], ["--format", "json"])]
    full = [cli("validate", "--records", records, "--no-cache", *fmt) for fmt in ([], ["--format", "json"])]
    return ([f"{r.exit_code}\n{r.output}" for r in kept], [f"{r.exit_code}\n{r.output}" for r in full])


def test_an_unchanged_registry_is_not_validated_again(cli, records_dir: Path, clock: Clock,  # type: ignore[no-untyped-def]
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    first = cli("validate", "--records", records_dir)
    calls: list[Path] = []
    import registry.validate.incremental.run

    real = registry.validate.incremental.run.validated  # the incremental run, as registry.validation starts it
    monkeypatch.setattr(registry.validate.incremental.run, "validated",
                        lambda root, *args, **named: (calls.append(root), real(root, *args, **named))[1])
    again = cli("validate", "--records", records_dir)
    assert (again.exit_code, again.output) == (first.exit_code, first.output) and calls == []
    (records_dir / "result" / f"{RESULT_11}.yaml").unlink()
    changed = cli("validate", "--records", records_dir)
    assert calls == [records_dir] and changed.output != first.output


def test_a_file_changed_just_before_the_run_is_never_trusted(cli, records_dir: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Within two seconds of a file's change, a second change could keep its time stamps: nothing is kept."""
    cli("validate", "--records", records_dir)
    calls: list[Path] = []
    import registry.validate.incremental.run

    real = registry.validate.incremental.run.validated  # the incremental run, as registry.validation starts it
    monkeypatch.setattr(registry.validate.incremental.run, "validated",
                        lambda root, *args, **named: (calls.append(root), real(root, *args, **named))[1])
    cli("validate", "--records", records_dir)
    assert calls == [records_dir], "the files were copied just now: the report was not kept"


def test_a_report_with_a_date_in_the_future_is_never_reused(cli, records_dir: Path, clock: Clock) -> None:  # type: ignore[no-untyped-def]
    """A review dated tomorrow is an error today and not the day after: the report naming it is never kept."""
    [review] = sorted((records_dir / "review").glob("*.yaml"))[:1]
    tomorrow = (clock.moment + dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    review.write_text(review.read_text().replace("reviewed_at: 2026-10-15T22:00:00Z", f"reviewed_at: {tomorrow}"))
    clock.moment += dt.timedelta(seconds=10)
    kept, full = runs(cli, records_dir)
    assert kept == full and "date-in-future" in full[0]
    clock.moment += dt.timedelta(days=2)  # the date is past now: a full run no longer reports it
    kept, full = runs(cli, records_dir)
    assert kept == full and "date-in-future" not in full[0]


def test_a_foreign_or_damaged_kept_report_is_not_taken(cli, records_dir: Path, clock: Clock,  # type: ignore[no-untyped-def]
                                                       tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "own-cache"))
    first = cli("validate", "--records", records_dir)
    [entry] = (tmp_path / "own-cache" / "registry" / "reports").glob("*.json")
    data = bytearray(entry.read_bytes())
    data[-5] ^= 0xFF
    entry.write_bytes(bytes(data))
    assert cli("validate", "--records", records_dir).output == first.output


EDITS = ["value", "invalid-value", "broken-yaml", "broken-reference", "delete", "rename", "copy", "touch",
         "hidden-file", "link-outside", "clock-seconds", "clock-day", "restore"]


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(st.tuples(st.sampled_from(EDITS), st.integers(0, 10_000)), min_size=1, max_size=6))
def test_the_kept_report_is_always_a_full_runs(cli, tmp_path_factory: pytest.TempPathFactory,  # type: ignore[no-untyped-def]
                                               clock: Clock, taken: list[bool], steps: list[tuple[str, int]]) -> None:
    root = tmp_path_factory.mktemp("memo") / "records"
    shutil.copytree(BUNDLED_RECORDS, root)
    outside = root.parent / "outside.yaml"
    outside.write_text("kind: family\n")
    clock.moment = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=10)
    kept, full = runs(cli, root)
    assert kept == full
    for edit, seed in steps:
        files = sorted(root.rglob("*.yaml"))
        path = files[seed % len(files)] if files else None
        apply(edit, seed, root, path, outside, clock)
        clock.moment += dt.timedelta(seconds=5)  # past the two seconds in which a change could hide
        kept, full = runs(cli, root)
        assert kept == full, (edit, path)
        taken.clear()
        kept_again, _ = runs(cli, root)  # now from the kept report, where it could be kept
        assert kept_again == full, (edit, path)
        assert taken == [True, True] or "date-in-future" in full[0], "nothing changed: the kept report is taken"


def apply(edit: str, seed: int, root: Path, path: Path | None, outside: Path, clock: Clock) -> None:
    if edit == "clock-seconds":
        clock.moment += dt.timedelta(seconds=seed)
    elif edit == "clock-day":
        clock.moment += dt.timedelta(days=1 + seed % 400)
    elif path is None:
        return
    elif edit == "value":
        text = path.read_text()
        path.write_text(text.replace("0.", f"0.{seed % 10}", 1))
    elif edit == "invalid-value":
        path.write_text(path.read_text().replace("kind:", "kind: [oops]\nnot_a_field:", 1))
    elif edit == "broken-yaml":
        path.write_text(path.read_text() + "\n  : - [\n")
    elif edit == "broken-reference":
        text = path.read_text()
        path.write_text(text.replace("saadat-fellay-20261015-", "saadat-fellay-20261015-missing-", 1 + seed % 2)
                        if "saadat" in text[text.find("\n"):] else text)
    elif edit == "delete":
        path.unlink()
    elif edit == "rename":
        path.rename(path.with_name(f"renamed-{seed}.yaml"))
    elif edit == "copy":
        shutil.copy(path, path.with_name(f"copy-{seed}.yaml"))
    elif edit == "touch":
        os.utime(path)
    elif edit == "hidden-file":
        (path.parent / f".draft-{seed}.yaml").write_text("kind: [\n")
    elif edit == "link-outside":
        link = path.with_name(f"link-{seed}.yaml")
        if not link.exists():
            link.symlink_to(outside)
        outside.write_text(f"kind: family\nname: changed {seed}\n")
    elif edit == "restore":
        source = BUNDLED_RECORDS / path.relative_to(root)
        if source.exists():
            shutil.copy(source, path)


def test_kept_reports_of_folders_no_longer_validated_are_removed(cli, records_dir: Path, clock: Clock,  # type: ignore[no-untyped-def]
                                                                  tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from registry.store import cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "own-cache"))
    reports = tmp_path / "own-cache" / "registry" / "reports"
    reports.mkdir(parents=True)
    old, recent = reports / "old.json", reports / "recent.json"
    for path, age in ((old, cache.STALE_S + 60), (recent, 60)):
        path.write_bytes(b"x")
        os.utime(path, (clock.moment.timestamp() - age,) * 2)
    cli("validate", "--records", records_dir)
    assert not old.exists() and recent.exists() and len(list(reports.iterdir())) == 2
