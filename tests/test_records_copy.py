"""The copy of the bundled records most tests work on (``tests.conftest.copy_of_records``) is what ``shutil.copytree``
makes: the same files and folders, bytes, modes and modification times."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from tests.conftest import BUNDLED_RECORDS, copy_of_records


def tree(root: Path) -> dict[str, tuple[int, int, bytes | None]]:
    """Every entry below ``root`` (and ``root`` itself, as '.'): (mode, modification time, bytes of a file)."""
    found = {}
    for path in [root, *sorted(root.rglob("*"))]:
        status = os.lstat(path)
        data = path.read_bytes() if stat.S_ISREG(status.st_mode) else None
        found[path.relative_to(root).as_posix()] = (status.st_mode, status.st_mtime_ns, data)
    return found


def test_the_copy_is_what_copytree_makes(tmp_path: Path) -> None:
    ours = copy_of_records(tmp_path / "ours")
    theirs = Path(shutil.copytree(BUNDLED_RECORDS, tmp_path / "theirs"))
    assert tree(ours) == tree(theirs)
    assert len([name for name in tree(ours) if name.endswith(".yaml")]) == len(list(BUNDLED_RECORDS.rglob("*.yaml")))


def test_each_copy_is_writable_and_its_own(tmp_path: Path) -> None:
    first, second = copy_of_records(tmp_path / "a"), copy_of_records(tmp_path / "b")
    name = sorted(p.relative_to(first) for p in first.rglob("*.yaml"))[0]
    (first / name).write_text("kind: changed\n")
    assert (second / name).read_bytes() == (BUNDLED_RECORDS / name).read_bytes() != (first / name).read_bytes()


def test_a_copy_onto_an_existing_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    with pytest.raises(FileExistsError):
        copy_of_records(tmp_path / "taken")
