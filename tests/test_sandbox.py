"""The sandbox's child runs the caller's code: it takes the caller's module path before it reads the request."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from registry.sandbox import ChildFailed, run_limited


def _package(folder: Path, which: str) -> None:
    package = folder / "sandboxed_twin"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        f"WHICH = {which!r}\n\n"
        "class Request:\n"
        "    def __init__(self, text):\n"
        "        self.text = text\n\n"
        "def which(request):\n"
        "    return (WHICH, request.text)\n")


@pytest.fixture
def twins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> object:
    """A package in two checkouts: the caller's first on its path, the other on the child's default path."""
    _package(tmp_path / "ours", "ours")
    _package(tmp_path / "other", "other")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "other"))  # what a child would find by itself
    monkeypatch.syspath_prepend(str(tmp_path / "ours"))
    sys.modules.pop("sandboxed_twin", None)
    module = importlib.import_module("sandboxed_twin")
    yield module
    sys.modules.pop("sandboxed_twin", None)


def test_the_child_unpickles_the_request_with_the_callers_modules(twins) -> None:  # type: ignore[no-untyped-def]
    assert twins.WHICH == "ours"
    answer = run_limited("sandboxed_twin:which", twins.Request("hello"), timeout=60, memory_mb=None)
    assert answer == ("ours", "hello")


def test_a_child_that_raises_is_reported_with_its_message(twins) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ChildFailed) as failed:
        run_limited("sandboxed_twin:which", "not a request", timeout=60, memory_mb=None)
    assert failed.value.error_type == "AttributeError" and "text" in failed.value.message
