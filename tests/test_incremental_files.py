"""The incremental index's compact forms behave exactly as the plain mappings they replace: the file entries kept
as columns beside each folder's listing (``incremental.files.Files``), the records' entries kept as one buffer
(``incremental.index.RecordEntries``), and the index written and read back through its raw columns."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

import pytest

from registry.validate.incremental import index as incremental_index
from registry.validate.incremental.files import NO_DIGEST, Files, _same, changed_files
from registry.validate.incremental.index import RecordEntries, RecordEntry, keep, recall
from registry.validate.memo import STATUS, Folder


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def status(rng: random.Random) -> bytes:
    return bytes(rng.randrange(256) for _ in range(32))


def listing(rng: random.Random, names: dict[str, list[str]], statuses: dict[str, bytes]) -> list[Folder]:
    return [Folder(tuple(prefix.split("\0")[:-1]), f"/r/{prefix}", sorted(folder),
                   b"".join(statuses[prefix + name] for name in sorted(folder)))
            for prefix, folder in names.items() if folder]


def entry(rng: random.Random, key: str, statuses: dict[str, bytes]) -> bytes | list[Any]:
    """An entry as ``outcome`` makes them: mostly the file's listed status and a digest; some lists; a few bytes
    with no digest, or with a status other than the listing's."""
    digest = bytes(rng.randrange(256) for _ in range(16))
    roll = rng.random()
    if roll < 0.15:
        return [statuses[key] + digest, roll < 0.1, f"id-{rng.randrange(50)}", "result", []]
    if roll < 0.2:
        return statuses[key]
    if roll < 0.25:
        return bytes(32) + digest
    return statuses[key] + digest


def expected_digests(model: dict[str, Any], names: dict[str, list[str]]) -> dict[str, tuple[str, bytes]]:
    """Each listed folder's names and their files' digests, as ``Files.folder_digests`` gives them, from a plain
    mapping of the entries."""
    found = {}
    for prefix, folder in names.items():
        if not folder:
            continue
        blobs = [model.get(prefix + name) for name in sorted(folder)]
        found[prefix[:-1].replace("\0", "/")] = (
            "".join(f"{name}\0" for name in sorted(folder)),
            b"".join(((blob if type(blob) is bytes else blob[0])[32:] if blob is not None else b"") or NO_DIGEST
                     for blob in blobs))
    return found


@pytest.mark.parametrize("seed", range(12))
def test_file_entries_as_columns_are_the_mapping_they_replace(seed: int) -> None:
    """Random runs of edits (entries set, replaced, deleted; files added, removed, touched; a folder gone), each
    ended by lining the columns up with the new listing, as a run does: every entry read back is the one set, and
    ``Files.folder_digests`` gives what a plain mapping of the same entries gives."""
    rng = random.Random(seed)
    names: dict[str, list[str]] = {"result\0": [], "source\0": [], "a\0b\0": []}
    statuses: dict[str, bytes] = {}
    model: dict[str, Any] = {}
    files = Files()
    for step in range(8):
        for _ in range(rng.randrange(1, 30)):
            prefix = rng.choice(list(names))
            folder = names[prefix]
            move = rng.random()
            if move < 0.5 or not folder:
                name = f"r{rng.randrange(200)}.yaml"
                if name not in folder:
                    folder.append(name)
                statuses[prefix + name] = status(rng)
                model[prefix + name] = files_entry = entry(rng, prefix + name, statuses)
                files[prefix + name] = files_entry
            elif move < 0.7:
                name = folder.pop(rng.randrange(len(folder)))
                if prefix + name in model:
                    del model[prefix + name]
                    del files[prefix + name]
            elif move < 0.9:  # touched, not changed: the new status, the digest as it was
                name = rng.choice(folder)
                statuses[prefix + name] = status(rng)
                old = model.get(prefix + name)
                if type(old) is bytes and len(old) == 48:
                    model[prefix + name] = files[prefix + name] = statuses[prefix + name] + old[32:]
            elif step == 5:
                for name in folder:
                    model.pop(prefix + name, None)
                    if prefix + name in files:
                        del files[prefix + name]
                folder.clear()
        for key in model:
            assert files[key] == model[key]
        files.settle(listing(rng, names, statuses))
        for key, value in model.items():
            assert key in files and files.get(key) == value
        assert "result\0missing.yaml" not in files and files.get("result\0missing.yaml") is None
        assert files.folder_digests() == expected_digests(model, names)
        restored = Files(*files.kept_form())
        assert restored.folder_digests() == expected_digests(model, names)
        assert all(restored[key] == value for key, value in model.items())
    assert any(digests != bytearray(len(digests)) for _, _, digests in files.folders.values())


def test_plain_entries_are_held_in_the_columns_not_by_key() -> None:
    """An entry that is the listed status and a digest takes 16 bytes of its folder's column and no object."""
    rng = random.Random(1)
    statuses = {f"result\0r{i}.yaml": status(rng) for i in range(100)}
    folder = listing(rng, {"result\0": [f"r{i}.yaml" for i in range(100)]}, statuses)
    files = Files()
    files.settle(folder)
    for key, listed in statuses.items():
        files[key] = listed + bytes([1]) * 16
    assert not files.plain and not files.odd
    assert files.folders["result\0"][2] == bytearray([1]) * 1600
    assert files["result\0r7.yaml"][32:] != NO_DIGEST


