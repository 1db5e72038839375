"""What we re-ran ourselves: recipes and reproductions.

A recipe says how to re-run the experiment behind a result: the conditions the
source states, and the knobs it leaves unstated with the values worth trying. A
reproduction is one run of one setting of a recipe, measured on named hardware or
estimated on a CPU. It sits beside the transcribed result and never replaces it.
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import Literal

from pydantic import Field, NonNegativeInt, model_validator

from registry.models.base import Record, Slug, Strict, Text, Timestamp, ref

KnobValue = str | int | bool


class FixedConditions(Strict):
    """The conditions of the experiment that the source states."""

    model: Slug = Field(description="Model configuration name known to measure/ (for example 'nt-2.5b').")
    stage: Slug = Field(description="Ablation stage, cumulative (baseline, flash-attention, checkpointing, deepspeed).")
    sequence_length: int = Field(ge=1, description="Sequence length as the source states it.")
    batch_size: int = Field(ge=1, description="Batch size as the source states it.")
    data_seed: int = Field(description="Seed of the synthetic data generator.")
    metric: Slug = Field(description="The metric measured (for example 'peak-memory').")


class Knob(Strict):
    """A condition the source leaves unstated, with the values a reproduction sweeps."""

    name: Slug = Field(description="Knob name as measure/ knows it (for example 'update_mode').")
    candidates: list[KnobValue] = Field(min_length=1, description="Values to try, most plausible first.")
    note: Text | None = Field(None, description="What the source says or leaves open about this knob.")


class Recipe(Record):
    """How to re-run the experiment behind a result."""

    kind_token = "recipe"
    kind: Literal["recipe"]
    result: str = ref("result", description="The result this recipe reproduces.")
    experiment: Slug = Field(description="The measure/ experiment that runs it (for example 'nt-training-memory').")
    fixed: FixedConditions = Field(description="The conditions the source states.")
    knobs: list[Knob] = Field(default_factory=list, description="Conditions the source leaves unstated.")
    verified: bool = Field(
        False, description="Whether a run of this recipe has been shown to match the source's setup exactly."
    )

    @model_validator(mode="after")
    def _knob_names_unique(self) -> Recipe:
        names = [knob.name for knob in self.knobs]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"knob names must be unique; repeated: {', '.join(duplicates)}")
        return self


class ReproductionMethod(StrEnum):
    MEASURED = "measured"
    """Run on real hardware and read off it."""
    ESTIMATED = "estimated"
    """Predicted without the hardware (for example traced under fake tensors on a CPU)."""


class Outcome(StrEnum):
    OK = "ok"
    OUT_OF_MEMORY = "out-of-memory"
    ERROR = "error"


class RunHardware(Strict):
    """The hardware a reproduction ran on, named as it was."""

    kind: Literal["gpu", "cpu-estimate"] = Field(description="A GPU measurement, or an estimate made on a CPU.")
    name: Text = Field(description="Device name as the driver reports it (for example 'NVIDIA H200'), or the CPU.")
    memory_bytes: NonNegativeInt | None = Field(None, description="Total device memory, in bytes.")
    count: int = Field(1, ge=1, description="Number of devices used.")


class Comparison(Strict):
    """The reproduced value beside the transcribed one, in the result's unit."""

    transcribed: Decimal = Field(description="The result's numeric value, copied when the run was filed.")
    reproduced: Decimal = Field(description="This run's value in the result's unit.")
    difference: Decimal = Field(description="reproduced - transcribed.")
    ratio: Decimal = Field(description="reproduced / transcribed.")


class Reproduction(Record):
    """One run of one setting of a recipe: a value we measured or estimated ourselves."""

    kind_token = "reproduction"
    kind: Literal["reproduction"]
    result: str = ref("result", description="The transcribed result this run reproduces.")
    recipe: str = ref("recipe", description="The recipe that was run.")
    method: ReproductionMethod = Field(description="Measured on hardware, or estimated.")
    setting: dict[str, KnobValue] = Field(description="The value of every knob in this run.")
    outcome: Outcome = Field(description="Whether the run produced a value.")
    error: Text | None = Field(None, description="What went wrong, where the outcome is not 'ok'.")
    value_bytes: NonNegativeInt | None = Field(None, description="The peak, in bytes (allocated memory).")
    value: Decimal | None = Field(None, description="The peak in the result's unit (GB = 10^9 bytes).")
    value_gib: Decimal | None = Field(None, description="The peak in GiB (2^30 bytes), since 'GB' is ambiguous.")
    reserved_bytes: NonNegativeInt | None = Field(None, description="Peak reserved by the allocator, in bytes.")
    breakdown_bytes: dict[str, NonNegativeInt] = Field(
        default_factory=dict, description="Peak split by category (parameters, gradients, optimizer, ...)."
    )
    comparison: Comparison | None = Field(None, description="Beside the transcribed value.")
    hardware: RunHardware = Field(description="Where it ran.")
    software: dict[str, str | None] = Field(description="Versions of python, torch, CUDA and the other libraries.")
    git_commit: str | None = Field(None, pattern=r"^[0-9a-f]{7,40}(\+dirty)?$", description="The project's commit.")
    command: Text = Field(description="The command line that produced this record.")
    started_at: Timestamp = Field(description="When the run started.")
    duration_s: float = Field(ge=0, description="Wall time of the run, in seconds.")

    @model_validator(mode="after")
    def _outcome_matches_value(self) -> Reproduction:
        if self.outcome is Outcome.OK and self.value_bytes is None:
            raise ValueError("a reproduction with outcome 'ok' needs value_bytes")
        if self.outcome is not Outcome.OK and self.error is None:
            raise ValueError(f"a reproduction with outcome {self.outcome.value!r} needs an error message")
        return self
