"""Where the watcher of a records folder listens, who may talk to it, and what its requests and answers hold.

One socket per records folder *as named and from where the command runs* (reported paths are relative to both, as
for the kept report: ``memo.entry_path``), per cache (the index it keeps lives there) and per code version (a
watcher started before the code changed answers nothing: ``registry validate`` then runs as it would without one).

The socket lives in a folder only its user can open: ``$XDG_RUNTIME_DIR/registry`` where the system gives the user
such a folder (its own, 0700), else ``registry/watch`` under the user's state folder (``$XDG_STATE_HOME``,
``~/.local/state``), made 0700. Both sides check that folder as they use it (``folder``: this user's, 0700, not a
link; the check is made on the descriptor the socket is then reached through, ``/proc/self/fd/N/<name>``, so that
the folder checked is the folder used, and a long path needs no short name), and each checks the other end's
credentials (``SO_PEERCRED``): another local user can neither answer for a user's watcher nor ask it.

Every read and write has a time limit (``IO_TIMEOUT_S``; a watcher at work sends an empty line every
``HEARTBEAT_S`` so that the client waits for a long run and not for a stopped watcher), and a request is bounded
(``MAX_REQUEST_BYTES`` of line, no attachment, ``MAX_DEPTH`` of nesting): anything else is ``Malformed``.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import socket
import stat
import struct
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: Bump when requests or answers change meaning.
PROTOCOL = 3
#: The longest answer line read (a report of a large, broken registry can be long), and attached part.
MAX_MESSAGE_BYTES = 1 << 30
#: The longest request line the watcher reads (a request is an operation, a moment and a folder's identity).
MAX_REQUEST_BYTES = 64 << 10
#: The deepest nesting of brackets a request may hold (a request is one flat object).
MAX_DEPTH = 4
#: How long a read or a write may wait for the other side, in seconds; a whole request must come within it.
IO_TIMEOUT_S = 10.0
#: How often a watcher at work says so (an empty line), in seconds: well within the client's ``IO_TIMEOUT_S``.
HEARTBEAT_S = 2.0
#: How long a client waits to connect.
CONNECT_TIMEOUT_S = 2.0
#: The credentials a Unix socket reports of its other end (pid, uid, gid).
_CREDENTIALS = struct.Struct("3i")


class Malformed(ValueError):
    """A request or answer that is not one: too long, too deep, cut short, slow, or not what the protocol says."""


class NotOurs(PermissionError):
    """The socket's folder or the other end is not this user's alone: nothing is sent or answered."""


def socket_path(root: Path) -> Path:
    """The socket of the watcher of ``root`` (it need not exist)."""
    from registry.store.cache import cache_folder
    from registry.validate.memo import code_version

    where = "\0".join((os.path.realpath(root), str(root), os.getcwd(), str(cache_folder()), code_version(),
                       str(PROTOCOL)))
    name = hashlib.blake2b(where.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
    return _folder() / f"{name}.sock"


def _folder() -> Path:
    """``$XDG_RUNTIME_DIR/registry`` where that folder is this user's alone, else ``<state folder>/registry/watch``."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(runtime):
        try:
            found = os.lstat(runtime)
            if stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() and not found.st_mode & 0o077:
                return Path(runtime) / "registry"
        except OSError:
            pass
    from registry.store.cachekey import key_file

    return key_file().parent / "watch"


def lock_path(path: Path) -> Path:
    """The file a watcher locks while it answers at the socket ``path`` (never removed: removing a lock file lets two
    processes hold locks on two files of one name)."""
    return path.with_suffix(".lock")


def wait_released(path: Path, seconds: float) -> bool:
    """Wait until no watcher holds the lock of the socket ``path`` (its process has ended); whether none does."""
    import fcntl

    try:
        with reached(path):
            held = os.open(lock_path(path), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return True
    try:
        deadline = time.monotonic() + seconds
        while True:
            try:
                fcntl.flock(held, fcntl.LOCK_SH | fcntl.LOCK_NB)
                return True
            except OSError:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.05)
    finally:
        os.close(held)


def private_folder() -> Path:
    """The sockets' folder, made if missing (0700), and refused (``UnsafeFolder``) unless it is this user's alone:
    another user could otherwise answer for the watcher, or ask it."""
    from registry.store.private import OTHERS_ANY, own_folder

    return own_folder(_folder(), closed=OTHERS_ANY)


@contextmanager
def reached(path: Path) -> Iterator[str]:
    """The name to bind or connect ``path`` by: through a descriptor of its folder, checked (``NotOurs``) to be a
    folder of this user's that no one else can open; FileNotFoundError where the folder is missing."""
    try:
        folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except NotADirectoryError as exc:
        raise NotOurs(f"{path.parent} is not a folder") from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a link
            raise NotOurs(f"{path.parent} is a link, not a folder") from exc
        raise
    try:
        found = os.fstat(folder)
        if found.st_uid != os.getuid() or found.st_mode & 0o077:
            raise NotOurs(f"{path.parent} is not a folder only you can open (owner uid {found.st_uid}, mode "
                          f"{stat.S_IMODE(found.st_mode):04o})")
        via = f"/proc/self/fd/{folder}/{path.name}"
        yield via if os.path.isdir(f"/proc/self/fd/{folder}") else str(path)
    finally:
        os.close(folder)


