"""Each concept is declared once: the code's string literals are read with ``ast`` and each concept's own
text may appear in its one home only (docstrings and comments aside: they may name it in prose).

- the minus signs a number may carry: ``registry.numbers.MINUS_SIGNS``;
- a number's printed figures, as the table and text readers look for them: ``registry.numbers.FIGURES``;
- the kinds of uncertainty: their tokens in ``registry.models.values.UncertaintyKind``, their words and
  short labels (and the words for what they are taken over) in ``registry.models.uncertainty_kinds``;
- an id's composition and the real-day check of its date: ``registry.ids``;
- the derived operations' units and formulas: ``registry.derived``.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry.derived import OPERATIONS
from registry.models.uncertainty_kinds import REPEAT_WORDS, UNCERTAINTY_KINDS
from registry.models.values import Repeats, UncertaintyKind
from registry.numbers import FIGURES, MINUS_SIGNS

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("registry", "review", "measure")


@functools.cache
def modules() -> tuple[tuple[str, ast.Module], ...]:
    """Every module of the packages, parsed once per test process, when a test first asks (not at collection: every
    xdist worker collects this file, one runs it). The trees are only read."""
    return tuple((path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(), filename=str(path)))
                 for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py")))


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the nodes that are docstrings (of the module, a class or a function) or bare strings under an
    attribute (a string after a field: its documentation)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for statement in body:
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(
                        statement.value.value, str):
                    found.add(id(statement.value))
    return found


_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


def _decoded(text: str) -> str:
    """A raw string's '\\u2212' (which the regex engine reads as the character) as the character itself."""
    return _ESCAPE.sub(lambda m: chr(int(m[1], 16)), text)


def strings() -> Iterator[tuple[str, str]]:
    """(module path, text) for every string constant in code, docstrings left out; an f-string's literal parts
    each count, and its whole shape too, with '{}' for each value it formats; a literal list, tuple, set or
    dict's strings together too (a dict of the signs restates the set as much as a string of them)."""
    for path, tree in modules():
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                yield path, _decoded(node.value)
            elif isinstance(node, ast.JoinedStr):
                yield path, _decoded("".join(part.value if isinstance(part, ast.Constant) else "{}"
                                             for part in node.values))
            elif isinstance(node, ast.List | ast.Tuple | ast.Set | ast.Dict):
                items = node.keys if isinstance(node, ast.Dict) else node.elts
                yield path, "\x00".join(item.value for item in items
                                        if isinstance(item, ast.Constant) and isinstance(item.value, str))


@functools.cache
def all_strings() -> tuple[tuple[str, str], ...]:
    """``strings()``, read once per test process, when a test first asks."""
    return tuple(strings())


@pytest.fixture(scope="module", autouse=True)
def _trees_let_go() -> Iterator[None]:
    """The parsed modules (some 360,000 objects) let go once this module's tests are done: kept, every garbage
    collection of the rest of the worker's run scanned them again."""
    yield
    modules.cache_clear()
    all_strings.cache_clear()


def homes(matches: object) -> set[str]:
    """The modules whose strings satisfy ``matches`` (a callable of the text)."""
    return {path for path, text in all_strings() if matches(text)}  # type: ignore[operator]


_SIGN_CLASS = re.compile(f"\\[[^\\]]*[{MINUS_SIGNS}][^\\]]*\\]")


def _restates_signs(text: str) -> bool:
    """Two or more of the minus signs, or a regex class of a number's signs ('[-+\u2212]'; a range's '[,;\u2013-]',
    without '+', is no sign)."""
    return sum(sign in text for sign in MINUS_SIGNS) >= 2 or any(
        "+" in found.group(0) and "-" in found.group(0) for found in _SIGN_CLASS.finditer(text))


def test_the_minus_signs_are_declared_in_one_module() -> None:
    """A pattern that lists the minus signs restates the set: it reads ``MINUS_SIGNS`` or ``SIGN`` instead."""
    found = homes(_restates_signs)
    assert found == {"registry/numbers.py"}, found


def test_the_printed_figures_pattern_is_declared_in_one_module() -> None:
    """A pattern that spells out a number's figures ('digits with thousands commas and a fraction, or a fraction
    alone') restates ``FIGURES``: the table and text readers build on it instead."""
    figures = FIGURES[3:-1]  # without its group: a pattern may write it inside one of its own
    found = homes(lambda text: figures in text)
    assert found == {"registry/numbers.py"}, found


