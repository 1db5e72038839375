"""`registry show` and `registry list`, end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, CONFIG_33, DATA, RESULT_11, RESULT_33, SOURCE


def test_show_result_reads_like_its_page(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("show", RESULT_11)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    for phrase in (
        "11.5 GB · Peak memory (Training, sequence length 1000, batch size 16, stage + DeepSpeed",
        "Transcribed value: 11.49 GB as printed (display value 11.5; source checked)",
        "Tested configuration NT 2.5B, training with FlashAttention, checkpointing and ZeRO-2 offload",
        "Uncertainty Not reported by the source",
        "Coverage Not reported scored / Not reported eligible",
        "Adaptation Training step; LoRA or full update not stated",
        "Split Not applicable",
        "Evaluation metadata: source checked",
        "Release 2026-10-22-1b7cf027e4f6 · Record review: source checked",
        "Audit details: Value, metric and identity match the source.",
        "Nothing has been measured yet: the estimates below are predictions, not measurements.",
        "Estimated by us (not measured)",
    ):
        assert phrase in text, phrase


def test_show_configuration_lists_its_evaluations_and_results(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("show", CONFIG_33)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "1 evaluation · 1 result" in text
    assert "33.9 GB · Peak memory" in text and "Transcribed: 33.88 GB" in text
    assert "checkpoint: reason: unreported; note: The paper names the family and parameter count only." in text
    assert "0 evidence rows" in text


FAMILY = "saadat-fellay-20261015-family-nucleotide-transformer"


def test_show_family_lists_its_configurations_and_results_as_the_site_does(records_dir: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """Finding R4: 'registry show FAMILY' had no results, though the README and the site's page have them."""
    result = cli("show", FAMILY)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Configurations and results" in text
    assert "2 configuration(s) · 2 evaluation(s) · 2 result(s)" in text
    assert "Transcribed: 33.88 GB" in text and "Transcribed: 11.49 GB" in text

    corrected = cli("correct", RESULT_33, "--set", "printed_value=33.89", "--reason", "test", "--curator", "T. Ester",
                    "--records", records_dir)
    assert corrected.exit_code == 0, corrected.output
    after = " ".join(cli("show", FAMILY, "--records", records_dir).output.split())
    assert "2 configuration(s) · 2 evaluation(s) · 2 result(s)" in after and "Transcribed: 33.89 GB" in after
    assert "Earlier versions and withdrawn results (1)" in after and "superseded by" in after


