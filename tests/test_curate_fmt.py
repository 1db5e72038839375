"""`registry fmt`: files in the writer's canonical form, comments kept, values never changed; `--check` for CI."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from registry.curate import fmt as fmt_module
from registry.curate.fmt import canonical_text
from registry.store.loader import record_files
from registry.store.release import content_digest
from registry.validate.runner import validate
from tests.conftest import DATA

#: Every comment line of a file (the text after '#' where a line holds only a comment, or ends in one).
COMMENT = re.compile(r"(?:^|\s)(#.*)$", re.MULTILINE)


def comments(text: str) -> list[str]:
    return sorted(m.group(1).rstrip() for m in COMMENT.finditer(text) if "'" not in m.group(0)[:1])


def test_fmt_keeps_every_value_and_comment_and_then_checks_clean(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "records"
    shutil.copytree(DATA.parent.parent / "records", root)
    shutil.copytree(DATA / "fmt-handwritten", root, dirs_exist_ok=True)  # seed records as they were written by hand
    before, _ = validate(root)
    texts = {p: p.read_text() for p in record_files(root)}
    check = cli("fmt", "--check", "--records", root)
    assert check.exit_code == 1, check.output
    listed = [line.split(" ", 2)[2] for line in check.output.splitlines() if line.startswith("would reformat ")]
    assert listed and all(Path(p).is_file() for p in listed)
    assert {p: p.read_text() for p in record_files(root)} == texts, "--check writes nothing"
    done = cli("fmt", "--records", root)
    assert done.exit_code == 0, done.output
    assert f"Reformatted {len(listed)} file(s)" in done.output
    after, report = validate(root)
    assert report.valid
    assert after.records == before.records, "every typed record is the same"
    assert content_digest(after) == content_digest(before), "so the release name is the same"
    for path, text in texts.items():
        kept = path.read_text()
        assert [c for c in comments(text) if c not in comments(kept)] == [], path
    again = cli("fmt", "--check", "--records", root)
    assert again.exit_code == 0 and "0 of" in again.output, again.output


def test_the_bundled_records_are_in_the_canonical_form(cli) -> None:  # type: ignore[no-untyped-def]
    """The CI gate: 'registry fmt --check' passes on the records the registry ships."""
    check = cli("fmt", "--check", "--records", DATA.parent.parent / "records")
    assert check.exit_code == 0, check.output
    assert re.search(r"^0 of \d+ file\(s\) not in the canonical form", check.output, re.M), check.output


def test_what_the_writer_writes_is_canonical_already(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    written = [p for p in (records_dir / "reproduction").glob("*.yaml")]
    assert written and all(canonical_text(p.read_text()) == p.read_text() for p in written)
    fixture = cli("fmt", "--check", "--records", DATA / "fixture-registry")  # written by the writer, with comments
    assert fixture.exit_code == 0 and re.search(r"^0 of \d+ file\(s\) not in the canonical form", fixture.output, re.M)
    result = cli("new", "family", "--name", "A written family", "--batch", "saadat-fellay", "--records", records_dir,
                 "--no-prompt")
    assert result.exit_code == 0
    new_file = next((records_dir / "family").glob("*a-written-family.yaml"))
    assert cli("fmt", "--check", new_file, "--records", records_dir).exit_code == 0


HAND_WRITTEN = """\
# A family written by hand, in no order.
id: saadat-fellay-20261015-family-hand-written   # its id
name: Hand written
kind: family
derivation: >-
  Folded text # that is not a comment
  over two lines.
# the end
"""


def test_keys_go_in_order_and_comments_go_with_their_keys() -> None:
    text = canonical_text(HAND_WRITTEN)
    assert text == (
        "# A family written by hand, in no order.\n"
        "kind: family\n"
        "# its id\n"
        "id: saadat-fellay-20261015-family-hand-written\n"
        "name: Hand written\n"
        "derivation: 'Folded text # that is not a comment over two lines.'\n"
        "# the end\n"
    )
    assert canonical_text(text) == text, "formatting twice changes nothing"


def test_comments_inside_lists_and_nested_values_stay_with_their_items() -> None:
    text = """\
kind: evaluation
id: saadat-fellay-20261015-evaluation-x
name: X
configuration: c
protocol: p
dataset: d
independence: developer
missing_metadata:
  # the first gap
  - field: split  # a trailing note
    reason: unreported
  - field: aggregation
    # why
    reason: not-transcribed
"""
    out = canonical_text(text)
    assert "missing_metadata:\n# the first gap\n# a trailing note\n- field: split\n" in out
    assert "- field: aggregation\n  # why\n  reason: not-transcribed\n" in out


def test_a_file_that_does_not_load_is_left_and_reported(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    bad = records_dir / "family" / "saadat-fellay-20261015-family-broken.yaml"
    bad.write_text("kind: family\nid: saadat-fellay-20261015-family-broken\nnmae: typo\n")
    result = cli("fmt", "--records", records_dir)
    assert result.exit_code == 1
    assert f"cannot format {bad}: the record does not load; run 'registry validate'" in result.output
    assert bad.read_text().endswith("nmae: typo\n")


def test_formatting_that_would_change_a_value_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    real = fmt_module.record_to_yaml

    def lossy(record, **kwargs):  # type: ignore[no-untyped-def]
        return real(record, **kwargs).replace("Hand written", "Hand-written")

    monkeypatch.setattr(fmt_module, "record_to_yaml", lossy)
    with pytest.raises(Exception, match="would change the record's values"):
        canonical_text(HAND_WRITTEN)


def test_fmt_of_given_paths_only(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    shutil.copytree(DATA / "fmt-handwritten", records_dir, dirs_exist_ok=True)
    first, second = sorted((records_dir / "result").glob("*-flashattention-checkpointing*.yaml"))
    result = cli("fmt", first, "--records", records_dir)
    assert result.exit_code == 0 and "Reformatted 1 file(s)" in result.output
    assert cli("fmt", "--check", records_dir / "result", "--records", records_dir).exit_code == 1, "its sibling is not"
    assert cli("fmt", "--check", second, "--records", records_dir).exit_code == 1
    outside = cli("fmt", DATA / "fixture-registry", "--records", records_dir)
    assert outside.exit_code == 1 and "is not inside --records" in outside.output


def test_the_usage_names_paths_once(cli) -> None:  # type: ignore[no-untyped-def]
    usage = cli("fmt", "--help").output.splitlines()[0]
    assert usage.endswith("fmt [OPTIONS] [PATH]..."), usage
