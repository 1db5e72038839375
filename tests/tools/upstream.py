"""Owners' validators that cannot be installed beside this project, each in a throwaway venv of its own.

Every Eval Ever's package pins a ``huggingface_hub`` this project cannot share, and its release
declares Python 3.12 while its validator (pydantic models, ``validate_aggregate``) runs on 3.11: so
the pinned release is installed without its dependencies (which serve its converters and
uploaders), beside the three its validator imports. ``.ci/run`` makes the venv before the tests
(``REGISTRY_EEE_VENV``, with ``REGISTRY_REQUIRE_EEE=1`` so a venv that cannot be made fails CI);
elsewhere the first test that needs it makes it under ``.cache/``, and skips, with the reason,
only when it cannot be made (no package index reachable).
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

EEE_RELEASE = "every_eval_ever==0.3.0"
EEE_NEEDS = ("pydantic>=2", "rich", "requests")
ROOT = Path(__file__).resolve().parents[2]
EEE_VENV = Path(os.environ.get("REGISTRY_EEE_VENV", ROOT / ".cache" / "eee-venv-0.3.0"))
VALIDATE = Path(__file__).with_name("eee_validate.py")


def eee_python() -> Path:
    """The venv's python, made on first use; a skip (a failure under REGISTRY_REQUIRE_EEE) if it cannot be.

    Under a lock beside the venv: parallel test workers (pytest-xdist) that need it at once make it once."""
    EEE_VENV.parent.mkdir(parents=True, exist_ok=True)
    with open(EEE_VENV.with_name(EEE_VENV.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _made_venv_python()


def _made_venv_python() -> Path:
    python = EEE_VENV / "bin" / "python"
    probe = [str(python), "-c", "import every_eval_ever.validator.validation_core"]
    if python.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    steps = [[sys.executable, "-m", "venv", "--clear", str(EEE_VENV)],
             [str(python), "-m", "pip", "install", "-q", "--no-deps", "--ignore-requires-python", EEE_RELEASE],
             [str(python), "-m", "pip", "install", "-q", *EEE_NEEDS], probe]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            reason = (f"upstream's Every Eval Ever validator ({EEE_RELEASE}) could not be installed in a venv at "
                      f"{EEE_VENV}: {' '.join(step[-3:])} failed: {done.stderr.strip()[-400:]}")
            if os.environ.get("REGISTRY_REQUIRE_EEE"):
                pytest.fail(reason)
            pytest.skip(reason)
    return python


def validate_every_eval_ever(folder: Path) -> dict[str, Any]:
    """Each log's repository path under ``folder``, with upstream's errors and warnings for it."""
    done = subprocess.run([str(eee_python()), str(VALIDATE), str(folder)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    reports: dict[str, Any] = json.loads(done.stdout)
    return reports
