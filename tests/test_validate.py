"""`registry validate`: every rule has an invalid record under tests/data/invalid and a test of its code and message."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from registry.issues.codes import CODES, Severity
from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, DATA, RESULT_11, RESULT_33

INVALID = DATA / "invalid"

#: case folder under tests/data/invalid -> (expected code, a fragment its message must hold, file it must name)
CASES: dict[str, tuple[str, str, str]] = {
    "review-supersedes-mismatch": ("review-supersedes-mismatch", "none of this review's subjects",
                                   "review-result-33-again.yaml:11"),
    "attestation-correction-mismatch": ("attestation-correction-mismatch", "not the attested result",
                                        "attestation-result-11-corrects.yaml:13"),
    "yaml-syntax": ("yaml-syntax", "not valid YAML", "result-broken.yaml:2"),
    "benchmark-same-external-id": ("benchmark-same-external-id", "hf_dataset 'fixture-org/random-dna' is also the "
                                   "hf_dataset of saadat-fellay-20261015-benchmark-dna-b", "benchmark-dna-a.yaml:5"),
    "dataset-benchmark-unlinked": ("dataset-benchmark-unlinked", "the dataset is named like the benchmark "
                                   "saadat-fellay-20261015-benchmark-synthetic-dna", "dataset-synthetic-uniform"),
    "empty-file": ("empty-file", "holds no YAML document", "result-empty.yaml"),
    "not-a-mapping": ("not-a-mapping", "holds a list", "result-list.yaml:1"),
    "binary-file": ("binary-file", "looks binary", "result-binary.yaml"),
    "yaml-alias": ("yaml-alias", "anchors and aliases are not allowed", "result-bomb.yaml:2"),
    "yaml-too-deep": ("yaml-too-deep", "nest more than 32 levels", "family-deep.yaml:3"),
    "duplicate-key": ("duplicate-key", "key 'name' appears twice", "family-twice.yaml:4"),
    "invalid-value": ("invalid-value", "'2026-02-30' cannot be read: day is out of range", "source-baddate.yaml:11"),
    "missing-kind": ("missing-kind", "has no 'kind'; add one of: source, family", "family-nokind.yaml:1"),
    "unknown-kind": ("unknown-kind", "unknown kind 'famly' (did you mean 'family'?)", "family-unknown.yaml:1"),
    "schema-missing": ("schema-missing", "required field 'name' is missing", "family-noname.yaml:1"),
    "schema-extra-forbidden": ("schema-extra-forbidden", "unknown field 'nmae' on a family; did you mean 'name'?",
                               "family-extra.yaml:4"),
    "schema-string-pattern-mismatch": ("schema-string-pattern-mismatch", "'../../etc/passwd' is not a stable id",
                                       "family/escape.yaml:3"),
    "schema-string-type": ("schema-string-type", "YAML read the number", "review-unquoted-hash.yaml:8"),
    "schema-value-error": ("schema-value-error", "quote it: numeric_value: '11.49'", "result-float.yaml:9"),
    "invalid-release-date": ("schema-value-error", "does not start with a real date", "release-bad.yaml:3"),
    "duplicate-id": ("duplicate-id", "is already used by", "family-"),
    "id-kind-mismatch": ("id-kind-mismatch", "the id names kind 'protocol' but the record is a 'dataset'",
                         "protocol-misfiled.yaml:2"),
    "id-date-invalid": ("id-date-invalid", "'20261399' in the id is not a real day", "family-bad-day.yaml:2"),
    "id-date-in-future": ("id-date-in-future", "'29991231' in the id lies after today (", "in-the-future.yaml:2"),
    "file-name-mismatch": ("file-name-mismatch", "belongs in protocol/saadat-fellay-20261015-protocol-real-name.yaml",
                           "protocol-other-name.yaml:2"),
    "unresolved-reference": ("unresolved-reference", "did you mean 'saadat-fellay-20261015-source-optimizing-genomic",
                             "protocol-dangling.yaml:4"),
    "references-unchecked": ("references-unchecked", "the 52 reference(s) to it", "checkpointing-zero2.yaml:1"),
    "reference-wrong-kind": ("reference-wrong-kind", "is a family, but this field needs a source",
                             "protocol-wrong-kind.yaml:4"),
    "value-not-in-quote": ("value-not-in-quote", "printed value '33.38' is not in its quote 'the NT 2.5B checkpoint "
                           "(33.88 → 11.49 GB)', which prints 2.5, 33.88, 11.49; one of the two is mistyped",
                           "result-value-not-in-quote.yaml:8"),
    "locator-page-out-of-range": ("locator-page-out-of-range", "page 12 lies beyond the 11 pages of the pinned "
                                  "source 'saadat-fellay-20261015-source-optimizing-genomic-language-models'",
                                  "result-locator-page-out-of-range.yaml:12"),
    "reference-repeated": ("reference-repeated", "'saadat-fellay-20261015-family-nucleotide-transformer' is listed "
                           "twice (items 2 and 6 of members); list each record once",
                           "release-2026-10-22-1b7cf027e4f6.yaml:11"),
    "release-member-later": ("release-member-later", "was filed on 20261129, after the release of 2026-10-22",
                             "release-2026-10-22-1b7cf027e4f6.yaml:8"),
    "review-before-source": ("review-before-source", "the review is dated 2026-03-01T12:00:00+00:00, before the "
                             "pinned PDF was made (CreationDate 2026-03-09)", "flashattention-checkpointing-zero2.yaml:13"),
    "value-mismatch": ("value-mismatch", "printed value '33.88' reads 33.88, but numeric_value is 33.89",
                       "result-value-mismatch.yaml:9"),
    "missing-unknown-field": ("missing-unknown-field", "a result has no field 'hardwear'", "missing-unknown.yaml:16"),
    "missing-contradiction": ("missing-contradiction", "'uncertainty' is listed as missing (unreported) but has a value",
                              "missing-contradiction.yaml:18"),
    "missing-duplicate": ("missing-duplicate", "'uncertainty' is listed as missing twice", "missing-duplicate.yaml:18"),
    "missing-unexplained": ("missing-unexplained", "'hardware' is empty; give its value, or add a missing_metadata",
                            "missing-unexplained.yaml"),
    "review-hash-mismatch": ("review-hash-mismatch", "but the source pins 4bc2452110f280a7", "review-wrong-file.yaml:8"),
    "review-subject-mismatch": ("review-subject-mismatch", "a review can only source-check records of the source",
                                "review-other-paper.yaml:5"),
    "review-unverifiable": ("review-unverifiable", "names no artifact hash", "review-no-hash.yaml:5"),
    "review-url-mismatch": ("review-url-mismatch", "the source names https://openreview.net", "review-other-url.yaml:9"),
    "evidence-statement-mismatch": ("evidence-statement-mismatch", "the row states '33.9' but its result prints '33.88'",
                                    "evidence-wrong-statement.yaml:5"),
    "evidence-review-mismatch": ("evidence-review-mismatch", "which did not check", "evidence-wrong-review.yaml:15"),
    "reproduction-method-mismatch": ("reproduction-method-mismatch", "never a GPU's name, but it holds 'NVIDIA'",
                                     "test-gpu-named-estimate.yaml"),
    "reproduction-comparison-mismatch": ("reproduction-comparison-mismatch",
                                         "comparison.transcribed is 33.89 but the result's numeric value is 33.88",
                                         "test-wrong-transcribed.yaml:25"),
    "reproduction-recipe-mismatch": ("reproduction-recipe-mismatch", "but its recipe is for",
                                     "test-other-recipe.yaml:5"),
    "reproduction-setting-unswept": ("reproduction-setting-unswept",
                                     "precision='fp16-mixed' is not among the recipe's candidates",
                                     "test-unswept-precision.yaml:10"),
    "uncertainty-mismatch": ("uncertainty-mismatch",
                             "uncertainty printed '± 0.019' reads 0.019, but half_width is 0.091; they must agree",
                             "result-wrong-half-width.yaml:13"),
    "uncertainty-other-stated-at": ("schema-value-error", "an uncertainty of kind 'other' is checked on its value "
                                    "alone", "result-other-stated-at.yaml"),
    "uncertainty-excludes-value": ("uncertainty-excludes-value",
                                   "the confidence-interval [0.66, 0.70] does not contain the value 0.72",
                                   "result-outside-interval.yaml"),
    "aggregate-mismatch": ("aggregate-mismatch",
                           "the uncertainty is over 5 folds, but its evaluation aggregates 10 folds",
                           "result-five-folds.yaml"),
    "derived-mismatch": ("derived-mismatch",
                         "printed 76, but (33.88 - 11.49) / 33.88 = 66.086 (between 66.066 and 66.106 given the rounding "
                         "of 11.49 and 33.88); one of the numbers is mistranscribed",
                         "result-reduction-misprinted.yaml:9"),
    "derived-inputs": ("derived-inputs", "a result cannot be derived from itself", "result-from-itself.yaml"),
    "unit-detail-mismatch": ("unit-detail-mismatch", "unit_detail says the value is printed as 'GB', which is how "
                             "gigabyte is printed, but the unit is count, which is printed without a unit",
                             "result-unit-detail-of-another-unit.yaml:8"),
    "unit-detail-old-form": ("unit-detail-old-form", "unit_detail says the value is printed as 'in GB', a phrase "
                             "older records quote whole; the unit's own form in it is 'GB': run 'registry fmt'",
                             "result-unit-detail-in-a-phrase.yaml:8"),
    "unknown-unit": ("unknown-unit", "unit 'images-per-sec' is neither a built-in unit nor declared by a unit "
                     "record; did you mean", "result-in-an-undeclared-unit.yaml:7"),
    "unit-token-taken": ("unit-token-taken", "token 'gigabyte' is already taken by a built-in unit (registry/units.py);",
                         "unit-gigabyte.yaml:4"),
    "unit-form-claimed": ("unit-form-claimed", "printed 'GB' is already how gigabyte (memory) is printed, and this "
                          "unit is throughput", "unit-gigabytes-per-second.yaml:10"),
    "unit-factor-not-positive": ("schema-value-error", "factor must be more than 0", "unit-negative-petabyte.yaml:8"),
    "unit-unknown-dimension": ("schema-enum", "Input should be 'dimensionless', 'percentage'",
                               "unit-images-per-second.yaml:7"),
    "split-unknown": ("split-unknown", "split 'validation' is not one of its dataset's splits (train, test)",
                      "evaluation-validation-split.yaml:9"),
    "source-identifier-mismatch": ("source-identifier-mismatch",
                                   "openreview is 'AbCdEf123X', but the retrieval URL names 'NUleWh1GFx'",
                                   "source-wrong-openreview-id.yaml"),
    "date-in-future": ("date-in-future", "2999-01-01T00:00:00+00:00 lies in the future",
                       "review-from-the-future.yaml:7"),
    "value-out-of-range": ("value-out-of-range", "18446744073709551616 is too large for the database, which stores "
                           "integers in 64 bits", "test-huge-activations.yaml:20"),
    "control-character": ("control-character", "the text holds \\x1b (at character 1), which a terminal acts on",
                          "family-escape-sequence.yaml:4"),
    "correction-kind-mismatch": ("correction-kind-mismatch", "is a result, but its replacement",
                                 "correction-result-by-an-evaluation.yaml:5"),
    "correction-branch": ("correction-branch", "is superseded by this correction and by",
                          "correction-result-33-a.yaml:4"),
    "correction-cycle": ("correction-cycle", "leads back to 'saadat-fellay-20261201-result-version-a'",
                         "correction-a-by-b.yaml:5"),
    "correction-review-shared": ("correction-review-shared", "so it cannot have found both in the source",
                                 "correction-result-33.yaml:5"),
    # An evidence row is checked by the review it names too: a replacement row naming the old row's review would
    # read 'source checked' by a review that never saw it.
    "correction-evidence-review-shared": ("correction-review-shared", "name a review that checked the new row",
                                          "saadat-fellay-20261201-correction-evidence-11.yaml:5"),
    "correction-unreviewed": ("correction-unreviewed", "it reads 'not reviewed' until a review checks it",
                              "correction-result-33.yaml:5"),
    "retraction-conflict": ("retraction-conflict", "retract its current version 'saadat-fellay-20261201-result-",
                            "retraction-result-33.yaml:4"),
    "input-not-current": ("input-not-current", "derived from 'saadat-fellay-20261015-result-nt-2-5b-training-peak-"
                          "memory-flashattention-checkpointing', which is superseded: its current version is "
                          "'saadat-fellay-20261201-result-corrected-33' (33.89 GB)",
                          "result-reduction-of-a-superseded-value.yaml:15"),
    "interrupted-batch": ("interrupted-batch", "was interrupted with 1 of them in place", ".registry-batch/journal.json"),
    "leftover-batch": ("leftover-batch", "killed while it staged its files", ".registry-batch/journal.json"),
    "batch-journal-refused": ("batch-journal-refused", "is an absolute path", ".registry-batch/journal.json"),
}
WARNINGS = {code for code, declared in CODES.items() if declared.severity is Severity.WARNING}
#: Warnings that only ever come with an error (the record behind them did not load).
WITH_ERRORS = {"references-unchecked"}


def with_case(records_dir: Path, case: str) -> Path:
    shutil.copytree(INVALID / case, records_dir, dirs_exist_ok=True)
    return records_dir


def test_bundled_records_are_valid() -> None:
    _, report = validate(Path(__file__).parent.parent / "records")
    assert report.valid, [i.message for i in report.errors]
    assert report.records == report.files >= 15


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_rule_reports_its_code_and_message(records_dir: Path, case: str) -> None:
    code, fragment, where = CASES[case]
    _, report = validate(with_case(records_dir, case))
    matching = [i for i in report.issues if i.code == code and fragment in i.message]
    assert matching, f"no {code} issue with {fragment!r}; got {[(i.code, i.message) for i in report.issues]}"
    assert any(where in i.location for i in matching), [i.location for i in matching]
    assert report.valid == (code in WARNINGS and code not in WITH_ERRORS)


#: Declared codes whose bad input cannot be a file under tests/data/invalid, with the test that makes it.
TESTED_ELSEWHERE = {
    "no-records": "test_a_folder_without_records_is_an_error_not_an_empty_success",
    "file-too-large": "test_oversized_file_is_refused_unread",
    "unreadable-file": "test_an_unreadable_file_is_reported",
    "link-outside-records": "test_a_link_out_of_the_records_folder_is_not_read",
}


def test_every_declared_code_has_an_invalid_case() -> None:
    tested = {code for code, _, _ in CASES.values()} | set(TESTED_ELSEWHERE)
    untested = [code for code, declared in CODES.items() if not declared.is_family and code not in tested]
    assert not untested, f"codes without an invalid record under tests/data/invalid: {untested}"
    assert any(code.startswith("schema-") for code in tested)
    assert sorted(p.name for p in INVALID.iterdir()) == sorted(CASES)
    for code, test in TESTED_ELSEWHERE.items():
        assert test in globals(), f"{code}: no test named {test}"


@pytest.mark.slow
def test_every_reported_code_is_declared(records_dir: Path) -> None:
    from registry.issues.codes import is_declared

    for case in CASES:
        _, report = validate(with_case(records_dir, case))
        assert all(is_declared(issue.code) for issue in report.issues), case


def test_references_to_a_record_that_did_not_load_are_one_warning_not_many(records_dir: Path) -> None:
    _, report = validate(with_case(records_dir, "references-unchecked"))
    # The misspelt 'metric_directon' is the one error: a direction may be left out (a count has none), which a
    # missing-metadata entry explains once the record loads.
    assert sorted(i.code for i in report.errors) == ["schema-extra-forbidden"]
    assert not any(i.code == "unresolved-reference" for i in report.issues)


@pytest.mark.parametrize(("breakage", "code"), [
    (lambda text: text.replace("kind: result", "kind: reslt"), "unknown-kind"),
    (lambda text: text.replace("kind: result\n", ""), "missing-kind"),
    (lambda text: text + "printed_value: [unclosed\n", "yaml-syntax"),
])
def test_whatever_stops_a_record_loading_its_referrers_wait(records_dir: Path, breakage, code: str) -> None:  # type: ignore[no-untyped-def]
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    result.write_text(breakage(result.read_text()))
    _, report = validate(records_dir)
    assert [i.code for i in report.errors] == [code]
    assert [i.code for i in report.issues if i.code == "references-unchecked"] == ["references-unchecked"]


def test_a_suggested_id_is_of_a_kind_the_field_accepts(records_dir: Path) -> None:
    evidence = next((records_dir / "evidence").iterdir())
    text = evidence.read_text()
    # A prefix of the result ids: without the kind filter, the suggestion would be a result.
    typo = RESULT_11[:-1]
    evidence.write_text(re.sub(r"(?m)^review: .*$", f"review: {typo}", text))
    _, report = validate(records_dir)
    [issue] = [i for i in report.errors if i.code == "unresolved-reference"]
    assert "did you mean 'saadat-fellay-20261015-review-result-" in issue.message, issue.message


def test_every_problem_is_reported_at_once(records_dir: Path) -> None:
    for case in ("yaml-syntax", "schema-missing", "value-mismatch", "unresolved-reference", "date-in-future"):
        with_case(records_dir, case)
    _, report = validate(records_dir)
    codes = {i.code for i in report.errors}
    assert {"yaml-syntax", "schema-missing", "value-mismatch", "unresolved-reference", "date-in-future"} <= codes


def test_an_unreadable_file_is_reported(records_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    target = records_dir / "family" / "saadat-fellay-20261015-family-nucleotide-transformer.yaml"
    real_open = os.open

    def refusing_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if Path(file) == target:  # as the system refuses it to a user without read permission (tests run as root)
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    _, report = validate(records_dir)
    [issue] = [i for i in report.errors if i.code == "unreadable-file"]
    assert "cannot read the file: Permission denied" in issue.message and issue.file.endswith(target.name)


def test_oversized_file_is_refused_unread(records_dir: Path) -> None:
    big = records_dir / "family" / "saadat-fellay-20261015-family-huge.yaml"
    big.write_text("kind: family\nid: saadat-fellay-20261015-family-huge\nname: " + "x" * 1_100_000 + "\n")
    _, report = validate(records_dir)
    assert [i.code for i in report.errors] == ["file-too-large"]
    assert "record files are limited to 1,000,000 bytes" in report.errors[0].message


def test_a_link_out_of_the_records_folder_is_not_read(records_dir: Path, tmp_path: Path) -> None:
    """A link to a file elsewhere is refused unread, so its content is never quoted; a link inside is read."""
    secret = tmp_path / "secret.yaml"
    secret.write_text("kind: SECRET-d41d8cd98f00b204\n")
    (records_dir / "family" / "planted.yaml").symlink_to(secret)
    family = next((records_dir / "family").glob("saadat-*.yaml"))
    (records_dir / "dataset" / "alias.yaml").symlink_to(Path("..") / "family" / family.name)
    _, report = validate(records_dir)
    refused = [i for i in report.issues if i.code == "link-outside-records"]
    assert [i.location for i in refused] == [str(records_dir / "family" / "planted.yaml")]
    assert "symbolic link to a file outside the records folder; it was not read" in refused[0].message
    assert not any("SECRET" in issue.message for issue in report.issues)
    assert any(i.code == "duplicate-id" and "alias.yaml" in i.location for i in report.issues), "a link inside is read"


def test_hidden_and_non_yaml_files_are_ignored(records_dir: Path) -> None:
    (records_dir / "result" / ".partial.yaml.tmp").write_text("garbage: [")
    (records_dir / "result" / ".hidden.yaml").write_text("garbage: [")
    (records_dir / "NOTES.txt").write_text("not a record")
    _, report = validate(records_dir)
    assert report.valid


def tree_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        digest.update(str(path.relative_to(root)).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


@pytest.mark.parametrize("case", ["yaml-alias", "binary-file", "not-a-mapping", "schema-string-pattern-mismatch"])
def test_validate_writes_nothing(records_dir: Path, cli, case: str) -> None:  # type: ignore[no-untyped-def]
    with_case(records_dir, case)
    before = tree_digest(records_dir.parent)
    result = cli("validate", "--records", records_dir)
    assert result.exit_code == 1
    assert tree_digest(records_dir.parent) == before


# -- the command end to end --------------------------------------------------------------------


def test_cli_valid_registry_exits_zero(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("validate")
    assert result.exit_code == 0, result.output
    assert "valid:" in result.output and "0 errors" in result.output


def test_cli_reports_file_line_field_and_exits_one(records_dir: Path, cli) -> None:  # type: ignore[no-untyped-def]
    with_case(records_dir, "value-mismatch")
    result = cli("validate", "--records", records_dir)
    assert result.exit_code == 1
    assert "records/result/saadat-fellay-20261015-result-value-mismatch.yaml:9: error value-mismatch" in result.output
    assert "[numeric_value]" in result.output
    assert "Traceback" not in result.output


def test_cli_json_report(records_dir: Path, cli, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    with_case(records_dir, "schema-extra-forbidden")
    monkeypatch.chdir(records_dir.parent)
    result = cli("validate", "--records", "records", "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["valid"] is False and report["errors"] == 1
    issue = next(i for i in report["issues"] if i["severity"] == "error")
    assert issue == {
        "file": "records/family/saadat-fellay-20261015-family-extra.yaml",
        "line": 4,
        "code": "schema-extra-forbidden",
        "message": "unknown field 'nmae' on a family; did you mean 'name'?",
        "severity": "error",
        "record_id": "saadat-fellay-20261015-family-extra",
        "field": "nmae",
    }


def test_cli_missing_records_folder(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("validate", "--records", tmp_path / "nowhere")
    assert result.exit_code == 1
    assert "records folder" in result.output and "does not exist" in result.output
    assert "Traceback" not in result.output


def test_records_option_reads_environment(records_dir: Path, runner, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from registry.cli import app

    with_case(records_dir, "empty-file")
    result = runner.invoke(app, ["validate"], env={"REGISTRY_RECORDS": str(records_dir)})
    assert result.exit_code == 1 and "empty-file" in result.output


def test_a_cpu_estimate_cannot_be_filed_as_measured(records_dir: Path) -> None:
    [estimate] = sorted((records_dir / "reproduction").iterdir())[:1]
    text = estimate.read_text()
    text = text.replace("method: estimated", "method: measured").replace("kind: cpu-estimate", "kind: gpu")
    estimate.write_text(text.replace("name: CPU estimate (FakeTensorMode + MemTracker)", "name: NVIDIA H100 80GB HBM3"))
    _, report = validate(records_dir)
    messages = {i.message for i in report.errors if i.code == "reproduction-method-mismatch"}
    assert any("must record the GPU runtime it ran with" in m for m in messages), messages
    assert any("'sdpa-flash-cpu' is the CPU kernel an estimate traces" in m for m in messages), messages
    assert any("the id says 'estimated' but the method is 'measured'" in m for m in messages), messages
    assert any("warmup_steps is 0" in m for m in messages), messages


def test_an_estimate_dressed_as_a_measurement_is_still_caught(records_dir: Path) -> None:
    """Every GPU-looking field filled in by hand: the CPU torch build and the missing warm-up still tell."""
    [estimate] = sorted((records_dir / "reproduction").iterdir())[:1]
    text = estimate.read_text().replace("method: estimated", "method: measured").replace("kind: cpu-estimate", "kind: gpu")
    text = text.replace("name: CPU estimate (FakeTensorMode + MemTracker)", "name: NVIDIA H100")
    text = text.replace("cuda: null", "cuda: '12.4'").replace("attention_impl: sdpa-flash-cpu", "attention_impl: sdpa-flash")
    estimate.write_text(text)
    _, report = validate(records_dir)
    messages = [i.message for i in report.errors if i.code == "reproduction-method-mismatch"]
    assert any("is a CPU-only build, which cannot have measured a GPU" in m for m in messages), messages
    assert any("warmup_steps is 0" in m for m in messages), messages


def test_an_estimate_must_say_it_ran_on_no_gpu(records_dir: Path) -> None:
    [estimate] = sorted((records_dir / "reproduction").iterdir())[:1]
    estimate.write_text(estimate.read_text().replace("kind: cpu-estimate", "kind: gpu"))
    _, report = validate(records_dir)
    assert [(i.code, i.message) for i in report.errors] == [
        ("schema-value-error", "an estimated reproduction runs on hardware of kind 'cpu-estimate', not 'gpu'")]


def test_a_review_of_another_paper_cannot_check_an_evaluation_or_a_family(records_dir: Path) -> None:
    """Evaluations and families name no source themselves: theirs come from their parts (configs, protocols, data)."""
    with_case(records_dir, "review-subject-mismatch")
    review = records_dir / "review" / "saadat-fellay-20261015-review-other-paper.yaml"
    evaluation = "saadat-fellay-20261015-evaluation-nt-2-5b-training-peak-memory-deepspeed"
    family = "saadat-fellay-20261015-family-nucleotide-transformer"
    text = re.sub(r"(?m)^subjects:\n(  - .*\n)+", f"subjects:\n  - {evaluation}\n  - {family}\n", review.read_text())
    review.write_text(text)
    _, report = validate(records_dir)
    fields = sorted(i.field for i in report.errors if i.code == "review-subject-mismatch")
    assert fields == ["subjects[0]", "subjects[1]"], [(i.code, i.message) for i in report.errors]


def test_reviews_and_evidence_only_cover_transcribed_records(records_dir: Path) -> None:
    [estimate] = sorted((records_dir / "reproduction").iterdir())[:1]
    review = next((records_dir / "review").glob("*zero2.yaml"))
    text = review.read_text()
    review.write_text(text.replace("subjects:\n", f"subjects:\n- {estimate.stem}\n", 1))
    _, report = validate(records_dir)
    assert any(i.code == "reference-wrong-kind" and "is a reproduction, but this field needs a source" in i.message
               and i.field == "subjects[0]" for i in report.errors), [i.message for i in report.errors]
    evidence = next((records_dir / "evidence").iterdir())
    evidence.write_text(re.sub(r"(?m)^subject: .*$", f"subject: {estimate.stem}", evidence.read_text()))
    _, report = validate(records_dir)
    assert any(i.code == "reference-wrong-kind" and i.field == "subject" for i in report.errors)


def test_field_paths_read_the_same_from_every_rule(records_dir: Path) -> None:
    """Load-time and whole-registry issues both write 'missing_metadata[1].field', never 'missing_metadata.1.field'."""
    _, report = validate(with_case(records_dir, "missing-duplicate"))
    [issue] = [i for i in report.errors if i.code == "missing-duplicate"]
    assert issue.field is not None and re.fullmatch(r"missing_metadata\[\d+\]\.field", issue.field), issue.field


def test_a_folder_without_records_is_an_error_not_an_empty_success(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "notes.txt").write_text("not a record")
    done = cli("validate", "--records", tmp_path)
    assert done.exit_code == 1 and "no-records" in done.output
    assert "point --records at the folder that holds '<kind>/<id>.yaml' files" in done.output


def test_the_copy_is_blamed_for_a_duplicate_id_not_the_well_named_file(records_dir: Path) -> None:
    _, report = validate(with_case(records_dir, "duplicate-id"))
    [issue] = [i for i in report.errors if i.code == "duplicate-id"]
    assert issue.file.endswith("family/saadat-fellay-20261015-family-copy.yaml"), issue.file
    assert "family/saadat-fellay-20261015-family-nucleotide-transformer.yaml" in issue.message


def test_reported_paths_open_from_where_the_command_ran(records_dir: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    with_case(records_dir, "value-mismatch")
    monkeypatch.chdir(records_dir.parent)
    [inside] = [i.file for i in validate(records_dir)[1].errors]
    assert inside.startswith("records/result/") and Path(inside).is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    [outside] = [i.file for i in validate(records_dir)[1].errors]
    assert Path(outside).is_absolute() and Path(outside).is_file()


def test_a_library_load_freezes_nothing_the_command_line_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long-running process gets its memory back after each load; a one-shot command skips the rescans."""
    import gc

    from registry.store import collector

    before = gc.get_freeze_count()
    validate(BUNDLED_RECORDS)
    assert gc.get_freeze_count() == before and gc.isenabled()
    monkeypatch.setattr(collector, "FREEZE_AFTER_LOAD", True)
    try:
        validate(BUNDLED_RECORDS)
        assert gc.get_freeze_count() > before and gc.isenabled()
    finally:
        gc.unfreeze()


