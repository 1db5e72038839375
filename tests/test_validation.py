"""One decision of how a registry is validated (``registry.validation``): in full without the cache, by a watcher
where one answers, from the kept report where nothing changed (not where the records' files are asked for), else
incrementally, and for the watcher itself from the index it holds in memory; every way gives the cold run's report,
and the function prints nothing."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from registry.validate import memo
from registry.validation import Way, validation
from tests.conftest import RESULT_11


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> dt.datetime:
    """A moment far enough after the files' times that the kept report may be taken."""
    moment = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=10)
    monkeypatch.setattr(memo, "now", lambda: moment)
    return moment


def cold(root: Path) -> dict[str, object]:
    return validation(root, cache=False).report.to_dict({})


def test_each_way_in_turn_gives_the_cold_report(records_dir: Path, later: dt.datetime,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    full = validation(records_dir, cache=False)
    assert full.way is Way.FULL and full.folders is None
    first = validation(records_dir)
    assert first.way is Way.INCREMENTAL  # no index kept yet: the incremental run is a full one, and keeps it
    assert first.report.to_dict({}) == full.report.to_dict({})
    again = validation(records_dir)
    assert again.way is Way.KEPT and again.report.to_dict({}) == full.report.to_dict({})
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    result.write_text(result.read_text().replace("numeric_value: '11.49'", "numeric_value: '11.5'"))
    edited = validation(records_dir)
    assert edited.way is Way.INCREMENTAL and edited.report.to_dict({}) == cold(records_dir)
    assert not edited.report.valid
    assert capsys.readouterr() == ("", "")  # the commands say what happened, never the library


def test_the_records_files_come_from_the_index_never_the_kept_report(records_dir: Path, later: dt.datetime) -> None:
    validation(records_dir)
    assert validation(records_dir).way is Way.KEPT
    with_files = validation(records_dir, files=True)
    assert with_files.way is Way.INCREMENTAL and with_files.folders
    assert sum(len(digests) // 16 for _, digests in with_files.folders.values()) == with_files.report.records


def test_a_watcher_answers_first_and_one_that_fails_is_passed_by(records_dir: Path, later: dt.datetime,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from registry.issues.report import Report
    from registry.watch import client

    answer = Report(files=1, records=1)
    monkeypatch.setattr(client, "validate", lambda root, now: (answer, None))
    assert validation(records_dir) == validation(records_dir)
    assert validation(records_dir).way is Way.WATCHER and validation(records_dir).report is answer
    monkeypatch.setattr(client, "validate", lambda root, now: (None, "RuntimeError: the disk went away"))
    passed_by = validation(records_dir)
    assert passed_by.way is Way.INCREMENTAL and passed_by.watcher_failed == "RuntimeError: the disk went away"
    assert passed_by.report.to_dict({}) == cold(records_dir)
    assert validation(records_dir, cache=False).way is Way.FULL  # --no-cache never asks a watcher


def test_a_folder_that_does_not_exist_is_validated_in_full(tmp_path: Path) -> None:
    from registry.errors import RegistryError

    with pytest.raises(RegistryError):
        validation(tmp_path / "missing")


def test_a_process_that_holds_the_index_validates_from_it(records_dir: Path, later: dt.datetime) -> None:
    """The watcher's way (``Held``): its first run, with no index kept, is made in full in a process of its own,
    which keeps one; every run then goes on incrementally from the index in memory, listed from the listing it
    keeps; each gives the cold run's report, and the records' files where asked for (none where it is not valid)."""
    from registry.validate.incremental import run as incremental
    from registry.validation import Held
    from registry.watch.listing import Listing

    listing = Listing(records_dir)
    try:
        held = Held.recalled(records_dir, listing)
        assert held.index is None and not held.changed
        first = validation(records_dir, held=held)
        assert incremental.last_run["run"] == "incremental"  # the run in full was the other process's
        assert first.way is Way.HELD and held.index is not None and held.runs == 1 and first.folders is None
        assert first.report.to_dict({}) == cold(records_dir)
        result = records_dir / "result" / f"{RESULT_11}.yaml"
        result.write_text(result.read_text().replace("numeric_value: '11.49'", "numeric_value: '11.5'"))
        edited = validation(records_dir, held=held, files=True)
        assert (incremental.last_run["run"], incremental.last_run["read"]) == ("incremental", 1)
        assert edited.way is Way.HELD and held.changed and held.runs == 2 and edited.folders == {}
        assert edited.report.to_dict({}) == cold(records_dir) and not edited.report.valid
        result.write_text(result.read_text().replace("numeric_value: '11.5'", "numeric_value: '11.49'"))
        mended = validation(records_dir, held=held, files=True)
        assert mended.report.valid and mended.folders
        assert sum(len(digests) // 16 for _, digests in mended.folders.values()) == mended.report.records
    finally:
        listing.close()


def test_a_held_process_that_lost_its_index_runs_in_full_in_itself(records_dir: Path, later: dt.datetime) -> None:
    """After its first run, a process whose index was dropped (a run cut short) runs in full itself: the run in a
    process of its own is for the first run alone."""
    from registry.validate.incremental import run as incremental
    from registry.validation import Held
    from registry.watch.listing import Listing

    listing = Listing(records_dir)
    try:
        held = Held.recalled(records_dir, listing)
        validation(records_dir, held=held)
        held.index = None
        again = validation(records_dir, held=held)
        assert incremental.last_run["run"] == "full" and held.index is not None
        assert again.report.to_dict({}) == cold(records_dir)
    finally:
        listing.close()
