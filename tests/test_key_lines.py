"""Key lines worked out alone (``yamlio.key_lines``) are exactly the full build's (``_parse_full(text).lines``).

The full build refuses a file (an alias, a merge key, a duplicate key, a key that is not text, a date
that is no day, too deep, bad syntax) and then has no lines: ``{}``. The lines-only walk must give
the same lines for every file it accepts and ``{}`` for every file it refuses. Checked on every YAML
file of the project, on hand-written hostile YAML, on generated hostile YAML and on random mutations
of real records.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry.errors import RecordFileError
from registry.store import yamlio
from registry.store.yamlio import MAX_DEPTH, LoadedYaml, Path_, key_lines
from tests.conftest import BUNDLED_RECORDS, DATA, ROOT
from tests.test_db_yaml_fast_path import mutate


def full_lines(text: str) -> dict[Path_, int]:
    """What the lines were before the walk: the full build's, or none where it refuses the text."""
    try:
        return yamlio._parse_full(text).lines
    except RecordFileError:
        return {}


def yaml_files() -> list[Path]:
    found = {path for folder in (BUNDLED_RECORDS, DATA, ROOT / "examples")
             for pattern in ("*.yaml", "*.yml") for path in folder.rglob(pattern)}
    return sorted(found)


def test_every_yaml_file_of_the_project() -> None:
    files = yaml_files()
    assert len(files) > 300
    refused = 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        expected = full_lines(text)
        assert key_lines(text) == expected, path
        refused += not expected
    assert refused, "some test files are refused (the invalid cases): the walk refuses them too"


def test_lines_of_a_record() -> None:
    text = "kind: result\nvalue:\n  printed: '33.88'\n  unit: GB\ntags:\n- a\n-\n  b: 1\n"
    assert key_lines(text) == {(): 1, ("kind",): 1, ("value",): 2, ("value", "printed"): 3, ("value", "unit"): 4,
                               ("tags",): 5, ("tags", 0): 6, ("tags", 1): 8, ("tags", 1, "b"): 8}


