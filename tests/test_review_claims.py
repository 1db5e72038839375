"""Claims from records, quote matching across typesetting, and each claim against generated PDFs."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import pytest

from registry.checking.claims import Citation, UnitWithValue, ValueInQuote, declared_unit, parse_locator
from registry.checking.review import ReviewRun, plan_review, run_review
from registry.errors import RegistryError
from registry.validate.runner import validate
from review.errors import NotCheckableError, PdfError
from review.pdf.pdftext import Extraction, extract_pdf, find_text, normalize_quote, number_pattern, unit_pattern
from tests.conftest import CONFIG_33, RESULT_11, RESULT_33, SOURCE
from tests.test_review_support import (
    HEADING,
    QUOTE,
    build_pdf,
    corrupt,
    encrypted,
    fresh_records,
    needs_unicode_font,
    pin,
    source_like_pdf,
    truncated,
)

pytestmark = pytest.mark.pdf  # reads or renders PDFs (pdflatex, pdftotext, PDFium): left out of make test-fast

LOCATOR_11 = (
    "Section 3.3 'ZeRO offload' paragraph (page 6): 'the NT 2.5B checkpoint (33.88 \u2192 11.49 GB)'; "
    "stage + DeepSpeed (FlashAttention, checkpointing and ZeRO Stage-2 CPU offload) of Figure 3"
)


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests pass the PDF or fail before fetching; a download attempt is a bug."""
    import review.pdf.fetch

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the test tried to download")

    monkeypatch.setattr(review.pdf.fetch, "download_pdf", refuse)


# -- what a locator cites -----------------------------------------------------------------------------

def test_a_typed_locator_cites_its_page_and_quote() -> None:
    from registry.models.values import Locator

    located = Locator(section="Section 3.3 'ZeRO offload' paragraph", page=6, quote="the NT 2.5B checkpoint\n"
                      "  (33.88 \u2192 11.49 GB)", note="stage + DeepSpeed of Figure 3")
    assert parse_locator(located) == [Citation(6, QUOTE)]
    assert parse_locator(Locator(table="Table 2", page=4, quote="33.88")) == [Citation(4, "33.88")]


@pytest.mark.parametrize(("where", "message"), [
    ({"section": "Section 2.2 'Models'; Section 2.3; Section 2.4"}, "names no page"),
    ({"section": "Section 3.3 'ZeRO offload' paragraph", "page": 6, "note": "Figure 3"},
     "cites page 6 but quotes no text"),
    ({}, "names no page"),
])
def test_locator_without_page_or_quote_cannot_be_checked(where: dict[str, object], message: str) -> None:
    from registry.models.values import Locator

    with pytest.raises(NotCheckableError, match=message) as caught:
        parse_locator(Locator.model_validate(where), "some-record")
    assert "some-record" in caught.value.message and "'page: N' and 'quote: <quoted text>'" in (caught.value.hint or "")


# -- matching across typesetting ---------------------------------------------------------------------

@pytest.mark.parametrize(("page", "quote", "how"), [
    ("x the NT 2.5B checkpoint (33.88 \u2192 11.49 GB) y", QUOTE, "verbatim"),
    ("the NT 2.5B\ncheckpoint (33.88 \u2192 11.49 GB)", QUOTE, "line break read as a space"),
    ("the NT 2.5B check-\npoint (33.88 \u2192 11.49 GB)", QUOTE, "hyphenation at a line end joined"),
    ("with ZeRO Stage-\n2 offload", "ZeRO Stage-2 offload", "hyphen at a line end kept"),
    ("a more e\ufb03cient \ufb01t, \ufb02at", "a more efficient fit, flat", "ligature '\ufb03' read as 'ffi'"),
    ("the NT 2.5B checkpoint (33.88 -> 11.49 GB)", QUOTE, "'->' read as '\u2192'"),
    ("the NT 2.5B checkpoint (33.88 \u2192 11.49 GB)", "the NT 2.5B checkpoint (33.88 -> 11.49 GB)",
     "in the quote, '->' read as '\u2192'"),
    ("a change of \u22121.2 points", "a change of -1.2 points", "minus sign '\u2212' read as '-'"),
    ("the NT\u00a02.5B model", "the NT 2.5B model", "non-breaking or special space"),
    ("the NT\u20092.5B model", "the NT 2.5B model", "non-breaking or special space"),
    ("the \u2018ZeRO offload\u2019 paragraph", "the 'ZeRO offload' paragraph", "curly quote read as straight"),
    ("theNT2.5Bcheckpoint (33.88\u219211.49GB)", QUOTE, "spaces ignored"),
    ("the NT 2.5B check\u00adpoint (33.88 \u2192 11.49 GB)", QUOTE, "hyphenation at a line end joined"),
])
def test_quotes_match_across_typesetting(page: str, quote: str, how: str) -> None:
    match = find_text(page, quote)
    assert match is not None
    assert how in match.how_text
    assert normalize_quote(quote).replace(" ", "") in match.normalized.replace(" ", "")


