"""Whether a SQLite database built by 'registry db build' still matches the record files.

The build names the records folder it read in ``registry_meta`` (``RECORDS_FOLDER_KEY``), lists
every record file in the ``record`` table and sets the database file's
modification time to when it began reading the records. A record file modified after that time
was edited since; a file the table does not list was added; a listed file that is gone was
removed. Folder times alone would miss a file edited in place, so every file's time is read:
one ``os.scandir`` walk and one ``stat`` per file, about a second for 300,000 files.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from registry.store.loader import scan_record_files

#: The ``registry_meta`` key under which a build names the records folder it read (an absolute path), so
#: that 'registry query' compares the database with that folder, not with whatever --records defaults to.
RECORDS_FOLDER_KEY = "records_folder"


@dataclass(frozen=True)
class RecordChanges:
    """How many record files were edited, added and removed after the build."""

    edited: int = 0
    added: int = 0
    removed: int = 0

    def __bool__(self) -> bool:
        return bool(self.edited or self.added or self.removed)

    def describe(self) -> str:
        """'2 edited, 1 added': the non-zero counts, for a message."""
        counts = (("edited", self.edited), ("added", self.added), ("removed", self.removed))
        return ", ".join(f"{count} {what}" for what, count in counts if count)


def record_changes(db: Path, records: Path) -> RecordChanges | None:
    """The record files under ``records`` changed after ``db`` was built; None when that cannot be told.

    It cannot be told when the database or the records folder is missing, or the file is not a
    database built here (no ``record`` table); the query itself reports a database problem.
    """
    try:
        built_ns = db.stat().st_mtime_ns
        if not records.is_dir():
            return None
    except OSError:
        return None
    listed = _listed_files(db)
    if listed is None:
        return None
    edited, added = _compare(records, listed, built_ns)
    return RecordChanges(edited, added, len(listed))


def built_from(db: Path) -> Path | None:
    """The records folder ``db`` was built from; None for a database built before builds said so, or no database."""
    try:
        connection = sqlite3.connect(db.resolve().as_uri() + "?mode=ro", uri=True)
    except (sqlite3.Error, OSError):
        return None
    try:
        row = connection.execute("SELECT value FROM registry_meta WHERE key = ?", (RECORDS_FOLDER_KEY,)).fetchone()
    except (sqlite3.Error, UnicodeDecodeError):
        return None
    finally:
        connection.close()
    return Path(row[0]) if row else None


def _listed_files(db: Path) -> set[str] | None:
    """The record files the database was built from, relative to the records folder (as the build wrote them)."""
    try:
        connection = sqlite3.connect(db.resolve().as_uri() + "?mode=ro", uri=True)
    except (sqlite3.Error, OSError):
        return None
    try:
        return {path for (path,) in connection.execute("SELECT path FROM record")}
    except (sqlite3.Error, UnicodeDecodeError):  # a damaged file: SQLite's message about it may not be UTF-8
        return None
    finally:
        connection.close()


def _compare(root: Path, listed: set[str], built_ns: int) -> tuple[int, int]:
    """(edited, added) among the record files under ``root``; the files found are taken out of ``listed``.

    Walks the same files the loader reads (``scan_record_files``, links to files with their target's
    time), comparing as it goes: no list of 300,000 paths is kept.
    """
    edited = added = 0
    for parts, entry in scan_record_files(root):
        relative = "/".join(parts)
        if relative not in listed:
            added += 1
            continue
        listed.remove(relative)
        try:
            edited += entry.stat().st_mtime_ns > built_ns
        except OSError:
            continue
    return edited, added
