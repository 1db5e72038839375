"""Incremental validation (``registry.validate.incremental``) through the command line: what it reads again, and when not.

The property test (``test_incremental_property.py``) compares it with cold runs after random edits;
these tests pin the paths one by one: the command line's own walk, a file changed within two
seconds of the run, a damaged index, a clock set back, and a registry with more dangling ids than
a cold run suggests for.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from registry.store.loader import scan_record_files
from registry.validate import memo
from registry.validate.incremental import run as incremental
from tests.conftest import DATA, RESULT_11


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(memo, "recall", lambda *args: None)  # every run goes to the incremental layer
    return tmp_path / "cache"


def outputs(cli, records: Path) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """(incremental, cold) output of validate as JSON, with the exit status."""
    ours = cli("validate", "--records", records, "--format", "json")
    cold = cli("validate", "--records", records, "--format", "json", "--no-cache")
    return f"{ours.exit_code}\n{ours.output}", f"{cold.exit_code}\n{cold.output}"


def test_an_edit_is_read_and_checked_alone(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    ours, cold = outputs(cli, records_dir)
    assert ours == cold and incremental.last_run["run"] == "full"
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    result.write_text(result.read_text().replace("numeric_value: '11.49'", "numeric_value: '11.5'"))
    ours, cold = outputs(cli, records_dir)
    assert ours == cold and "value-mismatch" in cold
    assert incremental.last_run["run"] == "incremental" and incremental.last_run["read"] == 1
    naming = sum(RESULT_11 in path.read_text() for path in records_dir.rglob("*.yaml"))  # itself and its referrers
    assert naming <= incremental.last_run["checked"] < len(list(records_dir.rglob("*.yaml")))


def test_the_command_lines_walk_lists_the_loaders_files(records_dir: Path) -> None:
    """``memo.tree_state`` lists record files as ``scan_record_files`` does: hidden ones and other names left out,
    links to files in, links to folders not entered."""
    (records_dir / ".hidden").mkdir()
    (records_dir / ".hidden" / "x.yaml").write_text("kind: family\n")
    (records_dir / "family" / ".draft.yaml").write_text("kind: family\n")
    (records_dir / "family" / "notes.txt").write_text("notes\n")
    (records_dir / "family" / "other.yml").write_text("kind: family\n")
    (records_dir / "family" / "link.yaml").symlink_to(records_dir / "family" / "other.yml")
    (records_dir / "linked-folder").symlink_to(records_dir / "family")
    listed: list[memo.Folder] = []
    memo.tree_state(records_dir, listed)
    files = [file for folder in listed for file in folder.files()]
    assert sorted((parts, path) for parts, path, _ in files) == sorted(
        (parts, entry.path) for parts, entry in scan_record_files(records_dir))
    assert [status for parts, _, status in files if parts[-1] == "link.yaml"] == [bytes(32)]  # a link: none known
    other = next(status for parts, _, status in files if parts[-1] == "other.yml")
    found = (records_dir / "family" / "other.yml").stat()
    assert memo.STATUS.unpack(other) == (found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino)


def test_a_file_changed_within_two_seconds_of_the_run_is_read_again(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """A second change within the same time stamp would not show in a file's status: its digest decides."""
    cli("validate", "--records", records_dir)
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    status = result.stat()
    text = result.read_text()
    result.write_text(text.replace("numeric_value: '11.49'", "numeric_value: '11.48'"))  # the same size
    os.utime(result, ns=(status.st_atime_ns, status.st_mtime_ns))
    ours, cold = outputs(cli, records_dir)
    assert ours == cold and "value-mismatch" in cold


def test_a_damaged_index_runs_in_full(cli, records_dir: Path, own_cache: Path) -> None:  # type: ignore[no-untyped-def]
    cli("validate", "--records", records_dir)
    [index] = (own_cache / "registry" / "incremental").glob("*.msgpack")
    data = bytearray(index.read_bytes())
    data[-3] ^= 0xFF
    index.write_bytes(bytes(data))
    ours, cold = outputs(cli, records_dir)
    assert ours == cold and incremental.last_run["run"] == "full"


def test_a_clock_set_back_runs_in_full(records_dir: Path) -> None:
    now = dt.datetime.now(dt.UTC) + dt.timedelta(days=2)
    incremental.validate(records_dir, now)
    incremental.validate(records_dir, now - dt.timedelta(days=1))
    assert incremental.last_run["run"] == "full"
    incremental.validate(records_dir, now)
    assert incremental.last_run["run"] == "incremental"


