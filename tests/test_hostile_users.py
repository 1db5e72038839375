"""Another local user of the same machine: can they answer for your watcher, plant files in your caches, or read
your key? Each mode of issue 36 reproduced, with two users made by ``useradd`` (``tests/users_support.py``; CI
runs as root and makes them in ``.ci/run``): the answer is the cold run's, and the refusal is said."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry.store import cache as cache_module
from registry.store import cachekey
from tests.conftest import RESULT_11, copy_of_records, inotify_works
from tests.users_support import User, env_as, given_to, python_for, run_as, user


@pytest.fixture(autouse=True)
def own_places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.delenv("REGISTRY_NO_CACHE", raising=False)
    cachekey._key_at.cache_clear()


@pytest.fixture
def other() -> User:
    return user("registry-b")


@pytest.fixture
def broken(records_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The records with one edit that a cold run reports (an invalid registry), run from their folder."""
    result = records_dir / "result" / f"{RESULT_11}.yaml"
    result.write_text(result.read_text().replace("numeric_value: '11.49'", "numeric_value: '11.5'"))
    monkeypatch.chdir(records_dir.parent)
    return records_dir


def cold(cli) -> str:  # type: ignore[no-untyped-def]
    answered = cli("validate", "--records", "records", "--no-cache")
    assert answered.exit_code == 1 and "value-mismatch" in answered.output
    return str(answered.output)


