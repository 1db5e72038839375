"""'registry db build' updates a database it built (``registry.db.update``): exactly what a full build would hold.

The property test applies random sequences of edits to a copy of the bundled records (values and
names edited, records added, removed, renamed and moved, new reviews, corrections, retractions and
units, invalid files) and after each step compares the updated database with a full build's: the
schema, every table's rows (sorted), the search rows (by the result they belong to), every view's
output and the Datasette metadata, and checks the search index's integrity. Short in CI;
``REGISTRY_DB_UPDATE_EXAMPLES=200 REGISTRY_DB_UPDATE_STEPS=12 pytest tests/test_db_update.py`` runs a long one
by hand.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry.db import update
from registry.db.build import build_database
from registry.db.manifest import SEAL_KEY, STATE_TABLE
from registry.db.metadata import write_metadata
from registry.errors import InvalidRegistryError
from tests.conftest import BUNDLED_RECORDS, DATA, restore_a_bundled_file

EXAMPLES = int(os.environ.get("REGISTRY_DB_UPDATE_EXAMPLES", "12"))
STEPS = int(os.environ.get("REGISTRY_DB_UPDATE_STEPS", "6"))
LONG = "REGISTRY_DB_UPDATE_EXAMPLES" in os.environ
TALLY = {"steps": 0, "updates": 0, "searched": 0}
UNIT = DATA / "shapes" / "valid" / "unit-record" / "unit" / "saadat-fellay-20261015-unit-images-per-second.yaml"
PREFIX = "saadat-fellay-20261015-"


def snapshot(db: Path) -> dict[str, Any]:
    """Everything a reader of the database can see, in an order that does not depend on how rows were written."""
    connection = sqlite3.connect(db)
    try:
        seen: dict[str, Any] = {"schema": connection.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()}
        names = connection.execute("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') "
                                   "AND name NOT LIKE 'results_search%'").fetchall()
        for _, name in names:
            rows = connection.execute(f'SELECT * FROM "{name}"').fetchall()
            # The seal is the file's own write count, which an update moves on: the one thing not compared.
            seen[name] = sorted((row for row in rows if row[0] != SEAL_KEY or name != STATE_TABLE), key=repr)
        # The search rows, each by its result (a row's rowid is its result's, which an update need not keep).
        seen["results_search"] = sorted(connection.execute(
            "SELECT r.id, s.* FROM results_search s JOIN result r ON r.rowid = s.rowid").fetchall(), key=repr)
        seen["results_search rows"] = connection.execute("SELECT COUNT(*) FROM results_search").fetchone()
        seen["matches"] = sorted(connection.execute(
            "SELECT result_id FROM results_search WHERE results_search MATCH 'memory OR peak OR training'"))
        connection.execute("INSERT INTO results_search(results_search) VALUES ('integrity-check')")
    finally:
        connection.close()
    return seen


def built(root: Path, out: Path, *, full: bool) -> Any:
    """Build (or update) ``out`` from ``root``; None where the registry is invalid (nothing is written)."""
    try:
        summary = build_database(root, out=out, cache=True, full=full)
    except InvalidRegistryError:
        return None
    write_metadata(out)
    return summary


@pytest.fixture(scope="module", autouse=True)
def tally() -> object:
    """Say, after the module's tests, how many steps were valid and so updated (the long run reads it with -s)."""
    yield
    print(f"\ndb update property test: {TALLY['steps']} steps, {TALLY['updates']} updated and compared, "
          f"{TALLY['searched']} search rows made again in all")


@pytest.fixture
def own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setattr(update, "UPDATE_AT_MOST", 1.0)  # a small registry: every change is a large share of it


