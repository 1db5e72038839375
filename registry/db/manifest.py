"""What a SQLite build holds, kept inside it, so that the next build can update it in place of rebuilding it.

A build lists every record it stored in ``build_manifest``: the record's id and the digest of the
file content its rows were made from (the loader's ``content_digest``, which validation computed
anyway: nothing is read or hashed again). Its path is the ``record`` table's, and the records
folder ``registry_meta``'s. ``build_state`` names the code that made the rows (``CODE_KEY``:
``build.rows_version``, a digest of the package's source, the models, the tables, Pydantic and
Python) and, last, the seal (``SEAL_KEY``): the write count SQLite keeps in the file's header
(bytes 24-27, "file change counter", one more at each committed write) as the build left it. Any later write by another
program (``sqlite3``, Datasette, a script) changes that count, so the file no longer matches its
seal and the next build is a full one; so does a file in WAL mode or with a journal beside it,
whose header count SQLite does not keep.
"""

from __future__ import annotations

import sqlite3
import struct
from collections.abc import Iterable
from pathlib import Path

from registry.store.loader import Registry

MANIFEST_TABLE = "build_manifest"
STATE_TABLE = "build_state"
#: The ``build_state`` keys of the code that made the rows and of the file's seal.
CODE_KEY = "build_code"
SEAL_KEY = "build_seal"
DESCRIPTION = ("What the build stored, for the next 'registry db build' to update only what changed: each record's "
               "id and the digest of its file's content.")
STATE_DESCRIPTION = ("How the file was built, for the next 'registry db build' to tell whether it can update it: "
                     f"{CODE_KEY}, the code that made the rows; {SEAL_KEY}, the file's write count when the build "
                     "finished (a write by another program changes it).")
STATE_COLUMNS = {"key": f"What the fact is ({CODE_KEY} or {SEAL_KEY}).", "value": "The fact, as text."}
COLUMNS = {"record_id": "The record's id.",
           "digest": "BLAKE2b-128 of the record file's content, 16 bytes (empty: not known, always stored again)."}

_HEADER = b"SQLite format 3\x00"


def manifest_ddl() -> list[str]:
    """The statements that make the tables (in the golden SQLite DDL with the others)."""
    return [f"CREATE TABLE {MANIFEST_TABLE} (record_id VARCHAR NOT NULL PRIMARY KEY, digest BLOB NOT NULL)",
            f"CREATE TABLE {STATE_TABLE} (key VARCHAR NOT NULL PRIMARY KEY, value VARCHAR NOT NULL)"]


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