def test_a_socket_folder_of_another_user_is_not_asked(cli, other: User, broken: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The watcher's folder made first by another user (who could listen there): the client asks nothing there,
    says why, and validates itself; 'registry watch' refuses to listen there."""
    folder = tmp_path / "state" / "registry" / "watch"
    folder.mkdir(parents=True)
    given_to(folder, other, 0o777)
    answered = cli("validate", "--records", "records")
    assert answered.exit_code == 1 and answered.output.endswith(cold(cli))
    assert f"{folder} is not a folder only you can open (owner uid {other.uid}" in answered.output
    refused = cli("watch", "--records", "records")
    assert refused.exit_code == 1 and f"{folder} belongs to another user (uid {other.uid})" in refused.output


def test_an_answer_from_another_users_process_is_not_believed(cli, other: User, broken: Path) -> None:  # type: ignore[no-untyped-def]
    """A process of another user listening at the socket (here it binds as root, then becomes that user before it
    listens: its credentials are the other user's) answers 'valid': the client sees whose it is and asks nothing."""
    from registry.watch import address

    path = address.socket_path(Path("records"))
    address.private_folder()
    forger = textwrap.dedent(f"""
        import json, os, socket
        folder = os.open({str(path.parent)!r}, os.O_RDONLY | os.O_DIRECTORY)
        server = socket.socket(socket.AF_UNIX)
        server.bind(f"/proc/self/fd/{{folder}}/{path.name}")
        os.chmod({str(path)!r}, 0o777)
        os.setgroups([]); os.setgid({other.gid}); os.setuid({other.uid})
        server.listen()
        print("listening", flush=True)
        while True:
            connection, _ = server.accept()
            connection.recv(65536)
            connection.sendall(json.dumps({{"files": 85, "records": 85, "issues": [], "run": {{}}}}).encode() + b"\\n")
            connection.close()
    """)
    process = subprocess.Popen([sys.executable, "-c", forger], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline() == "listening\n"  # type: ignore[union-attr]
        answered = cli("validate", "--records", "records")
        assert answered.exit_code == 1 and answered.output.endswith(cold(cli))
        assert f"the other end runs as another user (uid {other.uid}): it was not asked" in answered.output
        built = cli("db", "build", "--records", "records", "--out", "kept.db")
        assert built.exit_code == 1 and "value-mismatch" in built.output
    finally:
        process.kill()
        process.wait()


def test_another_user_is_refused_by_the_peer_check(other: User) -> None:
    """The check both ends make (``address.check_peer``): a connection from another user's process is refused."""
    from registry.watch.address import NotOurs, check_peer

    folder = Path(tempfile.mkdtemp())
    try:
        os.chmod(folder, 0o755)
        import socket

        server = socket.socket(socket.AF_UNIX)
        server.bind(str(folder / "s.sock"))
        os.chmod(folder / "s.sock", 0o777)
        server.listen()
        connect = f"import socket; s = socket.socket(socket.AF_UNIX); s.connect({str(folder / 's.sock')!r}); s.recv(1)"
        child = subprocess.Popen(["setpriv", f"--reuid={other.uid}", f"--regid={other.gid}", "--clear-groups",
                                  "/usr/bin/env", "python3", "-c", connect])
        connection, _ = server.accept()
        with pytest.raises(NotOurs, match=f"the other end runs as another user \\(uid {other.uid}\\)"):
            check_peer(connection)
        connection.close()
        child.wait(60)
        server.close()
    finally:
        shutil.rmtree(folder)


def test_a_cache_folder_another_user_can_write_is_refused(cli, other: User, broken: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """$XDG_CACHE_HOME on a folder another user made first: their link at the store's name would make validate
    create tables in your database. The folder is refused, named, and nothing is written through the link."""
    shared = tmp_path / "shared"
    planted = shared / "registry"
    planted.mkdir(parents=True)
    victim = tmp_path / "registry.db"
    with sqlite3.connect(victim) as connection:
        connection.execute("CREATE TABLE result (id TEXT)")
    before = victim.read_bytes()
    (planted / f"records-{cache_module.code_version()}.sqlite3").symlink_to(victim)
    given_to(shared, other, 0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(shared))
    answered = cli("validate", "--records", "records")
    assert answered.exit_code == 1 and answered.output.endswith(cold(cli))
    assert f"Not using the cache: {planted} belongs to another user (uid {other.uid})" in answered.output.replace("\n", " ")
    assert victim.read_bytes() == before
    assert cache_module.ParseCache.open(broken) is None


@pytest.mark.parametrize("how", ["mode 0777", "another user's"])
def test_a_cache_folder_others_can_write_is_refused(cli, other: User, broken: Path, tmp_path: Path, how: str) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "cache" / "registry"
    folder.mkdir(parents=True)
    if how == "mode 0777":
        folder.chmod(0o777)
        why = f"{folder} can be written by another user (mode 0777)"
    else:
        given_to(folder, other, 0o700)
        why = f"{folder} belongs to another user (uid {other.uid}), not to you"
    answered = cli("validate", "--records", "records")
    assert answered.exit_code == 1 and answered.output.endswith(cold(cli))
    assert f"Not using the cache: {why}" in answered.output.replace("\n", " ")
    assert os.listdir(folder) == []  # nothing kept there


@pytest.mark.parametrize("how", ["0644", "another user's"])
def test_a_key_others_can_read_or_wrote_is_refused(cli, other: User, broken: Path, tmp_path: Path, how: str) -> None:  # type: ignore[no-untyped-def]
    """The cache's key readable by others (or made by another user) lets them forge what the caches hold: refused."""
    key = tmp_path / "state" / "registry" / "cache.key"
    key.parent.mkdir(parents=True, mode=0o700)
    key.write_bytes(os.urandom(cachekey.KEY_BYTES))
    if how == "0644":
        key.chmod(0o644)
    else:
        key.chmod(0o600)
        os.chown(key, other.uid, other.gid)
    answered = cli("validate", "--records", "records")
    assert answered.exit_code == 1 and answered.output.endswith(cold(cli))
    assert f"Not using the cache: {key} is not a file only you can read and write" in answered.output.replace("\n", " ")
    assert not cachekey.key_is_kept()
    assert not (tmp_path / "cache" / "registry" / "reports").exists()


@pytest.fixture
def home_of_a() -> Iterator[tuple[User, Path]]:
    """The user registry-a with a project folder of their own (the records copied), outside the tests' own
    temporary folder (which only root can open)."""
    owner = user("registry-a")
    home = Path(tempfile.mkdtemp(prefix="registry-a-"))
    try:
        os.chmod(home, 0o755)
        copy_of_records(home / "records")
        given_to(home, owner)
        yield owner, home
    finally:
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.skipif(not inotify_works(), reason="the watcher needs Linux's inotify, not offered here")
def test_a_folder_made_unreadable_is_seen_by_the_watcher(home_of_a: tuple[User, Path]) -> None:
    """``chmod 000 records/dataset`` under a running watcher (as a user, not root, whom permissions bind): the
    folder's own status change is an event, so the watcher lists it again, and answers as a cold run does."""
    owner, home = home_of_a
    env = env_as(owner, home)
    watcher = subprocess.Popen(["setpriv", f"--reuid={owner.uid}", f"--regid={owner.gid}", "--clear-groups",
                                *python_for(owner), "-m", "registry", "watch", "--records",
                                "records"], cwd=home, env=env, stderr=subprocess.PIPE, text=True)
    try:
        said = []
        while not any(line.startswith("watching records") for line in said):
            line = watcher.stderr.readline()  # type: ignore[union-attr]
            assert line, said
            said.append(line)
        for mode in (0o000, 0o755):
            (home / "records" / "dataset").chmod(mode)
            warm = run_as(owner, ["-m", "registry", "validate", "--records", "records"], home, env)
            assert " validate: incremental run" in watcher.stderr.readline()  # type: ignore[union-attr]
            fresh = run_as(owner, ["-m", "registry", "validate", "--records", "records", "--no-cache"], home, env)
            assert (warm.returncode, warm.stdout) == (fresh.returncode, fresh.stdout)
            assert (fresh.returncode == 1) == (mode == 0)
    finally:
        watcher.terminate()
        watcher.wait(60)