EDITS = ["value", "name", "title", "invalid", "broken-yaml", "add", "delete", "rename", "move", "review",
         "correction", "retraction", "unit", "unit-symbol", "restore"]


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(st.tuples(st.sampled_from(EDITS), st.integers(0, 10_000)), min_size=1, max_size=STEPS))
def test_an_updated_database_holds_what_a_full_build_holds(tmp_path_factory: pytest.TempPathFactory,
                                                          own_cache: None, steps: list[tuple[str, int]]) -> None:
    base = tmp_path_factory.mktemp("update")
    root = base / "records"
    shutil.copytree(BUNDLED_RECORDS, root)
    kept, cold, last_valid = base / "kept.db", base / "cold.db", base / "last-valid"
    assert built(root, kept, full=False) is not None
    for edit, seed in steps:
        files = sorted(root.rglob("*.yaml"))
        shutil.rmtree(last_valid, ignore_errors=True)
        shutil.copytree(root, last_valid)
        apply(edit, seed, root, files[seed % len(files)] if files else None)
        TALLY["steps"] += 1
        summary = built(root, kept, full=False)
        if summary is None:  # invalid: nothing was written; undone, so that the next steps edit a valid registry
            shutil.rmtree(root)
            shutil.copytree(last_valid, root)
            continue
        assert summary.changes is not None, summary.full_because  # the same code, folder and untouched file
        # From the incremental index (only the changed records read), but where the registry declares its own units.
        assert summary.validated == ("" if declares_units(root) else "incrementally"), (edit, seed)
        assert built(root, cold, full=True).changes is None
        assert snapshot(kept) == snapshot(cold), (edit, seed)
        assert (base / "kept.metadata.json").read_text().replace("kept", "cold") == \
            (base / "cold.metadata.json").read_text()
        TALLY["updates"] += 1
        TALLY["searched"] += summary.changes.searched


def declares_units(root: Path) -> bool:
    return any("\nkind: unit\n" in f"\n{path.read_text()}" for path in root.rglob("*.yaml"))


def apply(edit: str, seed: int, root: Path, path: Path | None) -> None:
    """One edit of the registry under ``root`` (``path``: a file picked by ``seed``)."""
    if path is None:
        return
    text = path.read_text()
    if edit == "value":
        path.write_text(text.replace("0.", f"0.{seed % 10}", 1) if "0." in text else text + f"\n# {seed}\n")
    elif edit == "name":  # a dataset's, configuration's, family's, protocol's name: results' search rows read it
        folder = ("dataset", "config", "family", "protocol", "evaluation")[seed % 5]
        for named in sorted((root / folder).glob("*.yaml"))[:1]:
            body = named.read_text()
            named.write_text(body.replace("\nname: ", f"\nname: Renamed {seed} ", 1))
    elif edit == "title":
        for source in sorted((root / "source").glob("*.yaml"))[:1]:
            source.write_text(source.read_text().replace("\ntitle: ", f"\ntitle: Retitled {seed} ", 1))
    elif edit == "invalid":
        path.write_text(text.replace("\nid:", f"\nnot_a_field: {seed}\nid:", 1))
    elif edit == "broken-yaml":
        path.write_text(text + "\n  : - [\n")
    elif edit == "add":  # a copy of a record under an id of its own
        old = _id_of(text)
        if old is not None:
            new = f"{old}-copy{seed}"
            (path.parent / f"{new}.yaml").write_text(text.replace(f"id: {old}", f"id: {new}", 1))
    elif edit == "delete":
        path.unlink()
    elif edit == "rename":
        path.rename(path.with_name(f"renamed-{seed}.yaml"))
    elif edit == "move":
        folders = sorted(p for p in root.iterdir() if p.is_dir())
        path.rename(folders[seed % len(folders)] / path.name)
    elif edit == "review":  # another review of a result
        _review(seed, root, _results(root, seed) or path)
    elif edit == "correction":
        _correct(seed, root, _results(root, seed) or path)
    elif edit == "retraction":
        target = _id_of(_results(root, seed).read_text() if _results(root, seed) and seed % 2 else text)
        (root / "retraction").mkdir(exist_ok=True)
        (root / "retraction" / f"t-20261201-retraction-r{seed}.yaml").write_text(
            f"kind: retraction\nid: t-20261201-retraction-r{seed}\nretracts: {target}\nreason: A test case.\n"
            "retracted_by: a test\nretracted_at: 2026-12-01T08:30:00Z\n")
    elif edit == "unit":
        (root / "unit").mkdir(exist_ok=True)
        shutil.copy(UNIT, root / "unit" / UNIT.name)
    elif edit == "unit-symbol":
        for unit in (root / "unit").glob("*.yaml") if (root / "unit").is_dir() else ():
            unit.write_text(unit.read_text().replace("symbol: ", f"symbol: u{seed % 3}", 1))
    elif edit == "restore":
        restore_a_bundled_file(root, seed)


