"""The CPU estimate: one training step traced under fake tensors, with PyTorch's memory tracker.

The model is built on the meta device (no memory, no initialisation), LoRA is applied
there, and then every parameter and buffer is replaced by a fake CPU tensor of the same
shape and dtype: fake CUDA tensors do not work without CUDA, and ``module.to`` and
``peft.get_peft_model`` fail on fake parameters. The optimizer's state is created before
the traced step, so the traced step is a steady-state (second) step, whose peak is the
one a GPU measurement reports after its warm-up step.

DeepSpeed's ZeRO-2 CPU offload cannot be traced (its engine needs a real device and
process group), so ``ZeroOffloadEmulator`` stands in for it; ``OFFLOAD_NOTE`` says how.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass
from typing import Any

from measure.config import get_size
from measure.data import make_batch
from measure.env import estimate_hardware
from measure.errors import require
from measure.outcome import AttentionImpl, Method, RunOutcome, Status, short_error
from measure.settings import Precision, Setting
from measure.step import (
    build_model,
    build_optimizer,
    parameter_counts,
    quiet,
    required_modules,
    trainable,
    training_step,
)

#: Breakdown keys, from MemTracker's categories.
CATEGORIES = {
    "Parameter": "parameters",
    "Buffer": "buffers",
    "Gradient": "gradients",
    "Optstate": "optimizer_state",
    "Activation": "activations",
    "Temp": "temporaries",
    "Other": "other",
}

ESTIMATE_NOTE = (
    "Estimated, not measured: one training step of the model traced under PyTorch FakeTensorMode (fake CPU "
    "tensors) with torch.distributed._tools.mem_tracker.MemTracker; optimizer state created beforehand, so the "
    "traced step is a steady-state step. CPU autocast and the CPU SDPA flash kernel stand in for their CUDA "
    "counterparts. Left out: the CUDA context, cuBLAS workspaces, FlashAttention's CUDA backward buffers and the "
    "caching allocator's rounding and fragmentation (expect roughly +-0.5 GB)."
)
OFFLOAD_NOTE = (
    " DeepSpeed ZeRO-2 with CPU offload is emulated, not run: weights stay on the GPU in their dtype; each gradient "
    "is copied into a reduce bucket of reduce_bucket_size elements (two buckets with overlap_comm, one set per "
    "communication dtype: bf16 for linear layers under torch_autocast) and released when its bucket is flushed to "
    "the CPU, after a transient copy in the master dtype; a gradient larger than a bucket is held alone until "
    "flushed; a staging buffer the size of the largest parameter is kept; optimizer states, master weights and the "
    "optimizer step live on the CPU and add nothing to the GPU. The all-gather bucket is not modelled (one GPU)."
)


@dataclass(frozen=True)
class Trace:
    """What the tracer saw: the peak split by category, and the memory held between steps."""

    peak: dict[str, int]
    at_rest: dict[str, int]
    parameters: int
    trainable_parameters: int
    attention: AttentionImpl
    loss_dtype: str

    @property
    def peak_bytes(self) -> int:
        return sum(self.peak.values())

    @property
    def at_rest_bytes(self) -> int:
        return sum(self.at_rest.values())


def estimate(setting: Setting) -> RunOutcome:
    """The CPU estimate of ``setting``'s peak, as a run outcome (errors become outcomes, never exceptions)."""
    started = dt.datetime.now(dt.UTC)
    clock = time.perf_counter()
    outcome = RunOutcome(setting=setting, method=Method.ESTIMATED, hardware=estimate_hardware(), started_at=started,
                         steps=1, warmup_steps=0)
    outcome.method_note = ESTIMATE_NOTE + (OFFLOAD_NOTE if setting.stage.deepspeed else "")
    try:
        with quiet():
            trace = trace_step(setting)
    except Exception as exc:  # noqa: BLE001 - any failure of one setting is that setting's outcome
        outcome.status, outcome.error = Status.ERROR, short_error(exc)
    else:
        outcome.peak_bytes = trace.peak_bytes
        outcome.breakdown_bytes = dict(trace.peak)
        outcome.attention_impl = trace.attention
        outcome.parameters, outcome.trainable_parameters = trace.parameters, trace.trainable_parameters
    outcome.duration_s = round(time.perf_counter() - clock, 3)
    return outcome


