"""The watcher's listing (``registry.watch.listing``) is, after any sequence of changes, what a walk lists.

Random sequences of what people and tools do to a records folder (write, append, remove, rename files and folders,
links, hard links, changed times and modes, hidden names and non-record files), compared with
``incremental.files.walk`` after random steps: every folder's names and every file's size, times and inode."""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from registry.validate.incremental.files import walk
from tests.conftest import inotify_works

if TYPE_CHECKING:
    from registry.watch.listing import Listing

pytestmark = pytest.mark.skipif(not inotify_works(), reason="the watcher needs Linux's inotify, not offered here")

FOLDERS = ["", "result", "source", "result/sub", ".hidden", "result/.h"]
NAMES = ["a.yaml", "b.yaml", "c.yml", ".x.yaml", "d.txt", "sub", "e.json"]
OPERATIONS = ["write", "write", "append", "rm", "mkdir", "rmtree", "mv", "mvdir", "link", "touch", "chmod"]


def _listed(folders):  # type: ignore[no-untyped-def]
    return sorted((folder.parts, folder.path, folder.names, folder.status) for folder in folders)


def _step(root: Path, rng: random.Random, operations: list[str]) -> None:
    folder = root / rng.choice(FOLDERS)
    path = folder / rng.choice(NAMES)
    operation = rng.choice(operations)
    try:
        if operation == "write":
            path.write_text(str(rng.random()))
        elif operation == "append":
            with open(path, "a") as file:
                file.write("more")
        elif operation == "rm":
            path.unlink()
        elif operation == "mkdir":
            path.mkdir(parents=True)
        elif operation == "rmtree" and folder != root:
            shutil.rmtree(folder)
        elif operation == "mv":
            os.rename(path, root / rng.choice(FOLDERS) / rng.choice(NAMES))
        elif operation == "mvdir" and folder != root:
            os.rename(folder, root / rng.choice(FOLDERS[1:4]))
        elif operation == "link":
            os.symlink(rng.choice(["a.yaml", "../result/a.yaml", "missing.yaml", "sub"]), path)
        elif operation == "hard" and not any(part.startswith(".") for part in path.relative_to(root).parts[:-1]):
            os.link(root / rng.choice(FOLDERS) / rng.choice(NAMES), path)
        elif operation == "touch":
            os.utime(path, ns=(rng.randrange(1, 10**18), rng.randrange(1, 10**18)))
        elif operation == "chmod":
            os.chmod(path, 0o600)
    except OSError:
        pass  # the step does not apply to the folder as it is now (a name missing, a folder not empty)


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[Path, Listing]]:
    """A records folder of one file, and its listing (closed after the test)."""
    from registry.watch.listing import Listing

    root = tmp_path / "records"
    (root / "result").mkdir(parents=True)
    (root / "result" / "a.yaml").write_text("first")
    listing = Listing(root)
    yield root, listing
    listing.close()


@pytest.mark.parametrize("seed", range(6))
def test_the_listing_is_what_a_walk_lists(watched: tuple[Path, Listing], seed: int) -> None:
    root, listing = watched
    rng = random.Random(seed)
    for _ in range(400):
        _step(root, rng, OPERATIONS)
        if rng.random() < 0.3:  # changes pile up between two runs
            assert _listed(listing.sync()) == _listed(walk(root))
    assert _listed(listing.sync()) == _listed(walk(root))


@pytest.mark.parametrize("seed", range(3))
def test_hard_links_made_and_removed_inside_the_folder_are_followed(watched: tuple[Path, Listing], seed: int) -> None:
    """A link made or removed through one name changes the other names' change time, which the kernel tells only
    the folder of the name used: every other listed name of the file is looked at again. (Links made and removed
    between two runs, or through a name outside the watched folders, can go unseen: README, "Instant validation".)"""
    root, listing = watched
    rng = random.Random(seed)
    for _ in range(300):
        _step(root, rng, [*OPERATIONS, "hard", "hard"])
        assert _listed(listing.sync()) == _listed(walk(root))


def test_a_write_through_another_name_of_a_listed_file_is_seen(watched: tuple[Path, Listing], tmp_path: Path) -> None:
    root, listing = watched
    os.link(root / "result" / "a.yaml", root / "result" / "b.yaml")
    assert _listed(listing.sync()) == _listed(walk(root))
    os.link(root / "result" / "a.yaml", tmp_path / "elsewhere.yaml")  # a third name, where no watch is
    assert _listed(listing.sync()) == _listed(walk(root))
    with open(tmp_path / "elsewhere.yaml", "a") as file:
        file.write(" and more")  # no event in the records folder: the names known to have others are looked at
    assert _listed(listing.sync()) == _listed(walk(root))


def test_the_records_folder_replaced_is_listed_again(watched: tuple[Path, Listing], tmp_path: Path) -> None:
    root, listing = watched
    root.rename(tmp_path / "old")
    assert listing.sync() == []
    (root / "source").mkdir(parents=True)
    (root / "source" / "b.yaml").write_text("second")
    assert _listed(listing.sync()) == _listed(walk(root))
    (root / "source" / "c.yaml").write_text("third")
    assert _listed(listing.sync()) == _listed(walk(root))


def test_a_copy_made_with_hard_links_is_listed_with_one_pass_for_the_other_names(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A records folder whose every file has another name (``cp -al``): each file's other names are looked for
    in one pass over the listing per call, not in a pass per file (which never ended at 100,000 files)."""
    from registry.watch.listing import Listing

    original, root = tmp_path / "original", tmp_path / "records"
    (original / "result").mkdir(parents=True)
    for i in range(300):
        (original / "result" / f"r{i}.yaml").write_text(f"value: {i}\n")
    shutil.copytree(original, root, copy_function=os.link)
    passes: list[int] = []
    look = Listing._look_at_peers
    monkeypatch.setattr(Listing, "_look_at_peers", lambda self: passes.append(len(self._peers_of)) or look(self))
    listing = Listing(root)
    try:
        assert _listed(listing.sync()) == _listed(walk(root))
        assert max(passes) == 300 and len([p for p in passes if p]) <= 2, passes  # every file noted, looked for at once
        with open(original / "result" / "r7.yaml", "a") as file:
            file.write("more: 1\n")  # through the name outside: seen, as the file has other names
        os.link(root / "result" / "r8.yaml", root / "result" / "r8-again.yaml")
        assert _listed(listing.sync()) == _listed(walk(root))
    finally:
        listing.close()