def test_show_other_kinds_and_back_links(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("show", SOURCE)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "OpenReview PDF headed 'Published as a workshop paper at ICLR 2026' (11 pages; PDF CreationDate" in text
    assert "result 33.88 GB Peak memory (source)" in text  # a back link names the record, not its id
    assert "hash_scope: reason: unreported" in text


def test_an_input_of_a_derived_result_links_to_it(cli) -> None:  # type: ignore[no-untyped-def]
    """A derived result's page links its inputs; each input's page links back to the results computed from it."""
    fixture = DATA / "fixture-registry"
    shown = cli("show", "fixture-genomic-20261201-result-s5-splice-accuracy-fp32", "--records", fixture)
    assert shown.exit_code == 0, shown.output
    related = shown.output[shown.output.index("Related records"):]
    assert "- an input of: 0.4 pp Accuracy change" in related
    mean_input = cli("show", "fixture-genomic-20261201-result-t5-nt-2-5b-fold-1-splice", "--records", fixture).output
    assert "- an input of: 0.951 MCC" in mean_input[mean_input.index("Related records"):]
    alone = cli("show", RESULT_33).output
    assert "an input of" not in alone, "a result nothing is derived from has no such line"


def test_show_json(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("show", RESULT_33, "--format", "json")
    assert result.exit_code == 0
    record = json.loads(result.output)
    assert record["printed_value"] == "33.88" and record["numeric_value"] == "33.88"
    assert record["kind"] == "result"


def test_show_unknown_id_suggests_close_ids(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("show", "saadat-fellay-20261015-result-nt-2-5b-training-peak-memory-flashattention-checkpointing-zero")
    assert result.exit_code == 1
    assert "no record has the id" in result.output
    assert f"did you mean: {RESULT_33}" in result.output
    assert "Traceback" not in result.output


def test_show_path_like_id_is_just_unknown(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("show", "../../etc/passwd")
    assert result.exit_code == 1 and "no record has the id '../../etc/passwd'" in result.output


def test_show_refuses_an_invalid_registry(records_dir: Path, cli) -> None:  # type: ignore[no-untyped-def]
    (records_dir / "family" / "broken.yaml").write_text("kind: [")
    result = cli("show", RESULT_11, "--records", records_dir)
    assert result.exit_code == 1
    assert "yaml-syntax" in result.output and "the registry is not valid" in result.output


def test_list_all_and_by_kind(cli) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import BUNDLED_RECORDS

    everything = cli("list")
    count = len(list(BUNDLED_RECORDS.rglob("*.yaml")))
    assert everything.exit_code == 0 and f"{count} record(s)" in everything.output
    reviews = cli("list", "--kind", "review")
    assert reviews.exit_code == 0 and "3 record(s)" in reviews.output
    assert "source" not in reviews.output.split("Records")[1].split("\n")[3]  # rows are reviews only


def test_list_results_side_by_side(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("list", "--kind", "result")
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "33.88 GB" in text and "11.49 GB" in text and "33.9" in text and "11.5" in text
    assert "Measured by us" in text and "Estimated by us" in text
    # The nearest run's setting is listed whole under the table, not folded inside a cell.
    assert "nearest estimated: update_mode=full, precision=bf16-weights-fp32-adam, length_unit=tokens" in text


def test_a_review_without_artifact_hash_is_not_shown_like_one_with_it(cli) -> None:  # type: ignore[no-untyped-def]
    rows = [line for line in cli("list", "--kind", "result").output.splitlines() if line.startswith("│ ")]
    first = next(line for line in rows if "│ 1 │" in line)
    second = next(line for line in rows if "│ 2 │" in line)
    assert "source checked (no artifact hash)" in first  # 33.88 GB: its review names no file
    assert "source checked" in second and "no artifact hash" not in second  # 11.49 GB: a pinned file


def test_list_names_what_each_record_is_and_no_review_of_our_own_runs(cli) -> None:  # type: ignore[no-untyped-def]
    reviews = " ".join(cli("list", "--kind", "review").output.split())
    assert "source-checked review of 2 record(s)" in reviews
    runs = cli("list", "--kind", "reproduction").output
    assert "not reviewed" not in runs and "source checked" not in runs


def test_list_unknown_kind(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("list", "--kind", "results")
    assert result.exit_code == 1
    assert "unknown kind 'results' (did you mean 'result'?)" in result.output


def test_show_result_without_reproductions(records_dir: Path, cli) -> None:  # type: ignore[no-untyped-def]
    import shutil

    shutil.rmtree(records_dir / "reproduction")
    result = cli("show", RESULT_11, "--records", records_dir)
    assert result.exit_code == 0
    assert "No reproduction has been filed for this result." in result.output
    assert "Estimated by us" not in result.output.split("Reproduction")[1].split("Evidence")[0]


def test_runs_without_a_ratio_still_show_their_values() -> None:
    """A transcribed 0 gives runs a value but no ratio: they are not 'no value'."""
    from registry.models import Reproduction
    from registry.page.runs import runs_summary as _runs_summary
    from registry.validate.runner import validate
    from tests.conftest import BUNDLED_RECORDS

    registry, _ = validate(BUNDLED_RECORDS)
    runs = [r.model_copy(update={"comparison": None}) for r in registry.of_kind(Reproduction)][:3]
    summary = _runs_summary(runs, "GB")
    assert summary.startswith("3 setting(s), CPU estimate; from ") and summary.endswith(" GB"), summary


@pytest.mark.parametrize("width", [80, 100, 120, 200])
def test_the_results_table_never_cuts_a_header_word(width: int) -> None:
    from rich.console import Console

    from registry.page.show import results_table

    registry, _ = validate(BUNDLED_RECORDS)
    console = Console(width=width, record=True)
    console.print(results_table(registry))
    header = "\n".join(console.export_text().splitlines()[1:5])
    for word in ("Evaluation", "Transcribed", "(display)", "Uncertainty", "Review", "Measured", "Estimated"):
        assert word in header, (width, word, header)


def test_an_estimate_is_never_called_reproduced_or_measured(cli) -> None:  # type: ignore[no-untyped-def]
    """The comparison names the run's value by its method: an estimate is no reproduction (finding P6)."""
    from registry.models import Reproduction

    registry, _ = validate(BUNDLED_RECORDS)
    run = next(r for r in registry.of_kind(Reproduction) if r.method.value == "estimated" and r.comparison)
    result = cli("show", run.id)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert run.comparison is not None
    assert f"transcribed: {run.comparison.transcribed}; estimated by us: {run.comparison.reproduced};" in text
    assert "reproduced:" not in text


def test_the_reproduce_table_says_what_its_values_are() -> None:
    """Estimates, measurements and dry runs are titled apart; a narrow terminal keeps the 'Outcome' header whole."""
    from rich.console import Console

    from measure.outcome import Method
    from measure.settings import Setting, Stage
    from registry.cli.reproduce import results_table
    from registry.models import Result
    from registry.reproduce.types import Filed, Job
    from tests.test_reproduce import outcome_for

    registry, _ = validate(BUNDLED_RECORDS)
    transcribed = registry.get_as(RESULT_33, Result)
    setting = Setting(model="nt-tiny", stage=Stage.CHECKPOINTING, sequence_length=64, batch_size=2)

    def table(method: Method, dry_run: bool) -> str:
        filed = [Filed(job=Job(setting), outcome=outcome_for(setting, method=method, dry_run=dry_run,
                                                              peak=None if dry_run else 30_120_000_000))]
        console = Console(width=80, record=True)
        console.print(results_table(transcribed, filed, method=method, smoke=True))
        return console.export_text()

    dry = table(Method.MEASURED, True)
    assert "beside a CPU dry run (nothing measured)" in " ".join(dry.split())
    assert "Meas." not in dry and "measured values" not in dry and "Outcome" in dry
    assert "beside our measured values" in " ".join(table(Method.MEASURED, False).split())
    estimated = table(Method.ESTIMATED, False)
    assert "beside our estimated values" in " ".join(estimated.split()) and "Est. GB" in estimated


def test_a_setting_run_again_counts_as_one_setting_and_two_runs() -> None:
    """Re-running one setting adds a run, not a setting (finding P8: '21 setting(s)' for 20 settings)."""
    from registry.models import Reproduction
    from registry.page.runs import runs_summary as _runs_summary

    registry, _ = validate(BUNDLED_RECORDS)
    runs = [r for r in registry.of_kind(Reproduction) if r.result == RESULT_33 and r.value is not None]
    distinct = len({tuple(sorted(r.setting.items())) for r in runs})
    assert _runs_summary(runs, "GB").startswith(f"{distinct} setting(s), ")
    again = runs[0].model_copy(update={"id": runs[0].id + "-again"})
    assert _runs_summary([*runs, again], "GB").startswith(f"{distinct} setting(s) ({len(runs) + 1} runs), ")


@pytest.mark.parametrize("width", [80, 100])
def test_the_results_table_never_splits_a_word_of_a_cell_or_a_row_number(width: int) -> None:
    """At 80 columns with --all, 'source checked' and 'current' read whole, and row 10 reads '10', not '…' (P9)."""
    import re

    from rich.console import Console

    from registry.page.show import results_table
    from tests.conftest import DATA

    for records in (BUNDLED_RECORDS, DATA / "fixture-registry"):
        registry, _ = validate(records)
        console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
        console.print(results_table(registry, history=True))
        text = console.export_text()
        assert "…" not in text
        rows = [line for line in text.splitlines() if line.startswith("│")]
        cells = [cell.strip() for line in rows for cell in line.strip("│").split("│")]
        for word in ("source", "checked", "current", "reviewed", "transcribed", "Checkpointing"):
            assert not any(cell and word.startswith(cell) and cell != word and re.fullmatch(r"[a-z(]+", cell)
                           for cell in cells if len(cell) >= 4), (records.name, word)
        numbers = [cell for line in rows for cell in [line.strip("│").split("│")[0].strip()] if cell]
        assert numbers == [str(n) for n in range(1, len(numbers) + 1)], numbers[:12]


def test_a_derived_result_names_its_inputs_with_their_values(cli) -> None:  # type: ignore[no-untyped-def]
    """Finding R2: 'Derived' printed bare ids and an empty 'inputs: ;'."""
    fixture = DATA / "fixture-registry"
    drop = cli("show", "fixture-genomic-20261201-result-s5-splice-accuracy-drop", "--records", fixture)
    assert drop.exit_code == 0, drop.output
    text = " ".join(drop.output.split())
    assert ("operation: difference; value: Splice sites, Accuracy in fp32 (94.2%); "
            "baseline: Splice sites, Accuracy in bf16 (93.8%); note: Stated in the same sentence") in text
    assert "inputs: ;" not in text and "inputs:" not in text
    mean = cli("show", "fixture-genomic-20261201-result-t1-hyenadna-h3k27ac", "--records", fixture)
    assert mean.exit_code == 0, mean.output
    text = " ".join(mean.output.split())
    assert "operation: mean; inputs: H3K27ac, test fold 1 (Table 5) (0.668), " in text
    assert "value:" not in text.partition("operation: mean")[2].partition("Source")[0]


def test_a_yes_no_field_reads_as_words(cli) -> None:  # type: ignore[no-untyped-def]
    """Finding R6: a recipe's page read 'Verified False'."""
    result = cli("show", "saadat-fellay-20261015-recipe-nt-2-5b-training-peak-memory-flashattention-checkpointing")
    assert result.exit_code == 0, result.output
    lines = [" ".join(line.split()) for line in result.output.splitlines()]
    assert "Verified no" in lines and not any("False" in line for line in lines)


EVIDENCE_11 = "saadat-fellay-20261015-evidence-result-nt-2-5b-training-peak-memory-flashattention-checkpointing-zero2-reported-result"


def test_an_evidence_row_has_the_status_of_the_review_that_checked_it(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """Finding R5: the evidence row read 'not reviewed' in list, on its page and in SQL, beside the source-checked
    review it names ('the review that checked this statement')."""
    listed = cli("list", "--kind", "evidence")
    assert listed.exit_code == 0, listed.output
    assert "source checked" in listed.output and "not reviewed" not in listed.output

    page = cli("show", RESULT_11)
    row = " ".join(page.output.split()).partition("Reported result 11.49")[2][:400]
    assert "not reviewed" not in row and "source checked" in row

    database = tmp_path / "registry.db"
    assert cli("db", "build", "--out", database).exit_code == 0
    answer = cli("query", "--db", database, "--format", "csv",
                 f"SELECT review_status, review_label, review_count FROM record_review_status "
                 f"WHERE record_id = '{EVIDENCE_11}'")
    assert answer.exit_code == 0, answer.output
    assert answer.output.splitlines()[-1] == "source-checked,source checked,1"


def test_our_runs_name_the_commit_and_versions_they_ran_at(cli) -> None:  # type: ignore[no-untyped-def]
    """'registry show RESULT' named our runs' hardware but not the commit or versions behind their values."""
    result = cli("show", RESULT_11)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert ("Hardware: CPU estimate (FakeTensorMode + MemTracker); attention: sdpa-flash-cpu; run on 2026-11-29; "
            "commit 7e2970bdd772+dirty; torch 2.13.0+cpu; transformers 5.24.0; peft 0.21.2; deepspeed 0.19.8") in text
    both = " ".join(cli("show", RESULT_33).output.split())
    assert "commit e2bfbf88829a; torch 2.13.0+cpu" in both