def check_peer(connection: socket.socket) -> None:
    """``NotOurs`` unless the other end of ``connection`` runs as this user."""
    try:
        _, uid, _ = _CREDENTIALS.unpack(connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                              _CREDENTIALS.size))
    except (OSError, AttributeError) as exc:  # no SO_PEERCRED here: nothing vouches for the other end
        raise NotOurs("the other end's credentials cannot be read") from exc
    if uid != os.getuid():
        raise NotOurs(f"the other end runs as another user (uid {uid})")


#: A message's bytes sent after its line, as they are (no JSON, no copy): the line gives their lengths under this key,
#: and the message read back holds them there.
ATTACHED = "attached"


def send(connection: Any, message: dict[str, Any]) -> None:
    """One message: a line of JSON, then the bytes it has under ``ATTACHED``, if any (an answer listing 295,100
    files holds tens of megabytes: written as they are, not as text in the line)."""
    attached = message.get(ATTACHED, ())
    line = json.dumps({**message, ATTACHED: [len(part) for part in attached]} if attached else message)
    connection.sendall(line.encode("utf-8"))
    connection.sendall(b"\n")
    for part in attached:
        connection.sendall(part)


def receive(connection: Any) -> dict[str, Any] | None:
    """One answer (None: the other side closed the connection before a whole one came, sent no message, or let
    ``IO_TIMEOUT_S`` pass without a byte). Empty lines before it (a watcher at work: ``HEARTBEAT_S``) are passed."""
    try:
        with connection.makefile("rb") as reader:
            line = b"\n"
            while line == b"\n":
                line = reader.readline(MAX_MESSAGE_BYTES + 1)
            message = _parsed(line, MAX_MESSAGE_BYTES)
            sizes = message.get(ATTACHED)
            if sizes is None:
                return message
            if not isinstance(sizes, list) or not all(type(n) is int and 0 <= n <= MAX_MESSAGE_BYTES
                                                      for n in sizes):
                return None
            parts = [reader.read(size) for size in sizes]
            if [len(part) for part in parts] != sizes:
                return None
            message[ATTACHED] = parts
            return message
    except (Malformed, TimeoutError):
        return None


def receive_request(connection: socket.socket) -> dict[str, Any]:
    """One request, read within ``IO_TIMEOUT_S`` in all (a client sending a byte a second is cut off like a silent
    one) and bounded (``MAX_REQUEST_BYTES``, ``MAX_DEPTH``, no attachment); ``Malformed`` otherwise."""
    deadline = time.monotonic() + IO_TIMEOUT_S
    line = bytearray()
    while b"\n" not in line:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Malformed(f"no whole request within {IO_TIMEOUT_S:.0f} s")
        connection.settimeout(left)
        try:
            chunk = connection.recv(min(65_536, MAX_REQUEST_BYTES + 1 - len(line)))
        except TimeoutError:
            raise Malformed(f"no whole request within {IO_TIMEOUT_S:.0f} s") from None
        if not chunk:
            raise Malformed("the request was cut short")
        line += chunk
        if len(line) > MAX_REQUEST_BYTES and b"\n" not in line:
            raise Malformed(f"a request longer than {MAX_REQUEST_BYTES:,} bytes")
    connection.settimeout(IO_TIMEOUT_S)
    message = _parsed(bytes(line[:line.index(b"\n") + 1]), MAX_REQUEST_BYTES, MAX_DEPTH)
    if ATTACHED in message:
        raise Malformed("a request with attached bytes")
    return message


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(rb"[\[\]{}]")


def _parsed(line: bytes, limit: int, max_depth: int | None = None) -> dict[str, Any]:
    """The JSON object of one line; ``Malformed`` where it is none, is longer than ``limit`` or nests deeper than
    ``MAX_DEPTH`` (only a request is held to that: an answer's issues nest three deep)."""
    if not line.endswith(b"\n") or len(line) > limit + 1:
        raise Malformed("a message cut short or too long")
    if max_depth is not None:
        depth = deepest = 0
        for bracket in _BRACKET.findall(_STRING.sub(b"", line)):
            depth += 1 if bracket in b"[{" else -1
            deepest = max(deepest, depth)
            if deepest > max_depth:
                raise Malformed(f"a request nested deeper than {max_depth}")
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise Malformed(f"not JSON ({type(exc).__name__})") from None
    if not isinstance(message, dict):
        raise Malformed("not a JSON object")
    return message


def folders_message(folders: dict[str, tuple[str, bytes]]) -> dict[str, Any]:
    """The record files folder by folder (``registry.db.manifest.Folders``) as the watcher sends them: the folders
    in the line, and each one's names and digests attached as they are (no object per file, no text of them)."""
    return {"folders": list(folders), ATTACHED: [part for names, digests in folders.values()
                                                 for part in (names.encode("utf-8", "surrogatepass"), digests)]}


def folders_from(message: dict[str, Any]) -> dict[str, tuple[str, bytes]]:
    """``folders_message`` read back; ValueError where it is not one."""
    folders, parts = message["folders"], message[ATTACHED]
    if not isinstance(folders, list) or len(parts) != 2 * len(folders):
        raise ValueError("a listing of folders whose parts do not match its folders")
    return {folder: (parts[2 * at].decode("utf-8", "surrogatepass"), parts[2 * at + 1])
            for at, folder in enumerate(folders)}
