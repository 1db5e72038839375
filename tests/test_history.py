"""Corrections and retractions: the old record stays; show, list, the database and validate read the chain."""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
from pathlib import Path

import pytest

from registry.status.versions import Status, current_of, history_rows, status_of, versions
from registry.validate.runner import validate
from tests.conftest import RESULT_11, RESULT_33, SOURCE, copy_of_records, invoke
from tests.test_db_postgres import pg_url  # noqa: F401 - the fixture

TODAY = dt.datetime.now(dt.UTC).strftime("%Y%m%d")
NEW_33 = f"saadat-fellay-{TODAY}-result-nt-2-5b-training-peak-memory-flashattention-checkpointing"
CORRECTION_33 = f"saadat-fellay-{TODAY}-correction-result-nt-2-5b-training-peak-memory-flashattention-checkpointing"
SHA = "4bc2452110f280a7ba8baa4c7c28beac89769511019666bc77fc33af9b3bcd60"


def correct(cli, records: Path, record_id: str, value: str, *extra: str):  # type: ignore[no-untyped-def]
    return cli("correct", record_id, "--set", f"printed_value={value}", "--reason", f"the page prints {value}",
               "--curator", "A. Curator", "--records", records, *extra)


def correct_and_retract(cli, records: Path) -> Path:  # type: ignore[no-untyped-def]
    """``records`` with the 33.88 GB result corrected to 33.89 and the 11.49 GB one retracted."""
    assert correct(cli, records, RESULT_33, "33.89").exit_code == 0
    retracted = cli("retract", RESULT_11, "--reason", "a test: the value is another stage's", "--curator", "A. Curator",
                    "--records", records)
    assert retracted.exit_code == 0, retracted.output
    return records


