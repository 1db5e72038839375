"""Which files a build may replace: an empty file or a database a build wrote ('--out README.md' must not destroy a
README); any other file is left as it is, with a message that says so."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

from registry.errors import RegistryError


def is_registry_database(path: Path) -> bool:
    """Whether ``path`` is a SQLite database that a build wrote: it has ``registry_meta`` with a schema version."""
    try:
        connection = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    except (sqlite3.Error, OSError):
        return False
    try:
        row = connection.execute("SELECT value FROM registry_meta WHERE key = 'schema_version'").fetchone()
    except (sqlite3.Error, UnicodeDecodeError):  # a damaged file: SQLite's message about it may not be UTF-8
        return False
    finally:
        connection.close()
    return row is not None


def ensure_replaceable(out: Path) -> None:
    """Refuse to replace a file that is not a database built here: '--out README.md' must not destroy a README.

    A database from any earlier build may be replaced (that is what rebuilding is), and so may an
    empty file (it holds nothing to lose); any other file is left exactly as it is.
    """
    try:
        if not out.exists() or out.is_dir():
            return  # nothing there yet; a folder gets its own message
    except OSError:
        return  # the write itself will report what is wrong
    if not replaceable(out):
        raise not_replaceable(out)


def replaceable(path: Path) -> bool:
    """Whether a build may replace the file at ``path``: an empty file, or a database a build wrote."""
    try:
        info = path.stat()
    except OSError:
        return not path.is_symlink()  # gone meanwhile: nothing to lose (a dangling link is kept)
    return stat.S_ISREG(info.st_mode) and (info.st_size == 0 or is_registry_database(path))


def not_replaceable(out: Path, when: str = "") -> RegistryError:
    return RegistryError(
        f"{str(out)!r} {'was written ' + when + ' and ' if when else 'already exists and '}is not a database that "
        "'registry db build' wrote; it was left untouched",
        "choose another file for {out} (for example registry.db), or move that file away first",
    )

