"""After a correction and a retraction, every output shows current values, and history only where it says so.

The bundled records with the 33.88 GB result corrected to 33.89 and the 11.49 GB (ZeRO-2) result
retracted (``tests.test_history.corrected``): the site's index, configuration, family, protocol and
result pages, ``registry show`` of a configuration, the plot and its values table, and every export
format are checked, each for what it shows as current and for how it marks the earlier versions.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
import yaml

from tests.conftest import CONFIG_33, RESULT_11, RESULT_33, copy_of_records, invoke
from tests.test_export import HUB_IDS, SCHEMA
from tests.test_history import NEW_33, TODAY, correct_and_retract

CONFIG_11 = CONFIG_33 + "-zero2"
FAMILY = "saadat-fellay-20261015-family-nucleotide-transformer"
PROTOCOL = "saadat-fellay-20261015-protocol-training-peak-memory"
RETRACTION_PREFIX = f"saadat-fellay-{TODAY}-retraction-result-"
SUPERSEDED = f"superseded by {NEW_33} (33.89 GB)"
RETRACTED = "retracted by " + RETRACTION_PREFIX


def flat(text: str) -> str:
    """Text with its line breaks and runs of spaces as single spaces (the terminal folds long cells)."""
    return " ".join(text.split())


def between(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end, text.index(start))]


@pytest.fixture(scope="module")
def corrected(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``tests.test_history.corrected``, made once for the module: every test here only reads it."""
    return correct_and_retract(invoke, copy_of_records(tmp_path_factory.mktemp("corrected") / "records"))