def _id_of(text: str) -> str | None:
    for line in text.split("\n"):
        if line.startswith("id: "):
            return line[4:].strip()
    return None


def _results(root: Path, seed: int) -> Path | None:
    results = sorted((root / "result").glob("*.yaml")) if (root / "result").is_dir() else []
    return results[seed % len(results)] if results else None


def _review(seed: int, root: Path, path: Path) -> None:
    subject = _id_of(path.read_text())
    reviews = sorted((root / "review").glob("*.yaml")) if (root / "review").is_dir() else []
    if subject is None or not reviews:
        return
    text = reviews[seed % len(reviews)].read_text()
    old = _id_of(text)
    new = f"{PREFIX}review-t{seed}"
    lines = text.replace(f"id: {old}", f"id: {new}", 1).split("\n")
    start = lines.index("subjects:") + 1
    end = start
    while end < len(lines) and lines[end].startswith("- "):
        end += 1
    lines[start:end] = [f"- {subject}"]
    (root / "review" / f"{new}.yaml").write_text("\n".join(lines))


def _correct(seed: int, root: Path, path: Path) -> None:
    """A correction of the record in ``path`` by a copy of it under a new id."""
    old = _id_of(path.read_text())
    if old is None:
        return
    new = f"t-20261201-{path.parent.name}-corrected-{seed}"
    path.with_name(f"{new}.yaml").write_text(path.read_text().replace(f"id: {old}", f"id: {new}", 1))
    (root / "correction").mkdir(exist_ok=True)
    (root / "correction" / f"t-20261201-correction-c{seed}.yaml").write_text(
        f"kind: correction\nid: t-20261201-correction-c{seed}\nsupersedes: {old}\nreplacement: {new}\n"
        "reason: A test case, the value retyped.\ncorrected_by: a test\ncorrected_at: 2026-12-01T08:00:00Z\n")


# -- the command, end to end ------------------------------------------------------------------------------------


DATASET = "dataset/saadat-fellay-20261015-dataset-synthetic-uniform-random-dna-seed-42.yaml"


def said(result: Any) -> str:
    """The command's output as one line (the console wraps long lines)."""
    return " ".join(result.output.split())


def build_cli(cli: Any, records: Path, out: Path, *more: str) -> str:
    result = cli("db", "build", "--records", records, "--out", out, *more)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return said(result)


