"""What we re-ran ourselves: recipes and reproductions.

A recipe says how to re-run the experiment behind a result: the conditions the
source states, and the knobs it leaves unstated with the values worth trying. A
reproduction is one run of one setting of a recipe, measured on named hardware or
estimated on a CPU. It sits beside the transcribed result and never replaces it.

How a run was obtained, what came of it, where it ran, the attention kernel and the knob
values are measure/'s own run types (``measure.outcome``, ``measure.settings``, both free of
torch), used here as they are rather than copied.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Annotated, Literal

from pydantic import Field, NonNegativeInt, model_validator

from measure.outcome import AttentionImpl, Hardware, Method, Status
from measure.settings import KnobValue
from registry.models.base import Record, Slug, Sql, Strict, Text, Timestamp, ref
from registry.units import DECIMAL_PLACES, gib

#: The record's hardware is measure's ``Hardware``; the old name stays for importers.
RunHardware = Hardware


class FixedConditions(Strict):
    """The conditions of the experiment that the source states."""

    model: Slug = Field(description="Model configuration name known to measure/ (for example 'nt-2-5b').")
    stage: Slug = Field(description="Ablation stage, cumulative (baseline, flash-attention, checkpointing, deepspeed).")
    sequence_length: int = Field(ge=1, description="Sequence length as the source states it.")
    batch_size: int = Field(ge=1, description="Batch size as the source states it.")
    data_seed: int = Field(description="Seed of the synthetic data generator.")
    metric: Slug = Field(description="The metric measured (for example 'peak-memory').")


class Knob(Strict):
    """A condition the source leaves unstated, with the values a reproduction sweeps."""

    name: Slug = Field(description="Knob name as measure/ knows it (for example 'update_mode').")
    candidates: Annotated[list[KnobValue], Sql(singular="candidate", value="value")] = Field(
        min_length=1, description="Values to try, most plausible first."
    )
    note: Text | None = Field(None, description="What the source says or leaves open about this knob.")


class Recipe(Record):
    """How to re-run the experiment behind a result."""

    kind: Literal["recipe"]
    result: str = ref("result", description="The result this recipe reproduces.")
    experiment: Slug = Field(description="The measure/ experiment that runs it (for example 'nt-training-memory').")
    dataset: str | None = ref("dataset", default=None, description="The dataset record the stated data comes from.")
    fixed: FixedConditions = Field(description="The conditions the source states.")
    knobs: Annotated[list[Knob], Sql(singular="knob")] = Field(
        default_factory=list, description="Conditions the source leaves unstated."
    )
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


def ratio(reproduced: Decimal, transcribed: Decimal) -> Decimal:
    """reproduced / transcribed, rounded to ``DECIMAL_PLACES``; ValueError where that needs more than 28 digits."""
    try:
        return (reproduced / transcribed).quantize(Decimal(1).scaleb(-DECIMAL_PLACES))
    except InvalidOperation:
        raise ValueError(f"the ratio {reproduced:.3e} / {transcribed:.3e} is larger than the registry computes with "
                         "exactly (28 digits)") from None


class Comparison(Strict):
    """The reproduced value beside the transcribed one, in the result's unit."""

    transcribed: Decimal = Field(description="The result's numeric value, copied when the run was filed.")
    reproduced: Decimal = Field(description="This run's value in the result's unit.")
    difference: Decimal = Field(description="reproduced - transcribed, exactly.")
    ratio: Decimal = Field(description="reproduced / transcribed, rounded to 6 decimal places.")

    @model_validator(mode="after")
    def _arithmetic(self) -> Comparison:
        if self.difference != self.reproduced - self.transcribed:
            raise ValueError(f"difference must be reproduced - transcribed = {self.reproduced - self.transcribed}")
        if self.transcribed != 0 and self.ratio != ratio(self.reproduced, self.transcribed):
            raise ValueError(f"ratio must be reproduced / transcribed = {ratio(self.reproduced, self.transcribed)}")
        return self


