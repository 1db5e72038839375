"""The layers of the code: no loop between sub-packages (``registry.store``, ``registry.validate``, ``review.pdf``, ...;
the modules at the top of ``registry`` each count as one, those at the top of ``review`` as one, ``measure`` as one), and every import goes to the
same layer or one below, in the order ``LAYERS`` declares (docs/development.md shows it). A new sub-package or
top-level module must be given its layer here; the module-level test (tests/test_import_graph.py) keeps each layer
free of cycles inside.
"""

from __future__ import annotations

from pathlib import Path

from tests.test_import_graph import ROOT, cycles, import_graph

#: The layers, lowest first: a unit imports only units of its own layer or of layers below.
LAYERS: tuple[tuple[str, ...], ...] = (
    # leaves: text, limits, the id grammar, issues and their codes, errors, units and printed numbers; and measure/,
    # which knows nothing of the registry
    ("measure", "registry", "registry.text", "registry.textsafe", "registry.limits", "registry.packed",
     "registry.per_registry", "registry.sandbox", "registry.ids", "registry.issues", "registry.errors",
     "registry.units", "registry.numbers", "registry.numbers_in_text", "registry.printed_forms", "registry.rounding"),
    ("registry.models", "registry.derived", "registry.metrics"),
    ("registry.store",),
    ("registry.status", "registry.comparability"),
    ("registry.validate",),
    ("registry.watch", "registry.page", "registry.curate"),
    # reading documents: a PDF's text and words, its tables, a document's own source files; then checking claims
    ("review",),
    ("review.pdf",),
    ("review.tables",),
    ("review.sources",),
    ("registry.checking",),
    ("registry.validation", "registry.watcher", "registry.site", "registry.reproduce", "registry.generated"),
    ("registry.db",),
    ("registry.export",),
    ("registry.cli", "registry.__main__"),
)


def unit_of(module: str) -> str:
    """The unit a module belongs to: its sub-package of ``registry`` (``registry.store``), a module at the top of
    ``registry`` itself (``registry.units``), its sub-package of ``review`` (``review.pdf``), or its top package
    (``review`` for ``review.errors``, ``measure``)."""
    parts = module.split(".")
    if len(parts) == 1:
        return parts[0]
    if parts[0] == "registry" or (parts[0] == "review" and (ROOT / "review" / parts[1]).is_dir()):
        return f"{parts[0]}.{parts[1]}"
    return parts[0]


def unit_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    units: dict[str, set[str]] = {}
    for module, imported in graph.items():
        found = units.setdefault(unit_of(module), set())
        found.update(unit_of(target) for target in imported if unit_of(target) != unit_of(module))
    return units


def upward(units: dict[str, set[str]], layers: tuple[tuple[str, ...], ...]) -> list[str]:
    """Every import of a unit from a layer above its own, as 'importer -> imported'."""
    layer = {name: index for index, names in enumerate(layers) for name in names}
    return sorted(f"{unit} -> {target}" for unit, targets in units.items() for target in targets
                  if layer[target] > layer[unit])


def test_no_loop_between_sub_packages() -> None:
    found = cycles(unit_graph(import_graph()))
    assert not found, "sub-packages that import one another:\n" + "\n".join(" -> ".join(cycle) for cycle in found)


def test_every_unit_has_its_layer() -> None:
    declared = [name for names in LAYERS for name in names]
    assert len(declared) == len(set(declared)), "a unit is declared in two layers"
    missing = sorted(set(unit_graph(import_graph())) - set(declared))
    assert not missing, f"give each a layer in LAYERS: {missing}"
    for name in declared:  # each names a package or module that exists
        path = ROOT.joinpath(*name.split("."))
        assert path.is_dir() or path.with_suffix(".py").is_file(), name


def test_imports_go_down_the_layers() -> None:
    found = upward(unit_graph(import_graph()), LAYERS)
    assert not found, "imports from a lower layer into a higher one:\n" + "\n".join(found)


def test_the_layer_check_finds_a_loop_and_an_import_upwards(tmp_path: Path) -> None:
    """The checks fail where a sub-package imports one above it, though no module imports one that imports it back."""
    graph = {"registry.store.loader": {"registry.validate.codes"}, "registry.validate.codes": set(),
             "registry.validate.runner": {"registry.store.loader"}}
    units = unit_graph(graph)
    assert units == {"registry.store": {"registry.validate"}, "registry.validate": {"registry.store"}}
    assert cycles(graph) == [] and cycles(units) == [["registry.store", "registry.validate", "registry.store"]]
    assert upward(units, (("registry.store",), ("registry.validate",))) == ["registry.store -> registry.validate"]
