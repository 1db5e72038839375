"""`registry db build`: tables mirror the records, views say what the records say, builds are atomic and repeatable."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import textwrap
import time
from decimal import Decimal
from pathlib import Path

import pytest

from registry.db import build as build_module
from registry.db import build_rows as rows_module
from registry.db.tables import mirror
from registry.db.views import NOT_REVIEWED, views
from registry.models import KIND_MODELS, Recipe, Reproduction, Result
from registry.models.records import ReviewStatus
from registry.models.reproduction import Comparison, FixedConditions, Knob, RunHardware, ratio
from registry.page import display
from registry.status import provenance
from registry.store.writer import write_record
from registry.units import gib
from registry.validate.runner import validate
from tests.conftest import CONFIG_33, RESULT_11, RESULT_33, ROOT, SOURCE, copy_of_records, invoke

RECIPE = "saadat-fellay-20261015-recipe-nt-2-5b-training-peak-memory-checkpointing"
REPRODUCTION = "saadat-fellay-20261015-reproduction-nt-2-5b-checkpointing-h200-full"


def build(cli, records: Path, out: Path):  # type: ignore[no-untyped-def]
    result = cli("db", "build", "--records", records, "--out", out)
    assert result.exit_code == 0, result.output
    return result


def query(path: Path, sql: str, *params: object) -> list[tuple]:  # type: ignore[type-arg]
    connection = sqlite3.connect(path)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


def content(path: Path) -> list[str]:
    connection = sqlite3.connect(path)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


@pytest.fixture
def built(cli, records_dir: Path, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    out = tmp_path / "registry.db"
    build(cli, records_dir, out)
    return out


@pytest.fixture(scope="module")
def built_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The bundled records copied and built once, for the tests that only read the database and the records:
    (database, records). A test that writes to either takes ``built`` (and ``records_dir``), its own."""
    root = tmp_path_factory.mktemp("built-once")
    records, out = copy_of_records(root / "records"), root / "registry.db"
    build(invoke, records, out)
    return out, records


def add_reproduction(records: Path, value: str = "30.12") -> Reproduction:
    """A recipe and one measured run of it for the 33.88 GB result, written as records would be."""
    recipe = Recipe(
        kind="recipe", id=RECIPE, result=RESULT_33, experiment="nt-training-memory",
        fixed=FixedConditions(model="nt-2-5b", stage="checkpointing", sequence_length=1000, batch_size=16,
                              data_seed=42, metric="peak-memory"),
        knobs=[Knob(name="update_mode", candidates=["full", "lora"], note="Not stated for this ablation."),
               Knob(name="lora_rank", candidates=[16, 8]), Knob(name="offload", candidates=[False, True])],
    )
    reproduced = Decimal(value)
    transcribed = Decimal("33.88")
    reproduction = Reproduction(
        kind="reproduction", id=REPRODUCTION, result=RESULT_33, recipe=RECIPE, method="measured", model="nt-2-5b",
        setting={"update_mode": "full", "lora_rank": 16, "offload": False}, outcome="ok",
        # A copy of the value, not the same object: yaml.dump would write a shared object as an alias.
        value_bytes=int(reproduced * 10**9), value=Decimal(value),
        value_gib=gib(int(reproduced * 10**9)), warmup_peak_bytes=29_000_000_000, attention_impl="flash-attn",
        tokens_per_sequence=1000, steps=3, warmup_steps=1, method_note="Peak of torch.cuda.max_memory_allocated.",
        breakdown_bytes={"parameters": 10_000_000_000, "optimizer": 15_000_000_000},
        comparison=Comparison(transcribed=transcribed, reproduced=reproduced, difference=reproduced - transcribed,
                              ratio=ratio(reproduced, transcribed)),
        hardware=RunHardware(kind="gpu", name="NVIDIA H200", memory_bytes=150_000_000_000, count=1),
        # A measured run names its CUDA (a check); a library with no version still maps to NULL.
        software={"python": "3.11.7", "torch": "2.13.0", "cuda": "13.0", "flash_attn": None}, git_commit="abcdef1",
        command="registry reproduce " + RECIPE, started_at=dt.datetime(2026, 11, 1, 10, 0, tzinfo=dt.UTC),
        duration_s=12.5,
    )
    write_record(records, recipe)
    write_record(records, reproduction)
    return reproduction


