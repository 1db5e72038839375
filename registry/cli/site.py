"""Publishing the registry as pages and pictures: 'registry site build' and 'registry plot'.

Jinja2 is imported by the site build only, matplotlib by the plots; neither is imported by the
everyday commands. ('registry export' lives in ``registry.cli.export``.)
"""

from __future__ import annotations

from pathlib import Path

import typer

from registry.cli._errors import user_errors
from registry.cli.options import CommandGroup, DebugOption, RecordsOption
from registry.cli.output import console
from registry.errors import RegistryError
from registry.store.outputs import stopped_by_signals


def site_build_command(
    out: Path = typer.Option(
        Path("site"), "--out", "-o", file_okay=False,
        help="Folder to write the site into (default site/); replaced only once the new site is complete, and "
        "only if it is empty or a site an earlier build wrote (any other folder is left untouched).",
    ),
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Validate the records, then build them as a static site that opens from file:// with no server.

    One page per record (a result, configuration, source and model family laid out as their pages
    read), an index of results with facets and a search box, a page per release with its content
    hash, and the plot of each protocol's results beside our own runs. Every page links to its
    record file and its JSON. The same records give the same files, byte for byte.
    """
    from registry.cli.core import load_valid

    with user_errors(debug), stopped_by_signals():
        from registry.site.build import build_site

        registry = load_valid(records)
        summary = build_site(registry, out, progress=lambda step: console.print(f"[dim]{step}…[/]"))
        console.print(f"Built {summary.target}/: {summary.pages} pages, {summary.files} files, {summary.plots} "
                      f"plot(s) ({summary.seconds:.1f} s); open {summary.target}/index.html")


def plot_command(
    record_id: str = typer.Argument(..., metavar="ID",
                                    help="A protocol, or a result or evaluation (plots its protocol's results)."),
    out: Path = typer.Option(..., "--out", "-o", dir_okay=False, help="File to write: FILE.svg or FILE.png."),
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Plot one group of results: the transcribed values beside our measured and estimated ones.

    A group is every result under one protocol (for the seed paper, Figure 3's stages); each
    result's row shows its transcribed value and, apart from it, our runs with the spread of
    the knob sweep. The values are printed as a table too. A group of more than 25 rows is
    written in parts of at most 25 rows: FILE-1.png, FILE-2.png, ...
    """
    from registry.cli.core import load_valid

    with user_errors(debug):
        if out.suffix.lower() not in (".svg", ".png"):
            raise RegistryError(f"cannot write a plot as {out.name!r}", "name the file .svg or .png")
        if out.suffix.lower() == ".png":
            _needs("matplotlib", "site")
        from registry.page.show import render_block
        from registry.site.plot import ROWS_PER_PART, groups_of, protocol_of, values_table
        from registry.site.plot_write import write_plot

        registry = load_valid(records)
        protocol_id = protocol_of(registry, registry.get(record_id.strip()))
        groups = groups_of(registry).get(protocol_id)
        if not groups:
            raise RegistryError(f"no current result is evaluated under the protocol {protocol_id!r}, so there is "
                                "nothing to plot", "give the id of a protocol that has results, or one of its results")
        written = write_plot(groups, out)
        for group in groups:
            console.print(render_block(values_table(group)))
        if len(written) == 1:
            console.print(f"Wrote {out}")
        else:
            console.print(f"Wrote {len(written)} parts of at most {ROWS_PER_PART} rows each: "
                          + ", ".join(str(path) for path in written))


def _needs(module: str, extra: str) -> None:
    """Say which extra to install when an optional library is missing, instead of an ImportError."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise RegistryError(f"this command needs {module}, which is not installed",
                            f"install it with: pip install 'registry[{extra}]'")


def register(app: typer.Typer) -> None:
    site_app = typer.Typer(name="site", cls=CommandGroup, help="Publish the registry as a static site.",
                           no_args_is_help=True)
    site_app.command("build")(site_build_command)
    app.add_typer(site_app, name="site")
    app.command("plot")(plot_command)
