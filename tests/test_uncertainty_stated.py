"""Where the kind and count of an uncertainty are stated: ``Uncertainty.stated_at`` and the review reading it there.

A value printed with its ± in a sentence, whose kind and count the source states elsewhere (a caption on the
page, another page, a header such as '[N=1000]'), is checked where the record says it is stated; kind 'other'
passes on the value alone and says so.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from registry.checking.uncertainty import UncertaintyStated
from registry.models.values import Uncertainty, UncertaintyKind
from review.pdf.pdftext import Extraction
from tests.conftest import DATA

FIXTURE_PDF = DATA / "papers" / "genomic-benchmarks-fixture" / "paper.pdf"
STATED = DATA / "uncertainty-stated" / "result" / "fixture-genomic-20261201-result-text-nt-2-5b-h3k4me3.yaml"
RESULT = STATED.stem


@pytest.fixture
def registry_with_text_result(tmp_path: Path) -> Path:
    """The fixture registry and a result filed from a sentence that prints a ± but not what it is."""
    records = tmp_path / "records"
    shutil.copytree(DATA / "fixture-registry", records)
    shutil.copy(STATED, records / "result" / STATED.name)
    return records


@pytest.mark.pdf
def test_the_valid_case_validates_and_passes_review(cli, registry_with_text_result: Path) -> None:  # type: ignore[no-untyped-def]
    assert cli("validate", "--records", registry_with_text_result).exit_code == 0
    review = cli("review", RESULT, "--pdf", FIXTURE_PDF, "--records", registry_with_text_result, "--format", "json")
    report = json.loads(review.stdout)
    stated = next(a for a in report["assertions"] if a["claim"] == "uncertainty kind")
    assert stated["passed"], stated
    assert stated["detail"] == "the quote cited on page 2 says 's.d.'"
    assert review.exit_code == 0, [a for a in report["assertions"] if not a["passed"]]


@pytest.mark.pdf
def test_without_stated_at_the_sentence_does_not_say_it(cli, registry_with_text_result: Path) -> None:  # type: ignore[no-untyped-def]
    path = registry_with_text_result / "result" / STATED.name
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  stated_at:\n    page: 2\n    quote: mean ± s.d. over 10 folds\n", ""),
                    encoding="utf-8")
    review = cli("review", RESULT, "--pdf", FIXTURE_PDF, "--records", registry_with_text_result, "--format", "json")
    assert review.exit_code == 1
    stated = next(a for a in json.loads(review.stdout)["assertions"] if a["claim"] == "uncertainty kind")
    assert not stated["passed"]
    assert "no words for standard-deviation" in stated["detail"]
    assert "cite that place as the uncertainty's stated_at (page and quote)" in stated["detail"]


@pytest.mark.pdf
def test_words_not_on_the_cited_page_fail(cli, registry_with_text_result: Path) -> None:  # type: ignore[no-untyped-def]
    path = registry_with_text_result / "result" / STATED.name
    path.write_text(path.read_text(encoding="utf-8").replace("    page: 2\n    quote: mean", "    page: 3\n    quote: mean"),
                    encoding="utf-8")
    review = cli("review", RESULT, "--pdf", FIXTURE_PDF, "--records", registry_with_text_result, "--format", "json")
    stated = next(a for a in json.loads(review.stdout)["assertions"] if a["claim"] == "uncertainty kind")
    assert not stated["passed"] and stated["page"] == 3
    assert stated["detail"] == ("the words the record cites for what its uncertainty is, 'mean ± s.d. over 10 folds', "
                                "are not printed on page 3")


# -- the claim on its own, on pages of text ------------------------------------------------------------

PAGES = ("Table 1: Accuracy on the test set, mean ± s.d.\nOur model reaches 71.2 ± 0.3 on the test set.",
         "Appendix. Scores are bootstrapped [N=1000] over test items.")


def _claim(**changes: object) -> UncertaintyStated:
    fields: dict[str, object] = {"page": 1, "kind": UncertaintyKind.STANDARD_DEVIATION, "level": None,
                                 "over": (1000, "samples"), "quote": "Our model reaches 71.2 ± 0.3"}
    fields.update(changes)
    return UncertaintyStated("r", "uncertainty kind", **fields)  # type: ignore[arg-type]


def test_a_count_in_a_header_elsewhere_completes_the_kind_near_the_value() -> None:
    doc = Extraction(pages=PAGES, extractor="test")
    assert not _claim().check(doc).passed  # the caption says s.d., nothing near the value says 1000
    passed = _claim(stated_at=(2, "[N=1000]")).check(doc)
    assert passed.passed, passed.detail
    assert passed.detail == "the quoted text and the sentence it comes from says 's.d.', and the quote cited on page " \
        "2 gives the rest"


def test_a_cited_place_that_names_another_kind_fails() -> None:
    doc = Extraction(pages=(PAGES[0], "Each ± is the standard error over [N=1000] items."), extractor="test")
    failed = _claim(stated_at=(2, "standard error over [N=1000] items")).check(doc)
    assert not failed.passed
    assert "the quote cited on page 2 says 'standard error' (standard-error), not standard-deviation" in failed.detail


def test_a_cited_page_past_the_end_fails() -> None:
    failed = _claim(stated_at=(7, "[N=1000]")).check(Extraction(pages=PAGES, extractor="test"))
    assert not failed.passed and "page 7 does not exist: the PDF has 2 pages" in failed.detail


def test_kind_other_passes_on_the_value_alone_and_says_so() -> None:
    passed = _claim(kind=UncertaintyKind.OTHER, over=None, note="half the spread of two runs").check(
        Extraction(pages=PAGES, extractor="test"))
    assert passed.passed
    assert passed.detail == ("kind 'other' (half the spread of two runs): the registry has no words for it to find on "
                             "the page, so it passes on the printed value and its uncertainty alone")


# -- the model ----------------------------------------------------------------------------------------


def test_stated_at_reads_as_the_pages_show_it() -> None:
    uncertainty = Uncertainty.model_validate({"kind": "standard-deviation", "printed": "± 0.3", "half_width": "0.3",
                                              "over": {"kind": "samples", "count": 1000},
                                              "stated_at": {"page": 4, "quote": "[N=1000]"}})
    assert uncertainty.text == "± 0.3 (standard deviation over 1,000 samples, as stated in '[N=1000]' (page 4))"


@pytest.mark.parametrize(("stated_at", "message"), [
    ({"page": 0, "quote": "[N=1000]"}, "greater than 0"),
    ({"page": 2}, "Field required"),
    ({"quote": "[N=1000]", "line": 3}, "Extra inputs are not permitted"),
])
def test_a_bad_stated_at_is_refused(stated_at: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Uncertainty.model_validate({"kind": "standard-deviation", "printed": "± 0.3", "half_width": "0.3",
                                    "stated_at": stated_at})


def test_kind_other_takes_no_stated_at() -> None:
    with pytest.raises(ValidationError, match="an uncertainty of kind 'other' is checked on its value alone"):
        Uncertainty.model_validate({"kind": "other", "printed": "± 0.3", "half_width": "0.3", "note": "a spread",
                                    "stated_at": {"quote": "spread"}})