@pytest.mark.parametrize(("page", "quote"), [
    ("the NT 2.5B checkpoint (33.89 \u2192 11.49 GB)", QUOTE),  # one digit changed
    ("the NT 2.5B checkpoint (33.88 \u2192 11.48 GB)", QUOTE),
    ("the NT 2.5B check-point (33.88 \u2192 11.49 GB)", QUOTE),  # a hyphen inside a line is real
    ("with ZeRO Stage-\n2 offload", "ZeRO Stage 2 offload"),
    ("the NT 2.5B checkpoint (33.88 \u2190 11.49 GB)", QUOTE),  # another arrow
    ("nothing here", "   "),
])
def test_quotes_do_not_match_other_text(page: str, quote: str) -> None:
    assert find_text(page, quote) is None


@pytest.mark.parametrize(("value", "text", "found"), [
    ("33.88", "(33.88 \u2192 11.49 GB)", True),
    ("33.88", "133.88 GB", False),
    ("33.88", "33.881 GB", False),
    ("33.88", "33.88.", True),
    ("11.49", "11.49GB", True),
    ("-1.2", "a change of \u22121.2", True),
    ("2.5", "NT 2.5B", True),
    # the sign is part of the token: a dropped or added minus sign is another number
    ("33.88", "(\u221233.88 \u2192 11.49 GB)", False),
    ("33.88", "(-33.88 GB)", False),
    ("33.88", "a change of -33.88", False),
    ("33.88", "-33.88", False),
    ("33.88", "a change of \u201333.88", False),
    ("-33.88", "(33.88 \u2192 11.49 GB)", False),
    ("-33.88", "33.88", False),
    ("\u221233.88", "a change of 33.88", False),
    ("-33.88", "(\u221233.88 GB)", True),
    ("\u221233.88", "(-33.88 GB)", True),
    ("-33.88", "a change of \u201333.88", True),
    ("-33.88", "-33.88", True),
    # a hyphen after a letter or a digit is no sign
    ("2", "ZeRO Stage-2 offload", True),
    ("-2", "ZeRO Stage-2 offload", False),
    ("20", "10-20 GB", True),
    ("-20", "10-20 GB", False),
])
def test_printed_values_are_tokens(value: str, text: str, found: bool) -> None:
    assert bool(number_pattern(value).search(normalize_quote(text))) is found


@pytest.mark.parametrize(("page", "quote", "value", "found"), [
    ("the checkpoint (\u221233.88 \u2192 11.49 GB)", "33.88 \u2192 11.49 GB", "33.88", None),
    ("the checkpoint (-33.88 \u2192 11.49 GB)", "33.88 \u2192 11.49 GB", "33.88", None),
    ("the checkpoint (33.881 GB)", "the checkpoint (33.88", "33.88", None),
    ("the checkpoint (33.88 \u2192 11.49 GB)", "33.88 \u2192 11.49 GB", "33.88", "33.88"),
    ("the checkpoint (\u221233.88 \u2192 11.49 GB)", "(\u221233.88 \u2192 11.49 GB)", "-33.88", "-33.88"),
])
def test_a_value_cut_by_the_quote_is_read_whole(page: str, quote: str, value: str, found: str | None) -> None:
    """The quote can start or stop inside a number; the page around it decides which number it is."""
    match = find_text(page, quote)
    assert match is not None
    hit = match.search(number_pattern(value))
    assert (hit.group() if hit else None) == found


