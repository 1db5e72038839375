"""How long working out a record's key lines takes: the lines-only walk against building the whole document again.

Run: python benchmarks/bench_key_lines.py [ROUNDS] (default 20). Every YAML file of the project (records/,
tests/data/, examples/) is read into memory, then each way gets its key lines for all of them, ROUNDS times;
the figures are the best round's CPU milliseconds (process time, so that other work on the machine counts less),
and the composing alone (PyYAML's C parser building the node tree), which both ways pay.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from registry.errors import RecordFileError  # noqa: E402
from registry.store import yamlio  # noqa: E402


def full_build(text: str) -> dict[yamlio.Path_, int]:
    """The lines as they were worked out before the walk: the whole document built again."""
    try:
        return yamlio._parse_full(text).lines
    except RecordFileError:
        return {}


def compose_only(text: str, loader_class: type = yamlio.YAML_LOADER) -> None:
    loader = loader_class(text)
    try:
        loader.get_single_node()
    except Exception:  # noqa: BLE001, S110 - the files the full build refuses cost their composing too
        pass
    finally:
        loader.dispose()


def compose_fast(text: str) -> None:
    """Composing with the walk's loader, whose resolver hooks are cheaper (same tags)."""
    compose_only(text, yamlio._LinesLoader)


def best_ms(way: Callable[[str], object], texts: list[str], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for text in texts:
            way(text)
        best = min(best, time.process_time() - start)
    return best * 1000


def main(rounds: int) -> None:
    files = sorted(path for folder in ("records", "tests/data", "examples")
                   for pattern in ("*.yaml", "*.yml") for path in (ROOT / folder).rglob(pattern))
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in files]
    print(f"{len(texts)} YAML files, {sum(map(len, texts)):,} characters; best of {rounds} rounds, CPU ms for all")
    figures = {name: best_ms(way, texts, rounds) for name, way in
               (("full build", full_build), ("lines-only walk", yamlio.key_lines), ("composing alone", compose_only),
                ("composing, walk's hooks", compose_fast))}
    for name, ms in figures.items():
        print(f"  {name:24} {ms:8.1f} ms  ({ms * 1000 / len(texts):6.1f} µs a file)")
    print(f"  the walk takes {figures['lines-only walk'] / figures['full build']:.0%} of the full build's time")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
