"""Folders and files only this user can reach: the caches', the key's and the watcher's.

What the registry keeps outside the records folder (the parse cache, the kept report, the incremental index, the
cache's key, the watcher's socket) is believed because no one else could have written it. That holds only where no
one else can write the folder that holds it, nor any folder above it (a folder above that another user can write
lets them move ours aside and put theirs in its place), so each such folder is checked before it is used
(``own_folder``): it is a folder, not a link, this user's, and writable by no one else; each folder above it is
this user's or the system's, and writable by no one else unless it is sticky (``/tmp``: no one may move another's
entry). A folder that fails is ``UnsafeFolder``, which names it and says why: it is never used, never repaired.

Inside such a folder, each file is made new (``create_new``: ``O_CREAT|O_EXCL|O_NOFOLLOW``, under a random name: a
link or a file planted at the name ahead makes it fail, never written through) and read only where it is a regular
file (``open_regular``: ``O_NOFOLLOW|O_NONBLOCK``, then checked, so that a link is refused and a FIFO never blocks).
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

#: Mode bits that let someone other than the owner write (group and others).
OTHERS_WRITE = 0o022
#: Mode bits that let someone other than the owner in at all.
OTHERS_ANY = 0o077


class UnsafeFolder(PermissionError):
    """A folder the registry would keep something in that someone else can reach: ``path`` and ``reason``."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(errno.EACCES, f"{path} {reason}", str(path))
        self.path, self.reason = path, reason

    def __str__(self) -> str:
        return f"{self.path} {self.reason}"


def _uid() -> int:
    return os.getuid() if hasattr(os, "getuid") else 0


def own_folder(path: Path, *, closed: int = OTHERS_WRITE, make: bool = True) -> Path:
    """``path``, made (mode 0700, with the folders above it) where missing and ``make``; ``UnsafeFolder`` unless it
    is a folder (not a link) of this user's that no one else can write (``closed``: the mode bits that must be off;
    ``OTHERS_ANY`` for a folder no one else may even list), under folders no one else can rearrange."""
    if make:
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
        except FileExistsError:
            pass  # a link or a file there: said below
    me = _uid()
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        if make:
            raise
        _check_above(Path(os.path.abspath(path)).parent, me)  # where it would be made
        return path
    if stat.S_ISLNK(found.st_mode):
        raise UnsafeFolder(path, "is a link, not a folder: the registry keeps nothing through a link here")
    if not stat.S_ISDIR(found.st_mode):
        raise UnsafeFolder(path, "is not a folder")
    if found.st_uid != me:
        raise UnsafeFolder(path, f"belongs to another user (uid {found.st_uid}), not to you (uid {me})")
    if found.st_mode & closed:
        who = "others" if closed == OTHERS_ANY else "another user"
        raise UnsafeFolder(path, f"can be {'opened' if closed == OTHERS_ANY else 'written'} by {who} "
                                 f"(mode {stat.S_IMODE(found.st_mode):04o})")
    _check_above(Path(os.path.abspath(path)).parent, me)
    return path


def _check_above(folder: Path, me: int) -> None:
    """Each folder from ``folder`` up to the root: this user's or the system's, and writable by no one else but
    where sticky (``/tmp``) or writable only by this user's own group."""
    for above in (folder, *folder.parents):
        try:
            found = os.stat(above)  # a link above is followed as the system follows it: its target is checked
        except OSError:
            continue
        if found.st_uid not in (me, 0):
            raise UnsafeFolder(above, f"belongs to another user (uid {found.st_uid}), who could move what the "
                                      "registry keeps below it aside and put their own in its place")
        sticky = found.st_mode & stat.S_ISVTX
        own_group = found.st_gid == (os.getgid() if hasattr(os, "getgid") else 0)
        if not sticky and (found.st_mode & 0o002 or (found.st_mode & 0o020 and not own_group)):
            raise UnsafeFolder(above, f"can be written by another user (mode {stat.S_IMODE(found.st_mode):04o}), "
                                      "who could move what the registry keeps below it aside")


def temporary_name(target: Path) -> Path:
    """A hidden name beside ``target`` that no one can guess ahead (``create_new`` makes the file there)."""
    return target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")


def create_new(path: Path, mode: int = 0o600) -> int:
    """A descriptor of a new file at ``path``, opened for writing; fails (FileExistsError, or ELOOP for a link)
    where anything is there already: nothing planted at the name is ever written through."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)


class NotRegular(OSError):
    """A path to be read that is a link, a FIFO, a device or a folder, not a regular file."""


def open_regular(path: Path | str) -> int:
    """A descriptor reading the regular file at ``path``; ``NotRegular`` for a link or anything but a regular file,
    found without blocking (a FIFO opened for reading would wait for a writer: ``O_NONBLOCK`` opens it at once)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotRegular(errno.ELOOP, "is a link, not a file", str(path)) from exc
        raise
    try:
        found = os.fstat(descriptor)
        if not stat.S_ISREG(found.st_mode):
            raise NotRegular(errno.EINVAL, "is not a regular file", str(path))
        os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor
