"""measure.step and measure.gpu on the CPU: every stage's real training step on a tiny model.

The GPU measurement itself needs CUDA (marked ``gpu``); DeepSpeed's stage needs its CPU Adam
op compiled just in time (marked ``deepspeed_ops``: a C++ compiler and ninja).
"""

from __future__ import annotations

import importlib.util
import math
import shutil
import sysconfig
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from measure.gpu import measure  # noqa: E402
from measure.outcome import HardwareKind, Method, Status  # noqa: E402
from measure.settings import Precision, Setting, Stage  # noqa: E402
from measure.step import (  # noqa: E402
    build_model,
    build_optimizer,
    parameter_counts,
    trainable,
    training_step,
)

pytestmark = pytest.mark.torch  # runs torch models on the CPU: left out of make test-fast

needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
DEEPSPEED_OPS_MISSING = (
    "deepspeed is not installed" if importlib.util.find_spec("deepspeed") is None
    else "no C++ compiler to build DeepSpeed's CPU Adam" if not (shutil.which("c++") or shutil.which("g++"))
    else "no Python headers (Python.h) to build DeepSpeed's CPU Adam"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists()
    else "ninja is not installed (DeepSpeed builds its ops with it)"
    if not (shutil.which("ninja") or importlib.util.find_spec("ninja")) else None
)
needs_deepspeed_ops = pytest.mark.skipif(DEEPSPEED_OPS_MISSING is not None, reason=DEEPSPEED_OPS_MISSING or "")


def tiny(stage: str, **knobs: object) -> Setting:
    return Setting("nt-tiny", Stage(stage), 24, 2).with_knobs(knobs)  # type: ignore[arg-type]


def batch(setting: Setting):  # type: ignore[no-untyped-def]
    from measure.data import make_batch

    return make_batch(setting.batch_size, setting.sequence_length, setting.length_unit).tensors("cpu")


CASES = [
    ("baseline", {}),
    ("flash-attention", {}),
    ("checkpointing", {}),
    ("checkpointing", {"precision": "fp32-autocast-bf16", "adamw_impl": "foreach"}),
    ("checkpointing", {"precision": "fp32-autocast-bf16", "adamw_impl": "fused"}),
    ("checkpointing", {"precision": "pure-bf16", "adamw_impl": "fused"}),
    ("checkpointing", {"update_mode": "lora-r16-qkv"}),
    ("checkpointing", {"update_mode": "lora-r16-qkv", "precision": "fp32-autocast-bf16"}),
    ("baseline", {"length_unit": "base-pairs"}),
]


@pytest.mark.parametrize(("stage", "knobs"), CASES, ids=[f"{s}-{'-'.join(map(str, k.values())) or 'first'}"
                                                          for s, k in CASES])
def test_training_step_runs_for_real(stage: str, knobs: dict[str, object]) -> None:
    setting = tiny(stage, **knobs)
    model, attention = build_model(setting, "cpu")
    optimizer = build_optimizer(model, setting)
    input_ids, labels = batch(setting)
    before = [p.detach().clone() for p in trainable(model)]
    losses = [float(training_step(model, optimizer, input_ids, labels, setting, attention)) for _ in range(2)]
    assert all(math.isfinite(loss) and loss > 0 for loss in losses)
    assert any(not torch.equal(a, b) for a, b in zip(before, trainable(model), strict=True)), "no weight moved"
    assert all(p.grad is None for p in model.parameters()), "gradients must be freed after the step"
    expected_dtype = torch.float32 if setting.precision is Precision.FP32_AUTOCAST_BF16 else torch.bfloat16
    assert {p.dtype for p in model.parameters()} == {expected_dtype}
    assert attention == ("eager" if stage == "baseline" else "sdpa-flash-cpu")
    moments = {v.dtype for state in optimizer.state.values() for k, v in state.items() if k.startswith("exp_avg")}
    moment_dtype = torch.float32 if setting.precision is not Precision.PURE_BF16 else torch.bfloat16
    assert moments == {moment_dtype}
    if setting.update_mode.value == "lora-r16-qkv":
        total, n_trainable = parameter_counts(model)
        assert n_trainable == 2 * 3 * 2 * 16 * 64 and len(optimizer.state) == 2 * 3 * 2


