"""Transcribe the fixture paper into a records folder: tests/data/fixture-registry/.

A test fixture, like the paper: every number is invented. The records are written from the
paper's truth file (truth.json), which lists every number the PDF prints with its place,
unit, uncertainty and derivation, and from what the paper's prose says about its tasks,
models and hardware (transcribed by hand below, with the section that says it). Run it from
the repository root after the paper or the record models change:

    python tests/data/papers/genomic-benchmarks-fixture/transcribe.py

Numbers that repeat another number of the paper (the abstract's, say) are not filed twice:
the table cell they repeat is the result. tests/test_fixture_registry.py checks that every
other result of the truth file is filed, as printed, where it is printed.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
OUT = ROOT / "tests" / "data" / "fixture-registry"
sys.path.insert(0, str(ROOT))

from registry.ids import slugify  # noqa: E402
from registry.models import KIND_MODELS  # noqa: E402
from registry.store.writer import record_to_yaml  # noqa: E402

BATCH = "fixture-genomic"
DAY = "20261201"
COMMENT = "Test fixture: transcribed from tests/data/papers/genomic-benchmarks-fixture (invented numbers)."


def rid(kind: str, slug: str) -> str:
    return f"{BATCH}-{DAY}-{kind}-{slugify(slug)}"


SOURCE = rid("source", "genomic-benchmarks-fixture")
TRUTH = json.loads((HERE / "truth.json").read_text(encoding="utf-8"))
PDF = next(d for d in TRUTH["documents"] if d["file"] == "paper.pdf")

# -- what the prose says (hand transcription, with where it says it) ------------------------------

HARDWARE = {
    "hw-h100": {"accelerator": "NVIDIA H100", "count": 8, "memory": {"value": "80", "unit": "gigabyte"},
                "stated": "one node with 8 NVIDIA H100 GPUs (80 GB each)", "verbatim": True,
                "location": "section 4"},
    "hw-a100": {"accelerator": "NVIDIA A100", "count": 1, "memory": {"value": "40", "unit": "gigabyte"},
                "stated": "a single NVIDIA A100 GPU with 40 GB of memory", "verbatim": True, "location": "section 6"},
}
FAMILIES = {"nt": "Nucleotide Transformer", "hyena": "HyenaDNA"}
#: configuration key -> (family, reported name, name, fine-tuning)
CONFIGS = {
    "nt-500m": ("nt", "NT 500M", "NT 500M, full fine-tuning (genomic benchmarks fixture)", "full fine-tuning"),
    "nt-2.5b": ("nt", "NT 2.5B", "NT 2.5B, full fine-tuning (genomic benchmarks fixture)", "full fine-tuning"),
    "nt-2.5b-lora": ("nt", "NT 2.5B", "NT 2.5B, LoRA r = 8 (genomic benchmarks fixture)", "LoRA (r = 8)"),
    "hyenadna": ("hyena", "HyenaDNA", "HyenaDNA, full fine-tuning (genomic benchmarks fixture)", "full fine-tuning"),
}
MODEL_CONFIG = {"NT 500M": "nt-500m", "NT 2.5B": "nt-2.5b", "HyenaDNA": "hyenadna"}
#: dataset key -> (name, task names in the truth file, splits, folds)
DATASETS = {
    "h3k4me3": ("H3K4me3 (genomic benchmarks fixture)", ("H3K4me3",),
                [{"name": "all", "size": 14968, "items": "sequences of 500 bp", "note": "split into 10 folds for "
                  "cross-validation, stratified by label (section 3)"}], 10),
    "h3k27ac": ("H3K27ac (genomic benchmarks fixture)", ("H3K27ac",),
                [{"name": "all", "size": 14968, "items": "sequences of 500 bp", "note": "split into 10 folds for "
                  "cross-validation, stratified by label (section 3)"}], 10),
    "promoter": ("Promoter (genomic benchmarks fixture)", ("Promoter", "Promoter (held-out test split)"),
                 [{"name": "all", "size": 53276, "items": "sequences of 300 bp", "note": "split into 10 folds for "
                   "cross-validation, stratified by label (section 3)"},
                  {"name": "held-out test", "size": 150, "items": "sequences", "note": "contained in no fold "
                   "(section 3)"}], 10),
    "splice": ("Splice sites, acceptor (genomic benchmarks fixture)", ("Splice sites", "Splice sites (acceptor)"),
               [{"name": "all", "size": 19961, "items": "sequences of 400 bp, centred on the acceptor site with 200 bp "
                 "on each side (footnote 1)", "note": "split into 10 folds for cross-validation, stratified by label "
                 "(section 3)"}], 10),
}
TASK_DATASET = {task: key for key, (_, tasks, _, _) in DATASETS.items() for task in tasks}
#: protocol key -> name
PROTOCOLS = {
    "cv": "Fine-tuning, then MCC on each test fold of 10-fold cross-validation, mean (and s.d.) over the folds "
          "(genomic benchmarks fixture Tables 1, 2 and 5)",
    "pooled": "MCC of the pooled test-fold predictions with a percentile-bootstrap confidence interval (genomic "
              "benchmarks fixture section 5)",
    "seeds": "MCC over 5 seeds with its standard error (genomic benchmarks fixture section 5)",
    "accuracy": "Accuracy at a threshold fixed in advance (genomic benchmarks fixture section 5)",
    "training": "Peak GPU memory and step time of fine-tuning (genomic benchmarks fixture section 5.1, Figure 1)",
    "throughput": "Inference throughput and latency at batch size 32 with bf16 autocast (genomic benchmarks fixture "
                  "section 6, Table 3)",
}

# -- how the truth file's words map onto the registry's -------------------------------------------

UNITS = {None: "dimensionless", "%": "percent", "GB": "gigabyte", "Sequences/s": "sequences-per-second",
         "sequences per second": "sequences-per-second", "ms": "millisecond", "s": "second",
         "percentage points": "percentage-point", "×": "times", "times": "times"}
UNCERTAINTY_KINDS = {"standard deviation": "standard-deviation", "standard error of the mean": "standard-error",
                     "confidence interval": "confidence-interval"}
REPEATS = {"cross-validation folds": "folds", "seeds": "seeds", "bootstrap resamples": "bootstrap-resamples"}
#: quantity -> (metric slug, direction)
METRICS = {
    "MCC": ("mcc", "higher"), "MCC on one test fold": ("mcc", "higher"),
    "MCC change (LoRA minus full fine-tuning)": ("mcc-change", "higher"),
    "MCC of pooled predictions": ("mcc", "higher"), "MCC, mean over seeds": ("mcc", "higher"),
    "accuracy": ("accuracy", "higher"), "accuracy in fp32": ("accuracy", "higher"),
    "accuracy in bf16": ("accuracy", "higher"), "accuracy drop from fp32 to bf16": ("accuracy-change", "lower"),
    "inference throughput": ("throughput", "higher"), "latency per batch of 32 sequences": ("latency", "lower"),
    "peak training memory, full fine-tuning": ("peak-memory", "lower"),
    "peak training memory, LoRA": ("peak-memory", "lower"),
    "relative reduction of peak training memory (LoRA vs full fine-tuning)": ("peak-memory-reduction", "higher"),
    "training step time, full fine-tuning": ("step-time", "lower"),
    "training step time, LoRA": ("step-time", "lower"),
    "training step speed-up of LoRA over full fine-tuning": ("speed-up", "higher"),
    "peak GPU memory during the evaluation pass, full fine-tuning": ("peak-memory", "lower"),
    "throughput ratio HyenaDNA / NT 500M": ("throughput-ratio", "higher"),
    "largest MCC loss of LoRA vs full fine-tuning (a magnitude, printed as 'at most')": ("mcc-change", "lower"),
}
OPERATIONS = {"difference": "difference", "ratio": "ratio", "speedup": "speed-up", "mean": "mean",
              "reduction": "reduction", "relative_reduction": "reduction"}


def protocol_of(entry: dict[str, Any]) -> str:
    label = entry["location"].get("label")
    quantity = entry["quantity"]
    if label in ("Table 1", "Table 2", "Table 5") or quantity in ("MCC change (LoRA minus full fine-tuning)",
                                                                  "largest MCC loss of LoRA vs full fine-tuning "
                                                                  "(a magnitude, printed as 'at most')"):
        return "cv"
    if label == "Table 3" or quantity.startswith("inference throughput") or quantity.startswith("throughput"):
        return "throughput"
    if quantity == "MCC of pooled predictions":
        return "pooled"
    if quantity == "MCC, mean over seeds":
        return "seeds"
    if quantity.startswith("accuracy"):
        return "accuracy"
    return "training"


def config_of(entry: dict[str, Any]) -> str:
    column = " / ".join(entry["location"].get("column", []))
    if "LoRA" in column or "LoRA" in entry["quantity"] or entry["quantity"].endswith(", LoRA") or \
            "speed-up of LoRA" in entry["quantity"] or "reduction of peak training memory" in entry["quantity"]:
        return "nt-2.5b-lora"
    model = entry.get("model") or ("HyenaDNA" if "HyenaDNA" in entry["quantity"] else "NT 2.5B")
    return MODEL_CONFIG[model]


def dataset_of(entry: dict[str, Any]) -> str:
    task = entry.get("task")
    if task is None:
        return "all-tasks"
    return TASK_DATASET[task]


def locator(entry: dict[str, Any]) -> dict[str, Any]:
    where = entry["location"]
    found: dict[str, Any] = {"page": entry["page"]}
    if where["kind"] == "table-cell":
        found.update(table=where["label"], row=" / ".join(where["row"]), column=" / ".join(where["column"]),
                     quote=where["cell_text"])
    elif where["kind"] == "caption":
        found.update(figure=where["label"], caption=True, quote=where["quote"]) if where["label"].startswith("Fig") \
            else found.update(table=where["label"], caption=True, quote=where["quote"])
    elif where["kind"] == "footnote":
        found.update(footnote=where.get("mark", "1"), quote=where["quote"])
    else:
        section = where.get("section")
        if where.get("paragraph"):
            section = f"{section}, paragraph '{where['paragraph'].rstrip('.')}'"
        found.update(section=section, quote=where["quote"])
    return found


def uncertainty(entry: dict[str, Any]) -> dict[str, Any] | None:
    printed = entry.get("uncertainty")
    if printed is None:
        return None
    new: dict[str, Any] = {"kind": UNCERTAINTY_KINDS[printed["kind"]], "printed": printed["printed"]}
    for part in ("half_width", "lower", "upper"):
        if part in printed:
            new[part] = printed[part]
    if "level" in printed:
        new["level"] = printed["level"].rstrip("%")
    if "n" in printed:
        new["over"] = {"kind": REPEATS[printed["n_of"]], "count": printed["n"]}
    if printed.get("kind_stated_in"):
        new["note"] = f"The kind is stated in the {printed['kind_stated_in'].replace('same sentence', 'same sentence')}"
        if printed.get("method"):
            new["note"] += f"; {printed['method']}"
    return new


def derivation(entry: dict[str, Any], result_ids: dict[str, str]) -> dict[str, Any] | None:
    derived = entry.get("derived")
    if derived is None or derived["operation"] not in OPERATIONS:
        return None
    operation = OPERATIONS[derived["operation"]]
    if operation == "mean":
        return {"operation": "mean", "inputs": [result_ids[i] for i in derived["inputs"]],
                "note": derived.get("stated_in")}
    import re

    named = list(dict.fromkeys(re.findall(r"\{([^}]+)\}", derived["formula"])))
    constants = re.search(r"\d", re.sub(r"\{[^}]+\}", "", derived["formula"]).replace("* 100", ""))
    if len(named) != 2 or any(n not in result_ids for n in named) or constants:
        return None  # a formula with constants (32 / throughput * 1000) is not an operation of two results
    first, second = named
    if operation in ("difference", "ratio"):
        value, baseline = first, second
    else:  # a speed-up of a time is '{full} / {lora}', a reduction '({full} - {lora}) / {full}': value is LoRA's
        value, baseline = second, first
    note = derived.get("stated_in")
    return {"operation": operation, "value": result_ids[value], "baseline": result_ids[baseline],
            "note": f"Stated in the {note}" if note and note != "same sentence" else "Stated in the same sentence"}


def qualifier(entry: dict[str, Any]) -> str:
    """What the metric's value is of, beside its name: task, fold, setting, without repeating the metric."""
    where, task = entry["location"], entry.get("task")
    label = where.get("label")
    if label == "Table 1":
        detail = "mean over 10 folds (Table 1)"
    elif label == "Table 2":
        detail = f"{' / '.join(where['column'])}, mean over 10 folds (Table 2)".replace("\u2206 (LoRA \u2212 full)",
                                                                                     "LoRA minus full fine-tuning")
    elif label == "Table 5":
        detail = f"test fold {where['row'][-1]} (Table 5)"
    elif label == "Table 3":
        detail = "batch size 32, bf16 autocast (Table 3)"
    else:
        quantity = entry["quantity"]
        detail = quantity[0].upper() + quantity[1:]
    return f"{task}, {detail}" if task else detail


