"""Benchmark: validate and build a database from synthetic registries of 1,000, 10,000 and 100,000 results.

For each size it prints records per second for four measurements:

- ``registry validate``: loading, typing and checking every record (``registry.checks.validate``);
- ``registry db build``: validation plus writing the SQLite database (``registry.db.build.build_sqlite``);
- a ``jsonschema`` baseline: the same files read with the same safe YAML loader and checked against the
  exported JSON Schema of each kind (``jsonschema`` package, compiled validators, no cross-record checks);
- a plain ``sqlite3.executemany`` baseline: the same rows, already in memory, inserted into the same
  schema with the standard library only (no validation, no conversion).

Usage: ``python benchmarks/bench_db.py [--sizes 1000,10000,100000] [--keep DIR]``. The synthetic records
are written to a temporary folder and deleted afterwards. Each size's shape: papers of 20 results, each
paper with 1 source, 1 protocol, 1 dataset, 5 configurations, 10 evaluations, 20 results, 1 review of
all 20 results and 20 evidence rows; one model family per 50 papers (about 2.95 records per result).
This is a benchmark to run by hand, not a timed test.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import hashlib
import json
import os
import platform
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BATCH = "bench-20260101"
RESULTS_PER_PAPER = 20
CONFIGS_PER_PAPER = 5
EVALUATIONS_PER_PAPER = 10
PAPERS_PER_FAMILY = 50


def _id(kind: str, slug: str) -> str:
    return f"{BATCH}-{kind}-{slug}"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def generate(root: Path, results: int) -> int:
    """Write a valid synthetic registry with ``results`` results under ``root``; returns the record count."""
    files: dict[str, list[tuple[str, str]]] = {}

    def put(kind: str, record_id: str, text: str) -> None:
        files.setdefault(kind, []).append((record_id, text))

    papers = -(-results // RESULTS_PER_PAPER)
    made = 0
    for p in range(papers):
        family = _id("family", f"f{p // PAPERS_PER_FAMILY}")
        if p % PAPERS_PER_FAMILY == 0:
            put("family", family, f"kind: family\nid: {family}\nname: Synthetic family {p // PAPERS_PER_FAMILY}\n")
        source = _id("source", f"p{p}")
        sha = _sha(source)
        put("source", source, f"""kind: source
id: {source}
title: A synthetic paper number {p} on efficient training
authors: [Author{p}, Coauthor{p}, Third]
year: 2025
venue: Synthetic Workshop 2025
role: original
host: OpenReview
heading: Published as a workshop paper
page_count: 12
pdf_creation_date: 2025-03-09
retrieval_url: https://example.org/pdf?id=p{p}
sha256: {sha}
missing_metadata:
  - field: hash_scope
    reason: unreported
    note: The hashed bytes are not documented.
""")
        protocol = _id("protocol", f"p{p}-peak-memory")
        put("protocol", protocol, f"kind: protocol\nid: {protocol}\nname: Peak memory protocol of paper {p}\n"
                                  f"source: {source}\n")
        dataset = _id("dataset", f"p{p}-random-dna")
        put("dataset", dataset, f"kind: dataset\nid: {dataset}\nname: Random DNA of paper {p}\nsource: {source}\n"
                                f"seed: {p}\nmissing_metadata:\n  - field: version\n    reason: unreported\n"
                                f"  - field: splits\n    reason: not-applicable\n")
        configs = []
        for c in range(CONFIGS_PER_PAPER):
            config = _id("config", f"p{p}-c{c}")
            configs.append(config)
            put("config", config, f"""kind: config
id: {config}
name: Model {c} of paper {p} (Synthetic 2025)
description: >-
  Training of model {c} with FlashAttention and checkpointing, at sequence length 1000 and batch
  size 16.
areas: [dna-genomes]
contexts: [research]
method_types: [foundation_model]
reported_name: M{c}
model_family: {family}
source: {source}
source_locator: {{section: Section 2.2}}
hardware:
  - accelerator: NVIDIA H100
    stated: NVIDIA H100
    location: section 2.4
fine_tuning:
  description: Full fine-tuning
training_setting: Stage {c}
missing_metadata:
  - field: checkpoint
    reason: unreported
    note: The paper names the family and parameter count only.
  - field: version
    reason: unreported
""")
        evaluations = []
        for e in range(EVALUATIONS_PER_PAPER):
            evaluation = _id("evaluation", f"p{p}-e{e}")
            evaluations.append(evaluation)
            put("evaluation", evaluation, f"""kind: evaluation