@pytest.fixture(scope="session")
def corrected_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``corrected`` made once per test run; each test gets its own copy, so it may edit it."""
    return correct_and_retract(invoke, copy_of_records(tmp_path_factory.mktemp("corrected-template") / "records"))


@pytest.fixture
def corrected(records_dir: Path, corrected_template: Path) -> Path:
    """The bundled records with the 33.88 GB result corrected to 33.89 and the 11.49 GB one retracted."""
    shutil.rmtree(records_dir)
    shutil.copytree(corrected_template, records_dir, symlinks=True)
    return records_dir


def test_a_correction_leaves_the_old_record_and_files_a_new_one(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    old_file = records_dir / "result" / f"{RESULT_33}.yaml"
    before = old_file.read_bytes()
    result = correct(cli, records_dir, RESULT_33, "33.89")
    assert result.exit_code == 0, result.output
    assert f"Wrote result {NEW_33}" in result.output and f"Wrote correction {CORRECTION_33}" in result.output
    assert "warning correction-unreviewed" in result.output and "reads 'not reviewed' until a review checks it" in \
        result.output
    assert old_file.read_bytes() == before, "a transcribed record is never edited"
    registry, report = validate(records_dir)
    assert report.valid and [i.code for i in report.warnings if i.record_id == CORRECTION_33] == [
        "correction-unreviewed"]
    new = registry.records[NEW_33]
    assert new.printed_value == "33.89" and str(new.numeric_value) == "33.89", "the exact value follows the digits"
    assert status_of(registry, RESULT_33) is Status.SUPERSEDED and current_of(registry, RESULT_33).id == NEW_33
    correction = registry.records[CORRECTION_33]
    assert (correction.reason, correction.corrected_by) == ("the page prints 33.89", "A. Curator")


def test_show_gives_the_current_value_and_the_history(cli, corrected: Path) -> None:  # type: ignore[no-untyped-def]
    old = cli("show", RESULT_33, "--records", corrected)
    assert old.exit_code == 0, old.output
    assert f"Superseded: the current version is {NEW_33} (33.89 GB)." in old.output
    assert "History" in old.output and "printed_value: 33.88 -> 33.89; numeric_value: 33.88 -> 33.89" in old.output
    for words in ("corrected by", "A. Curator", "the page prints 33.89"):  # the cell folds long ids across lines
        assert words in old.output, words
    registry, _ = validate(corrected)
    assert history_rows(registry, RESULT_33)[1].why.startswith(f"corrected by {CORRECTION_33} (A. Curator, ")
    assert "source checked (no artifact hash)" in old.output, "the old record keeps its review"
    new = cli("show", NEW_33, "--records", corrected)
    assert "Current version of a corrected record (2 versions; see its history)." in new.output
    assert "not reviewed" in new.output and "source checked" not in new.output.split("History")[0], \
        "a correction of a reviewed result needs its own review"
    withdrawn = cli("show", RESULT_11, "--records", corrected)
    assert "Withdrawn by saadat-fellay-" in withdrawn.output and "a test: the value is another stage's; no version " \
        "of this record is current." in withdrawn.output


def test_list_shows_current_records_and_every_version_on_request(cli, corrected: Path) -> None:  # type: ignore[no-untyped-def]
    results = cli("list", "--kind", "result", "--records", corrected)
    assert results.exit_code == 0, results.output
    assert "33.89 GB" in results.output and "33.88 GB" not in results.output and "11.49" not in results.output
    everything = cli("list", "--kind", "result", "--all", "--records", corrected)
    assert "Results, every version" in everything.output
    for value, status in (("33.88 GB", "superseded"), ("33.89 GB", "current"), ("11.49 GB", "retracted")):
        row = next(line for line in everything.output.splitlines() if value in line)
        assert status in row, (value, row)
    listed = cli("list", "--records", corrected)
    assert RESULT_33 not in listed.output and NEW_33 in listed.output and CORRECTION_33 in listed.output
    assert RESULT_33 in cli("list", "--all", "--records", corrected).output


def test_the_database_shows_current_results_and_keeps_the_history_queryable(cli, corrected: Path,  # type: ignore[no-untyped-def]
                                                                           tmp_path: Path) -> None:
    db = tmp_path / "registry.db"
    built = cli("db", "build", "--records", corrected, "--out", db)
    assert built.exit_code == 0, built.output
    with sqlite3.connect(db) as connection:
        flat = connection.execute("SELECT result_id, printed_value FROM results_flat ORDER BY result_id").fetchall()
        every = dict(connection.execute("SELECT result_id, status FROM results_all").fetchall())
        status = connection.execute("SELECT status, superseded_by, correction_id FROM record_status "
                                    "WHERE record_id = ?", (RESULT_33,)).fetchone()
        retraction = connection.execute("SELECT status, retraction_id FROM record_status WHERE record_id = ?",
                                        (RESULT_11,)).fetchone()
        chain = connection.execute("SELECT supersedes, replacement, reason FROM correction").fetchall()
    assert flat == [(NEW_33, "33.89")]
    assert every == {RESULT_33: "superseded", RESULT_11: "retracted", NEW_33: "current"}
    assert status == ("superseded", NEW_33, CORRECTION_33)
    assert retraction[0] == "retracted" and retraction[1].startswith(f"saadat-fellay-{TODAY}-retraction-")
    assert chain == [(RESULT_33, NEW_33, "the page prints 33.89")]


def test_a_chain_of_versions_reads_oldest_first(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    assert correct(cli, records_dir, RESULT_33, "33.89").exit_code == 0
    again = correct(cli, records_dir, NEW_33, "33.90")
    assert again.exit_code == 0, again.output
    registry, report = validate(records_dir)
    assert report.valid
    chain = versions(registry, RESULT_33)
    assert [v.record.printed_value for v in chain] == ["33.88", "33.89", "33.90"]
    assert [v.status for v in chain] == [Status.SUPERSEDED, Status.SUPERSEDED, Status.CURRENT]
    assert versions(registry, chain[-1].record.id) == chain, "any version gives the whole chain"
    assert [row.changed for row in history_rows(registry, chain[1].record.id)][1:] == [
        "printed_value: 33.88 -> 33.89; numeric_value: 33.88 -> 33.89",
        "printed_value: 33.89 -> 33.90; numeric_value: 33.89 -> 33.90"]


def test_only_the_current_record_is_corrected_or_retracted(cli, corrected: Path) -> None:  # type: ignore[no-untyped-def]
    again = correct(cli, corrected, RESULT_33, "33.87")
    assert again.exit_code == 1 and f"is superseded: its current version is '{NEW_33}'" in again.output
    retract = cli("retract", RESULT_33, "--reason", "x", "--curator", "x", "--records", corrected)
    assert retract.exit_code == 1 and "only a current record is retracted" in retract.output
    withdrawn = correct(cli, corrected, RESULT_11, "11.48")
    assert withdrawn.exit_code == 1 and "is retracted: no version of it is current" in withdrawn.output
    same = correct(cli, corrected, NEW_33, "33.89")
    assert same.exit_code == 1 and "a correction must change a value" in same.output
    ours = cli("retract", "saadat-fellay-20261129-reproduction-nt-2-5b-training-peak-memory-flashattention-"
               "checkpointing-estimated-lora-pure-bf16-fused-tok-4a39e1", "--reason", "x", "--curator", "x",
               "--records", corrected)
    assert ours.exit_code == 1 and "not read off a source" in ours.output


def test_a_review_of_its_own_makes_the_replacement_source_checked(cli, corrected: Path) -> None:  # type: ignore[no-untyped-def]
    review = cli("new", "review", "--subjects", NEW_33, "--status", "source-checked", "--reviewer", "A. Reviewer",
                 "--reviewed-at", "now", "--artifact-sha256", SHA, "--retrieval-url",
                 "https://openreview.net/pdf?id=NUleWh1GFx", "--methods", "human-source-review", "--records",
                 corrected, "--no-prompt")
    assert review.exit_code == 0, review.output
    registry, report = validate(corrected)
    assert report.valid and not [i for i in report.warnings if i.code == "correction-unreviewed"]
    assert "source checked" in cli("show", NEW_33, "--records", corrected).output.split("Methods")[0]
    assert registry.records[NEW_33].source == SOURCE


@pytest.mark.postgres
def test_postgresql_shows_the_same_current_results_and_history(cli, corrected: Path, request) -> None:  # type: ignore[no-untyped-def]
    from tests.test_db_postgres import pg

    url = request.getfixturevalue("pg_url")  # the server fixture of tests/test_db_postgres.py

    built = cli("db", "build", "--records", corrected, "--db", url)
    assert built.exit_code == 0, built.output
    assert pg(url, "SELECT result_id FROM results_flat") == [(NEW_33,)]
    assert sorted(pg(url, "SELECT result_id, status FROM results_all")) == sorted(
        [(RESULT_33, "superseded"), (RESULT_11, "retracted"), (NEW_33, "current")])
    assert pg(url, f"SELECT superseded_by, correction_id FROM record_status WHERE record_id = '{RESULT_33}'") == [
        (NEW_33, CORRECTION_33)]


def test_two_writers_that_loaded_the_same_registry_cannot_leave_it_invalid(cli, records_dir: Path,  # type: ignore[no-untyped-def]
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A correction and a retraction of one record, both drafted from one load: the second is checked again under
    the batch lock, sees the first, and writes nothing."""
    stale, _ = validate(records_dir)
    monkeypatch.setattr("registry.cli.curate.load_for_writing", lambda records: stale)
    assert correct(cli, records_dir, RESULT_33, "33.89").exit_code == 0
    files = sorted(p.relative_to(records_dir) for p in records_dir.rglob("*.yaml"))
    late = cli("retract", RESULT_33, "--reason", "a duplicate", "--curator", "B. Curator", "--records", records_dir)
    assert late.exit_code == 1, late.output
    assert "the retraction would make the registry invalid, so nothing was written" in " ".join(late.output.split())
    assert "retraction-conflict" in late.output and f"retract its current version '{NEW_33}' instead" in \
        " ".join(late.output.split())
    assert sorted(p.relative_to(records_dir) for p in records_dir.rglob("*.yaml")) == files
    _, report = validate(records_dir)
    assert report.valid, [(i.code, i.message) for i in report.errors]


