"""An incremental run (``registry.validate.incremental``) reports exactly what a cold run reports, after any edit.

The property test applies random sequences of edits to a copy of the bundled records (valid and
invalid values, broken YAML and references, new corrections and retractions, duplicated, deleted,
renamed and moved files, dates in the future and a clock moved past them) and after each step
compares the incremental report with a cold run's (``checks.validate`` without the cache), byte for
byte as JSON. Short in CI; ``REGISTRY_INCREMENTAL_EXAMPLES=400 REGISTRY_INCREMENTAL_STEPS=12 pytest
tests/test_incremental_property.py`` runs a long one by hand.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry.validate.incremental import run as incremental
from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, restore_a_bundled_file

EXAMPLES = int(os.environ.get("REGISTRY_INCREMENTAL_EXAMPLES", "25"))
STEPS = int(os.environ.get("REGISTRY_INCREMENTAL_STEPS", "8"))
#: The short run in CI is the same every time; a long run by hand draws new examples.
LONG = "REGISTRY_INCREMENTAL_EXAMPLES" in os.environ
#: Where a long run writes its tally after every step (``REGISTRY_INCREMENTAL_TALLY``), to be read while it runs.
TALLY_FILE = os.environ.get("REGISTRY_INCREMENTAL_TALLY")
#: Steps taken in this process, and how many of them ran incrementally (the long run prints them).
TALLY = {"steps": 0, "incremental": 0}


def reports(root: Path, now: dt.datetime) -> tuple[str, str]:
    """(incremental, cold) report of ``root`` at ``now``, as the JSON ``validate --format json`` prints."""
    kept = incremental.validate(root, now)
    cold = validate(root, now=now, cache=False)[1]
    return (json.dumps(kept.to_dict(), sort_keys=True), json.dumps(cold.to_dict(), sort_keys=True))


@pytest.fixture(scope="module", autouse=True)
def tally() -> object:
    """Say, after the module's tests, how many steps ran incrementally (the long run by hand reads it with -s)."""
    yield
    print(f"\nincremental property test: {TALLY['steps']} steps, {TALLY['incremental']} of them incremental")


@pytest.fixture
def own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


EDITS = ["value", "invalid-value", "broken-yaml", "broken-reference", "fix-reference", "correction",
         "retraction", "copy", "delete", "rename", "move", "touch", "future-date", "clock", "clock-days", "restore"]


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(st.tuples(st.sampled_from(EDITS), st.integers(0, 10_000)), min_size=1, max_size=STEPS),
       retracted=st.booleans())
def test_an_incremental_report_is_always_a_cold_runs(tmp_path_factory: pytest.TempPathFactory, own_cache: None,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     steps: list[tuple[str, int]], retracted: bool) -> None:
    # Files written by this test are always within two seconds of the last run: without this, every file would be
    # read again by digest, and the path that trusts a file's unchanged status would never run.
    monkeypatch.setattr(incremental, "RACY_NS", 0)
    root = tmp_path_factory.mktemp("incremental") / "records"
    shutil.copytree(BUNDLED_RECORDS, root)
    now = [dt.datetime.now(dt.UTC) + dt.timedelta(seconds=10)]
    if retracted:  # a registry that holds a retraction already: later ones change no "holds one" fact
        apply("retraction", 0, root, sorted((root / "dataset").glob("*.yaml"))[0], now)
    kept, cold = reports(root, now[0])
    assert kept == cold
    for edit, seed in steps:
        files = sorted(root.rglob("*.yaml"))
        if edit in ("correction", "retraction") and seed % 3:  # mostly of results, which evidence rows state
            files = sorted((root / "result").glob("*.yaml")) or files
        apply(edit, seed, root, files[seed % len(files)] if files else None, now)
        kept, cold = reports(root, now[0])
        assert kept == cold, (edit, seed)
        TALLY["steps"] += 1
        TALLY["incremental"] += incremental.last_run["run"] == "incremental"
        if TALLY_FILE:
            Path(TALLY_FILE).write_text(f"{TALLY['steps']} steps, {TALLY['incremental']} incremental\n")
        again, _ = reports(root, now[0])  # nothing changed since
        assert again == cold and incremental.last_run["read"] == 0, (edit, seed)


