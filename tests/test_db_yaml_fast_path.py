"""The fast YAML path (``registry.store.fastyaml``, yaml-rs) reads every file exactly as PyYAML's safe loader does, or steps aside.

A file it accepts must give the same data, type for type, as PyYAML; a file PyYAML rejects must
never be accepted; key lines, worked out later with PyYAML, are PyYAML's. Checked on every record
and test file, on the writer's output, on hand-picked edge cases (number forms, dates, flags,
quoting), and on thousands of random mutations of real records.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from pathlib import Path
from typing import Any

import pytest

from registry.errors import RecordFileError
from registry.store import fastyaml
from registry.store.writer import record_to_yaml
from registry.store.yamlio import LoadedYaml, _parse_full, parse_yaml
from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, DATA

pytestmark = pytest.mark.skipif(not fastyaml.available(), reason="yaml-rs is not installed: PyYAML reads every file")


def same(a: Any, b: Any) -> bool:
    """Equal values of the same types, all the way down (True is not 1, '1' is not 1, a date is not its text)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dt.datetime):
        return a == b and a.tzinfo == b.tzinfo
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return bool(a == b)


def full(text: str) -> LoadedYaml | RecordFileError:
    try:
        return _parse_full(text)
    except RecordFileError as exc:
        return exc


def fast(text: str) -> dict[str, Any] | None:
    return fastyaml.read_plain(text, text.encode("utf-8", "surrogatepass"))


def assert_agrees(text: str) -> bool:
    """The fast path agrees with PyYAML on ``text``; returns whether it took the fast path."""
    quick, slow = fast(text), full(text)
    if quick is None:
        return False
    assert isinstance(slow, LoadedYaml), f"accepted a file PyYAML rejects ({slow}):\n{text}"
    assert same(quick, slow.data), f"different data:\n{text}\n{quick}\n{slow.data}"
    return True


def files() -> list[Path]:
    return sorted(BUNDLED_RECORDS.rglob("*.yaml")) + sorted(DATA.rglob("*.yaml"))


def test_every_record_and_test_file() -> None:
    taken = [assert_agrees(path.read_text(encoding="utf-8", errors="replace")) for path in files()]
    valid = [assert_agrees(path.read_text()) for path in sorted(BUNDLED_RECORDS.rglob("*.yaml"))]
    assert all(valid), "every bundled record takes the fast path"
    assert sum(taken) > len(taken) // 2


def test_key_lines_are_pyyamls() -> None:
    """Lines come from PyYAML when first asked for, whichever path read the data."""
    for path in files():
        text = path.read_text(encoding="utf-8", errors="replace")
        slow = full(text)
        if isinstance(slow, LoadedYaml):
            assert parse_yaml(text).lines == slow.lines, path


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
    # Number forms the two readers type apart, each alone and beside a plain decimal.
    "a: 010\n", "a: 1\nb: 010\n", "a: 08\n", "a: [1, 010]\n", "a: 0o17\n", "a: 0_8\n", "a: -010\n", "a: +1\n",
    "a: -.5\n", "a: +.5\n", "a: 1e3\n", "a: 1.5e3\n", "a: 1.5E+3\n", "a: 12345678901234567890\n", "a: 1.5\nb: 2\n",
    "a: 0.917156\nb: -0.0\nc: 0.\n", "a: 1_000.5\n", "a: 0x_1\n", "a: +0x1F\n", "a: 1.0e+3\nb: 3\n",
    # Flags, nulls and dates: plain, quoted, and the same text both ways in one file.
    "a: Yes\nb: 'yes'\n", "a: yes\nb: yes\n", "a: '2026-03-09'\nb: 2026-03-09\n", "a: 2026-03-09\nb: x 2026-03-09\n",
    "a: 2026-03-09\nb: 2026-03-09T10:00:00Z\n", "a: |-\n  2026-03-09\nb: 2026-03-09\n", "a: >-\n  yes\n",
    "a: 2026-03-09\n  10:00:00\n", "a: [2026-03-09, '2026-03-09']\n", "a:\n- y\n- 'n'\n- on\n", "a: 1:20\nb: '1:20'\n",
    "a: 100000000000000007\nb: 2026-03-09\n", "2026-03-09: x\n", "a: ~\nb: '~'\n", "a: True\nb: 'TRUE'\n",
    "a: 2026-13-45\n", "a: 2026-03-09 10:00:00 +02:00\n", "a: [x, yes]\n", "a: \"yes\"\nb: yes # c\n",
    # Flow mappings: the one simple form taken, and its neighbours.
    "a: {section: Section 3.3, page: 6}\n", "a: {x: 010}\n", "a: {x: yes, y: 2026-01-01, z: '1'}\n", "a: {x:1}\n",
    "a: {x: 1, }\n", "a: {x: 1}}\n", "a: {x: {y: 1}}\n", "a: {x: [1]}\n", "a: {x: 1} # c\nb: {}\n", "a: {x: 1} y\n",
    "a:\n- {x: 1, y: b c}\n", "a: {x: 1,\n  y: 2}\n", "a: {x: a: b}\n", "a: {x: 1, x: 2}\n", "a: {x}\n", "a: {x: }\n",
    # Deep nesting, compact sequences, flow sequences inside flow sequences.
    "a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 40)) + "  " * 40 + "x: 1\n", "a: [[[[1]]]]\n",
    "a:\n- - - x\n", "a: [x, [y, [z]]]\n",
]


