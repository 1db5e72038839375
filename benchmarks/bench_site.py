"""Benchmark: 'registry site build' on a synthetic registry of 10,000 results (the target: under 30 s).

Prints, for each size, the seconds to validate the records, to build the site (pages, JSON, record
copies, index, plots) and both together, with the number of pages and files, and whether a second
build gave the same bytes. The synthetic registry is the one ``bench_db.py`` writes (papers of
20 results; about 2.95 records per result). Every protocol with results gets its plot (SVG
written in Python), so the build draws one per protocol; the seed protocol's plot (2 results,
68 runs) is timed on its own too. This is a benchmark to run by hand, not a timed test.

Usage: ``python benchmarks/bench_site.py [--sizes 10000] [--check-identical]``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_db import generate  # noqa: E402


def tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _cpu() -> tuple[float, float]:
    """Processor seconds (user, system) of this process and of its finished children (the forked page writers).

    On a shared machine the wall time depends on everyone's load; these depend on this build's own work.
    """
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + children.ru_utime, own.ru_stime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000", help="comma-separated result counts (default 10000)")
    parser.add_argument("--check-identical", action="store_true", help="build twice and compare the bytes")
    args = parser.parse_args()

    from registry.site.build import build_site
    from registry.store import collector
    from registry.validate.runner import validate

    collector.FREEZE_AFTER_LOAD = True  # as the command line sets it: one load, then the build
    print(f"# registry site build benchmark ({platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} CPUs, Python {platform.python_version()})")
    print(f"load average at start: {os.getloadavg()[0]:.2f} (the figures are wall times; CPU is the build's own "
          "processor time, its forked writers included)")
    print("| results | records | load at start | validate (s) | site build (s) | total (s) | build CPU (s) (user + "
          "system) | pages | files | plots | identical |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix="bench-site-") as folder:
            records = Path(folder) / "records"
            count = generate(records, size)
            load = os.getloadavg()[0]
            started = time.perf_counter()
            registry, report = validate(records)
            validated = time.perf_counter() - started
            assert report.valid, [i.message for i in report.errors][:5]
            user, system = _cpu()
            summary = build_site(registry, Path(folder) / "site")
            total = time.perf_counter() - started
            user, system = (after - before for after, before in zip(_cpu(), (user, system), strict=True))
            identical = "not checked"
            if args.check_identical:
                first = tree_digest(Path(folder) / "site")
                build_site(registry, Path(folder) / "site")
                identical = "yes" if tree_digest(Path(folder) / "site") == first else "NO"
            print(f"| {size:,} | {count:,} | {load:.2f} | {validated:.1f} | {summary.seconds:.1f} | {total:.1f} | "
                  f"{user + system:.1f} ({user:.1f} + {system:.1f}) | {summary.pages:,} | {summary.files:,} | "
                  f"{summary.plots} | {identical} |")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    time_seed_plot()


def time_seed_plot() -> None:
    from registry.site.plot import groups_of
    from registry.site.plot_svg import inline_svg
    from registry.validate.runner import validate

    registry, _ = validate(ROOT / "records")
    groups = next(iter(groups_of(registry).values()))
    started = time.perf_counter()
    for _ in range(20):
        inline_svg(groups)
    each = (time.perf_counter() - started) / 20
    print(f"\nseed protocol plot (2 results, 68 runs): {each * 1000:.1f} ms each; 500 protocols would add "
          f"{500 * each:.1f} s")


if __name__ == "__main__":
    main()
