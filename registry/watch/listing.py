"""The record files under a folder, kept current from the kernel's journal instead of a walk of the whole tree.

``Listing.folders()`` is, at every moment, what ``memo.tree_state`` would list (``incremental.files.walk``): one
``memo.Folder`` per folder that holds record files, with each file's size, times and inode. A walk ``stat``s every
file (about a second for 295,100 files on this project's machine); the listing ``stat``s again only the entries the
kernel said changed, and the few it cannot vouch for:

- a link (its target may change where no watch sees it): its status is zeros in the listing, as the walk gives it,
  and whether it still leads to a file is looked at on every call;
- a file with other hard links (a write through a name in another folder tells no watch of this one).

A change the kernel did not queue (its queue overflowed; a watched folder moved or went away) lists that part of
the tree again from scratch, and so does a change of a folder's own status (``chmod 000 records/dataset``: what a
walk can list below it changes with its permissions). Writes through a memory map and changes made on another
machine of a network file system are not reported by inotify: ``registry validate --verify`` reads every file
(docs/watcher-and-caches.md).
"""

from __future__ import annotations

import bisect
import os
import stat
import struct
from pathlib import Path

from registry.store.filetypes import RECORD_SUFFIXES
from registry.validate.memo import STATUS, Folder
from registry.watch.inotify import GONE, IN_IGNORED, IN_ISDIR, IN_Q_OVERFLOW, Inotify

Parts = tuple[str, ...]
_ZEROS = bytes(STATUS.size)
_INODE = struct.Struct("<q")


