"""A cache of parsed record files, kept outside the records folder, so that a run reads again only what changed.

What is kept is each file's *parsed data* (what PyYAML's safe loader reads from it), keyed by the
digest of the file's bytes; typing and every check run on it again each time, so a warm run computes
exactly what a cold one does (the same functions on the same data). Each file's size, modification
and change times and inode say whether it may be taken as unchanged without reading it; a file
modified while it was read, or within two seconds of it, is read again the next time, and its digest
then decides. A renamed or copied file is found by its digest; a removed one is forgotten.

Nothing stored can run code, and nothing stored is believed unless this user's machine wrote it:
parsed data is kept as MessagePack (plain values; dates, tuples, sets and the like as tagged
extensions, decoded by a table: ``registry.store.cacheformat``), and each entry, and each row saying
which content a file holds, carries a MAC (keyed BLAKE2b) under a secret key of this user's own
(``registry.store.cachekey``), kept outside the cache folder (``$XDG_STATE_HOME/registry/cache.key``),
so that a store copied from elsewhere (a shared CI cache) or rows planted in it are detected: the store
is then set aside and the files parsed again. Entries are shared between folders by content digest
only under that check.

The store is one SQLite file per version of the parsing code and the format
(``registry/store/fastyaml.py``, ``registry/store/yamlio.py``, ``registry/store/cacheformat.py``,
PyYAML, yaml-rs, Python), under ``$XDG_CACHE_HOME/registry/`` (by default ``~/.cache/registry/``), in
WAL mode: concurrent runs read and write it at once, a killed run leaves it as it was after its last
batch. Any failure of the store (a corrupt file, a full disk, a lock held too long) never fails a
run: the store is set aside, rebuilt from scratch where it was corrupt, and the run goes on reading
every file itself.

The same store keeps what other code derives from a file's content alone (``derived``: the rows
``registry db build`` makes of a record), keyed by the digest and that code's version, so that an
unchanged record is not converted again; it is checked and set aside in the same way.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import sqlite3
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from registry.store.cacheformat import CorruptEntry, decode, encode
from registry.store.cachekey import key_is_kept, key_refusal, mac
from registry.store.private import UnsafeFolder, own_folder

#: Bump when what is stored changes meaning.
FORMAT = 3
#: Set (to anything but '' or '0') to read every file, as '--no-cache' does.
NO_CACHE_ENV = "REGISTRY_NO_CACHE"
#: Rows written per transaction: bounds the memory a cold run holds and what a kill can lose.
WRITE_BATCH = 20_000
#: SQLite's page cache of the connection that writes: 64 MiB, so that a batch's pages are written once.
WRITE_CACHE_KIB = 65_536
#: And of the one that reads: the store is read in one pass in key order, or a few rows by key, which a cache does
#: not speed up; 64 MiB there was 64 MiB more held by a run that takes every file from the store.
READ_CACHE_KIB = 8_192
#: How long to wait for another run's write to finish before giving up on writing this batch.
BUSY_TIMEOUT_MS = 2_000
#: A file modified this close to when it was read may change again unseen within the same time stamp.
RACY_NS = 2_000_000_000
#: Stores of other code versions unused this long are removed.
STALE_S = 14 * 86_400

Signature = tuple[int, int, int, int]
"""(size, modification time, change time, inode) of a file, in nanoseconds where times."""


def signature(status: os.stat_result) -> Signature:
    return (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)


def enabled() -> bool:
    """Whether runs use the cache unless told otherwise (``$REGISTRY_NO_CACHE`` turns it off)."""
    return os.environ.get(NO_CACHE_ENV, "") in ("", "0")


def cache_folder() -> Path:
    """``$XDG_CACHE_HOME/registry`` (``~/.cache/registry`` where it is not set)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "registry"


def own_cache_folder(*below: str) -> Path:
    """The cache folder (or ``below`` it), made where missing; ``UnsafeFolder`` where another user could write it or
    a folder above it (``registry.store.private``): nothing is kept there, nor read from there, then."""
    folder = own_folder(cache_folder())
    return own_folder(folder.joinpath(*below)) if below else folder


def refusal() -> UnsafeFolder | None:
    """Why the cache (its folder, or the key its entries are checked with) is not used, if it is not: another user
    could write the folder or one above it, or the key is not this user's alone. Runs then read every file."""
    try:
        own_folder(cache_folder(), make=False)
    except UnsafeFolder as exc:
        return exc
    return key_refusal()


#: What ``ParseCache.decode`` gives for a damaged entry (parsed data may itself be None).
DAMAGED: Any = object()