# -- the views' vocabulary ----------------------------------------------------------------


def test_every_review_status_has_a_precedence_and_a_label() -> None:
    assert set(provenance.STATUS_PRECEDENCE) == set(ReviewStatus) == set(provenance.STATUS_LABELS) - {None}


# -- the command ----------------------------------------------------------------------------


def test_build_reports_what_it_wrote(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = build(cli, records_dir, tmp_path / "out" / "registry.db")
    assert "Built" in result.output and "records as" in result.output
    assert (tmp_path / "out" / "registry.db").is_file()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["registry.db", "registry.metadata.json"], \
        "no temporary file is left behind"


def test_every_record_has_its_row(built_once: tuple[Path, Path]) -> None:
    built, records_dir = built_once
    registry, _ = validate(records_dir)
    assert query(built, "SELECT COUNT(*) FROM record") == [(len(registry.records),)]
    for kind, stored in mirror().kinds.items():
        expected = sorted(r.id for r in registry.records.values() if r.kind_token == kind)
        assert [r[0] for r in query(built, f"SELECT id FROM {stored.name} ORDER BY id")] == expected
    paths = dict(query(built, "SELECT id, path FROM record"))
    assert paths[RESULT_33] == f"result/{RESULT_33}.yaml"


def test_numbers_keep_their_exactness(built_once: tuple[Path, Path]) -> None:
    built, _ = built_once
    rows_ = query(built, "SELECT printed_value, numeric_value, typeof(numeric_value), numeric_value_float "
                         "FROM result WHERE id = ?", RESULT_11)
    assert rows_ == [("11.49", "11.49", "text", 11.49)]


def test_lists_keep_their_order(built_once: tuple[Path, Path]) -> None:
    built, records_dir = built_once
    assert query(built, "SELECT author FROM source_author WHERE source_id = ? ORDER BY position", SOURCE) == [
        ("Saadat",), ("Fellay",)]
    assert query(built, "SELECT area FROM config_area WHERE config_id = ?", CONFIG_33) == [("dna-genomes",)]
    review = "saadat-fellay-20261015-review-result-nt-2-5b-training-peak-memory-flashattention-checkpointing-zero2"
    methods = [m for (m,) in query(built, "SELECT method FROM review_method WHERE review_id = ? ORDER BY position",
                                   review)]
    registry, _ = validate(records_dir)
    assert methods == [m.value for m in registry.records[review].methods]  # type: ignore[attr-defined]
    members = query(built, "SELECT COUNT(*) FROM release_member")[0][0]
    assert members == sum(len(r.members) for r in registry.records.values() if r.kind_token == "release")  # type: ignore[attr-defined]


def test_timestamps_are_stored_in_utc(built_once: tuple[Path, Path]) -> None:
    built, _ = built_once
    stamps = {s for (s,) in query(built, "SELECT reviewed_at FROM review WHERE reviewed_at IS NOT NULL")}
    assert stamps == {"2026-10-15 22:00:00.000000"}


def test_foreign_keys_hold_for_every_reference(built_once: tuple[Path, Path]) -> None:
    built, _ = built_once
    assert query(built, "PRAGMA foreign_key_check") == []
    fks = query(built, "SELECT m.name, p.\"from\", p.\"table\" FROM sqlite_master m, pragma_foreign_key_list(m.name) p "
                       "WHERE m.type = 'table'")
    assert ("result", "evaluation", "evaluation") in fks
    assert ("evaluation", "configuration", "config") in fks
    assert ("review_subject", "subject", "record") in fks
    assert ("evidence", "review", "review") in fks
    assert ("reproduction", "recipe", "recipe") in fks
    children = {(kind, path[0]): child for kind, stored in mirror().kinds.items() for path, child in stored.children}
    for kind in KIND_MODELS:
        for name, info in KIND_MODELS[kind].model_fields.items():
            extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
            if not extra.get("x-references"):
                continue
            child = children.get((kind, name))
            table, column = (child.name, child.columns[-1]) if child else (kind, name)
            assert [fk for fk in fks if fk[:2] == (table, column)], f"{kind}.{name} has no foreign key"


# -- the views ------------------------------------------------------------------------------


def test_results_flat_says_what_the_records_say(built_once: tuple[Path, Path]) -> None:
    built, records_dir = built_once
    registry, _ = validate(records_dir)
    flat = {row[0]: row for row in query(
        built,
        "SELECT result_id, printed_value, numeric_value, unit, metric, review_status, evaluation_id, "
        "configuration_id, model_family_name, protocol_id, dataset_id, source_id, uncertainty_printed FROM results_flat")}
    assert set(flat) == {RESULT_33, RESULT_11}
    assert flat[RESULT_33][1:6] == ("33.88", "33.88", "gigabyte", "peak-memory", "source-checked")
    assert flat[RESULT_11][1:6] == ("11.49", "11.49", "gigabyte", "peak-memory", "source-checked")
    for result_id, row in flat.items():
        result = registry.get_as(result_id, Result)
        evaluation, configuration, protocol, dataset = display.result_context(registry, result)
        family = registry.records[configuration.model_family]
        assert row[6:12] == (evaluation.id, configuration.id, family.name, protocol.id,  # type: ignore[attr-defined]
                             dataset.id, result.source)
        assert row[12] is None, "the source did not report an uncertainty"


def test_review_status_follows_the_pages_rule(built_once: tuple[Path, Path]) -> None:
    built, records_dir = built_once
    registry, _ = validate(records_dir)
    statuses = dict(query(built, "SELECT record_id, review_status FROM record_review_status"))
    assert set(statuses) == set(registry.records)
    for record_id, status in statuses.items():
        expected = provenance.review_status(registry, record_id)
        assert status == (expected.value if expected else NOT_REVIEWED), record_id


def test_a_check_without_artifact_hash_reads_apart_in_sql_as_on_the_pages(built_once: tuple[Path, Path]) -> None:
    built, records_dir = built_once
    registry, _ = validate(records_dir)
    pinned = dict(query(built, "SELECT result_id, review_artifact_pinned FROM results_flat"))
    assert pinned == {RESULT_33: 0, RESULT_11: 1}
    for result_id, flag in pinned.items():
        assert (provenance.UNVERIFIABLE_NOTE in provenance.status_label(registry, result_id)) == (flag == 0)


def test_the_review_label_reads_as_the_pages_word_it(built_once: tuple[Path, Path]) -> None:
    """A check nobody can repeat never reads 'source-checked' like one they can (finding P7)."""
    built, records_dir = built_once
    registry, _ = validate(records_dir)
    labels = dict(query(built, "SELECT record_id, review_label FROM record_review_status"))
    assert labels == {record_id: provenance.status_label(registry, record_id) for record_id in registry.records}
    flat = dict(query(built, "SELECT result_id, review_label FROM results_flat"))
    assert flat == {RESULT_33: "source checked (no artifact hash)", RESULT_11: "source checked"}


def test_missing_metadata_view_lists_every_entry(built_once: tuple[Path, Path]) -> None:
    built, records_dir = built_once
    registry, _ = validate(records_dir)
    expected = {(r.id, r.kind_token, m.field, m.reason.value, m.note)
                for r in registry.records.values() for m in r.missing_metadata}
    got = set(query(built, "SELECT record_id, kind, field, reason, note FROM missing_metadata_all"))
    assert got == expected
    unreported = query(built, "SELECT record_id FROM missing_metadata_all WHERE kind = 'result' "
                              "AND field = 'uncertainty' AND reason = 'unreported' ORDER BY record_id")
    assert unreported == [(RESULT_33,), (RESULT_11,)]
    unknown_checkpoints = query(built, "SELECT COUNT(*) FROM missing_metadata_all WHERE kind = 'config' "
                                       "AND field = 'checkpoint'")
    assert unknown_checkpoints == [(2,)]


def test_reproductions_view_has_a_row_per_reproduction(built_once: tuple[Path, Path]) -> None:
    built, records_dir = built_once
    registry, _ = validate(records_dir)
    expected = sorted((r.id,) for r in registry.of_kind(Reproduction))
    assert query(built, "SELECT reproduction_id FROM reproductions_side_by_side ORDER BY reproduction_id") == expected


def test_reproductions_sit_beside_their_results(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    reproduction = add_reproduction(records_dir)
    out = tmp_path / "registry.db"
    build(cli, records_dir, out)
    [row] = query(out, "SELECT reproduction_id, result_id, transcribed_printed_value, transcribed_value, "
                       "our_value, unit, ratio, difference, method, hardware_name FROM reproductions_side_by_side "
                       "WHERE reproduction_id = ?", REPRODUCTION)
    assert row[:6] == (REPRODUCTION, RESULT_33, "33.88", "33.88", "30.12", "gigabyte")
    assert row[6] == str(reproduction.comparison.ratio)  # exact, as filed  # type: ignore[union-attr]
    assert row[7] == "-3.76"
    assert float(row[6]) == pytest.approx(30.12 / 33.88, abs=1e-6)
    assert row[8:] == ("measured", "NVIDIA H200")
    setting = query(out, "SELECT knob, value, value_type FROM reproduction_setting WHERE reproduction_id = ? "
                         "ORDER BY knob", REPRODUCTION)
    assert setting == [("lora_rank", "16", "integer"), ("offload", "false", "boolean"), ("update_mode", "full", "string")]
    candidates = query(out, "SELECT k.name, c.value, c.value_type FROM recipe_knob k JOIN recipe_knob_candidate c "
                            "ON c.recipe_id = k.recipe_id AND c.knob_position = k.position "
                            "WHERE k.recipe_id = ? ORDER BY k.position, c.position", RECIPE)
    assert candidates[:2] == [("update_mode", "full", "string"), ("update_mode", "lora", "string")]
    assert ("offload", "false", "boolean") in candidates
    assert query(out, "SELECT name, version FROM reproduction_software WHERE reproduction_id = ? ORDER BY name",
                 REPRODUCTION) == [
        ("cuda", "13.0"), ("flash_attn", None), ("python", "3.11.7"), ("torch", "2.13.0")]
    assert query(out, "SELECT comparison_ratio, hardware_memory_bytes, value_bytes FROM reproduction WHERE id = ?",
                 REPRODUCTION) == [
        (str(reproduction.comparison.ratio), 150_000_000_000, 30_120_000_000)]  # type: ignore[union-attr]
    assert query(out, "SELECT started_at FROM reproduction WHERE id = ?", REPRODUCTION) == [
        ("2026-11-01 10:00:00.000000",)]


def test_every_view_is_documented_and_runs(built_once: tuple[Path, Path]) -> None:
    built, _ = built_once
    for name, (description, _) in views().items():
        assert description
        query(built, f"SELECT * FROM {name}")


# -- validation first, atomic, repeatable ---------------------------------------------------


def test_an_invalid_registry_is_not_built(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result_file = records_dir / "result" / f"{RESULT_33}.yaml"
    result_file.write_text(result_file.read_text().replace("numeric_value: '33.88'", "numeric_value: '33.89'"))
    out = tmp_path / "registry.db"
    result = cli("db", "build", "--records", records_dir, "--out", out)
    assert result.exit_code == 1
    assert "value-mismatch" in result.output and "the registry is not valid" in result.output
    assert "Traceback" not in result.output
    assert not out.exists()
    assert list(tmp_path.glob(".registry.db.*")) == []


def test_an_invalid_registry_leaves_the_last_good_database(cli, built: Path, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    before = content(built)
    (records_dir / "family" / "broken.yaml").write_text("kind: family\nid: [\n")
    result = cli("db", "build", "--records", records_dir, "--out", built)
    assert result.exit_code == 1 and "yaml-syntax" in result.output
    assert content(built) == before


def test_two_builds_from_the_same_records_have_the_same_content(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    add_reproduction(records_dir)
    first, second = tmp_path / "a.db", tmp_path / "b.db"
    build(cli, records_dir, first)
    build(cli, records_dir, second)
    assert content(first) == content(second)
    assert first.read_bytes() == second.read_bytes()


def test_a_build_that_fails_part_way_leaves_the_previous_database(  # type: ignore[no-untyped-def]
    cli, built: Path, records_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = content(built)
    add_reproduction(records_dir)
    calls = []
    real_insert = build_module.insert_rows

    def failing_insert(connection, table, rows_):  # type: ignore[no-untyped-def]
        calls.append(table.name)
        if len(calls) == 5:
            raise OSError(28, "No space left on device")
        real_insert(connection, table, rows_)

    monkeypatch.setattr(build_module, "insert_rows", failing_insert)
    result = cli("db", "build", "--records", records_dir, "--out", built)
    assert result.exit_code == 1
    assert "No space left on device" in result.output and "the previous database, if any, is untouched" in result.output
    assert "Traceback" not in result.output
    assert content(built) == before
    assert sorted(p.name for p in built.parent.iterdir() if p.name.startswith(".registry.db")) == []


@pytest.mark.sandbox
def test_a_build_killed_part_way_leaves_the_previous_database(built: Path, records_dir: Path) -> None:
    before = content(built)
    add_reproduction(records_dir)
    script = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from registry.validate.runner import validate
        from registry.db import build
        real = build.insert_rows
        calls = []
        def insert_then_die(connection, table, rows):
            real(connection, table, rows)
            calls.append(1)
            if len(calls) == 3:
                os.kill(os.getpid(), signal.SIGKILL)
        build.insert_rows = insert_then_die
        registry, _ = validate({str(records_dir)!r})
        build.build_sqlite(registry, Path({str(built)!r}))
    """)
    process = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert process.returncode == -9, process.stderr
    assert content(built) == before
    leftovers = [p for p in built.parent.iterdir() if p.name.startswith(".registry.db.")]
    assert all(p.name.endswith(".tmp") for p in leftovers), "a killed build leaves at most a hidden temporary file"


def test_out_must_be_a_file(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("db", "build", "--records", records_dir, "--out", tmp_path)
    assert result.exit_code != 0
    assert "Traceback" not in result.output


def test_unwritable_folder_gets_a_message(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    blocked = tmp_path / "file"
    blocked.write_text("")
    result = cli("db", "build", "--records", records_dir, "--out", blocked / "registry.db")
    assert result.exit_code == 1
    assert "cannot write the database" in result.output and "--out" in result.output


# -- never replacing a file that is not a registry database -----------------------------------


@pytest.mark.parametrize("name", ["README.md", "registry.db", "notes.sqlite"])
def test_out_leaves_a_file_it_did_not_build_untouched(cli, records_dir: Path, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    precious = tmp_path / name
    precious.write_bytes(b"# Project\n\nHand-written notes, not a database.\n\x00\xff")
    before = precious.read_bytes(), precious.stat().st_mtime_ns
    result = cli("db", "build", "--records", records_dir, "--out", precious)
    assert result.exit_code == 1, result.output
    assert "already exists and is not a database that 'registry db build' wrote" in result.output
    assert "it was left untouched" in result.output and "--out" in result.output
    assert "Traceback" not in result.output
    assert (precious.read_bytes(), precious.stat().st_mtime_ns) == before, "byte for byte, time included"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], "no temporary file left"


def test_out_leaves_another_sqlite_database_untouched(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    other = tmp_path / "app.db"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE users (name TEXT)")
    connection.execute("INSERT INTO users VALUES ('ada')")
    connection.commit()
    connection.close()
    before = other.read_bytes()
    result = cli("db", "build", "--records", records_dir, "--out", other)
    assert result.exit_code == 1 and "is not a database that 'registry db build' wrote" in result.output
    assert other.read_bytes() == before


def test_out_replaces_a_previous_registry_database(cli, built: Path, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    connection = sqlite3.connect(built)
    connection.execute("INSERT INTO registry_meta VALUES ('left-over', 'from the previous build')")
    connection.commit()
    connection.close()
    build(cli, records_dir, built)
    assert query(built, "SELECT COUNT(*) FROM registry_meta WHERE key = 'left-over'") == [(0,)], "replaced"
    assert query(built, "SELECT COUNT(*) FROM results_flat") == [(2,)]


def test_out_replaces_an_empty_file(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """An empty file holds nothing to lose (touch registry.db, then build)."""
    empty = tmp_path / "registry.db"
    empty.touch()
    build(cli, records_dir, empty)
    assert query(empty, "SELECT COUNT(*) FROM results_flat") == [(2,)]


def test_the_file_time_is_when_the_records_were_read(  # type: ignore[no-untyped-def]
    cli, records_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build time is kept as the file's modification time (not inside: builds stay byte-identical),
    and it is when reading the records began, so that an edit made during the build counts as later."""
    import registry.validate.runner

    real_validate = registry.validate.runner.validate
    times: dict[str, int] = {}

    def timed_validate(records: Path, **options):  # type: ignore[no-untyped-def]
        times["read"] = time.time_ns()
        found = real_validate(records, **options)
        times["validated"] = time.time_ns()
        return found

    monkeypatch.setattr(registry.validate.runner, "validate", timed_validate)
    out = tmp_path / "registry.db"
    before = time.time_ns()
    build(cli, records_dir, out)
    assert before <= out.stat().st_mtime_ns <= times["read"] < times["validated"]


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("registry.db", "is not a database URL"),
        ("mysql://user@localhost/registry", "only PostgreSQL servers are supported"),
        ("postgresql+nosuchdriver://u@localhost/x", "driver"),
        ("postgresql+psycopg://registry:wrong@127.0.0.1:1/none", "cannot use the database at"),
    ],
)
def test_bad_server_urls_get_a_message(cli, records_dir: Path, url: str, fragment: str) -> None:  # type: ignore[no-untyped-def]
    result = cli("db", "build", "--records", records_dir, "--db", url)
    assert result.exit_code == 1, result.output
    assert fragment in result.output
    assert "Traceback" not in result.output
    assert ":wrong@" not in result.output, "passwords are never printed"


@pytest.mark.parametrize(
    ("url", "hint"),
    [
        # SQLAlchemy's rule: three slashes, a path relative to the current folder; four, an absolute one.
        ("sqlite:///tmp/y.db", "--out tmp/y.db (relative to the current folder, as this URL says), or --out /tmp/y.db"),
        ("sqlite:////srv/y.db", "--out /srv/y.db"),
        ("sqlite+pysqlite:///y.db?timeout=5", "--out y.db (relative"),
        ("sqlite://", "--out FILE"),
    ],
)
def test_a_sqlite_url_is_refused_and_points_at_out(  # type: ignore[no-untyped-def]
    cli, records_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str, hint: str
) -> None:
    """--db is for a server; a sqlite:/// URL, easily read as absolute when it is not, is not guessed at."""
    monkeypatch.chdir(tmp_path)
    result = cli("db", "build", "--records", records_dir, "--db", url)
    assert result.exit_code == 1, result.output
    assert "names a SQLite file, but --db is for a PostgreSQL server" in result.output
    assert hint in result.output and "Traceback" not in result.output
    assert not (tmp_path / "tmp").exists() and not Path("/srv/y.db").exists(), "nothing is written"


@pytest.mark.parametrize("url", ["postgresql+psycopg://u:p@127.0.0.1:5432/db", "sqlite:///y.db"])
def test_a_database_url_given_as_out_is_refused(  # type: ignore[no-untyped-def]
    cli, records_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    """--out takes a file: a URL there wrote a SQLite file into a folder named 'postgresql+psycopg:' and said
    'Built postgresql+psycopg:/u:p@...', as if the server had been built."""
    monkeypatch.chdir(tmp_path)
    result = cli("db", "build", "--records", records_dir, "--out", url)
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert "is a database URL, but --out is the SQLite file to write" in text, text
    assert ("--db postgresql+psycopg://u:***@127.0.0.1:5432/db" if url.startswith("postgresql") else
            "write a SQLite file with --out FILE") in text
    assert ":p@" not in text, "passwords are never printed"
    assert [p.name for p in tmp_path.iterdir()] == ["records"], "nothing is written"


def test_help_and_validate_do_not_import_the_database_layer() -> None:
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "import registry.cli\n"
        "assert 'sqlalchemy' not in sys.modules and 'sqlmodel' not in sys.modules, 'import registry.cli'\n"
        "runner = CliRunner()\n"
        "assert runner.invoke(registry.cli.app, ['--help']).exit_code == 0\n"
        "assert runner.invoke(registry.cli.app, ['validate', '--records', 'records']).exit_code == 0\n"
        "loaded = [m for m in ('sqlalchemy', 'sqlmodel') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    process = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert process.returncode == 0, process.stderr


def test_the_built_file_opens_in_plain_sqlite(built_once: tuple[Path, Path], tmp_path: Path) -> None:
    built, _ = built_once
    copy = tmp_path / "copy.db"
    shutil.copy(built, copy)
    os.chmod(copy, 0o444)
    assert query(copy, "SELECT value FROM registry_meta WHERE key = 'schema_version'") == [("1",)]
    assert query(copy, "PRAGMA integrity_check") == [("ok",)]


def test_the_database_gets_the_umask_permissions(records_dir: Path, tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        out = tmp_path / "shared.db"
        build_module.build_sqlite(validate(records_dir)[0], out)
        assert stat.S_IMODE(out.stat().st_mode) == 0o644  # readable by the team, like any new file
    finally:
        os.umask(old)


# -- rows kept in the parse cache ---------------------------------------------------------------


@pytest.fixture
def converted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Ids of the records a build turned into rows itself (not taken from the cache), with a cache of its own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.delenv("REGISTRY_NO_CACHE", raising=False)
    ids: list[str] = []
    real = rows_module.record_rows

    def counting(record, path, tables=None):  # type: ignore[no-untyped-def]
        ids.append(record.id)
        return real(record, path, tables)

    monkeypatch.setattr(rows_module, "record_rows", counting)
    return ids


def build_without_cache(cli, records: Path, out: Path) -> bytes:  # type: ignore[no-untyped-def]
    result = cli("db", "build", "--records", records, "--out", out, "--no-cache")
    assert result.exit_code == 0, result.output
    return out.read_bytes()


def test_a_build_from_stored_rows_is_the_same_file(cli, records_dir: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                   converted: list[str]) -> None:
    add_reproduction(records_dir)
    expected = build_without_cache(cli, records_dir, tmp_path / "plain.db")
    records = len(converted)
    assert records == len(validate(records_dir)[0].records)
    build(cli, records_dir, tmp_path / "cold.db")  # converts every record, and keeps their rows
    assert len(converted) == 2 * records
    build(cli, records_dir, tmp_path / "warm.db")  # converts none
    assert len(converted) == 2 * records
    assert (tmp_path / "cold.db").read_bytes() == expected
    assert (tmp_path / "warm.db").read_bytes() == expected


def test_a_changed_record_is_converted_again(cli, records_dir: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                             converted: list[str]) -> None:
    add_reproduction(records_dir)
    build(cli, records_dir, tmp_path / "first.db")
    converted.clear()
    run = records_dir / "reproduction" / f"{REPRODUCTION}.yaml"
    text = run.read_text()
    assert "duration_s: 12.5\n" in text
    run.write_text(text.replace("duration_s: 12.5\n", "duration_s: 13.5\n"))
    build(cli, records_dir, tmp_path / "second.db")
    assert converted == [REPRODUCTION]
    [store] = (tmp_path / "xdg-cache" / "registry").glob("records-*.sqlite3")
    with sqlite3.connect(store) as connection:  # the old text's rows are forgotten
        assert connection.execute("SELECT count(*) FROM derived").fetchone() == \
            connection.execute("SELECT count(*) FROM file").fetchone()
    assert query(tmp_path / "second.db", "SELECT duration_s FROM reproduction WHERE id = ?", REPRODUCTION) == [(13.5,)]
    assert (tmp_path / "second.db").read_bytes() == build_without_cache(cli, records_dir, tmp_path / "plain.db")


def test_damaged_stored_rows_are_never_used(cli, records_dir: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                            converted: list[str]) -> None:
    build(cli, records_dir, tmp_path / "first.db")
    [store] = (tmp_path / "xdg-cache" / "registry").glob("records-*.sqlite3")
    with sqlite3.connect(store) as connection:
        assert connection.execute("SELECT count(*) FROM derived").fetchone()[0] == len(converted)
        connection.execute("UPDATE derived SET data = substr(data, 1, 20) || X'00' || substr(data, 22)")
    converted.clear()
    build(cli, records_dir, tmp_path / "second.db")
    assert len(converted) == len(validate(records_dir)[0].records)  # every record converted again
    assert (tmp_path / "second.db").read_bytes() == build_without_cache(cli, records_dir, tmp_path / "plain.db")
    build(cli, records_dir, tmp_path / "third.db")  # the store was set aside and starts again
    assert (tmp_path / "third.db").read_bytes() == (tmp_path / "second.db").read_bytes()


def test_rows_of_another_version_of_the_code_are_not_used(cli, records_dir: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                          converted: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    build(cli, records_dir, tmp_path / "first.db")
    converted.clear()
    monkeypatch.setattr(rows_module, "rows_version", lambda: "another-version")
    build(cli, records_dir, tmp_path / "second.db")
    assert len(converted) == len(validate(records_dir)[0].records)
    [store] = (tmp_path / "xdg-cache" / "registry").glob("records-*.sqlite3")
    with sqlite3.connect(store) as connection:  # only the latest version's rows are kept
        assert connection.execute("SELECT DISTINCT version FROM derived").fetchall() == [("another-version",)]


def test_the_build_help_names_every_view(cli) -> None:  # type: ignore[no-untyped-def]
    """The help's list of views comes from the one declaration of them (finding P1: it once named four of six)."""
    from registry.db.catalog import VIEWS

    assert list(VIEWS) == list(views())
    text = " ".join(cli("db", "build", "--help").output.split())
    assert ", ".join(VIEWS) in text and len(VIEWS) == 9


@pytest.mark.parametrize("sql", [
    "SELECT * FROM record_review_status",
    "SELECT review_status, COUNT(*), SUM(review_count) FROM record_review_status GROUP BY review_status",
    "SELECT review_label, COUNT(*) FROM results_flat GROUP BY review_label",
])
def test_the_review_status_of_each_record_is_looked_up_by_index(built_once: tuple[Path, Path], sql: str) -> None:
    """The view once asked a UNION of review subjects and evidence rows inside its per-record subqueries; under
    a GROUP BY, SQLite built and scanned that union again for every record (over 100 s at 10,000 results,
    0.1 s now). Only the records (or results) listed may be scanned; every review is found by an index."""
    built, _ = built_once
    plan = [row[3] for row in query(built, f"EXPLAIN QUERY PLAN {sql}")]
    # a record's own rows, gathered by index into an ordered subquery for group_concat, are scanned there: fine
    scans = [step for step in plan if step.startswith("SCAN ") and step.split()[1] not in ("rec", "r")
             and not step.startswith("SCAN (subquery-")]
    assert not scans and not any("COMPOUND" in step for step in plan), plan


def test_a_review_that_lists_an_evidence_row_it_is_named_by_counts_once(cli, records_dir: Path,  # type: ignore[no-untyped-def]
                                                                        tmp_path: Path) -> None:
    """A review may both list an evidence row among its subjects and be the review the row names: one review."""
    evidence = ("saadat-fellay-20261015-evidence-result-nt-2-5b-training-peak-memory-flashattention-checkpointing-"
                "zero2-reported-result")
    review = records_dir / "review" / ("saadat-fellay-20261015-review-result-nt-2-5b-training-peak-memory-"
                                       "flashattention-checkpointing-zero2.yaml")
    review.write_text(review.read_text(encoding="utf-8").replace("subjects:\n", f"subjects:\n- {evidence}\n", 1),
                      encoding="utf-8")
    registry, report = validate(records_dir)
    assert report.valid, [i.message for i in report.errors]
    assert len(provenance.reviews_of(registry, evidence)) == 1
    database = tmp_path / "twice.db"
    assert cli("db", "build", "--records", records_dir, "--out", database).exit_code == 0
    assert query(database, "SELECT review_status, review_count FROM record_review_status WHERE record_id = ?",
                 evidence) == [("source-checked", 1)]
