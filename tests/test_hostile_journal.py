"""Issue 28, items 1, 2 and 16: a batch journal is data from an untrusted file (a cloned registry can carry one).

Every journal is checked whole before anything acts on it; ``recover``, ``validate`` and the batch
writers refuse one this registry did not write with a located message, and every file outside the
records folder is left byte for byte as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry.store import batch
from registry.store.batch import STAGING
from tests.conftest import FIXTURE_TABLE as TABLE


def outside_tree(tmp_path: Path, records: Path) -> dict[str, str]:
    """Every regular file under ``tmp_path`` but the records folder, by path, with its SHA-256."""
    found = {}
    for path in sorted(tmp_path.rglob("*")):
        if path.is_relative_to(records) or path.is_symlink() or not path.is_file():
            continue
        found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside the records folder that no command may touch."""
    path = tmp_path / "outside" / "secret.txt"
    path.parent.mkdir()
    path.write_text("a file the registry must never touch\n")
    return path


def journal(records: Path, content: object | bytes) -> Path:
    staging = records / STAGING
    staging.mkdir(exist_ok=True)
    raw = content if isinstance(content, bytes) else json.dumps(content).encode()
    (staging / "journal.json").write_bytes(raw)
    return staging


def entry(target: str, digest: str, old: str | None = None) -> dict[str, object]:
    return {"target": target, "staged": "000000.yaml", "sha256": digest, "old": old}


def refused_everywhere(cli, demo: Path, tmp_path: Path, located: str) -> None:  # type: ignore[no-untyped-def]
    """validate reports the journal, recover and the batch writers refuse it; nothing outside changes."""
    before = outside_tree(tmp_path, demo)
    checked = cli("validate", "--records", demo)
    assert checked.exit_code == 1 and "batch-journal-refused" in checked.output, checked.output
    assert located in checked.output and "unexpected" not in checked.output
    for command in (["recover"], ["fmt"], ["import", TABLE, "--source", "x", "--batch", "x", "--date", "2026-12-01"]):
        result = cli(*command, "--records", demo)
        assert result.exit_code == 1, (command, result.output)
        assert located in result.output and "nothing was undone" in result.output, (command, result.output)
        assert "rm -r" in result.output and "unexpected" not in result.output, result.output
    assert outside_tree(tmp_path, demo) == before
    assert (demo / STAGING).is_dir(), "the staging folder is left for the user to look at"


def test_recover_never_deletes_a_file_outside_the_records_folder(cli, demo: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                 secret: Path) -> None:
    digest = hashlib.sha256(secret.read_bytes()).hexdigest()
    journal(demo, {"version": 1, "files": [entry(str(secret), digest)]})
    refused_everywhere(cli, demo, tmp_path, "files[0].target: " + repr(str(secret)) + " is an absolute path")
    assert secret.exists()


@pytest.mark.parametrize(("target", "problem"), [
    ("../outside/secret.txt", "leaves the records folder"),
    ("source/../../outside/secret.txt", "leaves the records folder"),
    ("linked/secret.yaml", "goes through a symbolic link"),
    ("family/.hidden.yaml", "names a hidden file"),
    ("family/x.txt", "is not a record file"),
])
def test_a_journal_target_must_stay_inside_the_records_folder(cli, demo: Path, tmp_path: Path, secret: Path,  # type: ignore[no-untyped-def]
                                                              target: str, problem: str) -> None:
    (demo / "linked").symlink_to(secret.parent)
    (secret.parent / "secret.yaml").write_text("kind: family\n")
    digest = hashlib.sha256(b"kind: family\n").hexdigest()
    journal(demo, {"version": 1, "files": [entry(target, digest)]})
    refused_everywhere(cli, demo, tmp_path, problem)
    assert (secret.parent / "secret.yaml").exists()


def test_an_old_text_that_links_to_a_secret_is_never_copied_over_a_record(cli, demo: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                           secret: Path) -> None:
    record = next((demo / "source").glob("*.yaml"))
    text = record.read_bytes()
    staging = journal(demo, {"version": 1, "files": [entry(f"source/{record.name}", hashlib.sha256(text).hexdigest(),
                                                          old="000000.old")]})
    (staging / "000000.old").symlink_to(secret)
    result = cli("recover", "--records", demo)
    assert result.exit_code == 1 and "is not a regular file the batch writer made" in result.output, result.output
    assert record.read_bytes() == text and not record.is_symlink()


