"""`registry new KIND`: a record of every kind from its options, id by the convention, gaps listed, checked first."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from registry.curate.form import form, parse_path
from registry.curate.naming import make_id, slug_for
from registry.models import KIND_MODELS, KINDS
from registry.validate.runner import validate
from tests.conftest import CONFIG_33, RESULT_11, RESULT_33, SOURCE

TODAY = dt.datetime.now(dt.UTC).strftime("%Y%m%d")
SHA = "4bc2452110f280a7ba8baa4c7c28beac89769511019666bc77fc33af9b3bcd60"
RECIPE_33 = "saadat-fellay-20261015-recipe-nt-2-5b-training-peak-memory-flashattention-checkpointing"
REVIEW_11 = "saadat-fellay-20261015-review-result-nt-2-5b-training-peak-memory-flashattention-checkpointing-zero2"
PROTOCOL = "saadat-fellay-20261015-protocol-training-peak-memory"
DATASET = "saadat-fellay-20261015-dataset-synthetic-uniform-random-dna-seed-42"
NEW_RESULT = f"saadat-fellay-{TODAY}-result-nt-2-5b-training-peak-memory-checkpointing-peak-memory"

#: kind -> (options of 'registry new KIND', the id it must get). References are typed in part where the
#: command completes them.
KIND_ARGS: dict[str, tuple[list[str], str]] = {
    "source": (["--title", "A test source", "--authors", "Doe", "--authors", "Roe", "--year", "2026", "--venue",
                "A test venue", "--role", "original", "--host", "A test host", "--heading", "A test heading",
                "--page-count", "3", "--pdf-creation-date", "2026-01-02", "--sha256", "ab" * 32, "--retrieval-url",
                "https://example.org/test.pdf", "--hash-scope", "the whole file", "--batch", "doe-roe"],
               f"doe-roe-{TODAY}-source-a-test-source"),
    "family": (["--name", "A test family", "--batch", "saadat-fellay"], f"saadat-fellay-{TODAY}-family-a-test-family"),
    "config": (["--name", "NT 50M (Saadat and Fellay 2026)", "--reported-name", "NT 50M", "--model-family",
                "family-nucleotide", "--source", "optimizing-genomic", "--missing", "checkpoint=unreported"],
               f"saadat-fellay-{TODAY}-config-nt-50m"),
    "protocol": (["--name", "A test protocol (Saadat and Fellay 2026)", "--source", SOURCE],
                 f"saadat-fellay-{TODAY}-protocol-a-test-protocol"),
    "dataset": (["--name", "A test dataset (Saadat and Fellay 2026)", "--source", SOURCE, "--seed", "7"],
                f"saadat-fellay-{TODAY}-dataset-a-test-dataset"),
    "evaluation": (["--name", "NT 2.5B on a test", "--configuration", CONFIG_33, "--protocol", PROTOCOL, "--dataset",
                    DATASET, "--independence", "independent-external", "--split", "test", "--update-mode", "full"],
                   f"saadat-fellay-{TODAY}-evaluation-nt-2-5b-on-a-test"),
    "result": (["--evaluation", "peak-memory-checkpointing", "--metric", "peak-memory", "--metric-direction", "lower",
                "--metric-qualifier", "a test", "--unit", "gigabyte", "--printed-value", "33.88", "--source",
                SOURCE, "--source-locator-page", "6", "--source-locator-quote",
                "the NT 2.5B checkpoint (33.88 → 11.49 GB)", "--uncertainty-kind", "standard-deviation",
                "--uncertainty-printed", "± 0.02", "--uncertainty-half-width", "0.02",
                "--set", "hardware[0].accelerator=NVIDIA H100", "--set", "hardware[0].stated=NVIDIA H100"],
               NEW_RESULT),
    "review": (["--subjects", RESULT_33, "--status", "source-checked", "--reviewer", "a test", "--reviewed-at",
                "now", "--artifact-sha256", SHA, "--retrieval-url", "https://openreview.net/pdf?id=NUleWh1GFx",
                "--methods", "human-source-review"],
               f"saadat-fellay-{TODAY}-review-result-nt-2-5b-training-peak-memory-flashattention-checkpointing"),
    "evidence": (["--subject", RESULT_11, "--property", "reported-result", "--claim-scope", "individual-claims",
                  "--source-independence", "independent-paper", "--review", REVIEW_11],
                 f"saadat-fellay-{TODAY}-evidence-result-nt-2-5b-training-peak-memory-flashattention-checkpointing-"
                 "zero2-reported-result"),
    "release": (["--name", "2026-11-30-0123456789ab", "--members", RESULT_33, "--batch", "saadat-fellay"],
                f"saadat-fellay-{TODAY}-release-2026-11-30-0123456789ab"),
    "recipe": (["--result", RESULT_33, "--experiment", "nt-training-memory", "--fixed-model", "nt-2-5b",
                "--fixed-stage", "checkpointing", "--fixed-sequence-length", "1000", "--fixed-batch-size", "16",
                "--fixed-data-seed", "42", "--fixed-metric", "peak-memory"],
               f"saadat-fellay-{TODAY}-recipe-nt-2-5b-training-peak-memory-flashattention-checkpointing"),
    "reproduction": (["--result", RESULT_33, "--recipe", RECIPE_33, "--method", "estimated", "--model", "nt-2-5b",
                      "--set", "setting.update_mode=full", "--outcome", "error", "--error", "a test run that failed",
                      "--hardware-kind", "cpu-estimate", "--hardware-name", "CPU estimate (a test)", "--set",
                      "software.python=3.11.7", "--command", "a test", "--started-at", "now", "--duration-s", "1"],
                     f"saadat-fellay-{TODAY}-reproduction-nt-2-5b-training-peak-memory-flashattention-checkpointing-"
                     "estimated"),
    "correction": (["--supersedes", RESULT_33, "--replacement", NEW_RESULT, "--reason", "a test", "--corrected-by",
                    "a test", "--corrected-at", "now"],
                   f"saadat-fellay-{TODAY}-correction-result-nt-2-5b-training-peak-memory-flashattention-checkpointing"),
    "retraction": (["--retracts", RESULT_11, "--reason", "a test", "--retracted-by", "a test", "--retracted-at", "now"],
                   f"saadat-fellay-{TODAY}-retraction-result-nt-2-5b-training-peak-memory-flashattention-checkpointing-"
                   "zero2"),
    "unit": (["--token", "images-per-second", "--name", "images per second", "--symbol", "img/s", "--dimension",
              "throughput", "--printed", "img/s", "--printed", "images/s", "--batch", "saadat-fellay"],
             f"saadat-fellay-{TODAY}-unit-images-per-second"),
    "benchmark": (["--name", "Random DNA 1k", "--aliases", "RandDNA-1k", "--hf-dataset", "fixture-org/random-dna-1k",
                   "--batch", "saadat-fellay"], f"saadat-fellay-{TODAY}-benchmark-random-dna-1k"),
    "attestation": (["--subject", RESULT_11, "--person", "A. Test", "--relation", "reader", "--stated-at", "now",
                     "--channel-kind", "link", "--channel-reference", "https://example.org/1", "--stance", "disputes",
                     "--believed-value", "11.94", "--reason", "a test"],
                    f"saadat-fellay-{TODAY}-attestation-nt-2-5b-training-peak-memory-flashattention-checkpointing-"
                    "zero2-disputes"),
}
#: Kinds whose record needs another new record first.
NEEDS = {"correction": "result"}


def new(cli, records: Path, kind: str, *extra: str):  # type: ignore[no-untyped-def]
    return cli("new", kind, *KIND_ARGS[kind][0], *extra, "--records", records, "--no-prompt")


def test_every_kind_has_a_case() -> None:
    assert set(KIND_ARGS) == set(KINDS)


@pytest.mark.parametrize("kind", sorted(KIND_ARGS))
def test_new_writes_a_valid_record_of_every_kind(cli, records_dir: Path, kind: str) -> None:  # type: ignore[no-untyped-def]
    if kind in NEEDS:
        assert new(cli, records_dir, NEEDS[kind]).exit_code == 0
    result = new(cli, records_dir, kind)
    assert result.exit_code == 0, result.output
    record_id = KIND_ARGS[kind][1]
    path = records_dir / kind / f"{record_id}.yaml"
    assert f"Wrote {kind} {record_id}" in result.output and path.is_file()
    registry, report = validate(records_dir)
    assert report.valid, [i.message for i in report.errors]
    record = registry.records[record_id]
    assert record.derivation and "batch convention" in record.derivation
    for name in (f for f in type(record).model_fields if f in _reportable(kind)):
        assert getattr(record, name) not in (None, []) or record.missing(name), f"{name} neither filled nor listed"
    again = new(cli, records_dir, kind)
    assert again.exit_code == 1 and "exists already; records are never overwritten" in again.output
    assert "--slug" in again.output, "the hint names the option that gives another id"


def _reportable(kind: str) -> list[str]:
    from registry.models.fields import field_plan

    return field_plan(KIND_MODELS[kind]).reportable


def test_dry_run_prints_the_file_and_writes_nothing(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    before = sorted(p for p in records_dir.rglob("*") if p.is_file())
    result = new(cli, records_dir, "result", "--dry-run")
    assert result.exit_code == 0, result.output
    assert f"kind: result\nid: {NEW_RESULT}\n" in result.output and "dry run: nothing written" in result.output
    assert "numeric_value: '33.88'" in result.output, "the exact value is read from the printed digits"
    assert sorted(p for p in records_dir.rglob("*") if p.is_file()) == before


def test_references_typed_in_part_are_completed_or_answered_with_the_close_ids(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    result = new(cli, records_dir, "result", "--dry-run")
    assert "Completed evaluation 'peak-memory-checkpointing' to saadat-fellay-20261015-evaluation-nt-2-5b-training-" \
           "peak-memory-checkpointing" in result.output
    args = [a if a != "peak-memory-checkpointing" else "peak-memory" for a in KIND_ARGS["result"][0]]
    ambiguous = cli("new", "result", *args, "--records", records_dir, "--no-prompt")
    assert ambiguous.exit_code == 1
    assert "--evaluation: evaluation 'peak-memory' is part of 2 ids of an evaluation; did you mean: " in ambiguous.output
    unknown = cli("new", "config", *KIND_ARGS["config"][0][:6], "--model-family", "family-transformer-xl",
                  "--source", SOURCE, "--records", records_dir, "--no-prompt")
    assert unknown.exit_code == 1 and "--model-family: model_family 'family-transformer-xl' names no record" in \
        unknown.output


def test_every_problem_is_named_by_its_option_and_nothing_is_written(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("new", "result", "--evaluation", "peak-memory-checkpointing", "--metric-direction", "sideways",
                 "--unit", "GBs", "--printed-value", "33.88", "--source", SOURCE, "--source-locator-page", "6",
                 "--records", records_dir, "--no-prompt")
    assert result.exit_code == 1
    for expected in ("--metric: required field 'metric' is missing", "--metric-direction: Input should be 'lower' "
                     "or 'higher'", "--metric-qualifier: required field", "--unit: 'GBs' is not one of the units",
                     "the new result is not complete (4 problem(s) above); nothing was written"):
        assert expected in result.output, result.output
    assert not list((records_dir / "result").glob(f"*{TODAY}*"))


def test_a_record_that_would_make_the_registry_invalid_is_refused(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    args = [a if a != "0.02" else "0.2" for a in KIND_ARGS["result"][0]]  # half-width 0.2 under a printed ± 0.02
    result = cli("new", "result", *args, "--records", records_dir, "--no-prompt")
    assert result.exit_code == 1
    assert "uncertainty-mismatch" in result.output and "would make the registry invalid" in result.output
    assert "review-unverifiable" not in result.output, "warnings about other records are not the new record's"
    assert not (records_dir / "result" / f"{NEW_RESULT}.yaml").exists()


def test_reportable_fields_not_given_are_listed_with_a_reason(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    result = new(cli, records_dir, "config")
    assert "Listed as not transcribed (give them, or --missing FIELD=REASON): description, source_locator, " \
           "hardware, version, fine_tuning, training_setting" in result.output
    registry, _ = validate(records_dir)
    config = registry.records[KIND_ARGS["config"][1]]
    assert config.missing("checkpoint").reason.value == "unreported", "--missing gives the reason"
    assert config.missing("hardware").reason.value == "not-transcribed"


def test_prompts_ask_for_what_is_required_and_why_gaps_are_empty(cli, records_dir: Path, runner) -> None:  # type: ignore[no-untyped-def]
    from registry.cli import app

    answers = "\n".join(["A prompted protocol (Saadat and Fellay 2026)", "optimizing-genomic"]) + "\n"
    result = runner.invoke(app, ["new", "protocol", "--records", str(records_dir), "--prompt"], input=answers)
    assert result.exit_code == 0, result.output
    assert "name: Display name" in result.output and "source (an id of a source)" in result.output
    registry, report = validate(records_dir)
    assert report.valid
    assert registry.records[f"saadat-fellay-{TODAY}-protocol-a-prompted-protocol"].source == SOURCE


def test_prompts_for_a_reportable_gap_record_its_reason(runner, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    from registry.cli import app

    answers = "\n".join(["", "unreported", "the paper names none"]) + "\n"
    result = runner.invoke(app, ["new", "dataset", "--records", str(records_dir), "--prompt", "--name",
                                 "A prompted dataset (Saadat and Fellay 2026)", "--source", SOURCE,
                                 "--missing", "splits=not-applicable"], input=answers)
    assert result.exit_code == 0, result.output
    assert "why is version empty?" in result.output
    registry, _ = validate(records_dir)
    dataset = registry.records[f"saadat-fellay-{TODAY}-dataset-a-prompted-dataset"]
    assert dataset.missing("version").reason.value == "unreported"
    assert dataset.missing("version").note == "the paper names none"


def test_every_field_of_every_kind_has_an_option_or_a_path(cli) -> None:  # type: ignore[no-untyped-def]
    for kind, model in KIND_MODELS.items():
        leaves, branches = form(model)
        reached = {leaf.path[0] for leaf in leaves} | {branch.path[0] for branch in branches}
        assert reached == set(model.model_fields) - {"kind", "id", "missing_metadata"}, kind
        help_text = cli("new", kind, "--help").output
        for leaf in leaves:
            assert leaf.flag in help_text, (kind, leaf.flag)


def test_paths_and_ids() -> None:
    assert parse_path("hardware[0].accelerator") == ("hardware", 0, "accelerator")
    assert parse_path("hardware.0.memory.value") == ("hardware", 0, "memory", "value")
    assert slug_for("config", {"name": "NT 2.5B (Saadat and Fellay 2026)"}) == "nt-2-5b"
    assert slug_for("evidence", {"subject": RESULT_11, "property": "reported-result"}) == (
        "result-nt-2-5b-training-peak-memory-flashattention-checkpointing-zero2-reported-result")
    long = make_id("a-batch", TODAY, "result", "-".join(["word"] * 60))
    assert len(long) <= 200 and long.startswith(f"a-batch-{TODAY}-result-word-word")


def test_input_that_ends_before_the_answers_stops_with_a_message(runner, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    from registry.cli import app

    result = runner.invoke(app, ["new", "family", "--records", str(records_dir), "--prompt", "--batch",
                                 "saadat-fellay", "--dry-run"], input="")
    assert result.exit_code == 1
    assert "name: The family's name: " in result.output and "name.:" not in result.output
    assert "Error: the input ended before every question was answered; nothing was written" in result.output
    assert "'registry new family --help' lists them) and add --no-prompt" in result.output
    assert "EOFError" not in result.output and "Aborted" not in result.output


def test_every_problem_of_a_new_record_is_named_at_once(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("new", "result", "--evaluation", "peak-memory-checkpointing", "--metric", "peak-memory",
                 "--metric-direction", "up", "--unit", "GBs", "--printed-value", "12–15", "--source", SOURCE,
                 "--missing", "uncertainty=unknown", "--date", "20991231", "--records", records_dir, "--no-prompt")
    assert result.exit_code == 1
    for expected in ("--missing: 'uncertainty=unknown' is not a missing-metadata entry; write FIELD=REASON",
                     "the id (--batch, --date, --slug): '20991231' is after today",
                     "--metric-direction: Input should be 'lower' or 'higher'", "--unit: 'GBs' is not one of the units",
                     "--printed-value: '12–15' is a range of two numbers, not one value",
                     "--source-locator-* (section, table, figure, row, column, subtable, uncertainty_column, caption, "
                     "footnote, page, quote, note): "
                     "required field 'source_locator' is missing",
                     "the new result is not complete (7 problem(s) above); nothing was written"):
        assert expected in result.output, result.output
    assert "--numeric-value" not in result.output, "the unread printed value is the one problem"
    assert not list((records_dir / "result").glob("*20991231*"))


@pytest.mark.parametrize(("printed", "expected"), [
    ("< 33.88", "--printed-value: '< 33.88' is a bound, not a value: write bound: '<' and printed_value '33.88'"),
    ("33.88 GB", "--printed-value: '33.88 GB' holds more than the number: write printed_value '33.88' and unit: "
                 "gigabyte"),
])
def test_a_printed_value_that_is_no_number_says_why(cli, records_dir: Path, printed: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    args = [printed if a == "33.88" else a for a in KIND_ARGS["result"][0]]
    result = cli("new", "result", *args, "--records", records_dir, "--no-prompt")
    assert result.exit_code == 1
    assert expected in result.output, result.output
    assert "numeric_value' is missing" not in result.output


def test_a_unit_given_as_printed_is_read_as_its_unit(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    args = ["GB" if a == "gigabyte" else a for a in KIND_ARGS["result"][0]]
    result = cli("new", "result", *args, "--records", records_dir, "--no-prompt")
    assert result.exit_code == 0, result.output
    assert "Completed unit 'GB' to gigabyte" in result.output
    registry, _ = validate(records_dir)
    assert registry.records[NEW_RESULT].unit == "gigabyte"  # type: ignore[attr-defined]
    ambiguous = cli("new", "result", *["B" if a == "gigabyte" else a for a in KIND_ARGS["result"][0]], "--slug",
                    "other", "--records", records_dir, "--no-prompt")
    assert ambiguous.exit_code == 1 and "--unit: " in ambiguous.output


def test_an_id_dated_after_today_is_refused(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    tomorrow = (dt.datetime.now(dt.UTC) + dt.timedelta(days=1)).strftime("%Y%m%d")
    result = new(cli, records_dir, "family", "--date", tomorrow)
    assert result.exit_code == 1
    assert f"'{tomorrow}' is after today ({TODAY}, UTC): an id's date is the day its batch was filed" in result.output
    assert "give today's date or an earlier one (--date)" in result.output
    assert not list((records_dir / "family").glob(f"*{tomorrow}*"))


def test_a_table_of_options_older_than_the_model_is_refused_with_what_to_run(cli, records_dir: Path,  # type: ignore[no-untyped-def]
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """'registry new KIND' takes its options from registry/generated/kindoptions.json; where a model changed since it was
    generated, the command says so and what to run, and writes nothing."""
    import dataclasses

    from registry.generated import kindoptions

    table = kindoptions.written()
    first, *rest = table.kinds["result"]
    stale = kindoptions.KindOptions({**table.kinds, "result": (dataclasses.replace(first, help="Older words."), *rest)},
                                    table.missing_reasons)
    monkeypatch.setattr(kindoptions, "written", lambda: stale)
    before = sorted(p for p in records_dir.rglob("*") if p.is_file())
    result = new(cli, records_dir, "result")
    assert result.exit_code == 1, result.output
    assert "registry/generated/kindoptions.json are not those of the result model any more; nothing was written" in result.output
    assert "python -m registry.generated.kindoptions --write" in result.output and "Traceback" not in result.output
    assert sorted(p for p in records_dir.rglob("*") if p.is_file()) == before


def test_new_files_a_power_of_ten_a_bound_and_a_count_as_printed(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """The one reading end to end: '3.388 × 10^1' is filed as printed with its exact value, a bound with its sign,
    a count without a direction with its missing-metadata entry."""
    import yaml

    args = [("3.388 × 10^1" if a == "33.88" else "the NT 2.5B checkpoint (< 3.388 × 10\u00b9 → 11.49 GB)"
             if a == "the NT 2.5B checkpoint (33.88 → 11.49 GB)" else a) for a in KIND_ARGS["result"][0]]
    direction = args.index("--metric-direction")
    del args[direction:direction + 2]
    result = cli("new", "result", *args, "--bound", "<", "--missing", "metric_direction=not-applicable",
                 "--records", records_dir, "--no-prompt")
    assert result.exit_code == 0, result.output
    written = yaml.safe_load((records_dir / "result" / f"{NEW_RESULT}.yaml").read_text(encoding="utf-8"))
    assert (written["printed_value"], written["numeric_value"], written["bound"]) == ("3.388 × 10^1", "33.88", "<")
    assert "metric_direction" not in written
    assert {"field": "metric_direction", "reason": "not-applicable"} in written["missing_metadata"]


def test_new_files_a_range_with_its_upper_end_read_exactly(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """A range's upper end is read as its lower end is: its exact value follows from the printed digits."""
    import yaml

    args = [("12" if a == "33.88" else "the NT 2.5B checkpoint (12–15 GB)"
             if a == "the NT 2.5B checkpoint (33.88 → 11.49 GB)" else a) for a in KIND_ARGS["result"][0]]
    result = cli("new", "result", *args, "--range-upper-printed-value", "15", "--records", records_dir, "--no-prompt")
    assert result.exit_code == 0, result.output
    written = yaml.safe_load((records_dir / "result" / f"{NEW_RESULT}.yaml").read_text(encoding="utf-8"))
    assert (written["printed_value"], written["numeric_value"], written["range_upper"]) == (
        "12", "12", {"printed_value": "15", "numeric_value": "15"})


def test_a_range_upper_end_that_is_no_number_says_why(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("new", "result", *KIND_ARGS["result"][0], "--range-upper-printed-value", "15 GB", "--records",
                 records_dir, "--no-prompt")
    assert result.exit_code == 1
    assert "'15 GB' holds more than the number: write printed_value '15' and unit: gigabyte" in result.output, \
        result.output
    assert not list((records_dir / "result").glob("*20991231*"))
