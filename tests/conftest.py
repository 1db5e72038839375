"""Shared fixtures: a private copy of the bundled records, and a CLI runner."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

# Wide output, so that assertions on rendered phrases do not depend on line wrapping.
os.environ["COLUMNS"] = "250"

import pytest
from typer.testing import CliRunner

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
