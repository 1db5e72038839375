"""The stable-id grammar: one pattern, names its kind, can never leave the records folder."""

from __future__ import annotations

import pytest

from registry.ids import a_kind, slugify
from registry.models import parse_id

GOOD = [
    ("saadat-fellay-20261015-result-nt-2-5b-training-peak-memory-flashattention-checkpointing-zero2", "result"),
    ("saadat-fellay-20261015-config-nt-2-5b-training-flashattention-checkpointing", "config"),
    ("doe-20250101-source-a", "source"),
    ("x-20260101-release-2026-10-22-1b7cf027e4f6", "release"),
]
BAD = [
    "../../etc/passwd",
    "saadat-fellay-20261015-result-../x",
    "saadat-fellay-20261015-result-a/b",
    "Saadat-fellay-20261015-result-x",
    "saadat-fellay-20261015-results-x",
    "saadat-fellay-2026101-result-x",
    "saadat--fellay-20261015-result-x",
    "saadat-fellay-20261015-result-x-",
    "saadat-fellay-20261015-result-x.yaml",
    "saadat-fellay-20261015-result-",
    "saadat fellay-20261015-result-x",
    "",
    "a-20260101-result-" + "x" * 200,
    "saadat-fellay-20261015-result-x\n",
]


@pytest.mark.parametrize(("value", "kind"), GOOD)
def test_good_ids_parse_and_name_their_kind(value: str, kind: str) -> None:
    parsed = parse_id(value)
    assert parsed.kind == kind and str(parsed) == value


@pytest.mark.parametrize("value", BAD)
def test_bad_ids_are_refused_with_a_reason(value: str) -> None:
    with pytest.raises(ValueError, match="not a stable id|limit is 200"):
        parse_id(value)


def test_slugify() -> None:
    assert slugify("NT 2.5B, training (FlashAttention)") == "nt-2-5b-training-flashattention"


@pytest.mark.parametrize(("kind", "phrase"), [("result", "a result"), ("evaluation", "an evaluation"),
                                               ("'evidence'", "an 'evidence'"), ("family or source", "a family or source")])
def test_a_kind_with_its_article(kind: str, phrase: str) -> None:
    assert a_kind(kind) == phrase
