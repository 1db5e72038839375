"""Shared fixtures: a private copy of the bundled records, a CLI runner, and an import probe."""

from __future__ import annotations

import ast
import atexit
import functools
import itertools
import json
import operator
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

# Wide output, so that assertions on rendered phrases do not depend on line wrapping.
os.environ["COLUMNS"] = "250"
# The parse cache of this test run only ($XDG_CACHE_HOME/registry), never the user's; removed at exit.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="registry-tests-cache-")
# And its key ($XDG_STATE_HOME/registry/cache.key), never the user's.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="registry-tests-state-")

import click
import click.testing
import pytest
from typer.testing import CliRunner

atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)
atexit.register(shutil.rmtree, os.environ["XDG_STATE_HOME"], True)

ROOT = Path(__file__).resolve().parent.parent
BUNDLED_RECORDS = ROOT / "records"
DATA = Path(__file__).resolve().parent / "data"
SEEDS = ROOT.parent / "shared" / "seeds"

RESULT_33 = "saadat-fellay-20261015-result-nt-2-5b-training-peak-memory-flashattention-checkpointing"
RESULT_11 = RESULT_33 + "-zero2"
CONFIG_33 = "saadat-fellay-20261015-config-nt-2-5b-training-flashattention-checkpointing"
SOURCE = "saadat-fellay-20261015-source-optimizing-genomic-language-models"


def copy_of_records(target: Path) -> Path:
    """A writable copy of the bundled records at ``target``: what ``shutil.copytree`` makes (the same bytes, modes
    and times, folders included), written from the files as this process first read them (tests make hundreds of
    copies: each read the 85 files again and asked each for its status and extended attributes)."""
    folders, files = _bundled_snapshot()
    target.mkdir()
    for folder, _, _ in folders[1:]:
        (target / folder).mkdir()
    for name, mode, times, data in files:
        path = target / name
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            os.write(descriptor, data)
        finally:
            os.close(descriptor)
        os.chmod(path, mode)
        os.utime(path, ns=times)
    for folder, mode, times in reversed(folders):  # innermost first: a folder's time is set after its files
        os.chmod(target / folder, mode)
        os.utime(target / folder, ns=times)
    return target


Snapshot = tuple[tuple[tuple[str, int, tuple[int, int]], ...], tuple[tuple[str, int, tuple[int, int], bytes], ...]]


@functools.cache
def _bundled_snapshot() -> Snapshot:
    """The bundled records' folders (outermost first, the root as '.') and files: (relative path, mode, times)."""
    folders, files = [], []
    for folder, names, file_names in os.walk(BUNDLED_RECORDS):
        names.sort()
        status = os.stat(folder)
        relative = os.path.relpath(folder, BUNDLED_RECORDS)
        folders.append((relative, stat.S_IMODE(status.st_mode), (status.st_atime_ns, status.st_mtime_ns)))
        for name in sorted(file_names):
            path = os.path.join(folder, name)
            status = os.stat(path)
            with open(path, "rb") as handle:
                data = handle.read()
            files.append((os.path.join(relative, name), stat.S_IMODE(status.st_mode),
                          (status.st_atime_ns, status.st_mtime_ns), data))
    return tuple(folders), tuple(files)


@pytest.fixture
def records_dir(tmp_path: Path) -> Path:
    """A writable copy of the bundled records, so a test can add or break files freely."""
    return copy_of_records(tmp_path / "records")


#: The fixture paper's source, its Table 1 as an import table (examples/), and the registry's demo of importing it.
FIXTURE_SOURCE = "fixture-genomic-20261201-source-genomic-benchmarks-fixture"
FIXTURE_TABLE = ROOT / "examples" / "genomic-benchmarks-fixture-table-1.csv"


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """A registry that holds only the fixture paper's source (docs/curating.md's import walkthrough starts there)."""
    root = tmp_path / "demo"
    (root / "source").mkdir(parents=True)
    shutil.copy(DATA / "fixture-registry" / "source" / f"{FIXTURE_SOURCE}.yaml", root / "source")
    return root


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@functools.cache
def registry_command() -> click.Command:
    """The registry CLI as the Click command Typer makes of it, made once per test process.

    Typer's ``CliRunner.invoke`` makes it again for every call (about 7 ms of the CLI's tens of commands);
    a command run by the console script makes it once too."""
    import typer.main

    from registry.cli import app

    return typer.main.get_command(app)


def invoke(*args: object, command: click.Command | None = None):  # type: ignore[no-untyped-def]
    """Run the registry CLI in this process: invoke('validate', '--records', path) -> Result (exit_code, output).

    Click's runner, given the command made once: Typer's runs the same code after making the command again.
    Module- and session-scoped fixtures call this directly, as they cannot take the function-scoped ``cli``."""
    return click.testing.CliRunner().invoke(command or registry_command(), [str(a) for a in args])


