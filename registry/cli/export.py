"""'registry export': the registry in the formats other registries read."""

from __future__ import annotations

from pathlib import Path

import typer

from registry.cli._errors import user_errors
from registry.cli.options import DebugOption, RecordsOption
from registry.cli.output import console
from registry.export import FORMATS
from registry.store.outputs import stopped_by_signals

FORMATS_HELP = "One of: " + "; ".join(f"{each.name} ({each.description})" for each in FORMATS.values())


def export_command(
    format: str = typer.Option(..., "--format", "-f", metavar="FORMAT", help=FORMATS_HELP),
    out: Path = typer.Option(..., "--out", "-o", file_okay=False,
                             help="Folder to write into; replaced only once complete, and only if it is empty or an "
                                  "earlier export."),
    hub_ids: Path | None = typer.Option(None, "--hub-ids", dir_okay=False, exists=True,
                                        help="hf only: YAML mapping configuration or family ids to Hub models "
                                             "('models:') and dataset or protocol ids to Hub benchmarks "
                                             "('benchmarks:', each {id, task_id, metric}: the benchmark task that "
                                             "scores that registry metric)."),
    base_url: str | None = typer.Option(None, "--base-url", metavar="URL",
                                        help="csv and prov: where the site is published (https://.../); csv's "
                                             "page_url and prov's identifiers link to each record's page there."),
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Validate the records, then export them in FORMAT to the folder --out.

    Each export lists in registry-export.json the files it wrote and what the format could not
    carry (for hf, every result it could not export and why).
    """
    from registry.cli.core import load_valid

    with user_errors(debug), stopped_by_signals():
        from registry.errors import RegistryError
        from registry.export import export

        if hub_ids is not None and format != "hf":
            raise RegistryError(f"--hub-ids maps records to Hugging Face Hub ids, which only the hf export uses, "
                                f"not {format}", "leave out --hub-ids, or use --format hf")

        from registry.site.links import checked_base_url

        site = checked_base_url(base_url) if base_url is not None else None
        registry = load_valid(records)
        written = export(registry, format, out, hub_ids=hub_ids, base_url=site)
        left = [item for item in written.not_carried if item.get("exported") is False]
        console.print(f"Wrote {len(written.files)} file(s) to {out}/ as {format}"
                      + (f"; {len(left)} result(s) could not be exported (see {out}/registry-export.json)"
                         if left else ""))


def register(app: typer.Typer) -> None:
    app.command("export")(export_command)