id: {evaluation}
name: Peak memory of model {e // 2}, setting {e % 2}
configuration: {configs[e * CONFIGS_PER_PAPER // EVALUATIONS_PER_PAPER]}
protocol: {protocol}
dataset: {dataset}
independence: independent-external
adaptation: Training step
missing_metadata:
  - field: aggregation
    reason: unreported
  - field: aggregated_over
    reason: unreported
  - field: coverage_scored
    reason: unreported
  - field: coverage_eligible
    reason: unreported
  - field: split
    reason: not-applicable
  - field: update_mode
    reason: unreported
  - field: scoring_implementation
    reason: unreported
""")
        review = _id("review", f"p{p}")
        subjects = []
        for r in range(RESULTS_PER_PAPER):
            if made >= results:
                break
            made += 1
            result = _id("result", f"p{p}-r{r}")
            subjects.append(result)
            value = f"{(p * 7 + r * 13) % 90 + 1}.{r:02d}"
            put("result", result, f"""kind: result
id: {result}
evaluation: {evaluations[r * EVALUATIONS_PER_PAPER // RESULTS_PER_PAPER]}
metric: peak-memory
metric_direction: lower
metric_qualifier: Training, sequence length 1000, batch size 16, setting {r}
unit: gigabyte
unit_detail: Printed as GB
printed_value: '{value}'
numeric_value: '{value}'
scope_note: Peak allocated GPU memory
hardware:
  - accelerator: NVIDIA H100
    stated: NVIDIA H100
    location: section 2.4
source: {source}
source_locator:
  section: Section 3.3
  page: 6
  quote: 'the model needs {value} GB'
missing_metadata:
  - field: uncertainty
    reason: unreported
""")
            evidence = _id("evidence", f"p{p}-r{r}-reported-result")
            put("evidence", evidence, f"""kind: evidence
id: {evidence}
subject: {result}
property: reported-result
statement: '{value}'
claim_scope: individual-claims
source: {source}
source_locator: {{section: Section 3.3, page: 6}}
source_independence: independent-paper
review: {review}
field: printed_value
source_artifact_sha256: {sha}
missing_metadata:
  - field: hash_scope
    reason: not-separately-documented
    note: inspect source record
  - field: extraction_artifact_sha256
    reason: not-transcribed
""")
        subject_lines = "".join(f"  - {s}\n" for s in subjects)
        put("review", review, f"""kind: review
id: {review}
subjects:
{subject_lines}source: {source}
status: source-checked
reviewer: bench-script 1.0
reviewed_at: 2025-10-15T22:00:00Z
artifact_sha256: {sha}
retrieval_url: https://example.org/pdf?id=p{p}
methods:
  - source-hash-verification
  - pdf-text-parse
note: Checked.
""")
    count = 0
    for kind, items in files.items():
        folder = root / kind
        folder.mkdir(parents=True, exist_ok=True)
        for record_id, text in items:
            (folder / f"{record_id}.yaml").write_text(text, encoding="utf-8")
            count += 1
    return count


# -- measurements ---------------------------------------------------------------------------


def _timed(function, *args, **kwargs):  # type: ignore[no-untyped-def]
    gc.collect()
    started = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - started


def measure_validate(root: Path) -> tuple[float, int]:
    from registry.checks import validate

    (registry, report), seconds = _timed(validate, root)
    if not report.valid:
        raise SystemExit(f"synthetic registry is invalid: {report.errors[:3]}")
    return seconds, len(registry.records)


def measure_build(root: Path, out: Path) -> float:
    """What 'registry db build' does: validate, then build the SQLite file."""
    from registry.db.build import build_database

    _, seconds = _timed(build_database, root, out=out)  # type: ignore[arg-type]
    return seconds


def measure_jsonschema(root: Path) -> float:
    """Baseline: the same files, the same safe YAML loader, checked against the exported JSON Schemas."""
    import jsonschema
    import yaml

    from registry.loader import record_files
    from registry.schema import kind_schema

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    validators = {}

    def run() -> int:
        errors = 0
        for path in record_files(root):
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - a safe loader
            data = json.loads(json.dumps(data, default=str))  # dates as ISO text, as JSON holds them
            kind = data["kind"]
            if kind not in validators:
                schema = kind_schema(kind)
                validators[kind] = jsonschema.validators.validator_for(schema)(schema)
            errors += sum(1 for _ in validators[kind].iter_errors(data))
        return errors

    errors, seconds = _timed(run)
    if errors:
        raise SystemExit(f"jsonschema baseline found {errors} errors in the synthetic registry")
    return seconds


def measure_executemany(root: Path, out: Path) -> float:
    """Baseline: the same rows, already in memory, into the same schema with plain sqlite3.executemany."""
    from sqlalchemy.dialects import sqlite as sqlite_dialect
    from sqlalchemy.schema import CreateIndex, CreateTable

    from registry.checks import validate
    from registry.db.build import ordered_tables, registry_rows

    registry, _ = validate(root)
    dialect = sqlite_dialect.dialect()
    tables = ordered_tables()
    by_table: dict[str, list[tuple]] = {str(t.name): [] for t in tables}  # type: ignore[type-arg]
    columns = {str(t.name): [c.name for c in t.columns] for t in tables}

    def plain(value):  # type: ignore[no-untyped-def]
        if isinstance(value, dt.datetime):
            return value.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
        if isinstance(value, dt.date):
            return value.isoformat()
        if isinstance(value, (int, float, str)) or value is None:
            return value
        return str(value)  # Decimal

    for name, row in registry_rows(registry):
        by_table[name].append(tuple(plain(row[c]) for c in columns[name]))
    del registry
    out.unlink(missing_ok=True)

    def run() -> None:
        connection = sqlite3.connect(out)
        connection.execute("PRAGMA journal_mode = OFF")
        connection.execute("PRAGMA synchronous = OFF")
        with connection:
            for table in tables:
                connection.execute(str(CreateTable(table).compile(dialect=dialect)))
            for table in tables:
                rows = by_table[str(table.name)]
                if rows:
                    marks = ", ".join("?" * len(rows[0]))
                    connection.executemany(f'INSERT INTO "{table.name}" VALUES ({marks})', rows)
            for table in tables:
                for index in table.indexes:
                    connection.execute(str(CreateIndex(index).compile(dialect=dialect)))
        connection.close()

    _, seconds = _timed(run)
    return seconds


def provenance() -> dict[str, str]:
    import importlib.metadata as md

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                check=False).stdout.strip()
    except OSError:
        commit = "unknown"
    versions = {name: md.version(name) for name in ("pydantic", "PyYAML", "SQLAlchemy", "jsonschema")}
    return {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "commit": commit,
        "python": platform.python_version(),
        "cpus": str(os.cpu_count()),
        "machine": f"{platform.system()} {platform.machine()}",
        "sqlite": sqlite3.sqlite_version,
        **versions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated numbers of results")
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep it (default: a temporary one)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    # Imported once before timing: a command pays this start-up once, not per record.
    import jsonschema  # noqa: F401

    import registry.checks  # noqa: F401
    import registry.db.build  # noqa: F401
    from registry import loader

    loader.FREEZE_AFTER_LOAD = True  # as the command line sets it (registry.cli.main)

    for key, value in provenance().items():
        print(f"# {key}: {value}")
    header = (f"{'results':>8} {'records':>8} | {'validate':>16} | {'db build':>16} | {'jsonschema':>16} | "
              f"{'executemany':>16}")
    print(header)
    print("-" * len(header))
    for size in sizes:
        base = args.keep or Path(tempfile.mkdtemp(prefix="registry-bench-"))
        root = base / f"records-{size}"
        try:
            if root.exists():
                shutil.rmtree(root)
            generate(root, size)
            validate_s, records = measure_validate(root)
            build_s = measure_build(root, base / "bench.db")
            schema_s = measure_jsonschema(root)
            many_s = measure_executemany(root, base / "baseline.db")

            def cell(seconds: float, records: int = records) -> str:
                return f"{records / seconds:>8,.0f}/s {seconds:>5.1f}s"

            print(f"{size:>8,} {records:>8,} | {cell(validate_s)} | {cell(build_s)} | {cell(schema_s)} | "
                  f"{cell(many_s)}", flush=True)
        finally:
            if args.keep is None:
                shutil.rmtree(base, ignore_errors=True)
            else:
                for name in ("bench.db", "baseline.db"):
                    (base / name).unlink(missing_ok=True)
    print("records/s = records in the registry / wall seconds (validate: load + type + cross-record checks; "
          "db build: validate + SQLite; jsonschema: YAML + JSON Schema per file; executemany: inserts only)")


if __name__ == "__main__":
    main()
