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
        columns = tables[model.sql_name()]["columns"]
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
        assert all(row["result_page"] is None for row in view)  # built without a base URL: no address made up
    finally:
        server.terminate()
        server.wait(timeout=10)


#: Each view's page columns: (column, the kind of record it links, or None for the row's own 'kind', its id column).
PAGE_COLUMNS = {"results_flat": (("result_page", "result", "result_id"),),
                "results_all": (("result_page", "result", "result_id"),),
                "reproductions_side_by_side": (("reproduction_page", "reproduction", "reproduction_id"),
                                               ("result_page", "result", "result_id")),
                "missing_metadata_all": (("record_page", None, "record_id"),),
                "record_status": (("record_page", None, "record_id"),),
                "record_review_status": (("record_page", None, "record_id"),)}


def _assert_pages_linked(base: str, database: str, names: tuple[str, ...]) -> None:
    """Every row of each view gives its record's page on the site built with https://example.org/registry/."""
    import httpx

    for view in names:
        rows = httpx.get(f"{base}/{database}/{view}.json", params={"_shape": "array", "_size": "max"},
                         timeout=10).json()
        assert rows, view
        for row in rows:
            for column, kind, id_column in PAGE_COLUMNS[view]:
                page = f"{kind or row['kind']}/{row[id_column]}.html"
                assert row[column] == f"https://example.org/registry/{page}", (view, column, row)


