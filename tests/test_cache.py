"""The parse cache (``registry.store.cache``): a warm run gives exactly what a cold one gives, and is never fooled.

Cold here means ``cache=False``: every file read and parsed. Each test compares a run through the
cache with a cold run of the same files: the same report (codes, messages, lines), and the same
registry (records equal field by field and type by type, the same files, the same failed ids).
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from registry.issues.report import Report
from registry.store import cache, cacheformat, cachekey
from registry.store.loader import Registry
from registry.validate.runner import validate
from tests.conftest import BUNDLED_RECORDS, DATA, RESULT_33, ROOT
from tests.test_db_yaml_fast_path import same

INVALID = DATA / "invalid"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test starts with an empty cache of its own."""
    folder = tmp_path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.delenv(cache.NO_CACHE_ENV, raising=False)
    return folder / "registry"


def store_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("records-*.sqlite3")) if folder.exists() else []


def typed(record: Any) -> Any:
    """A record as nested plain values with their types, so that equal-but-different types show."""
    return {name: _typed(getattr(record, name)) for name in type(record).model_fields} | {
        "__fields_set__": sorted(record.model_fields_set), "__class__": type(record).__name__}


def _typed(value: Any) -> Any:
    if hasattr(type(value), "model_fields"):
        return typed(value)
    if isinstance(value, list):
        return [_typed(item) for item in value]
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    return (type(value).__name__, repr(value), getattr(value, "tzinfo", None).__class__.__name__)


def assert_same_run(a: tuple[Registry, Report], b: tuple[Registry, Report]) -> None:
    (registry_a, report_a), (registry_b, report_b) = a, b
    assert report_a.to_dict() == report_b.to_dict()
    assert list(registry_a.records) == list(registry_b.records)
    for record_id, record in registry_a.records.items():
        other = registry_b.records[record_id]
        assert record == other and same(typed(record), typed(other)), record_id
    assert registry_a.paths == registry_b.paths
    assert registry_a.failed == registry_b.failed
    for record_id in registry_a.docs:
        assert registry_a.docs[record_id].lines == registry_b.docs[record_id].lines, record_id


def three_runs(root: Path) -> None:
    """Cold, then through an empty cache (filling it), then through the filled cache: all the same.

    One moment for all three: 'date-in-future' names the time it is now, to the second."""
    now = dt.datetime.now(dt.UTC)
    cold = validate(root, cache=False, now=now)
    assert_same_run(cold, validate(root, cache=True, now=now))
    assert_same_run(cold, validate(root, cache=True, now=now))


def test_bundled_records(own_cache: Path) -> None:
    three_runs(BUNDLED_RECORDS)
    assert len(store_files(own_cache)) == 1


@pytest.mark.parametrize("case", sorted(p.name for p in INVALID.iterdir()))
def test_every_invalid_case(records_dir: Path, case: str) -> None:
    shutil.copytree(INVALID / case, records_dir, dirs_exist_ok=True)
    three_runs(records_dir)


def result_file(records: Path) -> Path:
    """The result that prints 33.88."""
    return records / "result" / f"{RESULT_33}.yaml"


