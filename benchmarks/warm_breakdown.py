"""Where a warm ``registry validate`` spends its time, phase by phase, in one process.

Usage: ``python benchmarks/warm_breakdown.py RECORDS`` (for example a folder kept with
``bench_db.py --keep DIR``). A first load fills the parse cache; then each phase of
``load_registry`` and ``check_registry`` is run apart and timed in process CPU seconds, with the
cycle collector off as the command line has it. Prints seconds and microseconds per file.
"""

from __future__ import annotations

import gc
import sys
import time
from operator import itemgetter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from registry.issues.report import Report  # noqa: E402
from registry.models.fields import _any_unfit  # noqa: E402
from registry.store.cache import ParseCache  # noqa: E402
from registry.store.loader import Registry, _load_file, load_registry, scan_record_files  # noqa: E402
from registry.store.reading import documents  # noqa: E402
from registry.textsafe import UNSAFE  # noqa: E402
from registry.validate.runner import check_registry  # noqa: E402


def main(root: Path) -> None:
    gc.disable()
    load_registry(root, cache=True)  # the cache warm
    clock = time.process_time
    started = clock()
    found = sorted(((parts, entry.path) for parts, entry in scan_record_files(root)), key=itemgetter(0))
    walked = clock()
    store = ParseCache.open(root)
    docs = list(documents(found, store, inside=root))
    if store is not None:
        store.close()
    fetched = clock()
    registry, report = Registry(root=root), Report()
    for path, doc in docs:
        _load_file(path, doc, registry, report)
    typed = clock()
    check_registry(registry, report)
    checked = clock()
    for record in registry.records.values():
        _any_unfit(record, UNSAFE)
    walked_values = clock()
    files = len(found)
    for name, seconds in (("walk the folder and sort", walked - started),
                          ("stat, fetch and decode from the cache, make Paths", fetched - walked),
                          ("type (Pydantic) and file the record", typed - fetched),
                          ("whole-registry checks (check_registry)", checked - typed),
                          ("  of which the per-record value walk", walked_values - checked)):
        print(f"{name:<52} {seconds:6.2f} s {seconds / max(files, 1) * 1e6:6.1f} us/file")
    print(f"{files:,} files, report valid: {report.valid}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
