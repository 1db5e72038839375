"""A function run in a fresh Python process, with a time and a memory limit that hold whatever it does.

A limit checked from inside (a clock looked at between steps) cannot stop one long step: pypdf
extracting a page that holds 50 MB of text in one string, or a regular expression on it. So work
that hostile input can make long or large runs here, in a child process that is killed once its
time is up, with its address space capped (``RLIMIT_AS``, where the system has it). The child leads
a process group of its own, and the whole group is killed: a program the function starts (the
review's ``pdftotext``) inherits the memory cap and goes with the child.

The caller sends the function's name and its argument (pickled: the caller trusts itself); the child
answers with plain data only (tuples, lists, dicts, text, bytes, numbers, None), which is read with
an unpickler that refuses every class, so a child that hostile input took over can send nothing
but data. The child imports the same modules as the caller: it is given the caller's ``sys.path``
before it reads anything else.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import threading
from typing import Any

#: What the child runs: take the caller's module path, then read the request, cap memory, call the function,
#: send back its answer. The path comes first, in a frame of its own: unpickling the request imports the
#: modules of the objects it holds, and they must be the caller's (another checkout's ``registry``, found
#: on the child's own default path, would be a different program).
_BOOT = """
import pickle, sys
sys.path[:] = pickle.load(sys.stdin.buffer)
target, argument, memory = pickle.load(sys.stdin.buffer)
out = sys.stdout.buffer
def answer(message):
    pickle.dump(message, out, protocol=pickle.HIGHEST_PROTOCOL)
    out.flush()
try:
    if memory:
        try:
            import resource
            hard = resource.getrlimit(resource.RLIMIT_AS)[1]
            resource.setrlimit(resource.RLIMIT_AS, (memory if hard == resource.RLIM_INFINITY else min(memory, hard),
                                                    hard))
        except (ImportError, ValueError, OSError):
            pass
    module, name = target.split(":")
    function = getattr(__import__(module, fromlist=[name]), name)
    answer(("ok", function(argument)))
except MemoryError:
    answer(("memory",))
except BaseException as exc:
    # Under RLIMIT_AS a library that cannot be mapped, or memory the system refused, is the limit too; so is
    # CPython's 'error return without exception set' ('... returned NULL without setting an exception'), which
    # an allocation that failed while a module was being imported gives (pypdf under 64 MB), and a thread whose
    # stack could not be mapped ('can't start new thread': the reader threads of a pdftotext the review starts).
    if memory and ((isinstance(exc, OSError) and exc.errno == 12) or (
            isinstance(exc, RuntimeError) and "can't start new thread" in str(exc)) or (
            isinstance(exc, ImportError) and any(
            words in str(exc) for words in ("failed to map segment", "Cannot allocate memory"))) or (
            isinstance(exc, SystemError) and any(
                words in str(exc) for words in ("without exception set", "without setting an exception")))):
        answer(("memory",))
    else:
        hint = getattr(exc, "hint", None)
        answer(("error", type(exc).__name__, str(getattr(exc, "message", exc)),
                hint if isinstance(hint, str) else None))
"""


class Plain(pickle.Unpickler):
    """Reads plain values only: never a class or a function (so never code)."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refusing an object of {module}.{name}: only plain values are read here")


class LimitExceeded(Exception):
    """The function ran past its time (``kind`` 'time') or needed more memory than allowed ('memory')."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class ChildFailed(Exception):
    """The function raised: the name of its exception, its message and hint (a ``RegistryError``'s, where it was)."""

    def __init__(self, error_type: str, message: str, hint: str | None = None) -> None:
        super().__init__(f"{error_type}: {message}")
        self.error_type = error_type
        self.message = message
        self.hint = hint


#: Where the child leads a process group of its own, so that what it starts (a ``pdftotext``) is killed with it.
_POSIX = os.name == "posix"


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the child and every process it started (its process group), if any still runs."""
    if _POSIX:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    elif process.poll() is None:
        process.kill()


def run_limited(target: str, argument: Any, *, timeout: float, memory_mb: int | None) -> Any:
    """``module:function`` called with ``argument`` in a child process; what it returned (plain data).

    ``LimitExceeded`` when it runs longer than ``timeout`` seconds (it is killed) or needs more than
    ``memory_mb`` megabytes; ``ChildFailed`` when it raises.
    """
    memory = (memory_mb << 20) if memory_mb else 0
    request = (pickle.dumps([str(entry) for entry in sys.path], protocol=pickle.HIGHEST_PROTOCOL)
               + pickle.dumps((target, argument, memory), protocol=pickle.HIGHEST_PROTOCOL))
    process = subprocess.Popen([sys.executable, "-c", _BOOT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, start_new_session=_POSIX)
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        _kill(process)

    timer = threading.Timer(timeout, kill)
    timer.daemon = True
    timer.start()
    try:
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(request)
            process.stdin.close()
        except BrokenPipeError:
            pass  # it ended already; its answer (or none) says why
        try:
            answer = Plain(process.stdout).load()
        except pickle.UnpicklingError as exc:  # an answer, but not of plain values: a bug of the function's
            raise ChildFailed("UnpicklingError", f"the worker process answered with more than plain values: "
                              f"{exc}") from None
        except (EOFError, OSError):
            process.wait()
            if killed.is_set():
                raise LimitExceeded("time") from None
            if memory and process.returncode in (-6, -9, -11):  # killed for memory it could not get
                raise LimitExceeded("memory") from None
            raise ChildFailed("ProcessEnded", f"the worker process ended without an answer (exit status "
                              f"{process.returncode})") from None
    finally:
        timer.cancel()
        _kill(process)
        process.wait()
        if process.stdout is not None:
            process.stdout.close()
    if answer[0] == "ok":
        return answer[1]
    if answer[0] == "memory":
        raise LimitExceeded("memory")
    raise ChildFailed(*answer[1:])
