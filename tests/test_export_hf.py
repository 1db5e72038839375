"""`registry export --format hf`: files huggingface_hub's own parser reads, that mean what a Hub page shows.

A Hub page shows one value per model, benchmark and task: only headline values (never folds or
differences), one task per (dataset, metric), one value per (model, benchmark, task); file names
derived from the Hub ids cannot leave --out, and a malformed --hub-ids gets a located message.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.conftest import DATA, RESULT_11, RESULT_33
from tests.test_export import export

hub = pytest.importorskip("huggingface_hub", reason="the hf export needs huggingface_hub")

HUB_IDS = DATA / "export" / "hub-ids.yaml"
FIXTURE = DATA / "fixture-registry"
F = "fixture-genomic-20261201-"


def entries_of(out: Path) -> dict[str, list]:  # type: ignore[type-arg]
    return {p.relative_to(out).as_posix(): hub.parse_eval_result_entries(yaml.safe_load(p.read_text()))
            for p in sorted(out.rglob("*.yaml"))}


def manifest(out: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    return {item["record"]: item for item in json.loads((out / "registry-export.json").read_text())["not_carried"]}


def fixture_hub_ids(tmp_path: Path, models: dict[str, str]) -> Path:
    path = tmp_path / "hub-ids.yaml"
    path.write_text(yaml.safe_dump({"models": models, "benchmarks": {
        f"{F}dataset-h3k4me3": {"id": "fixture-org/h3k4me3", "task_id": "mcc", "metric": "mcc"},
        f"{F}dataset-h3k27ac": {"id": "fixture-org/h3k27ac", "task_id": "mcc", "metric": "mcc"},
        f"{F}dataset-splice": [{"id": "fixture-org/splice", "task_id": "mcc", "metric": "mcc"},
                               {"id": "fixture-org/splice", "task_id": "accuracy", "metric": "accuracy"}],
        f"{F}dataset-promoter": {"id": "fixture-org/promoter", "task_id": "accuracy", "metric": "accuracy"}}}))
    return path


def test_without_hub_ids_it_lists_what_it_could_not_carry(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "hf"
    result = cli("export", "--format", "hf", "--out", out)
    assert result.exit_code == 0 and "2 result(s) could not be exported" in " ".join(result.output.split())
    assert json.loads((out / "registry-export.json").read_text())["files"] == []
    reason = manifest(out)[RESULT_11]["reason"]
    assert "its configuration names no Hub model (checkpoint: Not reported)" in reason
    assert "maps to no Hub benchmark" in reason


def test_bundled_records_read_back_with_huggingface_hub(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    out = export(cli, tmp_path, "hf", "--hub-ids", str(HUB_IDS))
    found = entries_of(out)
    assert sorted(found) == [f"fixture-org/nt-2-5b-{name}-fixture/.eval_results/fixture-org--synthetic-dna-fixture.yaml"
                             for name in ("checkpointing", "zero2")]
    entries = [entry for each in found.values() for entry in each]
    assert all(len(each) == 1 for each in found.values())
    assert sorted(e.value for e in entries) == [11.49, 33.88]
    assert {(e.dataset_id, e.task_id) for e in entries} == {("fixture-org/synthetic-dna-fixture", "peak-memory")}
    assert all(e.source_url == "https://openreview.net/pdf?id=NUleWh1GFx" and e.source_name for e in entries)
    # The source does not say when it ran: the date is the pinned PDF's, never the upload's (the format's default).
    assert {e.date for e in entries} == {"2026-03-09"}
    assert any("11.49 GB as printed, uncertainty: Not reported by the source; source checked" in (e.notes or "")
               for e in entries)
    lost = manifest(out)[RESULT_11]
    assert lost["exported"] is True and lost["task_id"] == "peak-memory"
    assert "the hardware the source ran it on" in lost["fields"]
    assert "our measured and estimated values" in lost["fields"]


def test_two_results_for_one_hub_model_and_task_are_refused_not_both_written(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """Mapped through their family, both configurations would be 'the' score of one Hub model: neither is written."""
    hub_ids = tmp_path / "family.yaml"
    data = yaml.safe_load(HUB_IDS.read_text())
    data["models"] = {"saadat-fellay-20261015-family-nucleotide-transformer": "fixture-org/nt-2-5b-fixture"}
    hub_ids.write_text(yaml.safe_dump(data))
    out = export(cli, tmp_path, "hf", "--hub-ids", str(hub_ids))
    assert entries_of(out) == {}
    reasons = manifest(out)
    for result in (RESULT_11, RESULT_33):
        assert reasons[result]["exported"] is False
        assert "2 current results would be the score of Hub model fixture-org/nt-2-5b-fixture" in \
            reasons[result]["reason"]
        assert "map each configuration to its own Hub model" in reasons[result]["reason"]


def test_fixture_meaning_rules(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """On the 161-result fixture: no fold, no difference, no accuracy under an MCC task, one value per
    (model, benchmark, task), each mean with its uncertainty in the notes."""
    hub_ids = fixture_hub_ids(tmp_path, {f"{F}config-nt-2-5b": "fixture-org/nt-2-5b",
                                         f"{F}config-nt-2-5b-lora": "fixture-org/nt-2-5b-lora",
                                         f"{F}config-nt-500m": "fixture-org/nt-500m",
                                         f"{F}config-hyenadna": "fixture-org/hyenadna"})
    out = export(cli, tmp_path, "hf", "--records", str(FIXTURE), "--hub-ids", str(hub_ids))
    found = entries_of(out)
    reasons = manifest(out)
    exported = {record for record, item in reasons.items() if item["exported"] is True}
    assert not any("-fold-" in record or record.endswith("-delta") or record.endswith("-drop") for record in exported)
    for path, entries in found.items():
        tasks = [(e.dataset_id, e.task_id) for e in entries]
        assert len(tasks) == len(set(tasks)), (path, tasks)
    by_record = {item["record"]: item for item in reasons.values()}
    mean = by_record[f"{F}result-t1-nt-2-5b-h3k27ac"]
    assert mean["exported"] is True and (mean["model"], mean["task_id"]) == ("fixture-org/nt-2-5b", "mcc")
    (entry,) = [e for e in found["fixture-org/nt-2-5b/.eval_results/fixture-org--h3k27ac.yaml"]]
    assert entry.value == 0.688 and "± 0.017 (standard deviation over 10 folds)" in (entry.notes or "")
    # On H3K4me3 a pooled MCC (one value over all sequences) would share the task with means over 10 folds: a
    # Hub page would rank them together, so none of the task's values is written.
    for record in (f"{F}result-t1-nt-2-5b-h3k4me3", f"{F}result-s5-pooled-mcc"):
        assert by_record[record]["exported"] is False
        assert "task mcc are not comparable (comparability keys: " in by_record[record]["reason"]
    assert "fixture-org/nt-2-5b/.eval_results/fixture-org--h3k4me3.yaml" not in found
    assert "member of the mean" in reasons[f"{F}result-t5-nt-2-5b-fold-7-h3k4me3"]["reason"]
    assert "derived: the difference of" in reasons[f"{F}result-t2-h3k4me3-delta"]["reason"]
    # Splice accuracies go to the accuracy task, never the MCC one: two of them (bf16, fp32) for one model are
    # refused together, since a Hub page shows one.
    splice = [e for e in found.get("fixture-org/nt-2-5b/.eval_results/fixture-org--splice.yaml", [])]
    assert all(e.task_id == "mcc" and e.value < 1 for e in splice)
    assert "would be the score of Hub model fixture-org/nt-2-5b on fixture-org/splice task accuracy" in \
        reasons[f"{F}result-s5-splice-accuracy-bf16"]["reason"]
    # The fixture's source has no URL: it is named in the notes, since the format takes a name only with a URL.
    assert all(e.source_url is None and "(no retrieval URL)" in (e.notes or "")
               for entries in found.values() for e in entries)


def test_notes_write_a_value_with_its_unit_as_the_pages_do(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    hub_ids = fixture_hub_ids(tmp_path, {f"{F}config-nt-2-5b": "fixture-org/nt-2-5b",
                                         f"{F}config-hyenadna": "fixture-org/hyenadna"})
    out = export(cli, tmp_path, "hf", "--records", str(FIXTURE), "--hub-ids", str(hub_ids))
    notes = [entry.notes or "" for entries in entries_of(out).values() for entry in entries]
    assert any("), 71.3% as printed, " in note for note in notes), notes
    assert any("), 0.660 as printed, " in note for note in notes), notes
    assert not any(" % as printed" in note or "  as printed" in note for note in notes)


def test_a_result_whose_metric_no_task_scores_is_refused(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    hub_ids = tmp_path / "hub-ids.yaml"
    data = yaml.safe_load(HUB_IDS.read_text())
    data["benchmarks"]["saadat-fellay-20261015-dataset-synthetic-uniform-random-dna-seed-42"]["metric"] = "accuracy"
    hub_ids.write_text(yaml.safe_dump(data))
    out = export(cli, tmp_path, "hf", "--hub-ids", str(hub_ids))
    assert entries_of(out) == {}
    assert "its metric peak-memory is scored by no task its dataset maps to (tasks: fixture-org/synthetic-dna-fixture " \
           "peak-memory scores accuracy)" in manifest(out)[RESULT_33]["reason"]


BAD_HUB_IDS = {
    "absolute model": ({"models": {"x": "/abs/dir"}}, "models: 'x': Hub model id '/abs/dir' is not a Hub repository"),
    "parent model": ({"models": {"x": "../../dir"}}, "Hub model id '../../dir' is not a Hub repository id"),
    "deep model": ({"models": {"x": "a/b/c"}}, "Hub model id 'a/b/c' is not a Hub repository id"),
    "parent benchmark": ({"benchmarks": {"d": {"id": "../x", "task_id": "t", "metric": "m"}}},
                         "benchmarks: 'd': Hub benchmark id '../x' is not a Hub repository id"),
    "list file": (["models"], "is not a mapping of 'models' and 'benchmarks'"),
    "unknown key": ({"modles": {}}, "is not a mapping of 'models' and 'benchmarks' (it has modles)"),
    "models a list": ({"models": ["org/m"]}, "'models' is list, not a mapping of ids"),
    "model not text": ({"models": {"x": {"id": "org/m"}}}, "models: 'x' maps to {'id': 'org/m'}, not a Hub model id"),
    "no metric": ({"benchmarks": {"d": {"id": "org/b", "task_id": "t"}}},
                  "benchmarks: 'd' needs an 'id', a 'task_id' and the 'metric' it scores"),
    "number task": ({"benchmarks": {"d": {"id": "org/b", "task_id": 3, "metric": "m"}}}, "every value must be text"),
    "two metrics one task": ({"benchmarks": {"d": {"id": "org/b", "task_id": "t", "metric": "mcc"},
                                             "e": {"id": "org/b", "task_id": "t", "metric": "accuracy"}}},
                             "the task t of org/b is given the metrics mcc and accuracy"),
    "one metric two tasks": ({"benchmarks": {"d": [{"id": "org/b", "task_id": "t", "metric": "mcc"},
                                                   {"id": "org/b", "task_id": "u", "metric": "mcc"}]}},
                             "gives the metric mcc more than one task"),
}


@pytest.mark.parametrize("case", BAD_HUB_IDS, ids=list(BAD_HUB_IDS))
def test_malformed_hub_ids_get_a_located_message_and_write_nothing(tmp_path: Path, cli, case: str) -> None:  # type: ignore[no-untyped-def]
    data, message = BAD_HUB_IDS[case]
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    hub_ids = work / "hub-ids.yaml"
    hub_ids.write_text(yaml.safe_dump(data))
    out = work / "hf"
    result = cli("export", "--format", "hf", "--out", out, "--hub-ids", str(hub_ids))
    text = " ".join(result.output.split())
    assert result.exit_code == 1 and message in text, text
    assert "unexpected" not in text and "Traceback" not in text
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == ["a", "a/b", "a/b/hub-ids.yaml"]


@pytest.mark.parametrize("text", ["models: [unclosed", "\x00\x01", ""], ids=["yaml", "binary", "empty"])
def test_unreadable_hub_ids_get_a_message(tmp_path: Path, cli, text: str) -> None:  # type: ignore[no-untyped-def]
    hub_ids = tmp_path / "hub-ids.yaml"
    hub_ids.write_text(text)
    result = cli("export", "--format", "hf", "--out", tmp_path / "hf", "--hub-ids", str(hub_ids))
    words = " ".join(result.output.split())
    assert result.exit_code == 1 and str(hub_ids.name) in words and "write --hub-ids as " in words, words
    assert "unexpected" not in words and not (tmp_path / "hf").exists()


def test_file_names_come_from_one_safe_mapping() -> None:
    from registry.errors import RegistryError
    from registry.export.hf_eval_results import eval_results_path

    assert eval_results_path("org/model.v1", "bench-org/b_2").as_posix() == \
        "org/model.v1/.eval_results/bench-org--b_2.yaml"
    for bad in ("/abs/dir", "../../dir", "org/..", "org/.hidden", "a--b/c", "org/", "org\\x/y", "org/na me"):
        with pytest.raises(RegistryError, match="is not a Hub repository id"):
            eval_results_path(bad, "org/b")
        with pytest.raises(RegistryError, match="is not a Hub repository id"):
            eval_results_path("org/m", bad)


def test_a_fifo_as_hub_ids_is_refused_not_read(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    import os

    fifo = tmp_path / "hub-ids.yaml"
    os.mkfifo(fifo)
    result = cli("export", "--format", "hf", "--out", tmp_path / "hf", "--hub-ids", str(fifo))
    assert result.exit_code == 1 and "is not a regular file (a FIFO or a device is never read)" in \
        " ".join(result.output.split())