@pytest.mark.parametrize("kind", list(UncertaintyKind))
def test_each_uncertainty_kinds_token_is_written_in_its_enum_only(kind: UncertaintyKind) -> None:
    if kind is UncertaintyKind.OTHER:
        pytest.skip("'other' is an English word as much as a token")
    found = homes(lambda text: text == kind.value)  # 'min-max' is also how papers print it: a word of the table
    assert "registry/models/values.py" in found and found <= {"registry/models/values.py", "registry/models/uncertainty_kinds.py"}


@pytest.mark.parametrize("kind", list(UncertaintyKind))
def test_each_uncertainty_kinds_words_and_label_are_written_once(kind: UncertaintyKind) -> None:
    """The words papers print for a kind ('std. err.', 'SEM') and its short label, in one table."""
    spec = UNCERTAINTY_KINDS[kind]
    # Only the words no other concept uses ('range', 'CI' or 'SE' may be anything in another module's text).
    own = [w for w in (*spec.words, spec.short) if len(w) > 3 and w not in ("range", "other") and w != kind.value]
    for word in own:
        assert homes(lambda text, word=word: text == word) == {"registry/models/uncertainty_kinds.py"}, word
    for abbreviation in (w for w in spec.words if "." in w and len(w) > 4):  # 'std. err.' inside a pattern
        assert homes(lambda text, a=abbreviation: a in text) == {"registry/models/uncertainty_kinds.py"}, abbreviation


def test_every_uncertainty_kind_and_repeat_has_its_entry() -> None:
    assert list(UNCERTAINTY_KINDS) == list(UncertaintyKind)
    assert list(REPEAT_WORDS) == list(Repeats)
    for words in REPEAT_WORDS.values():
        for word in (w for w in words if " " in w):  # 'random seeds', 'bootstrap resamples'
            assert homes(lambda text, word=word: text == word) == {"registry/models/uncertainty_kinds.py"}, word


_COMPOSED = re.compile(r"\{\}-\{\}-(?:\{\}|[a-z]+)-")


def test_an_id_is_composed_in_one_module() -> None:
    """'{batch}-{date}-{kind}-{slug}' is ``registry.ids.compose_id``; its form in words is ``ID_FORM``."""
    assert homes(lambda text: bool(_COMPOSED.search(text))) == {"registry/ids.py"}
    assert homes(lambda text: "<batch>-<yyyymmdd>" in text) == set()  # ID_FORM is composed, not written


def test_the_real_day_check_is_declared_once() -> None:
    defined = {path for path, tree in modules() for node in ast.walk(tree)
               if isinstance(node, ast.FunctionDef) and "real_day" in node.name}
    assert defined == {"registry/ids.py"}


def test_the_derived_operations_units_are_declared_once() -> None:
    """What each operation yields is in ``registry.derived.OPERATIONS``: no other module lists a unit tuple of
    an operation."""
    yields = {spec.yields for spec in OPERATIONS.values() if len(spec.yields) > 1}
    found = set()
    for path, tree in modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) for e in node.elts):
                if tuple(e.value for e in node.elts) in yields:  # type: ignore[attr-defined]
                    found.add(path)
    assert found == {"registry/derived.py"}


def test_the_checks_find_a_restatement(tmp_path: Path) -> None:
    """The readers above do find what they look for: a module that restates a concept is caught."""
    assert _restates_signs(_decoded(r"[-+\u2212]?\d+")) and not _restates_signs("[,;\u2013-]")
    tree = ast.parse('PATTERN = "[-\\u2212\\u2013]"\nID = f"{batch}-{date}-{kind}-{slug}"\n'
                     'def f():\n    """std. err. in a docstring is prose."""\n    return "std. err."\n')
    docs = _docstrings(tree)
    texts = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
             and id(n) not in docs]
    assert any(sum(sign in text for sign in MINUS_SIGNS) >= 2 for text in texts)
    assert texts.count("std. err.") == 1  # the docstring's is not counted
    shapes = ["".join(p.value if isinstance(p, ast.Constant) else "{}" for p in n.values)
              for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)]
    assert any(_COMPOSED.search(shape) for shape in shapes)
