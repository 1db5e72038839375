"""How long curating takes: importing a results table, importing it again, and checking the files' form.

Run: python benchmarks/bench_curate.py [ROWS ...] (default 100 1000 5000). Each table has one row per model
on one task (three records per row: a configuration, an evaluation, a result), imported into a registry that
holds only the fixture paper's source; the figures are wall-clock seconds on this machine. Results go in
benchmarks/RESULTS-curate.md by hand.
"""

from __future__ import annotations

import csv
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from registry.curate.fmt import format_files  # noqa: E402
from registry.curate.importer import ImportOptions, import_table  # noqa: E402
from registry.validate.runner import validate  # noqa: E402

SOURCE = "fixture-genomic-20261201-source-genomic-benchmarks-fixture"
TEMPLATE = ROOT / "examples" / "genomic-benchmarks-fixture-table-1.csv"


def table(path: Path, rows: int) -> Path:
    with open(TEMPLATE, newline="", encoding="utf-8") as handle:
        first = next(csv.DictReader(handle))
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(first), lineterminator="\n")
        writer.writeheader()
        for n in range(rows):
            writer.writerow({**first, "model": f"Model {n}", "row": f"Model {n}"})
    return path


def timed(step):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    value = step()
    return value, time.perf_counter() - start


def run(rows: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "records"
        (root / "source").mkdir(parents=True)
        shutil.copy(ROOT / "tests" / "data" / "fixture-registry" / "source" / f"{SOURCE}.yaml", root / "source")
        path = table(Path(folder) / "table.csv", rows)
        options = ImportOptions(source=SOURCE)
        registry, _ = validate(root)
        plan, first = timed(lambda: import_table(root, registry, path, options))
        (registry, report), load = timed(lambda: validate(root))
        assert report.valid
        again, second = timed(lambda: import_table(root, registry, path, options))
        outcome, check = timed(lambda: format_files(root))
        assert not again.written and not outcome.changed
        print(f"{rows:>6} rows: import {first:6.2f} s ({len(plan.written)} records written), validate "
              f"{load:5.2f} s, import again {second:6.2f} s (nothing written), fmt --check {check:5.2f} s "
              f"({len(outcome.unchanged)} files)")


if __name__ == "__main__":
    for count in [int(arg) for arg in sys.argv[1:]] or [100, 1000, 5000]:
        run(count)