@pytest.mark.parametrize(("name", "flagged"), [
    ("Tesla T4", True), ("NVIDIA L40S", True), ("A10G", True), ("Gaudi2", True), ("AMD Instinct MI300X", True),
    ("CPU estimate on AMD EPYC 7B13", False), ("CPU estimate (meta tensors) on Apple M2", False),
])
def test_an_estimate_never_wears_a_gpu_name(records_dir: Path, name: str, flagged: bool) -> None:
    [estimate] = sorted((records_dir / "reproduction").iterdir())[:1]
    estimate.write_text(estimate.read_text().replace("name: CPU estimate (FakeTensorMode + MemTracker)", f"name: {name}"))
    _, report = validate(records_dir)
    assert any(i.code == "reproduction-method-mismatch" for i in report.errors) == flagged


def test_did_you_mean_stops_after_enough_lookups(records_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of dangling references must not each compare their id with every id in the registry."""
    from registry.validate import runner as checks

    monkeypatch.setattr(checks._Suggestions, "LIMIT", 1)
    for name in ("a", "b"):
        (records_dir / "protocol" / f"saadat-fellay-20261015-protocol-{name}.yaml").write_text(
            f"kind: protocol\nid: saadat-fellay-20261015-protocol-{name}\nname: Protocol {name}\n"
            f"source: saadat-fellay-20261015-source-optimizing-genomic-language-model{name}\n")
    _, report = validate(records_dir)
    hints = ["did you mean" in i.message for i in report.errors if i.code == "unresolved-reference"]
    assert sorted(hints) == [False, True]


@pytest.mark.parametrize(("written", "meant", "code"), [
    ("GB", "gigabyte", "schema-string-pattern-mismatch"), ("Gigabytes", "gigabyte", "schema-string-pattern-mismatch"),
    ("%", "percent", "schema-string-pattern-mismatch"),
    ("Sequences/s", "sequences-per-second", "schema-string-pattern-mismatch"),
    ("MCC", "dimensionless", "schema-string-pattern-mismatch"),
    ("sequences per second", "sequences-per-second", "schema-string-pattern-mismatch"),
    ("Gb", None, "schema-string-pattern-mismatch"), ("gb", None, "unknown-unit"), ("furlongs", None, "unknown-unit")])
def test_a_unit_is_a_known_token(records_dir: Path, written: str, meant: str | None, code: str) -> None:
    """One unit, one name: 'GB' and 'gb' would otherwise sit beside 'gigabyte' in every query. A token's form is
    the schema's; whether the registry knows it (built in, or a unit record) is the whole-registry check's."""
    result = records_dir / "result" / f"{RESULT_33}.yaml"
    result.write_text(result.read_text().replace("\nunit: gigabyte\n", f"\nunit: '{written}'\n"))
    _, report = validate(records_dir)
    [issue] = [i for i in report.errors if i.field == "unit"]
    assert issue.code == code
    if code == "unknown-unit":
        assert f"unit {written!r} is neither a built-in unit nor declared by a unit record" in issue.message
        assert "records/unit/<id>.yaml (kind: unit" in issue.message
    elif meant:
        assert f"{written!r} is not one of the units;" in issue.message
        assert f"write {meant!r} (the units of " in issue.message
    else:
        assert "; write" not in issue.message and "the built-in units are: dimensionless, times" in issue.message
        assert "unit record (records/unit/)" in issue.message


def test_the_commonest_curator_mistakes_say_what_to_write(records_dir: Path) -> None:
    result = records_dir / "result" / f"{RESULT_33}.yaml"
    text = re.sub(r"(?m)^  quote: .*$", "  quote: Figure 3 (page 6): 'x'", result.read_text())
    result.write_text(text)
    review = records_dir / "review" / "saadat-fellay-20261015-review-config-nt-2-5b-training-flashattention-checkpointing.yaml"
    review.write_text(re.sub(r"(?m)^reviewed_at: .*$", "reviewed_at: 2026-11-20", review.read_text()))
    _, report = validate(records_dir)
    messages = {i.code: i.message for i in report.errors}
    assert "a value that holds ': '" in messages["yaml-syntax"] and "must be quoted" in messages["yaml-syntax"]
    assert "write for example 2026-11-20T00:00:00Z" in messages["schema-timezone-aware"]
    review.write_text(re.sub(r"(?m)^reviewed_at: .*$", "reviewed_at: 2026-11-20 10:30:00", review.read_text()))
    _, report = validate(records_dir)
    [moment] = [i.message for i in report.errors if i.code == "schema-timezone-aware"]
    assert "write for example 2026-11-20T10:30:00Z (Z: UTC)" in moment, moment


def test_a_float_value_is_told_to_quote_its_own_digits(records_dir: Path) -> None:
    result = records_dir / "result" / f"{RESULT_33}.yaml"
    result.write_text(result.read_text().replace("numeric_value: '33.88'", "numeric_value: 33.88"))
    _, report = validate(records_dir)
    [issue] = [i for i in report.errors if i.field == "numeric_value"]
    assert "quote it: numeric_value: '33.88'" in issue.message


def test_a_kind_folder_given_as_the_records_folder_is_named(records_dir: Path) -> None:
    _, report = validate(records_dir / "result")
    mismatches = [i for i in report.errors if i.code == "file-name-mismatch"]
    assert len(mismatches) == 2
    assert all("point the records folder at the folder that holds it" in i.text() for i in mismatches)
    from registry.cli.options import FLAGS

    assert all("point --records at the folder that holds it" in i.text(FLAGS) for i in mismatches)


@pytest.mark.sandbox
@pytest.mark.parametrize("format", ["text", "json"])
def test_validate_piped_into_head_keeps_its_verdict(tmp_path: Path, format: str) -> None:
    """The reader stopping early must not turn an invalid registry into exit status 0 (set -o pipefail)."""
    import subprocess
    import sys

    (tmp_path / "family").mkdir()
    for number in range(3000):  # enough report to outgrow the pipe's buffer
        (tmp_path / "family" / f"saadat-fellay-20261015-family-f{number}.yaml").write_text("kind: [\n")
    command = [sys.executable, "-m", "registry", "validate", "--records", str(tmp_path), "--format", format]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline()
    process.stdout.close()
    errors = process.stderr.read().decode()
    assert process.wait(timeout=120) == 1 and errors == "", errors


def test_a_unit_printed_for_two_units_names_both(records_dir: Path) -> None:
    """'B' is printed for bytes and for billions: the message must not pick one for the curator."""
    result = records_dir / "result" / f"{RESULT_33}.yaml"
    result.write_text(result.read_text().replace("\nunit: gigabyte\n", "\nunit: 'B'\n"))
    _, report = validate(records_dir)
    [issue] = [i for i in report.errors if i.field == "unit"]
    assert "'B' is printed for several units (billion, byte); write the one meant by its name" in issue.message


def test_a_file_broken_at_its_end_is_reported_at_its_last_line(records_dir: Path) -> None:
    broken = records_dir / "family" / "saadat-fellay-20261015-family-broken.yaml"
    broken.write_text("kind: family\nid: saadat-fellay-20261015-family-broken\nname: [unclosed\n", encoding="utf-8")
    _, report = validate(records_dir)
    [issue] = [i for i in report.errors if i.code == "yaml-syntax"]
    assert issue.location.endswith("family-broken.yaml:3"), issue.location


@pytest.mark.parametrize(("field", "named", "code", "fragment"), [
    ("value", "fixture-genomic-20261201-result-s5-splice-accuracy-fp3x", "unresolved-reference",
     "'fixture-genomic-20261201-result-s5-splice-accuracy-fp3x' names no record in the registry; did you mean "
     "'fixture-genomic-20261201-result-s5-splice-accuracy-fp32'?"),
    ("baseline", "fixture-genomic-20261201-evaluation-nt-2-5b-accuracy-splice", "reference-wrong-kind",
     "is an evaluation, but this field needs a result"),
])
def test_a_derived_results_inputs_are_references_like_any_other(tmp_path: Path, field: str, named: str, code: str,
                                                                 fragment: str) -> None:
    """A derivation's value, baseline and inputs name results: one that names no record (or another kind) passed
    validation, since only a record's own fields were followed as references."""
    records = tmp_path / "records"
    shutil.copytree(DATA / "fixture-registry", records)
    path = records / "result" / "fixture-genomic-20261201-result-s5-splice-accuracy-drop.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    line = next(n for n, text in enumerate(lines, 1) if text.startswith(f"  {field}: "))
    lines[line - 1] = f"  {field}: {named}\n"
    path.write_text("".join(lines), encoding="utf-8")
    _, report = validate(records)
    found = [issue for issue in report.issues if issue.code == code]
    assert len(found) == 1 and not report.valid, [i.code for i in report.issues]
    assert found[0].field == f"derived.{field}" and found[0].line == line and fragment in found[0].message


@pytest.mark.pdf
def test_a_review_on_the_day_before_the_pdf_was_made_is_allowed(records_dir: Path) -> None:
    """A PDF's CreationDate is a day in its maker's time zone, so a review one day earlier in UTC may still
    have read it; two days earlier it cannot have (review-before-source)."""
    path = next((records_dir / "review").glob("*-zero2.yaml"))
    text = path.read_text(encoding="utf-8")
    for when, expected in (("2026-03-08T01:00:00Z", False), ("2026-03-07T23:00:00Z", True)):
        path.write_text(re.sub(r"(?m)^reviewed_at: .*$", f"reviewed_at: {when}", text), encoding="utf-8")
        _, report = validate(records_dir)
        assert any(i.code == "review-before-source" for i in report.issues) is expected, when


def test_an_invalid_id_date_is_given_the_checks_own_day_as_an_example(records_dir: Path) -> None:
    """The example read the machine's local date while the future-date check compares the UTC day of ``now``."""
    import datetime as dt

    then = dt.datetime(2030, 1, 2, 23, 30, tzinfo=dt.UTC)
    _, report = validate(with_case(records_dir, "id-date-invalid"), now=then)
    (issue,) = [i for i in report.issues if i.code == "id-date-invalid"]
    assert "(for example 20300102, today in UTC)" in issue.message, issue.message


def test_of_kind_is_found_once_and_follows_the_registry() -> None:
    """``Registry.of_kind`` keeps its answer per model (a rule asks it of every record it checks), gives a copy, and
    finds the records again once the registry holds more."""
    from registry.models import Dataset, Result

    registry, _ = validate(BUNDLED_RECORDS)
    results = registry.of_kind(Result)
    assert results and [r.id for r in results] == sorted(r.id for r in registry.records.values()
                                                          if isinstance(r, Result))
    results.clear()  # the caller's copy
    assert registry.of_kind(Result) and registry.of_kind(Result) is not registry.of_kind(Result)
    [dataset] = registry.of_kind(Dataset)[:1]
    added = dataset.model_copy(update={"id": "zz-added-dataset"})
    registry.records[added.id] = added
    assert registry.of_kind(Dataset)[-1] is added
