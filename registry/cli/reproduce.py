"""``registry reproduce``: re-run the experiment behind a result (or the whole ablation) and file what it gave."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from registry.cli._errors import err_console, user_errors
from registry.cli.options import DebugOption, RecordsOption
from registry.cli.output import console
from registry.errors import RegistryError

if TYPE_CHECKING:
    from measure.settings import KnobValue


#: The options of 'registry reproduce', declared apart so that the command reads as what it does.
_RESULT_ID = typer.Argument(
    None, metavar="ID", help="Stable id of the result to reproduce (or --all for every recipe)."
)
_WHOLE_ABLATION = typer.Option(
    False, "--all", help="Run every recipe of the registry and the stages no source reports, most informative "
    "settings first (the whole ablation in one process)."
)
_ESTIMATE = typer.Option(
    False, "--estimate", help="Estimate on the CPU (fake tensors, PyTorch's memory tracker) instead of measuring."
)
_SMOKE = typer.Option(
    False, "--smoke", help="Run the whole path on a tiny model and a small batch in seconds; files nothing. "
    "Without a GPU the training steps run on the CPU, which measures nothing."
)
_SETTING = typer.Option(
    [], "--setting", "-s", metavar="KNOB=VALUE",
    help="Run only this value of a knob (repeat for several values or knobs), e.g. precision=pure-bf16.",
)
_LIMIT = typer.Option(None, "--limit", "-n", min=1, help="Run only the first N settings.")
_PLAN_ONLY = typer.Option(False, "--plan", help="List the settings in the order they would run; run nothing.")
_NO_WRITE = typer.Option(False, "--no-write", help="Run and show, but write no record.")
_STEPS = typer.Option(None, "--steps", min=1, help="Measured steps after the warm-up step "
                      "(default 2; not with --estimate, which traces one step).")
_DEADLINE = typer.Option(
    None, "--deadline", min=1, metavar="SECONDS", help="End by this many seconds after the start: no setting "
    "starts with less than a minute left, and a running one gets at most the time left."
)
_SETTING_TIMEOUT = typer.Option(
    None, "--setting-timeout", min=1, metavar="SECONDS",
    help="Abandon a setting that runs longer than this; its outcome is then an error.",
)
_OUT = typer.Option(
    None, "--out", metavar="DIR", file_okay=False, help="Also keep DIR/ablation.jsonl (a line per finished "
    "setting, filed or not) and DIR/reproductions.tar.gz (the records written and the logs), rewritten after "
    "each setting."
)
_REDO = typer.Option(
    False, "--redo", help="Also measure settings an earlier GPU run settled (a value or out of memory, in the "
    "records or the logs under --runs), and estimate again what an estimate at this commit with the same "
    "software settled; they are skipped otherwise."
)
_RUNS = typer.Option(
    Path("measure/runs"), "--runs", metavar="DIR", file_okay=False,
    help="Kept logs of earlier GPU runs, for the skipping --redo turns off.",
)
_DRY_RUN = typer.Option(
    False, "--dry-run", hidden=True,
    help="Not an option here: the message says which of --plan, --no-write and --smoke to give instead.",
)


def reproduce_command(
    result_id: str | None = _RESULT_ID,
    whole_ablation: bool = _WHOLE_ABLATION,
    estimate: bool = _ESTIMATE,
    smoke: bool = _SMOKE,
    setting: list[str] = _SETTING,
    limit: int | None = _LIMIT,
    plan_only: bool = _PLAN_ONLY,
    no_write: bool = _NO_WRITE,
    steps: int | None = _STEPS,
    deadline: float | None = _DEADLINE,
    setting_timeout: int | None = _SETTING_TIMEOUT,
    out: Path | None = _OUT,
    redo: bool = _REDO,
    runs: Path = _RUNS,
    dry_run: bool = _DRY_RUN,
    records: Path = RecordsOption,
    debug: bool = DebugOption,
) -> None:
    """Re-run the experiment behind a result, one setting of its recipe's knobs at a time.

    On a machine with a CUDA GPU the peak is measured; --estimate predicts it on the CPU.
    Each setting's reproduction record is written as soon as it finishes, to
    <records>/reproduction/; the transcribed result is never changed. Settings run most
    plausible first; --setting and --limit narrow the sweep. --all runs the whole ablation
    (see measure/README.md), with --deadline, --setting-timeout and --out for a GPU lease.
    """
    from measure.outcome import Method
    from measure.schedule import Deadline
    from registry.reproduce import plan as rp
    from registry.reproduce.types import RunEnvironment

    clock = Deadline(deadline)
    with user_errors(debug):
        _refuse_conflicting(result_id, whole_ablation=whole_ablation, estimate=estimate, steps=steps, dry_run=dry_run)
        registry = _load(records, lenient=whole_ablation)
        overrides = rp.parse_overrides(setting)
        method = Method.ESTIMATED if estimate else Method.MEASURED
        request = rp.Request(result_id, method, overrides, limit=limit, smoke=smoke, redo=redo, plan_only=plan_only)
        device = _usable(rp.device_for(request, _cuda))
        gpu = _measuring_gpu(device, method, plan_only)
        command = command_line(result_id, whole_ablation=whole_ablation, estimate=estimate, smoke=smoke,
                               overrides=overrides, limit=limit, steps=steps, records=records)
        early = RunEnvironment.collect(command) if rp.environment_first(request) else None
        skip = rp.skip_for(registry, request, runs=runs, gpu=gpu, env=early)
        the_plan = rp.plan_request(registry, request, skip=skip)
        _print_skipped(the_plan, early, gpu)
        if plan_only:
            _print_plan(the_plan)
            return
        if not the_plan.jobs:
            console.print("Nothing to run.")
            return
        rp.check_requirements(the_plan.jobs, method)
        env = early or RunEnvironment.collect(command)
        log = _run_log(out, records)
        if whole_ablation:
            _announce(the_plan, env, _device_name(device, method))
        _run_plan(the_plan, env, write_root=None if (smoke or no_write) else records, steps=steps, device=device,
                  deadline=clock, setting_timeout=setting_timeout, log=log)


def _measuring_gpu(device: str, method: Any, plan_only: bool) -> str | None:
    """The GPU a measurement runs on (None: no measurement on a GPU); a plan does not load torch to ask, and counts
    what any GPU settled."""
    from measure.outcome import Method

    return _device_name(device, method) if method is Method.MEASURED and device == "cuda" and not plan_only else None


def _announce(the_plan: Any, env: Any, device_name: str) -> None:
    """What a whole ablation runs on: the settings, the device, the commit and the software."""
    err_console.print(f"{len(the_plan.jobs)} setting(s) on {device_name}; commit {env.git_commit}; software: "
                      f"{_versions(env.software)}", soft_wrap=True)


def _run_plan(the_plan: Any, env: Any, *, write_root: Path | None, steps: int | None, device: str, deadline: Any,
              setting_timeout: int | None, log: Any) -> None:
    """Run the planned settings (``steps`` training steps each; default: as measured), printing progress, then their
    tables and the footer; exit status 1 where no setting finished or a record could not be written."""
    from registry.reproduce.run import MEASURED_STEPS

    finished: list[Any] = []
    with _stopped_by_signals(lambda name: _print_interrupted(the_plan, finished, log, name)):
        run = _run_with_progress(the_plan, env, write_root=write_root, steps=steps or MEASURED_STEPS, device=device,
                                 deadline=deadline, setting_timeout=setting_timeout, log=log, finished=finished)
    _print_tables(the_plan, run.filed)
    _print_footer(the_plan, run, write_root, log)
    failed = [entry for entry in run.filed if entry.write_error]
    if (run.filed and not any(entry.outcome.finished for entry in run.filed)) or failed:
        raise typer.Exit(1)


def _refuse_conflicting(result_id: str | None, *, whole_ablation: bool, estimate: bool, steps: int | None,
                        dry_run: bool) -> None:
    """Options that contradict each other, refused before anything loads."""
    if dry_run:  # the writing commands' --dry-run, and the guides' "dry run", make users type it here
        raise RegistryError(
            "registry reproduce has no --dry-run: give --plan, --no-write or --smoke instead",
            "--plan lists the settings in the order they would run; --no-write runs them and writes no record; "
            "--smoke runs the whole path on a tiny model in seconds and files nothing (without a GPU its "
            "training steps run on the CPU: the dry run that measure/README.md means)",
        )
    if estimate and steps is not None:
        raise RegistryError("--steps does not apply to --estimate: an estimate traces one training step on fake "
                            "tensors, whatever --steps says", "leave out --steps, or measure on a GPU without "
                            "--estimate")
    if (result_id is None) is not whole_ablation:
        raise RegistryError("give the id of one result, or --all for every recipe" if result_id is None else
                            f"give either a result's id ({result_id}) or --all, not both",
                            "'registry list --kind result' lists the results; those with a recipe can be "
                            "reproduced")


def _usable(device: str | None) -> str:
    """The device the jobs run on; none (a measurement without a GPU) is refused, and a CPU smoke run said so."""
    if device is None:
        raise RegistryError(
            "no CUDA GPU is visible here, and a measurement needs one",
            "add --estimate for the CPU estimate, add --smoke to run the training steps on the CPU "
            "(nothing measured), or run on a GPU machine (see measure/README.md)",
        )
    if device == "cpu":
        err_console.print("No CUDA GPU here: the smoke run runs its training steps on the CPU, which measures "
                          "nothing.")
    return device


def _print_skipped(the_plan: Any, early: Any, gpu: str | None) -> None:
    """How many settings an earlier run settled, and why they are skipped."""
    if the_plan.skipped and early is not None:
        err_console.print(f"Skipping {the_plan.skipped} setting(s) estimated before at commit "
                          f"{str(early.git_commit)[:12]} with the same software, which would give the same bytes "
                          "(--redo estimates them again).", soft_wrap=True)
    elif the_plan.skipped:
        err_console.print(f"Skipping {the_plan.skipped} setting(s) an earlier run on {gpu or 'a GPU'} settled "
                          "(--redo measures them again).")


def command_line(result_id: str | None, *, whole_ablation: bool = False, estimate: bool, smoke: bool,
                 overrides: Mapping[str, Sequence[KnobValue]], limit: int | None, steps: int | None,
                 records: Path | None) -> str:
    """The command as a user would type it, rebuilt from the options that decide what runs (stable in records).

    Scheduling options (``--deadline``, ``--setting-timeout``, ``--out``, ``--redo``) decide when a
    setting runs, not what it measures, and are left out, and so are ``steps`` where they are the measured default.
    """
    import shlex

    from registry.reproduce.run import MEASURED_STEPS

    parts = ["registry", "reproduce"] + (["--all"] if whole_ablation else [result_id or ""])
    parts += ["--estimate"] if estimate else []
    parts += ["--smoke"] if smoke else []
    for name, values in overrides.items():
        for value in values:
            parts += ["--setting", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
    parts += ["--limit", str(limit)] if limit is not None else []
    parts += ["--steps", str(steps)] if steps not in (None, MEASURED_STEPS) else []
    parts += ["--records", str(records)] if records is not None and str(records) != "records" else []
    return " ".join(shlex.quote(p) for p in parts)


def _load(records: Path, *, lenient: bool):  # type: ignore[no-untyped-def]
    """The registry; a whole-ablation run goes on past errors elsewhere in the tree, with a warning.

    A GPU lease is too scarce to lose to a half-edited record: every record the run writes is
    checked on its own, and 'registry validate' runs again when they come back.
    """
    from registry.cli.core import load_valid
    from registry.validate.runner import validate

    if not lenient:
        return load_valid(records)
    registry, report = validate(records)
    if not report.valid:
        first = report.errors[0]
        err_console.print(f"Warning: the registry under {records} has {len(report.errors)} error(s) (first: "
                          f"{first.location}: {first.message}); continuing with the records that loaded.",
                          soft_wrap=True)
    return registry


def _cuda() -> bool:
    from measure.env import cuda_available

    return cuda_available()


def _run_log(out: Path | None, records: Path) -> Any:
    if out is None:
        return None
    from registry.reproduce.runlog import RunLog

    return RunLog(out, records)


def _device_name(device: str, method: Any) -> str:
    if method.value == "estimated":
        return "the CPU (estimates)"
    if device == "cpu":
        return "the CPU (a dry run: nothing measured)"
    import torch

    return str(torch.cuda.get_device_name(0))


def _versions(software: dict[str, str | None]) -> str:
    return ", ".join(f"{name} {version}" for name, version in software.items() if version)


#: How a signal ends the run; a test replaces it (os._exit would end the test process too).
_exit: Callable[[int], Any] = os._exit


@contextmanager
def _stopped_by_signals(report: Callable[[str], None]) -> Iterator[None]:
    """Ctrl-C or SIGTERM (what 'timeout' and a lease's end send) during the run: say what finished and was
    kept, stop DeepSpeed's background build, and exit at once with 128 + the signal's number.

    At once, from the handler: an exception raised there would have to unwind through torch's C++
    (an autograd hook, the memory tracker), which aborts the process ('terminate called after
    throwing an instance of python_error'). Nothing is lost: each record is whole once written
    (a temporary file renamed into place; a later write removes a stray temporary), the tarball
    likewise, and a half-written log line is passed over when the log is read. Only from the main
    thread, where signal handlers live.
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        from measure.schedule import OpBuild

        report(signal.Signals(signum).name)
        OpBuild.stop_all()
        err_console.show_cursor(True)  # a progress bar in a terminal hides it
        sys.stdout.flush()
        sys.stderr.flush()
        _exit(128 + signum)

    from registry.reproduce.run import deferred

    previous = {number: signal.signal(number, deferred(stop)) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _print_interrupted(the_plan: Any, finished: list[Any], log: Any, signal_name: str) -> None:
    """What an interrupted run kept: the settings that finished, the records written, the log."""
    from rich.markup import escape

    written = [entry.path for entry in finished if entry.path is not None]
    abandoned = "; the setting running then was abandoned" if len(finished) < len(the_plan.jobs) else ""
    err_console.print(f"Stopped by {signal_name} after {len(finished)} of {len(the_plan.jobs)} setting(s)"
                      f"{abandoned}, and nothing half-written was kept.", soft_wrap=True)
    if written:
        err_console.print(f"Kept: {len(written)} reproduction record(s) it wrote, each whole:", soft_wrap=True)
        for path in written:
            err_console.print(f"  {escape(str(path))}", soft_wrap=True)
        err_console.print("Check them with 'registry validate'; running the command again files new runs.",
                          soft_wrap=True)
    elif finished:
        err_console.print("No record was written (nothing that finished is filed: a dry run, --no-write or "
                          "--smoke, or a stage no source reports).", soft_wrap=True)
    if log is not None:
        err_console.print(f"Log of the finished settings: {escape(str(log.log))} (and {escape(str(log.tarball))})",
                          soft_wrap=True)


def _run_with_progress(the_plan: Any, env: Any, *, finished: list[Any], **options: Any) -> Any:
    """``registry.reproduce.run.reproduce`` under a progress bar; each finished entry is also appended to ``finished``
    (so that an interrupted run can say what it kept)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from registry.reproduce.run import reproduce
    from registry.reproduce.types import Hooks

    verb = _verb(the_plan, options["device"])
    show_stage = len(the_plan.stages) > 1
    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=err_console, transient=False) as progress:
        task = progress.add_task(f"{verb} {len(the_plan.jobs)} setting(s)", total=len(the_plan.jobs))

        def start(index: int, job: Any) -> None:
            stage = f" {job.setting.stage.value}" if show_stage else ""
            progress.update(task, description=f"{verb} {job.setting.model}{stage}: {job.setting.label()}")

        def done(index: int, entry: Any) -> None:
            finished.append(entry)
            progress.advance(task)
            progress.console.print(_done_line(entry, show_stage), soft_wrap=True)

        def note(text: str) -> None:
            progress.console.print(text, soft_wrap=True)

        return reproduce(the_plan, env, hooks=Hooks(start=start, done=done, note=note), **options)


def _verb(the_plan: Any, device: str) -> str:
    if the_plan.method.value == "estimated":
        return "Estimating"
    return "Running" if device == "cpu" else "Measuring"


def _done_line(entry: Any, show_stage: bool = False) -> str:
    from rich.markup import escape

    outcome = entry.outcome
    if outcome.ok and outcome.peak_bytes is not None:
        head = f"[green]done[/] {outcome.peak_bytes / 1e9:.2f} GB ({outcome.peak_bytes / 2**30:.2f} GiB)"
    elif outcome.finished:
        head = "[green]done[/] (dry run: nothing measured)"
    else:
        head = f"[red]{outcome.status.value}[/] {escape(outcome.error or '')}"
    stage = f"{outcome.setting.stage.value} " if show_stage else ""
    where = f" -> {escape(str(entry.path))}" if entry.path else ""
    unwritten = f" [red](record not written: {escape(entry.write_error)})[/]" if entry.write_error else ""
    return f"{head} in {outcome.duration_s:.0f} s: {stage}{escape(outcome.setting.label())}{where}{unwritten}"


def _print_tables(the_plan: Any, filed: list[Any]) -> None:
    """One table per result (the whole ablation: one per transcribed result, then one per other stage)."""
    from registry.reproduce.summary import tables

    for table in tables(the_plan, filed):
        console.print(_drawn(table))


def results_table(result: Any, filed: list[Any], *, method: Any, smoke: bool) -> Any:
    """A result's table (``registry.reproduce.summary.results_table``) as the terminal draws it."""
    from registry.reproduce.summary import results_table as table_of

    return _drawn(table_of(result, filed, method=method, smoke=smoke))


def _drawn(summary: Any) -> Any:
    """A results table drawn with Rich: the transcribed row in cyan, each failure's note whole below the table."""
    from rich import box
    from rich.console import Group
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=summary.title, caption=summary.caption, box=box.SIMPLE_HEAD, show_lines=summary.several_knobs)
    table.add_column("Setting", overflow="fold")
    table.add_column(f"{summary.value_header} {summary.unit}", justify="right")
    table.add_column("GiB", justify="right")
    table.add_column(f"Diff. {summary.unit}", justify="right")
    table.add_column("Ratio", justify="right")
    table.add_column("Outcome", no_wrap=True)  # a status word: the table fits 80 columns and never cuts it
    for row in summary.rows:
        table.add_row(row.setting, row.value, row.gib, row.difference, row.ratio, row.outcome,
                      style="cyan" if row.transcribed else None)
    if not summary.failures:
        return table
    return Group(table, *(escape(line) for line in summary.failures))


def _print_plan(the_plan: Any) -> None:
    if the_plan.result is not None:
        console.print(f"Result: {the_plan.result.id} (transcribed {the_plan.result.printed_value})", soft_wrap=True)
        console.print(f"Recipe: {the_plan.recipe.id}", soft_wrap=True)
    else:
        filed = sum(job.result is not None for job in the_plan.jobs)
        console.print(f"The whole ablation: {len(the_plan.jobs)} setting(s), {filed} of them filed against their "
                      f"result, {len(the_plan.jobs) - filed} of stages no source reports (logged, not filed).",
                      soft_wrap=True)
    for index, job in enumerate(the_plan.jobs, start=1):
        unfiled = "" if the_plan.result is not None or job.result is not None else " (no transcribed result)"
        console.print(f"{index:3d}. {job.setting.model} {job.setting.stage.value}: {job.setting.label()}{unfiled}",
                      soft_wrap=True)


def _print_footer(the_plan: Any, run: Any, write_root: Path | None, log: Any) -> None:
    filed = run.filed
    ok = [entry for entry in filed if entry.comparison is not None]
    dry = any(entry.outcome.dry_run for entry in filed)
    failed = [entry for entry in filed if not entry.outcome.finished]
    if the_plan.smoke and failed:
        model = the_plan.jobs[0].setting.model if the_plan.jobs else "no model"
        console.print(f"Smoke run on {model}: {len(failed)} of {len(filed)} setting(s) failed (see above), so the "
                      "plumbing does not work here yet; nothing was filed.")
    elif the_plan.smoke:
        model = the_plan.jobs[0].setting.model if the_plan.jobs else "no model"
        if dry:
            console.print(f"Smoke run on {model}: the plumbing works; its training steps ran on the CPU, which "
                          "measures nothing, and nothing was filed.")
        else:
            console.print(f"Smoke run on {model}: the plumbing works; its values are not comparable with the "
                          "transcribed one, and nothing was filed.")
    elif ok and the_plan.result is not None:
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
    elif not the_plan.smoke and write_root is None:
        console.print("No record was written (--no-write).")
    if log is not None:
        console.print(f"Log and records in {log.tarball}.")
    if run.not_started:
        from measure.schedule import MIN_SETTING_S

        console.print(f"Deadline: {run.elapsed_s:.0f} s elapsed, {max(run.left_s or 0, 0):.0f} s left; "
                      f"{run.not_started} setting(s) not started (each needs at least {MIN_SETTING_S} s).")


def register(app: typer.Typer) -> None:
    app.command("reproduce")(reproduce_command)
