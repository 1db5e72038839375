"""Benchmark: what the audit's hostile queries and PDFs cost now, in wall seconds and peak memory.

Each case runs as its own ``registry`` command in a fresh process (``python -m registry ...``),
and the memory figure is the largest resident set among that command and its children (the
query's or the review's worker process included), as ``getrusage(RUSAGE_CHILDREN)`` reports it. The
audit's figures for the same cases before the limits are printed beside them (from issue 16).

Usage: ``python benchmarks/bench_hostile.py``. A benchmark to run by hand, not a timed test.
"""

from __future__ import annotations

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

ZEROBLOB_CHAIN = "SELECT " + " + ".join(["length(hex(zeroblob(4e8)))"] * 40)
WIDE = "SELECT " + ", ".join(["length(hex(zeroblob(30000000)))"] * 1000)
ROWS = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n}) SELECT i, 'row ' || i AS t FROM n"

#: (what, arguments after 'registry', the audit's figure before the limits)
QUERIES = [
    ("printf('%.*c', 999999999, 'x'), --timeout 1", ["--timeout", "1", "SELECT printf('%.*c', 999999999, 'x')"],
     "21 s"),
    ("40 chained length(hex(zeroblob(4e8)))", [ZEROBLOB_CHAIN], "11.5 GB, then MemoryError"),
    ("randomblob(1e9) as JSON", ["--format", "json", "SELECT randomblob(1e9)"], "52 s, 8.6 GB, 2 GB printed"),
    ("a 4 MB blob as a table", ["SELECT randomblob(4194304)"], "still rendering after 300 s"),
    ("1,000 columns of 60 MB hex, --timeout 1", ["--timeout", "1", WIDE], "(not in the audit)"),
    ("1,000,000 rows as CSV", ["--format", "csv", "--max-rows", "10000000", "--timeout", "600", ROWS.format(n=10**6)],
     "(10 M rows: 1.8 GB)"),
    ("1,000,000 rows as JSON", ["--format", "json", "--max-rows", "10000000", "--timeout", "600",
                                ROWS.format(n=10**6)], "(10 M rows: 1.8 GB)"),
]


#: Runs one command and prints the largest resident set among it and its children (kilobytes), then its status.
_MEASURE = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.returncode)\n"
)


def run(arguments: list[str], cwd: Path) -> tuple[float, float, int]:
    """(wall seconds, peak resident MB of the command and its children, exit status) of one command."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _MEASURE, sys.executable, "-m", "registry", *arguments], cwd=cwd,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    seconds = time.perf_counter() - started
    peak_kb, status = done.stdout.split()
    return seconds, int(peak_kb) / 1024, int(status)


def main() -> None:
    from registry.checks import validate
    from registry.db.build import build_sqlite
    from tests.test_review_support import fresh_records, pin

    print(f"# python {platform.python_version()}, sqlite {sqlite3.sqlite_version}, {os.cpu_count()} cpus, "
          f"{platform.system()} {platform.machine()}")
    work = Path(tempfile.mkdtemp(prefix="registry-hostile-"))
    try:
        records = fresh_records(work)
        registry, _ = validate(records)
        db = work / "registry.db"
        build_sqlite(registry, db)
        print(f"{'case':<48} {'seconds':>8} {'peak MB':>8} {'exit':>4}  before (audit)")
        for what, arguments, before in QUERIES:
            seconds, peak, status = run(["query", "--db", str(db), "--records", str(records), *arguments], work)
            print(f"{'query: ' + what:<48} {seconds:>8.1f} {peak:>8.0f} {status:>4}  {before}")
        huge = ROOT / "tests" / "data" / "hostile" / "review" / "huge-text.pdf"
        pinned = fresh_records(work / "review")
        pin(pinned, huge)
        result = "saadat-fellay-20261015-result-nt-2-5b-training-peak-memory-flashattention-checkpointing-zero2"
        for what, options in [("default limits", []), ("--timeout 10", ["--timeout", "10"])]:
            seconds, peak, status = run(["review", result, "--pdf", str(huge), "--records", str(pinned),
                                         "--cache-dir", str(work / "cache"), *options], work)
            print(f"{'review: 50 MB of text in one string, ' + what:<48} {seconds:>8.1f} {peak:>8.0f} {status:>4}  "
                  "over 180 s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
