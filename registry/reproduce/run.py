"""Running a reproduction: each job of a plan in turn, within an optional deadline, each outcome filed at once.

A result's recipe holds the conditions the source states and the knobs it leaves open;
``registry.reproduce.plan`` turns them into settings (most plausible first), for one result or the
whole ablation. ``reproduce`` here runs the jobs one after another through ``measure.run`` (measured
on a GPU, a dry run on a CPU, or estimated), and ``registry.reproduce.adapter`` files each outcome as a
reproduction beside the transcribed value, which is never touched. The heavy libraries load only
inside the run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from measure.outcome import Method
from registry.reproduce.adapter import file_outcome
from registry.reproduce.types import Filed, Hooks, ReproductionPlan, Run, RunEnvironment, measure_errors

if TYPE_CHECKING:
    from measure.schedule import Deadline, OpBuild
    from registry.reproduce.runlog import RunLog


#: Measured training steps after the warm-up step, unless told otherwise (an estimate traces one step).
MEASURED_STEPS = 2


def reproduce(the_plan: ReproductionPlan, env: RunEnvironment, *, write_root: Path | None, steps: int = MEASURED_STEPS,
              device: str = "cuda", deadline: Deadline | None = None, setting_timeout: int | None = None,
              log: RunLog | None = None, hooks: Hooks | None = None) -> Run:
    """Run every job in order; file each outcome at once (record, log line, tarball) and stop by the deadline.

    No job starts with less than ``measure.schedule.MIN_SETTING_S`` left before the deadline, and a
    running one gets at most the time left (and at most ``setting_timeout``). A GPU measurement with
    a DeepSpeed stage starts building DeepSpeed's CPU Adam in the background at once.
    """
    from measure.run import run
    from measure.schedule import Deadline

    deadline = deadline or Deadline(None)
    hooks = hooks or Hooks()
    build = _start_op_build(the_plan, device, log)
    filed: list[Filed] = []
    not_started = 0
    try:
        for index, job in enumerate(the_plan.jobs):
            if build is not None and build.running and job.setting.stage.deepspeed and deadline.room_for_another():
                hooks.note("waiting for DeepSpeed's CPU Adam to finish compiling ...")
                build.wait(_wait_budget(deadline))
            if not deadline.room_for_another():
                not_started = len(the_plan.jobs) - index
                break
            hooks.start(index, job)
            with measure_errors():
                outcome = run(job.setting, the_plan.method, device=device, steps=steps,
                              timeout=deadline.limit(setting_timeout))
            with _signals_held():  # filed whole: the record, its log line and the caller's list of what was kept
                entry = file_outcome(job, outcome, env, write_root)
                if log is not None:
                    log.add(entry)
                filed.append(entry)
                hooks.done(index, entry)
    finally:
        if build is not None:
            build.stop()
    return Run(filed=filed, not_started=not_started, elapsed_s=deadline.elapsed, left_s=deadline.left)


@contextmanager
def _signals_held() -> Iterator[None]:
    """A signal handler made by ``deferred`` waits until the block ends, so that a run it stops has filed each
    finished setting whole: its record written, its log line, and the caller's list of what it kept.

    (Masking the signals would not do: a signal sent to the process goes to any thread that does not mask
    it, such as a progress bar's, and Python runs its handler in the main thread all the same.)
    """
    _Held.depth += 1
    try:
        yield
    finally:
        _Held.depth -= 1
        if not _Held.depth and _Held.pending:
            signum, handler = _Held.pending[0]
            _Held.pending.clear()
            handler(signum, None)


class _Held:
    """How deep the main thread is in ``_signals_held``, and the signals that arrived meanwhile."""

    depth = 0
    pending: list[tuple[int, Callable[[int, Any], None]]] = []


def deferred(handler: Callable[[int, Any], None]) -> Callable[[int, Any], None]:
    """A signal handler that, while a setting is being filed (``_signals_held``), acts only once it is filed."""
    def handle(signum: int, frame: Any) -> None:
        if _Held.depth:
            _Held.pending.append((signum, handler))
            return
        handler(signum, frame)

    return handle


def _start_op_build(the_plan: ReproductionPlan, device: str, log: RunLog | None) -> OpBuild | None:
    """DeepSpeed's CPU Adam compiling in the background, for a GPU measurement that has a DeepSpeed stage."""
    if the_plan.method is not Method.MEASURED or not device.startswith("cuda"):
        return None
    if not any(job.setting.stage.deepspeed for job in the_plan.jobs):
        return None
    import tempfile

    from measure.schedule import OpBuild
    from registry.reproduce.runlog import OP_BUILD_LOG

    folder = log.folder if log is not None else Path(tempfile.mkdtemp(prefix="registry-ops-"))
    return OpBuild.start(folder / OP_BUILD_LOG)


def _wait_budget(deadline: Deadline) -> float:
    from measure.schedule import MIN_SETTING_S

    left = deadline.left
    return 600.0 if left is None else left - MIN_SETTING_S
