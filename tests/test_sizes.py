"""Modules and functions small enough to read in one sitting: no module of ``registry`` or ``review`` over
``MAX_MODULE_LINES`` lines, no function (or method) over ``MAX_FUNCTION_LINES`` lines, from its ``def`` to its last
line, docstring included (decorators apart; a function nested in another counts in both).

``ALLOWED`` names the offenders still waiting for their split. The list only shrinks: a split removes its entries
(a test fails on an entry that is no longer over its limit), and nothing is added to it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_import_graph import ROOT

MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
PACKAGES = ("registry", "review")

#: Offenders waiting for their split, as 'path' (a module) or 'path::function' (a function by its qualified name).
#: It only shrinks.
ALLOWED: frozenset[str] = frozenset({
    "registry/checking/claims.py",
    "review/pdf/fetch.py::download_pdf",
    "review/pdf/pdftext.py",
    "review/pdf/pdftext.py::_extract",
    "review/pdf/pdftext.py::normalize",
    "review/sources/latex.py",
})


def _functions(tree: ast.AST, prefix: str = "") -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function and method under ``tree``, by its qualified name ('Class.method', 'outer.inner')."""
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append((prefix + node.name, node))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.extend(_functions(node, f"{prefix}{node.name}."))
        else:
            found.extend(_functions(node, prefix))
    return found


def oversized(text: str, name: str) -> dict[str, int]:
    """What in the module ``text`` (at the path ``name``) is over its limit: 'name' or 'name::function' -> lines."""
    found: dict[str, int] = {}
    lines = len(text.splitlines())
    if lines > MAX_MODULE_LINES:
        found[name] = lines
    for qualified, node in _functions(ast.parse(text, filename=name)):
        length = (node.end_lineno or node.lineno) - node.lineno + 1
        if length > MAX_FUNCTION_LINES:
            found[f"{name}::{qualified}"] = length
    return found


def measured() -> dict[str, int]:
    found: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found.update(oversized(path.read_text(), path.relative_to(ROOT).as_posix()))
    return found


def test_no_module_or_function_over_its_limit() -> None:
    over = {name: lines for name, lines in measured().items() if name not in ALLOWED}
    assert not over, (f"over {MAX_MODULE_LINES} lines a module, {MAX_FUNCTION_LINES} a function: split by concept\n"
                      + "\n".join(f"{name}: {lines} lines" for name, lines in sorted(over.items())))


def test_the_allowed_list_only_shrinks() -> None:
    """An entry whose module or function is now within its limit (or gone) is taken off the list."""
    stale = sorted(ALLOWED - set(measured()))
    assert not stale, "within the limits now: remove from ALLOWED\n" + "\n".join(stale)


def test_the_measure_finds_a_long_module_and_a_long_method() -> None:
    body = "\n".join(f"        x{n} = {n}" for n in range(MAX_FUNCTION_LINES))
    text = f"class C:\n    def long(self):\n{body}\n\n    def short(self):\n        pass\n" + "\n" * MAX_MODULE_LINES
    assert oversized(text, "m.py") == {"m.py": len(text.splitlines()), "m.py::C.long": MAX_FUNCTION_LINES + 1}
    assert oversized("def f():\n    pass\n", "m.py") == {}


def test_a_function_nested_in_another_counts_in_both() -> None:
    body = "\n".join(f"        x{n} = {n}" for n in range(MAX_FUNCTION_LINES))
    text = f"def outer():\n    def inner():\n{body}\n    return inner\n"
    assert oversized(text, "m.py") == {"m.py::outer": MAX_FUNCTION_LINES + 3,
                                       "m.py::outer.inner": MAX_FUNCTION_LINES + 1}
