"""The site build gives the same bytes however its work is shared out (issue 24's speed target).

The build works out what many pages ask once, before its page writers fork (``registry.site.build``),
and keeps answers per registry (``registry.per_registry``); a record that no correction or retraction
names is answered as current without looking for back links (``registry.status.versions.chained``). None of
that may change a byte: the fixture registry built twice, with forked writers and in one process,
and after another registry was built in the same process, gives the same tree; and the shortcut
answers what the back links answer, for every record of a registry with a chain of corrections and
a retraction.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import pytest

from tests.conftest import BUNDLED_RECORDS, DATA, RESULT_11, RESULT_33

pytest.importorskip("jinja2", reason="the site needs jinja2")

FIXTURE_REGISTRY = DATA / "fixture-registry"


def tree(folder: Path) -> dict[str, str]:
    """Each file's path under ``folder`` with the SHA-256 of its bytes."""
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def differences(first: dict[str, str], second: dict[str, str]) -> list[str]:
    return sorted(name for name in first.keys() | second.keys() if first.get(name) != second.get(name))


def test_two_builds_of_the_fixture_registry_give_the_same_tree(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from registry.site import build
    from registry.validate.runner import validate

    registry, report = validate(FIXTURE_REGISTRY)
    assert report.valid
    build.build_site(registry, tmp_path / "forked")
    monkeypatch.setattr(build, "WORKERS", [1])  # every page written in this process, one after the other
    build.build_site(registry, tmp_path / "here")
    again, _ = validate(FIXTURE_REGISTRY)  # a registry loaded afresh: no answer kept from the first
    build.build_site(again, tmp_path / "again")

    first = tree(tmp_path / "forked")
    assert len(first) > 600, "the fixture registry has 161 results: three files per record"
    assert differences(first, tree(tmp_path / "here")) == []
    assert differences(first, tree(tmp_path / "again")) == []


def test_a_build_keeps_nothing_from_another_registry_built_before_it(tmp_path: Path) -> None:
    from registry.site.build import build_site
    from registry.validate.runner import validate

    fixture, _ = validate(FIXTURE_REGISTRY)
    build_site(fixture, tmp_path / "alone")
    bundled, _ = validate(BUNDLED_RECORDS)
    build_site(bundled, tmp_path / "bundled")
    build_site(fixture, tmp_path / "after")
    assert differences(tree(tmp_path / "alone"), tree(tmp_path / "after")) == []


@pytest.fixture
def chained_records(cli, records_dir: Path) -> Path:  # type: ignore[no-untyped-def]
    """The bundled records with a chain of three versions (33.88, 33.89, 33.90 GB) and a retraction."""
    today = dt.datetime.now(dt.UTC).strftime("%Y%m%d")
    for record_id, value in ((RESULT_33, "33.89"),
                             (f"saadat-fellay-{today}-result-nt-2-5b-training-peak-memory-flashattention-checkpointing",
                              "33.90")):
        done = cli("correct", record_id, "--set", f"printed_value={value}", "--reason", f"the page prints {value}",
                   "--curator", "A. Curator", "--records", records_dir)
        assert done.exit_code == 0, done.output
    done = cli("retract", RESULT_11, "--reason", "a test: another stage's value", "--curator", "A. Curator",
               "--records", records_dir)
    assert done.exit_code == 0, done.output
    return records_dir


def test_the_shortcut_for_records_no_chain_names_answers_as_the_back_links_do(chained_records: Path) -> None:
    from registry.models import Correction, Retraction
    from registry.status.versions import Status, chained, history_rows, status_of
    from registry.validate.runner import validate

    registry, report = validate(chained_records)
    assert report.valid
    named = chained(registry)
    assert RESULT_33 in named and RESULT_11 in named
    for record_id in registry.records:
        retracted = registry.referrers(record_id, Retraction, "retracts")
        superseded = registry.referrers(record_id, Correction, "supersedes")
        expected = Status.RETRACTED if retracted else Status.SUPERSEDED if superseded else Status.CURRENT
        assert status_of(registry, record_id) is expected, record_id
        if record_id not in named:
            assert not (retracted or superseded or registry.referrers(record_id, Correction, "replacement"))
            assert history_rows(registry, record_id) == []
    assert [row.status for row in history_rows(registry, RESULT_33)] == ["superseded", "superseded", "current"]
    assert status_of(registry, RESULT_11) is Status.RETRACTED


def test_the_site_of_a_corrected_registry_is_the_same_built_in_one_process_or_forked(chained_records: Path,
                                                                                     tmp_path: Path,
                                                                                     monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from registry.site import build
    from registry.validate.runner import validate

    registry, _ = validate(chained_records)
    build.build_site(registry, tmp_path / "forked")
    monkeypatch.setattr(build, "WORKERS", [1])
    build.build_site(validate(chained_records)[0], tmp_path / "here")
    first = tree(tmp_path / "forked")
    assert any("retraction/" in name for name in first) and any("correction/" in name for name in first)
    assert differences(first, tree(tmp_path / "here")) == []