def test_checkpointing_is_enabled_only_from_its_stage() -> None:
    flash, _ = build_model(tiny("flash-attention"), "meta")
    checkpointed, _ = build_model(tiny("checkpointing"), "meta")
    assert not flash.is_gradient_checkpointing and checkpointed.is_gradient_checkpointing


def test_dry_run_on_the_cpu_measures_nothing() -> None:
    outcome = measure(tiny("checkpointing"), device="cpu", steps=2, warmup_steps=1)
    assert outcome.method is Method.MEASURED and outcome.dry_run and outcome.status is Status.OK
    assert outcome.finished and not outcome.ok
    assert outcome.peak_bytes is None and outcome.hardware.kind is HardwareKind.CPU
    assert len(outcome.losses) == 3 and all(math.isfinite(x) for x in outcome.losses)
    assert outcome.parameters == outcome.trainable_parameters == 698_066


def test_a_failing_setting_becomes_an_error_outcome() -> None:
    outcome = measure(Setting("nt-tiny", Stage.CHECKPOINTING, 2000, 1), device="cpu")
    assert outcome.status is Status.ERROR and "more than the model's 1000" in (outcome.error or "")


@pytest.mark.deepspeed_ops
@needs_deepspeed_ops
@pytest.mark.parametrize("knobs", [{}, {"precision": "fp32-autocast-bf16", "overlap_comm": True},
                                   {"update_mode": "lora-r16-qkv", "reduce_bucket_size": 4096}])
def test_deepspeed_stage_runs_on_the_cpu(knobs: dict[str, object]) -> None:
    """ZeRO-2 with CPU offload through deepspeed.initialize, on the gloo backend (as a smoke run on a CPU runs it)."""
    from measure.step import build_engine, engine_step, init_distributed_once

    setting = tiny("deepspeed", **knobs)
    model, attention = build_model(setting, "cpu")
    init_distributed_once("gloo")
    engine = build_engine(model, setting)
    try:
        input_ids, labels = batch(setting)
        before = [p.detach().float().clone() for p in trainable(engine.module)]
        losses = [float(engine_step(engine, input_ids, labels, attention)) for _ in range(2)]
        after = [p.detach().float() for p in trainable(engine.module)]
        assert all(math.isfinite(loss) for loss in losses)
        assert any(not torch.equal(a, b) for a, b in zip(before, after, strict=True)), "no weight moved"
        assert type(engine.optimizer).__name__ == "DeepSpeedZeroOptimizer"
        assert engine.zero_optimization_stage() == 2 and engine.zero_cpu_offload()
    finally:
        engine.destroy()


@pytest.mark.gpu
@needs_cuda
def test_measurement_on_a_gpu() -> None:
    outcome = measure(tiny("checkpointing"), device="cuda", steps=2)
    assert outcome.method is Method.MEASURED and not outcome.dry_run and outcome.status is Status.OK
    assert outcome.peak_bytes and outcome.reserved_bytes and outcome.reserved_bytes >= outcome.peak_bytes
    assert outcome.hardware.kind == "gpu" and outcome.hardware.name == torch.cuda.get_device_name(0)
    assert outcome.breakdown_bytes["allocated_between_steps"] > outcome.breakdown_bytes["allocated_after_build"]


@pytest.mark.gpu
@needs_cuda
def test_out_of_memory_is_an_outcome() -> None:
    outcome = measure(Setting("nt-2-5b", Stage.BASELINE, 1000, 4096), device="cuda", steps=1)
    assert outcome.status is Status.OUT_OF_MEMORY and outcome.peak_bytes is None and outcome.error
