"""What a SQLite build holds, kept inside it, so that the next build can update it in place of rebuilding it.

A build lists every record it stored in ``build_manifest``: the record's id and the digest of the
file content its rows were made from (the loader's ``content_digest``, which validation computed
anyway: nothing is read or hashed again). Its path is the ``record`` table's, and the records
folder ``registry_meta``'s. ``build_state`` names the code that made the rows (``CODE_KEY``:
``build_rows.rows_version``, a digest of the package's source, the models, the tables, Pydantic and
Python) and, last, the seal (``SEAL_KEY``): the write count SQLite keeps in the file's header
(bytes 24-27, "file change counter", one more at each committed write) as the build left it. Any later write by another
program (``sqlite3``, Datasette, a script) changes that count, so the file no longer matches its
seal and the next build is a full one; so does a file in WAL mode or with a journal beside it,
whose header count SQLite does not keep.

The seal is a change counter, not a MAC: it finds writes made by programs that go through SQLite, which is what it
is for (a database opened in Datasette, a row fixed by hand with ``sqlite3``). Someone who edits a row and sets the
seal to the new count on purpose (or the header's count to the seal) makes the next build keep that row as up to
date; ``registry db build --full`` rebuilds every row from the records. A keyed MAC of the file would cost a read of
the whole database on every build (docs/watcher-and-caches.md, "What the database's seal is").
"""

from __future__ import annotations

import sqlite3
import struct
from collections.abc import Iterable
from pathlib import Path

from registry.store.loader import Registry

MANIFEST_TABLE = "build_manifest"
STATE_TABLE = "build_state"
FILES_TABLE = "build_files"
#: The ``build_state`` keys of the code that made the rows and of the file's seal.
CODE_KEY = "build_code"
SEAL_KEY = "build_seal"
DESCRIPTION = ("What the build stored, for the next 'registry db build' to update only what changed: each record's "
               "id and the digest of its file's content.")
STATE_DESCRIPTION = ("How the file was built, for the next 'registry db build' to tell whether it can update it: "
                     f"{CODE_KEY}, the code that made the rows; {SEAL_KEY}, the file's write count when the build "
                     "finished (a write by another program changes it; a change counter, not a MAC: it does not stand "
                     "against an edit made on purpose together with it).")
STATE_COLUMNS = {"key": f"What the fact is ({CODE_KEY} or {SEAL_KEY}).", "value": "The fact, as text."}
COLUMNS = {"record_id": "The record's id.",
           "digest": "BLAKE2b-128 of the record file's content, 16 bytes (empty: not known, always stored again)."}

FILES_DESCRIPTION = ("The record files the build stored, folder by folder, for the next 'registry db build' to find "
                     "those that changed by comparing a few values, not one per record: each folder's file names, "
                     "sorted, and their contents' digests in the same order.")
FILES_COLUMNS = {"folder": "The folder, below the records folder ('/' between its parts; empty: the records folder).",
                 "names": "Its record files' names, sorted, a NUL after each.",
                 "digests": "BLAKE2b-128 of each file's content, 16 bytes each, in the names' order (zeros: not "
                            "known, always stored again)."}
#: The digest that stands for one not known (no content has it).
NO_DIGEST = bytes(16)
#: The record files, folder by folder: folder -> (names, sorted, a NUL after each; their digests, 16 bytes each).
Folders = dict[str, tuple[str, bytes]]

_HEADER = b"SQLite format 3\x00"


def manifest_ddl() -> list[str]:
    """The statements that make the tables (in the golden SQLite DDL with the others)."""
    return [f"CREATE TABLE {MANIFEST_TABLE} (record_id VARCHAR NOT NULL PRIMARY KEY, digest BLOB NOT NULL)",
            f"CREATE TABLE {STATE_TABLE} (key VARCHAR NOT NULL PRIMARY KEY, value VARCHAR NOT NULL)",
            f"CREATE TABLE {FILES_TABLE} (folder VARCHAR NOT NULL PRIMARY KEY, names VARCHAR NOT NULL, "
            "digests BLOB NOT NULL)"]