@pytest.fixture
def cli(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """Run the registry CLI: cli('validate', '--records', path) -> Result (exit_code, output).

    A test that patches (``monkeypatch``) may patch what the command is made of (the options of 'registry new
    KIND' come from registry/generated/kindoptions.json): it gets the command made afresh, as Typer's runner makes it."""
    if "monkeypatch" not in request.fixturenames:
        return invoke
    import typer.main

    from registry.cli import app

    return lambda *args: invoke(*args, command=typer.main.get_command(app))


def modules_imported_by(commands: list[list[str]], watched: tuple[str, ...]) -> list[str]:
    """Run CLI ``commands`` in a fresh interpreter; the ``watched`` packages (or their submodules) it imported.

    Each command must exit with status 0. A fresh interpreter, because this test process
    has long since imported everything.
    """
    code = (
        "import json, sys\n"
        "from typer.testing import CliRunner\n"
        "from registry.cli import app\n"
        "runner = CliRunner()\n"
        "for args in json.loads(sys.argv[1]):\n"
        "    result = runner.invoke(app, args)\n"
        "    assert result.exit_code == 0, (args, result.output)\n"
        "watched = tuple(json.loads(sys.argv[2]))\n"
        "print(json.dumps(sorted(m for m in sys.modules if m in watched or m.split('.')[0] in watched)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code, json.dumps(commands), json.dumps(watched)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def pytest_sessionstart(session: pytest.Session) -> None:
    """The generated options of 'registry new' made fresh before any test runs (as 'make generate' does), so that a
    '--help' run in a fresh interpreter finds them fresh and builds no model (registry.generated.kindoptions)."""
    from registry.generated import kindoptions

    kindoptions.written()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave a test module unimported when its module-wide markers put every test of it outside ``-m``.

    Such a module's tests would all be deselected after collection; importing it anyway (torch and
    transformers, a browser driver, a database client) costs each ``make test-fast`` worker seconds for nothing.
    """
    expression = config.getoption("markexpr", "") or ""
    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_") or not expression:
        return None
    marks = module_marks(collection_path)
    return True if marks and not can_select(expression, marks) else None


def module_marks(path: Path) -> set[str]:
    """The markers a module's ``pytestmark = pytest.mark.X`` (or a list of them) gives all its tests, read unrun."""
    try:
        text = path.read_text(encoding="utf-8")
        if "pytestmark" not in text:  # most modules: no need to parse them (every xdist worker asks of every module)
            return set()
        tree = ast.parse(text)
    except (OSError, SyntaxError, UnicodeDecodeError):
        return set()
    marks: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            values = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
            for value in values:
                mark = value.func if isinstance(value, ast.Call) else value
                if (isinstance(mark, ast.Attribute) and isinstance(mark.value, ast.Attribute)
                        and mark.value.attr == "mark"):
                    marks.add(mark.attr)
    return marks


def can_select(expression: str, marks: set[str]) -> bool:
    """Whether ``-m expression`` selects some test that carries ``marks`` (whatever other markers it has)."""
    try:
        from _pytest.mark.expression import Expression

        compiled = Expression.compile(expression)
    except (ImportError, AttributeError, SyntaxError, ValueError, pytest.UsageError):
        return True
    if "=" in expression:  # a marker's keyword arguments: not decided here
        return True
    others = sorted(set(re.findall(r"[^\s()]+", expression)) - {"and", "or", "not"} - marks)
    if len(others) > 12:
        return True
    for values in itertools.product((False, True), repeat=len(others)):
        carried = marks | {name for name, value in zip(others, values, strict=True) if value}
        if compiled.evaluate(functools.partial(operator.contains, carried)):
            return True
    return False


def inotify_works() -> bool:
    """Whether this system offers Linux's inotify (``registry watch`` needs it; a container may refuse it)."""
    from registry.watch.inotify import Inotify, Unavailable

    try:
        Inotify().close()
    except (Unavailable, OSError):
        return False
    return True


def restore_a_bundled_file(root: Path, seed: int) -> None:
    """A property test's step: put one bundled record file back under ``root`` (with an odd ``seed``, the first,
    whether or not it is there; else the first that is missing)."""
    import shutil

    for source in BUNDLED_RECORDS.rglob("*.yaml"):
        target = root / source.relative_to(BUNDLED_RECORDS)
        if seed % 2 or not target.exists():
            target.parent.mkdir(exist_ok=True)
            shutil.copy(source, target)
            break
