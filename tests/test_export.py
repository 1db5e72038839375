"""`registry export`: each format checked against its own published schema or library.

- Every Eval Ever: the schema file from its repository (tests/data/every_eval_ever, with its source and licence);
- PROV-JSON and PROV-XML: read back with the ``prov`` package, the XML valid against W3C's prov.xsd;
- Hugging Face .eval_results: read back with huggingface_hub's own parser;
- CSV: read back with the csv module, beside the results_flat view itself.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import CONFIG_33, DATA, RESULT_11, RESULT_33

SCHEMA = DATA / "every_eval_ever" / "eval.schema.json"
HUB_IDS = DATA / "export" / "hub-ids.yaml"


def export(cli, tmp_path: Path, fmt: str, *extra: str) -> Path:  # type: ignore[no-untyped-def]
    out = tmp_path / fmt
    result = cli("export", "--format", fmt, "--out", out, *extra)
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "registry-export.json").read_text())
    assert manifest["format"] == fmt
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()
                  and p.name != "registry-export.json") == manifest["files"]
    return out


def eee_logs(out: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    return {p.relative_to(out).as_posix(): json.loads(p.read_text()) for p in sorted(out.rglob("*.json"))
            if p.name != "registry-export.json"}


@pytest.mark.parametrize("records", [None, DATA / "fixture-registry"], ids=["bundled", "fixture"])
def test_every_eval_ever_files_pass_upstreams_validator_and_the_schema(tmp_path: Path, cli, records) -> None:  # type: ignore[no-untyped-def]
    """Upstream's pydantic EvaluationLog and validate_aggregate (with the datastore's path checks) accept every
    file: they rejected every log for its missing min_score, and the fixture's None URLs failed the schema."""
    import jsonschema

    from tests.tools.upstream import validate_every_eval_ever

    out = export(cli, tmp_path, "every-eval-ever", *(["--records", str(records)] if records else []))
    logs = eee_logs(out)
    assert len(logs) == (2 if records is None else 20)
    validator = jsonschema.Draft7Validator(json.loads(SCHEMA.read_text()))
    for path, log in logs.items():
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
        assert not errors, (path, [f"{list(e.path)}: {e.message}" for e in errors])
    reports = validate_every_eval_ever(out)
    assert sorted(reports) == sorted(logs)
    assert {path: (r["errors"], r["warnings"]) for path, r in reports.items() if not r["valid"] or r["warnings"]} == {}