@pytest.mark.parametrize(("symbol", "text", "found"), [
    ("GB", "11.49 GB)", True), ("GB", "11.49 GiB", False), ("GB", "11.49GB", True), ("GB", "GBs", False),
    ("%", "12.5%", True), ("M", "Params (M)", True), ("M", "NT 500M", False), ("B", "NT 2.5B", False),
    ("ms", "17.4ms", True),
])
def test_units_are_tokens(symbol: str, text: str, found: bool) -> None:
    """On its own, a one-letter symbol after a digit is part of a name ('NT 500M'), not a unit."""
    assert bool(unit_pattern(symbol).search(text)) is found


def test_a_one_letter_unit_right_after_its_value_is_read() -> None:
    claim = UnitWithValue("some-result", "unit", 1, "a 2.5B model", "2.5", "billion", ("B",))
    got = claim.check(Extraction(pages=("We train a 2.5B model.",), extractor="test"))
    assert got.passed and got.matched == "2.5B", got.detail


# -- claims come from the records -----------------------------------------------------------------

def test_claims_of_a_result_come_from_its_fields(tmp_path: Path) -> None:
    registry, _ = validate(fresh_records(tmp_path))
    plan = plan_review(registry, RESULT_11)
    assert plan.subjects == [RESULT_11]
    claims = {(c.record_id, c.claim) for c in plan.claims}
    assert claims == {
        (SOURCE, "page count"), (SOURCE, "heading"), (SOURCE, "creation date"),
        (RESULT_11, "page"), (RESULT_11, "quote"), (RESULT_11, "printed value"), (RESULT_11, "unit"),
        (RESULT_11, "model label"), (RESULT_11, "model label (config)"),
    }


def test_a_source_checks_every_record_that_quotes_it(tmp_path: Path) -> None:
    registry, _ = validate(fresh_records(tmp_path))
    plan = plan_review(registry, SOURCE)
    evidence = RESULT_11.replace("-result-", "-evidence-result-") + "-reported-result"
    assert plan.subjects == [SOURCE, RESULT_33, RESULT_11, evidence]
    assert CONFIG_33 in dict(plan.skipped)
    assert "names no page" in dict(plan.skipped)[CONFIG_33]


@pytest.mark.parametrize("record_id", [CONFIG_33, "saadat-fellay-20261015-family-nucleotide-transformer"])
def test_records_without_a_quote_cannot_be_checked(tmp_path: Path, record_id: str) -> None:
    registry, _ = validate(fresh_records(tmp_path))
    with pytest.raises(NotCheckableError, match="cannot check"):
        plan_review(registry, record_id)


# -- against generated PDFs -------------------------------------------------------------------------

def _run(tmp_path: Path, pdf: Path, record_id: str = RESULT_11, records: Path | None = None,
         invalid: frozenset[str] = frozenset()) -> ReviewRun:
    """The review of ``record_id``; the registry must be valid but for issues of the ``invalid`` codes."""
    records = records or fresh_records(tmp_path)
    pin(records, pdf)
    registry, report = validate(records)
    assert {i.code for i in report.errors} == invalid, [i.message for i in report.errors]
    return run_review(registry, record_id, pdf=pdf, cache_dir=tmp_path / "cache")


def _failed(run: ReviewRun) -> dict[tuple[str, str], str]:
    return {(a.record_id, a.claim): a.detail for a in run.failures}


def test_the_source_like_pdf_passes(tmp_path: Path) -> None:
    run = _run(tmp_path, source_like_pdf(tmp_path / "paper.pdf"), SOURCE)
    assert run.passed, _failed(run)
    assert len({a.record_id for a in run.assertions}) == 4
    quote = next(a for a in run.assertions if a.record_id == RESULT_33 and a.claim == "quote")
    assert quote.page == 6 and "check-\u23cepoint" in quote.matched
    assert "hyphenation at a line end joined" in quote.detail