@pytest.mark.parametrize(("content", "located"), [
    (b'{"version": 1, "files": [null]}', "files[0]: None is not a mapping"),
    (b'{"version": 1, "files": [{"staged": "000000.yaml", "sha256": "' + b"0" * 64 + b'", "old": null}]}',
     "files[0].target: None is not text"),
    (b'{"version": 1, "files": [{"target": "a\\u0000.yaml", "staged": "000000.yaml", "sha256": "' + b"0" * 64
     + b'", "old": null}]}', "is not a file name"),
    (b"[1, 2]", "holds a list, not the journal's mapping"),
    (b'"journal"', "holds a str, not the journal's mapping"),
    (b'{"version": 1, "files": "all"}', "files: 'all' is not a list"),
    (b'{"version": 2, "files": []}', "version: 2 is not 1"),
    (b'{"version": 1, "files": [', "is not JSON"),
    (b"\xff\xfe", "is not JSON"),
    (b'{"version": 1, "files": [{"target": "/dev/zero", "staged": "000000.yaml", "sha256": "' + b"0" * 64
     + b'", "old": null}]}', "is an absolute path"),
    (b'{"version": 1, "files": [{"target": "a.yaml", "staged": "../../x", "sha256": "' + b"0" * 64
     + b'", "old": null}]}', "files[0].staged: '../../x' is not a name the batch writer gives"),
    (b'{"version": 1, "files": [{"target": "a.yaml", "staged": "000000.yaml", "sha256": "' + b"0" * 64
     + b'", "old": "/etc/passwd"}]}', "files[0].old: '/etc/passwd' is not a name"),
])
def test_a_malformed_journal_gets_a_located_message(cli, demo: Path, tmp_path: Path, content: bytes,  # type: ignore[no-untyped-def]
                                                    located: str) -> None:
    journal(demo, content)
    refused_everywhere(cli, demo, tmp_path, located)


def test_a_journal_that_is_a_fifo_is_never_read(cli, demo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (demo / STAGING).mkdir()
    os.mkfifo(demo / STAGING / "journal.json")
    refused_everywhere(cli, demo, tmp_path, "is not a regular file")


def test_a_fifo_target_is_left_alone_without_waiting(cli, demo: Path) -> None:  # type: ignore[no-untyped-def]
    (demo / "family").mkdir()
    os.mkfifo(demo / "family" / "pipe.yaml")
    journal(demo, {"version": 1, "files": [entry("family/pipe.yaml", "0" * 64)]})
    assert cli("validate", "--records", demo).exit_code in (0, 1)  # returns (the FIFO is not read)
    result = cli("recover", "--records", demo)
    assert result.exit_code == 0 and "kept" in result.output, result.output
    assert (demo / "family" / "pipe.yaml").exists() and not (demo / STAGING).exists()


def test_a_staging_folder_that_is_a_link_is_refused(cli, demo: Path, tmp_path: Path, secret: Path) -> None:  # type: ignore[no-untyped-def]
    (demo / STAGING).symlink_to(secret.parent)
    result = cli("recover", "--records", demo)
    assert result.exit_code == 1 and "is not a folder (a link or another file)" in result.output, result.output
    assert secret.exists() and (demo / STAGING).is_symlink()


@pytest.mark.parametrize("suffix", [".yaml", ".yml"])
def test_a_journal_the_writer_made_is_still_undone(demo: Path, suffix: str) -> None:
    """The checks refuse nothing a real batch writes (fmt rewrites .yml files too): it is undone as before."""
    path = demo / "family" / f"fixture-genomic-20261201-family-x{suffix}"
    text = "kind: family\nid: fixture-genomic-20261201-family-x\nname: X\n"
    path.parent.mkdir()
    path.write_text(text)
    journal(demo, {"version": 1, "started_at": "then", "files": [entry(f"family/{path.name}", batch.sha256(text))]})
    recovery = batch.recover(demo)
    assert recovery is not None and recovery.undone == [path] and not path.exists()


def test_a_leftover_staging_folder_is_a_warning(cli, demo: Path) -> None:  # type: ignore[no-untyped-def]
    """Item 16: a kill while staging leaves the registry as it was, but the folder is named until removed."""
    staging = demo / STAGING
    staging.mkdir()
    (staging / "000000.yaml").write_text("kind: family\n")
    checked = cli("validate", "--records", demo)
    assert checked.exit_code == 0 and "leftover-batch" in checked.output, checked.output
    assert "registry recover" in checked.output
    assert cli("recover", "--records", demo).exit_code == 0 and not staging.exists()
    assert "leftover-batch" not in cli("validate", "--records", demo).output


# -- fuzz: any journal at all ------------------------------------------------------------------------------

JOURNAL_EXAMPLES = max(50, int(os.environ.get("REGISTRY_FUZZ_EXAMPLES", "2000")) // 10)
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                   max_size=4), max_leaves=12)