def test_upstreams_validator_rejects_what_the_export_fixed(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """The check can fail: a log without score bounds, or filed under a name that is no UUID4, is refused."""
    from tests.tools.upstream import validate_every_eval_ever

    path, log = next(iter(eee_logs(export(cli, tmp_path, "every-eval-ever")).items()))
    tmp_path = tmp_path / "broken"
    unbounded = json.loads(json.dumps(log))
    unbounded["evaluation_results"][0]["metric_config"]["min_score"] = None
    for name, data in ((path, unbounded), (str(Path(path).with_name("nt-2-5b.json")), log)):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(json.dumps(data))
    reports = validate_every_eval_ever(tmp_path)
    assert "score_type 'continuous' requires min_score" in " ".join(reports[path]["errors"])
    assert "does not match '{UUID4}.json'" in " ".join(reports[str(Path(path).with_name("nt-2-5b.json"))]["errors"])


def test_every_eval_ever_logs_say_what_each_value_is(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    out = export(cli, tmp_path, "every-eval-ever")
    logs = eee_logs(out)
    # The datastore's layout, with UUIDs derived from the ids: the same records give the same names.
    again = export(cli, tmp_path / "again", "every-eval-ever")
    assert sorted(eee_logs(again)) == sorted(logs)
    assert all(re.fullmatch(r"data/synthetic-uniform-random-dna-seed-42/nucleotide-transformer/nt-2-5b/"
                            r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.json", p)
               for p in logs)
    log = next(log for log in logs.values() if log["model_info"]["additional_details"]["configuration_record"]
               == CONFIG_33)
    assert log["schema_version"] == "0.3.0" and log["source_metadata"]["source_type"] == "documentation"
    details = log["source_metadata"]["additional_details"]
    assert details["pdf_sha256"] == "4bc2452110f280a7ba8baa4c7c28beac89769511019666bc77fc33af9b3bcd60"
    assert details["pdf_retrieval_url"] == "https://openreview.net/pdf?id=NUleWh1GFx"
    (result,) = log["evaluation_results"]
    assert result["evaluation_result_id"] == RESULT_33
    assert result["score_details"]["score"] == 33.88
    details = result["score_details"]["details"]
    assert details["printed_value"] == "33.88" and details["exact_value"] == "33.88"
    assert details["value_role"] == "headline" and details["is_fold_value"] == "no"
    assert details["uncertainty"] == "Not reported by the source" and "uncertainty" not in result["score_details"]
    assert "'the NT 2.5B checkpoint (33.88 → 11.49 GB)'" in details["source_locator"]
    assert details["review_status"] == "source checked (no artifact hash)"
    config = result["metric_config"]
    assert config["lower_is_better"] is True and config["metric_unit"] == "gigabyte"
    assert (config["min_score"], config["max_score"]) == (0.0, "Infinity")
    assert details["score_bounds"] == "a memory cannot be negative: 0 to Infinity"
    assert log["model_info"]["name"] == "NT 2.5B"
    hardware = "NVIDIA H100: NVIDIA H100 (section 2.4); NVIDIA H100, 94 GB each: 'H100 94GB GPUs' (section 4)"
    assert details["hardware"] == hardware
    assert log["model_info"]["additional_details"]["hardware"] == hardware
    assert log["model_info"]["additional_details"]["model_family"] == "Nucleotide Transformer"
    assert log["model_info"]["additional_details"]["checkpoint"] == "Not reported"


def test_every_eval_ever_fixture_marks_folds_and_counts_them(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    out = export(cli, tmp_path, "every-eval-ever", "--records", str(DATA / "fixture-registry"))
    results = {r["evaluation_result_id"]: (log, r) for log in eee_logs(out).values()
               for r in log["evaluation_results"]}
    log, mean = results["fixture-genomic-20261201-result-t1-nt-2-5b-h3k4me3"]
    assert mean["score_details"]["uncertainty"] == {"standard_deviation": 0.021, "num_samples": 10}
    assert mean["score_details"]["details"]["value_role"] == "aggregate"
    assert mean["score_details"]["details"]["uncertainty"] == "± 0.021 (standard deviation over 10 folds)"
    assert (mean["metric_config"]["min_score"], mean["metric_config"]["max_score"]) == ("-Infinity", "Infinity")
    # The authors evaluated their own model: the source's authors are its developer.
    assert log["source_metadata"]["evaluator_relationship"] == "first_party"
    assert log["model_info"]["developer"] == log["source_metadata"]["source_organization_name"]
    # No URL: the field says why instead of null (the schema refused None).
    assert log["source_metadata"]["additional_details"]["pdf_retrieval_url"].startswith("Not ")
    _, fold = results["fixture-genomic-20261201-result-t5-nt-2-5b-fold-7-h3k4me3"]
    assert fold["score_details"]["details"]["value_role"] == "member"
    assert fold["score_details"]["details"]["is_fold_value"] == "yes"
    assert "fixture-genomic-20261201-result-t1-nt-2-5b-h3k4me3" in fold["score_details"]["details"]["value_role_detail"]
    _, delta = results["fixture-genomic-20261201-result-t2-h3k4me3-delta"]
    assert delta["score_details"]["details"]["value_role"] == "derived"


def test_an_invalid_log_fails_the_schema() -> None:
    """The schema check can fail: a log without its source metadata is refused."""
    import jsonschema

    validator = jsonschema.Draft7Validator(json.loads(SCHEMA.read_text()))
    assert list(validator.iter_errors({"schema_version": "0.3.0"}))


def test_prov_json_reads_back_with_exact_decimals(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    prov_model = pytest.importorskip("prov.model", reason="the prov export needs prov: pip install -e '.[export]'")
    out = export(cli, tmp_path, "prov")
    document = prov_model.ProvDocument.deserialize(source=str(out / "provenance.json"), format="json")
    records = {str(r.identifier): r for r in document.get_records() if r.identifier is not None}
    result = records[f"rec:{RESULT_11}"]
    (value,) = result.get_attribute("reg:numeric_value")
    (hardware,) = result.get_attribute("reg:hardware")
    assert str(hardware).startswith("NVIDIA H100: NVIDIA H100 (section 2.4)")
    (config_hardware,) = records[f"rec:{CONFIG_33}"].get_attribute("reg:hardware")
    assert "'H100 94GB GPUs' (section 4)" in str(config_hardware)
    assert isinstance(value, prov_model.Literal) and str(value.datatype) == "xsd:decimal" and value.value == "11.49"
    assert "pdf:saadat-fellay-20261015-source-optimizing-genomic-language-models" in records
    reviews = [r for k, r in records.items() if k.startswith("check:")]
    assert len(reviews) == 3 and all(isinstance(r, prov_model.ProvActivity) for r in reviews)
    runs = [r for k, r in records.items() if k.startswith("run:")]
    assert len(runs) == 68
    used = [r for r in document.get_records(prov_model.ProvUsage)]
    recipes = {str(u.get_attribute("prov:entity").pop()) for u in used
               if str(u.get_attribute("prov:activity").pop()).startswith("run:")}
    assert recipes == {f"rec:{RESULT_33.replace('-result-', '-recipe-')}",
                       f"rec:{RESULT_11.replace('-result-', '-recipe-')}"}
    estimate = next(r for k, r in records.items() if k.startswith("rec:saadat-fellay-20261129-reproduction"))
    (run_value,) = estimate.get_attribute("reg:value")
    assert str(run_value.datatype) == "xsd:decimal"
    (reproduces,) = estimate.get_attribute("reg:reproduces")
    assert str(reproduces) in (f"rec:{RESULT_11}", f"rec:{RESULT_33}")
    derived = [r for r in document.get_records(prov_model.ProvDerivation)
               if str(r.get_attribute("prov:generatedEntity").pop()) == str(estimate.identifier)]
    assert not derived, "our run must not be recorded as derived from the transcribed result"


def test_prov_transcription_has_its_agent_and_time_and_agents_are_declared_once(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    prov_model = pytest.importorskip("prov.model", reason="the prov export needs prov: pip install -e '.[export]'")
    out = export(cli, tmp_path, "prov")
    text = (out / "provenance.json").read_text()
    document = prov_model.ProvDocument.deserialize(content=text, format="json")
    # A round trip: what prov reads back is the document, and writing it again gives the same text.
    again = prov_model.ProvDocument.deserialize(content=document.serialize(indent=2), format="json")
    assert again == document
    records = {str(r.identifier): r for r in document.get_records() if r.identifier is not None}
    (transcription,) = [r for k, r in records.items() if k.startswith("transcription:")]
    assert isinstance(transcription, prov_model.ProvActivity)
    assert transcription.get_endTime().isoformat() == "2026-10-15T00:00:00+00:00"
    generated = [g for g in document.get_records(prov_model.ProvGeneration)
                 if str(g.get_attribute("prov:entity").pop()) == f"rec:{RESULT_11}"]
    assert [str(g.get_attribute("prov:activity").pop()) for g in generated] == [str(transcription.identifier)]
    associations = {str(a.get_attribute("prov:activity").pop()): str(a.get_attribute("prov:agent").pop())
                    for a in document.get_records(prov_model.ProvAssociation)}
    curator = associations[str(transcription.identifier)]
    assert isinstance(records[curator], prov_model.ProvAgent)
    assert "filed batch saadat-fellay" in str(records[curator].get_attribute("prov:label").pop())
    agents = [str(r.identifier) for r in document.get_records(prov_model.ProvAgent)]
    assert len(agents) == len(set(agents)) and len(agents) >= 2
    assert all(text.count(f'"{agent}": {{') == 1 for agent in agents)
    review = next(r for k, r in records.items() if k.startswith("check:"))
    methods = {str(m) for m in review.get_attribute("reg:method")}
    assert len(methods) > 1 and all(" " not in m for m in methods)


@pytest.mark.parametrize("base_url", [None, "https://example.org/registry/"])
def test_prov_xml_is_valid_against_w3cs_schema_and_reads_back(tmp_path: Path, cli, base_url: str | None) -> None:  # type: ignore[no-untyped-def]
    """PROV-XML against W3C's prov.xsd (the copy the prov package ships for its own tests: W3C's schema, read where
    it is installed, never fetched): every identifier a QName (no '/'), and prov reads it back as the JSON's
    document; every run and every review has an agent, and every agent a prov:type."""
    prov_model = pytest.importorskip("prov.model", reason="the prov export needs prov: pip install -e '.[export]'")
    etree = pytest.importorskip("lxml.etree", reason="prov's XML serializer needs lxml")
    import prov

    schema_path = Path(prov.__file__).parent / "tests" / "schemas" / "prov.xsd"
    if not schema_path.is_file():
        pytest.skip(f"the installed prov package ships no prov.xsd ({schema_path})")
    out = export(cli, tmp_path, "prov", *(("--base-url", base_url) if base_url else ()))
    schema = etree.XMLSchema(etree.parse(str(schema_path)))
    valid = schema.validate(etree.parse(str(out / "provenance.xml")))
    assert valid, [f"{e.line}: {e.message}" for e in list(schema.error_log)[:5]]
    document = prov_model.ProvDocument.deserialize(source=str(out / "provenance.xml"), format="xml")
    assert document == prov_model.ProvDocument.deserialize(source=str(out / "provenance.json"), format="json")
    associated = {str(a.get_attribute("prov:activity").pop()) for a in document.get_records(prov_model.ProvAssociation)}
    activities = [str(a.identifier) for a in document.get_records(prov_model.ProvActivity)]
    runs_and_reviews = [a for a in activities if a.startswith(("run:", "check:"))]
    assert len(runs_and_reviews) == 68 + 3 and set(runs_and_reviews) <= associated
    agents = list(document.get_records(prov_model.ProvAgent))
    assert agents and all(agent.get_attribute("prov:type") for agent in agents)
    assert any("prov:SoftwareAgent" in str(agent.get_attribute("prov:type")) for agent in agents)


def test_prov_xml_passes_xmllint_against_w3cs_schema(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """xmllint, as W3C's schema is checked outside Python, agrees (issue 39: 491-881 errors, all '/' in identifiers)."""
    pytest.importorskip("prov.model", reason="the prov export needs prov: pip install -e '.[export]'")
    import prov

    xmllint = shutil.which("xmllint")
    schema = Path(prov.__file__).parent / "tests" / "schemas" / "prov.xsd"
    if xmllint is None or not schema.is_file():
        pytest.skip("needs xmllint (apt-get install libxml2-utils, as .ci/run does) and the prov package's prov.xsd")
    out = export(cli, tmp_path, "prov")
    checked = subprocess.run([xmllint, "--noout", "--schema", str(schema), str(out / "provenance.xml")],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0 and "validates" in checked.stderr, checked.stderr[-2000:]
    broken = tmp_path / "broken.xml"  # the check can fail: an identifier with '/' is no QName
    broken.write_text((out / "provenance.xml").read_text().replace('prov:id="', 'prov:id="a/', 1))
    refused = subprocess.run([xmllint, "--noout", "--schema", str(schema), str(broken)], capture_output=True,
                             text=True, check=False)
    assert refused.returncode != 0 and "fails to validate" in refused.stderr


def test_prov_identifiers_resolve_to_the_sites_pages(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    prov_model = pytest.importorskip("prov.model", reason="the prov export needs prov: pip install -e '.[export]'")
    out = export(cli, tmp_path, "prov", "--base-url", "https://example.org/registry/")
    document = prov_model.ProvDocument.deserialize(source=str(out / "provenance.json"), format="json")
    uris = {r.identifier.uri for r in document.get_records() if r.identifier is not None}
    assert f"https://example.org/registry/result/{RESULT_11}.html" in uris
    assert f"https://example.org/registry/config/{CONFIG_33}.html" in uris


def test_hub_ids_are_refused_for_a_format_that_does_not_use_them(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """--hub-ids is for hf only: elsewhere it is refused rather than silently ignored (finding P11)."""
    out = tmp_path / "csv"
    result = cli("export", "--format", "csv", "--hub-ids", str(HUB_IDS), "--out", out)
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "--hub-ids maps records to Hugging Face Hub ids, which only the hf export uses, not csv" in text
    assert "leave out --hub-ids, or use --format hf" in text and not out.exists()


def test_export_messages(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    unknown = cli("export", "--format", "parquet", "--out", tmp_path / "x")
    assert unknown.exit_code == 1 and "unknown export format 'parquet'" in unknown.output
    assert "every-eval-ever, prov, hf, csv" in " ".join(unknown.output.split())
    other = tmp_path / "notes"
    other.mkdir()
    (other / "todo.txt").write_text("keep")
    refused = cli("export", "--format", "csv", "--out", other)
    assert refused.exit_code == 1 and "is not an export 'registry export' wrote" in " ".join(refused.output.split())
    assert (other / "todo.txt").read_text() == "keep"
    again = tmp_path / "csv"
    assert cli("export", "--format", "csv", "--out", again).exit_code == 0
    assert cli("export", "--format", "csv", "--out", again).exit_code == 0  # an earlier export is replaced


def test_prov_of_the_fixture_registry_round_trips(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    prov_model = pytest.importorskip("prov.model", reason="the prov export needs prov: pip install -e '.[export]'")
    out = export(cli, tmp_path, "prov", "--records", str(DATA / "fixture-registry"))
    document = prov_model.ProvDocument.deserialize(source=str(out / "provenance.json"), format="json")
    assert prov_model.ProvDocument.deserialize(content=document.serialize(), format="json") == document
    results = [r for r in document.get_records(prov_model.ProvEntity) if str(r.identifier).startswith("rec:")
               and "-result-" in str(r.identifier)]
    assert len(results) == 161
    roles = {str(r.get_attribute("reg:value_role").pop()).split(":")[0].split(" ")[0] for r in results}
    assert roles == {"headline", "aggregate", "member", "derived"}
