"""The rules of benchmarks shared across papers: one record per benchmark, and datasets that point to theirs.

Two benchmark records that give one external identifier (a Hugging Face dataset id, a Papers with Code slug, a DOI,
a URL) are one benchmark filed twice: their values would sit on two leaderboards. A dataset record named like a
benchmark record (its name or one of the benchmark's aliases, as words of the dataset's name) that points to no
benchmark, and says nothing of why, is offered that benchmark: ``registry new`` and ``registry import`` show the
warning with the draft. Both are warnings: the records are valid, the registry is only less connected.
"""

from __future__ import annotations

import re

from registry.issues import codes
from registry.models import Dataset
from registry.models.benchmark import Benchmark
from registry.validate.rules_registry import RecordCheck, kind_rules


@kind_rules.register
def _one_record_per_benchmark(record: Benchmark, check: RecordCheck) -> None:
    for name, value in record.external_ids():
        others = sorted(other.id for other in check.registry.of_kind(Benchmark)
                        if other.id != record.id and str(getattr(other, name) or "").lower() == value.lower())
        if others:
            check.add(codes.BENCHMARK_SAME_EXTERNAL_ID,
                      f"{name} {value!r} is also the {name} of {', '.join(others)}: one benchmark has one record; keep "
                      "one and point the datasets to it", (name,))


@kind_rules.register
def _dataset_points_to_its_benchmark(record: Dataset, check: RecordCheck) -> None:
    if record.benchmark is not None or any(entry.field == "benchmark" for entry in record.missing_metadata):
        return
    named = benchmarks_named(check.registry.of_kind(Benchmark), record.name)
    if named:
        offered = " or ".join(f"{b.id} ('{b.name}')" for b in named)
        check.add(codes.DATASET_BENCHMARK_UNLINKED,
                  f"the dataset is named like the benchmark {offered}; point to it (benchmark: {named[0].id}) so that "
                  "its values share that leaderboard, or add a missing_metadata entry for 'benchmark' saying why it "
                  "is not that benchmark (a private split)", ("name",))


def benchmarks_named(benchmarks: list[Benchmark], name: str) -> list[Benchmark]:
    """The benchmarks whose name or an alias is a run of whole words of ``name`` ('Birds-200' in 'Birds-200 test
    split (Lumen)'), case and punctuation aside."""
    words = f" {_words(name)} "
    return [b for b in benchmarks if any(f" {_words(n)} " in words for n in b.names() if _words(n))]


def _words(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+(?:\.[0-9]+)?", text.lower()))