def entries_of(entries: dict[str, RecordEntry]) -> RecordEntries:
    held = RecordEntries()
    for record_id, entry in entries.items():
        held[record_id] = entry
    return held


def record_entry(references: str) -> RecordEntry:
    """A result's entry that references ``references`` and read that record."""
    return RecordEntry.new(kind="result", references=references,
                           facts_read=f"\nr\0{references}\n" if references else "", flags=0)


def test_entries_kept_as_one_buffer_read_and_searched_as_they_were(tmp_path: Path) -> None:
    """The records' entries written and read back: each opens to what was kept; a search of the buffer finds the
    entries holding a fact, skips those opened since, and one replaced is kept in its new form."""
    root = tmp_path / "records"
    root.mkdir()
    entries = {f"id-{i}": record_entry(f"src-{i % 3}") for i in range(40)}
    index = incremental_index.empty_index()
    index["records"] = entries_of(entries)
    now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    keep(root, index, now, 0)
    again = recall(root)
    assert again is not None
    held = again["records"]
    assert sorted(held.holding(b"\nr\0src-1\n")) == sorted(i for i, kept in entries.items() if kept.references == "src-1")
    assert held["id-4"] == entries["id-4"] and held["id-4"].references == "src-1"  # opened: no longer found by a search
    assert "id-4" not in held.holding(b"\nr\0src-1\n")
    held["id-7"] = record_entry("src-2")
    held.pop("id-8")
    keep(root, again, now, 0)
    third = recall(root)
    assert third is not None
    assert list(third["records"]) == [i for i in entries if i != "id-8"]
    assert "id-7" in third["records"].holding(b"\nr\0src-2\n")
    assert third["records"]["id-7"].references == "src-2" and third["records"]["id-9"] == entries["id-9"]


def test_a_damaged_column_is_not_read_back(tmp_path: Path) -> None:
    """The raw columns are under a MAC of their own: one byte changed in them and the index is not used."""
    root = tmp_path / "records"
    root.mkdir()
    index = incremental_index.empty_index()
    index["records"] = entries_of({"id-1": record_entry("")})
    keep(root, index, dt.datetime(2026, 1, 1, tzinfo=dt.UTC), 0)
    path = incremental_index._entry_path(root)
    data = bytearray(path.read_bytes())
    assert recall(root) is not None
    data[incremental_index._PREFIX.size] ^= 1
    path.write_bytes(bytes(data))
    assert recall(root) is None


@pytest.mark.parametrize("seed", range(10))
def test_a_folder_listed_under_other_names_finds_every_file_an_entry_does_not_vouch_for(seed: int,
                                                                                       tmp_path: Path) -> None:
    """Files added, removed and renamed in a folder, others touched, modified within the racy window, made links
    or given odd entries: the files ``changed_files`` reads again are exactly those whose entries, looked up one by
    one, do not vouch for them (``Files.suspects`` lines the names up in bulk instead)."""
    rng = random.Random(seed)
    settled_before = 10**6

    def listed_status(recent: bool = False) -> bytes:
        moment = rng.randrange(settled_before, 2 * settled_before) if recent else rng.randrange(1, 1000)
        return STATUS.pack(rng.randrange(1, 99), moment, moment, rng.randrange(1, 10**6))

    old = sorted({f"r{rng.randrange(400)}.yaml" for _ in range(150)})
    statuses = {name: listed_status() for name in old}
    files = Files()
    files.settle([Folder(("result",), str(tmp_path), old, b"".join(statuses[name] for name in old))])
    for name in old:
        roll = rng.random()
        digest = bytes([1 + rng.randrange(255)]) * 16
        files[f"result\0{name}"] = ([statuses[name] + digest, True, "x", "result", []] if roll < 0.1
                                   else statuses[name] if roll < 0.15 else statuses[name] + digest)
    new = [name for name in old if rng.random() > 0.1] + [f"n{rng.randrange(400)}.yaml" for _ in range(10)]
    new = sorted(set(new))
    now = {}
    for name in new:
        roll = rng.random()
        now[name] = (listed_status() if name not in statuses or roll < 0.1 else listed_status(recent=True)
                     if roll < 0.15 else bytes(32) if roll < 0.18 else statuses[name])
    folder = Folder(("result",), str(tmp_path), new, b"".join(now[name] for name in new))
    changed, removed, _ = changed_files(files, files.folders, [folder], tmp_path, settled_before)
    one_by_one = [f"result\0{name}" for name in new
                  if not _same(files, f"result\0{name}", str(tmp_path / name), now[name], settled_before, tmp_path)]
    assert [key for key, *_ in changed] == one_by_one
    assert sorted(removed) == sorted(f"result\0{name}" for name in old if name not in new)
    assert any(name in statuses and now[name] == statuses[name] for name in new)  # some passed without a look
