"""One reading of printed numbers: the table of forms in ``tests/printed_forms.py`` drives every reader.

Each form has its exact value or its refusal; the same table is read by ``registry.numbers.read_number``,
by validation (value-mismatch, value-not-in-quote), by ``registry review``'s reading of a page, by
``registry import`` and by ``registry new``, so that no two of them read a number differently.
"""

from __future__ import annotations

import csv
import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from registry.checking.claims import ValueInQuote
from registry.issues import codes
from registry.numbers import parse_printed, read_bound, read_number, read_range, why_not_a_number
from registry.units import UNITS
from review.pdf.pdftext import Extraction
from tests.conftest import DATA, FIXTURE_TABLE
from tests.printed_forms import FORMS, Form

ACCEPTED = [f for f in FORMS if f.accepted]
REFUSED = [f for f in FORMS if not f.accepted]
BASE_RESULT = DATA / "fixture-registry" / "result" / "fixture-genomic-20261201-result-abstract-lora-max-mcc-cost.yaml"


def _id(form: Form) -> str:
    return f"{form.printed!a} {form.unit}"


def test_the_table_holds_sixty_forms_and_more() -> None:
    assert len({(f.printed, f.unit) for f in FORMS}) == len(FORMS) >= 60


@pytest.mark.parametrize("form", FORMS, ids=_id)
def test_the_one_reading(form: Form) -> None:
    reading = read_number(form.printed, form.unit)
    assert reading.value == form.value
    assert reading.printed == form.printed
    if form.accepted:
        assert parse_printed(form.printed, form.unit) == form.value
        assert str(parse_printed(form.printed, form.unit)) == str(form.value) or form.value is not None
    else:
        assert parse_printed(form.printed, form.unit) is None
        assert form.refusal in why_not_a_number(form.printed, form.unit)


_ADVICE = re.compile(r"write printed_value '(?P<number>[^']+)' and unit: (?P<unit>[a-z-]+)")


@pytest.mark.parametrize("form", [f for f in REFUSED if _ADVICE.search(f.refusal)], ids=_id)
def test_advice_never_changes_the_value(form: Form) -> None:
    """Following the advice files the quantity the page prints: the number read in the advised unit is the
    value read in the result's unit, both taken to their base unit (never '3.2' for '3.2 × 10−4')."""
    advice = _ADVICE.search(why_not_a_number(form.printed, form.unit))
    assert advice is not None
    advised = parse_printed(advice["number"])
    assert advised is not None
    bound = read_bound(form.printed)
    whole = read_number(bound[1] if bound else form.printed, advice["unit"]).value  # a bound's number, if one
    assert whole is not None and advised == whole  # the number alone reads as the page's number in that unit
    if form.value is not None:
        own, meant = UNITS[form.unit], UNITS[advice["unit"]]
        if own.dimension is meant.dimension and own.scale is not None and meant.scale is not None:
            assert advised * meant.scale == form.value * own.scale


# -- validation ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def validated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[str, str]]]:
    """The fixture registry with one result per form, validated once: each form's issues, as (code, message)."""
    from registry.validate.runner import validate

    root = tmp_path_factory.mktemp("forms") / "records"
    shutil.copytree(DATA / "fixture-registry", root)
    base = _point_value(yaml.safe_load(BASE_RESULT.read_text(encoding="utf-8")))
    ids = {}
    for number, form in enumerate(FORMS):
        record = dict(base, id=f"fixture-genomic-20261201-result-form-{number}", unit=form.unit,
                      printed_value=form.printed, numeric_value=str(form.value if form.value is not None else 0))
        record["source_locator"] = dict(base["source_locator"], quote=f"We measured {form.on_page} in all runs.")
        (root / "result" / f"{record['id']}.yaml").write_text(yaml.safe_dump(record, allow_unicode=True),
                                                             encoding="utf-8")
        ids[record["id"]] = form
    _, report = validate(root, cache=False)
    found: dict[str, list[tuple[str, str]]] = {form.printed + form.unit: [] for form in FORMS}
    for issue in report.issues:
        if issue.record_id in ids:
            form = ids[issue.record_id]
            found[form.printed + form.unit].append((issue.code, issue.message))
    return found