def test_unicode_typesetting_in_a_real_pdf(tmp_path: Path) -> None:
    font = needs_unicode_font()
    pdf = source_like_pdf(tmp_path / "paper.pdf", font=font)
    text = extract_pdf(pdf).pages[5]
    assert "\u2192" in text and "\ufb03" in text and "\u2212" in text and "\u00a0" in text
    run = _run(tmp_path, pdf)
    assert run.passed, _failed(run)
    quote = next(a for a in run.assertions if a.claim == "quote")
    assert "non-breaking or special space" in quote.detail and "hyphenation at a line end joined" in quote.detail
    for typed, how in (("less efficient", "ligature"), ("-1.2 samples", "minus sign"),
                       ("ZeRO Stage-2 offload", "hyphen at a line end kept")):
        match = find_text(text, typed)
        assert match is not None and how in match.how_text, typed


def test_an_ascii_arrow_reads_as_the_unicode_arrow(tmp_path: Path) -> None:
    run = _run(tmp_path, source_like_pdf(tmp_path / "paper.pdf", font=None))
    assert run.passed, _failed(run)
    quote = next(a for a in run.assertions if a.claim == "quote")
    assert "->" in quote.matched and "'->' read as '\u2192'" in quote.detail


def test_a_changed_digit_fails_naming_the_claims(tmp_path: Path) -> None:
    pdf = source_like_pdf(tmp_path / "paper.pdf", value="33.89")
    run33 = _run(tmp_path, pdf, RESULT_33)
    failed = _failed(run33)
    assert set(failed) == {(RESULT_33, "quote"), (RESULT_33, "printed value")}
    unit = next(a for a in run33.assertions if a.claim == "unit")  # no value, no unit read: no witness of another
    assert unit.outcome == "cannot check" and "so its unit cannot be read" in unit.detail, unit.detail
    assert "not printed on page 6" in failed[(RESULT_33, "quote")]
    assert "closest text on page 6: 'the NT 2.5B checkpoint (33.89" in failed[(RESULT_33, "quote")]
    assert "'33.88' is not printed on page 6" in failed[(RESULT_33, "printed value")]
    registry, _ = validate(tmp_path / "records")
    run11 = run_review(registry, RESULT_11, pdf=pdf, cache_dir=tmp_path / "cache")
    assert "'11.49' is printed on page 6, but the quoted text is not" in _failed(run11)[(RESULT_11, "printed value")]


def test_the_quote_on_the_wrong_page_fails(tmp_path: Path) -> None:
    run = _run(tmp_path, source_like_pdf(tmp_path / "paper.pdf", page=7))
    failed = _failed(run)
    assert "it is printed on page 7 instead" in failed[(RESULT_11, "quote")]
    assert "(it is printed on page 7)" in failed[(RESULT_11, "printed value")]
    assert (RESULT_11, "model label") in failed and (RESULT_11, "page") not in failed


def test_a_page_past_the_end_fails(tmp_path: Path) -> None:
    """A page beyond the source's page_count is refused by validation already (locator-page-out-of-range); one
    within a page_count that the PDF itself does not bear out is found against the PDF."""
    records = fresh_records(tmp_path)
    path = records / "result" / f"{RESULT_11}.yaml"
    path.write_text(path.read_text().replace("\n  page: 6\n", "\n  page: 12\n"))
    source = next((records / "source").glob("*.yaml"))
    source.write_text(source.read_text().replace("\npage_count: 11\n", "\npage_count: 12\n"))
    run = _run(tmp_path, source_like_pdf(tmp_path / "paper.pdf"), records=records)
    failed = _failed(run)
    assert failed[(RESULT_11, "page")] == "page 12 does not exist: the PDF has 11 pages"
    assert all("page 12 does not exist" in failed[(RESULT_11, claim)] for claim in ("quote", "printed value"))


