"""This user's secret key for the cache's MACs, and the MACs made with it.

Whatever the caches keep (the parse cache's entries and rows, the kept report, the incremental index) is
believed only if this user's machine wrote it: each carries a MAC under a key of this user's own, kept
outside the cache folder, so that a cache folder copied from elsewhere (a shared CI cache) or rows planted
in it fail their check. The key and the MAC are one concern apart from what is stored and where: the format
(``registry.store.cacheformat``) and the store (``registry.store.cache``) both use them.
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat
from pathlib import Path
from typing import Any

from registry.store.private import UnsafeFolder, create_new, open_regular, own_folder, temporary_name

#: Bytes of a MAC, and of the key.
MAC_BYTES = 16
KEY_BYTES = 32


def mac(subject: bytes, body: bytes | memoryview) -> bytes:
    """Keyed BLAKE2b: a MAC by its design (no HMAC construction needed), and the fastest one hashlib has. The
    body is hashed where it lies, not joined to the subject first (an incremental index can be 100 MB)."""
    check = mac_hasher(subject)
    check.update(body)
    return check.digest()


def mac_hasher(subject: bytes) -> Any:
    """``mac``'s hash before the body is fed to it, a piece at a time as it is written (``write_encoded``)."""
    return hashlib.blake2b(subject, key=cache_key(), digest_size=MAC_BYTES)


def key_file() -> Path:
    """``$XDG_STATE_HOME/registry/cache.key`` (``~/.local/state/registry/cache.key`` where it is not set): outside
    the cache folder, so that a cache folder copied or shared elsewhere does not carry the key to its entries."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "registry" / "cache.key"


def cache_key() -> bytes:
    """This user's key for the cache's MACs (made once, random); a key of this process alone where none can be
    kept (then ``registry.store.cache.ParseCache.open`` uses no store, since nothing written could be checked by a
    later run)."""
    return _key_for(os.environ.get("XDG_STATE_HOME"), os.environ.get("HOME"))


@functools.cache
def _key_for(_state_home: str | None, _home: str | None) -> bytes:
    """The key of the key file these variables name (cached: asked for once per entry read)."""
    return _key_at(str(key_file()))


@functools.cache
def _key_at(path: str) -> bytes:
    key = _read_key(path)
    if key is not None:
        return key
    try:
        own_folder(Path(path).parent)
        temporary = temporary_name(Path(path))
        descriptor = create_new(temporary)
        try:
            os.write(descriptor, os.urandom(KEY_BYTES))
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        try:
            os.link(temporary, path)  # never replaces a key another run made meanwhile
        except FileExistsError:
            pass
        finally:
            os.unlink(temporary)
    except OSError:
        pass
    return _read_key(path) or _EPHEMERAL_KEY


def key_is_kept() -> bool:
    """Whether this user's key is kept in its file (so a later run can check what this one writes)."""
    return cache_key() is not _EPHEMERAL_KEY


_EPHEMERAL_KEY = os.urandom(KEY_BYTES)


def key_refusal() -> UnsafeFolder | None:
    """Why this user's key file (or its folder) is refused, if it is: a folder another user can write, or a key
    someone else could read or has written (not 0600, or not this user's). None: it is sound, or not made yet."""
    path = key_file()
    try:
        own_folder(path.parent, make=False)
        status = os.lstat(path)
    except UnsafeFolder as exc:
        return exc
    except OSError:
        return None
    if not _sound(status):
        return UnsafeFolder(path, f"is not a file only you can read and write (mode {stat.S_IMODE(status.st_mode):04o}"
                                  f", owner uid {status.st_uid}): remove it, and a new key is made")
    return None


def _sound(status: os.stat_result) -> bool:
    """A key file's status as this user's own key has it: a regular file of this user's, 0600, holding a key."""
    return (stat.S_ISREG(status.st_mode) and status.st_size == KEY_BYTES and not status.st_mode & 0o077
            and (not hasattr(os, "getuid") or status.st_uid == os.getuid()))


def _read_key(path: str) -> bytes | None:
    """The key in ``path``, if it is a regular file (not a link) of this user, 0600, holding exactly a key, in a
    folder only this user can write."""
    try:
        own_folder(Path(path).parent, make=False)
        descriptor = open_regular(path)
    except OSError:
        return None
    try:
        if not _sound(os.fstat(descriptor)):
            return None
        key = os.read(descriptor, KEY_BYTES + 1)
        return key if len(key) == KEY_BYTES else None
    finally:
        os.close(descriptor)