def _point_value(record: dict[str, object]) -> dict[str, object]:
    """The base record as a point value: its own bound ('at most') is not the forms'."""
    record.pop("bound", None)
    return record


def _codes(issues: list[tuple[str, str]]) -> set[str]:
    return {code for code, _ in issues}


@pytest.mark.parametrize("form", FORMS, ids=_id)
def test_validation_reads_the_form(form: Form, validated: dict[str, list[tuple[str, str]]]) -> None:
    issues = validated[form.printed + form.unit]
    if form.accepted:
        assert not _codes(issues) & {codes.VALUE_MISMATCH.code, codes.VALUE_NOT_IN_QUOTE.code}, issues
    else:
        mismatch = [message for code, message in issues if code == codes.VALUE_MISMATCH.code]
        assert mismatch and form.refusal in mismatch[0], issues


def test_validation_warns_on_a_dropped_power_of_ten(tmp_path: Path) -> None:
    from registry.validate.runner import validate

    root = tmp_path / "records"
    shutil.copytree(DATA / "fixture-registry", root)
    record = _point_value(yaml.safe_load(BASE_RESULT.read_text(encoding="utf-8")))
    record.update(id="fixture-genomic-20261201-result-form-dropped", unit="kilowatt-hour", printed_value="3.2",
                  numeric_value="3.2")
    record["source_locator"]["quote"] = "The run used 3.2 \u00d7 10\u22124 kWh per sample."
    (root / "result" / f"{record['id']}.yaml").write_text(yaml.safe_dump(record, allow_unicode=True), encoding="utf-8")
    _, report = validate(root, cache=False)
    messages = [i.message for i in report.issues if i.code == codes.VALUE_NOT_IN_QUOTE.code]
    assert messages == ["printed value '3.2' is not in its quote 'The run used 3.2 \u00d7 10\u22124 kWh per sample.', "
                        "which prints 3.2 \u00d7 10\u22124; one of the two is mistyped"]


# -- registry review's reading of a page ------------------------------------------------------------------


def _review(value: str, page: str) -> tuple[bool, str, str]:
    sentence = f"We measured {page} in all runs."
    claim = ValueInQuote("fixture-genomic-20261201-result-form", "printed value", 1, sentence, value)
    assertion = claim.check(Extraction(pages=(f"Results. {sentence} Then we stopped.",), extractor="test"))
    return assertion.passed, assertion.matched, assertion.detail


@pytest.mark.parametrize("form", ACCEPTED, ids=_id)
def test_review_reads_the_form_on_the_page(form: Form) -> None:
    passed, matched, detail = _review(form.printed, form.on_page)
    assert passed is form.reviewable, detail
    if passed:  # what it matched reads as the value, unless a flattened power ('2−6') reads as no one number alone
        assert read_number(matched, form.unit).value in (form.value, None)


@pytest.mark.parametrize("form", [f for f in REFUSED if f.value is not None], ids=_id)
def test_review_finds_the_number_printed_with_its_unit_or_mark(form: Form) -> None:
    """The advised printed value is found where the page prints it with its %, suffix, mark or full stop; a
    superscript footnote mark is flattened into the digits by the text, so that one cannot be told apart and
    fails (it never passes a wrong value)."""
    number = read_number(form.printed, form.unit).number
    passed, _, _ = _review(number, form.printed)
    assert passed is (read_number(form.printed).mark not in ("\u00b9",))


def test_review_fails_a_dropped_power_of_ten_or_a_flipped_exponent() -> None:
    assert _review("3.2", "3.2 \u00d7 10\u22124 kWh")[0] is False
    assert _review("3.2 \u00d7 10^4", "3.2 \u00d7 10\u22124 kWh")[0] is False
    assert _review("3.2 \u00d7 10^-4", "3.2 \u00d7 10\u22125 kWh")[0] is False
    assert _review("1.5e-3", "1.5e-30")[0] is False