def folders_of(records: Iterable[tuple[str, str, bytes | None]]) -> Folders:
    """Records given as (id, path below the records folder, digest or None) as ``Folders``: a few strings and
    bytes for 295,100 records at 100,000 results, compared at once where nothing changed."""
    grouped: dict[str, list[tuple[str, bytes]]] = {}
    for _, path, digest in records:
        folder, _, name = path.rpartition("/")
        grouped.setdefault(folder, []).append((name, digest or NO_DIGEST))
    folders: Folders = {}
    for folder, files in grouped.items():
        files.sort()
        folders[folder] = ("".join(f"{name}\0" for name, _ in files), b"".join(digest for _, digest in files))
    return folders


def read_folders(connection: sqlite3.Connection) -> Folders:
    return {folder: (names, digests) for folder, names, digests in
            connection.execute(f"SELECT folder, names, digests FROM {FILES_TABLE}")}


def write_folders(connection: sqlite3.Connection, folders: dict[str, tuple[str, bytes] | None]) -> None:
    """Put each folder's files as given (None: the folder holds none now)."""
    connection.executemany(f"DELETE FROM {FILES_TABLE} WHERE folder = ?", [(folder,) for folder in folders])
    connection.executemany(f"INSERT INTO {FILES_TABLE} (folder, names, digests) VALUES (?, ?, ?)",
                           [(folder, *files) for folder, files in folders.items() if files is not None])


def digest_of(registry: Registry, record_id: str) -> bytes:
    """The digest of the content the record was read from; empty where the loader does not know it."""
    doc = registry.docs.get(record_id)
    return (doc.digest if doc is not None else None) or b""


def manifest_rows(registry: Registry, ids: Iterable[str]) -> list[tuple[str, bytes]]:
    """(id, digest) of each of ``ids``, sorted by id."""
    return [(record_id, digest_of(registry, record_id)) for record_id in sorted(ids)]


def write_manifest(connection: sqlite3.Connection, rows: list[tuple[str, bytes]], code: str | None = None) -> None:
    """Add ``rows`` to the manifest; with ``code`` (a new file), name the code that made the rows."""
    connection.executemany(f"INSERT INTO {MANIFEST_TABLE} (record_id, digest) VALUES (?, ?)", rows)
    if code is not None:
        connection.execute(f"INSERT INTO {STATE_TABLE} (key, value) VALUES (?, ?)", (CODE_KEY, code))


def build_state(connection: sqlite3.Connection) -> dict[str, str]:
    """What ``build_state`` holds (empty for a file built before there was one)."""
    try:
        return dict(connection.execute(f"SELECT key, value FROM {STATE_TABLE}").fetchall())
    except sqlite3.OperationalError:
        return {}


def change_counter(path: Path) -> int | None:
    """The write count in a SQLite file's header, or None where it is not kept (WAL mode, a journal beside the
    file, not a SQLite file)."""
    for suffix in ("-journal", "-wal"):
        try:
            if Path(f"{path}{suffix}").stat().st_size:
                return None  # a hot journal, or writes not yet in the file itself (an empty one holds neither)
        except FileNotFoundError:
            continue
        except OSError:
            return None
    try:
        with open(path, "rb") as handle:
            header = handle.read(100)
    except OSError:
        return None
    if len(header) < 100 or not header.startswith(_HEADER) or header[18:20] != b"\x01\x01":
        return None  # bytes 18-19 are 2 in WAL mode
    (count,) = struct.unpack(">I", header[24:28])
    return int(count)


def seal(path: Path) -> bool:
    """Write the seal into the finished database at ``path``: the write count its header will hold once this write
    is committed. True if the header holds it afterwards (else the next build is a full one, as for any file
    whose seal does not match)."""
    before = change_counter(path)
    if before is None:
        return False
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode = OFF")  # a temporary file, renamed into place once complete
        connection.execute("BEGIN")
        connection.execute(f"INSERT OR REPLACE INTO {STATE_TABLE} (key, value) VALUES (?, ?)",
                           (SEAL_KEY, str(before + 1)))
        connection.execute("COMMIT")
    finally:
        connection.close()
    return change_counter(path) == before + 1
