"""Build the registry as a static site: a page per record, an index of results, the releases.

The site opens from ``file://`` with no server and asks no other host for anything: styles and
the one script are files beside the pages, the plots are inline SVG, and pages read whole with
scripts off (the script only narrows the index). URLs come from the stable ids
(``<kind>/<id>.html``), and beside each page lie its record's JSON (``<kind>/<id>.json``) and a
copy of its record file (``records/...``). The site is written to a hidden folder beside the
target and renamed into place only when complete; nothing in it depends on the time or the
machine, so the same records give the same files, byte for byte.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from registry.errors import RegistryError
from registry.models import KIND_MODELS, Evaluation, Release, Result
from registry.page.blocks import Column, Fields, Paragraph, Piece, Section, Style, Table, plain
from registry.page.display import kind_label, link_words, record_tag
from registry.page.findings import finding_row
from registry.page.history import earlier_versions
from registry.page.kinds import build_page
from registry.site.extras import Site, plot_section, site_page
from registry.site.html import Frame, Links, backing_section, index_rows_html, render, render_blocks
from registry.site.index import COLUMNS, facets_of, index_rows
from registry.site.link_texts import distinct_link_texts
from registry.site.links import page_path
from registry.status.provenance import status_label
from registry.status.versions import current_only, not_current
from registry.store.atomic import discard, new_folder_beside, replace_folder
from registry.store.collector import gc_paused
from registry.store.loader import Registry
from registry.store.outputs import in_forked_workers, prepare_output
from registry.store.release import content_digest, hash_prefix, release_name, same_content

SITE_NAME = "Evidence registry"
GENERATOR = '<meta name="generator" content="registry site build">'
RELEASES_PAGE = "release/index.html"
ASSETS = ("site.css", "site.js")


@dataclass(frozen=True)
class SiteSummary:
    target: str
    pages: int
    files: int
    plots: int
    seconds: float


def build_site(registry: Registry, out: Path, *, progress: Callable[[str], None] | None = None) -> SiteSummary:
    """Write the whole site for ``registry`` to the folder ``out``, replacing an earlier build there."""
    started = time.perf_counter()
    prepare_output(out, registry.root, folder=True)
    ensure_replaceable(out)
    with gc_paused():  # pages are many short-lived objects without cycles: rescanning the heap for them costs a
        site = _site(registry, progress)  # quarter of the build at 10,000 results
    try:
        tmp = new_folder_beside(out)
    except OSError as exc:
        raise RegistryError(f"cannot write the site next to {str(out)!r}: {exc.strerror}",
                            "choose a writable folder for {out}") from exc
    try:
        with gc_paused():  # in the forked writers too, which inherit it
            files = _write_all(site, tmp, progress)
        replace_folder(tmp, out)
    except OSError as exc:
        raise RegistryError(f"cannot write the site {str(out)!r}: {exc.strerror or exc}; the previous site, if "
                            "any, is untouched", "check the free disk space and that the folder is writable") from exc
    finally:
        discard(tmp)
    return SiteSummary(str(out), len(registry.records) + 2, files, len(site.svgs), time.perf_counter() - started)


def ensure_replaceable(out: Path) -> None:
    """Refuse to replace anything but an empty folder or a site an earlier build wrote ('--out ~' must not)."""
    if not out.exists():
        return
    if not out.is_dir():
        raise RegistryError(f"{str(out)!r} is a file, not a folder; it was left untouched",
                            "give {out} a folder for the site, for example site")
    if not any(out.iterdir()):
        return
    index = out / "index.html"
    try:
        head = index.read_text(encoding="utf-8", errors="replace")[:2000] if index.is_file() else ""
    except OSError:
        head = ""
    if GENERATOR not in head:
        raise RegistryError(
            f"{str(out)!r} already holds files and is not a site that 'registry site build' wrote; it was left "
            "untouched",
            "choose another folder for {out} (for example site), or move that folder away first",
        )


def _site(registry: Registry, progress: Callable[[str], None] | None) -> Site:
    from registry.site.plot import groups_of
    from registry.site.plot_svg import inline_svg

    groups = groups_of(registry)
    if progress:
        progress(f"drawing {len(groups)} plot(s)")
    svgs = {protocol_id: inline_svg(panels) for protocol_id, panels in groups.items()}
    digest = content_digest(registry)
    try:
        name = release_name(registry, digest)
    except RegistryError:  # no record holds a date: the content still has a hash
        name = f"undated-{digest[:12]}"
    return Site(registry, groups, svgs, name, digest)


def _write_all(site: Site, root: Path, progress: Callable[[str], None] | None) -> int:
    registry = site.registry
    urls = {record_id: page_path(record.kind_token, record_id) for record_id, record in registry.records.items()}
    urls["release-index"] = RELEASES_PAGE
    common = {"urls": urls, "site_name": SITE_NAME,
              "release": {"name": site.release_name, "sha256": site.release_sha256}}
    # A folder per kind that has records (no empty ones), and the releases page's, which every site has.
    for kind in sorted({record.kind_token for record in registry.records.values()} | {Path(RELEASES_PAGE).parent.name}):
        (root / kind).mkdir()
    (root / "assets").mkdir()
    for name in ASSETS:
        _put(root / "assets" / name, resources.files("registry.site").joinpath("assets", name).read_bytes())

    # The index and the releases page first: what they work out (each result's status, tag, runs) is then
    # known to the page writers forked after them, rather than worked out again in each.
    rows = index_rows(registry)
    current = current_only(registry, registry.of_kind(Result))
    sources = len({result.source for result in current})
    earlier = render_blocks(earlier_versions(registry, not_current(registry, registry.of_kind(Result))),
                            Links("", urls))
    rows_html = index_rows_html(rows, tuple(header for _, header in COLUMNS), Links("", urls))
    index = render("index.html.j2", title="Results", root="", results=rows, rows_html=rows_html,
                   facets=facets_of(rows), columns=COLUMNS, sources=sources, earlier=earlier, **common)
    _put(root / "index.html", distinct_link_texts(index, _describer(registry, urls, "")).encode("utf-8"))
    body = render_blocks(_releases_blocks(site), Links("../", urls))
    releases = render("releases.html.j2", title="Releases", root="../", body=body, **common)
    _put(root / RELEASES_PAGE, distinct_link_texts(releases, _describer(registry, urls, "../")).encode("utf-8"))
    _work_out_shared(site, Links("../", urls))

    ids = sorted(registry.records)
    if progress:
        progress(f"writing {len(ids)} record pages")
    copies = _record_copies(registry)
    for folder in sorted({str(Path(copy).parent) for copy in copies.values()}):
        (root / folder).mkdir(parents=True, exist_ok=True)
    _in_workers(lambda share: _write_records(site, root, ids[share::WORKERS[0]], copies, common))
    return len(ASSETS) + 3 * len(ids) + 2


def _work_out_shared(site: Site, links: Links) -> None:
    """What the pages of many records ask, worked out here once before the page writers fork (each inherits the
    answers): every transcribed record's tag and review status, named on the pages that link it; each current
    result's row of the findings tables, on the pages of its configuration, dataset, protocol and family; and
    each protocol's plot section with its HTML, on the protocol's page and on each of its results' pages."""
    registry = site.registry
    for record_id, record in registry.records.items():
        if type(record).transcribed:
            record_tag(registry, record)
            status_label(registry, record_id)
    for evaluation in registry.of_kind(Evaluation):
        for result in current_only(registry, registry.referrers(evaluation.id, Result, "evaluation")):
            finding_row(registry, evaluation, result)
    for protocol_id in site.svgs:
        for for_result in (True, False):
            render_blocks((plot_section(site, protocol_id, for_result),), links)


