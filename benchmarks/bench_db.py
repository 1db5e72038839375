"""Benchmark: start-up, and validate and db build of synthetic registries of 1,000, 10,000 and 100,000 results.

Every measurement is one run of the command line in a fresh process (``python -m registry ...``),
timed by the wall clock, its peak resident memory read from the kernel (``wait4``):

- start-up: ``registry --help``, the slowest ``registry COMMAND --help`` (of every command and
  subcommand, ``db build`` and ``new result`` included), and ``registry validate``
  of the bundled records (best of five each);
- ``validate`` cold (the parse cache empty: every file read and parsed, and the cache filled) and
  warm (the second run: unchanged files taken from the cache; every record typed and checked again);
- ``validate`` answered by ``registry watch`` (Linux): nothing changed, and one edit, add, remove and rename, with
  the watcher's own processor seconds for each request and its resident memory;
- ``db build`` cold and warm (validation, then the SQLite file);
- two baselines over the same files, each in a fresh process too: ``jsonschema`` (PyYAML's C safe
  loader, then each kind's exported JSON Schema with a compiled ``jsonschema`` validator; no key
  lines, no cross-record checks) and a plain PyYAML + Pydantic loop (the C safe loader, then
  ``model_validate``; no key lines, no cross-record checks).

Ratios are baseline seconds over ours, measured in the same run. Usage:
``python benchmarks/bench_db.py [--sizes 1000,10000,100000] [--keep DIR]``. The synthetic records are
written to a temporary folder and deleted afterwards (about 1.2 GB at 100,000 results). Each size's
shape: papers of 20 results, each paper with 1 source, 1 protocol, 1 dataset, 5 configurations, 10
evaluations, 20 results, 1 review of all 20 results and 20 evidence rows; one model family per 50
papers (about 2.95 records per result). This is a benchmark to run by hand, not a timed test.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import math
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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


def run(args: Sequence[str], env: dict[str, str], *, quiet_exit: bool = False, saying: str | None = None,
        ) -> tuple[float, float, float]:
    """(wall seconds, peak resident MiB, processor seconds) of one fresh ``python`` process running ``args``;
    with ``saying``, the run must print that (what it did, not only that it ended well: an update, say).

    The processor seconds (user and system, the child's own) say what the run cost where other processes share
    the machine: its wall seconds then grow with their load, its processor seconds much less."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as said:
        child = subprocess.Popen([sys.executable, *args], cwd=ROOT, env={**env, "COLUMNS": "1000"}, stdout=said,
                                 stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        said.seek(0)
        output = said.read().decode()
    child.returncode = os.waitstatus_to_exitcode(status)
    errors = child.stderr.read().decode() if child.stderr else ""
    if child.returncode != 0 and not quiet_exit:
        raise SystemExit(f"{' '.join(args)} failed ({child.returncode}):\n{errors}")
    if saying is not None and saying not in output:
        raise SystemExit(f"{' '.join(args)} did not say {saying!r}:\n{output}{errors}")
    return seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def best(args: Sequence[str], env: dict[str, str], times: int = 5) -> float:
    return min(run(args, env)[0] for _ in range(times))


def commands() -> list[str]:
    """Every command of the command line, groups' subcommands too ('db build', 'new result'), from the app itself."""
    import typer

    from registry.cli import app

    def leaves(group: Any, context: Any, prefix: str) -> list[str]:
        found = []
        for name in group.list_commands(context):
            command = group.get_command(context, name)
            if hasattr(command, "list_commands"):  # a group (Typer's own copy of click's)
                found += leaves(command, command.context_class(command, parent=context), f"{prefix}{name} ")
            else:
                found.append(f"{prefix}{name}")
        return found

    root = typer.main.get_command(app)
    return leaves(root, root.context_class(root), "")


def startup(env: dict[str, str]) -> dict[str, float]:
    """Best-of-five wall seconds of '--help', of each command's '--help', and of validating the bundled records."""
    figures = {"registry --help": best(["-m", "registry", "--help"], env)}
    slowest = max((best(["-m", "registry", *c.split(), "--help"], env), c) for c in commands())
    figures[f"slowest COMMAND --help ({slowest[1]})"] = slowest[0]
    fresh = {**env, "REGISTRY_NO_CACHE": "1"}
    figures["registry validate (bundled records, no cache)"] = best(["-m", "registry", "validate"], fresh)
    figures["registry validate (bundled records, warm)"] = best(["-m", "registry", "validate"], env)
    return figures


BASELINES = {
    "jsonschema": "PyYAML's C safe loader, then the kind's JSON Schema",
    "pyyaml-pydantic": "PyYAML's C safe loader, then model_validate",
}


def baseline(name: str, root: Path) -> None:
    """One baseline over every record file under ``root`` (run in its own process by ``main``)."""
    import yaml

    from registry.export.schema import kind_schema
    from registry.models import KIND_MODELS
    from registry.store.loader import record_files

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    if name == "jsonschema":
        import json

        import jsonschema

        validators = {}
        errors = 0
        for path in record_files(root):
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - a safe loader
            data = json.loads(json.dumps(data, default=str))  # dates as ISO text, as JSON holds them
            kind = data["kind"]
            if kind not in validators:
                schema = kind_schema(kind)
                validators[kind] = jsonschema.validators.validator_for(schema)(schema)
            errors += sum(1 for _ in validators[kind].iter_errors(data))
    else:
        errors = 0
        for path in record_files(root):
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - a safe loader
            try:
                KIND_MODELS[data["kind"]].model_validate(data)
            except ValueError:
                errors += 1
    if errors:
        raise SystemExit(f"{name} baseline found {errors} errors in the synthetic registry")


def provenance() -> dict[str, str]:
    import importlib.metadata as md

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                check=False).stdout.strip()
    except OSError:
        commit = "unknown"
    names = ("pydantic", "pydantic-core", "PyYAML", "yaml-rs", "SQLAlchemy", "jsonschema")
    versions = {}
    for name in names:
        try:
            versions[name] = md.version(name)
        except md.PackageNotFoundError:
            versions[name] = "not installed"
    try:
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "unknown"
    return {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "commit": commit,
        "python": platform.python_version(),
        "cpus": str(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()),
        "machine": f"{platform.system()} {platform.machine()}",
        "load average at start": load,
        **versions,
    }


#: One-file changes measured after a warm run: a value edited, a record added, removed, renamed.
ONE_EDITS = ("edit", "add", "remove", "rename")
#: Those that leave the registry valid, measured for 'db build' (a renamed file breaks its name: nothing is built).
DB_EDITS = ONE_EDITS[:3]


def one_edit(root: Path, edit: str, *, undo: bool = False) -> None:
    """Apply (or undo) one change to the first result of the synthetic registry.

    'add' files a new model family (referenced by nothing, so the registry stays valid); 'remove' deletes
    that family again after it was added; 'rename' gives a result's file another name (then
    'file-name-mismatch': the report changes, as it would for a curator).
    """
    result = root / "result" / "bench-20260101-result-p0-r0.yaml"
    family = root / "family" / "bench-20260101-family-bench-added.yaml"
    renamed = result.with_name("bench-20260101-result-p0-r0-renamed.yaml")
    if edit == "edit":
        text = result.read_text(encoding="utf-8")  # a value no other record restates: the registry stays valid
        swap = ("scope_note: Peak allocated GPU memory\n", "scope_note: Peak allocated GPU memory, edited\n")
        result.write_text(text.replace(*(swap[::-1] if undo else swap)), encoding="utf-8")
    elif edit == "add" and not undo:
        family.write_text("kind: family\nid: bench-20260101-family-bench-added\nname: Bench added family\n",
                          encoding="utf-8")
    elif edit == "remove" and not undo:
        family.unlink()
    elif edit == "rename":
        (renamed.rename(result) if undo else result.rename(renamed))


def generated(root: Path, results: int, env: dict[str, str]) -> int:
    """``generate`` in a process of its own, so that this one stays small: a child's peak resident memory, as the
    kernel reports it (``wait4``), counts the memory of the process it was started from (the texts of 100,000
    results held here would be counted in every measured command's peak)."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--generate", str(results), str(root)],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return int(done.stdout)


def measure_size(size: int, base: Path, env: dict[str, str], *, validate_only: bool = False,
                 ) -> tuple[int, dict[str, tuple[float, float, float]]]:
    """The number of records, and every measurement of one size: name -> (wall seconds, peak MiB, CPU seconds)."""
    root = base / f"records-{size}"
    if root.exists():
        shutil.rmtree(root)
    count = generated(root, size, env)
    cache_home = Path(env["XDG_CACHE_HOME"])
    records = ["--records", str(root)]
    figures: dict[str, tuple[float, float, float]] = {}
    shutil.rmtree(cache_home, ignore_errors=True)
    validate = ["-m", "registry", "validate", *records]
    kept = [cache_home / "registry" / name for name in ("reports", "incremental")]
    figures["validate cold"] = run(validate, env)
    time.sleep(2.1)  # the files now lie over two seconds in the past: a report of them may be kept
    for folder in kept:
        shutil.rmtree(folder, ignore_errors=True)
    figures["validate warm"] = run(validate, env)  # a full run through the parse cache (the report then kept)
    figures["validate unchanged"] = run(validate, env)  # the kept report (registry/validate/memo.py)
    shutil.rmtree(kept[0], ignore_errors=True)
    figures["validate no change"] = run(validate, env)  # no kept report: incremental, nothing to read again
    figures["validate --verify"] = run([*validate, "--verify"], env)  # every file read, its digest compared
    for edit in ONE_EDITS:
        one_edit(root, edit)
        time.sleep(2.1)  # as a curator's edit is: not within two seconds of the run
        figures[f"validate 1 {edit}"] = run(validate, env, quiet_exit=True)  # a rename breaks the file's name
        one_edit(root, edit, undo=True)
        run(validate, env, quiet_exit=True)  # the undo, not measured: each measured run sees one change
    figures.update(measure_watch(root, env))
    if validate_only:
        shutil.rmtree(root, ignore_errors=True)
        return count, figures
    out = base / "bench.db"
    shutil.rmtree(cache_home, ignore_errors=True)
    figures["db build cold"] = run(["-m", "registry", "db", "build", *records, "--out", str(out)], env)
    # A full build through the parse cache ('--full': the file is there, and would be updated otherwise).
    figures["db build warm"] = run(["-m", "registry", "db", "build", *records, "--out", str(out), "--full"], env)
    build = ["-m", "registry", "db", "build", *records, "--out", str(out)]
    run(validate, env)  # the incremental index, as a curator's last 'registry validate' (or 'db build') kept it
    for edit in DB_EDITS:
        one_edit(root, edit)
        time.sleep(2.1)
        figures[f"db build 1 {edit}"] = run(build, env, saying="records changed (")  # an update
        one_edit(root, edit, undo=True)
        run(build, env)  # the undo, not measured
    figures.update(measure_watch(root, env, build=build))
    out.unlink(missing_ok=True)
    for name in BASELINES:
        figures[name] = run([str(Path(__file__).resolve()), "--baseline", name, str(root)], env)
    shutil.rmtree(root, ignore_errors=True)
    return count, figures


def _process_cpu(pid: int) -> float:
    """A running process's processor seconds so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _process_mib(pid: int) -> tuple[float, float]:
    """A running process's resident memory now and at its peak (VmRSS, VmHWM), in MiB."""
    found = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(found["VmRSS"].split()[0]) / 1024, int(found["VmHWM"].split()[0]) / 1024


#: What the watcher's own process cost, per measurement (printed below the table).
WATCHER: dict[str, str] = {}


def measure_watch(root: Path, env: dict[str, str], *, build: list[str] | None = None,
                  ) -> dict[str, tuple[float, float, float]]:
    """``registry validate`` answered by ``registry watch`` (started from the index the runs above kept): nothing
    changed, and one edit, add, remove and rename; with ``build`` (a 'db build' command), that command after one
    edit, add and remove instead (an update, the report and the records' digests from the watcher). Each row's
    seconds and peak memory are the command's own (it asks the watcher); its CPU seconds add the watcher's for
    that request. The watcher's resident memory is printed below the table (``WATCHER``)."""
    if not sys.platform.startswith("linux"):
        return {}
    figures: dict[str, tuple[float, float, float]] = {}
    validate = ["-m", "registry", "validate", "--records", str(root)]
    watcher = subprocess.Popen([sys.executable, "-m", "registry", "watch", "--records", str(root)], cwd=ROOT,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        started = time.perf_counter()
        while True:
            line = watcher.stderr.readline()  # type: ignore[union-attr]
            if not line:
                raise SystemExit(f"registry watch stopped before it answered (status {watcher.wait()})")
            if line.startswith("watching "):
                break
        named = f"{root.name}{' (db build)' if build else ''}"
        WATCHER[f"{named} started in"] = f"{time.perf_counter() - started:.1f} s"
        WATCHER[f"{named} resident after start"] = "{:,.0f} MiB (peak {:,.0f} MiB)".format(*_process_mib(watcher.pid))

        def asked(name: str, args: list[str], saying: str | None = None) -> None:
            before = _process_cpu(watcher.pid)
            seconds, mib, cpu = run(args, env, quiet_exit=saying is None, saying=saying)
            figures[name] = (seconds, mib, cpu + _process_cpu(watcher.pid) - before)

        if build is None:
            asked("watch no change", validate)
        for edit in ONE_EDITS if build is None else DB_EDITS:
            one_edit(root, edit)
            if build is None:
                asked(f"watch 1 {edit}", validate)
            else:
                asked(f"watch db build 1 {edit}", build, saying="validated by the watcher")
            one_edit(root, edit, undo=True)
            run(validate if build is None else build, env, quiet_exit=True)
        WATCHER[f"{named} resident after the runs"] = "{:,.0f} MiB (peak {:,.0f} MiB)".format(
            *_process_mib(watcher.pid))
    finally:
        watcher.terminate()
        watcher.wait(600)
    return figures


def _ratio(theirs: float, ours: float) -> str:
    """``theirs`` over ``ours`` as 'N.Nx', or '-' where ``theirs`` was not measured (``--validate-only``)."""
    return "-" if math.isnan(theirs) else f"{theirs / ours:.1f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated numbers of results")
    parser.add_argument("--keep", type=Path, help="generate into this folder (default: a temporary one)")
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up figures")
    parser.add_argument("--validate-only", action="store_true",
                        help="measure validate only (no db build, no baselines: no ratios to them)")
    parser.add_argument("--baseline", nargs=2, metavar=("NAME", "ROOT"), help=argparse.SUPPRESS)
    parser.add_argument("--generate", nargs=2, metavar=("RESULTS", "ROOT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline:
        baseline(args.baseline[0], Path(args.baseline[1]))
        return
    if args.generate:
        print(generate(Path(args.generate[1]), int(args.generate[0])))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    base = args.keep or Path(tempfile.mkdtemp(prefix="registry-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "XDG_CACHE_HOME": str(base / "cache"), "XDG_STATE_HOME": str(base / "state"),
           "PYTHONPATH": str(ROOT)}
    env.pop("REGISTRY_NO_CACHE", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as a user runs it: compiled modules kept, not compiled each run
    try:
        for key, value in provenance().items():
            print(f"# {key}: {value}")
        print()
        if not args.no_startup:
            print("start-up (best of 5, wall seconds)")
            for name, seconds in startup(env).items():
                print(f"  {name:<52} {seconds:6.3f} s")
            print()
        header = (f"{'results':>8} {'records':>8} | {'measurement':<23} | {'seconds':>8} | {'CPU s':>7} | "
                  f"{'records/s':>10} | {'peak MiB':>8} | {'cold/ours':>9} | {'jsonschema/ours':>15} | "
                  f"{'PyYAML+Pydantic/ours':>20}")
        print(header)
        print("-" * len(header))
        for size in sizes:
            records, figures = measure_size(size, base, env, validate_only=args.validate_only)
            schema_s, loop_s = (figures[name][0] if name in figures else float("nan") for name in BASELINES)
            cold_s = figures["validate cold"][0]
            for name, (seconds, mib, cpu) in figures.items():
                ours = name not in BASELINES
                ratios = (f"{_ratio(cold_s, seconds):>9} | {_ratio(schema_s, seconds):>15} | "
                          f"{_ratio(loop_s, seconds):>20}" if ours else f"{'':>9} | {'':>15} | {'':>20}")
                print(f"{size:>8,} {records:>8,} | {name:<23} | {seconds:>7.2f}s | {cpu:>6.2f}s | "
                      f"{records / seconds:>10,.0f} | {mib:>8,.0f} | {ratios}", flush=True)
        print()
        print("cold: the parse cache empty (every file read and parsed; the cache and the incremental index filled); "
              "warm: a full run through the parse cache (no kept report, no index); unchanged: nothing changed since "
              "(the kept report, registry/validate/memo.py); no change: nothing changed, the kept report removed (an "
              "incremental run that reads no file); 1 edit/add/remove/rename: one file changed since the last run "
              "(incremental, registry/validate/incremental/run.py); db build warm: a full build (--full) through the "
              "parse cache; db build 1 edit/add/remove: the update after one change (registry/db/update.py), the "
              "records validated incrementally (the index kept by a 'registry validate' before the change) and only "
              "the changed ones read (registry/db/current.py). "
              "cold/ours: validate cold's wall seconds over this one's.")
        print("watch no change, watch 1 edit/add/remove/rename: 'registry validate' answered by 'registry watch' "
              "(registry/watch/); seconds and peak MiB are the validate command's own, CPU s adds the watcher's for "
              "that request. watch db build 1 edit/add/remove: 'registry db build' after one change, the report and "
              "every record's digest from the watcher.")
        for name, text in WATCHER.items():
            print(f"watcher of {name}: {text}")
        for name, text in BASELINES.items():
            print(f"{name}: {text}; no key lines, no cross-record checks.")
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