def test_listed_source_checks_are_asserted(tmp_path: Path) -> None:
    records = fresh_records(tmp_path)
    path = records / "result" / f"{RESULT_11}.yaml"
    path.write_text(path.read_text().replace("  text: NT 2.5B\n", "  text: NT 500M\n"
                                             "- claim: figure-stage\n  text: ZeRO Stage-2 offload\n"
                                             "- claim: hardware\n  text: H100\n  page: 2\n"))
    run = _run(tmp_path, source_like_pdf(tmp_path / "paper.pdf"), records=records)
    failed = _failed(run)
    assert set(failed) == {(RESULT_11, "model label"), (RESULT_11, "model label (config)"), (RESULT_11, "hardware")}
    assert "but it is 'NT 2.5B'" in failed[(RESULT_11, "model label (config)")]
    assert failed[(RESULT_11, "hardware")].startswith("not printed on page 2")
    stage = next(a for a in run.assertions if a.claim == "figure stage")
    assert stage.passed and "hyphen at a line end kept" in stage.detail


def test_the_unit_must_be_the_printed_one(tmp_path: Path) -> None:
    records = fresh_records(tmp_path)
    path = records / "result" / f"{RESULT_11}.yaml"
    path.write_text(path.read_text().replace("unit_detail: Printed as GB", "unit_detail: Printed as MB"))
    failed = _failed(_run(tmp_path, source_like_pdf(tmp_path / "paper.pdf"), records=records,
                          invalid=frozenset({"unit-detail-mismatch"})))  # validation says so too, without the PDF
    # The wrong printed form fails once, on its own claim; the unit itself (gigabyte) is what the page prints.
    assert set(failed) == {(RESULT_11, "unit detail = unit")}
    assert "'MB', which is how megabyte is printed; the unit gigabyte is printed as GB" in failed[
        (RESULT_11, "unit detail = unit")]


def _edit(records: Path, record_id: str, old: str, new: str) -> None:
    path = records / "result" / f"{record_id}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("font", ["unicode", "ascii"])
def test_a_dropped_minus_sign_fails(tmp_path: Path, font: str) -> None:
    """The page prints '\u221233.88' (or '-33.88'), the record '33.88' and a quote that starts at the digits:
    the quote is on the page, but the value it prints is another number."""
    typeface = needs_unicode_font() if font == "unicode" else None
    pdf = source_like_pdf(tmp_path / "paper.pdf", value="\u221233.88", font=typeface)
    assert ("\u221233.88" if typeface else "-33.88") in extract_pdf(pdf).pages[5]
    records = fresh_records(tmp_path)
    _edit(records, RESULT_33, f"quote: {QUOTE}", "quote: 33.88 \u2192 11.49 GB")
    run = _run(tmp_path, pdf, RESULT_33, records)
    failed = _failed(run)
    assert set(failed) == {(RESULT_33, "printed value")}
    assert failed[(RESULT_33, "printed value")].startswith(
        "'33.88' is not printed on page 6 (the quoted text prints '-33.88', with a minus sign the record's value "
        "lacks; a printed value keeps the sign the source prints)")
    unit = next(a for a in run.assertions if a.claim == "unit")  # the value's failure is the witness, not the unit
    assert unit.outcome == "cannot check" and "'33.88' is not printed in the quoted text" in unit.detail
    quote = next(a for a in run.assertions if a.claim == "quote")
    assert quote.passed, "the quote alone cannot tell: it starts after the sign"