#: What changes from one record page to the next; the rest of its template is rendered once (``Frame``).
RECORD_SLOTS = ("title", "kind_label", "record_file", "json_file", "body", "backing")


def _write_records(site: Site, root: Path, ids: list[str], copies: dict[str, str], common: dict[str, Any]) -> None:
    """Each record's page, its JSON and a copy of its file."""
    registry = site.registry
    frame = Frame("record.html.j2", RECORD_SLOTS, root="../", **common)
    base = f"{root}{os.sep}"  # paths as text: 90,000 files at 10,000 results, each joined once
    describe = _describer(registry, common["urls"], "../")
    for record_id in ids:
        record = registry.records[record_id]
        kind = record.kind_token
        page = site_page(build_page(record, registry), record, site)
        links = Links("../", common["urls"], {})
        body = render_blocks(page.blocks, links)
        html = frame.fill(title=page.title, kind_label=kind_label(record), record_file=copies[record_id],
                          json_file=f"{kind}/{record_id}.json", body=body, backing=backing_section(links))
        html = distinct_link_texts(html, describe)
        _put(f"{base}{page_path(kind, record_id)}", html.encode("utf-8"))
        _put(f"{base}{kind}/{record_id}.json", record.model_dump_json(exclude_none=True).encode("utf-8") + b"\n")
        _put(f"{base}{copies[record_id]}", _read(registry.paths[record_id]))


