"""measure/ is a library: it imports nothing from the registry, and its errors carry data and name no flag."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

from measure.config import get_size
from measure.data import make_batch
from measure.errors import InvalidValueError, MeasureError, MissingExtraError, UnknownNameError, require
from measure.settings import parse_knob
from tests.conftest import ROOT

pytestmark = pytest.mark.sandbox  # starts processes that are limited or killed (sandboxes, torch runs): left out of make test-fast

MEASURE = ROOT / "measure"
MODULES = sorted(f"measure.{p.stem}" for p in MEASURE.glob("*.py") if p.stem != "__init__")


def test_importing_every_module_loads_no_registry_and_no_torch() -> None:
    code = (
        "import importlib, json, sys\n"
        f"for name in {MODULES!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout))
    assert "measure" in loaded and len(MODULES) >= 12
    assert not loaded & {"registry", "review", "typer", "torch", "transformers", "peft", "deepspeed"}


def test_no_module_imports_the_registry_even_lazily() -> None:
    """The subprocess above sees module-level imports; this reads every import statement, inside functions too."""
    offenders = []
    for path in sorted(MEASURE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.name}:{node.lineno} {name}" for name in names
                          if name.split(".")[0] in ("registry", "review")]
    assert offenders == []


def test_no_error_names_a_command_line_flag() -> None:
    """Only the registry's CLI knows its flags; measure/'s messages and hints speak of models, knobs and installs."""
    found = []
    for path in sorted(MEASURE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            is_error_class = isinstance(node, ast.ClassDef) and (node.name.endswith("Error") or any(
                isinstance(base, ast.Name) and base.id.endswith("Error") for base in node.bases))
            if (isinstance(node, ast.Raise) or is_error_class) and any(
                    isinstance(n, ast.Constant) and isinstance(n.value, str) and " --" in f" {n.value}"
                    for n in ast.walk(node)):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_an_unknown_name_carries_the_choices_and_the_closest() -> None:
    with pytest.raises(UnknownNameError) as caught:
        get_size("nt-2.5b")
    error = caught.value
    assert (error.what, error.found, error.suggestion) == ("model", "nt-2.5b", "nt-2-5b")
    assert error.choices == ["nt-2-5b", "nt-small", "nt-tiny"] and error.expected == "one of nt-2-5b, nt-small, nt-tiny"
    assert error.message == "unknown model 'nt-2.5b'"
    assert error.hint == "did you mean 'nt-2-5b'? the models are: nt-2-5b, nt-small, nt-tiny"


@pytest.mark.parametrize(("call", "expected", "found"), [
    (lambda: parse_knob("reduce_bucket_size", 0), "a positive whole number", 0),
    (lambda: parse_knob("overlap_comm", "yes"), "true or false", "yes"),
    (lambda: make_batch(0, 10), "at least 1", 0),
    (lambda: make_batch(1, 2000, max_tokens=1000), "at most 1000 tokens", 2000),
])
def test_a_bad_value_says_what_was_expected_and_what_was_found(call, expected: str, found: object) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(MeasureError) as caught:
        call()
    assert (caught.value.expected, caught.value.found) == (expected, found)


def test_a_knob_value_names_its_knob() -> None:
    with pytest.raises(InvalidValueError) as caught:
        parse_knob("precision", "pure_bf16")
    error = caught.value
    assert error.message == ("knob 'precision': 'pure_bf16' is not one of bf16-weights-fp32-adam, "
                             "fp32-autocast-bf16, pure-bf16 (did you mean 'pure-bf16'?)")
    assert (error.subject, error.suggestion) == ("knob 'precision'", "pure-bf16")
    assert error.hint == "precision is the weight, gradient and optimizer-state precision"


def test_a_missing_library_is_named() -> None:
    with pytest.raises(MissingExtraError) as caught:
        require("json", "no_such_module_here")
    assert caught.value.missing == ["no_such_module_here"] and "pip install -e '.[measure]'" in (caught.value.hint or "")
