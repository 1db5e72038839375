"""When settings run: a deadline for the whole run, a time limit per setting, and DeepSpeed's op built meanwhile.

GPU time comes in short leases, so a run must end by a deadline and lose nothing it finished:
no setting starts with less than ``MIN_SETTING_S`` left, a running one gets at most the time
left (and at most its own limit), and DeepSpeed's CPU Adam, which compiles just in time,
starts compiling in the background while the first settings run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TypeVar

#: No setting starts with less time than this left before the deadline.
MIN_SETTING_S = 60

T = TypeVar("T")


@dataclass
class Deadline:
    """The run's time budget, counted from ``start``; ``seconds`` None means no deadline."""

    seconds: float | None
    start: float = field(default_factory=time.monotonic)

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start

    @property
    def left(self) -> float | None:
        return None if self.seconds is None else self.seconds - self.elapsed

    def room_for_another(self) -> bool:
        """Whether a setting may start: at least ``MIN_SETTING_S`` is left (always, without a deadline)."""
        left = self.left
        return left is None or left >= MIN_SETTING_S

    def limit(self, per_setting: float | None) -> int | None:
        """Whole seconds one setting may take: its own limit, cut to the time left; None for no limit."""
        limits = [value for value in (per_setting, self.left) if value is not None]
        return max(1, int(min(limits))) if limits else None


def within(seconds: int | None, run: Callable[[], T], on_timeout: Callable[[TimeoutError], T]) -> T:
    """``run()``, abandoned after ``seconds`` (a hung set-up): then ``on_timeout`` gives the result instead.

    The limit is a SIGALRM, so it interrupts Python code (and the measurement's own error
    handling turns it into that setting's outcome); it needs the main thread of a Unix process.
    """
    if seconds is None:
        return run()
    try:
        with _alarm(seconds):
            return run()
    except TimeoutError as exc:
        return on_timeout(exc)


@contextmanager
def _alarm(seconds: int) -> Iterator[None]:
    def give_up(signum: int, frame: Any) -> None:
        raise TimeoutError(f"the setting ran past {seconds} s and was abandoned")

    previous = signal.signal(signal.SIGALRM, give_up)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


class OpBuild:
    """DeepSpeed's CPU Adam compiling in a background process (a minute or so), its output in ``log``."""

    CODE = "from deepspeed.ops.op_builder import CPUAdamBuilder; CPUAdamBuilder().load(); print('cpu_adam ready')"
    #: Builds started in this process and not yet stopped, for ``stop_all`` (a run ended by a signal).
    started: ClassVar[list[OpBuild]] = []

    def __init__(self, log: Path) -> None:
        self.log = log
        with log.open("wb") as out:
            # A session of its own, so that stopping it can stop the ninja and C++ compilers it runs too.
            self.process = subprocess.Popen([sys.executable, "-c", self.CODE], stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        OpBuild.started.append(self)

    @classmethod
    def stop_all(cls) -> None:
        """Stop every build still running: a run that ends at once must not leave a compiler behind."""
        for build in list(cls.started):
            build.stop()

    @classmethod
    def start(cls, log: Path) -> OpBuild | None:
        """Start the build, or None where DeepSpeed is not installed."""
        import importlib.util

        return cls(log) if importlib.util.find_spec("deepspeed") is not None else None

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def wait(self, seconds: float) -> None:
        """Wait at most ``seconds`` for the build to end (a setting that needs it then builds or fails on its own)."""
        try:
            self.process.wait(timeout=max(seconds, 1))
        except subprocess.TimeoutExpired:
            pass

    def stop(self) -> None:
        """End the build and every process it started (a compiler left running would outlive the run)."""
        if self.running:
            self._signal_all(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._signal_all(signal.SIGKILL)
                self.process.wait()
        if self in OpBuild.started:
            OpBuild.started.remove(self)

    def _signal_all(self, number: int) -> None:
        """Send ``number`` to the build's process group: the build, ninja and the compilers under it."""
        try:
            os.killpg(self.process.pid, number)
        except ProcessLookupError:  # it ended meanwhile
            pass