@st.composite
def hostile_journal(draw: st.DrawFn, secret: Path, record: str, digests: list[str]) -> bytes:
    """A journal as a batch writes it with hostile parts, or any JSON, or any bytes."""
    how = draw(st.sampled_from(["entries", "entries", "entries", "json", "bytes"]))
    if how == "bytes":
        return draw(st.binary(max_size=200))
    if how == "json":
        return json.dumps(draw(_JSON)).encode()
    targets = st.sampled_from([str(secret), "../outside/secret.txt", f"source/{record}", "linked/secret.txt",
                               "/dev/zero", "source/../../outside/secret.txt", "", ".", "family/new.yaml",
                               "family/\x00.yaml", "C:/x.yaml", "\\\\server\\x.yaml"]) | st.text(max_size=30)
    entries = st.fixed_dictionaries({
        "target": targets | _JSON, "staged": st.sampled_from(["000000.yaml", "../x", "000001.yaml"]) | _JSON,
        "sha256": st.sampled_from(digests) | _JSON, "old": st.sampled_from([None, "000000.old", "/etc/passwd"]) | _JSON,
    })
    files = st.lists(entries | _JSON, max_size=4)
    journal = {"version": draw(st.sampled_from([1, 1, 1, 2, "1", None])), "started_at": draw(st.text(max_size=10)
                                                                                           | _JSON),
               "files": draw(files | _JSON)}
    for key in draw(st.lists(st.sampled_from(list(journal)), max_size=2)):
        journal.pop(key, None)
    return json.dumps(journal).encode()


@pytest.mark.slow
def test_no_journal_touches_a_file_outside_the_records_folder(demo: Path, tmp_path: Path) -> None:
    """Seeded fuzz: whatever the journal, recovery acts inside the records folder or refuses with a located message."""
    from registry.errors import RegistryError

    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("never touched\n")
    (demo / "linked").symlink_to(secret.parent)
    record = next((demo / "source").glob("*.yaml"))
    text = record.read_bytes()
    digests = [hashlib.sha256(secret.read_bytes()).hexdigest(), hashlib.sha256(text).hexdigest(), "0" * 64]
    outside = outside_tree(tmp_path, demo)

    @settings(max_examples=JOURNAL_EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(hostile_journal(secret, record.name, digests))
    def one(raw: bytes) -> None:
        staging = demo / STAGING
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        (staging / "journal.json").write_bytes(raw)
        (staging / "000000.old").symlink_to(secret)
        batch.pending(demo)  # what validate asks: never an exception
        try:
            batch.recover(demo)
        except RegistryError as exc:
            assert "journal" in str(exc) or "staging" in str(exc) or STAGING in str(exc), exc
        assert outside_tree(tmp_path, demo) == outside
        assert secret.read_text() == "never touched\n"
        if not record.exists() or record.is_symlink() or record.read_bytes() != text:
            record.unlink(missing_ok=True)  # a journal naming it with its own digest undoes it: put it back
            record.write_bytes(text)

    one()