def test_the_replacement_keeps_the_derivation_and_comments_of_the_record_it_replaces(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    registry, _ = validate(records_dir)
    old = registry.records[RESULT_33]
    assert correct(cli, records_dir, RESULT_33, "33.89").exit_code == 0
    new = validate(records_dir)[0].records[NEW_33]
    assert new.derivation == (f"Replaces {RESULT_33} (correction {CORRECTION_33}); the id is the superseded "
                              f"record's, with the correction's date. The superseded record's derivation: "
                              f"{old.derivation}")
    assert "carried over from the sibling's page" in new.derivation
    text = (records_dir / "result" / f"{NEW_33}.yaml").read_text(encoding="utf-8")
    assert text.startswith("# From the superseded record: Shown on seed page 000 (its configuration's page)")
    assert "# From the superseded record: Further assertions for 'registry review'" in text


def test_a_correction_with_an_unknown_or_unreadable_value_says_which(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    typo = cli("correct", RESULT_33, "--set", "printd_value=33.8", "--reason", "r", "--curator", "c", "--records",
               records_dir)
    assert typo.exit_code == 1
    assert "--set printd_value=...: unknown field 'printd_value' on a result; did you mean 'printed_value'?" in \
        typo.output
    assert "Error: the corrected result is refused (1 problem(s) above); nothing was written" in typo.output
    assert "Hint: fix the --set values named" in typo.output and "not complete" not in typo.output
    unread = correct(cli, records_dir, RESULT_33, "abc")
    assert unread.exit_code == 1
    assert "error value-mismatch [printed_value]" in unread.output and "'abc' is not a number" in unread.output
    assert "invalid:" not in unread.output, "the registry is valid: only the refused records have problems"
    assert "Error: the correction would make the registry invalid, so nothing was written" in unread.output


def test_a_retracted_replacement_is_not_said_to_await_a_review(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    assert correct(cli, records_dir, RESULT_33, "33.89").exit_code == 0
    assert [i.code for i in validate(records_dir)[1].warnings if i.record_id == CORRECTION_33] == [
        "correction-unreviewed"]
    retracted = cli("retract", NEW_33, "--reason", "a test: the corrected value was wrong too", "--curator",
                    "A. Curator", "--records", records_dir)
    assert retracted.exit_code == 0, retracted.output
    assert "correction-unreviewed" not in retracted.output and "until a review checks it" not in retracted.output
    _, report = validate(records_dir)
    assert report.valid and not [i for i in report.warnings if i.code == "correction-unreviewed"]


def test_the_help_example_corrects_to_the_printed_value(cli) -> None:  # type: ignore[no-untyped-def]
    text = " ".join(cli("correct", "--help").output.split())
    assert "(printed_value=0.681, source_locator.page=6)" in text and "0.618" not in text
