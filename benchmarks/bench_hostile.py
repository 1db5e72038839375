"""Benchmark: what the audit's hostile queries, PDFs, tables and kills cost now, in wall seconds and peak memory.

Each case runs as its own ``registry`` command in a fresh process (``python -m registry ...``),
and the memory figure is the largest resident set among that command and its children (the
query's or the review's worker process included), as ``getrusage(RUSAGE_CHILDREN)`` reports it. The
audit's figures for the same cases before the limits are printed beside them (from issue 16).

The writers' cases (issue 28): an import of a 1,000,000-row table (under the 50 MB cap), refused at
the row limit, and an import of a table at the limit (10,000 rows, a dry run); then a site build of a
generated registry killed (SIGKILL) eight times part-way, the bytes its hidden folders hold after the
kills, and after the next (complete) build.

The watcher's cases (issue 36): hostile requests sent to a running ``registry watch`` of the bundled records (a
line of 200 MiB, 100,000 nested brackets, attachments announced, an idle connection, a request without a moment,
a stopped watcher): the time each takes to be answered or refused, the watcher's peak and resident memory after
it (``/proc``: VmHWM, VmRSS), and the time of the next 'registry validate' (answered by the watcher, from its index).


The table cases (issues 36 and 40): ``registry table`` on hostile pages, read under the review's limits
(``review.pdf.limited``): a page of 300 by 300 numbers with the default limits, with its characters allowed
(then the time stops it), and under a memory limit; a pdftotext that never answers; a sparse 6 GB file.

Usage: ``python benchmarks/bench_hostile.py [queries|writers|imports|kills|watcher|tables]`` (default: all; ``writers``
is ``imports`` and ``kills``). A benchmark to run by hand, not a timed test.
"""

from __future__ import annotations

import os
import platform
import shutil
import signal
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


