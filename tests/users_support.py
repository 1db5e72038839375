"""Other local users for the cross-user tests: made with ``useradd`` where the tests run as root (CI does; ``.ci/run``
makes them first), and commands run as them with ``setpriv``.

A user made here has no home and no shell. Where the tests do not run as root, or the system cannot make users,
the tests that need one are skipped with the reason, unless ``REGISTRY_REQUIRE_USERS`` is set (CI): then they fail.
A test that runs this project's code as another user is skipped where that user cannot read the project or its
libraries (a checkout in a folder only its owner can open).
"""

from __future__ import annotations

import os
import pwd
import shutil
import site
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The users the tests run commands as: one plays the user, the other another user of the same machine.
NAMES = ("registry-a", "registry-b")


@dataclass(frozen=True)
class User:
    name: str
    uid: int
    gid: int


def _unavailable(reason: str) -> None:
    if os.environ.get("REGISTRY_REQUIRE_USERS"):
        pytest.fail(f"REGISTRY_REQUIRE_USERS is set, but {reason}")
    pytest.skip(reason)


def user(name: str) -> User:
    """The local user ``name``, made (no home, no shell) where missing; skips where none can be made."""
    try:
        found = pwd.getpwnam(name)
    except KeyError:
        if os.getuid() != 0 or shutil.which("useradd") is None:
            _unavailable(f"the cross-user tests need the user {name}, which only root can make (useradd)")
        made = subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
                              capture_output=True, text=True, check=False)
        if made.returncode not in (0, 9):  # 9: made meanwhile by another run
            _unavailable(f"useradd {name} failed: {made.stderr.strip()}")
        found = pwd.getpwnam(name)
    if os.getuid() != 0:
        _unavailable("the cross-user tests run commands as other users, which needs root (CI runs as root)")
    return User(name, found.pw_uid, found.pw_gid)


def given_to(path: Path, owner: User, mode: int | None = None) -> Path:
    """``path`` (and everything below it) made ``owner``'s, and its mode set where given."""
    for folder, folders, files in os.walk(path):
        for name in [*folders, *files]:
            os.lchown(os.path.join(folder, name), owner.uid, owner.gid)
    os.lchown(path, owner.uid, owner.gid)
    if mode is not None:
        os.chmod(path, mode)
    return path


def python_for(owner: User) -> list[str]:
    """An interpreter ``owner`` can run, with this project and its libraries on the path: this one where they can
    reach it, else the system's Python of the same version with this one's libraries."""
    for python in (sys.executable, shutil.which(f"python{sys.version_info[0]}.{sys.version_info[1]}")):
        if python and subprocess.run(["setpriv", f"--reuid={owner.uid}", f"--regid={owner.gid}", "--clear-groups",
                                      python, "-c", "import pydantic, yaml"], capture_output=True, check=False,
                                     env=_env(owner, {})).returncode == 0:
            return [python]
    pytest.skip(f"no Python that {owner.name} can run with this project and its libraries (they lie in a folder "
                "only their owner can open): check out the project where other users can read it")
    return []


def _env(owner: User, extra: dict[str, str]) -> dict[str, str]:
    paths = [str(ROOT), *site.getsitepackages()]
    keep = {name: os.environ[name] for name in ("PATH", "LANG", "LC_ALL", "TZ") if name in os.environ}
    return {**keep, "PYTHONPATH": os.pathsep.join(paths), "COLUMNS": "200", **extra}


def command_as(owner: User, args: list[str], env: dict[str, str]) -> list[str]:
    """The command line that runs ``python args`` as ``owner`` (with ``env`` as its environment: see ``env_as``)."""
    if shutil.which("setpriv") is None:
        _unavailable("setpriv (util-linux) is needed to run a command as another user")
    return ["setpriv", f"--reuid={owner.uid}", f"--regid={owner.gid}", "--clear-groups", *python_for(owner), *args]


def env_as(owner: User, home: Path, **extra: str) -> dict[str, str]:
    """An environment for ``owner`` whose home, cache and state folders are under ``home``."""
    return _env(owner, {"HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"),
                        "XDG_STATE_HOME": str(home / "state"), **extra})


def run_as(owner: User, args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command_as(owner, args, env), cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
