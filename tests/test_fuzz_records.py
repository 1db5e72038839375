"""A fuzz test of the record loader, validation and the database build (Hypothesis).

Each example breaks one record file of a small valid registry (19 records: the bundled ones with
two reproductions) in one way: a value replaced by a hostile one (integers past 64 bits, numbers
that are not finite, text with control characters, times at the edges of the calendar, deep
nesting, another type), YAML text spliced in (tags, anchors, flow syntax, escapes), or bytes
overwritten. Whatever comes of it must be a validation report whose every issue is declared and
located, or a valid registry that builds into a database which answers a query: never an
exception, which the command line would print as "unexpected". ``registry fmt`` on the broken file
must give its canonical text or a message, and a file validate accepts is formatted unless a comment
cannot be placed (issue 28). Batch journals are fuzzed in tests/test_hostile_journal.py.

``REGISTRY_FUZZ_EXAMPLES`` sets how many examples run (default 2,000, about 30 s here); the
examples are derandomized, so a run in CI is repeatable. Inputs that once broke something are
kept as data files under tests/data/hostile/fuzz and run first.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry.issues.codes import is_declared
from registry.store.yamlio import parse_yaml
from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, DATA

EXAMPLES = int(os.environ.get("REGISTRY_FUZZ_EXAMPLES", "2000"))
FOUND = DATA / "hostile" / "fuzz"
#: Codes whose issue names a file but no line (the file could not be read as lines).
UNLINED = {"binary-file", "empty-file", "file-too-large", "unreadable-file", "link-outside-records", "yaml-syntax",
           "missing-unexplained"}


@pytest.fixture(scope="module")
def small_registry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fuzz") / "records"
    shutil.copytree(BUNDLED_RECORDS, root)
    for path in sorted((root / "reproduction").glob("*.yaml"))[2:]:
        path.unlink()
    registry, report = validate(root)
    assert report.valid, [i.message for i in report.errors]
    return root


def record_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.yaml"))


# -- what a value may be replaced with ----------------------------------------------------------

_OFFSETS = st.integers(min_value=-(23 * 60 + 59), max_value=23 * 60 + 59).map(
    lambda minutes: dt.timezone(dt.timedelta(minutes=minutes)))
HOSTILE_VALUES = st.one_of(
    st.integers(),
    st.sampled_from([2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64, 10**40, -1, 0]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8", categories=["Cc", "Cf", "Zl", "Zp", "Co"]), max_size=8),
    st.sampled_from(["\x1b[2J", "\x9b31m", "\u202e", "\x00", "\r", "ZZZ" * 500, "0x" + "f" * 200]),
    st.sampled_from(["1E+40", "1E-20000", "12345678901234567890123456789.5", "NaN", "-Infinity", "-0", "1e400"]),
    st.sampled_from([2**200, 10**30, 2**62 * 3]),
    st.datetimes(timezones=_OFFSETS),
    st.datetimes(min_value=dt.datetime(9999, 12, 31), timezones=_OFFSETS),
    st.datetimes(max_value=dt.datetime(1, 1, 2), timezones=_OFFSETS),
    st.dates(),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    st.recursive(st.integers(), lambda inner: st.lists(inner, max_size=2), max_leaves=40),
)
#: A hostile value of the same type as the one it replaces.
SAME_TYPE: dict[type, st.SearchStrategy[Any]] = {
    str: st.one_of(st.text(), st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=300)),
    int: st.one_of(st.integers(), st.integers(min_value=2**62, max_value=2**65)),
    float: st.floats(),
    bool: st.booleans(),
    dt.datetime: st.one_of(st.datetimes(timezones=_OFFSETS),
                           st.datetimes(min_value=dt.datetime(9999, 12, 31), timezones=_OFFSETS),
                           st.datetimes(max_value=dt.datetime(1, 1, 2), timezones=_OFFSETS)),
    dt.date: st.dates(),
}
#: YAML spliced into a file's text.
SNIPPETS = st.sampled_from([
    "!!bool maybe", "!!timestamp nope", "!!int 0x" + "f" * 5000, "!!float abc", "!!binary G1sySg==", "!!str",
    "!!python/object:os.system", "&a", "*a", "<<: {}", "{", "}", "[", "]", '"\\e[2J"', '"\\ud800"', '"\\x9b"',
    "\t", "\r", "\n", "---", "...", "%YAML 1.1", "? ", ": ", "- ", "#", "'", '"', "|", ">", "~", "null",
    "9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59", "2026-02-30", "1e400", ".nan", ".inf",
    "18446744073709551616", "-9223372036854775809", "\ufeff", "\u2028", "\x85",
])


def leaf_paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``data`` (containers included, so that a whole list or mapping can be replaced)."""
    paths = [path] if path else []
    if isinstance(data, dict):
        for key, value in data.items():
            paths += leaf_paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            paths += leaf_paths(value, (*path, index))
    return paths


def replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, *rest = path
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[head] = replaced(copy[head], tuple(rest), value)
    return copy