class Listing:
    """The record files under ``root``, kept current by ``sync`` from the events of one inotify queue."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.queue = Inotify()
        self._watched: dict[int, Parts] = {}
        self._folders: dict[Parts, Folder] = {}
        #: Per folder, the names the kernel said changed since the last ``sync``.
        self._dirty: dict[Parts, set[str]] = {}
        #: Per folder, the names looked at on every ``sync`` (links, and entries with other hard links), with the
        #: inode and number of names each had when last looked at (a link: none).
        self._shaky: dict[Parts, dict[str, tuple[bytes, int]]] = {}
        #: Folders (with all below them) to list again from scratch.
        self._again: set[Parts] = {()}
        #: The files (by inode) whose other names must be looked at again in this call, with the names that said so.
        self._peers_of: dict[bytes, set[tuple[Parts, str]]] = {}
        self.events = 0
        self.sync()

    def fileno(self) -> int:
        return self.queue.fd

    def note(self) -> None:
        """Take the events queued now (a busy folder must not fill the kernel's queue between two calls)."""
        for event in self.queue.read():
            self.events += 1
            if event.mask & IN_Q_OVERFLOW:
                self._again.add(())
                continue
            parts = self._watched.get(event.wd)
            if parts is None:
                continue
            if event.mask & GONE:
                if event.mask & IN_IGNORED:
                    del self._watched[event.wd]
                self._again.add(parts)
            elif not event.name:  # the watched folder's own status (its permissions: what can be listed below)
                self._again.add(parts)
            elif event.mask & IN_ISDIR:  # a folder made, moved or removed, or its permissions changed
                self._again.add((*parts, event.name))
            else:
                self._dirty.setdefault(parts, set()).add(event.name)

    def sync(self) -> list[Folder]:
        """The record files now, as ``memo.tree_state`` would list them.

        Every change made before this call is in the kernel's queue when it starts (inotify queues an event in the
        system call that makes the change), so the listing is exact as of the call."""
        self.note()
        if () not in self._watched.values():
            self._again.add(())  # the records folder was gone (or not a folder) when last looked for
        looked = False
        while self._again or self._dirty or not looked:
            again, self._again = _outermost(self._again), set()
            for parts in again:
                self._forget(parts)
                self._scan(parts)
            watched = set(self._watched.values())
            for parts in set(self._dirty) | (set() if looked else set(self._shaky)):
                names = self._dirty.pop(parts, set()) | set(self._shaky.get(parts, {}))
                if parts in watched:
                    self._restat(parts, names)
            self._look_at_peers()
            looked = True
        return list(self._folders.values())

    def close(self) -> None:
        self.queue.close()

    # -- listing from scratch ----------------------------------------------------------------------

    def _path(self, parts: Parts) -> str:
        return os.path.join(str(self.root), *parts) if parts else str(self.root)

    def _forget(self, parts: Parts) -> None:
        """Drop what is known of the folder ``parts`` and every folder below it, and their watches."""
        def below(other: Parts) -> bool:
            return other[:len(parts)] == parts

        for wd, watched in list(self._watched.items()):
            if below(watched):
                self.queue.remove(wd)
                del self._watched[wd]
        for table in (self._folders, self._dirty, self._shaky):
            for other in [other for other in table if below(other)]:
                del table[other]

    def _scan(self, parts: Parts) -> None:
        """List the folder ``parts`` and every record folder below it, watching each before listing it (a change
        made while it is listed is then queued, and looked at by the next call)."""
        pending = [parts]
        while pending:
            folder = pending.pop()
            path = self._path(folder)
            if folder:
                try:
                    if not stat.S_ISDIR(os.lstat(path).st_mode) or any(p.startswith(".") for p in folder):
                        continue  # not a record folder (``tree_state``: a link is not followed; hidden is not one)
                except OSError:
                    continue
            try:
                wd = self.queue.add(path, follow=not folder)
            except (NotADirectoryError, FileNotFoundError, PermissionError):
                continue
            self._watched[wd] = folder
            try:
                with os.scandir(path) as entries:
                    names = sorted(entry.name for entry in entries)
            except OSError:
                continue  # ``tree_state`` lists nothing of a folder it cannot list
            files = []
            for name in names:
                kind = self._look(folder, path, name)
                if kind == "folder":
                    pending.append((*folder, name))
                elif isinstance(kind, bytes):
                    files.append((name, kind))
            if files:
                self._folders[folder] = Folder(folder, path, [name for name, _ in files],
                                               b"".join(packed for _, packed in files))

    # -- listing again what changed ----------------------------------------------------------------

    def _restat(self, parts: Parts, names: set[str]) -> None:
        """Look again at ``names`` of the folder ``parts`` and update its listing."""
        path = self._path(parts)
        kept = self._folders.get(parts)
        listed = list(kept.names) if kept is not None else []
        status = bytearray(kept.status) if kept is not None else bytearray()
        for name in sorted(names):
            kind = self._look(parts, path, name)
            if kind == "folder":
                self._again.add((*parts, name))  # seen before its event was read: listed in this call
            at = bisect.bisect_left(listed, name)
            there = at < len(listed) and listed[at] == name
            if not isinstance(kind, bytes):
                if there:
                    del listed[at]
                    del status[32 * at:32 * at + 32]
            elif there:
                status[32 * at:32 * at + 32] = kind
            else:
                listed.insert(at, name)
                status[32 * at:32 * at] = kind
        if listed:
            self._folders[parts] = Folder(parts, path, listed, bytes(status))
        else:
            self._folders.pop(parts, None)

    def _look(self, parts: Parts, path: str, name: str) -> bytes | str | None:
        """What the entry ``name`` of the folder ``parts`` is to the listing: "folder" (a record folder to list), a
        record file's status (zeros for a link, as the walk gives it), or None (anything else, or gone).

        An entry with other hard links, record file or not, is looked at on every call (a write through another
        name tells no watch of this folder); where its number of names changed, so did its other names' change
        time: they are looked at again in this call (``_peers``)."""
        shaky = self._shaky.setdefault(parts, {})
        was = shaky.pop(name, None)
        full = os.path.join(path, name)
        try:
            found = os.lstat(full)
        except OSError:
            found = None
        if found is None or stat.S_ISDIR(found.st_mode):
            if was is not None and was[0]:
                self._peers(was[0], (parts, name))
            if not shaky:
                del self._shaky[parts]
            return None if found is None or name.startswith(".") else "folder"
        hidden = name.startswith(".")
        linked = stat.S_ISLNK(found.st_mode)
        now = (b"", 0) if linked else (_INODE.pack(found.st_ino), found.st_nlink)
        if linked or found.st_nlink > 1:
            shaky[name] = now
        if was is not None and was != now:
            for inode in {was[0], now[0]} - {b""}:
                self._peers(inode, (parts, name))
        elif was is None and now[1] > 1:
            self._peers(now[0], (parts, name))
        if not shaky:
            del self._shaky[parts]
        if hidden or not name.endswith(RECORD_SUFFIXES):
            return None
        if stat.S_ISREG(found.st_mode):
            return STATUS.pack(found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino)
        if linked and os.path.isfile(full):
            return _ZEROS
        return None

    def _peers(self, inode: bytes, seen: tuple[Parts, str]) -> None:
        """Look again, in this call, at every other listed record file that is the file ``inode``: noted here, and
        found for all such files at once (``_look_at_peers``): a folder of files that all have other names (a copy
        made with hard links) would otherwise cost one pass over every listed file per file."""
        self._peers_of.setdefault(inode, set()).add(seen)

    def _look_at_peers(self) -> None:
        """Mark to be looked at again the listed record files that are the files noted by ``_peers``, but for
        the names they were noted from: one pass over the listed files' inodes."""
        wanted, self._peers_of = self._peers_of, {}
        if not wanted:
            return
        for parts, folder in self._folders.items():
            status = folder.status
            for at, name in enumerate(folder.names):
                seen = wanted.get(status[32 * at + 24:32 * at + 32])
                if seen is not None and (parts, name) not in seen:
                    self._dirty.setdefault(parts, set()).add(name)


def _outermost(folders: set[Parts]) -> list[Parts]:
    """``folders`` without those below another of them."""
    kept: list[Parts] = []
    for parts in sorted(folders, key=len):
        if not any(parts[:len(other)] == other for other in kept):
            kept.append(parts)
    return kept