# -- registry import and registry new ---------------------------------------------------------------------


def _table(path: Path, forms: list[Form]) -> Path:
    with open(FIXTURE_TABLE, newline="", encoding="utf-8") as handle:
        first = next(csv.DictReader(handle))
    rows = [dict(first, dataset=f"Form {number}", value=form.printed, unit=form.unit, uncertainty="",
                 uncertainty_kind="", uncertainty_over="", quote=f"We measured {form.on_page} in all runs.")
            for number, form in enumerate(forms)]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(first), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_import_reads_every_accepted_form(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from registry.models import Result
    from registry.validate.runner import validate

    result = cli("import", _table(tmp_path / "forms.csv", ACCEPTED), "--source", "genomic-benchmarks-fixture",
                 "--records", demo)
    assert result.exit_code == 0, result.output
    registry, _ = validate(demo)
    filed = {r.printed_value: r.numeric_value for r in registry.of_kind(Result)}
    assert filed == {f.printed: f.value for f in ACCEPTED}


#: A table has no column for a bound's sign: a value cell of a bound and its number ('< 0.001') is filed as one.
BOUNDS = [f for f in REFUSED if (b := read_bound(f.printed)) is not None and parse_printed(b[1]) is not None]


def test_import_files_a_bound_with_its_sign(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from registry.models import Result
    from registry.validate.runner import validate

    assert BOUNDS
    result = cli("import", _table(tmp_path / "forms.csv", BOUNDS), "--source", "genomic-benchmarks-fixture",
                 "--records", demo)
    assert result.exit_code == 0, result.output
    registry, _ = validate(demo)
    filed = sorted(r.as_printed for r in registry.of_kind(Result))
    assert filed == sorted(f"{read_bound(f.printed)[0]} {read_bound(f.printed)[1]}" for f in BOUNDS)  # type: ignore[index]


#: A value cell of a range of two plain numbers ('12-15') is filed as a range: its lower end the value.
RANGES = [f for f in REFUSED if read_range(f.printed) is not None]


def test_import_files_a_range_with_both_ends(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from registry.models import Result
    from registry.validate.runner import validate

    assert RANGES and not [f for f in RANGES if f.unit == "gigabyte" and "GB" in f.printed]  # a unit cell is refused
    result = cli("import", _table(tmp_path / "forms.csv", RANGES), "--source", "genomic-benchmarks-fixture",
                 "--records", demo)
    assert result.exit_code == 0, result.output
    registry, _ = validate(demo)
    filed = sorted((r.as_printed, r.numeric_value, r.range_upper.numeric_value) for r in registry.of_kind(Result)
                   if r.range_upper is not None)
    assert filed == sorted((f"{lower}\u2013{upper}", Decimal(lower.replace("\u2212", "-")),
                            Decimal(upper.replace("\u2212", "-"))) for lower, upper in map(read_range, (f.printed for f in RANGES)))


def test_import_refuses_every_refused_form_with_its_advice(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    refused = [f for f in REFUSED if f not in BOUNDS and f not in RANGES]
    result = cli("import", _table(tmp_path / "forms.csv", refused), "--source", "genomic-benchmarks-fixture",
                 "--records", demo)
    assert result.exit_code == 1
    output = " ".join(result.output.split())
    for number, form in enumerate(refused, start=2):
        assert f"row {number}, column 'value': {form.printed!r}" in output, form
        assert " ".join(form.refusal.split()) in output, form
    assert not (demo / "result").exists()


@pytest.mark.parametrize("form", FORMS, ids=_id)
def test_new_reads_the_form(form: Form) -> None:
    from registry.curate.new import _result_exact_value

    data: dict[str, object] = {"printed_value": form.printed, "unit": form.unit}
    problems: list[tuple[str, str]] = []
    _result_exact_value(None, data, problems)  # type: ignore[arg-type]
    if form.accepted:
        assert not problems and Decimal(str(data["numeric_value"])) == form.value
    else:
        assert "numeric_value" not in data and problems[0][0] == "printed_value" and form.refusal in problems[0][1]