@st.composite
def broken_file(draw: st.DrawFn, files: list[Path]) -> tuple[Path, bytes]:
    """One record file and the bytes to write over it."""
    path = draw(st.sampled_from(files))
    original = path.read_bytes()
    how = draw(st.sampled_from(["typed", "typed", "typed", "value", "value", "key", "splice", "splice", "bytes"]))
    if how in ("typed", "value", "key"):
        data = parse_yaml(original.decode("utf-8")).data
        target = draw(st.sampled_from(leaf_paths(data)))
        parent = _parent(data, target)
        if how == "key" and isinstance(parent, dict):
            key = draw(st.sampled_from(["kind", "id", "unknown_field", "x" * 300, 3, True, None]))
            data = replaced(data, target[:-1], {**parent, key: draw(HOSTILE_VALUES)})
        elif how == "typed":  # a value of the same type, so that the record stays valid more often
            data = replaced(data, target, draw(SAME_TYPE.get(type(_parent(data, (*target, None))), HOSTILE_VALUES)))
        else:
            data = replaced(data, target, draw(HOSTILE_VALUES))
        try:
            text = yaml.safe_dump(data, allow_unicode=draw(st.booleans()), sort_keys=False)
        except yaml.YAMLError:
            text = yaml.safe_dump(data, allow_unicode=False, sort_keys=False)
        return path, text.encode("utf-8", "surrogatepass")
    if how == "splice":
        text = original.decode("utf-8")
        at = draw(st.integers(min_value=0, max_value=len(text)))
        cut = draw(st.integers(min_value=0, max_value=20))
        return path, (text[:at] + draw(SNIPPETS) + text[at + cut:]).encode("utf-8", "surrogatepass")
    data = bytearray(original)
    for _ in range(draw(st.integers(min_value=1, max_value=8))):
        data[draw(st.integers(min_value=0, max_value=len(data) - 1))] = draw(st.integers(min_value=0, max_value=255))
    return path, bytes(data)


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path[:-1]:
        data = data[part]
    return data


# -- the property -----------------------------------------------------------------------------


def check_outcome(root: Path, out: Path) -> None:
    """A report of declared, located issues; or a valid registry that builds and answers a query."""
    from registry.db.build import build_sqlite
    from registry.db.query import run_query

    registry, report = validate(root)
    for issue in report.issues:
        assert is_declared(issue.code), issue
        assert issue.file and (issue.line is not None or issue.code in UNLINED), issue
        assert len(issue.message) < 1000, f"a message quotes values only as excerpts: {issue.message[:200]}..."
    if report.valid:
        build_sqlite(registry, out)
        result = run_query(str(out), "SELECT COUNT(*) FROM record")
        assert result.rows == [(len(registry),)]


#: Inputs that once broke the loader, validation or a build (tests/data/hostile/fuzz/<case>), and the code each gets.
FOUND_CASES = {
    "long-reference": "unresolved-reference",  # its message quoted the 5,000-character value whole
    "huge-ratio": "schema-value-error",  # Decimal's InvalidOperation escaped the model's validator
    "value-bytes-2-200": "schema-value-error",  # the same, converting bytes to GiB
    "thirty-digits": "value-out-of-range",  # valid, then 'show' failed rounding it for display
    "old-hardware-text": "schema-list-type",  # the suggestion to type it quoted the 1,500 characters whole
}


@pytest.mark.parametrize("case", sorted(FOUND_CASES))
def test_the_inputs_fuzzing_once_broke(small_registry: Path, tmp_path: Path, case: str) -> None:
    """Each data file under tests/data/hostile/fuzz/<case> replaces its namesake; each gets its code."""
    [found] = (FOUND / case).rglob("*.yaml")
    target = small_registry / found.parent.name / found.name
    original = target.read_bytes()
    target.write_bytes(found.read_bytes())
    try:
        check_outcome(small_registry, tmp_path / "fuzz.db")
        _, report = validate(small_registry)
        assert FOUND_CASES[case] in {issue.code for issue in report.errors}
    finally:
        target.write_bytes(original)


def test_every_found_input_is_run() -> None:
    assert sorted(p.name for p in FOUND.iterdir()) == sorted(FOUND_CASES)


@pytest.mark.slow
def test_no_input_gives_an_unexpected_error(small_registry: Path, tmp_path: Path) -> None:
    files = record_files(small_registry)

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(broken_file(files))
    def one(case: tuple[Path, bytes]) -> None:
        path, data = case
        original = path.read_bytes()
        path.write_bytes(data)
        try:
            check_outcome(small_registry, tmp_path / "fuzz.db")
            check_formatting(small_registry, path)
        finally:
            path.write_bytes(original)

    one()


def check_formatting(root: Path, path: Path) -> None:
    """fmt on the file: its canonical text (which holds the same record), or a message why it was left; never an
    exception. A file validate accepts (no error of its own) is formatted unless a comment could not be placed."""
    from registry.curate.fmt import format_files

    outcome = format_files(root, [path])
    if path in outcome.skipped:
        assert outcome.skipped[path] and len(outcome.skipped[path]) < 1000, outcome.skipped[path]
        _, report = validate(root)
        accepted = not any(issue.file.endswith(path.name) for issue in report.errors)
        if accepted:
            assert "comment" in outcome.skipped[path], f"a file validate accepts is formatted: {outcome.skipped[path]}"
