"""`registry plot` and the plot groups: transcribed values beside our runs, never merged, same bytes each time."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

import pytest

from tests.conftest import BUNDLED_RECORDS, DATA, RESULT_11, RESULT_33, SOURCE

#: The PNG is matplotlib's; the SVG (the site's drawing) needs nothing beyond the registry.
needs_matplotlib = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                                      reason="a PNG plot needs matplotlib: pip install -e '.[site]'")
PROTOCOL = "saadat-fellay-20261015-protocol-training-peak-memory"


@pytest.fixture(scope="module")
def groups():  # type: ignore[no-untyped-def]
    from registry.site.plot import groups_of
    from registry.validate.runner import validate

    registry, _ = validate(BUNDLED_RECORDS)
    return groups_of(registry)


def test_the_seed_protocol_is_one_group_of_its_two_stages(groups) -> None:  # type: ignore[no-untyped-def]
    assert list(groups) == [PROTOCOL]
    (group,) = groups[PROTOCOL]
    assert [row.result.id for row in group.rows] == [RESULT_33, RESULT_11]
    assert [row.label for row in group.rows] == ["NT 2.5B training peak memory, stage + Checkpointing",
                                                 "NT 2.5B training peak memory, stage + DeepSpeed"]
    runs = {row.result.id: row.runs for row in group.rows}
    assert [r.method.value for r in runs[RESULT_11]] == ["estimated"] and len(runs[RESULT_11][0].values) == 48
    assert runs[RESULT_11][0].label("GB").endswith("GB (48 estimated)")
    assert group.axis_label == "Peak memory (GB)"


def test_values_table_keeps_transcribed_and_ours_apart(groups) -> None:  # type: ignore[no-untyped-def]
    from registry.site.plot import values_table

    table = values_table(groups[PROTOCOL][0])
    assert [c.header for c in table.columns] == ["Result", "Transcribed", "Measured by us", "Estimated by us"]
    transcribed = [row[1][0] for row in table.rows]
    assert [p.text for p in transcribed] == ["33.88 GB", "11.49 GB"]
    assert {p.tag.provenance.value for p in transcribed} == {"source-checked"}  # type: ignore[union-attr]
    assert [row[2][0].text for row in table.rows] == ["none", "none"]
    assert {row[3][0].tag.provenance.value for row in table.rows} == {"estimated"}  # type: ignore[union-attr]


def test_plot_command_writes_svg_with_labelled_values_and_prints_them(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "figure3.svg"
    result = cli("plot", RESULT_11, "--out", out)
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    for label in ("33.88 GB transcribed", "11.49 GB transcribed", "GB (48 estimated)", "GB (20 estimated)",
                  "Peak memory (GB)", "estimated by us"):
        assert label in svg, label
    assert "measured by us" not in svg  # nothing was measured: no legend entry claims it
    text = " ".join(result.output.split())
    assert "33.88 GB" in text and "11.49 GB" in text and f"Wrote {out}" in text


def test_the_same_records_give_the_same_plot_bytes(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    assert cli("plot", PROTOCOL, "--out", first).exit_code == 0
    assert cli("plot", RESULT_33, "--out", second).exit_code == 0  # a result plots its protocol's group
    assert first.read_bytes() == second.read_bytes()


@needs_matplotlib
def test_plot_command_writes_png(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "figure3.png"
    assert cli("plot", PROTOCOL, "--out", out).exit_code == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_command_messages(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    wrong_suffix = cli("plot", PROTOCOL, "--out", tmp_path / "figure.pdf")
    assert wrong_suffix.exit_code == 1 and "name the file .svg or .png" in wrong_suffix.output
    wrong_kind = cli("plot", SOURCE, "--out", tmp_path / "figure.svg")
    assert wrong_kind.exit_code == 1 and "give the id of a protocol, an evaluation or a result" in wrong_kind.output
    assert f"'{SOURCE}' is a source record, which no plot shows" in wrong_kind.output
    unknown = cli("plot", "saadat-fellay-20261015-protocol-training", "--out", tmp_path / "figure.svg")
    assert unknown.exit_code == 1 and f"did you mean: {PROTOCOL}" in unknown.output
    assert "Traceback" not in wrong_suffix.output + wrong_kind.output + unknown.output
    assert not list(tmp_path.iterdir())


def test_a_dimensionless_metric_is_plotted_without_an_empty_unit(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """Finding R3: an MCC's axis read 'MCC ()' and its label '0.68  transcribed'; a percentage reads '66%'."""
    out = tmp_path / "pooled.svg"
    result = cli("plot", "fixture-genomic-20261201-result-s5-pooled-mcc", "--out", out,
                 "--records", DATA / "fixture-registry")
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert "0.68 transcribed" in svg and "0.68  transcribed" not in svg
    assert "MCC ()" not in svg and "MCC ()" not in result.output and "MCC" in svg
    assert "│        0.68 │" in result.output  # the table's cell: the value, no trailing space

    reduction = cli("plot", "fixture-genomic-20261201-result-s5-1-lora-memory-reduction", "--out",
                    tmp_path / "reduction.svg", "--records", DATA / "fixture-registry")
    assert reduction.exit_code == 0, reduction.output
    assert "66% transcribed" in (tmp_path / "reduction.svg").read_text() and "66 %" not in reduction.output


