"""``registry reproduce``: re-run the experiment behind a result and file what it gave beside the transcribed value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from registry.cli._errors import err_console, user_errors
from registry.cli.options import DebugOption, RecordsOption
from registry.cli.output import console
from registry.errors import RegistryError


def reproduce_command(
    result_id: str = typer.Argument(..., metavar="ID", help="Stable id of the result to reproduce."),
    estimate: bool = typer.Option(
        False, "--estimate", help="Estimate on the CPU (fake tensors, PyTorch's memory tracker) instead of measuring."
    ),
    smoke: bool = typer.Option(
        False, "--smoke", help="Run the whole path on a tiny model in seconds; files nothing."
    ),
    setting: list[str] = typer.Option(
        [], "--setting", "-s", metavar="KNOB=VALUE",
        help="Run only this value of a knob (repeat for several values or knobs), e.g. precision=pure-bf16.",
    ),
    limit: int | None = typer.Option(None, "--limit", "-n", min=1, help="Run only the first N settings."),
    plan_only: bool = typer.Option(False, "--plan", help="List the settings in the order they would run; run nothing."),
    no_write: bool = typer.Option(False, "--no-write", help="Run and show, but write no record."),
    steps: int = typer.Option(2, "--steps", min=1, help="Measured steps after the warm-up step (GPU only)."),
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Re-run the experiment behind a result, one setting of its recipe's knobs at a time.

    On a machine with a CUDA GPU the peak is measured; --estimate predicts it on the CPU.
    Each setting's reproduction record is written as soon as it finishes, to
    <records>/reproduction/; the transcribed result is never changed. Settings run most
    plausible first; --setting and --limit narrow the sweep.
    """
    from registry import reproduce as rp
    from registry.cli.core import load_valid
    from registry.models.reproduction import ReproductionMethod

    with user_errors(debug):
        registry = load_valid(records)
        overrides = rp.parse_overrides(setting)
        method = ReproductionMethod.ESTIMATED if estimate else ReproductionMethod.MEASURED
        if not estimate and not plan_only and not _cuda():
            if not smoke:
                raise RegistryError(
                    "no CUDA GPU is visible here, and a measurement needs one",
                    "add --estimate for the CPU estimate, or run on a GPU machine (see measure/README.md)",
                )
            method = ReproductionMethod.ESTIMATED
            err_console.print("No CUDA GPU here: the smoke run estimates on the CPU instead.")
        the_plan = rp.plan(registry, result_id, method=method, overrides=overrides, smoke=smoke,
                           limit=1 if smoke and limit is None else limit)
        if plan_only:
            _print_plan(the_plan)
            return
        rp.check_requirements(the_plan.jobs, method)
        command = rp.command_line(the_plan.result.id, estimate=estimate, smoke=smoke, overrides=overrides,
                                  limit=limit,
                                  steps=None if estimate or steps == 2 else steps, records=records)
        write_root = None if (smoke or no_write) else records
        filed = _run_with_progress(the_plan, rp.RunEnvironment.collect(command), write_root, steps)
        console.print(results_table(the_plan, filed))
        _print_footer(the_plan, filed, write_root)
        if filed and not any(entry.outcome.ok for entry in filed):
            raise typer.Exit(1)


def _cuda() -> bool:
    from measure.env import cuda_available

    return cuda_available()


def _run_with_progress(the_plan: Any, env: Any, write_root: Path | None, steps: int) -> list[Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from registry import reproduce as rp

    verb = "Estimating" if the_plan.method.value == "estimated" else "Measuring"
    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=err_console, transient=False) as progress:
        task = progress.add_task(f"{verb} {len(the_plan.jobs)} setting(s)", total=len(the_plan.jobs))

        def on_start(index: int, job: Any) -> None:
            progress.update(task, description=f"{verb} {job.setting.model}: {job.setting.label()}")

        def on_done(index: int, entry: Any) -> None:
            progress.advance(task)
            progress.console.print(_done_line(entry), soft_wrap=True)

        return rp.reproduce(the_plan.jobs, the_plan.method, env, write_root=write_root, steps=steps,
                            on_start=on_start, on_done=on_done)