@pytest.mark.parametrize("text", EDGE_CASES)
def test_edge_cases(text: str) -> None:
    assert_agrees(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("a: 2026-03-09\nb: '2026-03-09'\n", {"a": dt.date(2026, 3, 9), "b": "2026-03-09"}),
    ("a: yes\nb: 'yes'\nc: [on, off]\n", {"a": True, "b": "yes", "c": [True, False]}),
    ("t: 2026-10-15T22:00:00Z\n", {"t": dt.datetime(2026, 10, 15, 22, 0, tzinfo=dt.UTC)}),
    ("a: 1:20\nb: 33.88\nc: '33.88'\n", {"a": 80, "b": 33.88, "c": "33.88"}),
])
def test_plain_values_get_pyyamls_types_on_the_fast_path(text: str, expected: dict[str, Any]) -> None:
    """Values PyYAML types and yaml-rs does not are typed as PyYAML types them, not handed to PyYAML whole."""
    data = fast(text)
    assert data is not None and same(data, expected)


def test_what_yaml_rs_types_is_what_the_guard_assumes() -> None:
    """The guard's premises about yaml-rs: what it reads as a number or flag, and the numbers it reads alike."""
    import yaml_rs

    rng = random.Random(7)
    typed = ["0", "-0", "+1", "7", "123456789012345678", "-5.25", "0.5", "10.0", "true", "True", "TRUE", "false",
             "False", "FALSE", "null", "Null", "NULL", "~"]
    typed += [f"{rng.randrange(-10**9, 10**9)}.{rng.randrange(10**6)}" for _ in range(200)]
    for text in typed:
        assert fastyaml._AMBIGUOUS.match(text) is None
        value = yaml_rs.loads(f"k: {text}\n", parse_datetime=False)["k"]
        assert not isinstance(value, str), text  # so text equal to it in yaml-rs's data was quoted
        assert same(value, full(f"k: {text}\n").data["k"]), text  # type: ignore[union-attr]


def test_every_number_yaml_rs_reads_is_one_the_guard_looks_at() -> None:
    """Where yaml-rs reads a plain scalar as a number, the guard's pattern of yaml-rs numbers matches it, and
    the two readers agree on it or the guard sends the file to PyYAML."""
    import yaml_rs

    rng = random.Random(11)
    for alphabet in ("0123456789_.+-eExXoObBaAfF", "0123456789-:T Z.+", "yYnNoOtTfFrRuUlLeEsS~", "0123456789_.:-+ "):
        for _ in range(1500):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 9))).strip() or "0"
            try:
                value = yaml_rs.loads(f"k: {text}\n", parse_datetime=False)["k"]
            except Exception:  # noqa: BLE001 - not YAML yaml-rs reads: nothing to check
                continue
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                assert fastyaml._YAML_RS_NUMBER.fullmatch(text), text
            for doc in (f"k: {text}\n", f"a: 1\nk: [{text}, 2]\n", f"{text}: 1\nb: 2\n", f"k:\n- {text}\n- '{text}'\n"):
                assert_agrees(doc)


def test_parse_yaml_gives_pyyamls_errors() -> None:
    for text in ("a: 1\na: 2\n", "a: &x 1\nb: *x\n", "", "a: [\n", "a: 2026-02-30\n", "a: b: c\n", "a: 010\nb: 2026-02-30\n"):
        with pytest.raises(RecordFileError) as fast_error:
            parse_yaml(text)
        slow = full(text)
        assert isinstance(slow, RecordFileError)
        assert (fast_error.value.code, fast_error.value.line, fast_error.value.message) == (
            slow.code, slow.line, slow.message)


def test_without_yaml_rs_pyyaml_reads_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the compiled wheel is missing, every file is read by PyYAML, with the same result."""
    text = (BUNDLED_RECORDS / "source").glob("*.yaml").__next__().read_text()
    with_fast = parse_yaml(text).data
    monkeypatch.setattr(fastyaml, "yaml_rs", None)
    assert fast(text) is None
    assert same(parse_yaml(text).data, with_fast)


SIGNIFICANT = list(" \n:-#'\"[]{},|>&*!%@`?~0a1.\t") + ["  ", "- ", ": ", " #", "''", "\n  ", "\n- ", "yes", "010",
                                                        "2026-03-09", "1e3", "'", ".5", "0o"]


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


@pytest.mark.slow
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