def row_check(root: str, key: str, signature: Signature, digest: bytes) -> bytes:
    """The MAC of one row saying that ``key`` of ``root``, seen with ``signature``, holds content ``digest``."""
    text = f"{root}\0{key}\0{signature[0]}\0{signature[1]}\0{signature[2]}\0{signature[3]}"
    return mac(b"row\0" + digest + b"\0", text.encode("utf-8", "surrogatepass"))


@functools.cache
def code_version() -> str:
    """What the stored data depends on: the parsing code and the libraries and Python that run it."""
    import yaml

    from registry.store import fastyaml

    digest = hashlib.sha256(f"{FORMAT} {sys.version} {yaml.__version__} {fastyaml.version()}".encode())
    here = Path(__file__).resolve().parent
    for name in ("fastyaml.py", "yamlio.py", "cacheformat.py", "cache.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


class ParseCache:
    """The parsed files of one records folder, read in the order the loader walks them (see ``known``)."""

    def __init__(self, path: Path, root: str) -> None:
        self.path = path
        self.root = root
        self._read = _connect(path, READ_CACHE_KIB)
        self._write = _connect(path, WRITE_CACHE_KIB)
        self._pending_new: list[tuple[Any, ...]] = []
        self._pending_known: list[tuple[Any, ...]] = []
        self._gone: list[tuple[str, str]] = []
        self._pending_derived: list[tuple[str, bytes, bytes]] = []
        self._derived_versions: set[str] = set()
        self._derived_written = False
        self._started_ns = time.time_ns()
        self.broken = False
        #: Whether a file whose size, times and inode are as stored may be taken as unchanged without being read.
        #: False (``--verify``): every file is read and its digest decides; a write through a shared memory map or
        #: through a hard link elsewhere can leave the status as it was.
        self.trust_status = True

    # -- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, root: Path, *, verify: bool = False) -> ParseCache | None:
        """The cache for ``root``, or None where none can be used (never inside the records folder). ``verify``:
        no file is taken as unchanged by its status (``trust_status``)."""
        folder = cache_folder()
        resolved_root = os.path.realpath(root)
        if os.path.commonpath([os.path.realpath(folder), resolved_root]) == resolved_root:
            return None  # $XDG_CACHE_HOME inside the records: the cache must never write there
        if not key_is_kept():
            return None  # no key a later run could check this run's entries with
        try:
            own_cache_folder()
            path = folder / f"records-{code_version()}.sqlite3"
            for suffix in ("", "-wal", "-shm"):
                if os.path.islink(f"{path}{suffix}"):
                    return None  # SQLite would open what the link leads to
            _remove_stale(folder, path)
            for attempt in range(2):
                try:
                    store = cls(path, resolved_root)
                    store.trust_status = not verify
                    store._create()
                    return store
                except sqlite3.DatabaseError:
                    if attempt:
                        raise
                    _remove(path)  # not a database, or a damaged one: start a new one
        except (OSError, sqlite3.Error):
            return None
        return None

    def _create(self) -> None:
        with self._write:
            self._write.executescript("""
                CREATE TABLE IF NOT EXISTS file (
                    root TEXT NOT NULL, key TEXT NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
                    ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, digest BLOB NOT NULL, data BLOB NOT NULL,
                    row_check BLOB NOT NULL, PRIMARY KEY (root, key));
                CREATE INDEX IF NOT EXISTS file_digest ON file (digest);
                CREATE TABLE IF NOT EXISTS derived (
                    version TEXT NOT NULL, digest BLOB NOT NULL, data BLOB NOT NULL, PRIMARY KEY (version, digest));
            """)

    # -- reading ------------------------------------------------------------------------------

    def known(self) -> Iterator[tuple[str, Signature, bytes]]:
        """(key, signature when read, digest) of every file of this folder the store holds, in key order.

        A row whose MAC is not this user's (planted, or copied from another store) ends the listing and sets
        the store aside: the files not listed are read and parsed.
        """
        if self.broken:
            return
        try:
            yield from self._checked(self._read.execute(
                "SELECT key, size, mtime_ns, ctime_ns, inode, digest, row_check FROM file WHERE root = ? ORDER BY key",
                (self.root,)))
        except sqlite3.Error:
            self._fail()

    def known_of(self, keys: list[str]) -> Iterator[tuple[str, Signature, bytes]]:
        """``known``, for ``keys`` only (sorted): a run that reads a few files must not list, check and forget
        every other file of the folder (``known`` gives every row, which a complete listing then forgets)."""
        if self.broken:
            return
        sql = ("SELECT key, size, mtime_ns, ctime_ns, inode, digest, row_check FROM file WHERE root = ? AND key IN "
               "({marks}) ORDER BY key")
        yield from self._checked(self._by_key(sql, keys))

    def _checked(self, rows: Iterable[Any]) -> Iterator[tuple[str, Signature, bytes]]:
        """(key, signature, digest) of each row whose MAC is this user's; the first that is not ends them and sets
        the store aside."""
        for key, size, mtime, ctime, inode, digest, check in rows:
            seen = (size, mtime, ctime, inode)
            if not (isinstance(check, bytes) and isinstance(digest, bytes) and isinstance(key, str)
                    and hmac.compare_digest(check, row_check(self.root, key, seen, digest))):
                self._fail(damaged=True)
                return
            yield key, seen, digest

    def data_of(self, keys: list[str]) -> Iterator[tuple[str, bytes]]:
        """``data``, for ``keys`` only (sorted), in key order."""
        yield from self._by_key("SELECT key, data FROM file WHERE root = ? AND key IN ({marks}) ORDER BY key", keys)

    def _by_key(self, sql: str, keys: list[str]) -> Iterator[Any]:
        """The rows of ``sql`` for this folder and ``keys`` (sorted), a chunk of keys at a time, in key order."""
        if self.broken:
            return
        try:
            for start in range(0, len(keys), self.LOOKUP_CHUNK):
                chunk = keys[start:start + self.LOOKUP_CHUNK]
                yield from self._read.execute(sql.format(marks=", ".join("?" * len(chunk))), (self.root, *chunk))
        except sqlite3.Error:
            self._fail()

    def data(self) -> Iterator[tuple[str, bytes]]:
        """(key, stored parsed data) of every file of this folder, in key order: one pass over the store."""
        if self.broken:
            return
        try:
            yield from self._read.execute("SELECT key, data FROM file WHERE root = ? ORDER BY key", (self.root,))
        except sqlite3.Error:
            self._fail()

    def held(self, digests: list[bytes]) -> set[bytes]:
        """Which of these contents the store holds parsed data of (from any file, in any folder).

        One look-up in the digest index each, whatever number of folders hold the content (many copies of
        the same records, as a test run or a curator's checkouts make): no row's data is read."""
        sql = "SELECT column1, NULL FROM (VALUES {rows}) WHERE EXISTS (SELECT 1 FROM file WHERE digest = column1)"
        return {digest for digest, _ in self._by_digest(sql, digests)}

    def payloads_of(self, digests: list[bytes]) -> dict[bytes, bytes]:
        """The parsed data of contents read before (by any file, in any folder), by digest: one row's each,
        found by one look-up, however many files hold the content (their data are the same)."""
        sql = ("SELECT wanted.column1, file.data FROM (VALUES {rows}) AS wanted JOIN file "
               "ON file.rowid = (SELECT rowid FROM file WHERE digest = wanted.column1 LIMIT 1)")
        return dict(self._by_digest(sql, digests))

    def derived(self, version: str, digests: list[bytes]) -> dict[bytes, Any]:
        """What code of ``version`` derived from these contents before (see ``remember_derived``), by digest.

        A damaged entry is left out (and the store set aside, as for parsed data).
        """
        found: dict[bytes, Any] = {}
        sql = "SELECT digest, data FROM derived WHERE version = ? AND digest IN ({marks})"
        for digest, payload in self._by_digest(sql, digests, version):
            data = self.decode(digest, payload, version.encode())
            if data is DAMAGED:
                return {}
            found[digest] = data
        return found

    #: Digests asked for in one statement (SQLite's default limit on parameters is far above it).
    LOOKUP_CHUNK = 500

    def _by_digest(self, sql: str, digests: list[bytes], *before: Any) -> Iterator[tuple[bytes, bytes]]:
        """The (digest, payload) rows of ``sql`` (its ``{marks}`` the digests' placeholders, or ``{rows}`` one row of
        a VALUES list each, after ``before``'s), a chunk of digests at a time; none once the store is broken or fails
        (it is then set aside)."""
        if self.broken:
            return
        try:
            for start in range(0, len(digests), self.LOOKUP_CHUNK):
                chunk = digests[start:start + self.LOOKUP_CHUNK]
                marks = ", ".join("?" * len(chunk))
                rows = ", ".join(["(?)"] * len(chunk))
                yield from self._read.execute(sql.format(marks=marks, rows=rows), (*before, *chunk))
        except sqlite3.Error:
            self._fail()

    def decode(self, digest: bytes, payload: bytes, context: bytes = b"") -> Any:
        """The data of an entry, or ``DAMAGED`` (and the store set aside, to be rebuilt) if it is damaged or
        was not written by this user's runs."""
        try:
            if not isinstance(payload, bytes) or not isinstance(digest, bytes):
                raise CorruptEntry
            return decode(digest, payload, context)
        except CorruptEntry:
            self._fail(damaged=True)
            return DAMAGED

    # -- writing ------------------------------------------------------------------------------

    def remember(self, key: str, status: os.stat_result, digest: bytes, payload: bytes | None) -> None:
        """Note that ``key`` was read with ``status`` and holds ``digest`` (with its parsed data, if new)."""
        size, mtime, ctime, inode = signature(status)
        if mtime > self._started_ns - RACY_NS or ctime > self._started_ns - RACY_NS:
            mtime = -1  # modified just before or while being read: read it again next time
        check = row_check(self.root, key, (size, mtime, ctime, inode), digest)
        if payload is not None:
            self._pending_new.append((self.root, key, size, mtime, ctime, inode, digest, payload, check))
        else:  # parsed before, by this or another file: its data (checked on reading) is copied from there
            self._pending_known.append((self.root, key, size, mtime, ctime, inode, digest, check, digest))
        if len(self._pending_new) + len(self._pending_known) >= WRITE_BATCH:
            self.flush()

    def remember_derived(self, version: str, digest: bytes, data: Any) -> None:
        """Keep what code of ``version`` (the database build's, say) derived from the content ``digest``.

        Only the latest version is kept: writing one removes what other versions wrote; and when the
        store is closed, what belongs to no content the store still holds (an edited file's old text).
        """
        self._derived_written = True
        self._pending_derived.append((version, digest, encode(digest, data, version.encode())))
        if len(self._pending_derived) >= WRITE_BATCH:
            self.flush()

    def forget(self, key: str) -> None:
        """``key`` is no longer a record file of this folder (removed, or renamed)."""
        self._gone.append((self.root, key))

    def flush(self) -> None:
        """Write what is pending in one transaction; a store set aside writes nothing (and holds nothing back)."""
        if not self.broken and (self._pending_new or self._pending_known or self._gone or self._pending_derived):
            self._write_pending()
        self._pending_new.clear()
        self._pending_known.clear()
        self._gone.clear()
        self._pending_derived.clear()

    def _write_pending(self) -> None:
        try:
            with self._write:
                self._write.execute("BEGIN IMMEDIATE")
                for version in {version for version, _, _ in self._pending_derived} - self._derived_versions:
                    self._write.execute("DELETE FROM derived WHERE version != ?", (version,))
                    self._derived_versions.add(version)
                self._write.executemany("INSERT OR REPLACE INTO derived VALUES (?, ?, ?)", self._pending_derived)
                self._write.executemany("DELETE FROM file WHERE root = ? AND key = ?", self._gone)
                self._write.executemany("INSERT OR REPLACE INTO file VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                        self._pending_new)
                self._write.executemany("INSERT OR REPLACE INTO file SELECT ?, ?, ?, ?, ?, ?, ?, data, ? FROM file "
                                        "WHERE digest = ? LIMIT 1", self._pending_known)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                self._fail()
            # another run holds the store: this batch is simply not kept
        except sqlite3.Error:
            self._fail()

    def close(self) -> None:
        """Write what is pending, and close."""
        self.flush()
        if self._derived_written and not self.broken:
            self._forget_orphans()
        for connection in (self._read, self._write):
            try:
                connection.close()
            except sqlite3.Error:
                pass

    def _forget_orphans(self) -> None:
        """Remove derived entries of contents no file of any folder holds (about 25 ms for 30,000 entries)."""
        try:
            with self._write:
                self._write.execute("BEGIN IMMEDIATE")
                self._write.execute("DELETE FROM derived WHERE NOT EXISTS "
                                    "(SELECT 1 FROM file WHERE file.digest = derived.digest)")
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                self._fail()
        except sqlite3.Error:
            self._fail()

    def _fail(self, *, damaged: bool = False) -> None:
        """The store failed under us: stop using it; a damaged file is removed so the next run starts anew."""
        self.broken = True
        if not damaged:
            try:
                ok = self._write.execute("PRAGMA quick_check").fetchone()
                damaged = not ok or ok[0] != "ok"
            except sqlite3.Error:
                damaged = True
        if damaged:
            _remove(self.path)


def _connect(path: Path, cache_kib: int) -> sqlite3.Connection:
    connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                 check_same_thread=False)
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")
    connection.execute(f"PRAGMA cache_size = -{cache_kib}")
    return connection


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        try:
            os.unlink(f"{path}{suffix}")
        except OSError:
            pass


def _remove_stale(folder: Path, current: Path) -> None:
    """Remove stores of other code versions that no run has used for ``STALE_S``."""
    now = time.time()
    for other in folder.glob("records-*.sqlite3"):
        if other != current:
            try:
                if now - other.stat().st_mtime > STALE_S:
                    _remove(other)
            except OSError:
                pass