def test_an_edit_updates_the_database_and_says_what_changed(cli: Any, records_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "registry.db"
    first = build_cli(cli, records_dir, out)
    assert "a full build, not an update: there is no database there yet" in first
    dataset = records_dir / DATASET
    dataset.write_text(dataset.read_text().replace("\nname: ", "\nname: Renamed ", 1))
    second = build_cli(cli, records_dir, out)
    assert "Updated" in second and "1 of 85 records changed (0 added, 1 edited, 0 renamed, 0 removed)" in second
    assert "2 search rows made again" in second  # both results name the dataset through their evaluations
    full = build_cli(cli, records_dir, tmp_path / "full.db", "--full")
    assert "a full build, not an update: --full was given" in full
    assert snapshot(out) == snapshot(tmp_path / "full.db")
    matches = "SELECT COUNT(*) FROM results_search WHERE results_search MATCH 'Renamed'"
    assert sqlite3.connect(out).execute(matches).fetchone() == (2,)


def test_nothing_changed_writes_nothing(cli: Any, records_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "registry.db"
    build_cli(cli, records_dir, out)
    before = out.read_bytes()
    again = build_cli(cli, records_dir, out)
    assert "registry.db is up to date: none of its 85 records changed, nothing was written" in again
    assert out.read_bytes() == before
    # What comes from no record is written again where it differs: the site's address, here.
    moved = build_cli(cli, records_dir, out, "--base-url", "https://example.org/registry/")
    assert "Updated" in moved and "0 of 85 records changed" in moved
    assert snapshot(out) == snapshot(_full(cli, records_dir, tmp_path, "--base-url", "https://example.org/registry/"))


def _full(cli: Any, records: Path, tmp_path: Path, *more: str) -> Path:
    out = tmp_path / "full.db"
    build_cli(cli, records, out, "--full", *more)
    return out


def reseal(db: Path, sql: str, *params: object) -> None:
    """Change the database as no build would, then seal it as a build does (so that only the change is wrong)."""
    from registry.db.manifest import seal

    connection = sqlite3.connect(db)
    connection.execute(sql, params)
    connection.commit()
    connection.close()
    assert seal(db)


@pytest.mark.parametrize(("damage", "reason"), [
    ("written", "it was written to since it was built (by another program)"),
    ("journal", "it has a journal beside it or is in WAL mode"),
    ("wal", "it has a journal beside it or is in WAL mode"),
    ("manifest", "its manifest does not list exactly its records"),
    ("listing", "its listing of record files does not match its records"),
    ("digests", "its listing of record files is damaged"),
    ("code", "it was built by another version of the code"),
    ("older", "it was built before builds kept what they stored"),
    ("folder", "it was built from another records folder"),
])
def test_a_database_that_cannot_be_updated_exactly_is_built_anew(cli: Any, records_dir: Path, tmp_path: Path,
                                                                  damage: str, reason: str) -> None:
    out = tmp_path / "registry.db"
    build_cli(cli, records_dir, out)
    expected = snapshot(out)
    records = records_dir
    if damage == "written":
        connection = sqlite3.connect(out)
        connection.execute("INSERT INTO registry_meta VALUES ('left-over', 'from another program')")
        connection.commit()
        connection.close()
    elif damage == "journal":
        Path(f"{out}-journal").write_bytes(bytes(512))  # zeroed: SQLite takes it for no journal; a build does not
    elif damage == "wal":
        connection = sqlite3.connect(out)
        connection.execute("PRAGMA journal_mode = WAL").fetchall()
        connection.close()
    elif damage == "manifest":
        reseal(out, "DELETE FROM build_manifest WHERE record_id = (SELECT MIN(record_id) FROM build_manifest)")
    elif damage == "listing":  # a folder's files missing from it: they are no news to its records
        reseal(out, "DELETE FROM build_files WHERE folder = 'dataset'")
    elif damage == "digests":  # a digest cut short: the names and the digests no longer line up
        reseal(out, "UPDATE build_files SET digests = substr(digests, 2) WHERE folder = 'dataset'")
    elif damage == "code":
        reseal(out, "UPDATE build_state SET value = 'another' WHERE key = 'build_code'")
    elif damage == "older":
        connection = sqlite3.connect(out)  # as a build before there was one left it: no seal to match either
        connection.execute("DROP TABLE build_state")
        connection.commit()
        connection.close()
    elif damage == "folder":
        records = tmp_path / "elsewhere"
        shutil.copytree(records_dir, records)
    output = build_cli(cli, records, out)
    assert f"a full build, not an update: {reason}" in output
    Path(f"{out}-journal").unlink(missing_ok=True)
    rebuilt = snapshot(out)
    if damage == "folder":  # the folder is named in registry_meta
        rebuilt.pop("registry_meta"), expected.pop("registry_meta")
    assert rebuilt == expected
    assert "is up to date" in build_cli(cli, records, out), "the new build can be updated"


def test_too_many_changes_are_built_anew(cli: Any, records_dir: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "registry.db"
    build_cli(cli, records_dir, out)
    dataset = records_dir / DATASET
    dataset.write_text(dataset.read_text().replace("\nname: ", "\nname: Renamed ", 1))
    monkeypatch.setattr(update, "UPDATE_AT_MOST", 0.0)
    output = build_cli(cli, records_dir, out)
    assert "a full build, not an update: 1 of 85 records changed, too many for an update to be faster" in output


def test_a_record_stored_under_another_path_is_stored_again(cli: Any, records_dir: Path, tmp_path: Path) -> None:
    """A record whose file the database says lies elsewhere (as a move to another folder and back leaves it, the
    content unchanged) is stored again under its path now: renamed."""
    out = tmp_path / "registry.db"
    build_cli(cli, records_dir, out)
    expected = snapshot(out)
    folder, name = DATASET.split("/")
    connection = sqlite3.connect(out)
    names, digests = connection.execute("SELECT names, digests FROM build_files WHERE folder = ?", (folder,)).fetchone()
    connection.close()
    at = names.split("\0").index(name)
    kept = names.split("\0")
    del kept[at]
    reseal(out, "UPDATE build_files SET names = ?, digests = ? WHERE folder = ?",
           "\0".join(kept), digests[:16 * at] + digests[16 * at + 16:], folder)
    reseal(out, "INSERT INTO build_files VALUES ('elsewhere/dataset', ?, ?)", f"{name}\0", digests[16 * at:16 * at + 16])
    reseal(out, "UPDATE record SET path = ? WHERE path = ?", f"elsewhere/{DATASET}", DATASET)
    assert "(0 added, 0 edited, 1 renamed, 0 removed)" in build_cli(cli, records_dir, out)
    assert snapshot(out) == expected


def test_an_update_that_fails_part_way_leaves_the_previous_database(records_dir: Path, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "registry.db"
    build_database(records_dir, out=out)
    before = out.read_bytes(), out.stat().st_mtime_ns
    dataset = records_dir / DATASET
    dataset.write_text(dataset.read_text().replace("\nname: ", "\nname: Renamed ", 1))

    def stopped(*args: Any) -> int:
        raise KeyboardInterrupt  # as if stopped after the rows were deleted and inserted

    monkeypatch.setattr(update, "refill_search", stopped)
    with pytest.raises(KeyboardInterrupt):
        build_database(records_dir, out=out)
    assert (out.read_bytes(), out.stat().st_mtime_ns) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], "no temporary file left"


def test_an_update_the_database_refuses_is_followed_by_a_full_build(records_dir: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """An update that SQLite refuses (a broken foreign key, say) is never half-applied: the build is a full one."""
    from sqlalchemy.exc import OperationalError

    out = tmp_path / "registry.db"
    build_database(records_dir, out=out)
    dataset = records_dir / DATASET
    dataset.write_text(dataset.read_text().replace("\nname: ", "\nname: Renamed ", 1))
    build_database(records_dir, out=tmp_path / "full.db", full=True)
    expected = snapshot(tmp_path / "full.db")

    def refused(*args: Any) -> int:
        raise OperationalError("INSERT ...", {}, Exception("FOREIGN KEY constraint failed"))

    monkeypatch.setattr(update, "refill_search", refused)
    summary = build_database(records_dir, out=out)
    assert summary.changes is None and summary.full_because.startswith("the update failed (")
    assert snapshot(out) == expected


def test_an_update_reads_only_the_changed_records(cli: Any, records_dir: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With the parse cache on, the records are validated incrementally and an update types only those that
    changed; without it (or for a registry that declares its own units, whose every record's rows may read them)
    every record is loaded, and the update is the same."""
    from registry.db import current

    out = tmp_path / "registry.db"
    build_cli(cli, records_dir, out)
    typed: list[set[str]] = []
    loaded = current._loaded
    monkeypatch.setattr(current, "_loaded", lambda root, wanted: typed.append(set(wanted)) or loaded(root, wanted))
    dataset = records_dir / DATASET
    dataset.write_text(dataset.read_text().replace("\nname: ", "\nname: Renamed ", 1))
    assert "validated incrementally" in build_cli(cli, records_dir, out)
    assert typed == [{_id_of(dataset.read_text())}]
    dataset.write_text(dataset.read_text().replace("\nname: Renamed ", "\nname: Renamed again ", 1))
    again = build_cli(cli, records_dir, out, "--no-cache")
    assert "1 of 85 records changed" in again and "validated" not in again and len(typed) == 1
    (records_dir / "unit").mkdir()
    shutil.copy(UNIT, records_dir / "unit" / UNIT.name)
    added = build_cli(cli, records_dir, out)  # the first unit record: found once it is read
    assert "1 of 86 records changed (1 added," in added and "validated" not in added and len(typed) == 2
    dataset.write_text(dataset.read_text().replace("Renamed again ", "", 1))
    assert "validated" not in build_cli(cli, records_dir, out) and len(typed) == 2  # the database says it has units
    assert snapshot(out) == snapshot(_full(cli, records_dir, tmp_path))


def test_a_record_changed_while_the_build_ran_makes_it_a_full_one(records_dir: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The records read for an update must hold what was validated: one edited in between is found by its digest,
    and the build is a full one (which validates again), never an update from content nobody checked."""
    from registry.db import current

    out = tmp_path / "registry.db"
    build_database(records_dir, out=out)
    dataset = records_dir / DATASET
    dataset.write_text(dataset.read_text().replace("\nname: ", "\nname: Renamed ", 1))
    found = current.records_now

    def edited_meanwhile(root: Path) -> Any:
        now = found(root)
        dataset.write_text(dataset.read_text().replace("\nname: Renamed ", "\nname: Renamed twice ", 1))
        return now

    monkeypatch.setattr(current, "records_now", edited_meanwhile)
    summary = build_database(records_dir, out=out)
    assert summary.changes is None and summary.full_because == "a record file changed while the build ran"
    monkeypatch.undo()
    build_database(records_dir, out=tmp_path / "full.db", full=True)
    assert snapshot(out) == snapshot(tmp_path / "full.db")
    assert "Renamed twice" in str(snapshot(out)["dataset"])


def test_an_invalid_registry_is_refused_with_the_cold_runs_report(records_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "registry.db"
    build_database(records_dir, out=out)
    before = out.read_bytes()
    dataset = records_dir / DATASET
    dataset.write_text(dataset.read_text().replace("\nname: ", "\nname: [unclosed ", 1))
    with pytest.raises(InvalidRegistryError) as raised:
        build_database(records_dir, out=out)
    from registry.validate.runner import validate

    cold = validate(records_dir, cache=False)[1]
    assert raised.value.report.to_dict() == cold.to_dict() and not cold.valid
    assert out.read_bytes() == before


def test_the_index_lists_the_files_as_a_full_build_keeps_them(records_dir: Path, own_cache: None) -> None:
    """What an update compares: the record files folder by folder, from the incremental index, equal to what a
    full build stores from the loaded records (so that a folder nothing changed in is passed whole)."""
    from registry.db.update import of_registry
    from registry.validate import memo
    from registry.validate.incremental import run as incremental
    from registry.validate.incremental.index import recall
    from registry.validate.runner import validate

    (records_dir / "more" / "dataset").mkdir(parents=True)
    (records_dir / DATASET).rename(records_dir / "more" / DATASET)  # a kind's folder may lie deeper
    incremental.validate(records_dir, memo.now())
    index = recall(records_dir)
    registry, report = validate(records_dir, cache=False)
    assert report.valid, report.issues
    assert index is not None and index["files"].folder_digests() == of_registry(registry).folders()
    assert set(index["files"].folder_digests()) >= {"more/dataset", "result"}


def test_a_digest_not_known_is_never_taken_for_the_same_content(records_dir: Path, tmp_path: Path) -> None:
    from registry.db.manifest import NO_DIGEST, read_folders
    from registry.db.update import Current, plan

    out = tmp_path / "registry.db"
    build_database(records_dir, out=out)
    connection = sqlite3.connect(out)
    held = read_folders(connection)
    count = connection.execute("SELECT COUNT(*) FROM record").fetchone()[0]

    def planned(folders: dict[str, tuple[str, bytes]]) -> Any:
        return plan(connection, Current(records_dir, count, lambda: folders, lambda wanted: None))  # type: ignore[arg-type,return-value]

    assert planned(held).counts == (0, 0, 0, 0)
    names, digests = held["dataset"]
    unknown = planned({**held, "dataset": (names, NO_DIGEST + digests[16:])})
    assert unknown.counts == (0, 1, 0, 0) and unknown.files == {_id_of((records_dir / DATASET).read_text()): (DATASET, None)}
    renamed = planned({**{f: v for f, v in held.items() if f != "dataset"}, "more/dataset": (names, digests)})
    assert renamed.counts == (0, 0, 1, 0) and set(renamed.folders) == {"dataset", "more/dataset"}
    connection.close()
