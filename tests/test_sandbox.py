"""The sandbox's child runs the caller's code: it takes the caller's module path before it reads the request."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from registry.sandbox import ChildFailed, run_limited

pytestmark = pytest.mark.sandbox  # starts processes that are limited or killed (sandboxes, torch runs): left out of make test-fast


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


@pytest.mark.parametrize("message", ["error return without exception set",
                                     "<function _find_and_load at 0x7f> returned NULL without setting an exception"])
def test_cpythons_failed_allocation_under_the_cap_is_the_memory_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                                                                      message: str) -> None:
    """Importing a module under RLIMIT_AS can fail as a SystemError, not a MemoryError: still the limit, not a bug."""
    from registry.sandbox import LimitExceeded

    package = tmp_path / "raises_system_error"
    package.mkdir()
    (package / "__init__.py").write_text(f"def run(argument):\n    raise SystemError({message!r})\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(LimitExceeded) as stopped:
        run_limited("raises_system_error:run", None, timeout=60, memory_mb=512)
    assert stopped.value.kind == "memory"
    with pytest.raises(ChildFailed, match="SystemError"):  # without a cap it is what it says
        run_limited("raises_system_error:run", None, timeout=60, memory_mb=None)