def _done_line(entry: Any) -> str:
    from rich.markup import escape

    outcome = entry.outcome
    if outcome.ok and outcome.peak_bytes is not None:
        head = f"[green]done[/] {outcome.peak_bytes / 1e9:.2f} GB ({outcome.peak_bytes / 2**30:.2f} GiB)"
    else:
        head = f"[red]{outcome.status.value}[/] {escape(outcome.error or '')}"
    where = f" -> {escape(str(entry.path))}" if entry.path else ""
    return f"{head} in {outcome.duration_s:.0f} s: {escape(outcome.setting.label())}{where}"


def results_table(the_plan: Any, filed: list[Any]) -> Any:
    """Transcribed value, then each setting's reproduced or estimated value, its difference and ratio.

    Knobs with one value across the rows go in the caption; each row names the ones that vary.
    """
    from rich import box
    from rich.table import Table

    from registry import display as d
    from registry.units import bytes_in_unit, gib

    result = the_plan.result
    unit = d.unit_symbol(result.unit)
    kind = "estimated" if the_plan.method.value == "estimated" else "measured"
    knobs = [entry.outcome.setting.knobs() for entry in filed]
    varying, same = d.split_knobs(knobs)
    model = filed[0].outcome.setting.model if filed else ""
    caption = f"Model {model}" + (f"; in every row: {', '.join(same)}" if same else "")
    if the_plan.smoke:
        caption += f"; a smoke run of a tiny model, not comparable with the transcribed {result.printed_value} {unit}"
    table = Table(title=f"{d.metric_label(result.metric)}: transcribed {result.printed_value} {unit} beside our "
                        f"{kind} values", caption=caption, box=box.SIMPLE_HEAD, show_lines=len(varying) > 1)
    table.add_column("Setting", overflow="fold", min_width=32)
    table.add_column(f"{'Est.' if kind == 'estimated' else 'Meas.'} {unit}", justify="right")
    table.add_column("GiB", justify="right")
    table.add_column(f"Diff. {unit}", justify="right")
    table.add_column("Ratio", justify="right")
    table.add_column("Outcome", overflow="fold")
    table.add_row("transcribed (as printed)", result.printed_value, "", "", "", "", style="cyan")
    for entry, row in zip(filed, knobs, strict=True):
        outcome, comparison = entry.outcome, entry.comparison
        ok = outcome.ok and outcome.peak_bytes is not None
        table.add_row(
            "\n".join(f"{n}={d.knob_text(row[n])}" for n in varying if n in row) or "-",
            f"{bytes_in_unit(outcome.peak_bytes, result.unit):.2f}" if ok else "-",
            f"{gib(outcome.peak_bytes):.2f}" if ok else "-",
            f"{comparison.difference:+.2f}" if comparison else "-",
            f"×{comparison.ratio:.3f}" if comparison else "-",
            "ok" if ok else f"{outcome.status.value}: {outcome.error}",
        )
    return table


def _print_plan(the_plan: Any) -> None:
    console.print(f"Result: {the_plan.result.id} (transcribed {the_plan.result.printed_value})", soft_wrap=True)
    console.print(f"Recipe: {the_plan.recipe.id}", soft_wrap=True)
    for index, job in enumerate(the_plan.jobs, start=1):
        console.print(f"{index:3d}. {job.setting.model} {job.setting.stage.value}: {job.setting.label()}",
                      soft_wrap=True)


def _print_footer(the_plan: Any, filed: list[Any], write_root: Path | None) -> None:
    ok = [entry for entry in filed if entry.comparison is not None]
    if the_plan.smoke:
        console.print(f"Smoke run on {the_plan.jobs[0].setting.model if the_plan.jobs else 'no model'}: the plumbing "
                      "works; its values are not comparable with the transcribed one, and nothing was filed.")
    elif ok:
        best = min(ok, key=lambda entry: abs(entry.comparison.difference))
        from registry.units import symbol

        unit = symbol(the_plan.result.unit)
        console.print(f"Nearest: {best.outcome.setting.label()} at {best.comparison.reproduced} {unit} "
                      f"({best.comparison.difference:+} {unit} against the transcribed {best.comparison.transcribed} "
                      f"{unit}, ×{best.comparison.ratio}).", soft_wrap=True)
    written = [entry.path for entry in filed if entry.path is not None]
    if written:
        console.print(f"Wrote {len(written)} reproduction record(s) to {write_root}/reproduction/; "
                      "check them with 'registry validate'.")
    elif not the_plan.smoke:
        console.print("No record was written (--no-write).")


def register(app: typer.Typer) -> None:
    app.command("reproduce")(reproduce_command)