HOSTILE = [
    # Refused by the full build: no lines.
    "a: &x 1\nb: *x\n", "a: &x {c: 1}\nb: *x\n", "base: &b {x: 1}\nc:\n  <<: *b\n", "<<: {a: 1}\n", "a: 1\na: 2\n",
    "a:\n  b: 1\n  b: 2\n", "1: a\n'1': b\n1: c\n", "1: a\ntrue: b\n", "1.5: a\n", "null: a\n", "~: a\n", "? [x]\n: 1\n",
    "? {x: 1}\n: 1\n", "2026-01-01: a\n", "a: 2026-02-30\n", "a: !!bool maybe\n", "a: !!timestamp nope\n",
    "a: !foo x\n", "!foo k: 1\n", "=: 1\n", "a: =\n", "a: <<\n", "a: !!int x\n", "a: " + "9" * 5000 + "\n",
    "a: [unclosed\n", "a: b: c\n", "", "# only a comment\n", "a: 1\n---\nb: 2\n", "- &a x\n- *a\n", "*x\n",
    "a: !!binary '===='\n", "a: 2026-10-15t25:00:00Z\n", "&a a: &a b\n", "? *x\n",
    "a: " + "[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2) + "\n",
    "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 2)) + "  " * (MAX_DEPTH + 2) + "v\n",
    # Accepted: lines of flow mappings, integer and flag keys, tags, multi-line values, documents markers.
    "a: {b: 1, c: [x, {d: 2}]}\n", "{a: 1,\n b: 2}\n", "1: a\n2: b\n", "true: a\n", "0x1F: a\n", "1:20: a\n",
    "!!str 1: a\n'1': b\n", "a: !!str 1\nb: !!int '2'\n", "a: 2026-03-09\nb: 2026-10-15T22:00:00Z\n",
    "a: yes\nb: ~\nc: 1.5e3\nd: .inf\n", "---\na: 1\n...\n", "%YAML 1.1\n---\na: 1\n", "a: |\n  x\n  y\nb: >-\n  z\n",
    "a:\n- - x\n  - y\n- {b: c}\n", "a: 'q\n  r'\nb: 1\n", "- 1\n- [2, 3]\n", "plain\n", "a: !!set {x, y}\n",
    "a: !!omap [x: 1]\n", "a: !!seq [1]\n", "a: !!map {b: 1}\n", "a: ! x\n", "? a\n: 1\n",
    "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH - 1)) + "  " * (MAX_DEPTH - 1) + "v\n",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_yaml(text: str) -> None:
    assert key_lines(text) == full_lines(text)


def test_the_hostile_cases_cover_both_answers() -> None:
    """Both lists hold what their comments say, so that the comparison above tests refusals and lines alike."""
    answers = [bool(full_lines(text)) for text in HOSTILE]
    assert answers.count(False) >= 30 and answers.count(True) >= 20


KEYS = ["a", "b", "a", "'a'", '"b"', "1", "'1'", "true", "1.5", "null", "~", "<<", "=", "2026-01-01", "0x1F",
        "!!str 2", "!!int 3", "!foo k", "&k a", "*k", "? [x]\n", "k y", "-1", "1_000"]
SCALARS = ["x", "'q'", '"d"', "1", "2026-02-30", "2026-03-09", "!!bool maybe", "!!str 1", "*k", "&k v", "yes", "1:20",
           "!foo x", "<<", "=", ".nan", "", "~", "[]", "{}", "[x, *k]", "{a: 1, a: 2}", "{a: 1, b: &k 2}", "|\n  t"]


def render(node: object, indent: int) -> str:
    """``node`` (a scalar's text, a list of items, or a list of pairs as a dict) written as block YAML."""
    pad = " " * indent
    if isinstance(node, dict):
        return "".join(f"{pad}{key}:" + (f"\n{render(value, indent + 2)}" if isinstance(value, (dict, list)) and value
                                         else f" {value if isinstance(value, str) else '[]'}\n")
                       for key, value in node.items())
    if isinstance(node, list):
        return "".join(f"{pad}-" + (f"\n{render(item, indent + 2)}" if isinstance(item, (dict, list)) and item
                                    else f" {item if isinstance(item, str) else '[]'}\n") for item in node)
    return f"{pad}{node}\n"


def pairs(children: st.SearchStrategy[object]) -> st.SearchStrategy[dict[str, object]]:
    """A mapping whose keys may repeat (a key written twice is kept apart by a counter, stripped when written)."""
    return st.lists(st.tuples(st.sampled_from(KEYS), children), max_size=4).map(
        lambda items: {f"{key}\x00{i}": value for i, (key, value) in enumerate(items)})


TREES = st.recursive(st.sampled_from(SCALARS), lambda children: st.one_of(st.lists(children, max_size=4),
                                                                        pairs(children)), max_leaves=12)


def document(tree: object) -> str:
    return re.sub("\x00[0-9]+", "", render(tree, 0))


@settings(max_examples=400, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TREES, st.sampled_from(["", "---\n", "%YAML 1.1\n---\n", "a: &k 1\n"]), st.sampled_from(["", "---\nb: 1\n"]))
def test_generated_hostile_yaml(tree: object, head: str, tail: str) -> None:
    text = head + document(tree) + tail
    assert key_lines(text) == full_lines(text), text


def test_random_mutations_of_real_records() -> None:
    rng = random.Random(20261206)
    sources = [p.read_text() for p in sorted(BUNDLED_RECORDS.rglob("*.yaml"))]
    for _ in range(600):
        text = rng.choice(sources)
        for _ in range(rng.randrange(1, 4)):
            text = mutate(text, rng)
        assert key_lines(text) == full_lines(text), text


def test_loaded_yaml_asks_the_walk_for_its_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file read by the fast path (or the cache) gets its lines from the walk, which builds no value that is text."""
    text = "kind: result\nid: x\nvalue: '33.88'\ndate: 2026-03-09\n"
    doc = LoadedYaml(yaml.safe_load(text), source=text)  # as the fast path leaves it
    yamlio._recent_key_lines.cache_clear()  # composed afresh, whatever this process composed before
    built: list[str] = []
    construct = yaml.SafeLoader.construct_object

    def counted(self: yaml.SafeLoader, node: yaml.Node, deep: bool = False) -> object:
        built.append(node.value)
        return construct(self, node, deep)

    monkeypatch.setattr(yaml.constructor.BaseConstructor, "construct_object", counted)
    assert doc.lines == {(): 1, ("kind",): 1, ("id",): 2, ("value",): 3, ("date",): 4}
    assert built == ["2026-03-09"]  # only what could be refused: a date that may be no day


def test_the_lines_of_a_content_asked_for_again_are_not_composed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two documents of the same content (a watcher's runs, copies of the same records) compose it once; each gets
    its own lines, and a file changed since it was read still gets none."""
    text = "kind: result\nid: fixture-lines-asked-again\nvalue: '1.5'\n"
    composed: list[str] = []
    monkeypatch.setattr(yamlio, "key_lines", lambda t: composed.append(t) or key_lines(t))
    yamlio._recent_key_lines.cache_clear()
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    for path in (first, second):
        path.write_text(text)
    digest = yamlio.content_digest(text.encode())
    docs = [LoadedYaml(yaml.safe_load(text), source=(path, digest)) for path in (first, second)]
    expected = {(): 1, ("kind",): 1, ("id",): 2, ("value",): 3}
    assert docs[0].lines == expected
    docs[0].lines[("value",)] = 99  # one document's lines are its own
    assert docs[1].lines == expected and composed == [text]
    first.write_text(text.replace("1.5", "2.5"))
    assert LoadedYaml(yaml.safe_load(text), source=(first, digest)).lines == {}
