"""The last pass of writing a page (``registry.site.link_texts``): links of one text and two targets are told apart
by what they open, in visually hidden words; two records that read alike, by their addresses as well. The pages of
the test registries need no such help (their builders name what each link opens: tests/test_site_links.py), so the
pass is tested here on pages whose texts meet."""

from __future__ import annotations

from registry.site.link_texts import distinct_link_texts, shared_texts


def test_links_of_one_text_and_two_targets_each_get_what_they_open() -> None:
    page = ('<p><a href="../result/a.html">NT 2.5B</a> <a href="../result/b.html">NT <b>2.5B</b></a> '
            '<a href="../config/c.html">NT 2.5B, full</a> <a href="../result/a.html">NT 2.5B</a></p>')
    assert shared_texts(page) == {"NT 2.5B": ["../result/a.html", "../result/b.html"]}
    told = distinct_link_texts(page, lambda href: f"result {href[10]}")
    assert shared_texts(told) == {}
    assert told.count('<span class="vh"> (result a)</span></a>') == 2  # the same place, the same words
    assert '2.5B</b><span class="vh"> (result b)</span></a>' in told
    assert '>NT 2.5B, full</a>' in told  # a text of one place is left as it is


def test_two_records_that_read_alike_are_told_apart_by_their_address() -> None:
    page = '<a href="one.html">Release 1</a> · <a href="two.html">Release 1</a> · <a href="#n">note</a>'
    told = distinct_link_texts(page, lambda href: "release 2026-01-01")
    assert shared_texts(told) == {}
    assert '(release 2026-01-01) (one.html)</span></a>' in told and "(two.html)" in told


def test_a_page_whose_texts_each_lead_to_one_place_is_written_as_it_is() -> None:
    page = '<a href="a.html">A</a> <a href="a.html">A</a> <a class="tag" href="#x">B &amp; C</a>'
    assert distinct_link_texts(page, never) is page  # nothing described, nothing copied


def never(href: str) -> str:
    raise AssertionError(f"{href} described, though no text of the page leads to two places")