@pytest.mark.parametrize(("printed", "quote", "passed", "detail"), [
    # the record adds a sign the page does not print: its own quote (rightly) lacks it
    ("-33.88", QUOTE, False, f"the record's own quote '{QUOTE}' does not print '-33.88' (it prints '33.88', without "
                             "the minus sign the record's value has; a printed value keeps the sign the source prints)"),
    # ... or the quote starts at the digits, so the quote cannot tell
    ("-33.88", "-33.88 \u2192 11.49 GB", False, "'-33.88' is not printed on page 6"),
    ("33.88", "33.88 \u2192 11.49 GB", True, "printed as '33.88' in the quoted text"),
])
def test_an_added_minus_sign_fails(tmp_path: Path, printed: str, quote: str, passed: bool, detail: str) -> None:
    """The record says '-33.88' where the page prints '33.88'."""
    doc = extract_pdf(source_like_pdf(tmp_path / "paper.pdf"))
    got = ValueInQuote(RESULT_33, "printed value", 6, quote, printed).check(doc)
    assert got.passed is passed and got.detail.startswith(detail), got.detail


@pytest.mark.parametrize(("printed", "font"), [("-33.88", "ascii"), ("\u221233.88", "ascii"),
                                               ("-33.88", "unicode"), ("\u221233.88", "unicode")])
def test_a_minus_sign_on_both_sides_passes(tmp_path: Path, printed: str, font: str) -> None:
    """'\u2212' and '-' are the same sign, on the page and in the record."""
    typeface = needs_unicode_font() if font == "unicode" else None
    doc = extract_pdf(source_like_pdf(tmp_path / "paper.pdf", value="\u221233.88", font=typeface))
    quote = QUOTE.replace("(33.88", f"({printed}")
    value = ValueInQuote(RESULT_33, "printed value", 6, quote, printed).check(doc)
    assert value.passed and value.matched == "-33.88", value.detail
    unit = UnitWithValue(RESULT_33, "unit", 6, quote, printed, "gigabyte", ("GB",)).check(doc)
    assert unit.passed and unit.matched == "-33.88 \u2192 11.49 GB", unit.detail


#: Page 6 with the value printed without its unit, and 'GB' printed with another number further on.
UNIT_ELSEWHERE = [
    "ZeRO offload lowers the peak further for the NT 2.5B checkpoint (33.88 \u2192 11.49),",
    "at the cost of a slower step; the CPU then holds 5 GB of optimizer state.",
]


def test_a_unit_printed_elsewhere_on_the_page_is_not_printed_with_the_value(tmp_path: Path) -> None:
    """The quote prints no unit; 'GB' on the same page belongs to another number and proves nothing: 'unit not
    printed', neither a pass nor a failure."""
    pdf = build_pdf(tmp_path / "paper.pdf", {6: UNIT_ELSEWHERE})
    records = fresh_records(tmp_path)
    _edit(records, RESULT_11, f"quote: {QUOTE}", "quote: the NT 2.5B checkpoint (33.88 \u2192 11.49)")
    run = _run(tmp_path, pdf, RESULT_11, records)
    assert not _failed(run) and not run.passed, "everything but the unit is printed as the record says"
    (unit,) = [a for a in run.assertions if not a.passed]
    assert unit.claim == "unit" and unit.outcome == "unit not printed"
    assert unit.detail.startswith("unit not printed with the value: 'GB' is printed on page 6, but not with '11.49' "
                                  "nor in the citing sentence; quote the text that prints the value with its unit")


def test_a_quote_that_stops_before_the_unit_reads_it_from_the_cited_sentence(tmp_path: Path) -> None:
    records = fresh_records(tmp_path)
    _edit(records, RESULT_11, f"quote: {QUOTE}", "quote: the NT 2.5B checkpoint (33.88 \u2192 11.49")
    run = _run(tmp_path, source_like_pdf(tmp_path / "paper.pdf"), RESULT_11, records)
    assert run.passed, _failed(run)
    unit = next(a for a in run.assertions if a.claim == "unit")
    assert unit.matched == "11.49 GB"
    assert unit.detail == "'GB' printed with '11.49' on page 6 just after the quoted text, in the sentence the quote comes from"


def test_the_unit_printed_with_the_value_in_the_quote_passes(tmp_path: Path) -> None:
    run = _run(tmp_path, source_like_pdf(tmp_path / "paper.pdf"), RESULT_33)
    assert run.passed, _failed(run)
    unit = next(a for a in run.assertions if a.claim == "unit")
    assert unit.matched == "33.88 \u2192 11.49 GB" and unit.detail == "'GB' printed with '33.88' in the quoted text"