def test_an_edit_that_keeps_size_and_time_is_seen(records_dir: Path) -> None:
    """The change time and inode are part of what is compared: a same-size edit with its old mtime is read."""
    validate(records_dir, cache=True)
    path = result_file(records_dir)
    before = path.stat()
    text = path.read_text()
    assert "printed_value: '33.88'" in text
    path.write_text(text.replace("printed_value: '33.88'", "printed_value: '33.87'"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size and path.stat().st_mtime_ns == before.st_mtime_ns
    warm = validate(records_dir, cache=True)
    assert any(i.code == "value-mismatch" for i in warm[1].issues)
    assert_same_run(validate(records_dir, cache=False), warm)


def test_added_removed_and_renamed_files_are_seen(records_dir: Path) -> None:
    validate(records_dir, cache=True)
    family = sorted((records_dir / "family").glob("*.yaml"))[0]
    copy = family.with_name(family.stem.replace("family-", "family-copy-") + ".yaml")
    shutil.copy(family, copy)  # added: a duplicate id, found by content in the cache
    assert_same_run(validate(records_dir, cache=False), validate(records_dir, cache=True))
    copy.unlink()  # removed
    assert_same_run(validate(records_dir, cache=False), validate(records_dir, cache=True))
    moved = records_dir / "config" / family.name
    family.rename(moved)  # renamed: the same content under another name (file-name-mismatch)
    warm = validate(records_dir, cache=True)
    assert any(i.code == "file-name-mismatch" for i in warm[1].issues)
    assert_same_run(validate(records_dir, cache=False), warm)
    moved.rename(family)
    assert validate(records_dir, cache=True)[1].valid


def test_a_file_replaced_by_one_that_does_not_parse(records_dir: Path) -> None:
    validate(records_dir, cache=True)
    result_file(records_dir).write_text("kind: result\nid: [unclosed\n")
    warm = validate(records_dir, cache=True)
    assert any(i.code == "yaml-syntax" for i in warm[1].issues)
    assert_same_run(validate(records_dir, cache=False), warm)


def test_a_store_that_is_not_a_database_is_replaced(own_cache: Path) -> None:
    validate(BUNDLED_RECORDS, cache=True)
    [store] = store_files(own_cache)
    store.write_bytes(b"this is not a database" * 1000)
    for suffix in ("-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    three_runs(BUNDLED_RECORDS)
    with sqlite3.connect(store) as connection:
        assert connection.execute("SELECT count(*) FROM file").fetchone()[0] > 0


def test_damaged_entries_are_never_trusted(own_cache: Path, records_dir: Path) -> None:
    """Bytes flipped inside stored data fail their checksum: the file is read again, the store set aside."""
    validate(records_dir, cache=True)
    [store] = store_files(own_cache)
    with sqlite3.connect(store) as connection:
        connection.execute("UPDATE file SET data = substr(data, 1, 20) || X'00' || substr(data, 22)")
    assert_same_run(validate(records_dir, cache=False), validate(records_dir, cache=True))
    three_runs(records_dir)


def test_stored_data_of_another_file_is_never_taken(own_cache: Path, records_dir: Path) -> None:
    """An entry moved to another file's digest fails its checksum (the checksum is keyed by the digest)."""
    validate(records_dir, cache=True)
    [store] = store_files(own_cache)
    with sqlite3.connect(store) as connection:
        rows = connection.execute("SELECT key, data FROM file ORDER BY key").fetchall()
        connection.executemany("UPDATE file SET data = ? WHERE key = ?",
                               [(rows[(i + 1) % len(rows)][1], key) for i, (key, _) in enumerate(rows)])
    assert_same_run(validate(records_dir, cache=False), validate(records_dir, cache=True))


def test_a_content_held_by_many_folders_is_looked_up_once(own_cache: Path) -> None:
    """Copies of the same records in many folders (a test run, a curator's checkouts) hold the same digests: finding
    which contents are held, and the data of one, takes the same SQLite steps as with one folder (one index look-up
    each), not a row read per folder that holds it."""
    validate(BUNDLED_RECORDS, cache=True)
    [path] = store_files(own_cache)

    def steps() -> tuple[int, int, dict[bytes, bytes]]:
        store = cache.ParseCache.open(BUNDLED_RECORDS)
        assert store is not None
        digests = [digest for _, _, digest in store.known()]
        counted = [0]

        def count() -> int:
            counted[0] += 1
            return 0

        store._read.set_progress_handler(count, 1)
        held = store.held(digests)
        assert held == set(digests)
        after_held = counted[0]
        payloads = store.payloads_of(digests)
        store.close()
        return after_held, counted[0] - after_held, payloads

    held_one, data_one, payloads_one = steps()
    with sqlite3.connect(path) as connection:
        for copy in range(40):
            connection.execute("INSERT INTO file SELECT root || ?, key, size, mtime_ns, ctime_ns, inode, digest, data, "
                               "row_check FROM file WHERE root = ?", (f"-copy-{copy}", os.path.realpath(BUNDLED_RECORDS)))
        assert connection.execute("SELECT count(DISTINCT root) FROM file").fetchone()[0] == 41
    held_many, data_many, payloads_many = steps()
    assert payloads_many == payloads_one and len(payloads_one) == len(list(BUNDLED_RECORDS.rglob("*.yaml")))
    assert (held_many, data_many) == (held_one, data_one)


def test_a_store_locked_by_another_run(own_cache: Path, records_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that cannot write (another holds the lock) still gives the cold result, and writes nothing."""
    monkeypatch.setattr(cache, "BUSY_TIMEOUT_MS", 50)
    validate(BUNDLED_RECORDS, cache=True)  # creates the store
    [store] = store_files(own_cache)
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        assert_same_run(validate(records_dir, cache=False), validate(records_dir, cache=True))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    three_runs(records_dir)


def test_concurrent_runs(records_dir: Path) -> None:
    """Runs at once on one store (threads here; processes in the next test) each give the cold result."""
    cold = validate(records_dir, cache=False)
    results: list[tuple[Registry, Report]] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(validate(records_dir, cache=True))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and len(results) == 4
    for result in results:
        assert_same_run(cold, result)


def make_registry(root: Path, results: int) -> int:
    """A valid synthetic registry (the benchmark's); returns its number of records."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_db
    finally:
        sys.path.pop(0)
    return bench_db.generate(root, results)


VALIDATE = ("import sys\nfrom pathlib import Path\nfrom registry.validate.runner import validate\n"
            "registry, report = validate(Path(sys.argv[1]), cache=True)\n"
            "print(len(registry.records), report.valid)\n")


@pytest.mark.slow
def test_runs_in_other_processes_at_once_and_a_killed_one(tmp_path: Path) -> None:
    """Processes sharing the store at once, and one killed while writing: the next run is still exact."""
    root = tmp_path / "records"
    records = make_registry(root, 600)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    killed = subprocess.Popen([sys.executable, "-c", VALIDATE, str(root)], env=env, cwd=ROOT)
    others = [subprocess.Popen([sys.executable, "-c", VALIDATE, str(root)], env=env, cwd=ROOT,
                               stdout=subprocess.PIPE, text=True) for _ in range(2)]
    time.sleep(1.5)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    for other in others:
        out, _ = other.communicate(timeout=300)
        assert other.returncode == 0 and out.split() == [str(records), "True"]
    assert_same_run(validate(root, cache=False), validate(root, cache=True))


def test_no_cache_reads_every_file_and_writes_no_store(own_cache: Path, cli: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    result = cli("validate", "--records", BUNDLED_RECORDS, "--no-cache")
    assert result.exit_code == 0 and "valid:" in result.output
    assert not store_files(own_cache)
    monkeypatch.setenv(cache.NO_CACHE_ENV, "1")
    validate(BUNDLED_RECORDS)
    assert not store_files(own_cache)
    monkeypatch.delenv(cache.NO_CACHE_ENV)
    with_cache = cli("validate", "--records", BUNDLED_RECORDS)
    assert with_cache.output == result.output
    assert len(store_files(own_cache)) == 1


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")}


def test_nothing_is_written_inside_the_records_folder(records_dir: Path, own_cache: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    before = snapshot(records_dir)
    three_runs(records_dir)
    assert snapshot(records_dir) == before
    assert store_files(own_cache)
    monkeypatch.setenv("XDG_CACHE_HOME", str(records_dir / "cache"))  # pointed inside: the cache stays off
    three_runs(records_dir)
    assert snapshot(records_dir) == before


def test_another_version_of_the_parsing_code_gets_its_own_store(own_cache: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    validate(BUNDLED_RECORDS, cache=True)
    monkeypatch.setattr(cache, "code_version", lambda: "0000000000000000")
    three_runs(BUNDLED_RECORDS)
    assert len(store_files(own_cache)) == 2


def test_encoded_data_comes_back_exactly() -> None:
    import datetime as dt

    digest = b"\x01" * 16
    for data in ({"a": 1, "b": True, "c": None, "d": [1.5, -0.0, "x"], "e": {"f": "g"}},
                 {"d": dt.date(2026, 3, 9), "t": dt.datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=dt.timezone(dt.timedelta(hours=-2)))},
                 ["not", "a", "mapping"], None, "text",
                 # What no YAML record needs but the format still gives back exactly: keys that are not text, tuples,
                 # sets, integers beyond 64 bits, lone surrogates, bytes, a time, NaN.
                 {1: (2, [3]), None: {4, 5}, 2 ** 80: -(2 ** 70), "huge": -(7 ** 20000), "edge": [2 ** 64, -(2 ** 63) - 1, 2 ** 63], "\ud800": b"\x00", (1, "a"): dt.time(1, 2, 3),
                  "n": frozenset({"x"}), "f": float("inf")}):
        assert same(cacheformat.decode(digest, cacheformat.encode(digest, data)), data)
        assert cacheformat.decode(digest, cacheformat.encode(digest, data)) == data
    with pytest.raises(cacheformat.CorruptEntry):
        cacheformat.decode(b"\x02" * 16, cacheformat.encode(digest, {"a": 1}))


@pytest.mark.slow
def test_worker_processes_give_what_one_process_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsing in worker processes (a first run of a large registry) changes nothing in what loads."""
    from registry.store import reading

    root = tmp_path / "records"
    make_registry(root, 200)
    shutil.copytree(INVALID / "yaml-syntax", root, dirs_exist_ok=True)
    cold = validate(root, cache=False)
    monkeypatch.setattr(reading, "CHUNK", 37)
    monkeypatch.setattr(reading, "_workers", lambda count, jobs: 2)  # however many processors this machine has
    started: list[int] = []
    in_workers = reading._in_workers
    monkeypatch.setattr(reading, "_in_workers", lambda chunks, store, workers, *rest: (
        started.append(workers), in_workers(chunks, store, workers, *rest))[1])
    assert_same_run(cold, validate(root, cache=False, jobs=2))  # workers, no store (``typedfiles``)
    assert_same_run(cold, validate(root, cache=True))  # workers filling the store
    assert started == [2]
    assert_same_run(cold, validate(root, cache=True))  # from the store


def test_a_store_set_aside_holds_nothing_back(own_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the store has failed, what a run would have written is dropped batch by batch, not kept in memory."""
    monkeypatch.setattr(cache, "WRITE_BATCH", 10)
    store = cache.ParseCache.open(BUNDLED_RECORDS)
    assert store is not None
    store.broken = True
    status = os.stat(BUNDLED_RECORDS)
    for number in range(100):
        digest = number.to_bytes(16, "big")
        store.remember(f"file-{number}", status, digest, cacheformat.encode(digest, {"n": number}))
        store.remember_derived("a-version", digest, [("table", (number,))])
    assert len(store._pending_new) < 10 and len(store._pending_derived) < 10
    store.close()


# -- a store is data from an untrusted file (issue 28, item 3) ----------------------------------------------


def _forged(digest: bytes, body: bytes, key: bytes | None = None) -> bytes:
    """Bytes shaped as an entry, with a valid MAC under ``key`` (this user's own: as if it had been stolen)."""
    import hashlib

    key = cachekey.cache_key() if key is None else key
    return hashlib.blake2b(digest + b"\0" + body, key=key, digest_size=16).digest() + body


class _WritesAFile:
    """A pickle that, if ever unpickled, writes a file: the proof that code ran."""

    def __init__(self, target: Path) -> None:
        self.target = target

    def __reduce__(self) -> Any:
        return (Path.write_text, (self.target, "code ran"))


def test_a_planted_pickle_never_runs(own_cache: Path, records_dir: Path, tmp_path: Path) -> None:
    """Rows rewritten with a pickle that writes a file, behind the old CRC-32 and behind a valid MAC: the store
    holds only MessagePack, so neither is ever unpickled; the files are parsed again and the report is cold's."""
    import pickle
    import zlib

    cold = validate(records_dir, cache=False)
    validate(records_dir, cache=True)
    [store] = store_files(own_cache)
    proof = tmp_path / "proof.txt"
    body = b"p" + pickle.dumps(_WritesAFile(proof))
    with sqlite3.connect(store) as connection:
        digests = [digest for (digest,) in connection.execute("SELECT digest FROM file")]
        half = len(digests) // 2
        for number, digest in enumerate(digests):
            crc = zlib.crc32(body, zlib.crc32(digest)).to_bytes(4, "big")
            connection.execute("UPDATE file SET data = ? WHERE digest = ?",
                               (crc + body if number < half else _forged(digest, body), digest))
    assert_same_run(cold, validate(records_dir, cache=True))
    assert not proof.exists(), "the planted pickle ran"
    with pytest.raises(cacheformat.CorruptEntry):
        cacheformat.decode(digests[-1], _forged(digests[-1], body))
    assert not proof.exists()
    assert_same_run(cold, validate(records_dir, cache=True))  # the store was set aside and filled anew


def test_planted_parsed_data_is_never_reported(own_cache: Path, records_dir: Path) -> None:
    """Another store's entries (another user's key: a shared CI cache), and rows saying a file holds another
    content, are detected: what validate reports is what the files hold."""
    import msgpack

    path = records_dir / "result" / f"{RESULT_33}.yaml"
    cold = validate(records_dir, cache=False)
    validate(records_dir, cache=True)
    [store] = store_files(own_cache)
    with sqlite3.connect(store) as connection:
        key, digest, data = connection.execute(
            "SELECT key, digest, data FROM file WHERE key = ?", (f"result\0{RESULT_33}.yaml",)).fetchone()
        planted = cacheformat.unpack(data[16:])
        planted["name"] = "PLANTED NAME"
        body = msgpack.packb(planted, default=lambda v: msgpack.ExtType(4, v.isoformat().encode()))
        connection.execute("UPDATE file SET data = ? WHERE key = ?", (_forged(digest, body, b"k" * 32), key))
    warm = validate(records_dir, cache=True)
    assert_same_run(cold, warm)
    assert "PLANTED NAME" not in str(warm[0].records[RESULT_33].model_dump())
    # A row filed under this user's key, but saying the file holds another file's content.
    validate(records_dir, cache=True)
    [store] = store_files(own_cache)
    with sqlite3.connect(store) as connection:
        rows = connection.execute("SELECT key, digest, data FROM file ORDER BY key").fetchall()
        (key, _, _), (_, other_digest, other_data) = rows[0], rows[1]
        connection.execute("UPDATE file SET digest = ?, data = ? WHERE key = ?", (other_digest, other_data, key))
    assert_same_run(cold, validate(records_dir, cache=True))
    assert path.exists()


def test_a_store_copied_from_another_user_is_rebuilt(own_cache: Path, records_dir: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The key lives outside the cache folder: a cache folder restored elsewhere (CI) brings no key, so its
    entries fail their MAC under the new user's key, and the files are parsed again."""
    cold = validate(records_dir, cache=True)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "another-user"))
    assert cachekey.key_file().parent.parent == tmp_path / "another-user"
    assert_same_run(cold, validate(records_dir, cache=True))
    assert (tmp_path / "another-user" / "registry" / "cache.key").stat().st_mode & 0o077 == 0
    assert_same_run(cold, validate(records_dir, cache=True))


def test_without_a_key_that_can_be_kept_no_store_is_used(own_cache: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "state-is-a-file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocked))
    assert not cachekey.key_is_kept() and cache.ParseCache.open(BUNDLED_RECORDS) is None
    three_runs(BUNDLED_RECORDS)
    assert store_files(own_cache) == []
