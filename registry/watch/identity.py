"""The records folder a watcher watches, as it was when it started (its path, device and inode, the file systems
mounted at or under it), and how the folder at that path differs now: a watcher stops rather than answer for
another folder."""

from __future__ import annotations

import os
import re
from pathlib import Path


class Identity:
    """The records folder a watcher watches, as it was when it started: its path, its device and inode (held
    open), and the file systems mounted at or under it. ``changed`` says how the folder at that path differs now."""

    def __init__(self, root: Path) -> None:
        self.cwd = os.getcwd()
        self.path = os.path.abspath(root)
        self.real = os.path.realpath(root)
        self._held = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        found = os.fstat(self._held)
        self.id = (found.st_dev, found.st_ino)
        self.mounts = mounts_at(self.real)

    def changed(self, asked: tuple[int, ...] | None = None) -> str | None:
        """Why the folder at the watched path (and ``asked``: the client's device and inode of it) is no longer
        the one watched, or None where it still is."""
        try:
            found = os.stat(self.path)
        except OSError as exc:
            return f"the records folder it watches is no longer at {self.path} ({exc.strerror})"
        if (found.st_dev, found.st_ino) != self.id:
            return f"{self.path} is no longer the folder it watches (moved away, or removed and made again)"
        if asked is not None and asked != self.id:
            return f"the folder asked about is not the one it watches at {self.path}"
        if mounts_at(self.real) != self.mounts:
            return f"a file system was mounted or unmounted at or under {self.path}"
        return None


def mounts_at(path: str) -> list[tuple[str, str]]:
    """(mount id, mount point) of the file system holding ``path`` and of each mounted at or under it (Linux:
    ``/proc/self/mountinfo``; none known elsewhere)."""
    try:
        with open("/proc/self/mountinfo", "rb") as file:
            lines = file.read().decode("utf-8", "surrogateescape").splitlines()
    except OSError:
        return []
    found, holding = [], ("", "")
    for line in lines:
        fields = line.split(" ")
        if len(fields) < 5:
            continue
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
        if point == path or point.startswith(path.rstrip("/") + "/"):
            found.append((fields[0], point))
        elif (path == point or path.startswith(point.rstrip("/") + "/")) and len(point) >= len(holding[1]):
            holding = (fields[0], point)
    return [holding, *found]