@pytest.mark.parametrize(("page", "quote", "value", "passed", "detail"), [
    ("peak 33.88 GB here", "peak 33.88 GB", "33.88", True, "'GB' printed with '33.88' in the quoted text"),
    ("peak 33.88GB here", "peak 33.88GB", "33.88", True, "in the quoted text"),
    ("from 20.1, 15.2 and 11.49 GB", "from 20.1, 15.2 and 11.49 GB", "20.1", False, "not with '20.1'"),
    ("with a batch size of 16 and 94 GB H100 GPUs", "batch size of 16", "16", False, "not with '16'"),
    ("it reaches 3 or 4 GB", "it reaches 3", "3", False, "not with '3'"),
    ("from 10\u201320 GB", "from 10\u201320 GB", "10", True, "in the quoted text"),
    ("from 33.88 to 11.49 GB", "from 33.88 to", "33.88", True, "just after the quoted text"),
    ("peak 33.88 MB here", "peak 33.88 MB", "33.88", False, "the page prints '33.88 MB' (megabyte), not GB"),
    ("peak 33.88 \u2192 11.49 MB", "peak 33.88", "33.88", False, "the page prints '33.88 \u2192 11.49 MB'"),
    ("GB used: peak 33.88 here", "GB used: peak 33.88", "33.88", True,
     "'GB' printed in the citing sentence as the unit of what it reports"),
    ("Peak memory (GB) is 33.88 here", "is 33.88", "33.88", True, "printed in the citing sentence"),
    ("peak 33.88 samples", "peak 33.88 samples", "33.88", False, "no GB (gigabyte) is printed with '33.88'"),
])
def test_the_unit_must_be_printed_with_the_value(page: str, quote: str, value: str, passed: bool,
                                                 detail: str) -> None:
    claim = UnitWithValue("some-result", "unit", 1, quote, value, "gigabyte", ("GB",))
    got = claim.check(Extraction(pages=(page,), extractor="test"))
    assert got.passed is passed and detail in got.detail, got.detail
    if not passed and "prints" not in detail:  # no other unit with the value: no witness, no failure
        assert got.outcome == "unit not printed", got.outcome
        assert got.detail.startswith(("unit not printed with the value: ", "unit not printed on the page: "))


@pytest.mark.parametrize(("text", "declared"), [
    ("Win rate (%)", "%"), ("All numbers are in percent", "percent"), ("Memory [GB]", "GB"),
    ("Mix 50%", None), ("95% confidence intervals", None), ("with 94 GB GPUs", None), ("Top-1 %", "%"),
    ("\u00b1 0.5 %", None),
])
def test_a_unit_set_after_a_number_is_that_numbers_not_the_columns(text: str, declared: str | None) -> None:
    assert declared_unit(text, ("%", "percent", "GB")) == declared


def test_the_source_record_must_describe_the_file(tmp_path: Path) -> None:
    pdf = build_pdf(tmp_path / "paper.pdf", {6: [QUOTE]}, page_count=10, heading="Under review at ICLR 2026",
                    created=dt.datetime(2025, 1, 1, tzinfo=dt.UTC))
    failed = _failed(_run(tmp_path, pdf))
    assert set(failed) == {(SOURCE, "page count"), (SOURCE, "heading"), (SOURCE, "creation date")}
    assert failed[(SOURCE, "page count")] == "the PDF has 10 pages"
    assert f"'{HEADING}'" not in failed[(SOURCE, "heading")] and "not printed on page 1" in failed[(SOURCE, "heading")]
    assert failed[(SOURCE, "creation date")] == "the PDF's CreationDate is 2025-01-01"


