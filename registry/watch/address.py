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
    """One message (None: the other side closed the connection before a whole one came, or sent no message)."""
    with connection.makefile("rb") as reader:
        line = reader.readline(MAX_MESSAGE_BYTES + 1)
        if not line.endswith(b"\n"):
            return None
        message = json.loads(line)
        if not isinstance(message, dict):
            return None
        sizes = message.get(ATTACHED)
        if sizes is None:
            return message
        if not isinstance(sizes, list) or not all(type(n) is int and 0 <= n <= MAX_MESSAGE_BYTES for n in sizes):
            return None
        parts = [reader.read(size) for size in sizes]
        if [len(part) for part in parts] != sizes:
            return None
        message[ATTACHED] = parts
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
