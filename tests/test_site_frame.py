"""The record template rendered once with slots (``Frame``) gives the bytes the engine gives for each page."""

from __future__ import annotations

import pytest
from markupsafe import Markup

from registry.site.build import RECORD_SLOTS
from registry.site.html import Frame, render

CONSTANTS = {"root": "../", "site_name": "Evidence registry", "urls": {},
             "release": {"name": "2026-12-06-abc", "sha256": "0" * 64}}

PAGES = [
    {"title": "A & B <c> \"quoted\" 'single'", "kind_label": "Result", "record_file": "records/result/a b.yaml",
     "json_file": "result/x.json", "body": Markup("<p>body &amp; <b>markup</b></p>\n"), "backing": Markup("")},
    {"title": "plain", "kind_label": "Model family", "record_file": "records/x.yaml", "json_file": "family/y.json",
     "body": Markup(""), "backing": Markup("<section>b</section>\n")},
    {"title": "", "kind_label": "", "record_file": "", "json_file": "", "body": "<not markup>", "backing": "&"},
]


@pytest.mark.parametrize("values", PAGES)
def test_a_frame_fills_the_slots_as_the_engine_renders_them(values: dict[str, object]) -> None:
    frame = Frame("record.html.j2", RECORD_SLOTS, **CONSTANTS)
    assert frame.fill(**values) == render("record.html.j2", **CONSTANTS, **values)


def test_a_slot_the_template_does_not_print_is_refused() -> None:
    with pytest.raises(ValueError, match="a slot is not printed as it is: \\['nowhere'\\]"):
        Frame("record.html.j2", (*RECORD_SLOTS, "nowhere"), **CONSTANTS)
