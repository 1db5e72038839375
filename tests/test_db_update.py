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
from registry.db.manifest import SEAL_KEY
from registry.db.metadata import write_metadata
from registry.errors import InvalidRegistryError
from tests.conftest import BUNDLED_RECORDS, DATA

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
            seen[name] = sorted((row for row in rows if row[0] != SEAL_KEY or name != "registry_meta"), key=repr)
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
    kept, cold = base / "kept.db", base / "cold.db"
    assert built(root, kept, full=False) is not None
    for edit, seed in steps:
        files = sorted(root.rglob("*.yaml"))
        apply(edit, seed, root, files[seed % len(files)] if files else None)
        TALLY["steps"] += 1
        summary = built(root, kept, full=False)
        if summary is None:  # invalid: nothing was written, and the next valid step updates the older database
            continue
        assert summary.changes is not None, summary.full_because  # the same code, folder and untouched file
        assert built(root, cold, full=True).changes is None
        assert snapshot(kept) == snapshot(cold), (edit, seed)
        assert (base / "kept.metadata.json").read_text().replace("kept", "cold") == \
            (base / "cold.metadata.json").read_text()
        TALLY["updates"] += 1
        TALLY["searched"] += summary.changes.searched


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
            new = old.replace(PREFIX, f"{PREFIX}copy{seed}-", 1)
            (path.parent / f"{new}.yaml").write_text(text.replace(f"id: {old}", f"id: {new}", 1))
    elif edit == "delete":
        path.unlink()
    elif edit == "rename":
        path.rename(path.with_name(f"renamed-{seed}.yaml"))
    elif edit == "move":
        folders = sorted(p for p in root.iterdir() if p.is_dir())
        path.rename(folders[seed % len(folders)] / path.name)
    elif edit == "review":  # another review of the record in ``path``
        _review(seed, root, path)
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
        for source in BUNDLED_RECORDS.rglob("*.yaml"):
            target = root / source.relative_to(BUNDLED_RECORDS)
            if seed % 2 or not target.exists():
                target.parent.mkdir(exist_ok=True)
                shutil.copy(source, target)
                break


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
