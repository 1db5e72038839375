"""Shared fixtures: a private copy of the bundled records, a CLI runner, and an import probe."""

from __future__ import annotations

import atexit
import json
import os
import shutil
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


@pytest.fixture
def records_dir(tmp_path: Path) -> Path:
    """A writable copy of the bundled records, so a test can add or break files freely."""
    target = tmp_path / "records"
    shutil.copytree(BUNDLED_RECORDS, target)
    return target


#: The fixture paper's source, its Table 1 as an import table (examples/), and the registry's demo of importing it.
FIXTURE_SOURCE = "fixture-genomic-20261201-source-genomic-benchmarks-fixture"
FIXTURE_TABLE = ROOT / "examples" / "genomic-benchmarks-fixture-table-1.csv"


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """A registry that holds only the fixture paper's source (the README's import walkthrough starts there)."""
    root = tmp_path / "demo"
    (root / "source").mkdir(parents=True)
    shutil.copy(DATA / "fixture-registry" / "source" / f"{FIXTURE_SOURCE}.yaml", root / "source")
    return root


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def cli(runner: CliRunner):  # type: ignore[no-untyped-def]
    """Run the registry CLI: cli('validate', '--records', path) -> Result (exit_code, output)."""
    from registry.cli import app

    def invoke(*args: str):  # type: ignore[no-untyped-def]
        return runner.invoke(app, [str(a) for a in args])

    return invoke


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