def test_a_creation_date_that_is_no_pdf_date_never_rejects_the_document(tmp_path: Path) -> None:
    """A publisher's pipeline wrote '12th May 2025' as the CreationDate: pypdf cannot parse it, and the document is
    still read; the source's creation date is then 'cannot check', with what the PDF states."""
    import pypdf

    from registry.checking.claims import CreationDate

    writer = pypdf.PdfWriter(clone_from=source_like_pdf(tmp_path / "good.pdf"))
    writer.add_metadata({"/CreationDate": "12th May 2025"})
    bad = tmp_path / "dated.pdf"
    with bad.open("wb") as handle:
        writer.write(handle)
    doc = extract_pdf(bad)
    assert doc.page_count == 11 and doc.creation_date is None and doc.creation_date_unread == "12th May 2025"
    got = CreationDate(SOURCE, "creation date", "2025-05-12").check(doc)
    assert got.outcome == "cannot check" and "'12th May 2025'" in got.detail


def test_the_extraction_hash_is_the_kept_text(tmp_path: Path) -> None:
    pdf = source_like_pdf(tmp_path / "paper.pdf")
    run = _run(tmp_path, pdf)
    assert run.text_path is not None and run.text_path.parent == tmp_path / "cache"
    assert hashlib.sha256(run.text_path.read_bytes()).hexdigest() == run.extraction.sha256
    assert run.text_path.read_text(encoding="utf-8").count("\f") == 10
    assert extract_pdf(pdf).sha256 == run.extraction.sha256


# -- bad files ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("make", "message"), [
    (lambda good, path: corrupt(good, path), "is a corrupt PDF"),
    (lambda good, path: truncated(good, path), "is a truncated PDF"),
    (lambda good, path: encrypted(good, path), "encrypted PDF that needs a password"),
    (lambda good, path: path.write_bytes(b"<!DOCTYPE html><html><body>Sign in</body></html>") and path,
     "is an HTML page, not a PDF"),
    (lambda good, path: path.write_bytes(b"PK\x03\x04 a zip file") and path, "is not a PDF"),
    (lambda good, path: path.write_bytes(b"") is not None and path, "is not a PDF: it is empty"),
])
def test_bad_files_give_a_clear_error(tmp_path: Path, make, message: str) -> None:  # type: ignore[no-untyped-def]
    good = source_like_pdf(tmp_path / "good.pdf")
    bad = make(good, tmp_path / "bad.pdf")
    with pytest.raises(PdfError, match=message) as caught:
        extract_pdf(bad)
    assert caught.value.hint
    with pytest.raises(RegistryError, match=message):
        _run(tmp_path, bad)


def test_a_unit_without_a_known_printed_form_says_what_to_add() -> None:
    from registry.checking.claims import _unit_claims
    from registry.models import Result
    from tests.conftest import BUNDLED_RECORDS

    registry, _ = validate(BUNDLED_RECORDS)
    result = registry.get_as(RESULT_33, Result).model_copy(update={"unit": "furlong", "unit_detail": None})
    [claim] = _unit_claims(result, Citation(6, QUOTE))
    got = claim.check(Extraction(pages=("x",), extractor="test"))
    assert not got.passed
    assert got.detail == ("no printed form of the unit 'furlong' is known, and neither unit_printed nor unit_detail "
                          "says how the page prints it: write it as printed in unit_printed (for example 'ms')")


def test_every_unit_of_the_closed_list_can_be_checked_and_shown() -> None:
    """A unit with a symbol has printed forms to check; one without (a score, a count) is printed bare."""
    from registry.units import UNITS, Unit, printed_forms

    assert {unit.value for unit in Unit} == set(UNITS)
    for token, declared in UNITS.items():
        assert bool(declared.symbol) == bool(printed_forms(token)), token


@pytest.mark.parametrize(("detail", "unit", "form"), [
    ("Printed as GB", "gigabyte", "GB"),
    ("Printed as sequences per second", "sequences-per-second", "sequences per second"),
    ("Printed as 'Sequences/s' in the column header", "sequences-per-second", "Sequences/s"),
    ("printed as ms", "millisecond", "ms"),
    (None, "gigabyte", None),
])
def test_printed_as_reads_the_whole_printed_form(detail: str | None, unit: str, form: str | None) -> None:
    from registry.units import printed_as

    assert printed_as(detail) == form