@pytest.fixture(scope="module")
def site(corrected: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of ``corrected``, built once for the module (the tests only read its pages)."""
    out = tmp_path_factory.mktemp("site") / "site"
    built = invoke("site", "build", "--records", corrected, "--out", out)
    assert built.exit_code == 0, built.output
    return out


def test_the_site_index_lists_current_results_and_the_history_apart(site: Path) -> None:
    index = (site / "index.html").read_text()
    current = between(index, '<table id="results" class="cards">', "</table>")
    assert NEW_33 in current and "33.89 GB" in current
    assert RESULT_33 + ".html" not in current and RESULT_11 not in current and "11.49" not in current
    assert "1 of 1 results shown" in index and "(2)" not in between(index, '<div class="facets">', "</form>")
    earlier = between(index, '<section id="earlier-versions">', "</section>")
    rows = {row_id: row for row_id, row in ((re.search(r'result/([a-z0-9-]+)\.html', row)[1], row)  # type: ignore[index]
                                            for row in earlier.split("<tr>")[2:])}
    assert sorted(rows) == sorted([RESULT_33, RESULT_11])
    assert SUPERSEDED in rows[RESULT_33] and "33.88 GB" in rows[RESULT_33]
    assert RETRACTED in rows[RESULT_11] and "a test: the value is another stage" in rows[RESULT_11]
    assert "source checked" not in earlier, "a value that is no longer current is not shown as source checked"


def test_configuration_and_family_pages_show_current_results(cli, site: Path, corrected: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    shown = cli("show", CONFIG_33, "--records", corrected)
    assert shown.exit_code == 0, shown.output
    findings = flat(between(shown.output, "Evaluations and results", "Source checking is not"))
    assert "1 evaluation · 1 result." in findings and "Transcribed: 33.89 GB" in findings
    assert "Transcribed: 33.88" not in findings and "Transcribed: 11.49" not in findings
    earlier = flat(between(shown.output, "Earlier versions and withdrawn results", "Evidence ─"))
    assert "33.88 GB" in earlier and "superseded by" in earlier and "(33.89 GB)" in earlier
    withdrawn = cli("show", CONFIG_11, "--records", corrected).output
    assert "1 evaluation · 0 results." in withdrawn and "No current result is recorded" in withdrawn
    assert "11.49 GB" in between(withdrawn, "Earlier versions and withdrawn results", "Evidence ─")
    page = (site / "config" / f"{CONFIG_33}.html").read_text()
    findings_html = between(page, "Evaluations and results", "Source checking is not")
    assert NEW_33 in findings_html and f"{RESULT_33}.html" not in findings_html
    assert SUPERSEDED in between(page, "Earlier versions and withdrawn results", "</table>")
    family = (site / "family" / f"{FAMILY}.html").read_text()
    section = between(family, "Configurations and results", "Earlier versions and withdrawn results")
    assert "2 configuration(s) · 2 evaluation(s) · 1 result(s)." in section
    assert NEW_33 in section and f"{RESULT_33}.html" not in section and RESULT_11 not in section
    history = between(family, "Earlier versions and withdrawn results", "</table>")
    assert SUPERSEDED in history and RETRACTED in history


def test_pages_of_earlier_versions_stay_and_say_what_they_are(site: Path) -> None:
    old = (site / "result" / f"{RESULT_33}.html").read_text()
    assert "Superseded: the current version is" in old and f"{NEW_33}.html" in old
    assert "source checked (no artifact hash); superseded, not the registry&#x27;s value" in old
    withdrawn = (site / "result" / f"{RESULT_11}.html").read_text()
    assert "Withdrawn by " + RETRACTION_PREFIX in withdrawn
    assert "retracted, not the registry" in withdrawn


def test_the_plot_and_its_values_table_hold_current_results(cli, site: Path, corrected: Path,  # type: ignore[no-untyped-def]  # noqa: F811
                                                            tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="plots need matplotlib: pip install -e '.[site]'")
    out = tmp_path / "plot.svg"
    plotted = cli("plot", RESULT_33, "--out", out, "--records", corrected)
    assert plotted.exit_code == 0, plotted.output
    assert "33.89 GB" in plotted.output and "33.88" not in plotted.output and "11.49" not in plotted.output
    drawing = out.read_text()
    assert "33.89 GB transcribed" in drawing and "33.88" not in drawing and "11.49" not in drawing
    protocol = (site / "protocol" / f"{PROTOCOL}.html").read_text()
    values = between(protocol, "Transcribed, measured and estimated values", "</section>")
    assert "33.89 GB" in values and "33.88" not in values and "11.49" not in values


def export(cli, records: Path, tmp_path: Path, fmt: str, *extra: str) -> tuple[Path, dict]:  # type: ignore[no-untyped-def,type-arg]
    out = tmp_path / fmt
    done = cli("export", "--format", fmt, "--out", out, "--records", records, *extra)
    assert done.exit_code == 0, done.output
    return out, json.loads((out / "registry-export.json").read_text())


def left_out(manifest: dict) -> dict[str, str]:  # type: ignore[type-arg]
    return {item["record"]: item["reason"] for item in manifest["not_carried"] if item.get("exported") is False}


def test_every_eval_ever_holds_current_results_with_their_status(cli, corrected: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    import jsonschema

    out, manifest = export(cli, corrected, tmp_path, "every-eval-ever")
    (name,) = manifest["files"]  # the retracted result's configuration has no current result, so no log
    log = json.loads((out / name).read_text())
    assert log["model_info"]["additional_details"]["configuration_record"] == CONFIG_33
    assert not list(jsonschema.Draft7Validator(json.loads(SCHEMA.read_text())).iter_errors(log))
    (result,) = log["evaluation_results"]
    details = result["score_details"]["details"]
    assert result["evaluation_result_id"] == NEW_33 and result["score_details"]["score"] == 33.89
    assert details["record_status"] == "current" and details["review_status"] == "not reviewed"
    assert details["supersedes"].startswith(f"{RESULT_33} (correction ") and "the page prints 33.89" in \
        details["supersedes"]
    reasons = left_out(manifest)
    assert reasons[RESULT_33] == f"not current: {SUPERSEDED}"
    assert reasons[RESULT_11].startswith(f"not current: {RETRACTED}")


def test_hf_exports_current_values_only(cli, corrected: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    hub = pytest.importorskip("huggingface_hub", reason="the hf export needs huggingface_hub")
    out, manifest = export(cli, corrected, tmp_path, "hf", "--hub-ids", str(HUB_IDS))
    (path,) = [out / name for name in manifest["files"]]
    entries = hub.parse_eval_result_entries(yaml.safe_load(path.read_text()))
    assert [e.value for e in entries] == [33.89], "one model and benchmark, one value: the current one"
    assert NEW_33 in (entries[0].notes or "")
    reasons = left_out(manifest)
    assert reasons[RESULT_33] == f"not current: {SUPERSEDED}" and reasons[RESULT_11].startswith("not current: retracted")


def test_prov_records_the_revision_and_the_invalidation(cli, corrected: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    prov_model = pytest.importorskip("prov.model", reason="the prov export needs prov: pip install -e '.[export]'")
    out, _ = export(cli, corrected, tmp_path, "prov")
    text = (out / "provenance.json").read_text()
    document = prov_model.ProvDocument.deserialize(content=text, format="json")
    revisions = [r for r in document.get_records(prov_model.ProvDerivation)
                 if "prov:Revision" in {str(t) for t in r.get_asserted_types()}]
    (revision,) = revisions
    assert str(revision.get_attribute("prov:generatedEntity").pop()) == f"rec:{NEW_33}"
    assert str(revision.get_attribute("prov:usedEntity").pop()) == f"rec:{RESULT_33}"
    assert str(revision.get_attribute("prov:activity").pop()).startswith("correcting:")
    (invalidation,) = document.get_records(prov_model.ProvInvalidation)
    assert str(invalidation.get_attribute("prov:entity").pop()) == f"rec:{RESULT_11}"
    assert str(invalidation.get_attribute("prov:activity").pop()).startswith("retracting:" + RETRACTION_PREFIX)
    records = {str(r.identifier): r for r in document.get_records() if r.identifier is not None}
    status = {key: records[f"rec:{key}"].get_attribute("reg:status") for key in (RESULT_33, RESULT_11, NEW_33)}
    assert status == {RESULT_33: {"superseded"}, RESULT_11: {"retracted"}, NEW_33: {"current"}}
    agents = [r for r in document.get_records(prov_model.ProvAssociation)
              if str(r.get_attribute("prov:activity").pop()).startswith(("correcting:", "retracting:"))]
    assert {str(a.get_attribute("prov:agent").pop()) for a in agents} == {"agent:a-curator"}


def test_csv_holds_current_results(cli, corrected: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    out, _ = export(cli, corrected, tmp_path, "csv")
    with open(out / "results_flat.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["result_id"], r["printed_value"]) for r in rows] == [(NEW_33, "33.89")]
