"""The fast YAML reader (``registry.yamlio._FastReader``, added for 'registry db build' at scale) reads
every file exactly as PyYAML's safe loader does, or steps aside.

A file it accepts must give the same data (same types) and the same key lines as PyYAML; a file
PyYAML rejects must never be accepted. Checked on every record and test file, on the writer's
output, on hand-picked edge cases, and on thousands of random mutations of real records.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from pathlib import Path
from typing import Any

import pytest

from registry.checks import validate
from registry.errors import RecordFileError
from registry.writer import record_to_yaml
from registry.yamlio import LoadedYaml, _FastReader, _NotSimple, _parse_full, parse_yaml
from tests.conftest import BUNDLED_RECORDS, DATA


def same(a: Any, b: Any) -> bool:
    """Equal values of the same types, all the way down (True is not 1, '1' is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dt.datetime):
        return a == b and a.tzinfo == b.tzinfo
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def full(text: str) -> LoadedYaml | RecordFileError:
    try:
        return _parse_full(text)
    except RecordFileError as exc:
        return exc


def fast(text: str) -> LoadedYaml | None:
    try:
        return _FastReader(text).read()
    except _NotSimple:
        return None


def assert_agrees(text: str) -> bool:
    """The fast reader agrees with PyYAML on ``text``; returns whether it took the fast path."""
    quick, slow = fast(text), full(text)
    if quick is None:
        return False
    assert isinstance(slow, LoadedYaml), f"accepted a file PyYAML rejects ({slow}):\n{text}"
    assert same(quick.data, slow.data), f"different data:\n{text}\n{quick.data}\n{slow.data}"
    assert quick.lines == slow.lines, f"different lines:\n{text}\n{set(quick.lines.items()) ^ set(slow.lines.items())}"
    return True


def files() -> list[Path]:
    return sorted(BUNDLED_RECORDS.rglob("*.yaml")) + sorted(DATA.rglob("*.yaml"))


def test_every_record_and_test_file() -> None:
    taken = [assert_agrees(path.read_text(encoding="utf-8", errors="replace")) for path in files()]
    valid = [assert_agrees(path.read_text()) for path in sorted(BUNDLED_RECORDS.rglob("*.yaml"))]
    assert all(valid), "every bundled record takes the fast path"
    assert sum(taken) > len(taken) // 2


def test_the_writers_output() -> None:
    registry, _ = validate(BUNDLED_RECORDS)
    for record in registry.records.values():
        assert assert_agrees(record_to_yaml(record, comment="written by the writer")), record.id


