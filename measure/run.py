"""One setting, measured or estimated, within a time limit: the one entry point a driver calls.

A failure of the setting itself (out of memory, a crash, DeepSpeed's ops failing to build,
the time limit) comes back as that setting's outcome with its error, never as an exception;
only a missing library or a missing GPU raises (``MeasureError``), since no setting can run then.
"""

from __future__ import annotations

import datetime as dt

from measure.outcome import Hardware, Method, RunOutcome, Status
from measure.schedule import within
from measure.settings import Setting


def run(setting: Setting, method: Method, *, device: str = "cuda", steps: int = 2,
        timeout: int | None = None) -> RunOutcome:
    """Measure ``setting`` on ``device`` (a CPU device makes it a dry run) or estimate it on the CPU."""
    started = dt.datetime.now(dt.UTC)

    def attempt() -> RunOutcome:
        if method is Method.ESTIMATED:
            from measure.estimate import estimate

            return estimate(setting)
        from measure.gpu import measure

        return measure(setting, device=device, steps=steps)

    def abandoned(exc: TimeoutError) -> RunOutcome:
        return RunOutcome(setting=setting, method=method, hardware=_hardware(method, device), started_at=started,
                          dry_run=method is Method.MEASURED and not device.startswith("cuda"), status=Status.ERROR,
                          error=f"TimeoutError: {exc}", duration_s=float(timeout or 0))

    return within(timeout, attempt, abandoned)


def _hardware(method: Method, device: str) -> Hardware:
    from measure.env import cpu_hardware, estimate_hardware, gpu_hardware

    if method is Method.ESTIMATED:
        return estimate_hardware()
    return gpu_hardware() if device.startswith("cuda") else cpu_hardware()
