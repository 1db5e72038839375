"""`registry db build` writes Datasette metadata; Datasette, started on 127.0.0.1, shows it."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from registry.models import KIND_MODELS
from tests.conftest import ROOT


def test_db_build_writes_metadata_from_the_models(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "registry.db"
    result = cli("db", "build", "--out", db)
    assert result.exit_code == 0, result.output
    path = tmp_path / "registry.metadata.json"
    assert f"datasette {db} --metadata {path}" in " ".join(result.output.split())
    metadata = json.loads(path.read_text())
    tables = metadata["databases"]["registry"]["tables"]
    result_model = KIND_MODELS["result"]
    assert tables["result"]["columns"]["printed_value"] == result_model.model_fields["printed_value"].description
    from registry.models.values import HardwareEntry, Uncertainty

    printed = Uncertainty.model_fields["printed"].description
    assert tables["result"]["columns"]["uncertainty_printed"] == f"uncertainty: {printed}"  # a nested object's field
    assert tables["result_hardware"]["columns"]["accelerator"] == HardwareEntry.model_fields["accelerator"].description
    assert "As a double" in tables["result"]["columns"]["numeric_value_float"]
    assert tables["result"]["title"].startswith("result: One number as a source printed it")
    assert "Author surnames" in tables["source_author"]["columns"]["author"]
    assert tables["results_flat"]["columns"]["evaluation_name"] == \
        KIND_MODELS["evaluation"].model_fields["name"].description
    for kind, model in KIND_MODELS.items():  # every field stored in a kind's own table is described
        columns = tables[kind]["columns"]
        for name, info in model.model_fields.items():
            if name in columns:
                assert columns[name] == info.description, (kind, name)
    again = tmp_path / "again.db"
    assert cli("db", "build", "--out", again).exit_code == 0
    assert json.loads((tmp_path / "again.metadata.json").read_text())["databases"]["again"]["tables"] == tables


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_datasette_serves_the_descriptions(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("datasette", reason="datasette is a test dependency: pip install -e '.[test]'")
    import httpx

    db = tmp_path / "registry.db"
    assert cli("db", "build", "--out", db).exit_code == 0
    port = _free_port()
    datasette = shutil.which("datasette", path=str(Path(sys.executable).parent)) or "datasette"
    server = subprocess.Popen([datasette, str(db), "--metadata", str(tmp_path / "registry.metadata.json"),
                               "-h", "127.0.0.1", "-p", str(port)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        page = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # bounded: a server that never answers fails the test
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/registry/result", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.3)
        assert page is not None and page.status_code == 200, "Datasette did not answer on 127.0.0.1"
        assert "The value exactly as printed, as text (for example &#39;33.88&#39;)." in page.text
        meta = httpx.get(f"http://127.0.0.1:{port}/-/metadata.json", timeout=5).json()
        assert meta["title"] == "Evidence registry"
        view = httpx.get(f"http://127.0.0.1:{port}/registry/results_flat.json?_shape=array", timeout=5).json()
        assert sorted(row["printed_value"] for row in view) == ["11.49", "33.88"]
    finally:
        server.terminate()
        server.wait(timeout=10)
