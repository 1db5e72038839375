"""Folders and files only this user can reach (``registry.store.private``): what the caches, the key and the
watcher's socket are kept in, and how their files are made and read (issue 36)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from registry.store.private import (
    OTHERS_ANY,
    NotRegular,
    UnsafeFolder,
    create_new,
    open_regular,
    own_folder,
    temporary_name,
)


def test_a_folder_is_made_yours_alone(tmp_path: Path) -> None:
    made = own_folder(tmp_path / "a" / "b", closed=OTHERS_ANY)
    assert made.is_dir() and made.stat().st_mode & 0o777 == 0o700
    assert own_folder(made) == made  # found as made: used


@pytest.mark.parametrize(("mode", "closed", "said"), [
    (0o777, None, "can be written by another user (mode 0777)"),
    (0o720, None, "can be written by another user (mode 0720)"),
    (0o755, OTHERS_ANY, "can be opened by others (mode 0755)"),
])
def test_a_folder_others_can_reach_is_refused(tmp_path: Path, mode: int, closed: int | None, said: str) -> None:
    folder = tmp_path / "open"
    folder.mkdir()
    folder.chmod(mode)
    with pytest.raises(UnsafeFolder, match=f"{folder} {said}".replace("(", r"\(").replace(")", r"\)")):
        own_folder(folder, **({} if closed is None else {"closed": closed}))


def test_a_link_or_a_file_where_the_folder_goes_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "file").write_text("")
    with pytest.raises(UnsafeFolder, match="is a link, not a folder"):
        own_folder(tmp_path / "link")
    with pytest.raises(UnsafeFolder, match="is not a folder"):
        own_folder(tmp_path / "file")


def test_a_folder_above_that_others_can_write_is_refused_unless_sticky(tmp_path: Path) -> None:
    above = tmp_path / "shared"
    above.mkdir()
    above.chmod(0o777)
    with pytest.raises(UnsafeFolder, match=f"{above} can be written by another user \\(mode 0777\\), who could move"):
        own_folder(above / "registry")
    above.chmod(0o1777)  # as /tmp: no one may move another's entry
    assert own_folder(above / "registry").is_dir()


def test_a_new_file_is_never_written_through_what_was_planted(tmp_path: Path) -> None:
    """``O_CREAT|O_EXCL|O_NOFOLLOW``: a link or a file at the name makes the write fail; what it leads to is left."""
    victim = tmp_path / "victim"
    victim.write_text("kept")
    (tmp_path / "link").symlink_to(victim)
    (tmp_path / "there").write_text("kept too")
    for name in ("link", "there"):
        with pytest.raises(FileExistsError):
            create_new(tmp_path / name)
    assert victim.read_text() == "kept" and (tmp_path / "there").read_text() == "kept too"
    fresh = temporary_name(tmp_path / "entry.json")
    assert fresh.name.startswith(".entry.json.") and fresh != temporary_name(tmp_path / "entry.json")
    os.close(create_new(fresh))
    assert fresh.stat().st_mode & 0o777 == 0o600


def test_a_kept_file_is_read_only_where_it_is_a_regular_file(tmp_path: Path) -> None:
    """A link is refused, and a FIFO is refused at once: opened for reading, it would wait for a writer."""
    kept = tmp_path / "kept"
    kept.write_bytes(b"entry")
    with open(open_regular(kept), "rb") as file:
        assert file.read() == b"entry"
    (tmp_path / "link").symlink_to(kept)
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    for name, said in (("link", "is a link"), ("fifo", "is not a regular file"), ("folder", "is not a regular file")):
        done: list[BaseException] = []

        def read(name: str = name, done: list[BaseException] = done) -> None:
            try:
                open_regular(tmp_path / name)
            except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
                done.append(exc)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(30)
        assert done and isinstance(done[0], NotRegular) and said in str(done[0]), (name, done)


def test_a_folder_not_made_yet_is_refused_where_it_would_be_made_under_others(tmp_path: Path) -> None:
    """Asked about without making it (``make=False``: is the cache usable?), a missing folder is judged by the
    folders above it: under a folder others can write, it would be refused once made."""
    above = tmp_path / "shared"
    above.mkdir()
    above.chmod(0o777)
    with pytest.raises(UnsafeFolder, match=f"{above} can be written by another user"):
        own_folder(above / "registry", make=False)
    assert not (above / "registry").exists()
    assert own_folder(tmp_path / "not yet", make=False) == tmp_path / "not yet"
