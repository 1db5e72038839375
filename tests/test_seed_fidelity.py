"""Every value the seed pages show has a home in the records, word for word, or is rendered from them.

The pages are copied under tests/data/seeds so that this test needs nothing outside the repository.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from registry.page import display
from registry.store.loader import Registry
from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, CONFIG_33, DATA, RESULT_11, RESULT_33, SOURCE

pytestmark = pytest.mark.pdf  # reads or renders PDFs (pdflatex, pdftotext, PDFium): left out of make test-fast

PAGE_CONFIG = (DATA / "seeds" / "000_9e52250616148712.txt").read_text()
PAGE_RESULT = (DATA / "seeds" / "001_d9653afa774fe3dd.txt").read_text()
REVIEW_CONFIG = "saadat-fellay-20261015-review-config-nt-2-5b-training-flashattention-checkpointing"
REVIEW_11 = "saadat-fellay-20261015-review-result-nt-2-5b-training-peak-memory-flashattention-checkpointing-zero2"
EVAL_11 = "saadat-fellay-20261015-evaluation-nt-2-5b-training-peak-memory-deepspeed"
EVAL_33 = "saadat-fellay-20261015-evaluation-nt-2-5b-training-peak-memory-checkpointing"


@pytest.fixture(scope="module")
def registry() -> Registry:
    loaded, report = validate(BUNDLED_RECORDS)
    assert report.valid
    return loaded


def value(registry: Registry, record_id: str, path: str) -> str:
    """A stored value as the pages read it (a typed locator or hardware list as its rendered text)."""
    current: object = registry.records[record_id]
    for part in path.split("."):
        current = getattr(current, part)
    if isinstance(current, list) and current and all(hasattr(item, "text") for item in current):
        return "; ".join(item.text for item in current)
    return str(getattr(current, "text", getattr(current, "value", current)))


# (page, record, field path): the stored text must appear on that page exactly.
STORED_TEXT = [
    (PAGE_CONFIG, CONFIG_33, "name"),
    (PAGE_CONFIG, CONFIG_33, "description"),
    (PAGE_CONFIG, CONFIG_33, "reported_name"),
    (PAGE_CONFIG, CONFIG_33, "hardware"),
    (PAGE_CONFIG, CONFIG_33, "source_locator"),
    (PAGE_CONFIG, CONFIG_33, "provenance_note"),
    (PAGE_CONFIG, CONFIG_33, "fine_tuning.description"),
    (PAGE_CONFIG, CONFIG_33, "training_setting"),
    (PAGE_CONFIG, REVIEW_CONFIG, "reviewer"),
    (PAGE_CONFIG, REVIEW_CONFIG, "reviewer_note"),
    (PAGE_CONFIG, REVIEW_CONFIG, "artifact_sha256"),
    (PAGE_CONFIG, REVIEW_CONFIG, "retrieval_url"),
    (PAGE_CONFIG, REVIEW_CONFIG, "method_note"),
    (PAGE_CONFIG, REVIEW_CONFIG, "note"),
    (PAGE_CONFIG, "saadat-fellay-20261015-protocol-training-peak-memory", "name"),
    (PAGE_CONFIG, "saadat-fellay-20261015-dataset-synthetic-uniform-random-dna-seed-42", "name"),
    (PAGE_CONFIG, EVAL_33, "name"),
    (PAGE_CONFIG, RESULT_33, "metric_qualifier"),
    (PAGE_CONFIG, RESULT_33, "source_locator"),
    (PAGE_CONFIG, "saadat-fellay-20261015-family-nucleotide-transformer", "name"),
    (PAGE_RESULT, RESULT_11, "metric"),
    (PAGE_RESULT, RESULT_11, "metric_direction"),
    (PAGE_RESULT, RESULT_11, "unit"),
    (PAGE_RESULT, RESULT_11, "printed_value"),
    (PAGE_RESULT, RESULT_11, "numeric_value"),
    (PAGE_RESULT, RESULT_11, "source_locator"),
    (PAGE_RESULT, RESULT_11, "metric_qualifier"),
    (PAGE_RESULT, RESULT_11, "hardware"),
    (PAGE_RESULT, RESULT_11, "unit_detail"),
    (PAGE_RESULT, RESULT_11, "scope_note"),
    (PAGE_RESULT, REVIEW_11, "reviewer_note"),
    (PAGE_RESULT, REVIEW_11, "method_note"),
    (PAGE_RESULT, REVIEW_11, "note"),
    (PAGE_RESULT, REVIEW_11, "artifact_sha256"),
    (PAGE_RESULT, REVIEW_11, "retrieval_url"),
    (PAGE_RESULT, EVAL_11, "name"),
    (PAGE_RESULT, EVAL_11, "adaptation"),
    (PAGE_RESULT, "saadat-fellay-20261015-config-nt-2-5b-training-flashattention-checkpointing-zero2", "name"),
    (PAGE_RESULT, "saadat-fellay-20261015-evidence-result-nt-2-5b-training-peak-memory-flashattention-checkpointing"
                  "-zero2-reported-result", "statement"),
]


@pytest.mark.parametrize(("page", "record_id", "path"), STORED_TEXT, ids=[f"{r[1][23:60]}.{r[2]}" for r in STORED_TEXT])
def test_stored_text_is_word_for_word(registry: Registry, page: str, record_id: str, path: str) -> None:
    text = value(registry, record_id, path)
    assert text in page, f"{record_id}.{path} = {text!r} is not on its seed page"


def test_missing_metadata_notes_are_word_for_word(registry: Registry) -> None:
    config = registry.records[CONFIG_33]
    for entry in config.missing_metadata:
        assert f"{entry.field}: reason: {entry.reason.value}; note: {entry.note}" in PAGE_CONFIG


def test_review_methods_and_dates_as_on_the_pages(registry: Registry) -> None:
    config_review = registry.records[REVIEW_CONFIG]
    assert "method: " + "; ".join(m.value for m in config_review.methods) in PAGE_CONFIG  # type: ignore[attr-defined]
    result_review = registry.records[REVIEW_11]
    listed = ",".join(f'"{m.value}"' for m in result_review.methods)  # type: ignore[attr-defined]
    assert f"[{listed}]" in PAGE_RESULT
    for page, review in ((PAGE_CONFIG, config_review), (PAGE_RESULT, result_review)):
        assert review.reviewed_at.isoformat().replace("+00:00", "Z") in page  # type: ignore[attr-defined]


def test_release_and_ids_as_on_the_pages(registry: Registry) -> None:
    release = registry.records["saadat-fellay-20261015-release-2026-10-22-1b7cf027e4f6"]
    assert f"Release {release.name}." in PAGE_CONFIG and f"Release {release.name} " in PAGE_RESULT  # type: ignore[attr-defined]
    assert f"Stable ID: {CONFIG_33}" in PAGE_CONFIG
    assert f"Stable ID: {RESULT_11}" in PAGE_RESULT
    assert "saadat-fellay-20261015-protocol-training-peak-memory" in PAGE_CONFIG
    for slug in ("dna-genomes", "research", "foundation_model"):
        assert f"- {slug}" in PAGE_CONFIG


# Rendered, not stored: the rules in registry.page.display must reproduce the pages' wording.
def test_rendered_source_citation_and_version(registry: Registry) -> None:
    source = registry.records[SOURCE]
    assert f"- {source.citation} · Original source · {source.version_statement}" in PAGE_CONFIG  # type: ignore[attr-defined]
    assert f"{source.citation} · Original source · {source.version_statement}" in PAGE_RESULT  # type: ignore[attr-defined]


def test_rendered_display_values_and_titles(registry: Registry) -> None:
    r33, r11 = registry.records[RESULT_33], registry.records[RESULT_11]
    assert f"| {display.finding(r33)} gigabyte · lower " in PAGE_CONFIG  # type: ignore[arg-type]
    assert PAGE_RESULT.startswith(display.result_title(registry, r11) + "\n")  # type: ignore[arg-type]
    assert f"\n{display.finding(r11)}\n" in PAGE_RESULT  # type: ignore[arg-type]


def test_rendered_missing_metadata_phrases(registry: Registry) -> None:
    evaluation = registry.records[EVAL_11]
    result = registry.records[RESULT_11]
    assert f"- Uncertainty\n- {display.value_or_missing(result, 'uncertainty')}\n" in PAGE_RESULT
    assert f"- Coverage\n- {display.coverage(evaluation)}\n" in PAGE_RESULT  # type: ignore[arg-type]
    assert f"- Adaptation\n- {display.adaptation(evaluation)}\n" in PAGE_RESULT  # type: ignore[arg-type]
    assert f"- Split\n- {display.value_or_missing(evaluation, 'split')}\n" in PAGE_RESULT
    assert f"- Scoring implementation\n- {display.value_or_missing(evaluation, 'scoring_implementation')}\n" in PAGE_RESULT
    assert f"Aggregation: {display.value_or_missing(registry.records[EVAL_33], 'aggregation')} " in PAGE_CONFIG
    row = registry.records[RESULT_11.replace("-result-", "-evidence-result-") + "-reported-result"]
    assert f"Hash scope: {display.missing_phrase(row, 'hash_scope')} " in PAGE_RESULT


def test_show_pages_carry_the_seed_wording(registry: Registry) -> None:
    from registry.page.show import render_record

    console = Console(width=400, record=True)
    console.print(render_record(registry, registry.records[RESULT_11]))
    console.print(render_record(registry, registry.records[CONFIG_33]))
    shown = console.export_text()
    for phrase in ("Not reported by the source", "Not reported scored / Not reported eligible",
                   "Training step; LoRA or full update not stated", "Independent external evaluation",
                   "An explanatory profile has not yet been reviewed for this record.",
                   "Hash scope not separately documented; inspect source record",
                   "1 evaluation · 1 result", "configuration of: Nucleotide Transformer",
                   "system: NT 2.5B training peak memory, stage + Checkpointing"):
        assert phrase in shown, phrase


def test_seed_copies_match_shared(tmp_path: Path) -> None:
    shared = Path(__file__).resolve().parents[2] / "shared" / "seeds"
    if not shared.is_dir():
        pytest.skip("../shared/seeds is not beside this checkout")
    for page in shared.glob("*.txt"):
        assert (DATA / "seeds" / page.name).read_text() == page.read_text()
