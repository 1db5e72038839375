"""A run in full loads its files in worker processes (``registry.store.typedfiles``) and reports, byte for byte, what
one process reports, and what the parse cache's path reports: on the bundled records with every invalid case of
tests/data/invalid beside them, and on a generated registry with broken files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from registry.store import reading, typedfiles
from registry.store.loader import load_registry
from registry.validate import memo
from registry.validate.incremental import run as incremental
from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, DATA
from tests.test_cache import make_registry

NOW = __import__("datetime").datetime(2026, 12, 7, tzinfo=__import__("datetime").UTC)


@pytest.fixture
def own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of a few files, so that a small registry is spread over several workers and many chunks (the parse
    cache's workers too: those of a first run with the cache on, ``incremental``'s run in full)."""
    monkeypatch.setattr(typedfiles, "CHUNK", 7)
    monkeypatch.setattr(reading, "CHUNK", 7)
    monkeypatch.setattr(reading, "PARALLEL_MIN", 10)


def report_json(root: Path, **options: object) -> str:
    return json.dumps(validate(root, now=NOW, **options)[1].to_dict(), sort_keys=True)  # type: ignore[arg-type]


def assert_same_reports(root: Path) -> str:
    files = sum(1 for _ in root.rglob("*.yaml"))
    assert typedfiles.workers_for(files, 3) == 3  # the pool runs: this process holds no other thread
    one = report_json(root, cache=False, jobs=1)
    first = incremental.validate(root, NOW)  # a first run with the cache on: typed in the parse cache's workers
    assert json.dumps(first.to_dict(), sort_keys=True) == one
    assert incremental.last_run["run"] == "full"
    assert report_json(root, cache=False, jobs=3) == one
    assert report_json(root, cache=False, jobs=2) == one
    assert report_json(root, cache=True) == one  # the parse cache filled: taken from it, typed here
    return one


def with_every_invalid_case(root: Path) -> Path:
    shutil.copytree(BUNDLED_RECORDS, root)
    for case in sorted((DATA / "invalid").iterdir()):
        if case.is_dir():
            shutil.copytree(case, root / f"invalid-{case.name}", symlinks=True)
    return root


@pytest.mark.slow
def test_the_bundled_records_and_every_invalid_case_report_the_same_with_any_number_of_workers(
        tmp_path: Path, own_cache: None, small_chunks: None) -> None:
    root = with_every_invalid_case(tmp_path / "records")
    report = json.loads(assert_same_reports(root))
    assert not report["valid"]
    codes = {issue["code"] for issue in report["issues"]}
    # the files a worker cannot type reach the loader, which words their issues (each with its line)
    assert {"duplicate-id", "binary-file"} <= codes
    assert any(issue["line"] for issue in report["issues"] if issue["code"].startswith("schema"))


@pytest.mark.slow
def test_a_generated_registry_with_broken_files_reports_the_same_with_any_number_of_workers(
        tmp_path: Path, own_cache: None, small_chunks: None) -> None:
    root = tmp_path / "records"
    make_registry(root, 40)
    results = sorted((root / "result").glob("*.yaml"))
    results[3].write_text(results[3].read_text().replace("kind: result", "kind: reslut"))
    results[5].write_text("id: [unclosed\n")
    results[7].write_text(results[7].read_text() + "value: not-a-number\n")
    shutil.copy(results[9], root / "result" / "copy-of-a-result.yaml")
    report = json.loads(assert_same_reports(root))
    assert {"unknown-kind", "duplicate-id"} <= {issue["code"] for issue in report["issues"]}


def test_a_record_typed_in_a_worker_is_the_record_typed_here(tmp_path: Path, small_chunks: None) -> None:
    root = tmp_path / "records"
    shutil.copytree(BUNDLED_RECORDS, root)
    alone, _ = load_registry(root, cache=False, jobs=1)
    pooled, _ = load_registry(root, cache=False, jobs=2)
    assert list(pooled.records) == list(alone.records)
    assert all(pooled.records[i] == alone.records[i] for i in alone.records)
    assert [str(pooled.paths[i]) for i in pooled.records] == [str(alone.paths[i]) for i in alone.records]


def test_jobs_is_one_process_below_the_threshold_unless_asked() -> None:
    assert typedfiles.workers_for(typedfiles.PARALLEL_MIN - 1, None) == 1
    assert typedfiles.workers_for(10 * typedfiles.CHUNK, 4) == 4
    assert typedfiles.workers_for(typedfiles.CHUNK, 4) == 1  # one chunk: nothing to share out
    assert typedfiles.workers_for(10 * typedfiles.CHUNK, 1) == 1


def test_validate_with_jobs_prints_the_same_report(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memo, "now", lambda: NOW)  # a message names the moment dates are compared with
    root = with_every_invalid_case(tmp_path / "records")
    one = cli("validate", "--records", root, "--no-cache", "--jobs", "1", "--format", "json")
    two = cli("validate", "--records", root, "--no-cache", "--jobs", "2", "--format", "json")
    assert one.exit_code == two.exit_code == 1
    assert one.output == two.output
    refused = cli("validate", "--records", root, "--no-cache", "--jobs", "0")
    assert refused.exit_code == 2 and "--jobs" in refused.output
