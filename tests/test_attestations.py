"""Attestations: a person's statement that confirms, disputes or corrects a value, filed, validated and shown.

tests/data/attestations is laid over the fixture registry: an author confirms the promoter accuracy, a reader
disputes HyenaDNA's latency (believing 9.1 ms), and an author's erratum corrects NT 500M's latency through a
correction record. A dispute's value is shown beside the value and never used as it.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from registry.models import Attestation, Result
from registry.status.standing import Fact, standing_of
from registry.store.loader import Registry
from registry.validate.runner import validate
from tests.conftest import DATA

OVERLAY = DATA / "attestations"
R = "fixture-genomic-20261201-result-"
CONFIRMED, DISPUTED, CORRECTED = R + "s5-promoter-accuracy", R + "t3-hyenadna-latency", R + "t3-nt-500m-latency"
ERRATUM = "fixture-genomic-20261205-result-t3-nt-500m-latency-erratum"
A = "fixture-genomic-20261205-attestation-"


def attested(root: Path) -> Path:
    records = root / "records"
    shutil.copytree(DATA / "fixture-registry", records)
    for path in OVERLAY.rglob("*.yaml"):
        (records / path.relative_to(OVERLAY)).parent.mkdir(exist_ok=True)
        shutil.copyfile(path, records / path.relative_to(OVERLAY))
    return records


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return attested(tmp_path_factory.mktemp("attested"))


@pytest.fixture(scope="module")
def registry(records: Path) -> Registry:
    loaded, report = validate(records)
    assert report.valid and not report.warnings, [(i.code, i.message) for i in report.issues]
    return loaded


def test_each_stance_reads_as_what_it_says(registry: Registry) -> None:
    assert standing_of(registry, registry.records[CONFIRMED]).facts == [Fact.TRANSCRIBED, Fact.CONFIRMED_BY_AUTHOR]
    assert standing_of(registry, registry.records[DISPUTED]).facts == [Fact.TRANSCRIBED, Fact.DISPUTED]
    assert standing_of(registry, registry.records[CORRECTED]).facts == [Fact.TRANSCRIBED, Fact.CORRECTED]
    words = standing_of(registry, registry.records[DISPUTED]).summary
    assert "disputed by a reader (B. Fixture-Reader, 2026-12-05, message-id <dispute-1@fixture.example>), who " \
           "believes 9.1" in words
    corrected = standing_of(registry, registry.records[CORRECTED]).summary
    assert f"superseded by {ERRATUM}" in corrected and "erratum Erratum to the fixture paper" in corrected


def test_show_puts_the_statements_beside_the_value_and_never_uses_a_disputed_one(cli, records: Path) -> None:  # type: ignore[no-untyped-def]
    shown = cli("show", DISPUTED, "--records", records)
    assert shown.exit_code == 0, shown.output
    out = " ".join(shown.output.split())
    assert "2.5 ms" in out and "(display value 2.5; not reviewed)" in out
    assert "who believes 9.1" in out and "it is never used as the value" in out
    assert "2.5 ms · Latency" in out and "9.1 ms ·" not in out and "display value 9.1" not in out
    confirmed = " ".join(cli("show", CONFIRMED, "--records", records).output.split())
    assert "confirmed by an author (A. Fixture-Author, 2026-12-05, link https://github.com/example/" in confirmed
    assert "held-out promoter test split" in confirmed


def test_sql_carries_them_beside_the_value(cli, records: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    database = tmp_path / "attested.db"
    assert cli("db", "build", "--records", records, "--out", database).exit_code == 0
    with sqlite3.connect(database) as connection:
        row = connection.execute("SELECT numeric_value, disputed_by, standing FROM results_flat WHERE result_id = ?",
                                 (DISPUTED,)).fetchone()
        confirmed = connection.execute("SELECT confirmed_by, standing FROM results_flat WHERE result_id = ?",
                                       (CONFIRMED,)).fetchone()
        stances = dict(connection.execute("SELECT subject, stance FROM attestation").fetchall())
        corrected = connection.execute("SELECT standing FROM results_all WHERE result_id = ?", (CORRECTED,)).fetchone()
    assert row == ("2.5", "B. Fixture-Reader (reader): 9.1", "transcribed, disputed")
    assert confirmed == ("A. Fixture-Author (author)", "transcribed, confirmed-by-author")
    assert stances == {CONFIRMED: "confirms", DISPUTED: "disputes", CORRECTED: "corrects"}
    assert corrected == ("transcribed, corrected",)


def test_the_leaderboard_marks_a_disputed_value_and_ranks_the_value_itself(cli, records: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    database = tmp_path / "board.db"
    assert cli("db", "build", "--records", records, "--out", database).exit_code == 0
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT result_id, printed_value, disputed_by FROM leaderboard").fetchall()
    marked = {result_id: (printed, disputed) for result_id, printed, disputed in rows}
    assert DISPUTED in marked, "the disputed value is still ranked, as printed"
    printed, disputed = marked[DISPUTED]
    assert printed == "2.5" and "B. Fixture-Reader" in (disputed or "") and "9.1" in (disputed or "")
    assert all(d is None for r, (_, d) in marked.items() if r != DISPUTED)  # rule off: no column, or every row


def test_registry_leaderboard_marks_the_disputed_value(cli, records: Path) -> None:  # type: ignore[no-untyped-def]
    from registry.comparability import place

    loaded, _ = validate(records)
    benchmark = place(loaded, loaded.records[DISPUTED]).facets.benchmark  # type: ignore[arg-type]
    shown = cli("leaderboard", benchmark, "--records", records)
    assert shown.exit_code == 0, shown.output
    lines = [line for line in shown.output.splitlines() if "2.5 ms" in line]
    assert lines and all("(disputed)" in line for line in lines), shown.output  # rule off: no mark


def test_exports_carry_them_and_score_the_value_not_the_dispute(cli, records: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "eee"
    assert cli("export", "--format", "every-eval-ever", "--records", records, "--out", out).exit_code == 0
    scores = [result for path in out.rglob("*.json") if path.name != "manifest.json"
              for result in json.loads(path.read_text(encoding="utf-8")).get("evaluation_results", [])]
    (latency,) = [s for s in scores if s["evaluation_result_id"] == DISPUTED]
    assert latency["score_details"]["score"] == 2.5
    assert "who believes 9.1" in latency["score_details"]["details"]["standing"]
    csv_out = tmp_path / "csv"
    assert cli("export", "--format", "csv", "--records", records, "--out", csv_out).exit_code == 0
    assert "B. Fixture-Reader (reader): 9.1" in (csv_out / "results_flat.csv").read_text(encoding="utf-8")


def test_registry_new_attestation_files_a_confirmation_a_dispute_and_a_correction(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    records = attested(tmp_path)
    for path in (records / "attestation").iterdir():
        path.unlink()  # filed again below, by the command
    common = ["--records", records, "--person", "A. Fixture-Author", "--stated-at", "2026-12-05T10:00:00Z",
              "--channel-kind", "link", "--channel-reference", "https://github.com/example/registry-fixture/issues/1"]
    filed = [
        cli("new", "attestation", *common, "--subject", CONFIRMED, "--relation", "author", "--stance", "confirms",
            "--meaning", "the held-out test split"),
        cli("new", "attestation", *common, "--subject", DISPUTED, "--relation", "reader", "--stance", "disputes",
            "--believed-value", "9.1", "--reason", "a rerun gives 9.1 ms per batch"),
        cli("new", "attestation", *common, "--subject", CORRECTED, "--relation", "author", "--stance", "corrects",
            "--erratum", "Erratum, Table 3", "--correction", "fixture-genomic-20261205-correction-t3-nt-500m-latency"),
    ]
    assert [r.exit_code for r in filed] == [0, 0, 0], [r.output for r in filed]
    registry, report = validate(records)
    assert report.valid, [i.message for i in report.errors]
    stances = {a.subject: a.stance.value for a in registry.of_kind(Attestation)}
    assert stances == {CONFIRMED: "confirms", DISPUTED: "disputes", CORRECTED: "corrects"}
    assert registry.get_as(DISPUTED, Result).printed_value == "2.5"


@pytest.mark.parametrize(("edits", "message"), [
    ([("stance: disputes", "stance: confirms")], "an attestation that confirms a value gives no believed_value, reason"),
    ([("reason: the reader", "note: the reader")], "an attestation that disputes a value gives believed_value, reason; "
                                                   "missing: reason"),
    ([("relation: reader", "relation: curator"), ("stance: disputes", "stance: corrects")],
     "an attestation that corrects a value gives erratum, correction; missing: erratum, correction"),
    ([("kind: message-id", "kind: link")], "a link reference is a URL ('https://...'), not '<dispute-1@fixture.example>'"),
    ([("relation: reader", "relation: reviewer")], "Input should be 'author', 'reader' or 'curator'"),
])
def test_a_bad_attestation_says_what_its_stance_needs(tmp_path: Path, edits: list[tuple[str, str]],
                                                      message: str) -> None:
    records = attested(tmp_path)
    path = records / "attestation" / f"{A}t3-hyenadna-latency-disputed.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    _, report = validate(records)
    assert any(message in issue.message and issue.location.startswith(str(path)) for issue in report.errors), \
        [(i.code, i.message) for i in report.errors]


def test_a_correction_by_a_reader_is_refused_they_dispute(tmp_path: Path) -> None:
    records = attested(tmp_path)
    path = records / "attestation" / f"{A}t3-nt-500m-latency-corrected.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("relation: author", "relation: reader"), encoding="utf-8")
    _, report = validate(records)
    assert any("a correction is an author's erratum" in i.message for i in report.errors)


def test_validate_checks_what_an_attestation_names(tmp_path: Path) -> None:
    records = attested(tmp_path)
    path = records / "attestation" / f"{A}s5-promoter-accuracy-confirmed.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("s5-promoter-accuracy\n", "s5-promoter-acuracy\n", 1),
                    encoding="utf-8")
    _, report = validate(records)
    assert [i.code for i in report.errors] == ["unresolved-reference"]