EDGE_CASES = [
    "a: 1\n", "a: -1\nb: +2\nc: 0x1F\nd: 0o17\ne: 1_000\nf: 1:20\n", "a: 1.5\nb: .inf\nc: -.nan\nd: 1e3\ne: 1.0e+3\n",
    "a: yes\nb: No\nc: on\nd: OFF\ne: true\nf: y\ng: n\n", "a: ~\nb: null\nc: Null\nd:\ne: NULL\n",
    "a: 2026-03-09\nb: 2026-10-15T22:00:00Z\nc: 2026-10-15 22:00:00+02:00\nd: 2026-10-15t22:00:00.5-01:30\n",
    "a: 2026-02-30\n", "a: '2026-03-09'\nb: \"1\"\n", "a: 'it''s'\nb: ''\nc: \"\"\n", "a: 'x' # c\nb: \"y\" # c\n",
    "a: 'x'# c\n", "a: 'x' y\n", "a: \"x\\ty\"\n", "a: b # comment\nc: d#e\n", "a: b: c\n", "a: b:\n", "a: b :c\n",
    "a: [x, y, z]\nb: []\nc: [ ]\nd: [1, true, null, 2026-01-01]\n", "a: [x, [y]]\n", "a: [x,\n  y]\n", "a: [x, ]\n",
    "a: [x, 'y']\n", "a: {x: 1}\n", "a: {}\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: !foo x\n", "<<: {a: 1}\n",
    "a: |\n  x\n  y\n", "a: |-\n  x\n   y\n", "a: >\n  x\n  y\n", "a: >-\n  x\n  y\nb: 1\n", "a: >-\n  x\n\n  y\n",
    "a: >-\n  x\n    y\n", "a: |+\n  x\n\n", "a: |2\n   x\n", "a: >-\n\n  x\n", "a: >-\n  x  \n  y\n", "a: >-\n  x",
    "a: |\n  x\n# after\nb: 2\n", "a: |\n  # not a comment\n  x\n", "a: >-\nb: 1\n", "a: |\n  x\n\n\nb: 1\n",
    "a:\n  b: 1\n  c:\n    d: 2\n", "a:\n- x\n- y\nb: 1\n", "a:\n  - x\n  - y\n", "a:\n  - b: 1\n    c: 2\n  - b: 3\n",
    "a:\n- b: 1\n  c: [x]\n- b: 2\n", "a:\n  -   b: 1\n      c: 2\n", "a:\n- - x\n", "a:\n-\n  b: 1\n", "a:\n- |\n  x\n",
    "a:\n  b: 1\n c: 2\n", "a:\n  b: 1\n   c: 2\n", "a: 1\na: 2\n", "a:\n  b: 1\n  b: 2\n", "- a\n- b\n", "x\n", "",
    "# only a comment\n", "---\na: 1\n", "a: 1\n...\n", "%YAML 1.1\n---\na: 1\n", "a: 1\n---\nb: 2\n", "  a: 1\n",
    "a:\tb\n", "a: b\r\nc: d\r\n", "\ufeffa: 1\n", "a: b\x85c\n", "a: x\u2028y\n", "a: \x07\n", "a: 1", "a:    1   \n",
    "a: plain text\n  continued here\n  and here\nb: 1\n", "a: plain\n  - not an item\n", "a: plain\n  b: c\n",
    "a: plain\n\n  after a blank\n", "a: plain\n  # comment\n  more\n", "a: 'quoted\n  over lines'\nb: 1\n",
    "a: 'quoted\n  ''escaped'' too'\n", "a: 'unclosed\n  still\nb: 1\n", "a: \"double\n  lines\"\n", "a: plain # c\n  more\n",
    "a:\n- plain\n  continued\n- next\n", "a: x\n b: y\n", "on: 1\n", "yes: 1\n", "1: a\n", "'a': 1\n", "a b: 1\n",
    "a.b-c_d: 1\n", "a: -\n", "a: - x\n", "a: ?x\n", "a: -x\n", "a: :x\n", "a: x:y\n", "a: http://x.org/?a=1#frag\n",
    "a: 'x' \nb: 1\n", "a: b \n", "a: [a b, c-d, e_f]\n", "a: [x:y]\n", "a: [#x]\n", "a: [-x, - y]\n", "a: [x] y\n",
    "a: 0123\nb: 0b101\nc: 08\nd: 12:30:45\ne: -0\nf: 1__0\n", "a: 6.8523015e+5\nb: 685.230_15e+03\nc: 190:20:30.15\n",
    "a: .5\nb: 5.\nc: +.inf\nd: .NaN\ne: ._\n", "a: ~x\nb: nullx\nc: Nope\n", "a: =\n", "a: <<\n", "a: !\n", "a: &\n",
    "key: >-\n  Section 3.3 'ZeRO offload' paragraph (page 6): 'the NT 2.5B checkpoint (33.88 → 11.49 GB)';\n  stage\n",
    "a: 𝔘nicode ✓ – “quotes”\n", "a: '\u00a0nbsp'\n",
]


@pytest.mark.parametrize("text", EDGE_CASES)
def test_edge_cases(text: str) -> None:
    assert_agrees(text)


def test_parse_yaml_gives_pyyamls_errors() -> None:
    for text in ("a: 1\na: 2\n", "a: &x 1\nb: *x\n", "", "a: [\n", "a: 2026-02-30\n", "a: b: c\n"):
        with pytest.raises(RecordFileError) as fast_error:
            parse_yaml(text)
        slow = full(text)
        assert isinstance(slow, RecordFileError)
        assert (fast_error.value.code, fast_error.value.line, fast_error.value.message) == (
            slow.code, slow.line, slow.message)


SIGNIFICANT = list(" \n:-#'\"[]{},|>&*!%@`?~0a1.\t") + ["  ", "- ", ": ", " #", "''", "\n  ", "\n- "]


def mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    choice = rng.randrange(6)
    if choice == 0 and text:
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1:]
    if choice == 1:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(SIGNIFICANT) + text[i:]
    if choice == 2 and len(lines) > 1:
        i = rng.randrange(len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif choice == 3:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif choice == 4:
        i = rng.randrange(len(lines))
        lines[i] = " " * rng.choice([1, 2, 4]) + lines[i] if rng.random() < 0.5 else lines[i].lstrip(" ")
    else:
        i = rng.randrange(len(lines))
        del lines[i]
    return "\n".join(lines)


def test_random_mutations_of_real_records() -> None:
    rng = random.Random(20261129)
    sources = [p.read_text() for p in sorted(BUNDLED_RECORDS.rglob("*.yaml"))]
    taken = 0
    for _ in range(20000):
        text = rng.choice(sources)
        for _ in range(rng.randrange(1, 4)):
            text = mutate(text, rng)
        taken += assert_agrees(text)
    assert taken > 1000, "mutations that stay simple YAML take the fast path"
