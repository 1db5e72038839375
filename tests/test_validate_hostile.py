"""`registry validate` on hostile input: every case gets its own located issue, in text and in JSON.

Each case under tests/data/hostile/validate is a record file copied over a copy of the bundled
records (replacing the file of the same name); the cases that cannot be data files (a link, folders
nested 1,100 deep) are made by their tests.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from registry.validate.runner import validate
from tests.conftest import DATA

HOSTILE = DATA / "hostile" / "validate"

#: case -> (code, a fragment of its message, the field it names)
CASES: dict[str, tuple[str, str, str | None]] = {
    "bool-maybe": ("invalid-value", "'maybe' cannot be read: it is not a true/false value", None),
    "timestamp-nope": ("invalid-value", "'nope' cannot be read: it is not a date or time", None),
    "hex-kind": ("unknown-kind", "unknown kind an integer of about 6,021 digits; the kinds are", "kind"),
    "hex-int": ("schema-string-type", "expected text but YAML read the number an integer of about 6,021 digits",
                "name"),
    "long-int": ("invalid-value", "(5,000 characters) cannot be read: it has more digits than an integer can be read",
                 None),
    "started-at-overflow": ("value-out-of-range", "9999-12-31T23:59:59-23:59 has no UTC equivalent between the years 1 "
                            "and 9999", "started_at"),
    "started-at-underflow": ("value-out-of-range", "0001-01-01T00:00:00+23:59 has no UTC equivalent", "started_at"),
}


def with_case(records_dir: Path, case: str) -> Path:
    shutil.copytree(HOSTILE / case, records_dir, dirs_exist_ok=True)
    return records_dir


def test_every_case_has_its_data() -> None:
    assert sorted(p.name for p in HOSTILE.iterdir()) == sorted(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_case_is_a_located_issue(records_dir: Path, case: str) -> None:
    code, fragment, field = CASES[case]
    _, report = validate(with_case(records_dir, case))
    [issue] = [i for i in report.errors if i.code == code]
    assert fragment in issue.message
    assert issue.line is not None and issue.field == field
    assert len(issue.message) < 400, "a message quotes a value only as a short excerpt"


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_case_is_in_the_json_report(records_dir: Path, cli, case: str) -> None:  # type: ignore[no-untyped-def]
    code, fragment, _ = CASES[case]
    result = cli("validate", "--records", with_case(records_dir, case), "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["valid"] is False
    assert any(i["code"] == code and fragment in i["message"] for i in report["issues"])


def test_a_validation_that_cannot_run_still_answers_in_json(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("validate", "--records", tmp_path / "nowhere", "--format", "json")
    assert result.exit_code == 1
    answer = json.loads(result.stdout)
    assert answer["valid"] is False and "does not exist" in answer["error"]["message"]
    assert "--records" in answer["error"]["hint"]


def test_folders_nested_thousands_deep_are_walked(records_dir: Path) -> None:
    folders = [records_dir / "deep"]
    for _ in range(1100):
        folders.append(folders[-1] / "d")
    for folder in folders:  # one at a time: Path.mkdir(parents=True) and shutil.rmtree recurse
        folder.mkdir()
    (folders[-1] / "stray.yaml").write_text("kind: nope\n")
    try:
        _, report = validate(records_dir)
    finally:
        (folders[-1] / "stray.yaml").unlink()
        for folder in reversed(folders):
            folder.rmdir()
    [issue] = [i for i in report.errors if i.code == "unknown-kind"]
    assert issue.file.endswith("/d/d/stray.yaml")


def test_a_time_at_the_edge_still_reads_its_day() -> None:
    import datetime as dt

    from registry.models.fields import utc_day

    late = dt.datetime(9999, 12, 31, 23, 59, 59, tzinfo=dt.timezone(-dt.timedelta(hours=23, minutes=59)))
    early = dt.datetime(1, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=23, minutes=59)))
    assert utc_day(late) == dt.date.max and utc_day(early) == dt.date.min
    assert utc_day(dt.datetime(2026, 1, 1, 23, tzinfo=dt.timezone(-dt.timedelta(hours=2)))) == dt.date(2026, 1, 2)


@pytest.mark.parametrize("text, shown", [
    ("\x1b[2J\x1b[31mred", "\\x1b[2J\\x1b[31mred"),
    ("tab\tand\nline", "tab\tand\nline"),
    ("\x9b31m", "\\x9b31m"),
    ("abc\u202edcba", "abc\\u202edcba"),
    ("lone \ud800", "lone \\ud800"),
    ("carriage\rreturn", "carriage\\x0dreturn"),
])
def test_unsafe_characters_are_escaped_for_the_terminal(text: str, shown: str) -> None:
    from registry.textsafe import escaped

    assert escaped(text) == shown


def test_an_excerpt_is_short_for_any_value() -> None:
    from registry.textsafe import excerpt

    assert excerpt(int("f" * 5000, 16)) == "an integer of about 6,021 digits"
    assert excerpt("x" * 10_000) == repr("x" * 200) + "... (10,000 characters)"
    assert excerpt("\x1b[2J") == "'\\x1b[2J'"
    assert excerpt(12) == "12" and excerpt(None) == "None"


def test_the_console_escapes_whatever_it_prints() -> None:
    from rich.table import Table
    from rich.text import Text

    from registry.cli.output import PipeConsole

    console = PipeConsole(force_terminal=True, width=80, record=False)
    table = Table()
    table.add_column("name")
    table.add_row(Text("\x1b[2J\x1b]52;c;aGk=\x07evil"))
    with console.capture() as captured:
        console.print(table)
        console.print("\x9b31m plain text", markup=False)
    out = captured.get()
    assert "\x1b[2J" not in out and "\x1b]52" not in out and "\x9b" not in out and "\x07" not in out
    assert "\\x1b[2J" in out and "\\x9b31m" in out
    assert "\x1b[" in out, "rich's own styling still reaches the terminal"


def test_json_output_escapes_what_a_terminal_would_act_on(capsys: pytest.CaptureFixture[str]) -> None:
    from registry.cli.output import echo_json

    echo_json({"name": "a\x1b[2J\x9b\u202eb"})
    out = capsys.readouterr().out
    assert json.loads(out) == {"name": "a\x1b[2J\x9b\u202eb"}, "the same value"
    assert "\x1b" not in out and "\x9b" not in out and "\u202e" not in out
