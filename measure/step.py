"""One setting's model, optimizer and training step: shared by the GPU measurement, the CPU dry run and the estimate.

Keeping one code path is what makes an estimate and a measurement comparable: the
estimate runs exactly these functions, only on fake tensors.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from measure.config import esm_config, get_size
from measure.errors import require
from measure.outcome import AttentionImpl
from measure.settings import AdamWImpl, Precision, Setting, Stage, WeightUpdate

LEARNING_RATE = 1e-4
WEIGHT_DECAY = 0.01
LORA_RANK = 16
LORA_ALPHA = 32
LORA_TARGETS = ("query", "key", "value")


@contextmanager
def quiet() -> Iterator[None]:
    """Silence notices that say nothing about the run (checkpointing and tracker warnings, DeepSpeed info)."""
    import logging
    import warnings

    if importlib.util.find_spec("transformers") is not None:
        from transformers.utils import logging as hf_logging

        hf_logging.get_logger()  # configures its root logger now, so that it does not reset our level later
    loggers = [logging.getLogger(name) for name in ("transformers", "DeepSpeed", "deepspeed", "torch.distributed")]
    levels = [logger.level for logger in loggers]
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*(Skipping (PRE|POST)_BW hook|deprecated|use_cache).*")
        warnings.filterwarnings("ignore", category=FutureWarning)
        for logger in loggers:
            logger.setLevel(logging.ERROR)
        try:
            yield
        finally:
            for logger, level in zip(loggers, levels, strict=True):
                logger.setLevel(level)


def flash_attn_installed() -> bool:
    return importlib.util.find_spec("flash_attn") is not None


def attention_for(stage: Stage, device_type: str) -> tuple[str, AttentionImpl]:
    """(transformers attn_implementation, the kernel a run reports) for a stage on a device type."""
    if not stage.flash:
        return "eager", AttentionImpl.EAGER
    if device_type == "cuda" and flash_attn_installed():
        return "flash_attention_2", AttentionImpl.FLASH_ATTN
    return "sdpa", AttentionImpl.SDPA_FLASH if device_type == "cuda" else AttentionImpl.SDPA_FLASH_CPU


def weight_dtype(precision: Precision) -> Any:
    import torch

    return torch.float32 if precision is Precision.FP32_AUTOCAST_BF16 else torch.bfloat16


@contextmanager
def default_dtype(dtype: Any) -> Iterator[None]:
    """Build modules directly in ``dtype`` (``module.to`` cannot convert fake parameters)."""
    import torch

    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        yield
    finally:
        torch.set_default_dtype(previous)


def required_modules(setting: Setting, *, engine: bool) -> list[str]:
    """The libraries a setting needs: peft for LoRA, deepspeed where a real engine runs."""
    modules = ["torch", "transformers"]
    if setting.update_mode is WeightUpdate.LORA_R16_QKV:
        modules.append("peft")
    if engine and setting.stage.deepspeed:
        modules.append("deepspeed")
    return modules


def build_model(setting: Setting, device: Any) -> tuple[Any, AttentionImpl]:
    """The model for ``setting`` on ``device`` ('cuda', 'cpu' or 'meta'), in training mode, and its attention label."""
    import torch

    require(*required_modules(setting, engine=False))
    from transformers import EsmForMaskedLM

    device = torch.device(device)
    implementation, label = attention_for(setting.stage, device.type)
    config = esm_config(get_size(setting.model), implementation)
    with default_dtype(weight_dtype(setting.precision)), device:
        model: Any = EsmForMaskedLM(config)
    if setting.stage.checkpointing:
        kwargs = {"use_reentrant": False}
        if hasattr(model, "activation_checkpointing_enable"):  # transformers >= 5.2x; the older name warns there
            model.activation_checkpointing_enable(activation_checkpointing_kwargs=kwargs)
        else:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=kwargs)
    if setting.update_mode is WeightUpdate.LORA_R16_QKV:
        from peft import LoraConfig, get_peft_model

        # Adapters keep the precision's weight dtype (peft would otherwise upcast bf16 adapters to fp32).
        model = get_peft_model(model, LoraConfig(r=LORA_RANK, lora_alpha=LORA_ALPHA, lora_dropout=0.0,
                                                 target_modules=list(LORA_TARGETS), bias="none"),
                               autocast_adapter_dtype=False)
    model.train()
    return model, label


def parameter_counts(model: Any) -> tuple[int, int]:
    """(all parameters, trainable parameters)."""
    params = list(model.parameters())
    return sum(p.numel() for p in params), sum(p.numel() for p in params if p.requires_grad)


def trainable(model: Any) -> list[Any]:
    return [p for p in model.parameters() if p.requires_grad]


def build_optimizer(model: Any, setting: Setting) -> Any:
    """AdamW as the setting's precision asks: torch's (foreach or fused), or ours with fp32 moments."""
    import torch

    params = trainable(model)
    if setting.precision is Precision.BF16_WEIGHTS_FP32_ADAM:
        return adamw_fp32_moments()(params, lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY)
    impl = setting.normalized().adamw_impl
    return torch.optim.AdamW(params, lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY,
                             foreach=impl is AdamWImpl.FOREACH, fused=impl is AdamWImpl.FUSED)


@contextmanager
def attention_context(label: AttentionImpl) -> Iterator[None]:
    """Restrict SDPA to its flash kernel where the label says so (forward, recomputation and backward)."""
    with ExitStack() as stack:
        if label in (AttentionImpl.SDPA_FLASH, AttentionImpl.SDPA_FLASH_CPU):
            from torch.nn.attention import SDPBackend, sdpa_kernel

            stack.enter_context(sdpa_kernel(SDPBackend.FLASH_ATTENTION))
        yield


@contextmanager
def autocast_context(setting: Setting, device_type: str) -> Iterator[None]:
    """bf16 autocast for the forward pass where the precision asks for it (not under DeepSpeed, which does it)."""
    with ExitStack() as stack:
        if setting.precision is Precision.FP32_AUTOCAST_BF16 and not setting.stage.deepspeed:
            import torch

            stack.enter_context(torch.autocast(device_type, dtype=torch.bfloat16))
        yield


def training_step(model: Any, optimizer: Any, input_ids: Any, labels: Any, setting: Setting,
                  attention: AttentionImpl) -> Any:
    """Forward, backward, optimizer step, gradients freed; returns the loss (detached)."""
    with attention_context(attention):
        with autocast_context(setting, input_ids.device.type):
            loss = model(input_ids=input_ids, labels=labels).loss
        loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    return loss.detach()


def engine_step(engine: Any, input_ids: Any, labels: Any, attention: AttentionImpl) -> Any:
    """One DeepSpeed training step (the engine applies autocast and reduces and offloads gradients)."""
    with attention_context(attention):
        loss = engine(input_ids=input_ids, labels=labels).loss
        engine.backward(loss)
    engine.step()
    return loss.detach()


def deepspeed_config(setting: Setting) -> dict[str, Any]:
    """The DeepSpeed configuration of the '+ DeepSpeed' stage: ZeRO-2, optimizer and gradients offloaded to the CPU."""
    normal = setting.normalized()
    config: dict[str, Any] = {
        "train_micro_batch_size_per_gpu": setting.batch_size,
        "gradient_accumulation_steps": 1,
        "gradient_clipping": 0.0,
        "zero_optimization": {
            "stage": 2,
            # DeepSpeed's default; pinning 40 GB of host memory slows set-up and changes nothing on the GPU.
            "offload_optimizer": {"device": "cpu", "pin_memory": False},
            "contiguous_gradients": True,
            "overlap_comm": bool(normal.overlap_comm),
            "reduce_bucket_size": normal.reduce_bucket_size,
            "allgather_bucket_size": normal.allgather_bucket_size,
        },
        "optimizer": {"type": "AdamW", "params": {"lr": LEARNING_RATE, "weight_decay": WEIGHT_DECAY}},
        "steps_per_print": 1_000_000,
        "wall_clock_breakdown": False,
    }
    if setting.precision is Precision.FP32_AUTOCAST_BF16:
        config["torch_autocast"] = {"enabled": True, "dtype": "bfloat16"}
    elif setting.precision is Precision.PURE_BF16:
        config["bf16"] = {"enabled": True, "bf16_master_weights_and_grads": True, "bf16_optimizer_states": True}
    else:
        config["bf16"] = {"enabled": True}
    return config


def init_distributed_once(backend: str) -> None:
    """A one-process 'world' for DeepSpeed (rank 0 of 1), set up once per process."""
    import os

    import deepspeed
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        return
    for name, value in (("RANK", "0"), ("LOCAL_RANK", "0"), ("WORLD_SIZE", "1"), ("MASTER_ADDR", "127.0.0.1")):
        os.environ.setdefault(name, value)
    if "MASTER_PORT" not in os.environ:
        os.environ["MASTER_PORT"] = str(_free_port())
    deepspeed.init_distributed(dist_backend=backend, verbose=False)


def _free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def build_engine(model: Any, setting: Setting) -> Any:
    """``deepspeed.initialize`` with the stage's configuration; returns the engine."""
    import deepspeed

    config = deepspeed_config(setting)
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=trainable(model), config=config)
    return engine


