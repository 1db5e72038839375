"""What one run of one setting produced, before it becomes a registry record."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum

from measure.settings import Setting


class Method(StrEnum):
    MEASURED = "measured"
    """Peak read off a CUDA GPU."""
    ESTIMATED = "estimated"
    """Peak predicted by tracing the step under fake tensors on a CPU."""
    DRY_RUN = "dry-run"
    """The real step ran on a CPU, where no memory statistics exist: nothing was measured."""


class Status(StrEnum):
    OK = "ok"
    OUT_OF_MEMORY = "out-of-memory"
    ERROR = "error"


@dataclass(frozen=True)
class Hardware:
    kind: str
    """'gpu', 'cpu-estimate', or 'cpu' (a dry run)."""
    name: str
    memory_bytes: int | None = None
    count: int = 1


@dataclass
class RunOutcome:
    """One setting's run: the peak and its parts, or what went wrong."""

    setting: Setting
    method: Method
    hardware: Hardware
    started_at: dt.datetime
    status: Status = Status.OK
    peak_bytes: int | None = None
    reserved_bytes: int | None = None
    warmup_peak_bytes: int | None = None
    breakdown_bytes: dict[str, int] = field(default_factory=dict)
    attention_impl: str | None = None
    parameters: int | None = None
    trainable_parameters: int | None = None
    steps: int = 0
    warmup_steps: int = 0
    losses: list[float] = field(default_factory=list)
    error: str | None = None
    method_note: str | None = None
    duration_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status is Status.OK and self.peak_bytes is not None


def short_error(exc: BaseException, limit: int = 600) -> str:
    """An exception as one readable line: its type and the start of its message."""
    text = " ".join(str(exc).split()) or "(no message)"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{type(exc).__name__}: {text}"
