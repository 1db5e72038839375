"""Library messages name the inputs a caller gave by placeholder; only the CLI words them as its flags."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from registry.cli.options import FLAGS
from registry.errors import INPUTS, RegistryError
from tests.conftest import RESULT_33, ROOT

#: A command-line flag inside a string: '--set', '--hub-ids' (not an em dash or a YAML document marker).
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]+")
#: Calls whose string arguments become a message or a hint: exceptions, and the issues of a validation report.
MESSAGE_CALLS = re.compile(r"(Error|^issue|^add)$")


def test_every_input_a_library_message_names_has_a_flag() -> None:
    assert sorted(FLAGS) == sorted(INPUTS)


def test_no_library_message_names_a_command_line_flag() -> None:
    """Outside registry/cli/, no exception or issue is built from a string that holds a flag."""
    found = []
    for path in sorted((ROOT / "registry").rglob("*.py")):
        if "cli" in path.relative_to(ROOT / "registry").parts[:1]:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if not MESSAGE_CALLS.search(name):
                continue
            found += [f"{path.relative_to(ROOT)}:{text.lineno} {FLAG.search(text.value)[0]}"  # type: ignore[index]
                      for text in ast.walk(node) if isinstance(text, ast.Constant) and isinstance(text.value, str)
                      and FLAG.search(text.value)]
    assert found == []


@pytest.mark.parametrize(("hint", "library", "command_line"), [
    ("give the corrected values ({changes})", "the corrected values (FIELD=VALUE)", "--set FIELD=VALUE"),
    ("write {hub_ids} as ...", "the file of Hub ids", "--hub-ids"),
    ("run again with {debug} for the details", "debug mode", "--debug"),
])
def test_a_placeholder_reads_as_words_or_as_a_flag(hint: str, library: str, command_line: str) -> None:
    error = RegistryError("a message", hint)
    assert library in (error.worded()[1] or "") and command_line in (error.worded(FLAGS)[1] or "")


def test_a_correction_that_changes_nothing_names_the_set_flag_on_the_command_line(cli, records_dir: Path) -> None:  # type: ignore[no-untyped-def]
    same = cli("correct", RESULT_33, "--set", "printed_value=33.88", "--reason", "x", "--curator", "x",
               "--records", records_dir)
    assert same.exit_code == 1 and "Hint: give the corrected values (--set FIELD=VALUE)" in same.output


def test_a_hub_ids_file_of_the_wrong_form_names_its_flag(cli, records_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    hub_ids = tmp_path / "hub.yaml"
    hub_ids.write_text("- a list\n", encoding="utf-8")
    refused = cli("export", "--format", "hf", "--out", tmp_path / "hf", "--hub-ids", hub_ids, "--records", records_dir)
    assert refused.exit_code == 1, refused.output
    assert "Hint: write --hub-ids as 'models:'" in " ".join(refused.output.split())
