"""`registry site build`: the pages, their links, their HTML, and how the build writes them.

HTML is checked with html5lib (a spec-conforming parser, strict: any parse error fails) and the
links by resolving every href and src of every page against the built tree.
"""

from __future__ import annotations

import hashlib
import shutil
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.conftest import BUNDLED_RECORDS, CONFIG_33, DATA, RESULT_11, RESULT_33, SOURCE, modules_imported_by

html5lib = pytest.importorskip("html5lib", reason="html5lib is a test dependency: pip install -e '.[test]'")
pytest.importorskip("jinja2", reason="the site needs jinja2")

NS = "{http://www.w3.org/1999/xhtml}"
FAMILY = "saadat-fellay-20261015-family-nucleotide-transformer"
EVAL_11 = "saadat-fellay-20261015-evaluation-nt-2-5b-training-peak-memory-deepspeed"
PROTOCOL = "saadat-fellay-20261015-protocol-training-peak-memory"
RELEASE = "saadat-fellay-20261015-release-2026-10-22-1b7cf027e4f6"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from registry.site.build import build_site
    from registry.validate.runner import validate

    registry, report = validate(BUNDLED_RECORDS)
    assert report.valid
    out = tmp_path_factory.mktemp("site") / "site"
    build_site(registry, out)
    return out