def apply(edit: str, seed: int, root: Path, path: Path | None, now: list[dt.datetime]) -> None:
    """One edit of the registry under ``root`` (``path``: a file picked by ``seed``; ``now``: the clock)."""
    if edit == "clock":
        now[0] += dt.timedelta(hours=1 + seed % 30)
    elif edit == "clock-days":
        now[0] += dt.timedelta(days=1 + seed % 400)
    elif path is None:
        return
    elif edit == "value":
        text = path.read_text()
        path.write_text(text.replace("0.", f"0.{seed % 10}", 1) if "0." in text else text + f"\n# {seed}\n")
    elif edit == "invalid-value":
        path.write_text(path.read_text().replace("\nid:", f"\nnot_a_field: {seed}\nid:", 1))
    elif edit == "broken-yaml":
        path.write_text(path.read_text() + "\n  : - [\n")
    elif edit == "broken-reference":
        text = path.read_text()
        head, _, body = text.partition("\nid:")
        path.write_text(head + "\nid:" + body.replace("saadat-fellay-20261015-", "saadat-fellay-20261015-gone-",
                                                      1 + seed % 2))
    elif edit == "fix-reference":
        path.write_text(path.read_text().replace("saadat-fellay-20261015-gone-", "saadat-fellay-20261015-"))
    elif edit == "correction":
        _correct(seed, root, path)
    elif edit == "retraction":
        target = _id_of(path) or "saadat-fellay-20261015-missing"
        (root / "retraction").mkdir(exist_ok=True)
        (root / "retraction" / f"t-20261201-retraction-r{seed}.yaml").write_text(
            f"kind: retraction\nid: t-20261201-retraction-r{seed}\nretracts: {target}\nreason: A test case.\n"
            "retracted_by: a test\nretracted_at: 2026-12-01T08:30:00Z\n")
    elif edit == "copy":  # a copy of a copy gets a name of its own (the step chose that copy to copy again)
        target = path.with_name(f"copy-{seed}.yaml")
        shutil.copy(path, target if target != path else path.with_name(f"copy-{seed}-again.yaml"))
    elif edit == "delete":
        path.unlink()
    elif edit == "rename":
        path.rename(path.with_name(f"renamed-{seed}.yaml"))
    elif edit == "move":  # to another kind's folder, or back to its own name
        record_id = _id_of(path)
        folders = sorted(p for p in root.iterdir() if p.is_dir())
        folder = folders[seed % len(folders)]
        path.rename(folder / f"{record_id or 'moved'}.yaml")
    elif edit == "touch":
        os.utime(path)
    elif edit == "future-date":
        moment = (now[0] + dt.timedelta(hours=1 + seed % 48)).strftime("%Y-%m-%dT%H:%M:%SZ")
        day = (now[0] + dt.timedelta(days=seed % 3)).strftime("%Y%m%d")
        text = path.read_text()
        if "reviewed_at:" in text and seed % 2:
            lines = [f"reviewed_at: {moment}" if line.startswith("reviewed_at:") else line for line in text.split("\n")]
            path.write_text("\n".join(lines))
        else:
            path.write_text(text.replace("-20261015-", f"-{day}-", 1))
    elif edit == "restore":
        restore_a_bundled_file(root, seed)


def _id_of(path: Path) -> str | None:
    for line in path.read_text().split("\n"):
        if line.startswith("id: "):
            return line[4:].strip()
    return None


def _correct(seed: int, root: Path, path: Path) -> None:
    """A correction of the record in ``path`` by a copy of it under a new id (the same kind, or, by seed, another)."""
    old = _id_of(path)
    if old is None:
        return
    new = f"t-20261201-{path.parent.name}-corrected-{seed}"
    if seed % 5:
        text = path.read_text().replace(f"id: {old}", f"id: {new}", 1)
        (path.parent / f"{new}.yaml").write_text(text)
    (root / "correction").mkdir(exist_ok=True)
    (root / "correction" / f"t-20261201-correction-c{seed}.yaml").write_text(
        f"kind: correction\nid: t-20261201-correction-c{seed}\nsupersedes: {old}\nreplacement: {new}\n"
        "reason: A test case, the value retyped.\ncorrected_by: a test\ncorrected_at: 2026-12-01T08:00:00Z\n")