def unit_detail(entry: dict[str, Any]) -> str | None:
    if entry.get("unit") is None:
        return None
    where = entry.get("unit_printed_in", "")
    return f"Printed as {entry['unit']}" + (f", in the {where}" if where and where != "same sentence" else "")


def main() -> int:
    records: list[dict[str, Any]] = []
    records.append({
        "kind": "source", "id": SOURCE,
        "title": PDF["first_page_heading"], "authors": ["Registry Test Suite"], "year": 2024,
        "venue": "Fixture Workshop on Evidence Registries (not a real venue)", "role": "original",
        "host": "the registry's test suite", "heading": PDF["first_page_heading"], "page_count": PDF["pages"],
        "pdf_creation_date": "2024-06-01", "sha256": PDF["sha256"],
        "hash_scope": "The whole PDF file as tests/data/papers/genomic-benchmarks-fixture/build.sh writes it.",
        "missing_metadata": [{"field": "retrieval_url", "reason": "not-applicable",
                              "note": "Typed by the test suite and never published; the file is "
                                      "tests/data/papers/genomic-benchmarks-fixture/paper.pdf."}],
    })
    for name in FAMILIES.values():
        records.append({"kind": "family", "id": rid("family", name), "name": name})
    for key, (family, reported, name, tuning) in CONFIGS.items():
        records.append({
            "kind": "config", "id": rid("config", key), "name": name, "reported_name": reported,
            "description": f"{reported} fine-tuned with {tuning} for 3 epochs at batch size 32 on each training "
                           f"split, evaluated after the last epoch (section 4).",
            "areas": ["dna-genomes"], "contexts": ["research"], "method_types": ["foundation_model"],
            "model_family": rid("family", FAMILIES[family]), "source": SOURCE,
            "source_locator": {"section": "Section 4 'Models and training'", "page": 1,
                               "quote": "Every model is trained for 3 epochs with a batch size of 32 on each "
                                        "training split."},
            "hardware": [HARDWARE["hw-h100"]],
            "version": "PyTorch 2.3.1 and Transformers 4.41.2, as the fixture says (section 7)",
            "fine_tuning": {"description": f"{tuning}; AdamW with a cosine schedule and a short warm-up; a linear "
                                           "classification head on the mean of the final hidden states (section 4)"},
            "missing_metadata": [
                {"field": "checkpoint", "reason": "unreported", "note": "The fixture names the models only."},
                {"field": "training_setting", "reason": "not-applicable", "note": "Not an ablation stage."},
            ],
        })
    for key, (name, _, splits, folds) in DATASETS.items():
        records.append({"kind": "dataset", "id": rid("dataset", key), "name": name, "source": SOURCE,
                        "splits": splits, "folds": folds,
                        "missing_metadata": [{"field": "version", "reason": "unreported"}]})
    records.append({"kind": "dataset", "id": rid("dataset", "all-tasks"), "name": "All four tasks of the genomic "
                    "benchmarks fixture (a model-level measurement)", "source": SOURCE,
                    "missing_metadata": [{"field": "version", "reason": "unreported"},
                                         {"field": "splits", "reason": "not-applicable",
                                          "note": "Memory, time and throughput are measured per model, not per "
                                                  "split."}]})
    for key, name in PROTOCOLS.items():
        records.append({"kind": "protocol", "id": rid("protocol", key), "name": name, "source": SOURCE})

    results = [e for e in TRUTH["numbers"] if e["role"] == "result" and not e.get("same_as")]
    result_ids = {e["id"]: rid("result", e["id"]) for e in results}
    # A number that repeats another stands for it where a derivation names it (Table 2's full fine-tuning
    # column repeats Table 1's NT 2.5B row).
    result_ids |= {e["id"]: result_ids[e["same_as"]] for e in TRUTH["numbers"]
                   if e["role"] == "result" and e.get("same_as") in result_ids}
    evaluations: dict[tuple[str, str, str], dict[str, Any]] = {}
    for entry in results:
        key = (config_of(entry), protocol_of(entry), dataset_of(entry))
        if key not in evaluations:
            evaluations[key] = evaluation(*key)
        metric, direction = METRICS[entry["quantity"]]
        new = {
            "kind": "result", "id": result_ids[entry["id"]], "evaluation": evaluations[key]["id"],
            "metric": metric, "metric_direction": direction,
            "metric_qualifier": qualifier(entry),
            "unit": UNITS[entry.get("unit")], "printed_value": entry["printed"], "numeric_value": entry["value"],
            "source": SOURCE, "source_locator": locator(entry),
            "hardware": [HARDWARE[entry["hardware"]]] if entry.get("hardware") else [],
            "missing_metadata": [],
        }
        if unit_detail(entry):
            new["unit_detail"] = unit_detail(entry)
        found = uncertainty(entry)
        if found is not None:
            new["uncertainty"] = found
        else:
            new["missing_metadata"].append({"field": "uncertainty", "reason": "unreported"})
        derived = derivation(entry, result_ids)
        if derived is not None:
            new["derived"] = {k: v for k, v in derived.items() if v is not None}
        if entry.get("note"):
            new["scope_note"] = entry["note"]
        if not new["hardware"]:
            new["missing_metadata"].append({"field": "hardware", "reason": "unreported"})
        records.append(new)
    records += list(evaluations.values())
    write(records)
    return 0