def run(arguments: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """(wall seconds, peak resident MB of the command and its children, exit status) of one command."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _MEASURE, sys.executable, "-m", "registry", *arguments], cwd=cwd,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                          check=True)
    seconds = time.perf_counter() - started
    peak_kb, status = done.stdout.split()
    return seconds, int(peak_kb) / 1024, int(status)


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "both"
    print(f"# python {platform.python_version()}, sqlite {sqlite3.sqlite_version}, {os.cpu_count()} cpus, "
          f"{platform.system()} {platform.machine()}")
    if which in ("both", "queries"):
        queries_and_pdfs()
    if which in ("both", "writers", "imports", "kills"):
        writers(imports=which != "kills", kills_too=which != "imports")
    if which in ("both", "watcher"):
        watcher_requests()
    if which in ("both", "tables"):
        tables()


def queries_and_pdfs() -> None:
    from registry.db.build import build_sqlite
    from registry.validate.runner import validate
    from tests.test_review_support import fresh_records, pin

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


# -- registry table on hostile pages (issues 36 and 40) ---------------------------------------------------------


def tables() -> None:
    from tests.test_review_support import grid_pdf, many_pages_pdf

    work = Path(tempfile.mkdtemp(prefix="registry-hostile-tables-"))
    try:
        grid = work / "grid-300.pdf"
        grid.write_bytes(grid_pdf(300, 300))
        sparse = work / "sparse.pdf"
        with sparse.open("wb") as handle:
            handle.write(b"%PDF-1.4\n")
            handle.truncate(6 * 1024**3)
        pages = work / "pages.pdf"
        pages.write_bytes(many_pages_pdf(1_000_000))
        hanging = work / "bin"
        hanging.mkdir()
        (hanging / "pdftotext").write_text("#!/bin/sh\nexec sleep 3600\n", encoding="utf-8")
        (hanging / "pdftotext").chmod(0o755)
        fixture = ROOT / "tests" / "data" / "papers" / "genomic-benchmarks-fixture" / "paper.pdf"
        print(f"{'case':<48} {'seconds':>8} {'peak MB':>8} {'exit':>4}  before (audit)")
        cases = [
            (f"300x300 grid ({grid.stat().st_size / 1e6:.2f} MB), default limits", [str(grid)], {}, "7 min 25 s"),
            ("300x300 grid, --max-page-chars 1e7", [str(grid), "--max-page-chars", "10000000"], {},
             "7 min 25 s (pdftotext), 81 s (grid)"),
            ("300x300 grid, --max-page-chars 1e7 --timeout 10", [str(grid), "--max-page-chars", "10000000",
                                                                 "--timeout", "10"], {}, "(no limit)"),
            ("300x300 grid, --max-page-chars 1e7 --max-memory 256", [str(grid), "--max-page-chars", "10000000",
                                                                     "--max-memory", "256"], {}, "(no limit)"),
            ("a pdftotext that never answers, --timeout 10", [str(fixture), "--timeout", "10"],
             {"PATH": f"{hanging}{os.pathsep}{os.environ.get('PATH', '')}"}, "for ever"),
            ("a sparse 6 GB file", [str(sparse)], {}, "6.2 GB"),
            (f"1,000,000 empty pages ({pages.stat().st_size / 1e6:.0f} MB)", [str(pages)], {}, "1.8-2.4 GB"),
            ("the fixture paper's page 2 (a real page)", [str(fixture)], {}, "(for comparison)"),
        ]
        for what, arguments, env, before in cases:
            page = ["--page", "2"] if str(fixture) in arguments else ["--page", "1"]
            seconds, peak, status = run(["table", arguments[0], *page, *arguments[1:]], work, env)
            print(f"{'table: ' + what:<48} {seconds:>8.1f} {peak:>8.0f} {status:>4}  {before}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


# -- the writers (issue 28) ---------------------------------------------------------------------------------

#: One row of a generated results table, the required columns only (a model and a dataset per row: each row is a
#: result of its own), about 34 bytes a row: 1,000,000 rows stay under the 50 MB cap on a table's bytes.
_ROW = "NT,M{m},D{d},mcc,higher,0.{v:03d},%,2"
_HEADER = "family,model,dataset,metric,direction,value,unit,page"
#: Records in the generated registry of the kill case, and how many times its build is killed.
SITE_RECORDS, KILLS = 20_000, 8


def table_of(path: Path, rows: int) -> Path:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(_HEADER + "\n")
        for i in range(rows):
            handle.write(_ROW.format(m=i // 100, d=i % 100, v=i % 1000) + "\n")
    return path


def writers(*, imports: bool = True, kills_too: bool = True) -> None:
    from tests.conftest import DATA, FIXTURE_SOURCE

    work = Path(tempfile.mkdtemp(prefix="registry-hostile-writers-"))
    try:
        demo = work / "demo"
        (demo / "source").mkdir(parents=True)
        shutil.copy(DATA / "fixture-registry" / "source" / f"{FIXTURE_SOURCE}.yaml", demo / "source")
        print(f"{'case':<48} {'seconds':>8} {'peak MB':>8} {'exit':>4}  before (audit)")
        for rows, before in [(1_000_000, "600 s, 4.7 GB, nothing written"),
                             (10_000, "(20,000 rows: 131 s, 708 MB)")] if imports else []:
            table = table_of(work / f"rows-{rows}.csv", rows)
            seconds, peak, status = run(["import", str(table), "--source", FIXTURE_SOURCE, "--records", str(demo),
                                         "--independence", "developer", "--dry-run"], work)
            what = f"import --dry-run: {rows:,} rows ({table.stat().st_size / 1e6:.1f} MB)"
            print(f"{what:<48} {seconds:>8.1f} {peak:>8.0f} {status:>4}  {before}")
        if kills_too:
            kills(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def generated_registry(root: Path, records: int) -> Path:
    """The bundled records, with model families (each a page of its own, naming no other record) up to ``records``."""
    target = root / "records"
    shutil.copytree(ROOT / "records", target)
    have = sum(1 for _ in target.rglob("*.yaml"))
    for number in range(max(0, records - have)):
        record_id = f"bench-hostile-20261201-family-generated-{number}"
        (target / "family" / f"{record_id}.yaml").write_text(
            f"kind: family\nid: {record_id}\nname: Generated family {number}\n", encoding="utf-8")
    return target


def debris(folder: Path, name: str) -> int:
    """Bytes under the hidden folders a build of ``name`` left beside it."""
    total = 0
    for hidden in folder.glob(f".{name}.*"):
        total += sum(p.lstat().st_size for p in hidden.rglob("*") if p.is_file() or p.is_symlink())
    return total


def kills(work: Path) -> None:
    records = generated_registry(work / "site-case", SITE_RECORDS)
    out = work / "site-case" / "site"
    command = [sys.executable, "-m", "registry", "site", "build", "--records", str(records), "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    subprocess.run(command, cwd=work, env=env, check=True, capture_output=True)
    whole = time.perf_counter() - started
    print(f"{f'site build: {SITE_RECORDS:,} records, complete':<48} {whole:>8.1f}")
    for kill in range(KILLS):
        child = subprocess.Popen(command, cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(whole * (0.3 + 0.6 * kill / KILLS))  # part-way: from validation to the last pages
        child.send_signal(signal.SIGKILL)
        child.wait()
    time.sleep(1)  # the page writers die with their parent (a parent-death signal): give them a moment
    left = debris(out.parent, out.name)
    print(f"{f'site build: hidden folders after {KILLS} SIGKILLs':<48} {left / 1e6:>8.1f} MB  (each start removes the "
          "ones before; audit: 2.09 GB after 8 kills of 29,510 records, never removed)")
    started = time.perf_counter()
    subprocess.run(command, cwd=work, env=env, check=True, capture_output=True)
    print(f"{'site build: the next build':<48} {time.perf_counter() - started:>8.1f}")
    print(f"{'site build: hidden folders after the next build':<48} {debris(out.parent, out.name):>8} bytes")



# -- the watcher (issue 36) ---------------------------------------------------------------------------------

#: (what, the bytes sent as they are, the audit's figure before the bounds)
WATCHER_CASES = [
    ("a request line of 200 MiB", b'{"op": "status", "pad": "' + b"x" * (200 << 20) + b'"}\n',
     "read whole: peak ~600 MiB, ~340 MiB kept"),
    ("100,000 nested [", b"[" * 100_000 + b"\n", "RecursionError: the watcher ended"),
    ("60,000 nested [ (a line within its bound)", b"[" * 60_000 + b"\n", "(100,000: RecursionError)"),
    ("1,000 attachments of 1 MiB announced", b'{"op": "status", "protocol": 3, "attached": [' +
     b", ".join([b"1048576"] * 1000) + b"]}\n", "no bound on their number or size"),
    ("a request without 'now'", b'{"op": "validate", "protocol": 3, "folder": [0, 0]}\n',
     "index dropped: 4.8 s a run from then on"),
]


def _memory_mib(pid: int) -> tuple[float, float]:
    """(peak, resident) MiB of the process ``pid`` (``/proc``)."""
    found = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmHWM", "VmRSS"):
                found[name] = int(value.split()[0]) / 1024
    return found["VmHWM"], found["VmRSS"]


def _sent(path: Path, data: bytes, *, hold: float = 0.0) -> tuple[float, str]:
    """(seconds, what came back) for ``data`` sent to the watcher at ``path`` (written from a thread: the watcher
    stops reading at its bound), the connection held ``hold`` seconds first with nothing sent."""
    import socket
    import threading

    from registry.watch import address

    started = time.perf_counter()
    with address.reached(path) as name:
        connection = socket.socket(socket.AF_UNIX)
        connection.connect(name)
    connection.settimeout(120)

    def write() -> None:
        time.sleep(hold)
        try:
            connection.sendall(data)
        except OSError:
            pass

    writer = threading.Thread(target=write)
    writer.start()
    answer = address.receive(connection)
    seconds = time.perf_counter() - started
    writer.join()
    connection.close()
    return seconds, "no answer" if answer is None else str(answer.get("error", "answered"))[:60]


def watcher_requests() -> None:
    from tests.conftest import copy_of_records

    work = Path(tempfile.mkdtemp(prefix="registry-hostile-watcher-"))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(work / "cache"),
           "XDG_STATE_HOME": str(work / "state")}
    env.pop("XDG_RUNTIME_DIR", None)
    os.environ.update({name: env[name] for name in ("XDG_CACHE_HOME", "XDG_STATE_HOME")})
    os.environ.pop("XDG_RUNTIME_DIR", None)
    copy_of_records(work / "records")
    watcher = subprocess.Popen([sys.executable, "-m", "registry", "watch", "--records", "records"], cwd=work, env=env,
                               stderr=subprocess.PIPE, text=True)
    validate = [sys.executable, "-m", "registry", "validate", "--records", "records"]

    def next_validate() -> float:
        started = time.perf_counter()
        subprocess.run(validate, cwd=work, env=env, capture_output=True, check=True)
        return time.perf_counter() - started

    try:
        while "watching records" not in (watcher.stderr.readline() or "watching records"):  # type: ignore[union-attr]
            pass
        os.chdir(work)
        from registry.watch import address

        path = address.socket_path(Path("records"))
        print(f"{'watcher: case':<48} {'seconds':>8} {'peak MiB':>8} {'rss MiB':>8} {'next validate s':>15}  answer; "
              "before (audit)")
        peak, rss = _memory_mib(watcher.pid)
        print(f"{'watcher: started (bundled records)':<48} {'':>8} {peak:>8.0f} {rss:>8.0f} {next_validate():>15.2f}")
        for what, data, before in WATCHER_CASES:
            seconds, answer = _sent(path, data)
            peak, rss = _memory_mib(watcher.pid)
            print(f"{'watcher: ' + what:<48} {seconds:>8.2f} {peak:>8.0f} {rss:>8.0f} {next_validate():>15.2f}  "
                  f"{answer}; {before}")
        import threading

        held = threading.Thread(target=_sent, args=(path, b'{"op": "status", "protocol": 3}\n'), kwargs={"hold": 30})
        held.start()
        time.sleep(0.5)
        print(f"{'watcher: validate while one connection idles':<48} {'':>8} {'':>8} {'':>8} {next_validate():>15.2f}"
              "  ; held every validate until it closed")
        held.join()
        watcher.send_signal(signal.SIGSTOP)
        stopped = next_validate()
        watcher.send_signal(signal.SIGCONT)
        print(f"{'watcher: validate while the watcher is stopped':<48} {'':>8} {'':>8} {'':>8} {stopped:>15.2f}"
              f"  (a {address.IO_TIMEOUT_S:.0f} s time limit, then a run without it); waited for ever")
    finally:
        watcher.terminate()
        watcher.wait(60)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