def adamw_fp32_moments() -> type:
    """AdamW that keeps fp32 moments for low-precision parameters (built on first use, so torch loads lazily)."""
    global _ADAMW_FP32_MOMENTS
    if _ADAMW_FP32_MOMENTS is None:
        _ADAMW_FP32_MOMENTS = _define_adamw_fp32_moments()
    return _ADAMW_FP32_MOMENTS


_ADAMW_FP32_MOMENTS: type | None = None


def _define_adamw_fp32_moments() -> type:
    import torch

    class AdamWFp32Moments(torch.optim.Optimizer):
        """AdamW for bf16 parameters with fp32 first and second moments, one parameter at a time.

        The update is computed in fp32 and written back to the bf16 parameter: 2 + 2 + 8 bytes
        per parameter (weight, gradient, moments) and no fp32 master copy. Transient memory is
        a few fp32 copies of the largest parameter.
        """

        def __init__(self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                     eps: float = 1e-8, weight_decay: float = 0.01) -> None:
            super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay})

        @torch.no_grad()
        def step(self, closure: Any = None) -> Any:
            for group in self.param_groups:
                beta1, beta2 = group["betas"]
                for param in group["params"]:
                    if param.grad is None:
                        continue
                    state = self.state[param]
                    if not state:
                        state["step"] = 0
                        state["exp_avg"] = torch.zeros_like(param, dtype=torch.float32)
                        state["exp_avg_sq"] = torch.zeros_like(param, dtype=torch.float32)
                    state["step"] += 1
                    step = state["step"]
                    grad = param.grad.float()
                    state["exp_avg"].lerp_(grad, 1 - beta1)
                    state["exp_avg_sq"].mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                    del grad
                    denom = (state["exp_avg_sq"] / (1 - beta2**step)).sqrt_().add_(group["eps"])
                    updated = param.float()
                    updated.mul_(1 - group["lr"] * group["weight_decay"])
                    updated.addcdiv_(state["exp_avg"], denom, value=-group["lr"] / (1 - beta1**step))
                    param.copy_(updated)
            return None

    return AdamWFp32Moments
