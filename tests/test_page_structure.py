"""The neutral page structure: one builder per kind, chosen by the record's class; fields from the models; tags."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import Field
from rich.console import Console

from registry.models import ModelFamily, Record, Reproduction
from registry.page.blocks import Fields, Page, Piece, Section, text_of
from registry.page.kinds import build_page
from registry.status.provenance import Provenance
from registry.store.loader import Registry
from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, CONFIG_33, RESULT_11, RESULT_33, SOURCE

FAMILY = "saadat-fellay-20261015-family-nucleotide-transformer"


@pytest.fixture(scope="module")
def registry() -> Registry:
    loaded, report = validate(BUNDLED_RECORDS)
    assert report.valid
    return loaded


def pieces(page: Page) -> list[Piece]:
    found: list[Piece] = []

    def walk(blocks) -> None:  # type: ignore[no-untyped-def]
        for block in blocks:
            for name in ("content",):
                found.extend(getattr(block, name, ()))
            for row in getattr(block, "rows", ()):
                for cell in (row[1:] if isinstance(block, Fields) else row):
                    found.extend(cell)
            for item in getattr(block, "items", ()):
                found.extend(item)
            walk(getattr(block, "blocks", ()))

    walk(page.blocks)
    return found


def test_each_kind_has_one_builder_chosen_by_its_class(registry: Registry) -> None:
    assert {cls.__name__ for cls in build_page.registry} == {"object", "Result", "Configuration", "Source",
                                                              "ModelFamily", "Dataset", "Protocol", "Benchmark", "Review"}
    result = build_page(registry.records[RESULT_11], registry)
    assert [s.title for s in result.sections()] == [
        "What the registry says about this value", "Methods", "Reproduction", "Evidence", "Sources and history",
        "Technical metadata and extraction receipts", "Related records"]
    config = build_page(registry.records[CONFIG_33], registry)
    assert [s.title for s in config.sections()][:2] == ["Overview", "Evaluations and results"]
    family = build_page(registry.records[FAMILY], registry)  # the generic page with its results (finding R4)
    assert isinstance(family.blocks[0], Fields)
    assert [s.title for s in family.sections()] == ["Configurations and results", "Referred to by"]


def test_a_field_added_to_a_model_appears_on_its_page_without_an_edit(registry: Registry) -> None:
    """Later models gain fields (units, locators, hardware lists): the pages render them from the model."""

    class WiderFamily(ModelFamily):
        kind: Literal["family"]
        homepage_note: str | None = Field(None, description="A note on where the family is published.")

    record = WiderFamily.model_validate({**registry.records[FAMILY].model_dump(), "homepage_note": "See the paper"})
    page = build_page(record, registry)
    rows = dict((label, text_of(value)) for label, value in page.blocks[0].rows)  # type: ignore[union-attr]
    assert rows["Homepage note"] == "See the paper"
    from registry.page.show import render_page

    console = Console(width=120, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(render_page(page))
    assert "Homepage note" in console.export_text()


def test_transcribed_values_are_tagged_with_their_review(registry: Registry) -> None:
    page = build_page(registry.records[RESULT_11], registry)
    headline = page.blocks[0].content  # type: ignore[union-attr]
    assert text_of(headline).startswith("11.5 GB · Peak memory")  # the unit with the headline value (finding P5)
    assert next(p for p in headline if p.text == "11.5 GB").exact == "11.49"
    value = next(p for p in headline if p.text == "11.49 GB")
    assert value.tag is not None and value.tag.provenance is Provenance.SOURCE_CHECKED
    assert value.tag.label == "source checked" and value.exact == "11.49"
    assert any("artifact sha256 4bc24521" in detail for _, detail in value.tag.details)
    unpinned = next(p for p in build_page(registry.records[RESULT_33], registry).blocks[0].content  # type: ignore[union-attr]
                    if p.text == "33.88 GB")
    assert unpinned.tag is not None and unpinned.tag.label == "source checked (no artifact hash)"


def test_our_runs_are_tagged_with_hardware_versions_and_commit_and_never_as_transcribed(registry: Registry) -> None:
    page = build_page(registry.records[RESULT_11], registry)
    tags = {p.tag.provenance for p in pieces(page) if p.tag is not None}
    # Every transcribed value on it is source checked, its evidence row's statement too (finding R5: that
    # row read 'transcribed, not reviewed' beside the review that checked it).
    assert tags == {Provenance.SOURCE_CHECKED, Provenance.ESTIMATED}
    estimates = [p for p in pieces(page) if p.tag is not None and p.tag.provenance is Provenance.ESTIMATED]
    assert estimates and all(p.tag.label == "estimated by us" for p in estimates)  # type: ignore[union-attr]
    details = dict(estimates[0].tag.details)  # type: ignore[union-attr]
    assert details["hardware"].startswith("CPU estimate") and "torch" in details["software"]
    assert details["commit"].startswith("7e2970bd")
    run = next(r for r in registry.records.values() if isinstance(r, Reproduction))
    run_page = build_page(run, registry)
    tagged = {text_of((p,)) for p in pieces(run_page) if p.tag is not None}
    assert str(run.value_bytes) in tagged  # what the run gave is tagged ...
    assert run.command not in tagged  # ... how it was run is not a value


def test_every_mention_of_a_record_carries_its_id(registry: Registry) -> None:
    page = build_page(registry.records[RESULT_11], registry)
    links = {p.link for p in pieces(page) if p.link}
    assert SOURCE in links and "saadat-fellay-20261015-evaluation-nt-2-5b-training-peak-memory-deepspeed" in links
    assert all(link in registry.records for link in links)


def test_a_kind_without_a_builder_gets_the_generic_page(registry: Registry) -> None:
    class Note(Record):
        kind: Literal["note"]
        text: str = Field(description="What the note says.")

    Note.kind_token = "note"
    page = build_page(Note(kind="note", id="saadat-fellay-20261015-note-x", text="hello"), registry)
    assert page.title == "saadat-fellay-20261015-note-x"
    assert ("Text", "hello") in [(label, text_of(v)) for label, v in page.blocks[0].rows]  # type: ignore[union-attr]
    assert not [b for b in page.blocks if isinstance(b, Section)]