class Reproduction(Record):
    """One run of one setting of a recipe: a value we measured or estimated ourselves."""

    kind: Literal["reproduction"]
    result: str = ref("result", description="The transcribed result this run reproduces.")
    recipe: str = ref("recipe", description="The recipe that was run.")
    method: Method = Field(description="Measured on hardware, or estimated.")
    model: Slug = Field(description="The measure/ model configuration that ran; the recipe's, or the check fails.")
    setting: Annotated[dict[str, KnobValue], Sql(key="knob", value="value")] = Field(
        description="The value of every recipe knob that applies to this run (knobs that do not apply are left out)."
    )
    outcome: Status = Field(description="Whether the run produced a value.")
    error: Text | None = Field(None, description="What went wrong, where the outcome is not 'ok'.")
    value_bytes: NonNegativeInt | None = Field(None, description="The peak, in bytes (allocated memory).")
    value: Decimal | None = Field(None, description="The peak in the result's unit (GB = 10^9 bytes).")
    value_gib: Decimal | None = Field(
        None, description="The peak in GiB (2^30 bytes), rounded to 6 decimal places, since 'GB' is ambiguous."
    )
    reserved_bytes: NonNegativeInt | None = Field(None, description="Peak reserved by the allocator, in bytes.")
    warmup_peak_bytes: NonNegativeInt | None = Field(
        None, description="Peak allocated during the warm-up step(s), in bytes (measured runs only)."
    )
    breakdown_bytes: Annotated[
        dict[str, NonNegativeInt], Sql(singular="breakdown", key="category", value="bytes")
    ] = Field(
        default_factory=dict,
        description="For an estimate, the peak split by category (parameters, gradients, optimizer_state, "
        "activations, temporaries, ...); for a measurement, allocator snapshots (allocated_after_build, "
        "allocated_between_steps).",
    )
    comparison: Comparison | None = Field(None, description="Beside the transcribed value.")
    attention_impl: AttentionImpl | None = Field(
        None,
        description="The attention that ran: 'eager'; 'flash-attn' (the flash-attn package); 'sdpa-flash' "
        "(PyTorch SDPA restricted to its CUDA flash kernel); 'sdpa-flash-cpu' (its CPU flash kernel, in an estimate).",
    )
    tokens_per_sequence: int | None = Field(None, ge=1, description="Tokens fed per sequence, CLS included.")
    parameters: NonNegativeInt | None = Field(None, description="Parameters of the model that ran.")
    trainable_parameters: NonNegativeInt | None = Field(None, description="Of those, the ones trained.")
    steps: NonNegativeInt | None = Field(
        None, description="Training steps the peak was taken over (an estimate traces one steady-state step)."
    )
    warmup_steps: NonNegativeInt | None = Field(None, description="Steps run before the peak statistics were reset.")
    method_note: Text | None = Field(
        None, description="How the value was obtained and what it leaves out (for an estimate, how it models what "
        "it cannot trace, such as DeepSpeed's CPU offload)."
    )
    hardware: Hardware = Field(description="Where it ran.")
    software: Annotated[dict[str, str | None], Sql(key="name", value="version")] = Field(
        description="Versions of python, torch, CUDA and the other libraries."
    )
    git_commit: str | None = Field(None, pattern=r"^[0-9a-f]{7,40}(\+dirty)?$", description="The project's commit.")
    command: Text = Field(description="The command line that produced this record.")
    started_at: Timestamp = Field(description="When the run started.")
    duration_s: float = Field(ge=0, description="Wall time of the run, in seconds.")

    @model_validator(mode="after")
    def _consistent(self) -> Reproduction:
        if self.outcome is Status.OK and (self.value_bytes is None or self.value is None):
            raise ValueError("a reproduction with outcome 'ok' needs value_bytes and value")
        if self.outcome is not Status.OK and self.error is None:
            raise ValueError(f"a reproduction with outcome {self.outcome.value!r} needs an error message")
        if self.outcome is not Status.OK and self.value_bytes is not None:
            raise ValueError(f"a reproduction with outcome {self.outcome.value!r} has no value; drop value_bytes")
        if self.value_bytes is None and (self.value is not None or self.value_gib is not None):
            raise ValueError("value and value_gib are derived from value_bytes, which is missing")
        if self.value_bytes is not None and self.value_gib is not None and self.value_gib != gib(self.value_bytes):
            raise ValueError(f"value_gib must be value_bytes / 2^30 = {gib(self.value_bytes)}")
        if self.comparison is not None and self.value is None:
            raise ValueError("a comparison needs a value")
        expected = self.method.hardware_kind
        if self.hardware.kind is not expected:
            article = "an" if self.method is Method.ESTIMATED else "a"
            raise ValueError(f"{article} {self.method.value} reproduction runs on hardware of kind "
                             f"{expected.value!r}, not {self.hardware.kind.value!r}")
        return self