def parse(path: Path) -> ElementTree.Element:
    """The page's tree; html5lib's strict mode raises on the first parse error (with its line)."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True)
    return parser.parse(path.read_bytes(), transport_encoding="utf-8")


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def text_of(element: ElementTree.Element) -> str:
    """The element's text as a screen shows it: each text node apart, spaces collapsed, and the words only a screen
    reader reads (visually hidden: class 'vh') left out."""
    return " ".join(" ".join(shown_text(element)).split())


def shown_text(element: ElementTree.Element) -> Iterator[str]:
    if "vh" in (element.get("class") or "").split():
        return
    yield element.text or ""
    for child in element:
        yield from shown_text(child)
        yield child.tail or ""


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def test_a_page_per_record_at_its_stable_url_with_its_json_and_record_file(site: Path) -> None:
    from registry.validate.runner import validate

    registry, _ = validate(BUNDLED_RECORDS)
    for record_id, record in registry.records.items():
        page = site / record.kind_token / f"{record_id}.html"
        assert page.is_file(), page
        assert (site / record.kind_token / f"{record_id}.json").is_file()
        copy = site / "records" / record.kind_token / f"{record_id}.yaml"
        assert copy.read_bytes() == registry.paths[record_id].read_bytes()
        hrefs = {a.get("href") for a in parse(page).iter(f"{NS}a")}
        assert f"../{record.kind_token}/{record_id}.json" in hrefs and f"../records/{record.kind_token}/{record_id}.yaml" in hrefs
    assert (site / "index.html").is_file() and (site / "release" / "index.html").is_file()


def test_every_page_parses_without_error_and_has_its_headings_in_order(site: Path) -> None:
    for path in pages(site):
        tree = parse(path)  # raises html5lib.html5parser.ParseError on any error
        levels = [int(e.tag[-1]) for e in tree.iter() if isinstance(e.tag, str) and e.tag[len(NS):] in
                  ("h1", "h2", "h3", "h4", "h5", "h6")]
        assert levels.count(1) == 1 and levels[0] == 1, (path, levels)
        for before, after in zip(levels, levels[1:], strict=False):
            assert after <= before + 1, f"{path.name}: heading level jumps from h{before} to h{after}"
        assert tree.find(f".//{NS}html").get("lang") == "en" if tree.tag != f"{NS}html" else tree.get("lang") == "en"


def test_every_table_has_column_headers_and_full_rows(site: Path) -> None:
    tables = 0
    for path in pages(site):
        for table in parse(path).iter(f"{NS}table"):
            tables += 1
            headers = table.findall(f"{NS}thead/{NS}tr/{NS}th")
            assert headers and all(th.get("scope") == "col" and text_of(th) for th in headers), path
            for row in table.findall(f"{NS}tbody/{NS}tr"):
                assert len(row.findall(f"{NS}td")) == len(headers), f"{path.name}: a row without a cell per column"
    assert tables >= 10


def test_every_link_and_asset_resolves_inside_the_site(site: Path) -> None:
    """No link is broken, none leaves the site but a paper's own addresses, and every #fragment names an id on its page.

    The papers' links (URL, DOI, arXiv, OpenReview) are the one way off the site: each is an address a
    source record holds, followed only when clicked (pages load nothing from elsewhere: test_site_browser).
    """
    from registry.models import Source
    from registry.page.citation import links
    from registry.validate.runner import validate

    registry, _ = validate(BUNDLED_RECORDS)
    papers = {url for source in registry.of_kind(Source) for _, url in links(source)}
    assert papers
    ids: dict[Path, set[str]] = {}
    checked = 0
    followed_off = 0
    for path in pages(site):
        tree = parse(path)
        ids[path] = {e.get("id") for e in tree.iter() if isinstance(e.tag, str) and e.get("id")}
    for path in pages(site):
        for element in parse(path).iter():
            if not isinstance(element.tag, str):
                continue
            for attribute in ("href", "src"):
                value = element.get(attribute)
                if value is None:
                    continue
                parsed = urllib.parse.urlsplit(value)
                if value in papers and element.tag.endswith("a"):
                    followed_off += 1
                    continue
                assert not parsed.scheme and not parsed.netloc, f"{path.name} refers off the site: {value}"
                target = (path.parent / urllib.parse.unquote(parsed.path)).resolve() if parsed.path else path
                assert target.is_file(), f"{path.relative_to(site)}: broken link {value}"
                assert site.resolve() in target.parents, f"{path.name}: {value} leaves the site"
                if parsed.fragment and target.suffix == ".html":
                    assert parsed.fragment in ids[target], f"{path.name}: no #{parsed.fragment} in {target.name}"
                checked += 1
    assert checked > 1000 and followed_off > 0


def test_links_between_records_go_both_ways(site: Path) -> None:
    def links(kind: str, record_id: str) -> set[str]:
        return {Path(a.get("href")).stem for a in parse(site / kind / f"{record_id}.html").iter(f"{NS}a")}

    assert EVAL_11 in links("result", RESULT_11) and RESULT_11 in links("evaluation", EVAL_11)
    assert FAMILY in links("config", CONFIG_33) and CONFIG_33 in links("family", FAMILY)
    assert SOURCE in links("result", RESULT_33) and RESULT_33 in links("source", SOURCE)
    assert RELEASE in links("result", RESULT_11)


def test_seed_result_pages_read_as_the_seed_pages_with_their_values_and_review(site: Path) -> None:
    page = text_of(parse(site / "result" / f"{RESULT_11}.html"))
    for phrase in ("Methods", "Reproduction", "Evidence", "Sources and history",
                   "Technical metadata and extraction receipts", "Related records",
                   "Transcribed value: 11.49 GB source checked as printed (display value 11.5; source checked)",
                   "Uncertainty Not reported by the source", "Coverage Not reported scored / Not reported eligible",
                   "Nothing has been measured yet: the estimates below are predictions, not measurements.",
                   "Estimated by us (not measured): 48 run(s) beside the transcribed 11.49 GB"):
        assert phrase in page, phrase
    page_33 = text_of(parse(site / "result" / f"{RESULT_33}.html"))
    assert "33.88 GB source checked (no artifact hash) as printed" in page_33
    config = text_of(parse(site / "config" / f"{CONFIG_33}.html"))
    for phrase in ("Overview", "Evaluations and results", "1 evaluation · 1 result",
                   "An explanatory profile has not yet been reviewed for this record.",
                   "configuration of: Nucleotide Transformer"):
        assert phrase in config, phrase


def test_every_value_says_what_it_is(site: Path) -> None:
    """Tagged values carry their provenance and, once per run of them, its label; estimates are never transcribed."""
    seen: set[str] = set()
    for path in (site / "result" / f"{RESULT_11}.html", site / "index.html",
                 *sorted((site / "reproduction").glob("*.html"))[:3]):
        tree = parse(path)
        for element in tree.iter(f"{NS}span"):
            classes = (element.get("class") or "").split()
            if "v" in classes:
                provenance = element.get("data-provenance")
                assert provenance in ("transcribed", "source-checked", "measured", "estimated"), path
                assert f"v-{provenance}" in classes and element.get("title"), path
                seen.add(provenance)
    assert {"source-checked", "estimated"} <= seen
    page = parse(site / "result" / f"{RESULT_11}.html")
    runs = [t for t in page.iter(f"{NS}table") if "Estimated by us" in text_of(t.find(f"{NS}caption"))]
    assert runs, "no table of our estimates"
    cells = [s for s in runs[0].iter(f"{NS}span") if "v" in (s.get("class") or "").split()]
    assert cells and {s.get("data-provenance") for s in cells} == {"estimated"}
    details = cells[0].get("title")
    assert "hardware: CPU estimate" in details and "commit: 7e2970bd" in details and "torch" in details


def test_the_plot_is_inline_with_its_labelled_values(site: Path) -> None:
    for record_id in (RESULT_11, RESULT_33):
        tree = parse(site / "result" / f"{record_id}.html")
        figure = next(tree.iter(f"{NS}figure"))
        svg = figure.find("{http://www.w3.org/2000/svg}svg")
        assert svg is not None and svg.get("role") == "img"
        labels = text_of(svg)
        assert "33.88 GB transcribed" in labels and "11.49 GB transcribed" in labels
        assert "(48 estimated)" in labels and "(20 estimated)" in labels
    protocol = text_of(parse(site / "protocol" / f"{PROTOCOL}.html"))
    assert "Transcribed, measured and estimated values" in protocol and "11.49 GB" in protocol


def test_index_lists_results_with_facets_and_search(site: Path) -> None:
    tree = parse(site / "index.html")
    rows = tree.findall(f".//{NS}table[@id='results']/{NS}tbody/{NS}tr")
    assert len(rows) == 2
    assert {row.get("data-status") for row in rows} == {"source checked", "source checked (no artifact hash)"}
    assert {row.get("data-reproduced") for row in rows} == {"estimated only"}
    facets = {f.get("data-facet") for f in tree.iter(f"{NS}fieldset")}
    assert facets == {"family", "metric", "dataset", "status", "kind", "reproduced"}
    assert {row.get("data-kind") for row in rows} == {"single value"}
    assert tree.find(f".//{NS}input[@id='search']") is not None
    assert all("nt 2.5b" in row.get("data-search") for row in rows)


def test_release_pages_carry_the_content_hash(site: Path) -> None:
    from registry.store.release import content_digest, release_name
    from registry.validate.runner import validate

    registry, _ = validate(BUNDLED_RECORDS)
    releases = text_of(parse(site / "release" / "index.html"))
    assert release_name(registry) in releases and content_digest(registry) in releases
    assert "2026-10-22-1b7cf027e4f6" in releases
    recorded = text_of(parse(site / "release" / f"{RELEASE}.html"))
    assert "Content hash prefix 1b7cf027e4f6" in recorded and content_digest(registry) in recorded
    assert "The records have changed since it was named: its hash prefix is not the current content's." in recorded


def test_the_releases_page_counts_only_what_the_hash_covers(site: Path) -> None:
    """Release records are left out of the hash, so 'Records in this content' leaves them out too (finding P2)."""
    releases = parse(site / "release" / "index.html")
    counted = next(t for t in releases.iter(f"{NS}table")
                   if "Records in this content" in text_of(next(t.iter(f"{NS}caption"))))
    kinds = [text_of(row[0]) for row in counted.iter(f"{NS}tr") if row[0].tag == f"{NS}td"]
    assert "result" in kinds and "release" not in kinds
    assert "Not counted: 1 release record(s), which the hash leaves out." in text_of(releases)


def test_the_site_has_no_empty_folder(site: Path) -> None:
    """A kind no record has gets no folder (finding P13: correction/ and retraction/ stood empty)."""
    empty = [p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_dir() and not any(p.iterdir())]
    assert empty == []
    assert not (site / "correction").exists() and (site / "result").is_dir()


def test_the_same_records_give_the_same_bytes(site: Path, tmp_path: Path) -> None:
    from registry.site.build import build_site
    from registry.validate.runner import validate

    registry, _ = validate(BUNDLED_RECORDS)
    again = tmp_path / "again"
    build_site(registry, again)
    assert digest(again) == digest(site)


def test_a_failed_build_leaves_the_previous_site(records_dir: Path, tmp_path: Path, monkeypatch, cli) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "site"
    assert cli("site", "build", "--records", records_dir, "--out", out).exit_code == 0
    before = digest(out)

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError(28, "No space left on device")

    import registry.site.build as build

    monkeypatch.setattr(build, "WORKERS", [1])
    monkeypatch.setattr(build, "_put", broken)
    result = cli("site", "build", "--records", records_dir, "--out", out)
    assert result.exit_code == 1 and "the previous site, if any, is untouched" in result.output
    assert digest(out) == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "a temporary folder was left behind"


def test_site_build_end_to_end_and_what_it_refuses(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "site"
    result = cli("site", "build", "--out", out)
    assert result.exit_code == 0, result.output
    assert f"Built {out}/" in result.output and "open" in result.output
    again = cli("site", "build", "--out", out)  # an earlier build is replaced
    assert again.exit_code == 0, again.output

    other = tmp_path / "photos"
    other.mkdir()
    (other / "holiday.jpg").write_bytes(b"not a site")
    refused = cli("site", "build", "--out", other)
    assert refused.exit_code == 1
    assert "is not a site that 'registry site build' wrote; it was left untouched" in refused.output
    assert (other / "holiday.jpg").read_bytes() == b"not a site"

    a_file = tmp_path / "notes.txt"
    a_file.write_text("keep me")
    refused = cli("site", "build", "--out", a_file)
    assert refused.exit_code != 0 and a_file.read_text() == "keep me"


def test_a_registry_without_a_release_builds_its_site(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """Finding R1: the fixture registry (no release record) failed with 'No such file or directory'."""
    out = tmp_path / "site"
    result = cli("site", "build", "--records", DATA / "fixture-registry", "--out", out)
    assert result.exit_code == 0, result.output
    assert "Built" in result.output and "207 pages" in result.output
    releases = (out / "release" / "index.html").read_text(encoding="utf-8")
    assert "No release has been recorded yet." in releases and "Current content" in releases
    assert len(list((out / "result").glob("*.html"))) == 161


def test_site_build_refuses_an_invalid_registry(records_dir: Path, tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    (records_dir / "family" / "broken.yaml").write_text("kind: [")
    result = cli("site", "build", "--records", records_dir, "--out", tmp_path / "site")
    assert result.exit_code == 1 and "the registry is not valid" in result.output
    assert not (tmp_path / "site").exists()


def test_record_text_is_escaped(records_dir: Path, tmp_path: Path) -> None:
    """Text from a record is never markup: a name holding '<script>' reads as text."""
    from registry.site.build import build_site
    from registry.validate.runner import validate

    family = records_dir / "family" / f"{FAMILY}.yaml"
    family.write_text(family.read_text().replace("name: Nucleotide Transformer",
                                                 "name: 'Nucleotide <script>alert(1)</script> Transformer'"))
    registry, report = validate(records_dir)
    assert report.valid, report.errors
    build_site(registry, tmp_path / "site")
    page = (tmp_path / "site" / "family" / f"{FAMILY}.html").read_text()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_everyday_commands_do_not_import_the_publishing_libraries() -> None:
    watched = ("jinja2", "matplotlib", "prov", "playwright", "datasette", "huggingface_hub", "html5lib")
    assert modules_imported_by([["--help"], ["validate", "--records", str(BUNDLED_RECORDS)]], watched) == []


def test_site_assets_are_local_files(site: Path) -> None:
    css = (site / "assets" / "site.css").read_text()
    assert "url(" not in css and "@import" not in css  # no fonts or styles fetched from anywhere
    assert shutil.which("true") is not None
