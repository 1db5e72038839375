"""`registry release` names content reproducibly; `registry schema` writes schemas that accept the records."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from registry.errors import RegistryError
from registry.models import KINDS
from registry.store.release import content_date, release_name
from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, RESULT_11


def test_release_name_is_date_and_hash_prefix(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("release", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}-[0-9a-f]{12}", data["name"])
    assert data["name"].startswith(f"{content_date(validate(BUNDLED_RECORDS)[0])}-")
    assert data["name"].endswith(data["sha256"][:12])
    assert data["recorded"] == ["2026-10-22-1b7cf027e4f6"]


def test_same_records_same_name_anywhere(tmp_path: Path) -> None:
    copy = tmp_path / "elsewhere" / "records"
    shutil.copytree(BUNDLED_RECORDS, copy)
    # Comments and key order are presentation, not content.
    path = next((copy / "result").glob("*zero2.yaml"))
    path.write_text("# a new comment\n" + path.read_text())
    assert release_name(validate(copy)[0]) == release_name(validate(BUNDLED_RECORDS)[0])


def test_any_change_changes_the_name(records_dir: Path) -> None:
    before = release_name(validate(records_dir)[0])
    path = records_dir / "result" / f"{RESULT_11}.yaml"
    path.write_text(path.read_text().replace("Printed as GB", "Printed as GB (decimal)"))
    after = release_name(validate(records_dir)[0])
    assert before != after and before[:10] == after[:10]


@pytest.mark.slow
def test_schema_writes_one_file_per_kind_and_accepts_the_records(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "schema"
    result = cli("schema", "--out", out)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{k}.schema.json" for k in KINDS)
    for path in sorted(BUNDLED_RECORDS.rglob("*.yaml")):
        data = json.loads(json.dumps(yaml.safe_load(path.read_text()), default=str))
        schema = json.loads((out / f"{data['kind']}.schema.json").read_text())
        jsonschema.validate(data, schema)


def test_schema_rejects_what_validate_rejects(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    cli("schema", "--out", tmp_path)
    schema = json.loads((tmp_path / "family.schema.json").read_text())
    bad = {"kind": "family", "id": "../escape", "name": "x"}
    try:
        jsonschema.validate(bad, schema)
    except jsonschema.ValidationError as exc:
        assert "does not match" in exc.message
    else:
        raise AssertionError("the schema accepted an id that escapes the folder")


def test_schema_unwritable_folder(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = cli("schema", "--out", blocker / "schema")
    assert result.exit_code == 1 and "cannot write schemas" in result.output


def test_release_date_is_the_latest_date_in_the_content(tmp_path: Path) -> None:
    copy = tmp_path / "records"
    shutil.copytree(BUNDLED_RECORDS, copy, ignore=shutil.ignore_patterns("recipe", "reproduction"))
    # The transcribed records' latest date is their reviews' (2026-10-15), not today and not the release's.
    assert release_name(validate(copy)[0]).startswith("2026-10-15-")


def test_a_registry_without_dates_has_no_release_name(tmp_path: Path) -> None:
    (tmp_path / "family").mkdir()
    shutil.copy(next((BUNDLED_RECORDS / "family").iterdir()), tmp_path / "family")
    registry, report = validate(tmp_path)
    assert report.valid
    with pytest.raises(RegistryError, match="no record holds a date"):
        release_name(registry)


def test_release_says_whether_the_records_changed_since_each_recorded_release(
        cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """As the site's release page does (finding P13): the bundled release was named before our runs were filed."""
    text = " ".join(cli("release", "--records", records_dir).output.split())
    assert ("Recorded release: 2026-10-22-1b7cf027e4f6 (the records have changed since it was named: its hash "
            "prefix is not the current content's)") in text
    assert json.loads(cli("release", "--records", records_dir, "--format", "json").output)["same_content"] == {
        "2026-10-22-1b7cf027e4f6": False}
    current = release_name(validate(records_dir)[0])
    path = next((records_dir / "release").glob("*.yaml"))
    renamed = path.with_name(path.name.replace("2026-10-22-1b7cf027e4f6", current))
    renamed.write_text(path.read_text().replace("2026-10-22-1b7cf027e4f6", current))  # a release of the content now
    path.unlink()
    same = cli("release", "--records", records_dir)
    assert same.exit_code == 0, same.output
    assert f"Recorded release: {current} (the records have not changed since it was named)" in \
        " ".join(same.output.split())