def test_more_dangling_ids_than_a_cold_run_suggests_for_run_in_full(cli, records_dir: Path,  # type: ignore[no-untyped-def]
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A cold run suggests ids for the first ``LIMIT`` dangling references only, in its order: that order decides."""
    from registry.validate import runner as checks

    monkeypatch.setattr(checks._Suggestions, "LIMIT", 2)
    for index in range(3):
        (records_dir / "retraction").mkdir(exist_ok=True)
        (records_dir / "retraction" / f"t-20261201-retraction-r{index}.yaml").write_text(
            f"kind: retraction\nid: t-20261201-retraction-r{index}\nretracts: saadat-fellay-20261015-gone-{index}\n"
            "reason: A test case.\nretracted_by: a test\nretracted_at: 2026-12-01T08:30:00Z\n")
    ours, cold = outputs(cli, records_dir)
    assert ours == cold and "did you mean" in cold
    ours, cold = outputs(cli, records_dir)
    assert ours == cold and incremental.last_run["run"] == "full"


def test_a_suggestion_given_again_follows_the_ids(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """Fifty records name a result that is gone; a cold run works out 'did you mean' once and gives it to each. When
    a closer id comes, every one of them is checked again, not only the first that asked."""
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    text = result.read_text()
    result.unlink()
    ours, cold = outputs(cli, records_dir)
    assert ours == cold and cold.count("did you mean") > 2
    again = records_dir / "result" / f"{RESULT_11}-again.yaml"
    again.write_text(text.replace(f"id: {RESULT_11}\n", f"id: {RESULT_11}-again\n"))
    ours, cold = outputs(cli, records_dir)
    assert cold.count(f"did you mean '{RESULT_11}-again'") > 2
    assert ours == cold and incremental.last_run["run"] == "incremental"


def test_a_registry_with_its_own_units_runs_in_full_and_a_removed_unit_is_found(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path) -> None:
    """Every result's checks read the registry's unit records, so a registry holding one, now or at the last run,
    is checked in full: removing the unit record reports the result in that unit, as a cold run does."""
    import shutil

    data = Path(__file__).parent / "data"
    records = tmp_path / "records"
    shutil.copytree(data / "fixture-registry", records)
    ours, cold = outputs(cli, records)
    assert ours == cold
    shutil.copytree(data / "own-unit", records, dirs_exist_ok=True)
    ours, cold = outputs(cli, records)
    assert ours == cold and "unknown-unit" not in cold and incremental.last_run["run"] == "full"
    ours, cold = outputs(cli, records)
    assert ours == cold and incremental.last_run["run"] == "full"
    for unit in (records / "unit").iterdir():
        unit.unlink()
    ours, cold = outputs(cli, records)
    assert ours == cold and "unknown-unit" in cold and incremental.last_run["run"] == "full"
    ours, cold = outputs(cli, records)
    assert ours == cold and incremental.last_run["run"] == "incremental"


def test_an_edit_keeps_the_parse_cache_of_the_other_files(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """An incremental run asks the parse cache about the files it reads alone: the rows of every other file stay
    (it once listed them all, checked each row's MAC on every read, and forgot every file it was not given)."""
    from registry.store.cache import ParseCache

    outputs(cli, records_dir)
    store = ParseCache.open(records_dir)
    assert store is not None
    before = {key for key, _, _ in store.known()}
    store.close()
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    result.write_text(result.read_text().replace("numeric_value: '11.49'", "numeric_value: '11.5'"))
    ours = cli("validate", "--records", records_dir, "--format", "json")
    assert incremental.last_run["run"] == "incremental" and incremental.last_run["read"] == 1, ours.output
    store = ParseCache.open(records_dir)
    assert store is not None
    assert {key for key, _, _ in store.known()} == before
    store.close()


def test_nothing_changed_writes_no_index(cli, records_dir: Path, own_cache: Path,  # type: ignore[no-untyped-def]
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that finds every file as kept and every finding as it was leaves the index as it was (writing it is
    most of such a run at 100,000 results); a run after an edit writes it again."""
    monkeypatch.setattr(incremental, "RACY_NS", 0)  # the files were just copied: trusted from the run on, not 2 s
    outputs(cli, records_dir)
    [index] = (own_cache / "registry" / "incremental").iterdir()
    kept = index.stat().st_mtime_ns, index.read_bytes()
    cli("validate", "--records", records_dir)
    assert incremental.last_run == {"run": "incremental", "read": 0, "checked": incremental.last_run["checked"]}
    assert (index.stat().st_mtime_ns, index.read_bytes()) == kept
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    result.write_text(result.read_text().replace("numeric_value: '11.49'", "numeric_value: '11.5'"))
    cli("validate", "--records", records_dir)
    assert index.read_bytes() != kept[1]


def test_the_benchmarks_rule_reads_the_benchmarks_not_the_whole_registry(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """A dataset's check lists the benchmarks (``Registry.of_kind``) through the index: nothing changed, nothing is
    checked again; a benchmark the dataset is named like, added then removed, is found as a cold run finds it."""
    ours, cold = outputs(cli, records_dir)
    assert ours == cold and incremental.last_run["run"] == "full"
    ours, _ = outputs(cli, records_dir)
    assert incremental.last_run == {"run": "incremental", "read": 0, "checked": 0}
    case = DATA / "invalid" / "dataset-benchmark-unlinked" / "benchmark"
    added = records_dir / "benchmark" / next(case.iterdir()).name
    added.parent.mkdir(exist_ok=True)
    added.write_text(next(case.iterdir()).read_text())
    ours, cold = outputs(cli, records_dir)
    assert ours == cold and "dataset-benchmark-unlinked" in cold and incremental.last_run["run"] == "incremental"
    added.unlink()
    ours, cold = outputs(cli, records_dir)
    assert ours == cold and "dataset-benchmark-unlinked" not in cold and incremental.last_run["run"] == "incremental"