#: What the site's pages that are no record's are, as a link to them reads.
PLACES = {"index.html": "the index of results", RELEASES_PAGE: "the releases page"}


def _describer(registry: Registry, urls: dict[str, str], root: str) -> Callable[[str], str]:
    """What a link from a page at ``root`` opens, from its address: a record's kind and name ('result: 0.953
    Accuracy ... Table 1'), one of the site's own pages, or else the address itself (a DOI, a note on the page)."""
    records = {path: record_id for record_id, path in urls.items() if record_id in registry.records}

    def describe(href: str) -> str:
        path = href.removeprefix(root)
        if path in records:
            return link_words(registry, registry.records[records[path]])
        return PLACES.get(path, href)

    return describe


def _record_copies(registry: Registry) -> dict[str, str]:
    """Where each record file's copy goes in the site: 'records/' and its path below the records folder."""
    copies = {}
    root = registry.root.parts
    for record_id, path in registry.paths.items():
        parts = path.parts
        # below the root as both are written (most files): the path's own parts, without relpath's walk
        if len(parts) > len(root) and parts[:len(root)] == root and ".." not in parts[len(root):]:
            relative = os.path.join(*parts[len(root):])
        else:
            relative = os.path.relpath(path, registry.root)
        if relative.startswith(".."):  # not below the records folder (a link): filed by kind
            relative = os.path.join(registry.records[record_id].kind_token, path.name)
        copies[record_id] = "records/" + relative.replace(os.sep, "/")
    return copies


#: How many processes write the record pages (forked where the platform can; one elsewhere): two per
#: processor, as each waits on the file system about as long as it computes.
WORKERS = [max(1, min(8, 2 * (os.cpu_count() or 1)))]


def _in_workers(job: Callable[[int], None]) -> None:
    """Run ``job(share)`` for each share in its own forked process; the files they write do not overlap.

    Forked children see the registry as it is, without a copy or a pickle. Where fork is not
    available (or one worker is asked for), the shares run here, one after the other.
    """
    count = WORKERS[0]
    if count == 1 or not hasattr(os, "fork"):
        for share in range(count):
            job(share)
        return
    failed = in_forked_workers(job, count)  # workers stopped if this process is interrupted
    if failed:
        raise RegistryError(f"{len(failed)} of {count} page writers failed; the previous site, if any, is untouched",
                            "run again with {debug} for the details, and report it")


def _read(path: Path) -> bytes:
    """A record file's bytes, in one read of its size (the copy in the site is the same bytes)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = [os.read(fd, os.fstat(fd).st_size + 1)]
        while chunks[-1]:
            chunks.append(os.read(fd, 1 << 16))
    finally:
        os.close(fd)
    return b"".join(chunks)


def _put(path: Path | str, data: bytes) -> None:
    """Write a new file in the (new, private) site folder: no temporary name needed inside it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _releases_blocks(site: Site) -> tuple[Section, ...]:
    registry = site.registry
    counts = {kind: 0 for kind in KIND_MODELS}
    for record in registry.records.values():
        if not isinstance(record, Release):  # the hash leaves release records out, and so does this count
            counts[record.kind_token] += 1
    releases = registry.of_kind(Release)
    current = Section("Current content", (
        Fields((
            ("Name", plain(site.release_name)),
            ("Content hash", plain(site.release_sha256)),
            ("How it is made", plain("The latest date any record holds, and the first 12 hex digits of the SHA-256 "
                                     "of every record's canonical JSON sorted by id (release records left out): "
                                     "two people with the same records get the same name.")),
        )),
        Table((Column("Kind"), Column("Records", right=True)),
              tuple((plain(kind), plain(str(count))) for kind, count in counts.items() if count),
              title="Records in this content"),
        *((Paragraph(plain(f"Not counted: {len(releases)} release record(s), which the hash leaves out."),
                     Style.NOTE),) if releases else ()),
    ))
    rows = tuple(
        ((Piece(release.name, link=release.id),), plain(release.date.isoformat()), plain(hash_prefix(release)),
         plain(str(len(release.members))), plain("yes" if same_content(release, site.release_sha256) else "no"))
        for release in releases
    )
    recorded = Section("Recorded releases", (
        Table((Column("Release"), Column("Date"), Column("Content hash prefix"), Column("Members", right=True),
               Column("Same content as now")), rows, title=f"{len(releases)} recorded release(s)")
        if releases else Paragraph(plain("No release has been recorded yet."), Style.NOTE),
    ))
    return current, recorded
