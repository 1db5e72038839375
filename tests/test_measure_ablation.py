"""measure.ablation and measure.schedule: the whole ablation's order, its deadline and its time limits."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from measure.ablation import order, restage
from measure.schedule import MIN_SETTING_S, Deadline, within
from measure.settings import Precision, Setting, Stage, WeightUpdate

pytestmark = pytest.mark.sandbox  # starts processes that are limited or killed (sandboxes, torch runs): left out of make test-fast


def stage_sweep(stage: Stage, *precisions: Precision) -> list[Setting]:
    return [Setting("nt-tiny", stage, 64, 2, precision=p).normalized() for p in precisions]


def test_transcribed_stages_first_then_the_others_then_the_rest_in_turn() -> None:
    p1, p2, p3 = Precision
    deepspeed = stage_sweep(Stage.DEEPSPEED, p1, p2, p3)
    checkpointing = stage_sweep(Stage.CHECKPOINTING, p1, p2)
    ordered = order([deepspeed, checkpointing])  # in any order: sorted by stage
    stages = [s.stage for s in ordered]
    assert stages[:4] == [Stage.CHECKPOINTING, Stage.DEEPSPEED, Stage.BASELINE, Stage.FLASH_ATTENTION]
    assert [(s.stage, s.precision) for s in ordered[4:7]] == [
        (Stage.CHECKPOINTING, p2), (Stage.DEEPSPEED, p2), (Stage.DEEPSPEED, p3)]
    assert [(s.stage, s.precision) for s in ordered[7:]] == [(Stage.BASELINE, p2), (Stage.FLASH_ATTENTION, p2)]
    assert len(ordered) == len(set(ordered)) == 3 + 2 + 2 + 2


def test_restaging_drops_knobs_that_do_not_apply_and_their_duplicates() -> None:
    deepspeed = [Setting("nt-tiny", Stage.DEEPSPEED, 64, 2, reduce_bucket_size=b).normalized() for b in (10, 20)]
    assert restage(deepspeed, Stage.BASELINE) == [Setting("nt-tiny", Stage.BASELINE, 64, 2).normalized()]
    lora = Setting("nt-tiny", Stage.CHECKPOINTING, 64, 2, update_mode=WeightUpdate.LORA_R16_QKV)
    assert restage([lora], Stage.DEEPSPEED)[0].knobs()["reduce_bucket_size"] == 500_000_000


def test_nothing_to_order() -> None:
    assert order([]) == [] and order([[]]) == []


def test_a_deadline_leaves_each_setting_a_minute() -> None:
    assert Deadline(None).room_for_another() and Deadline(None).limit(None) is None
    assert Deadline(None).limit(240) == 240
    started = Deadline(MIN_SETTING_S + 30, start=time.monotonic() - 20)
    assert started.room_for_another() and started.limit(240) in (69, 70) and started.limit(10) == 10
    late = Deadline(MIN_SETTING_S + 30, start=time.monotonic() - 40)
    assert not late.room_for_another()
    assert Deadline(10, start=time.monotonic() - 100).limit(None) == 1, "never a limit of zero (no alarm)"


def test_within_abandons_a_hung_call() -> None:
    clock = time.monotonic()
    result = within(1, lambda: time.sleep(5) or "finished", lambda exc: f"abandoned: {exc}")
    assert result == "abandoned: the setting ran past 1 s and was abandoned"
    assert time.monotonic() - clock < 3
    assert within(None, lambda: "finished", lambda exc: "abandoned") == "finished"
    assert within(5, lambda: "finished", lambda exc: "abandoned") == "finished"


def test_within_leaves_no_alarm_behind() -> None:
    import signal

    within(5, lambda: None, lambda exc: None)
    assert signal.alarm(0) == 0


@pytest.mark.parametrize("knobs", [{"precision": "pure-bf16"}, {}])
def test_a_setting_reads_back_from_its_plain_form(knobs: dict[str, object]) -> None:
    setting = Setting("nt-2-5b", Stage.DEEPSPEED, 1000, 16).with_knobs(knobs)  # type: ignore[arg-type]
    assert Setting.from_plain(setting.conditions(), setting.knobs()) == setting


def test_the_op_build_runs_in_the_background_and_keeps_its_output(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from measure.schedule import OpBuild

    class Quick(OpBuild):
        CODE = "print('cpu_adam ready')"

    class Hung(OpBuild):
        CODE = "import time; time.sleep(60)"

    quick = Quick(tmp_path / "quick.log")
    quick.wait(30)
    assert not quick.running and (tmp_path / "quick.log").read_text().strip() == "cpu_adam ready"
    hung = Hung(tmp_path / "hung.log")
    clock = time.monotonic()
    hung.wait(0.5)
    assert hung.running and time.monotonic() - clock < 5, "waiting is bounded"
    hung.stop()
    assert not hung.running


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped by its new parent, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")
def test_stopping_the_op_build_stops_the_compilers_it_started(tmp_path: Path) -> None:
    """DeepSpeed's build runs ninja and the C++ compiler as children of its own: stopping only the Python process
    left them compiling, orphaned, after the run had ended."""
    from measure.schedule import OpBuild

    class Spawner(OpBuild):
        CODE = ("import subprocess, sys, time; child = subprocess.Popen([sys.executable, '-c', "
                "'import time; time.sleep(60)']); print(child.pid, flush=True); time.sleep(60)")

    build = Spawner(tmp_path / "build.log")
    deadline = time.monotonic() + 20
    while not (tmp_path / "build.log").read_text().strip() and time.monotonic() < deadline:
        time.sleep(0.05)
    compiler = int((tmp_path / "build.log").read_text())
    assert _alive(compiler)
    build.stop()
    deadline = time.monotonic() + 10
    while _alive(compiler) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(compiler), "the build's own child process outlived the build"
