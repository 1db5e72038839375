"""`registry review ID` (and `python -m registry review`): the table, the exit status, --write, and bad input.

Every test works on a private copy of the records whose source pins a PDF generated here.
A download that reaches past this machine is impossible: the HTTP transport is replaced.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import yaml

from registry.validate.runner import validate
from tests.conftest import CONFIG_33, DATA, RESULT_11, RESULT_33, ROOT, SOURCE, modules_imported_by
from tests.test_review_support import (
    HEADING,
    as_printed,
    build_pdf,
    corrupt,
    encrypted,
    fresh_records,
    pin,
    sha256_of,
    source_like_pdf,
    truncated,
)

pytestmark = pytest.mark.pdf  # reads or renders PDFs (pdflatex, pdftotext, PDFium): left out of make test-fast

EVIDENCE_11 = RESULT_11.replace("-result-", "-evidence-result-") + "-reported-result"
BLOCK_PAGE = b"<!DOCTYPE html><html><body>OpenReview: please sign in</body></html>"


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Answer every would-be download like OpenReview does (an HTML page), and remember the URLs."""
    asked: list[str] = []

    def handle(self: httpx.HTTPTransport, request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        return httpx.Response(200, headers={"Content-Type": "text/html"}, content=BLOCK_PAGE, request=request)

    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", handle)
    monkeypatch.delenv("REGISTRY_CACHE_DIR", raising=False)
    return asked


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    return source_like_pdf(tmp_path / "paper.pdf")


@pytest.fixture
def pinned(tmp_path: Path, paper: Path) -> Path:
    """A copy of the records whose source pins ``paper``."""
    records = fresh_records(tmp_path)
    pin(records, paper)
    return records


def review(cli, records: Path, tmp_path: Path, *args: object):  # type: ignore[no-untyped-def]
    return cli("review", *args, "--records", records, "--cache-dir", tmp_path / "cache")


def test_the_source_like_pdf_passes(cli, pinned: Path, paper: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = review(cli, pinned, tmp_path, RESULT_11, "--pdf", paper)
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"SHA-256 {sha256_of(paper)} matches the source's pin" in out
    assert "11 pages extracted with pypdf" in out and "extraction SHA-256" in out
    assert as_printed("the NT\u00a02.5B check-\u23cepoint (33.88 \u2192 11.49 GB)") in out
    assert "hyphenation at a line end joined" in out
    for claim in ("page count", "heading", "creation date", "quote", "printed value", "unit", "model label"):
        assert claim in out, claim
    assert "FAIL" not in out and "All 9 assertions passed." in out
    assert not any((pinned / "review").glob("*pdf-check*.yaml")), "nothing is written without --write"


def test_a_source_id_checks_every_record_that_quotes_it(cli, pinned: Path, paper: Path,  # type: ignore[no-untyped-def]
                                                        tmp_path: Path) -> None:
    result = review(cli, pinned, tmp_path, SOURCE, "--pdf", paper)
    assert result.exit_code == 0, result.output
    for record_id in (SOURCE, RESULT_33, RESULT_11, EVIDENCE_11):
        assert record_id in result.output
    assert f"Not checked: {CONFIG_33}: its source locator names no page" in result.output


def test_the_cache_is_used_without_pdf(cli, pinned: Path, paper: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                       offline: list[str]) -> None:
    assert review(cli, pinned, tmp_path, RESULT_33, "--pdf", paper).exit_code == 0
    result = review(cli, pinned, tmp_path, RESULT_33)
    assert result.exit_code == 0, result.output
    assert "PDF: the cached copy" in result.output and offline == []


def test_a_blocked_download_says_where_to_put_the_pdf(cli, pinned: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                      offline: list[str]) -> None:
    result = review(cli, pinned, tmp_path, RESULT_11)
    assert result.exit_code == 1
    assert offline == ["https://openreview.net/pdf?id=NUleWh1GFx"]
    out = " ".join(result.output.split())
    assert "Error: openreview.net answered the scripted download" in out and "HTML page instead of the PDF" in out
    assert "OpenReview among them, block scripted retrieval" in out
    cached = tmp_path / "cache" / f"{validate(pinned)[0].records[SOURCE].sha256}.pdf"  # type: ignore[attr-defined]
    assert f"save it as {cached}, or pass it with --pdf FILE" in out
    assert "Traceback" not in result.output and list((tmp_path / "cache").iterdir()) == []


def test_a_changed_digit_fails(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pdf = source_like_pdf(tmp_path / "changed.pdf", value="33.89")
    records = fresh_records(tmp_path)
    pin(records, pdf)
    result = review(cli, records, tmp_path, RESULT_33, "--pdf", pdf)
    assert result.exit_code == 1
    out = result.output
    assert "FAIL" in out and "2 of 9 assertions failed and 1 could not be checked" in out  # the unit: no witness
    assert "'33.88' is not printed on page 6" in out and "closest text on page 6" in out


def test_the_quote_on_the_wrong_page_fails(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pdf = source_like_pdf(tmp_path / "moved.pdf", page=7)
    records = fresh_records(tmp_path)
    pin(records, pdf)
    result = review(cli, records, tmp_path, RESULT_11, "--pdf", pdf)
    assert result.exit_code == 1
    assert "it is printed on page 7 instead" in result.output and "FAIL" in result.output


def test_write_adds_a_review_beside_the_existing_ones(cli, pinned: Path, paper: Path,  # type: ignore[no-untyped-def]
                                                      tmp_path: Path) -> None:
    before = {p.name: p.read_bytes() for p in (pinned / "review").iterdir()}
    result = review(cli, pinned, tmp_path, RESULT_11, "--pdf", paper, "--write")
    assert result.exit_code == 0, result.output
    today = dt.datetime.now(dt.UTC).strftime("%Y%m%d")
    new_id = f"saadat-fellay-{today}-review-result-nt-2-5b-training-peak-memory-flashattention-checkpointing-zero2" \
             "-pdf-check"
    assert f"Wrote review {new_id}" in " ".join(result.output.split())
    after = {p.name: p.read_bytes() for p in (pinned / "review").iterdir()}
    assert set(after) - set(before) == {f"{new_id}.yaml"}
    assert all(after[name] == data for name, data in before.items()), "existing reviews must not change"
    registry, report = validate(pinned)
    assert report.valid
    written = registry.records[new_id]
    assert written.subjects == [RESULT_11] and written.source == SOURCE  # type: ignore[attr-defined]
    assert written.status.value == "source-checked"  # type: ignore[attr-defined]
    assert written.reviewer.startswith("registry review/ ")  # type: ignore[attr-defined]
    assert [m.value for m in written.methods] == ["source-hash-verification", "pdf-text-parse"]  # type: ignore[attr-defined]
    assert written.artifact_sha256 == sha256_of(paper)  # type: ignore[attr-defined]
    kept = next((tmp_path / "cache").glob("*.txt"))
    assert written.extraction_sha256 == sha256_of(kept)  # type: ignore[attr-defined]
    assert written.reviewed_at.date() == dt.datetime.now(dt.UTC).date()  # type: ignore[attr-defined]
    assert written.retrieval_url is None, "nothing was retrieved: the file came from --pdf"  # type: ignore[attr-defined]
    missing = written.missing("retrieval_url")
    assert missing is not None and missing.reason.value == "not-applicable"
    assert "a local file given with --pdf" in (missing.note or "")
    note = written.method_note  # type: ignore[attr-defined]
    assert note.startswith("Checked file: a local file given with --pdf, not downloaded by this run")
    claims = {(c.claim, c.asserted): c for c in written.claims}  # type: ignore[attr-defined]
    quote = claims[("quote", "'the NT 2.5B checkpoint (33.88 \u2192 11.49 GB)'")]
    assert quote.page == 6 and "hyphenation at a line end joined" in (quote.detail or "")
    assert claims[("heading", f"'{HEADING}'")].page == 1, "the source's own claims tie the file to the source"
    assert all(c.verdict.value == "pass" for c in claims.values())
    assert [e.split(" ")[0] for e in written.extractors] == ["pypdf", "pdftotext"]  # type: ignore[attr-defined]
    earlier = sorted(r.id for r in registry.referrers(RESULT_11, type(written), "subjects") if r.id != new_id)
    assert earlier and written.supersedes == earlier, "the bundled review stays, as history"  # type: ignore[attr-defined]

    again = review(cli, pinned, tmp_path, RESULT_11, "--pdf", paper, "--write")
    assert again.exit_code == 0 and f"Wrote review {new_id}-2" in " ".join(again.output.split())
    registry, report = validate(pinned)
    assert report.valid
    assert registry.records[f"{new_id}-2"].supersedes == [new_id]  # type: ignore[attr-defined]


def _written(records: Path, before: set[str]):  # type: ignore[no-untyped-def]
    """The one review a --write run added, loaded from a registry that must still be valid."""
    registry, report = validate(records)
    assert report.valid, [i.message for i in report.errors]
    assert not [i for i in report.issues if i.code == "review-url-mismatch"]
    (added,) = {p.stem for p in (records / "review").glob("*.yaml")} - before
    return registry.records[added]


def test_write_after_a_download_records_the_url(cli, pinned: Path, paper: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a file this run downloaded names the URL it came from."""
    asked: list[str] = []

    def serve(self: httpx.HTTPTransport, request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        return httpx.Response(200, headers={"Content-Type": "application/pdf"}, content=paper.read_bytes(),
                              request=request)

    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", serve)
    before = {p.stem for p in (pinned / "review").glob("*.yaml")}
    result = review(cli, pinned, tmp_path, RESULT_11, "--write")
    assert result.exit_code == 0, result.output
    assert asked == ["https://openreview.net/pdf?id=NUleWh1GFx"] and "PDF: downloaded from" in result.output
    written = _written(pinned, before)
    assert written.retrieval_url == "https://openreview.net/pdf?id=NUleWh1GFx"
    assert written.missing_metadata == []
    assert written.method_note.startswith(
        "Checked file: downloaded by this run from https://openreview.net/pdf?id=NUleWh1GFx.")


def test_write_from_the_cache_records_no_url(cli, pinned: Path, paper: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                             offline: list[str]) -> None:
    """A cached copy was retrieved some other time, from somewhere this run cannot know: no URL is claimed."""
    assert review(cli, pinned, tmp_path, RESULT_11, "--pdf", paper).exit_code == 0
    before = {p.stem for p in (pinned / "review").glob("*.yaml")}
    result = review(cli, pinned, tmp_path, RESULT_11, "--write")
    assert result.exit_code == 0, result.output
    assert "PDF: the cached copy" in result.output and offline == []
    written = _written(pinned, before)
    assert written.retrieval_url is None
    missing = written.missing("retrieval_url")
    assert missing is not None and missing.reason.value == "not-applicable"
    assert "the local PDF cache, where files are kept under their SHA-256" in (missing.note or "")
    assert "the hash, not a URL, ties that file to the source" in (missing.note or "")
    assert written.method_note.startswith("Checked file: a copy from the local PDF cache")
    shown = cli("show", written.id, "--records", pinned)
    assert shown.exit_code == 0, shown.output


def test_write_files_a_review_that_could_not_check_a_unit_printed_only_elsewhere(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A unit printed on the page but not with the value is 'unit not printed' (no witness of another unit, so no
    failure); the review filed says so, and could not check the result."""
    pdf = build_pdf(tmp_path / "unitless.pdf", {6: [
        "ZeRO offload lowers the peak further for the NT 2.5B checkpoint (33.88 \u2192 11.49),",
        "at the cost of a slower step; the CPU then holds 5 GB of optimizer state.",
    ]})
    records = fresh_records(tmp_path)
    pin(records, pdf)
    path = records / "result" / f"{RESULT_11}.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("(33.88 \u2192 11.49 GB)\n", "(33.88 \u2192 11.49)\n"),
                    encoding="utf-8")
    result = review(cli, records, tmp_path, RESULT_11, "--pdf", pdf, "--write")
    assert result.exit_code == 3  # nothing failed; the unit could not be confirmed
    out = " ".join(result.output.split())
    assert "UNIT NOT PRINTED" in out and "Unit not printed (no other unit is printed with the value" in out
    assert "'GB' is printed on page 6, but not with '11.49' nor in the citing sentence" in out
    (path,) = (records / "review").glob("*pdf-check*")
    assert f"Wrote review {path.stem} (could not be checked)" in out
    written = _written(records, {p.stem for p in (records / "review").glob("*.yaml")} - {path.stem})
    assert written.status.value == "could-not-be-checked"
    (unit,) = [c for c in written.claims if c.verdict.value != "pass"]
    assert unit.claim == "unit" and unit.verdict.value == "unit-not-printed"
    assert "'GB' is printed on page 6, but not with '11.49'" in (unit.detail or "")


def test_write_files_a_failed_review_that_supersedes_the_pass_before_it(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pdf = source_like_pdf(tmp_path / "changed.pdf", value="33.89")
    records = fresh_records(tmp_path)
    pin(records, pdf)
    before = {p.stem for p in (records / "review").glob("*.yaml")}
    result = review(cli, records, tmp_path, RESULT_33, "--pdf", pdf, "--write")
    assert result.exit_code == 1
    assert "Error" not in result.output and "(review failed)" in result.output
    written = _written(records, before)
    assert written.status.value == "review-failed" and written.subjects == [RESULT_33]
    assert sorted(c.claim for c in written.claims if c.verdict.value == "fail") == ["printed value", "quote"]
    assert [c.claim for c in written.claims if c.verdict.value == "cannot-check"] == ["unit"]
    assert written.supersedes and set(written.supersedes) <= before, "the earlier source check stays, as history"
    shown = cli("show", RESULT_33, "--records", records)
    assert shown.exit_code == 0 and "review failed" in shown.output


def _bad_pdf(kind: str, good: Path, path: Path) -> Path:
    if kind == "corrupt":
        return corrupt(good, path)
    if kind == "truncated":
        return truncated(good, path)
    if kind == "encrypted":
        return encrypted(good, path)
    path.write_bytes(BLOCK_PAGE if kind == "html" else b"just some text, not a PDF")
    return path


@pytest.mark.parametrize(("kind", "message"), [
    ("corrupt", "is a corrupt PDF"),
    ("truncated", "is a truncated PDF: it has no end-of-file marker"),
    ("encrypted", "is an encrypted PDF that needs a password to open"),
    ("html", "is an HTML page, not a PDF"),
    ("text", "is not a PDF: it starts with"),
])
def test_bad_files_pinned_by_the_source_give_a_message(cli, tmp_path: Path, paper: Path,  # type: ignore[no-untyped-def]
                                                       kind: str, message: str) -> None:
    bad = _bad_pdf(kind, paper, tmp_path / f"{kind}.pdf")
    records = fresh_records(tmp_path)
    pin(records, bad)
    result = review(cli, records, tmp_path, RESULT_11, "--pdf", bad)
    assert result.exit_code == 1
    out = " ".join(result.output.split())
    assert "Error:" in out and message in out and "Hint:" in out and "Traceback" not in out


def test_a_file_with_another_hash_is_refused(cli, pinned: Path, tmp_path: Path, paper: Path) -> None:  # type: ignore[no-untyped-def]
    other = source_like_pdf(tmp_path / "other.pdf", value="33.89")
    result = review(cli, pinned, tmp_path, RESULT_11, "--pdf", other)
    assert result.exit_code == 1
    out = " ".join(result.output.split())
    assert f"expected SHA-256 {sha256_of(paper)}, found {sha256_of(other)}" in out
    assert "never accepted as the source" in out


def test_a_page_past_the_end(cli, pinned: Path, paper: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Past the source's page_count, validation refuses the registry before any review; past the PDF's own last
    page (a page_count that says more), the review finds it against the PDF."""
    path = pinned / "result" / f"{RESULT_11}.yaml"
    path.write_text(path.read_text().replace("\n  page: 6\n", "\n  page: 40\n"))
    refused = review(cli, pinned, tmp_path, RESULT_11, "--pdf", paper)
    text = " ".join(refused.output.split())
    assert refused.exit_code == 1 and "page 40 lies beyond the 11 pages of the pinned source" in text
    assert "Error: the registry is not valid" in text
    source = next((pinned / "source").glob("*.yaml"))
    source.write_text(source.read_text().replace("\npage_count: 11\n", "\npage_count: 40\n"))
    result = review(cli, pinned, tmp_path, RESULT_11, "--pdf", paper)
    assert result.exit_code == 1 and "page 40 does not exist: the PDF has 11 pages" in result.output


@pytest.mark.parametrize(("edit", "message"), [
    (None, "its source locator names no page"),
    ("(page 6)", "its source locator cites page 6 but quotes no text"),
])
def test_a_locator_without_a_quote(cli, pinned: Path, tmp_path: Path, offline: list[str],  # type: ignore[no-untyped-def]
                                   edit: str | None, message: str) -> None:
    record_id = CONFIG_33
    if edit:
        record_id = RESULT_33
        path = pinned / "result" / f"{RESULT_33}.yaml"
        data = path.read_text()
        locator = yaml.safe_load(data)["source_locator"]
        path.write_text(data.replace("  quote: the NT 2.5B checkpoint (33.88 \u2192 11.49 GB)\n", ""))
        assert yaml.safe_load(path.read_text())["source_locator"] != locator
    result = review(cli, pinned, tmp_path, record_id)
    assert result.exit_code == 1 and offline == []
    out = " ".join(result.output.split())
    assert f"Error: cannot check {record_id}: {message}" in out and "'page: N' and 'quote: <quoted text>'" in out


def test_an_unknown_id(cli, pinned: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = review(cli, pinned, tmp_path, RESULT_11 + "-typo")
    assert result.exit_code == 1 and "no record has the id" in result.output and "did you mean" in result.output


def test_a_missing_pdf_path(cli, pinned: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = review(cli, pinned, tmp_path, RESULT_11, "--pdf", tmp_path / "nowhere.pdf")
    assert result.exit_code == 1 and "does not exist" in result.output and "Traceback" not in result.output


def test_python_m_registry_review_runs_the_same_command(pinned: Path, paper: Path, tmp_path: Path) -> None:
    """The review package is a library: it has no command of its own (it would import the CLI); the module
    entry point is the registry's."""
    done = subprocess.run(
        [sys.executable, "-m", "registry", "review", RESULT_11, "--records", str(pinned), "--pdf", str(paper),
         "--cache-dir", str(tmp_path / "cache")],
        capture_output=True, text=True, cwd=ROOT, env={"COLUMNS": "250", "PATH": "", "HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    assert "All 9 assertions passed." in done.stdout
    usage = subprocess.run([sys.executable, "-m", "registry", "review", "--help"], capture_output=True, text=True,
                           cwd=ROOT)
    assert usage.returncode == 0 and "--write" in usage.stdout
    assert not (ROOT / "review" / "__main__.py").exists()


def test_help_does_not_import_pypdf_or_httpx() -> None:
    watched = ("pypdf", "httpx", "review.pdf.pdftext", "review.pdf.fetch")
    assert modules_imported_by([["--help"], ["review", "--help"]], watched) == []


# -- a source checker's walkthrough: the fixture paper, whose source names no retrieval URL ------------

FIXTURE_PAPER = DATA / "papers" / "genomic-benchmarks-fixture" / "paper.pdf"
FIXTURE_RESULT = "fixture-genomic-20261201-result-fig1-peak-memory"


def test_another_file_for_a_source_without_a_url_says_where_it_comes_from(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The hint named the retrieval URL even where the source has none: 'get the PDF from None'."""
    other = source_like_pdf(tmp_path / "other.pdf")
    result = review(cli, DATA / "fixture-registry", tmp_path, FIXTURE_RESULT, "--pdf", other)
    assert result.exit_code == 1
    out = " ".join(result.output.split())
    assert "None" not in out and "is not the pinned source" in out
    assert "get the PDF the source pins (the registry's test suite PDF headed" in out
    assert "the source names no retrieval URL) and pass it with --pdf" in out
    cached = tmp_path / "cache" / f"{sha256_of(FIXTURE_PAPER)}.pdf"
    cached.parent.mkdir()
    cached.write_bytes(other.read_bytes())
    from_cache = review(cli, DATA / "fixture-registry", tmp_path, FIXTURE_RESULT)
    out = " ".join(from_cache.output.split())
    assert from_cache.exit_code == 1 and "None" not in out and f"delete {cached} and run again" in out
    assert "or replace it with the PDF the source pins (" in out


def test_a_verified_file_replaces_a_damaged_cached_copy(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A run given the right file used to leave the damaged copy in the cache, so the next run failed again."""
    cached = tmp_path / "cache" / f"{sha256_of(FIXTURE_PAPER)}.pdf"
    cached.parent.mkdir()
    cached.write_bytes(FIXTURE_PAPER.read_bytes()[:-100])
    given = review(cli, DATA / "fixture-registry", tmp_path, FIXTURE_RESULT, "--pdf", FIXTURE_PAPER)
    assert given.exit_code == 0, given.output
    assert f"(a copy is now cached at {cached})" in " ".join(given.output.split())
    assert sha256_of(cached) == sha256_of(FIXTURE_PAPER)
    again = review(cli, DATA / "fixture-registry", tmp_path, FIXTURE_RESULT)
    assert again.exit_code == 0 and "PDF: the cached copy" in again.output


@pytest.mark.parametrize("name", ["/dev/null", "fifo"])
def test_a_given_path_that_is_no_regular_file(cli, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    """A device or a pipe was said not to exist."""
    import os

    path = Path(name)
    if name == "fifo":
        path = tmp_path / "paper.pdf"
        os.mkfifo(path)
    result = review(cli, DATA / "fixture-registry", tmp_path, FIXTURE_RESULT, "--pdf", path)
    out = " ".join(result.output.split())
    assert result.exit_code == 1 and f"Error: {path} is not a regular file (a device, pipe or socket)" in out
    assert "does not exist" not in out and "Hint: pass the path of the downloaded PDF file with --pdf" in out


@pytest.fixture
def tampered_unit(tmp_path: Path) -> Path:
    """The fixture registry with one unit changed: GB (gigabyte) filed as MB (megabyte)."""
    import shutil

    records = tmp_path / "fixture-registry"
    shutil.copytree(DATA / "fixture-registry", records)
    path = records / "result" / f"{FIXTURE_RESULT}.yaml"
    path.write_text(path.read_text().replace("unit: gigabyte", "unit: megabyte").replace("Printed as GB",
                                                                                         "Printed as MB"))
    return records


def _at_width(width: int, run):  # type: ignore[no-untyped-def]
    from registry.cli.output import console

    terminal = console._made()  # type: ignore[attr-defined]
    wide, terminal.width = terminal.width, width
    try:
        return run()
    finally:
        terminal.width = wide


WHY = "the page prints '42.7 GB' (gigabyte), not MB (megabyte); correct the record's unit (or unit_detail) to the printed one"


def test_a_narrow_terminal_gets_each_assertion_as_a_block(cli, tmp_path: Path, tampered_unit: Path) -> None:  # type: ignore[no-untyped-def]
    """At 80 columns the eight-column table left 'How / why' 5 characters wide: one reason over 27 lines."""
    result = _at_width(80, lambda: review(cli, tampered_unit, tmp_path, FIXTURE_RESULT, "--pdf", FIXTURE_PAPER))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80 and not any("┃" in line for line in lines)
    start = next(i for i, line in enumerate(lines) if line.startswith("FAIL unit (page 2)"))
    assert "MB (megabyte)" in lines[start] and lines[start + 1].split() == ["matched", "42.7", "GB"]
    block = " ".join(" ".join(lines[start + 2:start + 5]).split())
    assert block.startswith("how / why " + WHY.split(";")[0])  # whole words, three lines at most
    assert "Failed: - " + FIXTURE_RESULT + ": unit (page 2): MB (megabyte): " + WHY in " ".join(result.output.split())
    assert lines[-1] == "1 of 8 assertions failed: the records are not source checked by this PDF."


def test_a_wide_terminal_keeps_the_table_and_lists_the_failures_below_it(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                         tampered_unit: Path) -> None:
    source = "fixture-genomic-20261201-source-genomic-benchmarks-fixture"
    result = review(cli, tampered_unit, tmp_path, source, "--pdf", FIXTURE_PAPER)
    assert result.exit_code == 1 and "┃ Claim" in result.output
    tail = result.output[result.output.index("Failed:"):]
    assert " ".join(tail.split()) == (f"Failed: - {FIXTURE_RESULT}: unit (page 2): MB (megabyte): {WHY} "
                                      "1 of 864 assertions failed: the records are not source checked by this PDF.")


def test_the_smallest_memory_limit_is_named_as_the_limit(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """--max-memory 64 (the least the option takes) gave 'failed: SystemError: error return without exception set'
    and 'report it': importing pypdf under the cap fails that way."""
    source = "fixture-genomic-20261201-source-genomic-benchmarks-fixture"
    result = review(cli, DATA / "fixture-registry", tmp_path, source, "--pdf", FIXTURE_PAPER, "--max-memory", "64")
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "needed more than 64 MB of memory and was stopped" in text and "SystemError" not in text
    assert "Hint: allow more with --max-memory MB, if this is the pinned paper" in text
