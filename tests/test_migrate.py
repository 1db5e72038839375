"""Old free-text shapes get the typed value to write instead, worked out from the old text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from registry.models.values import Locator
from registry.store.migrate import hardware_from_text, locator_from_text, suggestion, uncertainty_from_text
from registry.validate.runner import validate
from tests.conftest import RESULT_33

SEED_LOCATOR = ("Section 3.3 'ZeRO offload' paragraph (page 6): 'the NT 2.5B checkpoint (33.88 \u2192 11.49 GB)'; "
                "stage + DeepSpeed (FlashAttention, checkpointing and ZeRO Stage-2 CPU offload) of Figure 3")


@pytest.mark.parametrize("text", [
    SEED_LOCATOR,
    "Section 2.2 'Models'; Section 2.3; Section 2.4",
    "Table 2 (page 4): '0.681 \u00b1 0.019'",
    "Figure 2 (page 3)",
])
def test_an_old_locator_becomes_a_typed_one_that_reads_the_same(text: str) -> None:
    assert Locator.model_validate(locator_from_text(text)).text == text


def test_old_locator_grammar_variants() -> None:
    assert locator_from_text("Section 1 (p. 2): \u2018curly quoted text\u2019.") == {
        "section": "Section 1", "page": 2, "quote": "curly quoted text", "note": "."}  # the full stop stays a note
    assert locator_from_text("(Page 5): 'a quote folded\n  across YAML lines'") == {
        "page": 5, "quote": "a quote folded across YAML lines"}


@pytest.mark.parametrize(("text", "expected"), [
    ("\u00b1 0.019 (standard deviation over 10 folds)",
     {"kind": "standard-deviation", "printed": "\u00b1 0.019", "half_width": "0.019",
      "over": {"kind": "folds", "count": 10}}),
    ("95% CI [0.66, 0.70]", {"kind": "confidence-interval", "printed": "[0.66, 0.70]", "lower": "0.66",
                             "upper": "0.70", "level": "95"}),
    ("\u00b1 0.004 s.e.m. over 5 seeds", {"kind": "standard-error", "printed": "\u00b1 0.004", "half_width": "0.004",
                                         "over": {"kind": "seeds", "count": 5}}),
    ("varies a lot", {"kind": "other", "printed": "varies a lot", "note": "varies a lot"}),
])
def test_an_old_uncertainty_becomes_a_typed_one(text: str, expected: dict[str, object]) -> None:
    assert uncertainty_from_text(text) == expected


def test_an_old_hardware_description_becomes_entries() -> None:
    entries = hardware_from_text("NVIDIA H100 (section 2.4); 'H100 94GB GPUs' (section 4)")
    assert [(e["stated"], e.get("verbatim", False), e["location"]) for e in entries] == [
        ("NVIDIA H100", False, "section 2.4"), ("H100 94GB GPUs", True, "section 4")]


def test_a_suggestion_is_one_line_of_yaml_that_loads() -> None:
    line = suggestion("result", "source_locator", SEED_LOCATOR)
    assert line is not None and "\n" not in line
    assert Locator.model_validate(yaml.safe_load(line)["source_locator"]).text == SEED_LOCATOR
    assert suggestion("result", "metric", "x") is None


def test_an_old_shape_record_is_told_what_to_write(records_dir: Path) -> None:
    result = records_dir / "result" / f"{RESULT_33}.yaml"
    text = result.read_text()
    text = re.sub(r"(?m)^source_locator:\n(?:  .*\n)+", f'source_locator: "{SEED_LOCATOR}"\n', text)
    text = re.sub(r"(?m)^hardware:\n(?:[- ] .*\n)+",
                  "hardware:\n  description: NVIDIA H100 (section 2.4); 'H100 94GB GPUs' (section 4)\n", text)
    text = text.replace("missing_metadata:\n- field: uncertainty\n  reason: unreported\n",
                        "uncertainty: \u00b1 0.019 (standard deviation over 10 folds)\n")
    result.write_text(text)
    _, report = validate(records_dir)
    messages = {i.field: i.message for i in report.errors}
    assert set(messages) == {"source_locator", "hardware", "uncertainty"}, messages
    for field, message in messages.items():
        assert f"{field!r} is typed now, and this is the old free-text shape; write instead" in message
        new = yaml.safe_load(message.split("against the source): ", 1)[1])
        assert field in new
    assert "page: 6" in messages["source_locator"] and "half_width: \"0.019\"" in messages["uncertainty"]


@pytest.mark.parametrize("text", ["not reported", "Not reported by the source", "N/A", "unreported", "none", "\u2014"])
def test_an_old_text_that_says_none_was_given_becomes_a_gap_not_a_value(text: str) -> None:
    """A typed uncertainty of kind 'other' reading 'not reported' would claim the source printed one."""
    from registry.store.migrate import gives_none, missing_instead

    assert gives_none(text)
    assert missing_instead("uncertainty", text) == (
        f'missing_metadata: [{{field: "uncertainty", reason: "unreported", note: "{text}"}}]')


@pytest.mark.parametrize("text", ["\u00b1 0.019", "varies a lot", "not reported for 3 of 10 seeds", "nonexistent"])
def test_an_old_text_with_a_value_is_not_a_gap(text: str) -> None:
    from registry.store.migrate import gives_none

    assert not gives_none(text)


def test_a_confidence_interval_without_its_level_gets_no_invented_level() -> None:
    assert uncertainty_from_text("CI [0.66, 0.70]")["level"] == "<the level the source gives, in percent>"


def test_an_old_not_reported_uncertainty_is_told_to_list_the_gap(records_dir: Path) -> None:
    result = records_dir / "result" / f"{RESULT_33}.yaml"
    text = result.read_text()
    gap = "missing_metadata:\n- field: uncertainty\n  reason: unreported\n"
    assert gap in text
    result.write_text(text.replace(gap, "uncertainty: not reported\n"))
    _, report = validate(records_dir)
    [issue] = [i for i in report.errors if i.field == "uncertainty"]
    assert issue.message.startswith("'uncertainty' is typed now, and 'not reported' says the source gives none: "
                                    "remove 'uncertainty' and list it as missing instead")
    written = yaml.safe_load(issue.message.split("has one): ", 1)[1])
    result.write_text(text.replace(gap, yaml.safe_dump(written, sort_keys=False)))  # following the advice validates
    _, report = validate(records_dir)
    assert not report.errors, report.errors
