"""One scale per metric, the comparability key, and leaderboards that rank only what is comparable.

The registry of two papers is the fixture paper's records with an imaginary second paper's laid over them
(``tests/data/crosspaper``): both papers' dataset records point to one benchmark record (Splice sites); top-1
accuracy as a fraction beside the fixture's percentages, a bound, a zero-shot value, and a single-seed MCC beside
an aggregate over 5 seeds.
"""

from __future__ import annotations

import shutil
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest

from registry.comparability import leaderboard, placed
from registry.metrics import canonical, canonical_unit, identity
from registry.store.loader import load_registry
from tests.conftest import DATA

SPLICE = "fixture-shared-20261202-benchmark-splice-sites"
SECOND = "fixture-second-20261202-result-"


def two_papers(root: Path) -> Path:
    """The fixture registry with the second paper's records laid over it."""
    shutil.copytree(DATA / "fixture-registry", root)
    for folder in (DATA / "crosspaper").iterdir():
        if folder.is_dir():
            (root / folder.name).mkdir(exist_ok=True)
            for path in folder.iterdir():
                shutil.copy(path, root / folder.name / path.name)
    return root


@pytest.fixture(scope="module")
def registry_of_two(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    registry, report = load_registry(two_papers(tmp_path_factory.mktemp("two") / "records"))
    assert not report.errors
    return registry


# -- one scale per metric ---------------------------------------------------------------------------


@pytest.mark.parametrize(("metric", "value", "unit", "expected", "target"), [
    ("accuracy", "0.91", "dimensionless", "91", "percent"),
    ("top1", "0.951", "dimensionless", "95.1", "percent"),
    ("accuracy", "86.9", "percent", "86.9", "percent"),
    ("mcc", "95.1", "percent", "0.951", "dimensionless"),
    ("peak-memory", "2", "gibibyte", "2.147483648", "gigabyte"),
    ("peak-memory", "1536", "megabyte", "1.536", "gigabyte"),
    ("latency", "1.5", "second", "1500", "millisecond"),
    ("training-time", "2", "hour", "7200", "second"),
])
def test_a_value_converts_exactly_to_its_metrics_canonical_unit(metric: str, value: str, unit: str, expected: str,
                                                                 target: str) -> None:
    scaled = canonical(metric, Decimal(value), unit)
    assert scaled.converted and scaled.unit == target
    assert scaled.value == Decimal(expected) and isinstance(scaled.value, Decimal)


def test_percent_and_fraction_of_an_undeclared_metric_are_never_converted_into_one_another() -> None:
    """Nothing says an undeclared metric is a proportion: its percent and its fraction keep apart."""
    assert canonical_unit("win-rate", "percent") == "percent"
    assert canonical_unit("win-rate", "dimensionless") == "dimensionless"
    assert canonical("win-rate", Decimal("0.6"), "dimensionless").value == Decimal("0.6")


def test_a_unit_without_a_scale_stays_as_it_is_with_the_reason() -> None:
    assert canonical("throughput", Decimal(412), "sequences-per-second").unit == "sequences-per-second"
    refused = canonical("accuracy", Decimal(3), "sequences-per-second")
    assert not refused.converted and refused.unit == "sequences-per-second"
    assert "does not convert" in (refused.why_not or "")


def test_other_names_of_a_metric_are_one_identity() -> None:
    assert identity("top1").token == identity("top-1-accuracy").token == "accuracy"
    assert identity("some-new-score").declared is None and identity("some-new-score").token == "some-new-score"


# -- the key and the boards -------------------------------------------------------------------------


def test_two_papers_on_one_benchmark_share_one_board_in_one_scale(registry_of_two) -> None:  # type: ignore[no-untyped-def]
    board = leaderboard(registry_of_two, SPLICE, "accuracy")
    first = board.boards[0]
    ranked = [(e.rank, e.placed.result.printed_value, str(e.placed.canonical.value)) for e in first.entries]
    assert ranked == [(1, "0.951", "95.1"), (2, "94.2", "94.2"), (3, "93.8", "93.8")]
    assert {e.placed.result.source for e in first.entries} == {
        "fixture-genomic-20261201-source-genomic-benchmarks-fixture", "fixture-second-20261202-source-lumen-fixture"}


def test_a_bound_and_a_zero_shot_value_are_never_ranked_beside_the_others(registry_of_two) -> None:  # type: ignore[no-untyped-def]
    board = leaderboard(registry_of_two, SPLICE, "accuracy")
    apart = {p.result.id: why for p, why in board.not_comparable}
    assert apart == {f"{SECOND}top1-bound": "it is a bound ('> 0.95'), not one value"}
    zero = [b for b in board.boards if b.facets.setting == "zero-shot"]
    assert [[e.placed.result.id for e in b.entries] for b in zero] == [[f"{SECOND}zero-shot-accuracy"]]
    assert all(b.facets.setting == "unstated" for b in board.boards if b is not zero[0])


def test_a_single_seed_is_never_ranked_beside_an_aggregate_over_seeds(registry_of_two) -> None:  # type: ignore[no-untyped-def]
    boards = leaderboard(registry_of_two, SPLICE, "mcc").boards
    seed = next(b for b in boards if any(e.placed.result.id == f"{SECOND}seed-mcc" for e in b.entries))
    assert seed.facets.aggregate == "single value" and len(seed.entries) == 1
    over_seeds = next(b for b in boards if b.facets.aggregate == "aggregate over 5 seeds")
    assert f"{SECOND}seed-mcc" not in {e.placed.result.id for e in over_seeds.entries}


def test_one_fold_of_a_printed_mean_is_set_aside_and_the_mean_ranked(registry_of_two) -> None:  # type: ignore[no-untyped-def]
    board = leaderboard(registry_of_two, SPLICE, "mcc")
    folds = [p for p, why in board.not_comparable if "one of the values a printed mean" in why]
    assert len(folds) == 30 and all(p.facets.aggregate == "single fold of 10" for p in folds)
    means = next(b for b in board.boards if b.facets.aggregate == "mean over 10 folds")
    assert [e.placed.result.printed_value for e in means.entries] == ["0.958", "0.953", "0.951", "0.934"]


def test_speed_and_memory_keys_name_the_hardware(registry_of_two) -> None:  # type: ignore[no-untyped-def]
    hardware = {p.facets.metric: p.facets.hardware for p in placed(registry_of_two)}
    assert hardware["throughput"] == "1 × NVIDIA A100"
    assert hardware["mcc"] == "any"


# -- SQL -------------------------------------------------------------------------------------------


def test_the_sql_views_derive_the_same_key_and_ranks_as_python(registry_of_two, tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "two.db"
    assert cli("db", "build", "--records", registry_of_two.root, "--out", db).exit_code == 0
    connection = sqlite3.connect(db)
    rows = {row[0]: row[1:] for row in connection.execute(
        "SELECT result_id, comparability_key, canonical_unit, canonical_value, not_ranked_because FROM comparability")}
    python = {p.result.id: p for p in placed(registry_of_two)}
    assert set(rows) == set(python)
    for result_id, (key, unit, value, why) in rows.items():
        expected = python[result_id]
        assert (key, unit, why) == (expected.facets.key, expected.canonical.unit, expected.why_not), result_id
        assert value == pytest.approx(float(expected.canonical.value)), result_id
    ranked = connection.execute(
        "SELECT rank, printed_value, canonical_value FROM leaderboard WHERE benchmark = ? AND metric = 'accuracy' "
        "AND setting = 'unstated' ORDER BY rank", (SPLICE,)).fetchall()
    assert ranked == [(1, "0.951", pytest.approx(95.1)), (2, "94.2", 94.2), (3, "93.8", 93.8)]
    best = connection.execute(  # the first of the five questions: the best comparable value per key
        "SELECT comparability_key, printed_value FROM leaderboard WHERE rank = 1 AND metric = 'accuracy' "
        "ORDER BY comparability_key").fetchall()
    assert [printed for _, printed in best] == ["71.3", "0.951", "61.0"]
    connection.close()


# -- the command -----------------------------------------------------------------------------------


def test_registry_leaderboard_ranks_within_keys_and_says_why_the_rest_is_apart(registry_of_two, cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("leaderboard", "splice", "--metric", "top1", "--records", registry_of_two.root)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Lumen-B (second fixture paper)" in out and "NT 2.5B, full fine-tuning" in out
    assert "95.1" in out and "0.951" in out  # the canonical value beside the value as printed
    assert "Not comparable because" in out and "it is a bound ('> 0.95'), not one value" in out
    assert out.index("Lumen-B (second fixture paper)") < out.index("94.2%")


def test_registry_leaderboard_names_the_benchmarks_when_none_matches(registry_of_two, cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("leaderboard", "planes-100", "--records", registry_of_two.root)
    assert result.exit_code != 0
    assert "no benchmark 'planes-100'" in result.output and SPLICE in result.output
    several = cli("leaderboard", "h3k", "--records", registry_of_two.root)
    assert several.exit_code != 0 and "names several benchmarks" in several.output


def test_shots_belong_to_a_few_shot_evaluation() -> None:
    from pydantic import ValidationError

    from registry.models import Evaluation

    base = {"kind": "evaluation", "id": "x-20240101-evaluation-y", "name": "y", "configuration": "c",
            "protocol": "p", "dataset": "d", "independence": "developer"}
    with pytest.raises(ValidationError, match="shots \\(5\\) belong to a few-shot evaluation"):
        Evaluation.model_validate({**base, "setting": "zero-shot", "shots": 5})
    assert Evaluation.model_validate({**base, "setting": "few-shot", "shots": 5}).shots == 5


# -- exports ---------------------------------------------------------------------------------------


def test_every_eval_ever_scores_one_metric_in_one_unit_with_a_unique_evaluation_id(registry_of_two, tmp_path: Path,
                                                                                  cli) -> None:  # type: ignore[no-untyped-def]
    from tests.test_export import eee_logs, export

    logs = eee_logs(export(cli, tmp_path, "every-eval-ever", "--records", str(registry_of_two.root)))
    ids = [log["evaluation_id"] for log in logs.values()]
    assert len(ids) == len(set(ids))  # NT 2.5B full and LoRA share a model id and a date, not an evaluation id
    scores = {r["evaluation_result_id"]: r for log in logs.values() for r in log["evaluation_results"]}
    fraction = scores[f"{SECOND}top1-fraction"]
    percent = scores["fixture-genomic-20261201-result-s5-splice-accuracy-fp32"]
    for entry in (fraction, percent):
        assert (entry["metric_config"]["metric_id"], entry["metric_config"]["metric_unit"]) == ("accuracy", "percent")
    assert fraction["score_details"]["score"] == 95.1 and fraction["score_details"]["details"]["printed_value"] == \
        "0.951"
    assert fraction["metric_config"]["max_score"] == 100.0
    assert fraction["score_details"]["details"]["comparability_key"] != \
        scores[f"{SECOND}zero-shot-accuracy"]["score_details"]["details"]["comparability_key"]


def test_hugging_face_writes_one_scale_and_never_one_task_over_two_keys(registry_of_two, tmp_path: Path,
                                                                       cli) -> None:  # type: ignore[no-untyped-def]
    import json

    import yaml

    hub = pytest.importorskip("huggingface_hub", reason="the hf export needs huggingface_hub")
    from tests.test_export import export

    hub_ids = tmp_path / "hub-ids.yaml"
    hub_ids.write_text(yaml.safe_dump({
        "models": {"fixture-second-20261202-config-lumen-b": "fixture-org/lumen-b",
                   "fixture-genomic-20261201-config-nt-500m": "fixture-org/nt-500m"},
        "benchmarks": {SPLICE: {"id": "fixture-org/splice", "task_id": "accuracy", "metric": "top1"}}}))
    records = tmp_path / "records"
    shutil.copytree(registry_of_two.root, records)
    out = export(cli, tmp_path / "mixed", "hf", "--records", str(records), "--hub-ids", str(hub_ids))
    reasons = {i["record"]: i for i in json.loads((out / "registry-export.json").read_text())["not_carried"]}
    # The zero-shot accuracy would share the task with the others: none of the task's values is written.
    assert not list(out.rglob("*.yaml"))
    assert "are not comparable (comparability keys: " in reasons[f"{SECOND}top1-fraction"]["reason"]
    assert "setting=zero-shot" in reasons[f"{SECOND}zero-shot-accuracy"]["reason"]
    (records / "result" / f"{SECOND}zero-shot-accuracy.yaml").unlink()
    out = export(cli, tmp_path / "one-key", "hf", "--records", str(records), "--hub-ids", str(hub_ids))
    (path,) = out.rglob("*.yaml")
    (entry,) = hub.parse_eval_result_entries(yaml.safe_load(path.read_text()))
    assert entry.value == 95.1 and "0.951 as printed (written as 95.1%)" in (entry.notes or "")


def test_the_sites_value_sort_ranks_within_a_key_in_the_canonical_unit(registry_of_two) -> None:  # type: ignore[no-untyped-def]
    from registry.models import Result
    from registry.site.index import SORT_GROUP, value_sort_key

    def key(result_id: str) -> tuple[str, str]:
        group, number = value_sort_key(registry_of_two, registry_of_two.get_as(result_id, Result)).split(SORT_GROUP)
        return group, number

    fraction, percent = key(f"{SECOND}top1-fraction"), key("fixture-genomic-20261201-result-s5-splice-accuracy-fp32")
    assert fraction[0] == percent[0] and (fraction[1], percent[1]) == ("95.1", "94.2")
    assert key(f"{SECOND}zero-shot-accuracy")[0] != percent[0]
    assert key(f"{SECOND}top1-bound")[0].startswith("~ not ranked (it is a bound")


# -- benchmarks shared across papers ---------------------------------------------------------------


def test_registry_new_offers_the_benchmark_a_new_dataset_is_named_like(registry_of_two, tmp_path: Path,
                                                                       cli) -> None:  # type: ignore[no-untyped-def]
    records = tmp_path / "records"
    shutil.copytree(registry_of_two.root, records)
    named = cli("new", "dataset", "--name", "Splice-acceptor held-out split (a third paper)", "--source",
                "fixture-second-20261202-source-lumen-fixture", "--records", records, "--no-prompt", "--dry-run")
    assert named.exit_code == 0, named.output
    assert "warning dataset-benchmark-unlinked" in named.output
    assert "fixture-shared-20261202-benchmark-splice-sites ('Splice sites, acceptor')" in named.output
    pointed = cli("new", "dataset", "--name", "Splice-acceptor held-out split (a third paper)", "--source",
                  "fixture-second-20261202-source-lumen-fixture", "--benchmark", "splice-sites", "--records", records,
                  "--no-prompt", "--dry-run")
    assert pointed.exit_code == 0 and "dataset-benchmark-unlinked" not in pointed.output
    assert "benchmark: fixture-shared-20261202-benchmark-splice-sites" in pointed.output  # completed from a part


def test_a_dataset_that_says_why_it_is_not_the_benchmark_is_not_offered_it() -> None:
    from registry.models import Dataset
    from registry.models.benchmark import Benchmark
    from registry.validate.rules.benchmarks import benchmarks_named

    birds = Benchmark.model_validate({"kind": "benchmark", "id": "x-20240101-benchmark-cub", "name": "CUB-200-2011",
                                      "aliases": ["Birds-200"]})
    assert benchmarks_named([birds], "Birds-200 test split (Lumen)") == [birds]
    assert benchmarks_named([birds], "Birds-2000 (Lumen)") == []
    private = Dataset.model_validate({"kind": "dataset", "id": "x-20240101-dataset-birds", "name": "Birds-200 private",
                                      "source": "x-20240101-source-s", "missing_metadata": [
                                          {"field": "benchmark", "reason": "not-applicable",
                                           "note": "a private re-split of Birds-200"}]})
    assert private.benchmark is None and private.missing_metadata[0].field == "benchmark"
