"""Where the watcher of a records folder listens, and what its requests and answers hold.

One socket per records folder *as named and from where the command runs* (reported paths are relative to both, as
for the kept report: ``memo.entry_path``), per cache (the index it keeps lives there) and per code version (a
watcher started before the code changed answers nothing: ``registry validate`` then runs as it would without one).
The socket lives in a folder only its user can open, under the system's temporary folder: a socket's path is
limited to about 100 bytes, which a cache folder's path may exceed.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

#: Bump when requests or answers change meaning.
PROTOCOL = 2
#: The longest request or answer line read (a report of a large, broken registry can be long).
MAX_MESSAGE_BYTES = 1 << 30


def socket_path(root: Path) -> Path:
    """The socket of the watcher of ``root`` (it need not exist)."""
    from registry.store.cache import cache_folder
    from registry.validate.memo import code_version

    where = "\0".join((os.path.realpath(root), str(root), os.getcwd(), str(cache_folder()), code_version(),
                       str(PROTOCOL)))
    name = hashlib.blake2b(where.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
    return _folder() / f"{name}.sock"


def _folder() -> Path:
    return Path(tempfile.gettempdir()) / f"registry-watch-{os.getuid()}"


def private_folder() -> Path:
    """The sockets' folder, made if missing, and refused unless it is this user's alone (another user could
    otherwise answer for the watcher)."""
    folder = _folder()
    folder.mkdir(mode=0o700, exist_ok=True)
    status = folder.lstat()
    if status.st_uid != os.getuid() or status.st_mode & 0o077 or not folder.is_dir() or folder.is_symlink():
        raise PermissionError(f"{folder} is not a folder only you can open: remove it and start again")
    return folder


def send(connection: Any, message: dict[str, Any]) -> None:
    """One message, a line of JSON (sent in two writes: an answer listing 295,100 files is tens of megabytes, and
    joining the line's end to it would copy it once more)."""
    connection.sendall(json.dumps(message).encode("utf-8"))
    connection.sendall(b"\n")


def receive(connection: Any) -> dict[str, Any] | None:
    """One message (None: the other side closed the connection before a whole one came)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = connection.recv(1 << 20)
        if not chunk:
            return None
        chunks.append(chunk)
        size += len(chunk)
        if chunk.endswith(b"\n"):
            break
        if size > MAX_MESSAGE_BYTES:
            return None
    message = json.loads(b"".join(chunks))
    return message if isinstance(message, dict) else None


def folders_message(folders: dict[str, tuple[str, bytes]]) -> dict[str, list[str]]:
    """The record files folder by folder (``registry.db.manifest.Folders``) as the watcher sends them: a few long
    strings, not one object per record."""
    return {folder: [names, digests.hex()] for folder, (names, digests) in folders.items()}


def folders_from(message: Any) -> dict[str, tuple[str, bytes]]:
    """``folders_message`` read back; ValueError where it is not one."""
    if not isinstance(message, dict):
        raise ValueError("not a listing of folders")
    folders = {}
    for folder, (names, digests) in message.items():
        if not isinstance(names, str) or not isinstance(digests, str):
            raise ValueError("a folder's files are not text")
        folders[folder] = (names, bytes.fromhex(digests))
    return folders
