"""Running an extractor under a time and a memory limit, so that no PDF can hang a review or exhaust the machine.

A PDF is a program of sorts: a damaged or hostile file can send a parser into a loop or make it
allocate without end. Each extraction therefore runs in a child process (pypdf and PDFium in
``python -m review.extract``, poppler's ``pdftotext`` as itself) whose address space and CPU time
are capped with ``setrlimit`` and whose wall-clock time is capped by the parent, which kills it
when time is up. What went wrong is reported as a ``PdfError`` naming the limit and how to raise it.
"""

from __future__ import annotations

import os
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

from review.errors import PdfError

DEFAULT_SECONDS = 60.0
DEFAULT_MEMORY_MB = 2048
#: Exit status of the extraction worker when it ran out of memory (it catches MemoryError and says so).
OUT_OF_MEMORY = 86


@dataclass(frozen=True)
class Limits:
    """How long, and with how much memory, one extractor may work on one PDF."""

    seconds: float = DEFAULT_SECONDS
    memory_mb: int = DEFAULT_MEMORY_MB

    def __post_init__(self) -> None:
        if self.seconds <= 0 or self.memory_mb <= 0:
            raise ValueError("limits must be positive")


def run_limited(argv: list[str], limits: Limits, *, what: str, path: Path, env: dict[str, str] | None = None,
                answers: tuple[int, ...] = ()) -> subprocess.CompletedProcess[bytes]:
    """Run ``argv`` under ``limits``; PdfError if it ran past a limit or failed.

    Exit status 0, and any in ``answers`` (a status with which the program reports a finding of its
    own), return the finished process; any other is an error."""
    memory = limits.memory_mb * 1024 * 1024
    cpu = int(limits.seconds) + 1

    def cap() -> None:  # runs in the child, before the extractor starts
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))

    try:
        done = subprocess.run(argv, capture_output=True, timeout=limits.seconds, preexec_fn=cap, env=env,
                              stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired as exc:
        raise PdfError(path, f"{what} took longer than the time limit of {limits.seconds:g} s on {path} and was "
                       "stopped", "raise {timeout} if the PDF is large, or check that the file opens in a PDF "
                       "viewer") from exc
    except OSError as exc:
        raise PdfError(path, f"cannot run {what}: {exc.strerror or exc}", "check the installation") from exc
    if done.returncode == 0 or done.returncode in answers:
        return done
    stderr = done.stderr.decode("utf-8", "replace")
    if done.returncode == OUT_OF_MEMORY or "MemoryError" in stderr or "std::bad_alloc" in stderr or (
            "memory" in stderr.lower() and "alloc" in stderr.lower()):
        raise PdfError(path, f"{what} needed more than the memory limit of {limits.memory_mb:,} MB on {path} and "
                       "was stopped", "raise {max_memory} if the PDF is large, or check that the file opens in a "
                       "PDF viewer")
    if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        raise PdfError(path, f"{what} used more than the time limit of {limits.seconds:g} s of processor time on "
                       f"{path} and was stopped", "raise {timeout} if the PDF is large")
    raise PdfError(path, f"{what} failed on {path} (exit status {done.returncode}): "
                   f"{_last_line(stderr) or 'no message'}", "check that the file opens in a PDF viewer")


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def child_environment() -> dict[str, str]:
    """This process's environment, with its import path, so that the child imports this very checkout."""
    import sys

    env = dict(os.environ)
    paths = [p for p in sys.path if p]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env.setdefault("PYTHONHASHSEED", "0")
    return env