def evaluation(config: str, protocol: str, dataset: str) -> dict[str, Any]:
    over = {"cv": {"kind": "folds", "count": 10}, "seeds": {"kind": "seeds", "count": 5},
            "pooled": {"kind": "bootstrap-resamples", "count": 1000}}.get(protocol)
    new: dict[str, Any] = {
        "kind": "evaluation", "id": rid("evaluation", f"{config}-{protocol}-{dataset}"),
        "name": f"{CONFIGS[config][1]}{' LoRA' if config.endswith('lora') else ''}, {protocol} on "
                f"{DATASETS[dataset][0].split(' (')[0] if dataset in DATASETS else 'all tasks'}",
        "configuration": rid("config", config), "protocol": rid("protocol", protocol),
        "dataset": rid("dataset", dataset), "independence": "developer",
        "adaptation": "Fine-tuning" if protocol != "throughput" else "Inference",
        "update_mode": "lora" if config.endswith("lora") else "full",
        "missing_metadata": [{"field": "scoring_implementation", "reason": "unreported"}],
    }
    if over is not None:
        new["aggregated_over"] = over
    else:
        new["missing_metadata"].append({"field": "aggregated_over", "reason": "not-applicable"
                                        if protocol in ("training", "throughput", "accuracy") else "unreported"})
    if protocol == "cv":
        new["aggregation"] = "Mean over the 10 test folds"
        new["split"] = "all"
        new["missing_metadata"] += [{"field": "coverage_scored", "reason": "not-separately-documented",
                                     "note": "Every sequence is in one test fold: the dataset's size."},
                                    {"field": "coverage_eligible", "reason": "not-separately-documented",
                                     "note": "Every sequence is in one test fold: the dataset's size."}]
    elif protocol == "accuracy" and dataset == "promoter":
        new["aggregation"] = "Share of sequences classified correctly"
        new["split"] = "held-out test"
        new["coverage_scored"] = 150
        new["coverage_eligible"] = 150
    else:
        new["missing_metadata"] += [{"field": f, "reason": "not-applicable" if protocol in ("training", "throughput")
                                     else "unreported"} for f in ("aggregation", "coverage_scored",
                                                                  "coverage_eligible", "split")]
    return new


def write(records: list[dict[str, Any]]) -> None:
    typed = []
    for data in records:
        data["missing_metadata"] = [m for m in data.get("missing_metadata", [])]
        if not data["missing_metadata"]:
            del data["missing_metadata"]
        typed.append(KIND_MODELS[data["kind"]].model_validate(data))
    if OUT.exists():
        shutil.rmtree(OUT)
    for record in typed:
        path = OUT / record.kind_token / f"{record.id}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(record_to_yaml(record, COMMENT), encoding="utf-8")
    print(f"wrote {len(typed)} records under {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    raise SystemExit(main())
