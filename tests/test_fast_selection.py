"""How ``make test-fast`` leaves modules unimported: ``tests.conftest.pytest_ignore_collect`` and its two readers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import can_select, module_marks, pytest_ignore_collect

FAST = "not (slow or pdf or browser or postgres or sandbox or torch or gpu or deepspeed_ops)"


@pytest.mark.parametrize(("expression", "marks", "selected"), [
    (FAST, {"torch"}, False),
    (FAST, {"pdf", "skipif"}, False),
    (FAST, {"skipif"}, True),
    ("torch", {"torch"}, True),
    ("not slow", {"torch"}, True),
    ("slow or pdf", {"torch"}, True),  # a test of the module may also be marked slow
    ("pdf and not slow", {"slow"}, False),
    ("pdf and not slow", {"torch"}, True),
])
def test_a_module_is_left_out_only_when_no_test_of_it_can_be_selected(expression: str, marks: set[str],
                                                                      selected: bool) -> None:
    assert can_select(expression, marks) is selected


def test_the_module_wide_markers_are_read_without_running_the_module(tmp_path: Path) -> None:
    one = tmp_path / "test_one.py"
    one.write_text("import pytest\nraise SystemExit('never run')\npytestmark = pytest.mark.torch  # why\n")
    assert module_marks(one) == {"torch"}
    listed = tmp_path / "test_listed.py"
    listed.write_text("import pytest\npytestmark = [pytest.mark.pdf, pytest.mark.skipif(True, reason='x')]\n"
                      "def test_x():\n    pytestmark = pytest.mark.slow\n")
    assert module_marks(listed) == {"pdf", "skipif"}
    broken = tmp_path / "test_broken.py"
    broken.write_text("def (:\n")
    assert module_marks(broken) == set()


class Options:
    """The one option ``pytest_ignore_collect`` reads, as ``-m`` gave it."""

    def __init__(self, markexpr: str) -> None:
        self.markexpr = markexpr

    def getoption(self, name: str, default: object = None) -> object:
        return self.markexpr if name == "markexpr" else default


def test_a_run_with_m_leaves_out_only_the_modules_it_cannot_select(tmp_path: Path) -> None:
    heavy = tmp_path / "test_heavy.py"
    heavy.write_text("import pytest\npytestmark = pytest.mark.torch\n")
    light = tmp_path / "test_light.py"
    light.write_text("def test_light():\n    pass\n")
    helper = tmp_path / "support.py"
    helper.write_text("import pytest\npytestmark = pytest.mark.torch\n")
    assert pytest_ignore_collect(heavy, Options(FAST)) is True  # type: ignore[arg-type]
    assert pytest_ignore_collect(light, Options(FAST)) is None  # type: ignore[arg-type]
    assert pytest_ignore_collect(helper, Options(FAST)) is None  # type: ignore[arg-type]
    assert pytest_ignore_collect(heavy, Options("")) is None  # type: ignore[arg-type]
    assert pytest_ignore_collect(heavy, Options("torch")) is None  # type: ignore[arg-type]
