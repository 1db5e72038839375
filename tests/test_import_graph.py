"""No import cycles in ``registry``, ``review`` or ``measure``: a cycle is a layering nobody chose.

The imports are read from the source with ``ast``, at module level and inside functions alike (a
function-level import hides a cycle from Python, not from a reader), relative imports resolved, and
``from pkg import mod`` taken as an import of the module ``pkg.mod``. Imports under ``TYPE_CHECKING``
count too: they never run, but a type one module needs from another is a layer all the same, and the
type checker follows them. A test fails on any cycle and prints it.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("registry", "review", "measure")


def module_files() -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package by its own name, read from its __init__)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _import_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth: module level, in functions, under ``if TYPE_CHECKING:``."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the packages that ``name`` imports (each resolved to the module, not the package, where
    ``from package import module`` names one)."""
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
            continue
        if node.level:
            base = name.split(".") if is_package else name.split(".")[:-1]
            base = base[:len(base) - (node.level - 1)]
            origin = ".".join(base + ([node.module] if node.module else []))
        else:
            origin = node.module or ""
        targets.add(origin)
        targets.update(f"{origin}.{alias.name}" for alias in node.names if f"{origin}.{alias.name}" in modules)
    resolved = set()
    for target in targets:
        while target and target not in modules:  # 'registry.models.values.Operation' -> its module
            target = target.rpartition(".")[0]
        if target and target != name:
            resolved.add(target)
    return resolved


@functools.cache
def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected component of more than one module (Tarjan's algorithm), as
    a path that starts and ends at the same module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(start: str) -> None:
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(component)

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return [_cycle_in(component, graph) for component in components]


def _cycle_in(component: set[str], graph: dict[str, set[str]]) -> list[str]:
    """The shortest cycle through the component's first module (breadth first, within the component)."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node] & component):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    raise AssertionError(f"no cycle through {start} in {sorted(component)}")


def test_the_import_graph_has_no_cycle() -> None:
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles (one shown through each knot of modules that import one another):\n" + "\n".join(
        " -> ".join(cycle) for cycle in found)


# -- the walker itself ---------------------------------------------------------------------------------------


def _write(root: Path, files: dict[str, str]) -> dict[str, Path]:
    modules = {}
    for name, text in files.items():
        path = root / (name.replace(".", "/") + ".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        modules[name.removesuffix(".__init__")] = path
    return modules


def test_the_walker_finds_a_cycle_through_a_function_level_and_a_relative_import(tmp_path: Path) -> None:
    modules = _write(tmp_path, {
        "pkg.__init__": "",
        "pkg.a": "from pkg import b\n",
        "pkg.b": "def f():\n    from .c import thing\n",
        "pkg.c": "from . import a\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import d\n",
        "pkg.d": "import pkg.c\n",
    })
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert graph["pkg.a"] == {"pkg", "pkg.b"} and graph["pkg.b"] == {"pkg.c"}
    assert graph["pkg.c"] == {"pkg", "pkg.a", "pkg.d"}  # a TYPE_CHECKING import is an edge too
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]  # one cycle shown for the component


def test_the_walker_passes_a_layered_package(tmp_path: Path) -> None:
    modules = _write(tmp_path, {"pkg.__init__": "", "pkg.base": "import os\n", "pkg.top": "from .base import x\n"})
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert graph == {"pkg": set(), "pkg.base": set(), "pkg.top": {"pkg.base"}}
    assert cycles(graph) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_is_walked(package: str) -> None:
    assert any(name == package or name.startswith(package + ".") for name in import_graph())


# -- the layout's own rules ----------------------------------------------------------------------------------

#: Packages whose ``__init__`` is a docstring only, so that importing one of their modules loads nothing else.
EMPTY_INITS = ("registry.store", "registry.validate", "registry.validate.incremental", "registry.issues", "registry.validate.rules", "registry.status",
               "registry.reproduce", "registry.generated", "registry.page", "registry.site")


@pytest.mark.parametrize("package", EMPTY_INITS)
def test_a_package_init_imports_nothing(package: str) -> None:
    path = module_files()[package]
    assert path.name == "__init__.py" and not _import_nodes(ast.parse(path.read_text())), path


def _rule_modules() -> dict[str, Path]:
    return {name: path for name, path in module_files().items()
            if name.startswith("registry.validate.rules.")}


def test_no_rule_module_imports_the_runner() -> None:
    """Rules register on ``rules_registry``; the runner imports them, never the other way round."""
    graph = import_graph()
    assert [name for name in _rule_modules() if "registry.validate.runner" in graph[name]] == []


def test_the_runner_lists_every_module_that_registers_rules() -> None:
    """One list, ``RULE_MODULES``: a module of rules left out of it would register nothing and check nothing."""
    from registry.validate.runner import RULE_MODULES

    registering = {name for name, path in _rule_modules().items()
                   if any(word in path.read_text() for word in ("kind_rules.register", "record_rules.",
                                                               "registry_rules."))}
    assert registering and registering == {module.__name__ for module in RULE_MODULES}
