"""Where a run happened: library versions, the project's commit, and the hardware named as it is."""

from __future__ import annotations

import importlib.metadata
import os
import platform
import subprocess
from pathlib import Path

from measure.outcome import Hardware, HardwareKind

#: Distributions whose versions every run records (None where not installed).
PACKAGES = ("torch", "transformers", "peft", "deepspeed", "flash-attn", "accelerate", "numpy")
ESTIMATE_HARDWARE_NAME = "CPU estimate (FakeTensorMode + MemTracker)"


def package_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def software_versions() -> dict[str, str | None]:
    """python, torch, CUDA (as torch was built), cuDNN and the other libraries, without importing the heavy ones."""
    versions: dict[str, str | None] = {"python": platform.python_version()}
    versions.update({name: package_version(name) for name in PACKAGES})
    versions["cuda"] = None
    versions["cudnn"] = None
    versions["hip"] = None
    if versions["torch"] is not None:
        import torch

        versions["torch"] = torch.__version__
        versions["cuda"] = torch.version.cuda
        versions["hip"] = getattr(torch.version, "hip", None)  # ROCm builds name their runtime here
        cudnn = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
        versions["cudnn"] = str(cudnn) if cudnn is not None else None
    versions["registry"] = package_version("registry")
    alloc = os.environ.get("PYTORCH_CUDA_ALLOC_CONF") or os.environ.get("PYTORCH_ALLOC_CONF")
    if alloc:
        versions["allocator_conf"] = alloc
    return versions


def git_commit(root: Path | None = None) -> str | None:
    """The project's commit, with '+dirty' when tracked files differ; $REGISTRY_GIT_COMMIT where git is absent."""
    override = os.environ.get("REGISTRY_GIT_COMMIT")
    if override:
        return override.strip()
    cwd = root or Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=cwd,
                               capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = head.stdout.strip()
    return commit + ("+dirty" if dirty.returncode == 0 and dirty.stdout.strip() else "")


def cuda_available() -> bool:
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        return False
    import torch

    return bool(torch.cuda.is_available())


def gpu_hardware(device_index: int = 0) -> Hardware:
    """The GPU as the driver names it ('NVIDIA H200' stays an H200), with its total memory."""
    import torch

    props = torch.cuda.get_device_properties(device_index)
    return Hardware(kind=HardwareKind.GPU, name=torch.cuda.get_device_name(device_index),
                    memory_bytes=int(props.total_memory))


def estimate_hardware() -> Hardware:
    return Hardware(kind=HardwareKind.CPU_ESTIMATE, name=ESTIMATE_HARDWARE_NAME)


def cpu_hardware() -> Hardware:
    """The CPU of a dry run, named as the platform reports it."""
    name = platform.processor() or platform.machine() or "CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return Hardware(kind=HardwareKind.CPU, name=f"{name} (CPU dry run, no memory measured)")
