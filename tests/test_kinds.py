"""A kind is one class and its registration: validation, references, reviews, JSON Schema and the database follow."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest
from pydantic import Field

from registry import models
from registry.models.base import Record, Text, ref
from registry.validate.runner import validate
from tests.conftest import RESULT_11, SOURCE


class Erratum(Record, transcribed=True):
    """A test kind: an erratum a source publishes about one of its results."""

    kind: Literal["erratum"]
    result: str = ref("result", description="The result the erratum concerns.")
    source: str = ref("source", description="The source that publishes it.")
    text: Text = Field(description="What the erratum says, word for word.")


@pytest.fixture
def erratum_kind() -> Iterator[type[Erratum]]:
    models.register(Erratum)
    try:
        yield Erratum
    finally:
        models.unregister(Erratum)


def write_erratum(records: Path, result: str = RESULT_11) -> Path:
    folder = records / "erratum"
    folder.mkdir()
    path = folder / "saadat-fellay-20261015-erratum-peak-memory.yaml"
    path.write_text(f"kind: erratum\nid: saadat-fellay-20261015-erratum-peak-memory\nresult: {result}\n"
                    f"source: {SOURCE}\ntext: The peak memory is per device.\n")
    return path


def test_a_registered_kind_is_derived_everywhere(erratum_kind: type[Erratum]) -> None:
    assert models.KIND_MODELS["erratum"] is Erratum and models.KINDS[-1] == "erratum"
    assert "erratum" in models.TRANSCRIBED_KINDS
    from registry.models import parse_id

    assert parse_id("saadat-fellay-20261015-erratum-peak-memory").kind == "erratum"
    models.unregister(Erratum)
    with pytest.raises(ValueError, match="with kind one of"):
        parse_id("saadat-fellay-20261015-erratum-peak-memory")
    models.register(Erratum)


def test_records_of_a_new_kind_validate_and_their_references_are_checked(erratum_kind: type[Erratum],
                                                                          records_dir: Path) -> None:
    write_erratum(records_dir)
    registry, report = validate(records_dir)
    assert report.valid, [i.message for i in report.errors]
    assert isinstance(registry.records["saadat-fellay-20261015-erratum-peak-memory"], Erratum)
    (records_dir / "erratum" / "saadat-fellay-20261015-erratum-peak-memory.yaml").unlink()
    (records_dir / "erratum").rmdir()
    write_erratum(records_dir, result=RESULT_11 + "-typo")
    _, report = validate(records_dir)
    assert [i.code for i in report.errors] == ["unresolved-reference"]


def test_a_new_transcribed_kind_can_be_reviewed(erratum_kind: type[Erratum]) -> None:
    from registry.models.fields import field_plan
    from registry.models.records import Review

    [(_, kinds)] = [(name, kinds) for name, kinds in field_plan(Review).references if name == "subjects"]
    assert "erratum" in kinds


def test_a_new_kind_gets_its_schema_and_its_table(erratum_kind: type[Erratum], records_dir: Path, tmp_path: Path,
                                                  cli) -> None:  # type: ignore[no-untyped-def]
    write_erratum(records_dir)
    out = tmp_path / "schema"
    assert cli("schema", "--out", out).exit_code == 0
    schema = json.loads((out / "erratum.schema.json").read_text())
    assert schema["properties"]["kind"]["const"] == "erratum"
    db = tmp_path / "registry.db"
    built = cli("db", "build", "--records", records_dir, "--out", db)
    assert built.exit_code == 0, built.output
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT id, result, text FROM erratum").fetchall()
        keys = connection.execute("SELECT \"table\", \"from\" FROM pragma_foreign_key_list('erratum')").fetchall()
    assert rows == [("saadat-fellay-20261015-erratum-peak-memory", RESULT_11, "The peak memory is per device.")]
    assert ("result", "result") in keys and ("source", "source") in keys
    shown = cli("show", "saadat-fellay-20261015-erratum-peak-memory", "--records", records_dir, "--format", "json")
    assert shown.exit_code == 0 and json.loads(shown.output)["text"] == "The peak memory is per device."


def test_a_kind_cannot_be_registered_twice_under_one_token() -> None:
    class Other(Record):
        kind: Literal["result"]

    with pytest.raises(ValueError, match="kind 'result' is already registered"):
        models.register(Other)


def test_a_kind_must_name_itself() -> None:
    with pytest.raises(TypeError, match="declares a kind with a field 'kind: Literal"):
        class Nameless(Record):  # noqa: F841 - defining it is the test
            text: Text


def test_the_kind_names_help_shows_are_generated_from_the_models() -> None:
    """'registry --help', 'list --help' and 'new --help' name the kinds from registry/generated/kindnames.py, which
    must say what the models do (regenerate: python -m registry.generated.kindnames --write)."""
    from registry.generated import kindnames

    assert kindnames.KIND_SUMMARIES == kindnames.summaries_of_models(), (
        "registry/generated/kindnames.py is stale: run python -m registry.generated.kindnames --write")
    source = Path(kindnames.__file__).read_text(encoding="utf-8")
    assert kindnames.render(kindnames.summaries_of_models()) == source
    assert kindnames.render({**kindnames.KIND_SUMMARIES, "erratum": "A test kind."}) != source


def test_the_options_of_new_kind_are_generated_from_the_models() -> None:
    """'registry new KIND' builds its options from registry/generated/kindoptions.json, which must say what the models do
    (regenerate: python -m registry.generated.kindoptions --write)."""
    from registry.generated import kindoptions

    assert kindoptions.written() == kindoptions.of_models(), (
        "registry/generated/kindoptions.json is stale: run python -m registry.generated.kindoptions --write")
    assert kindoptions.render(kindoptions.of_models()) == kindoptions.TABLE.read_text(encoding="utf-8")
    table = kindoptions.of_models()
    fewer = kindoptions.KindOptions({**table.kinds, "result": table.kinds["result"][1:]}, table.missing_reasons)
    assert fewer != table and kindoptions.render(fewer) != kindoptions.render(table)

