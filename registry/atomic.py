"""Writing files and folders so that a failure part-way never leaves half of one in place."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from registry.yamlio import current_umask, sync_folder


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, fsync it, then rename it over ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        os.fchmod(fd, 0o666 & ~current_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
        sync_folder(path.parent)
    finally:
        tmp.unlink(missing_ok=True)


def new_folder_beside(out: Path) -> Path:
    """An empty hidden folder beside ``out``, to fill and then swap in with ``replace_folder``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    os.chmod(tmp, 0o777 & ~current_umask())
    return tmp


def replace_folder(tmp: Path, out: Path) -> None:
    """Put the complete folder ``tmp`` at ``out``; a folder already there is moved aside, then removed.

    Both renames are within one parent folder, so each is atomic: ``out`` holds either the old
    folder or the new one, never a mixture (for an instant between the two renames, nothing).
    """
    old: Path | None = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".old", dir=out.parent))
        os.rmdir(old)
        os.replace(out, old)
    try:
        os.replace(tmp, out)
    except OSError:
        if old is not None:
            os.replace(old, out)  # put the previous folder back
        raise
    sync_folder(out.parent)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