def trace_step(setting: Setting) -> Trace:
    """Trace one steady-state training step of ``setting`` and return its memory by category."""
    require(*required_modules(setting, engine=False))
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode

    model, attention = build_model(setting, "meta")
    total, n_trainable = parameter_counts(model)
    mode = FakeTensorMode()
    _materialize(model, mode)
    batch = make_batch(setting.batch_size, setting.sequence_length, setting.length_unit, setting.data_seed,
                       max_tokens=get_size(setting.model).max_tokens)
    input_ids, labels = batch.tensors("cpu")
    tracker = _tracker_class()()
    with mode:
        input_ids, labels = mode.from_tensor(input_ids), mode.from_tensor(labels)
        if setting.stage.deepspeed:
            optimizer: Any = ZeroOffloadEmulator(model, setting)
            extra = optimizer.buffers()
        else:
            optimizer = build_optimizer(model, setting)
            _initialize_state(model, optimizer)
            extra = []
        tracker.track_external(model, optimizer if isinstance(optimizer, torch.optim.Optimizer) else None,
                               input_ids, labels, *extra)
        with tracker:
            loss = training_step(model, optimizer, input_ids, labels, setting, attention)
            loss_dtype = str(loss.dtype).replace("torch.", "")
            del loss
            tracker.reset_mod_stats()
        at_rest = _by_category(tracker.get_tracker_snapshot("current"))
        peak = _by_category(tracker.get_tracker_snapshot("peak"))
    inputs = input_ids.numel() * input_ids.element_size() + labels.numel() * labels.element_size()
    for snapshot in (peak, at_rest):
        other = snapshot.pop("other", 0)
        snapshot["inputs"] = min(other, inputs)
        if other > inputs:
            snapshot["zero_buffers" if setting.stage.deepspeed else "other"] = other - inputs
    return Trace(peak=_nonzero(peak), at_rest=_nonzero(at_rest), parameters=total, trainable_parameters=n_trainable,
                 attention=attention, loss_dtype=loss_dtype)


def _materialize(model: Any, mode: Any) -> None:
    """Replace every meta parameter and buffer by a fake CPU tensor of the same shape, dtype and requires_grad."""
    import torch

    replaced: dict[int, Any] = {}
    with mode:
        for module in model.modules():
            for name, param in list(module._parameters.items()):
                if param is None:
                    continue
                if id(param) not in replaced:
                    replaced[id(param)] = torch.nn.Parameter(torch.empty(param.shape, dtype=param.dtype),
                                                             requires_grad=param.requires_grad)
                module._parameters[name] = replaced[id(param)]
            for name, buffer in list(module._buffers.items()):
                if buffer is not None:
                    module._buffers[name] = torch.zeros(buffer.shape, dtype=buffer.dtype)


def _initialize_state(model: Any, optimizer: Any) -> None:
    """Create the optimizer's state as a first step would (zero gradients, one step), then free the gradients."""
    import torch

    params = trainable(model)
    for param in params:
        param.grad = torch.zeros_like(param)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)


