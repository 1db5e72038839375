"""measure.estimate: the traced step against hand arithmetic, on a tiny model and on the full 2.5B configuration."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from measure.config import get_size  # noqa: E402
from measure.estimate import estimate, trace_step  # noqa: E402
from measure.outcome import Method, Status  # noqa: E402
from measure.settings import Setting, Stage  # noqa: E402

pytestmark = pytest.mark.torch  # runs torch models on the CPU: left out of make test-fast

TINY = get_size("nt-tiny")
P = TINY.parameter_count()
POSITION_IDS = 1002 * 8  # the int64 position-ids buffer
LARGEST = 4105 * 64  # word embeddings and output layer of nt-tiny


def tiny(stage: str = "checkpointing", length: int = 64, batch: int = 2, **knobs: object) -> Setting:
    return Setting("nt-tiny", Stage(stage), length, batch).with_knobs(knobs)  # type: ignore[arg-type]


def tensors_of(setting: Setting) -> int:
    from measure.step import build_model, trainable

    model, _ = build_model(setting, "meta")
    return len(trainable(model))


def inputs(setting: Setting) -> int:
    return 2 * setting.batch_size * setting.tokens_per_sequence * 8


@pytest.mark.parametrize(
    ("knobs", "weight_bytes", "moment_bytes", "step_tensor"),
    [({"precision": "pure-bf16", "adamw_impl": "foreach"}, 2, 2, True),
     ({"precision": "fp32-autocast-bf16", "adamw_impl": "fused"}, 4, 4, True),
     ({"precision": "bf16-weights-fp32-adam"}, 2, 4, False)],
)
def test_model_states_between_steps_by_hand(knobs: dict[str, object], weight_bytes: int, moment_bytes: int,
                                           step_tensor: bool) -> None:
    setting = tiny(**knobs)
    trace = trace_step(setting)
    # torch's AdamW keeps a 4-byte step tensor per parameter tensor; ours keeps a Python int.
    steps = 4 * tensors_of(setting) if step_tensor else 0
    assert trace.at_rest == {"parameters": P * weight_bytes, "buffers": POSITION_IDS,
                             "optimizer_state": 2 * P * moment_bytes + steps, "inputs": inputs(setting)}
    assert trace.peak_bytes >= trace.at_rest_bytes + P * weight_bytes // 2
    assert trace.parameters == trace.trainable_parameters == P


def test_lora_keeps_moments_for_adapters_only() -> None:
    setting = tiny(update_mode="lora-r16-qkv")
    trace = trace_step(setting)
    adapters = TINY.lora_parameter_count()
    assert trace.trainable_parameters == adapters and trace.parameters == P + adapters
    assert trace.at_rest["parameters"] == (P + adapters) * 2
    assert trace.at_rest["optimizer_state"] == 2 * adapters * 4
    assert "gradients" not in trace.at_rest


@pytest.mark.parametrize("overlap", [False, True])
@pytest.mark.parametrize("bucket", [4096, 500_000])
def test_zero_offload_keeps_only_buckets_and_weights(overlap: bool, bucket: int) -> None:
    setting = tiny("deepspeed", reduce_bucket_size=bucket, overlap_comm=overlap)
    trace = trace_step(setting)
    buckets = bucket * 2 * (2 if overlap else 1)
    assert trace.at_rest == {"parameters": P * 2, "buffers": POSITION_IDS, "inputs": inputs(setting),
                             "zero_buffers": buckets + LARGEST * 2}
    assert "optimizer_state" not in trace.peak
    # No gradient outlives its bucket: at most one bucket's worth plus the one oversized gradient.
    assert trace.peak.get("gradients", 0) <= max(bucket, LARGEST) * 2 * 2


def test_autocast_under_zero_keeps_a_bucket_per_communication_dtype() -> None:
    trace = trace_step(tiny("deepspeed", precision="fp32-autocast-bf16", reduce_bucket_size=10_000))
    assert trace.at_rest["zero_buffers"] == 10_000 * (2 + 4) + LARGEST * 4
    assert trace.at_rest["parameters"] == P * 4


def test_each_stage_saves_memory_where_the_paper_says() -> None:
    peaks = {stage: trace_step(tiny(stage, length=1000, batch=4)).peak_bytes
             for stage in ("baseline", "flash-attention", "checkpointing", "deepspeed")}
    assert peaks["baseline"] > peaks["flash-attention"] > peaks["checkpointing"]
    eager_scores = 4 * TINY.num_heads * 1000 * 1000 * 2  # one layer's attention scores (batch 4), bf16
    assert peaks["baseline"] - peaks["flash-attention"] >= eager_scores


def test_estimate_outcome_is_labelled() -> None:
    outcome = estimate(tiny("deepspeed"))
    assert outcome.method is Method.ESTIMATED and outcome.status is Status.OK
    assert outcome.hardware.kind == "cpu-estimate" and "CPU estimate" in outcome.hardware.name
    assert "emulated, not run" in (outcome.method_note or "")
    assert outcome.peak_bytes == sum(outcome.breakdown_bytes.values())
    assert outcome.attention_impl == "sdpa-flash-cpu" and outcome.steps == 1 and outcome.warmup_steps == 0


def test_estimate_of_an_impossible_setting_is_an_error_outcome() -> None:
    outcome = estimate(Setting("nt-tiny", Stage.CHECKPOINTING, 5000, 1))
    assert outcome.status is Status.ERROR and outcome.peak_bytes is None and outcome.error


@pytest.mark.slow
def test_full_model_under_zero_offload_by_hand() -> None:
    """The full 2.5B configuration at the paper's shape: weights, buckets and checkpoints as hand arithmetic says."""
    size = get_size("nt-2-5b")
    setting = Setting("nt-2-5b", Stage.DEEPSPEED, 1000, 16, reduce_bucket_size=6_553_600)
    trace = trace_step(setting)
    params = size.parameter_count()
    largest = size.hidden_size * size.intermediate_size
    assert trace.parameters == params == 2_547_801_226
    assert trace.peak["parameters"] == params * 2
    assert trace.peak["zero_buffers"] == 6_553_600 * 2 + largest * 2
    assert "optimizer_state" not in trace.peak
    checkpoints = size.num_layers * 16 * 1000 * size.hidden_size * 2  # one bf16 layer input per layer: 2.62 GB
    floor = params * 2 + 6_553_600 * 2 + largest * 2 + checkpoints
    assert floor <= trace.peak_bytes <= floor + 5 * 10**9, trace.peak
