"""What one run of one setting produced: how it was obtained, where, and what came of it.

These are measure/'s own run types, declared once. The registry's reproduction record uses
the same ``Method``, ``Status``, ``Hardware`` and ``AttentionImpl`` (this module imports no torch), and its
adapter (``registry.reproduce.adapter.build_record``) copies every field the two share by name.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, fields
from enum import Enum, StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt

from measure.settings import Setting


class HardwareKind(StrEnum):
    GPU = "gpu"
    """A CUDA (or ROCm) GPU, whose allocator the peak is read off."""
    CPU_ESTIMATE = "cpu-estimate"
    """The CPU estimator: no device ran the step, a tracer predicted it."""
    CPU = "cpu"
    """A dry run's CPU: the real steps ran, but a CPU has no allocator statistics, so nothing is measured."""


class Method(StrEnum):
    """How a run obtains its value. A dry run is not a method: it is a measurement run where none can be read."""

    MEASURED = "measured"
    """Run on real hardware and read off it."""
    ESTIMATED = "estimated"
    """Predicted without the hardware (for example traced under fake tensors on a CPU)."""

    @property
    def hardware_kind(self) -> HardwareKind:
        """The hardware a run of this method that gives a value names."""
        return HardwareKind.GPU if self is Method.MEASURED else HardwareKind.CPU_ESTIMATE


class Status(StrEnum):
    """Whether a run produced a value."""

    OK = "ok"
    OUT_OF_MEMORY = "out-of-memory"
    ERROR = "error"


class AttentionImpl(StrEnum):
    """The attention kernel that ran."""

    EAGER = "eager"
    """transformers' eager attention (matmul, softmax, matmul)."""
    FLASH_ATTN = "flash-attn"
    """The flash-attn package, through attn_implementation='flash_attention_2'."""
    SDPA_FLASH = "sdpa-flash"
    """PyTorch scaled_dot_product_attention restricted to its CUDA flash kernel."""
    SDPA_FLASH_CPU = "sdpa-flash-cpu"
    """PyTorch scaled_dot_product_attention restricted to its CPU flash kernel (what an estimate traces)."""


class Hardware(BaseModel):
    """The hardware a run ran on, named as it was."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: HardwareKind = Field(
        description="A GPU measurement ('gpu'), an estimate made on a CPU ('cpu-estimate'), or the CPU of a dry run "
        "('cpu', which measures nothing and is never filed)."
    )
    name: str = Field(
        min_length=1,
        description="Device name as the driver reports it (for example 'NVIDIA H200'); for an estimate, how it was "
        "made (for example 'CPU estimate (FakeTensorMode + MemTracker)'), never a GPU's name.",
    )
    memory_bytes: NonNegativeInt | None = Field(default=None, description="Total device memory, in bytes.")
    count: int = Field(default=1, ge=1, description="Number of devices used.")


@dataclass
class RunOutcome:
    """One setting's run: the peak and its parts, or what went wrong.

    A field that means the same as one of the reproduction record's carries its name, so that
    the registry's adapter copies it without restating it.
    """

    setting: Setting
    method: Method
    hardware: Hardware
    started_at: dt.datetime
    dry_run: bool = False
    """The measurement's steps ran on a CPU (no allocator statistics): nothing was measured."""
    status: Status = Status.OK
    peak_bytes: int | None = None
    reserved_bytes: int | None = None
    warmup_peak_bytes: int | None = None
    breakdown_bytes: dict[str, int] = field(default_factory=dict)
    attention_impl: AttentionImpl | None = None
    parameters: int | None = None
    trainable_parameters: int | None = None
    steps: int = 0
    warmup_steps: int = 0
    losses: list[float] = field(default_factory=list)
    error: str | None = None
    method_note: str | None = None
    duration_s: float = 0.0

    @property
    def finished(self) -> bool:
        """The run went through (a dry run included), whether or not it could read a value."""
        return self.status is Status.OK

    @property
    def ok(self) -> bool:
        """The run gave a value."""
        return self.finished and self.peak_bytes is not None

    def log_entry(self) -> dict[str, Any]:
        """Everything the run saw, as one JSON-ready mapping: the setting, then every field of the outcome."""
        entry: dict[str, Any] = dict(self.setting.conditions())
        entry["tokens_per_sequence"] = self.setting.tokens_per_sequence
        entry["setting"] = self.setting.knobs()
        entry.update({f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name != "setting"})
        entry["peak_gb"] = None if self.peak_bytes is None else self.peak_bytes / 1e9
        entry["peak_gib"] = None if self.peak_bytes is None else self.peak_bytes / 2**30
        return entry


def short_error(exc: BaseException, limit: int = 600) -> str:
    """An exception as one readable line: its type and the start of its message."""
    text = " ".join(str(exc).split()) or "(no message)"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{type(exc).__name__}: {text}"


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, dt.datetime):
        return value.isoformat()
    return value
