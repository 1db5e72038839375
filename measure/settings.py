"""What one run is: the stated conditions, the paper's cumulative stage, and a value for every unstated knob.

A recipe record names the knobs and their candidate values; ``sweep`` turns them into
settings, most plausible first (candidates are listed most plausible first, so settings
are ordered by the sum of their candidates' ranks). A knob that does not apply to a
setting (bucket sizes outside DeepSpeed, the AdamW implementation where our own or
DeepSpeed's optimizer runs) is dropped from it, so a sweep never runs the same thing twice.
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from measure.data import LengthUnit, tokens_for
from measure.errors import InvalidValueError, UnknownNameError

KnobValue = str | int | bool
"""A knob's value as records and the command line write it: a string, a whole number or a boolean."""

#: A smoke run keeps every stage and knob but runs the tiny model on a small batch, so a CPU gets through in seconds.
SMOKE_MODEL = "nt-tiny"
SMOKE_BATCH_SIZE = 2
SMOKE_SEQUENCE_LENGTH = 64


class Stage(StrEnum):
    """The paper's progressive ablation (its Figure 3); each stage keeps the previous ones."""

    BASELINE = "baseline"
    """Eager attention, no checkpointing, plain optimizer."""
    FLASH_ATTENTION = "flash-attention"
    """+ FlashAttention."""
    CHECKPOINTING = "checkpointing"
    """+ layer-wise activation checkpointing."""
    DEEPSPEED = "deepspeed"
    """+ DeepSpeed ZeRO Stage-2 with optimizer states and gradients offloaded to the CPU."""

    @property
    def flash(self) -> bool:
        return self is not Stage.BASELINE

    @property
    def checkpointing(self) -> bool:
        return self in (Stage.CHECKPOINTING, Stage.DEEPSPEED)

    @property
    def deepspeed(self) -> bool:
        return self is Stage.DEEPSPEED

    @property
    def label(self) -> str:
        return {"baseline": "baseline", "flash-attention": "+ FlashAttention", "checkpointing": "+ Checkpointing",
                "deepspeed": "+ DeepSpeed"}[self.value]


class WeightUpdate(StrEnum):
    """The weight update a run makes: a knob value, more specific than the update mode a source states.

    (The registry's ``UpdateMode`` is what an evaluation transcribes, 'full' or 'lora'; this says
    which LoRA ran.)
    """

    FULL = "full"
    """Every parameter is trained."""
    LORA_R16_QKV = "lora-r16-qkv"
    """LoRA rank 16 (alpha 32) on query, key and value through peft; the paper's fine-tuning default."""


class Precision(StrEnum):
    BF16_WEIGHTS_FP32_ADAM = "bf16-weights-fp32-adam"
    """bf16 weights and gradients, AdamW moments kept in fp32 (DeepSpeed: its bf16 mode, fp32 master on the CPU)."""
    FP32_AUTOCAST_BF16 = "fp32-autocast-bf16"
    """fp32 weights, gradients and AdamW moments; the forward pass under bf16 autocast."""
    PURE_BF16 = "pure-bf16"
    """bf16 weights, gradients and AdamW moments."""


class AdamWImpl(StrEnum):
    FOREACH = "foreach"
    """torch.optim.AdamW's multi-tensor implementation (PyTorch's default on CUDA)."""
    FUSED = "fused"
    """torch.optim.AdamW's fused kernel."""


DEEPSPEED_DEFAULT_BUCKET = 500_000_000


