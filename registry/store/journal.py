"""A batch's journal, read as data from an untrusted file.

The journal (``.registry-batch/journal.json``) tells recovery which files to remove or give back
their old text. A repository can carry that file, so whoever wrote it may be someone else: a
journal that names a file outside the records folder would have ``registry recover`` delete it.
So every journal is checked whole before anything acts on it: its shape (a located message for each
malformed part), every target a relative path of visible names that resolves inside the records
folder with no symbolic link on the way, every staged name one the batch writer makes. Files are
read only when they are regular files of at most the size a record file may have, opened without
following a link and without waiting on a pipe.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from registry.errors import RegistryError
from registry.store.loader import RECORD_SUFFIXES
from registry.store.yamlio import MAX_FILE_BYTES
from registry.textsafe import excerpt

JOURNAL = "journal.json"
JOURNAL_VERSION = 1
#: The largest journal read: a line of about 200 bytes per file, for batches far larger than an import makes.
MAX_JOURNAL_BYTES = 64 * 1024 * 1024
#: The names the batch writer gives staged files: a new text, and a link to the text it replaces.
STAGED_NAME = re.compile(r"\d{6}\.yaml")
OLD_NAME = re.compile(r"\d{6}\.old")
SHA256 = re.compile(r"[0-9a-f]{64}")


class JournalError(RegistryError):
    """A journal that this registry did not write (malformed, or naming files it may not touch): never acted on."""


@dataclass(frozen=True)
class Entry:
    """One file of a batch, as its journal names it, checked."""

    target: Path
    """Inside the records folder, reached with no symbolic link."""
    sha256: str
    old: str | None
    """The name, in the staging folder, of the link to the text the target held before (None: a new file)."""


@dataclass(frozen=True)
class Journal:
    started_at: str
    entries: list[Entry]


def read_journal(root: Path, staging: Path) -> Journal | None:
    """The checked journal of the batch staged in ``staging`` (None: it has none, so nothing was put in place).

    ``JournalError``, naming the journal and the part of it at fault, if it is not one the batch
    writer would have written.
    """
    check_staging(root, staging)
    path = staging / JOURNAL
    raw = read_regular(path, MAX_JOURNAL_BYTES)
    if raw is None:
        if os.path.lexists(path):
            raise _refused(path, "is not a regular file of at most "
                           f"{MAX_JOURNAL_BYTES:,} bytes (a link, a pipe, a device or a larger file)", staging)
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise _refused(path, f"is not JSON: {exc}", staging) from None
    if not isinstance(data, dict):
        raise _refused(path, f"holds a {type(data).__name__}, not the journal's mapping", staging)
    if data.get("version") != JOURNAL_VERSION:
        raise _refused(path, f"version: {excerpt(data.get('version'))} is not {JOURNAL_VERSION}", staging)
    started = data.get("started_at", "an unknown time")
    if not isinstance(started, str) or len(started) > 64:
        raise _refused(path, f"started_at: {excerpt(started)} is not a time", staging)
    files = data.get("files")
    if not isinstance(files, list):
        raise _refused(path, f"files: {excerpt(files)} is not a list", staging)
    entries: list[Entry] = []
    seen: set[Path] = set()
    for number, item in enumerate(files):
        entry = _entry(root, item, f"files[{number}]", path, staging)
        if entry.target in seen:
            raise _refused(path, f"files[{number}].target: names {entry.target} a second time", staging)
        seen.add(entry.target)
        entries.append(entry)
    return Journal(started, entries)


def check_staging(root: Path, staging: Path) -> None:
    """The staging folder must be a folder of the records folder itself, not a link to one elsewhere."""
    try:
        info = staging.lstat()
    except OSError:
        return
    if not stat.S_ISDIR(info.st_mode):
        raise JournalError(f"{staging} is not a folder (a link or another file); a batch stages its files in a "
                           "folder of that name, so nothing was undone",
                           f"look at what it is, then remove it by hand: rm {staging}", path=staging)


def _entry(root: Path, item: Any, where: str, path: Path, staging: Path) -> Entry:
    if not isinstance(item, dict):
        raise _refused(path, f"{where}: {excerpt(item)} is not a mapping with target, staged, sha256 and old", staging)
    for key in ("target", "staged", "sha256"):
        if not isinstance(item.get(key), str):
            raise _refused(path, f"{where}.{key}: {excerpt(item.get(key))} is not text", staging)
    if not STAGED_NAME.fullmatch(item["staged"]):
        raise _refused(path, f"{where}.staged: {excerpt(item['staged'])} is not a name the batch writer gives",
                       staging)
    if not SHA256.fullmatch(item["sha256"]):
        raise _refused(path, f"{where}.sha256: {excerpt(item['sha256'])} is not a SHA-256 in hex", staging)
    old = item.get("old")
    if old is not None and not (isinstance(old, str) and OLD_NAME.fullmatch(old)):
        raise _refused(path, f"{where}.old: {excerpt(old)} is not a name the batch writer gives", staging)
    problem = target_problem(root, item["target"])
    if problem is not None:
        raise _refused(path, f"{where}.target: {excerpt(item['target'])} {problem}", staging)
    return Entry(root / item["target"], item["sha256"], old)


def target_problem(root: Path, target: str) -> str | None:
    """Why ``target`` may not be a file a batch wrote (None: it is a record path inside ``root``)."""
    if "\x00" in target or not target or len(target) > 1024:
        return "is not a file name"
    relative = PurePosixPath(target)
    if relative.is_absolute() or target.startswith("\\") or ":" in relative.parts[0]:
        return "is an absolute path, and a journal names files inside the records folder only"
    if any(part in ("..", ".") or part.startswith(".") for part in relative.parts):
        return "leaves the records folder or names a hidden file ('..' or a name starting with '.')"
    if relative.suffix not in RECORD_SUFFIXES:
        return "is not a record file (<kind>/<id>.yaml)"
    base = root.resolve()
    if (base / relative).resolve() != base / relative:
        return "goes through a symbolic link, so it may lead out of the records folder"
    return None


def read_regular(path: Path, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes (None: it is not, or is unreadable).

    Opened without following a link and without blocking on a pipe, then checked by what was opened,
    so a device such as /dev/zero or a FIFO is never read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        handle = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(os.dup(handle), "rb") as reader:
            data = reader.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(handle)
    return data if len(data) <= limit else None


def _refused(path: Path, problem: str, staging: Path) -> JournalError:
    return JournalError(
        f"{path}: {problem}; this journal was not written by a batch of this registry (a copied or crafted file), "
        "so nothing was undone and no file was touched",
        f"look at the files it names, then remove the staging folder by hand: rm -r {staging}", path=path)
