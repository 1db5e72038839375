"""Linux's inotify, through the C library: the kernel's own journal of changes to watched folders.

Bound here with ``ctypes`` rather than taken from a file-watching library because the watcher's exactness rests on
two properties those libraries hide behind threads and debouncing: the kernel queues an event *within* the system
call that changes a file (so an event for every change made before a request arrives is already readable when the
request is answered: reading the queue until it is empty is a barrier), and it says when its queue overflowed
(``IN_Q_OVERFLOW``: then nothing is known and everything is listed again). Events name the folder's watch and the
entry's name; a watch is per folder, not per tree.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import os
import struct
import sys
from dataclasses import dataclass

IN_MODIFY = 0x00000002
IN_ATTRIB = 0x00000004
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_FROM = 0x00000040
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_DELETE_SELF = 0x00000400
IN_MOVE_SELF = 0x00000800
IN_UNMOUNT = 0x00002000
IN_Q_OVERFLOW = 0x00004000
IN_IGNORED = 0x00008000
IN_ONLYDIR = 0x01000000
IN_DONT_FOLLOW = 0x02000000
IN_ISDIR = 0x40000000
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000

#: What a folder's watch reports: anything that can change an entry's listing, content or status, and the folder
#: itself going away.
FOLDER_EVENTS = (IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
                 | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
#: Events after which a folder's watch no longer describes the folder under its old name.
GONE = IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED

_HEADER = struct.Struct("iIII")  # wd, mask, cookie, len (struct inotify_event)


@functools.cache
def libc() -> ctypes.CDLL:
    """The C library, errno kept (inotify's calls here; ``malloc_trim`` in ``registry.watcher``)."""
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


class Unavailable(OSError):
    """This system offers no inotify (not Linux), or a watch could not be set (too many folders watched)."""


@dataclass(frozen=True)
class Event:
    wd: int
    mask: int
    name: str


class Inotify:
    """One inotify queue, read without blocking."""

    def __init__(self) -> None:
        if not sys.platform.startswith("linux"):
            raise Unavailable(errno.ENOSYS, "watching folders needs Linux's inotify")
        self._libc = libc()
        self.fd = self._libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if self.fd < 0:
            number = ctypes.get_errno()
            raise Unavailable(number, f"inotify: {os.strerror(number)}")

    def add(self, path: str, *, follow: bool = False) -> int:
        """Watch the folder ``path`` (a link followed only with ``follow``); its watch descriptor."""
        mask = FOLDER_EVENTS | (0 if follow else IN_DONT_FOLLOW)
        wd = self._libc.inotify_add_watch(self.fd, os.fsencode(path), mask)
        if wd < 0:
            number = ctypes.get_errno()
            if number == errno.ENOSPC:
                raise Unavailable(number, "the system's limit on watched folders is reached "
                                          "(raise fs.inotify.max_user_watches)")
            raise OSError(number, os.strerror(number), path)  # ENOTDIR, ENOENT, EACCES: the OSError subclasses
        return int(wd)

    def remove(self, wd: int) -> None:
        self._libc.inotify_rm_watch(self.fd, wd)  # a watch already gone (its folder removed) is no error

    def read(self) -> list[Event]:
        """Every event queued now (none: an empty list)."""
        events: list[Event] = []
        while True:
            try:
                data = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                return events
            at = 0
            while at < len(data):
                wd, mask, _, size = _HEADER.unpack_from(data, at)
                at += _HEADER.size
                name = os.fsdecode(data[at:at + size].rstrip(b"\0"))
                at += size
                events.append(Event(wd, mask, name))

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