def _by_category(snapshot: dict[Any, dict[Any, int]]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for device_snapshot in snapshot.values():
        for key, value in device_snapshot.items():
            name = getattr(key, "value", str(key))
            if name in CATEGORIES:
                totals[CATEGORIES[name]] = totals.get(CATEGORIES[name], 0) + int(value)
    return totals


def _nonzero(snapshot: dict[str, int]) -> dict[str, int]:
    return {key: value for key, value in snapshot.items() if value}


class ZeroOffloadEmulator:
    """The GPU side of DeepSpeed ZeRO-2 with optimizer and gradient offload, for tracing (see ``OFFLOAD_NOTE``).

    It stands where the optimizer stands in ``training_step``: ``step`` flushes the last
    buckets (DeepSpeed does this at the end of backward) and updates nothing on the device.
    """

    def __init__(self, model: Any, setting: Setting) -> None:
        import torch

        normal = setting.normalized()
        self.bucket_numel = int(normal.reduce_bucket_size or 0)
        self.copies = 2 if normal.overlap_comm else 1
        self.params = trainable(model)
        weight = self.params[0].dtype if self.params else torch.bfloat16
        self.master_dtype = torch.bfloat16 if setting.precision is Precision.PURE_BF16 else torch.float32
        linear_params = {id(p) for m in model.modules() if isinstance(m, torch.nn.Linear) for p in m.parameters(False)}
        autocast = setting.precision is Precision.FP32_AUTOCAST_BF16
        self.comm_dtype = {id(p): torch.bfloat16 if autocast and id(p) in linear_params else p.dtype
                           for p in self.params}
        self.buckets: dict[Any, _Bucket] = {
            dtype: _Bucket([torch.empty(self.bucket_numel, dtype=dtype) for _ in range(self.copies)])
            for dtype in dict.fromkeys(self.comm_dtype.values())
        }
        largest = max((p.numel() for p in self.params), default=0)
        self.staging = torch.zeros(largest, dtype=weight)
        self.param_groups: list[dict[str, Any]] = []
        for param in self.params:
            param.register_post_accumulate_grad_hook(self._on_gradient)

    def buffers(self) -> list[Any]:
        return [buffer for bucket in self.buckets.values() for buffer in bucket.buffers] + [self.staging]

    def _on_gradient(self, param: Any) -> None:
        grad, numel = param.grad, param.numel()
        param.grad = None
        bucket = self.buckets[self.comm_dtype[id(param)]]
        if bucket.elements + numel > self.bucket_numel:
            self._flush(bucket)
            bucket.index = (bucket.index + 1) % self.copies
        if numel > self.bucket_numel:
            bucket.pending.append(grad)
        else:
            slot = bucket.buffers[bucket.index].narrow(0, bucket.elements, numel)
            slot.copy_(grad.reshape(-1))
            bucket.pending.append(slot)
        bucket.elements += numel

    def _flush(self, bucket: _Bucket) -> None:
        for grad in bucket.pending:
            norm = grad.float().norm(2)
            staged = grad.to(self.master_dtype) if grad.dtype != self.master_dtype else grad
            del norm, staged
        bucket.pending.clear()
        bucket.elements = 0

    def step(self) -> None:
        for bucket in self.buckets.values():
            self._flush(bucket)

    def zero_grad(self, set_to_none: bool = True) -> None:
        for param in self.params:
            param.grad = None


@dataclass
class _Bucket:
    buffers: list[Any]
    index: int = 0
    elements: int = 0

    def __post_init__(self) -> None:
        self.pending: list[Any] = []


def _tracker_class() -> type:
    """MemTracker that hooks only trainable parameters and tolerates gradients taken away by an offload."""
    from torch.distributed._tools.mem_tracker import MemTracker, _MemRefType

    class Tracker(MemTracker):  # type: ignore[misc, valid-type]
        def _track_module_params_and_buffers(self, module: Any, install_grad_hooks: bool = True) -> tuple[int, int]:
            def on_grad(grad: Any) -> None:
                if grad is not None:
                    self._update_and_maybe_create_winfos(grad, _MemRefType.GRAD)

            param_memory = 0
            for param in module.parameters():
                infos = self._update_and_maybe_create_winfos(param, _MemRefType.PARAM)
                param_memory += sum(info.mem_consumed for info in infos)
                if param.grad is not None:
                    self._update_and_maybe_create_winfos(param.grad, _MemRefType.GRAD)
                if param.requires_grad and install_grad_hooks and self._param_to_grad_hook_handles.get(param) is None:
                    self._param_to_grad_hook_handles[param] = (
                        param.register_hook(on_grad),
                        param.register_post_accumulate_grad_hook(lambda p: on_grad(p.grad)),
                    )
            buffer_memory = 0
            for buffer in module.buffers():
                infos = self._update_and_maybe_create_winfos(buffer, _MemRefType.BUFFER)
                buffer_memory += sum(info.mem_consumed for info in infos)
            return param_memory, buffer_memory

    return Tracker
