"""The real measurement: the setting's training step on a CUDA GPU, read off PyTorch's allocator.

Protocol: build the model (and the DeepSpeed engine), reset the peak statistics, run the
warm-up step(s), reset again, run the measured steps, and keep the peak of
``torch.cuda.max_memory_allocated`` over them (and of ``max_memory_reserved``). The bytes
are kept; GB (10^9) and GiB are derived from them when the record is written.

The same function runs on a CPU (a dry run, as a smoke run without a GPU does): every step
runs for real on a tiny model, but a CPU has no allocator statistics, so nothing is measured.
"""

from __future__ import annotations

import datetime as dt
import gc
import time
from typing import Any

from measure.config import get_size
from measure.data import make_batch
from measure.env import cpu_hardware, gpu_hardware
from measure.errors import require
from measure.outcome import Method, RunOutcome, Status, short_error
from measure.settings import Setting
from measure.step import (
    build_engine,
    build_model,
    build_optimizer,
    engine_step,
    init_distributed_once,
    parameter_counts,
    quiet,
    required_modules,
    training_step,
)

MEASURE_NOTE = (
    "Measured: peak of torch.cuda.max_memory_allocated over {steps} training step(s) after {warmup} warm-up step(s) "
    "(peak statistics reset after the warm-up), in one process that measures settings one after another (caches "
    "emptied between them). Model built from its configuration with random weights; synthetic data."
)
DRY_RUN_NOTE = (
    "Dry run on a CPU: the training steps ran for real, but a CPU has no allocator statistics, so nothing was measured."
)


def measure(setting: Setting, *, device: str = "cuda", steps: int = 2, warmup_steps: int = 1) -> RunOutcome:
    """Run ``setting`` on ``device`` and return its peak (errors and out-of-memory become outcomes)."""
    require(*required_modules(setting, engine=True))
    import torch

    cuda = torch.device(device).type == "cuda"
    if cuda and not torch.cuda.is_available():
        from measure.errors import NoGpuError

        raise NoGpuError(device)
    outcome = RunOutcome(
        setting=setting,
        method=Method.MEASURED,
        dry_run=not cuda,
        hardware=gpu_hardware(torch.device(device).index or 0) if cuda else cpu_hardware(),
        started_at=dt.datetime.now(dt.UTC),
        steps=steps,
        warmup_steps=warmup_steps,
        method_note=(MEASURE_NOTE.format(steps=steps, warmup=warmup_steps) if cuda else DRY_RUN_NOTE),
    )
    clock = time.perf_counter()
    try:
        with quiet():
            _run(setting, outcome, torch.device(device), steps, warmup_steps)
    except Exception as exc:  # noqa: BLE001 - a failed setting is that setting's outcome, not the end of the run
        outcome.status = Status.OUT_OF_MEMORY if _is_out_of_memory(exc) else Status.ERROR
        outcome.error = short_error(exc)
        outcome.peak_bytes = None
    finally:
        gc.collect()
        if cuda:
            torch.cuda.empty_cache()
    outcome.duration_s = round(time.perf_counter() - clock, 3)
    return outcome


def _run(setting: Setting, outcome: RunOutcome, device: Any, steps: int, warmup_steps: int) -> None:
    import torch

    cuda = device.type == "cuda"
    engine = None
    model, attention = build_model(setting, device)
    outcome.attention_impl = attention
    outcome.parameters, outcome.trainable_parameters = parameter_counts(model)
    input_ids, labels = make_batch(setting.batch_size, setting.sequence_length, setting.length_unit,
                                   setting.data_seed, max_tokens=get_size(setting.model).max_tokens).tensors(device)
    try:
        if setting.stage.deepspeed:
            init_distributed_once("nccl" if cuda else "gloo")
            engine = build_engine(model, setting)
            input_ids, labels = input_ids.to(engine.device), labels.to(engine.device)

            def step() -> Any:
                return engine_step(engine, input_ids, labels, attention)
        else:
            optimizer = build_optimizer(model, setting)

            def step() -> Any:
                return training_step(model, optimizer, input_ids, labels, setting, attention)

        if cuda:
            torch.cuda.synchronize(device)
            outcome.breakdown_bytes["allocated_after_build"] = int(torch.cuda.memory_allocated(device))
            torch.cuda.reset_peak_memory_stats(device)
        for _ in range(warmup_steps):
            outcome.losses.append(float(step()))
        if cuda:
            torch.cuda.synchronize(device)
            outcome.warmup_peak_bytes = int(torch.cuda.max_memory_allocated(device))
            outcome.breakdown_bytes["allocated_between_steps"] = int(torch.cuda.memory_allocated(device))
            torch.cuda.reset_peak_memory_stats(device)
        for _ in range(steps):
            outcome.losses.append(float(step()))
        if cuda:
            torch.cuda.synchronize(device)
            outcome.peak_bytes = int(torch.cuda.max_memory_allocated(device))
            outcome.reserved_bytes = int(torch.cuda.max_memory_reserved(device))
    finally:
        if engine is not None:
            engine.destroy()


def _is_out_of_memory(exc: BaseException) -> bool:
    import torch

    oom = getattr(torch, "OutOfMemoryError", None) or torch.cuda.OutOfMemoryError
    return isinstance(exc, oom) or "out of memory" in str(exc).lower()