@dataclass(frozen=True)
class Setting:
    """Everything one run needs: the stated conditions and every applicable knob."""

    model: str
    stage: Stage
    sequence_length: int
    batch_size: int
    data_seed: int = 42
    update_mode: WeightUpdate = WeightUpdate.FULL
    precision: Precision = Precision.BF16_WEIGHTS_FP32_ADAM
    length_unit: LengthUnit = LengthUnit.TOKENS
    adamw_impl: AdamWImpl | None = AdamWImpl.FOREACH
    reduce_bucket_size: int | None = DEEPSPEED_DEFAULT_BUCKET
    allgather_bucket_size: int | None = DEEPSPEED_DEFAULT_BUCKET
    overlap_comm: bool | None = False

    def __post_init__(self) -> None:
        for name, spec in KNOBS.items():
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, spec.parse(value))
        object.__setattr__(self, "stage", Stage(self.stage))

    @property
    def tokens_per_sequence(self) -> int:
        return tokens_for(self.sequence_length, self.length_unit)

    @classmethod
    def from_plain(cls, conditions: Mapping[str, Any], knobs: Mapping[str, KnobValue]) -> Setting:
        """The setting that ``conditions()`` and ``knobs()`` wrote (in a log line, or a record and its recipe)."""
        return cls(**{f.name: conditions[f.name] for f in fields(cls) if f.name not in KNOBS}).with_knobs(knobs)

    def normalized(self) -> Setting:
        """This setting with the knobs that do not apply to it set to None."""
        changes: dict[str, Any] = {name: None for name, spec in KNOBS.items() if not spec.applies(self)}
        changes.update({name: KNOBS[name].default for name in KNOBS
                        if name not in changes and getattr(self, name) is None})
        return replace(self, **changes)

    def knobs(self) -> dict[str, KnobValue]:
        """The value of every applicable knob, as plain strings, integers and booleans."""
        normal = self.normalized()
        return {name: _plain(getattr(normal, name)) for name in KNOBS if getattr(normal, name) is not None}

    def with_knobs(self, values: Mapping[str, KnobValue]) -> Setting:
        """A copy with knob values replaced (names checked against ``KNOBS``)."""
        for name in values:
            knob_spec(name)
        changes: dict[str, Any] = dict(values)
        return replace(self, **changes).normalized()

    def smoke(self) -> Setting:
        """This setting on the tiny model and a small batch (``SMOKE_*``), every stage and knob kept."""
        return replace(self, model=SMOKE_MODEL, batch_size=SMOKE_BATCH_SIZE, sequence_length=SMOKE_SEQUENCE_LENGTH)

    def conditions(self) -> dict[str, str | int]:
        """The stated conditions (everything but the knobs), as plain values."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name not in KNOBS}  # type: ignore[misc]

    def label(self) -> str:
        """A short, readable summary of the knobs, for progress lines and tables."""
        return ", ".join(f"{name}={str(value).lower() if isinstance(value, bool) else value}"
                         for name, value in self.knobs().items())

    def id_token(self) -> str:
        """The knobs in a few characters, for record ids ('full-bf16w-fp32adam-tok')."""
        parts = [_ID_TOKENS.get(str(value), str(value)) for name, value in self.knobs().items()
                 if name not in ("reduce_bucket_size", "allgather_bucket_size", "overlap_comm")]
        normal = self.normalized()
        if normal.reduce_bucket_size is not None:
            parts.append(f"rb{_short_number(normal.reduce_bucket_size)}")
        if normal.allgather_bucket_size is not None:
            parts.append(f"ag{_short_number(normal.allgather_bucket_size)}")
        if normal.overlap_comm:
            parts.append("overlap")
        return "-".join(parts)


@dataclass(frozen=True)
class KnobSpec:
    """One unstated knob: how its values are read, its default, and when it applies."""

    name: str
    parse: Callable[[Any], Any]
    default: Any
    applies: Callable[[Setting], bool]
    description: str


def _enum(kind: type[StrEnum]) -> Callable[[Any], Any]:
    def parse(value: Any) -> Any:
        try:
            return kind(value)
        except ValueError:
            choices = [member.value for member in kind]
            close = difflib.get_close_matches(str(value).replace("_", "-"), choices, n=1, cutoff=0.6)
            raise InvalidValueError(value, f"one of {', '.join(choices)}", suggestion=close[0] if close else None
                                    ) from None

    return parse


def _positive_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidValueError(value, "a positive whole number")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidValueError(value, "true or false")
    return value


def _is_deepspeed(setting: Setting) -> bool:
    return setting.stage.deepspeed


KNOBS: dict[str, KnobSpec] = {
    spec.name: spec
    for spec in (
        KnobSpec("update_mode", _enum(WeightUpdate), WeightUpdate.FULL, lambda s: True,
                 "full update, or LoRA rank 16 on query, key and value"),
        KnobSpec("precision", _enum(Precision), Precision.BF16_WEIGHTS_FP32_ADAM, lambda s: True,
                 "weight, gradient and optimizer-state precision"),
        KnobSpec("adamw_impl", _enum(AdamWImpl), AdamWImpl.FOREACH,
                 lambda s: not s.stage.deepspeed and s.precision is not Precision.BF16_WEIGHTS_FP32_ADAM,
                 "torch.optim.AdamW implementation (not used by our fp32-moment AdamW or by DeepSpeed)"),
        KnobSpec("length_unit", _enum(LengthUnit), LengthUnit.TOKENS, lambda s: True,
                 "what the stated sequence length counts"),
        KnobSpec("reduce_bucket_size", _positive_int, DEEPSPEED_DEFAULT_BUCKET, _is_deepspeed,
                 "DeepSpeed ZeRO reduce bucket, in elements"),
        KnobSpec("allgather_bucket_size", _positive_int, DEEPSPEED_DEFAULT_BUCKET, _is_deepspeed,
                 "DeepSpeed ZeRO all-gather bucket, in elements"),
        KnobSpec("overlap_comm", _bool, False, _is_deepspeed,
                 "DeepSpeed overlap_comm (two reduce buckets instead of one)"),
    )
}


def knob_spec(name: str) -> KnobSpec:
    try:
        return KNOBS[name]
    except KeyError:
        raise UnknownNameError("knob", name, list(KNOBS)) from None


def parse_knob(name: str, value: KnobValue) -> Any:
    """``value`` read as knob ``name``, or InvalidValueError saying what was expected."""
    spec = knob_spec(name)
    try:
        return spec.parse(value)
    except InvalidValueError as exc:
        raise InvalidValueError(exc.found, exc.expected or "", subject=f"knob {name!r}", suggestion=exc.suggestion,
                                hint=f"{name} is the {spec.description}") from None


def parse_assignment(text: str) -> tuple[str, KnobValue]:
    """'precision=pure-bf16' -> ('precision', 'pure-bf16'); numbers and true/false are typed."""
    name, sep, raw = text.partition("=")
    if not sep or not name.strip() or not raw.strip():
        raise InvalidValueError(text, "a knob setting", hint="write it as NAME=VALUE, for example precision=pure-bf16")
    name, raw = name.strip(), raw.strip()
    value: KnobValue
    if raw.lower() in ("true", "false"):
        value = raw.lower() == "true"
    elif raw.replace("_", "").isdigit():
        value = int(raw.replace("_", ""))
    else:
        value = raw
    parse_knob(name, value)
    return name, value


def sweep(base: Setting, knobs: Sequence[tuple[str, Sequence[KnobValue]]]) -> list[Setting]:
    """Every combination of the candidates, most plausible first, without duplicates.

    Settings are ordered by the sum of their candidates' ranks (all first candidates come
    first, then every setting that changes one knob to its second candidate, ...); ties keep
    the knobs' order, earlier knobs varying first (list the knob whose alternatives say most first).
    """
    names = [name for name, _ in knobs]
    for name, candidates in knobs:
        for value in candidates:
            parse_knob(name, value)
    ranked = sorted(itertools.product(*(range(len(c)) for _, c in knobs)), key=lambda ranks: (sum(ranks), ranks[::-1]))
    seen: set[Setting] = set()
    settings: list[Setting] = []
    for ranks in ranked:
        values = {name: knobs[i][1][rank] for i, (name, rank) in enumerate(zip(names, ranks, strict=True))}
        setting = base.with_knobs(values)
        if setting not in seen:
            seen.add(setting)
            settings.append(setting)
    return settings


def interleave(*sequences: Iterable[Setting]) -> list[Setting]:
    """Settings taken in turn from each sequence (first of each, then second of each, ...), duplicates dropped."""
    out: list[Setting] = []
    for group in itertools.zip_longest(*sequences):
        for setting in group:
            if setting is not None and setting not in out:
                out.append(setting)
    return out


_ID_TOKENS = {
    "lora-r16-qkv": "lora",
    "bf16-weights-fp32-adam": "bf16w-fp32adam",
    "fp32-autocast-bf16": "fp32-autocast",
    "pure-bf16": "pure-bf16",
    "tokens": "tok",
    "base-pairs": "bp",
}


def _short_number(value: int) -> str:
    for divisor, suffix in ((1_000_000_000, "g"), (1_000_000, "m"), (1_000, "k")):
        if value % divisor == 0:
            return f"{value // divisor}{suffix}"
    return str(value)


def _plain(value: Any) -> KnobValue:
    return value.value if isinstance(value, StrEnum) else value