@pytest.fixture(scope="module")
def fixture_groups():  # type: ignore[no-untyped-def]
    from registry.site.plot import groups_of
    from registry.validate.runner import validate

    registry, _ = validate(DATA / "fixture-registry")
    return groups_of(registry)


def test_every_group_is_drawn_with_transcribed_values_only(fixture_groups) -> None:  # type: ignore[no-untyped-def]
    """The fixture has no run of ours: every protocol's group is still drawn (the fixture site had 0 plots)."""
    from registry.site.plot_svg import inline_svg

    assert len(fixture_groups) == 6
    for panels in fixture_groups.values():
        drawn = inline_svg(panels)
        assert drawn.startswith('<svg role="img" aria-labelledby="plot-title"') and "transcribed" in drawn


def test_a_hundred_rows_are_small_multiples_with_error_bars_and_an_axis_near_the_values(
        fixture_groups, tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """Finding: 136 rows in one 16,222 px image, the title over the labels, an MCC axis to 1.4, no error bars."""
    import re
    import xml.etree.ElementTree as ET

    from registry.site.plot import panels_of

    (mcc,) = [g for g in fixture_groups["fixture-genomic-20261201-protocol-cv"] if g.metric == "mcc"]
    assert len(mcc.rows) >= 100
    panels = panels_of([mcc])
    assert len(panels) == 4 and all(len(rows) <= 40 for _, _, rows in panels)  # one per dataset
    labels = [row.label for row in panels[0][2] if "HyenaDNA" in row.label and "test fold" in row.label]
    assert [int(re.search(r"fold (\d+)", label).group(1)) for label in labels] == list(range(1, 11))  # type: ignore[union-attr]

    out = tmp_path / "cv.svg"
    result = cli("plot", "fixture-genomic-20261201-protocol-cv", "--out", out, "--records", DATA / "fixture-registry")
    assert result.exit_code == 0, result.output
    parts = sorted(tmp_path.glob("cv-*.svg"), key=lambda path: int(path.stem.split("-")[1]))
    assert len(parts) > 1 and not out.exists()  # 100+ rows: parts of at most ROWS_PER_PART rows, not one image
    ns = "{http://www.w3.org/2000/svg}"
    words, titles = [], []
    for part in parts:
        root = ET.fromstring(part.read_text().split("?>", 1)[1])
        ticks = [float(t.text) for t in root.iter(f"{ns}text") if t.get("font-size") == "10"]
        mcc_ticks = ticks if "MCC change" not in part.read_text() else []
        assert not mcc_ticks or max(mcc_ticks) <= 1.0  # MCC's axis spans its values, not room for labels
        words.append(" ".join(" ".join(t.text or "" for t in root.iter(f"{ns}text")).split()))
        titles += [t.text or "" for t in root.iter(f"{ns}title")]
        ys = [float(t.get("y")) for t in root.iter(f"{ns}text")]
        assert len(set(ys)) == len(ys) or all(  # no two lines of text on one baseline but a panel's tick labels
            t.get("font-size") == "10" for t in root.iter(f"{ns}text") if ys.count(float(t.get("y"))) > 1)
    # An error bar per result that prints a ± or an interval: 0.671 ± 0.022 spans 0.649 to 0.693.
    assert any("HyenaDNA, cv on H3K27ac: H3K27ac, mean over 10 folds (Table 1): 0.671 ± 0.022 transcribed" in w
               for w in words)
    assert len(titles) >= len(mcc.rows) and any("± 0.022" in t for t in titles)
    assert f"Wrote {len(parts)} parts" in " ".join(result.output.split())


@pytest.fixture(scope="module")
def cv_png(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """`registry plot` of the fixture paper's CV protocol (100+ rows) as PNG parts, drawn once for the two tests
    that read them (matplotlib takes seconds over it), when the first asks: (result, its folder, the mock that
    wrapped each panel's drawing, which holds the axes and rows each was drawn with)."""
    from unittest import mock

    from tests.conftest import invoke

    @functools.cache
    def run():  # type: ignore[no-untyped-def]
        folder = tmp_path_factory.mktemp("cv-png")
        plot = __import__("registry.site.plot", fromlist=["_draw"])
        with mock.patch("registry.site.plot._draw", wraps=plot._draw) as draw:
            result = invoke("plot", "fixture-genomic-20261201-protocol-cv", "--out", folder / "cv.png", "--records",
                            DATA / "fixture-registry")
        return result, folder, draw

    return run


def test_a_plot_of_many_rows_is_cut_into_bounded_parts_holding_every_row_once(
        fixture_groups, cv_png) -> None:  # type: ignore[no-untyped-def]
    """A PNG of 100+ rows was 10,264 px tall: each part now holds at most ROWS_PER_PART rows, every row is in one
    part, each part's SVG names every row in a <title>, and each PNG is phone-sized (780 px wide, bounded height)."""
    import xml.etree.ElementTree as ET

    from registry.site.plot import ROWS_PER_PART, parts_of, plot_title
    from registry.site.plot_svg import inline_svg, svg_document

    groups = fixture_groups["fixture-genomic-20261201-protocol-cv"]
    every = [row.result.id for group in groups for row in group.rows]
    assert len(every) >= 100
    parts = parts_of(groups)
    assert all(0 < sum(len(rows) for _, _, rows in part) <= ROWS_PER_PART for part in parts)
    placed = [row.result.id for part in parts for _, _, rows in part for row in rows]
    assert sorted(placed) == sorted(every) and len(placed) == len(set(placed))
    assert [plot_title(groups, i, len(parts)).endswith(f"(part {i + 1} of {len(parts)})") for i in
            range(len(parts))] == [True] * len(parts)
    for index, part in enumerate(parts):
        root = ET.fromstring(svg_document(groups, part, plot_title(groups, index, len(parts))).split("?>", 1)[1])
        titles = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}title"))
        assert all(f"{row.label}: " in titles for _, _, rows in part for row in rows)  # every mark is named
        assert int(root.get("height")) < 3000
    inline = inline_svg(groups)  # the site: one <svg> per part, each named by the figure's caption
    assert inline.count('<svg role="img" aria-labelledby="plot-title"') == len(parts)
    small = min(fixture_groups.values(), key=lambda panels: sum(len(group.rows) for group in panels))
    assert len(parts_of(small)) == 1 and "(part " not in inline_svg(small)  # a short plot stays one image
    pytest.importorskip("matplotlib", reason="the PNG is drawn by matplotlib: pip install -e '.[site]'")
    from PIL import Image

    result, folder, _ = cv_png()
    assert result.exit_code == 0, result.output
    written = sorted(folder.glob("cv-*.png"))
    assert len(written) == len(parts)
    for path in written:
        width, height = Image.open(path).size
        assert width == 780 and height < 3200, (path.name, width, height)


@needs_matplotlib
def test_the_png_has_small_multiples_error_bars_and_an_axis_near_the_values(cv_png) -> None:  # type: ignore[no-untyped-def]
    """The same drawing rules in the PNG (matplotlib): one panel per dataset, error bars, the axis at the values."""
    result, folder, draw = cv_png()
    assert result.exit_code == 0, result.output
    assert all(path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for path in folder.glob("cv-*.png"))
    axes = [call.args[0] for call in draw.call_args_list]
    mcc = [a for a in axes if a.get_xlabel() == "MCC"]
    assert len(mcc) == 8  # one panel per dataset, each of its 34 rows cut in two parts of 17
    assert {len(call.args[2]) for call in draw.call_args_list if call.args[0].get_xlabel() == "MCC"} == {17}
    for panel in mcc:
        assert panel.get_xlim()[1] <= 1.0 and any(c.__class__.__name__ == "ErrorbarContainer"
                                                  for c in panel.containers)


def test_a_range_is_drawn_with_both_ends(records_dir: Path, tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """A range is marked at both ends, joined, and labelled as printed; never drawn as its lower end alone."""
    import html
    import shutil

    from registry.site.plot import extent, groups_of, transcribed_points
    from registry.validate.runner import validate

    shutil.copytree(DATA / "shapes" / "valid" / "range", records_dir, dirs_exist_ok=True)
    registry, _ = validate(records_dir, cache=False)
    (group,) = groups_of(registry)[PROTOCOL]
    (row,) = [r for r in group.rows if r.result.range_upper is not None]
    assert [str(v) for v in transcribed_points(row)] == ["12", "15"]
    assert extent([row])[1] >= 15
    out = tmp_path / "range.svg"
    assert cli("plot", row.result.id, "--records", records_dir, "--out", out).exit_code == 0
    assert out.read_text().count(html.escape(f"{row.label}: 12\u201315 GB transcribed")) == 2