def _serve(db: Path, metadata: Path):  # type: ignore[no-untyped-def]
    """Datasette on 127.0.0.1 serving ``db`` with ``metadata``: (server, base address)."""
    import httpx

    port = _free_port()
    datasette = shutil.which("datasette", path=str(Path(sys.executable).parent)) or "datasette"
    server = subprocess.Popen([datasette, str(db), "--metadata", str(metadata), "-h", "127.0.0.1", "-p", str(port)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # bounded: a server that never answers fails the test
        try:
            httpx.get(f"{base}/-/versions.json", timeout=2)
            return server, base
        except httpx.TransportError:
            time.sleep(0.3)
    server.terminate()
    raise AssertionError("Datasette did not answer on 127.0.0.1")


def test_every_column_of_every_table_and_view_is_described(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """A column a build makes and the metadata does not describe fails here (16 results_flat columns and every
    column of four views were undocumented)."""
    import sqlite3

    db = tmp_path / "fixture.db"
    assert cli("db", "build", "--records", ROOT / "tests" / "data" / "fixture-registry", "--out", db).exit_code == 0
    tables = json.loads((tmp_path / "fixture.metadata.json").read_text())["databases"]["fixture"]["tables"]
    connection = sqlite3.connect(db)
    names = [row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' "
        "AND name NOT LIKE 'results_search_%' ORDER BY name")]
    undocumented = {}
    for name in names:
        columns = [row[1] for row in connection.execute(f"PRAGMA table_info({name})")]
        described = tables.get(name, {}).get("columns", {})
        missing = [c for c in columns if not described.get(c)]
        if missing or not tables.get(name, {}).get("description"):
            undocumented[name] = missing
    connection.close()
    assert "results_search" in names and undocumented == {}


FIVE_QUESTIONS = {"results_on_a_dataset": {"dataset": "H3K4me3"}, "reproduced_vs_printed": {},
                  "differences_between_configurations": {}, "who_checked_what": {}, "throughput_and_latency": {}}


def test_datasette_runs_the_canned_queries_and_full_text_search(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("datasette", reason="datasette is a test dependency: pip install -e '.[test]'")
    import httpx

    db = tmp_path / "fixture.db"
    built = cli("db", "build", "--records", ROOT / "tests" / "data" / "fixture-registry", "--out", db,
                "--base-url", "https://example.org/registry")
    assert built.exit_code == 0, built.output
    bundled = tmp_path / "registry.db"
    assert cli("db", "build", "--out", bundled, "--base-url", "https://example.org/registry/").exit_code == 0
    server, base = _serve(db, tmp_path / "fixture.metadata.json")
    try:
        rows = {}
        for name, params in FIVE_QUESTIONS.items():
            answer = httpx.get(f"{base}/fixture/{name}.json", params={**params, "_shape": "array"}, timeout=10)
            assert answer.status_code == 200, (name, answer.text[:300])
            rows[name] = answer.json()
        on_dataset = rows["results_on_a_dataset"]
        assert on_dataset and all("H3K4me3" in row["dataset_name"] for row in on_dataset)
        assert {row["value_role"] for row in on_dataset} >= {"aggregate", "member"}
        mean = next(r for r in on_dataset if r["result_id"].endswith("t1-nt-2-5b-h3k4me3"))
        assert mean["uncertainty_printed"] == "± 0.021" and mean["review_label"]
        assert mean["result_page"] == f"https://example.org/registry/result/{mean['result_id']}.html"
        assert rows["differences_between_configurations"] and all(
            r["derived_operation"] for r in rows["differences_between_configurations"])
        assert {r["unit_dimension"] for r in rows["throughput_and_latency"]} == {"throughput", "time"}
        assert all(r["accelerator"] for r in rows["throughput_and_latency"])
        # Full-text search: a word finds its results only (it returned every row), on the table and as a query.
        everything = httpx.get(f"{base}/fixture/result.json", params={"_size": "max"}, timeout=10).json()
        found = httpx.get(f"{base}/fixture/result.json", params={"_search": "H3K4me3", "_size": "max",
                                                                 "_shape": "array"}, timeout=10).json()
        assert 0 < len(found) < len(everything["rows"])
        import sqlite3

        with sqlite3.connect(db) as connection:
            expected = {row[0] for row in connection.execute(
                "SELECT f.result_id FROM results_flat f WHERE f.dataset_name LIKE '%H3K4me3%' "
                "OR f.metric_qualifier LIKE '%H3K4me3%' OR f.source_locator_quote LIKE '%H3K4me3%'")}
        assert {r["id"] for r in found} == expected
        for query in ("H100", '"standard deviation"', '"NT 2.5B"', "NT 2.5B"):  # found nothing before (issue 24)
            hits = httpx.get(f"{base}/fixture/search.json", params={"q": query, "_shape": "array"}, timeout=10).json()
            assert hits and all(hit["result_page"].startswith("https://example.org/registry/result/") for hit in hits)
        # The views' ids lead to the site's pages: a page column Datasette shows as a link.
        table = httpx.get(f"{base}/fixture/results_flat", params={"_size": "max"}, timeout=10).text
        first = on_dataset[0]["result_id"]
        assert f'<a href="https://example.org/registry/result/{first}.html">' in table
        _assert_pages_linked(base, "fixture", ("missing_metadata_all", "record_status", "record_review_status"))
        facets = httpx.get(f"{base}/fixture/results_flat.json", timeout=10).json()
        assert "value_role" in facets.get("facet_results", {}) or "value_role" in str(facets.get("facet_results"))
    finally:
        server.terminate()
        server.wait(timeout=10)
    # The bundled registry's database answers them too (empty answers where it has no such results).
    server, base = _serve(bundled, tmp_path / "registry.metadata.json")
    try:
        _assert_pages_linked(base, "registry", ("reproductions_side_by_side", "results_all"))
        for name, params in FIVE_QUESTIONS.items():
            answer = httpx.get(f"{base}/registry/{name}.json", params={**params, "_shape": "array"}, timeout=10)
            assert answer.status_code == 200, (name, answer.text[:300])
        assert httpx.get(f"{base}/registry/reproduced_vs_printed.json", params={"_shape": "array"},
                         timeout=10).json()
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_search_takes_ordinary_terms_on_the_canned_query_and_the_view(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """Terms FTS5 would parse as syntax (a hyphen, a slash, a dot) are searched as text on the canned query, and
    ?_search= on results_flat searches (it was ignored there)."""
    pytest.importorskip("datasette", reason="datasette is a test dependency: pip install -e '.[test]'")
    import httpx

    from tests.test_comparability import two_papers

    db = tmp_path / "two.db"
    assert cli("db", "build", "--records", two_papers(tmp_path / "records"), "--out", db).exit_code == 0
    server, base = _serve(db, tmp_path / "two.metadata.json")
    try:
        def canned(q: str) -> list[dict]:  # type: ignore[type-arg]
            answer = httpx.get(f"{base}/two/search.json", params={"q": q, "_shape": "array"}, timeout=10)
            assert answer.status_code == 200, (q, answer.text[:300])
            return answer.json()  # type: ignore[no-any-return]

        def view(q: str) -> list[dict]:  # type: ignore[type-arg]
            answer = httpx.get(f"{base}/two/results_flat.json", params={"_search": q, "_shape": "array",
                                                                        "_size": "max"}, timeout=10)
            assert answer.status_code == 200, (q, answer.text[:300])
            return answer.json()  # type: ignore[no-any-return]

        everything = len(httpx.get(f"{base}/two/results_flat.json", params={"_shape": "array", "_size": "max"},
                                   timeout=10).json())
        for term in ("Lumen-B", "NT 2.5B", "Splice-acceptor"):
            hits, rows = {h["result_id"] for h in canned(term)}, {r["result_id"] for r in view(term)}
            assert hits and hits == rows and len(rows) < everything, term
        assert all(h["configuration_name"].startswith("Lumen-B") for h in canned("Lumen-B"))
        for term in ("Birds-200", "ProtoCLIP-B/16", 'a "stray quote', "NOT zzz"):  # no error, nothing found
            assert canned(term) == [] and view(term) == [], term
        assert {h["result_id"] for h in canned("AND")} == {r["result_id"] for r in view("AND")}  # the word 'and'
        best = httpx.get(f"{base}/two/best_comparable.json", params={"_shape": "array"}, timeout=10).json()
        accuracy = [r for r in best if r["benchmark"] == "fixture-shared-20261202-benchmark-splice-sites"
                    and r["metric"] == "accuracy"]
        assert sorted(r["printed_value"] for r in accuracy) == ["0.951", "61.0"]  # one per key: setting unstated, zero-shot
        assert canned("   ") == []
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_several_builds_share_one_metadata_file(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """Datasette reads one metadata file for every database it serves: --metadata puts each build's entry in it."""
    shared = tmp_path / "metadata.json"
    assert cli("db", "build", "--out", tmp_path / "registry.db", "--metadata", shared).exit_code == 0
    fixture = cli("db", "build", "--records", ROOT / "tests" / "data" / "fixture-registry", "--out",
                  tmp_path / "fixture.db", "--metadata", shared)
    assert fixture.exit_code == 0, fixture.output
    databases = json.loads(shared.read_text())["databases"]
    assert sorted(databases) == ["fixture", "registry"]
    assert all("results_on_a_dataset" in each["queries"] for each in databases.values())
    assert not (tmp_path / "registry.metadata.json").exists()
    other = tmp_path / "notes.json"
    other.write_text('{"mine": true}')
    refused = cli("db", "build", "--out", tmp_path / "third.db", "--metadata", other)
    assert refused.exit_code == 1 and "is not a Datasette metadata file this command wrote; it was left untouched" \
        in " ".join(refused.output.split())
    assert other.read_text() == '{"mine": true}' and not (tmp_path / "third.db").exists()
