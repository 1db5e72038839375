"""``registry new KIND``: one command per record kind, its options read off the kind's model.

Each kind's command has an option for every value its records hold (``registry.curate.form``: nested
values as ``--uncertainty-half-width``, lists of plain values as repeated options), ``--set PATH=VALUE``
for the rest, and ``--missing FIELD=REASON[:NOTE]``. In a terminal it asks for what is required and not
given (and why each reportable field it is not given is empty). The record is drafted and checked by
``registry.curate.new``, then written (or, with ``--dry-run``, printed).
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from registry.cli._errors import err_console, user_errors
from registry.cli.options import FLAGS, CommandGroup, DateOption, DebugOption, DryRunOption, RecordsOption
from registry.generated import kindoptions
from registry.generated.kindnames import KIND_SUMMARIES
from registry.generated.kindoptions import FieldOption

if TYPE_CHECKING:
    from registry.models import Record

#: The types of a built signature's options, as typer reads them (typing's Optional, not 'X | None').
OptionalText = Optional[str]  # noqa: UP045
OptionalTexts = Optional[list[str]]  # noqa: UP045
OptionalFlag = Optional[bool]  # noqa: UP045

#: Options every kind's command has; a field whose option would clash with one of them is a bug (checked on build).
COMMON = ("--records", "--batch", "--date", "--slug", "--set", "--missing", "--dry-run", "--prompt", "--debug")


def register(app: typer.Typer) -> None:
    new_app = typer.Typer(
        name="new", cls=KindCommands, no_args_is_help=True, rich_markup_mode=None, add_completion=False,
        help="Write a new record of one kind, with its id derived by the convention and every reportable field "
             "filled or listed as missing; 'registry new KIND --help' lists the kind's fields.",
    )
    app.add_typer(new_app, name="new")


class KindCommands(CommandGroup):
    """'registry new': one command per kind, each built from its model only when it is run or its help shown.

    Building them reads every model's fields, which builds Pydantic and every model (about 0.2 s); the
    command line's start, and 'registry new --help' (which lists the kinds from ``registry.generated.kindnames``),
    need none of it. ``commands`` is a mapping that builds a kind's command on first use, so that
    everything that looks commands up (click's resolution, its "did you mean", the tests' walk over
    every command) finds them all.
    """

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = _KindCommandTable()

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = [(token, _help(token, summary)) for token, summary in KIND_SUMMARIES.items()]
        limit = formatter.width - 6 - max(len(token) for token, _ in rows)
        with formatter.section("Commands"):
            formatter.write_dl([(token, typer.core._click.utils.make_default_short_help(text, limit))
                                for token, text in rows])


class _KindCommandTable(dict[str, Any]):
    """Kind token -> its command, built on first lookup (see ``KindCommands``)."""

    def __missing__(self, token: str) -> Any:
        if token not in KIND_SUMMARIES:
            raise KeyError(token)
        self[token] = command = build_command(token)
        return command

    def get(self, token: str, default: Any = None) -> Any:  # type: ignore[override]
        try:
            return self[token]
        except KeyError:
            return default

    def keys(self) -> Any:  # type: ignore[override]
        return KIND_SUMMARIES.keys()

    def __iter__(self) -> Iterator[str]:
        return iter(KIND_SUMMARIES)

    def __len__(self) -> int:
        return len(KIND_SUMMARIES)

    def __contains__(self, token: object) -> bool:
        return token in KIND_SUMMARIES

    def items(self) -> Any:  # type: ignore[override]
        return [(token, self[token]) for token in KIND_SUMMARIES]

    def values(self) -> Any:  # type: ignore[override]
        return [self[token] for token in KIND_SUMMARIES]


def build_command(token: str) -> Any:
    """The click command of one kind, its options as ``kindoptions.json`` lists them (no model is built)."""
    written = kindoptions.written()
    options, reasons = written.kinds[token], written.missing_reasons
    one = typer.Typer(rich_markup_mode=None, add_completion=False)
    one.command(token, help=_help(token, KIND_SUMMARIES[token]))(kind_command(token, options, reasons))
    return typer.main.get_command(one)


def _help(token: str, summary: str) -> str:
    return (f"Write a new {token} record: {summary[0].lower() + summary[1:]} Options name its fields; "
            "--set PATH=VALUE sets any value (hardware[0].accelerator=...), --missing FIELD=REASON[:NOTE] says "
            "why a field is empty.")


def kind_command(token: str, options: tuple[FieldOption, ...], reasons: tuple[str, ...]) -> Any:
    """The command of one kind: its signature is built from its options, so that typer makes one per field.

    The model is imported only when the command runs, so that its help costs no more than the command line's.
    """
    clashes = [option.flag for option in options if option.flag in COMMON]
    if clashes:
        raise TypeError(f"{token}: field options {clashes} clash with the options every kind has")

    def command(**given: Any) -> None:
        from registry.errors import RegistryError
        from registry.models import KIND_MODELS

        model = KIND_MODELS[token]
        with user_errors(given["debug"]):
            if kindoptions.of_model(model) != options:  # a model changed without regenerating the table
                raise RegistryError(f"the options of 'registry new {token}' in registry/generated/kindoptions.json "
                                    f"are not those of the {token} model any more; nothing was written",
                                    "regenerate them with 'python -m registry.generated.kindoptions --write', then run "
                                    "the command again")
        values = {o.path: given[o.param] for o in options if given[o.param] not in (None, [], ())}
        new_record(model, values, sets=given["set_"] or [], missing=given["missing"] or [],
                   records=given["records"], batch=given["batch"], date=given["date"], slug=given["slug"],
                   dry_run=given["dry_run"], prompt=given["prompt"], debug=given["debug"])

    parameters = [inspect.Parameter(o.param, inspect.Parameter.KEYWORD_ONLY, annotation=SHAPES[o.shape],
                                    default=typer.Option(None, o.declaration, help=o.help, show_default=False))
                  for o in options]
    parameters += [
        _common("batch", OptionalText, typer.Option(None, "--batch", help="The batch name of the id (default: the "
                                                    "batch of the record's source, or of the first record it names).")),
        _common("date", OptionalText, DateOption),
        _common("slug", OptionalText, typer.Option(None, "--slug", help="The slug of the id (default: from the "
                                                   "record's name or title, or the record it is about).")),
        _common("set_", OptionalTexts, typer.Option(None, "--set", metavar="PATH=VALUE", help="Set any value by its "
                                                    "path (uncertainty.half_width=0.019, hardware[0].accelerator="
                                                    "'NVIDIA H100'); a list or mapping as YAML ('[a, b]'). "
                                                    "Repeatable.")),
        _common("missing", OptionalTexts, typer.Option(None, "--missing", metavar="FIELD=REASON[:NOTE]",
                                                       help="Why a reportable field is empty (reason: "
                                                       f"{', '.join(reasons)}); a field not given nor listed is "
                                                       "listed as not-transcribed. Repeatable.")),
        _common("dry_run", bool, DryRunOption),
        _common("prompt", OptionalFlag, typer.Option(None, "--prompt/--no-prompt", help="Ask for what is required "
                                                     "and not given (default: when run in a terminal).")),
        _common("records", Path, RecordsOption),
        _common("debug", bool, DebugOption),
    ]
    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    command.__name__ = f"new_{token}"
    command.__doc__ = _help(token, KIND_SUMMARIES[token])
    return command


def _common(name: str, annotation: Any, default: Any) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


#: The type typer is given for each shape of field option.
SHAPES: dict[str, Any] = {"text": OptionalText, "texts": OptionalTexts, "flag": OptionalFlag}


# -- running it -------------------------------------------------------------------------------------


def new_record(model: type[Record], values: dict[tuple[str, ...], Any], *, sets: list[str], missing: list[str],
               records: Path, batch: str | None, date: str | None, slug: str | None, dry_run: bool,
               prompt: bool | None, debug: bool) -> None:
    from registry.cli.output import console
    from registry.curate.new import RejectedRecordsError, draft_record
    from registry.curate.precheck import write_checked

    with user_errors(debug), curation_errors():
        registry = load_for_writing(records)
        interactive = prompt if prompt is not None else (sys.stdin.isatty() and sys.stdout.isatty())
        missing = list(missing)
        if interactive:
            ask(model, registry, values, missing, [s.split("=", 1)[0] for s in sets])
        pairs = [_pair(text) for text in sets]
        draft = draft_record(registry, model.kind_token, values, sets=pairs, missing=missing, batch=batch, date=date,
                             slug=slug)
        for name, typed, found in draft.completed:
            console.print(f"Completed {name} {typed!r} to {found}", highlight=False, soft_wrap=True)
        if draft.listed_missing:
            console.print(f"Listed as not transcribed (give them, or --missing FIELD=REASON): "
                          f"{', '.join(draft.listed_missing)}", soft_wrap=True)
        path = draft.staged.path
        if not dry_run:
            written = write_checked(records, [draft.staged], rejected=RejectedRecordsError)
            report_recovery(written.recovered)
    if dry_run:  # a dry run shows the record, and what validation warns of it, all the same
        console.print(f"# {path} (dry run: nothing written)", soft_wrap=True, markup=False)
        sys.stdout.write(draft.staged.text)
    else:
        console.print(f"Wrote {draft.record.kind_token} {draft.record.id} to {path}", soft_wrap=True, markup=False)
    for issue in draft.warnings:
        err_console.print(f"warning {issue.code}: {issue.text(FLAGS)}", soft_wrap=True, markup=False)


def _pair(text: str) -> tuple[str, str]:
    from registry.errors import RegistryError

    path, sep, value = text.partition("=")
    if not sep or not path.strip():
        raise RegistryError(f"--set {text!r} is not PATH=VALUE", "write for example --set uncertainty.half_width=0.019")
    return path.strip(), value


def ask(model: type[Record], registry: Any, values: dict[tuple[str, ...], Any], missing: list[str],
        set_paths: list[str]) -> None:
    """Ask, in the terminal, for each required value not given, and why each reportable field not given is empty.

    Input that ends before the last answer (a closed pipe, Ctrl-D) stops the command with a message, not a traceback.
    """
    try:
        _ask(model, values, missing, set_paths)
    except EOFError:
        from registry.cli.output import console
        from registry.errors import RegistryError

        console.print()  # end the unanswered question's line

        raise RegistryError("the input ended before every question was answered; nothing was written",
                            f"give the values as options ('registry new {model.kind_token} --help' lists "
                            "them) and add --no-prompt, or answer each question") from None


def _ask(model: type[Record], values: dict[tuple[str, ...], Any], missing: list[str], set_paths: list[str]) -> None:
    from rich.prompt import Prompt

    from registry.cli.output import console
    from registry.curate.form import form
    from registry.models import MissingReason

    leaves, branches = form(model)
    given = {path[0] for path in values} | {p.split(".")[0].split("[")[0] for p in set_paths}
    explained = {entry.split("=", 1)[0] for entry in missing}
    reasons = [r.value for r in MissingReason]
    for leaf in leaves:
        if leaf.path in values or leaf.path[0] in given and len(leaf.path) == 1:
            continue
        if leaf.required:
            hint = f" (an id of {kindoptions.kinds_named(leaf)})" if leaf.references else ""
            answer = Prompt.ask(f"{leaf.dotted}{hint}: {_said(leaf.description)}", console=console,
                                choices=leaf.choices or None)
            values[leaf.path] = [part.strip() for part in answer.split(";")] if leaf.many else answer
        elif leaf.reportable and len(leaf.path) == 1 and leaf.path[0] not in explained:
            answer = Prompt.ask(f"{leaf.dotted}: {_said(leaf.description)} (Enter: say why it is empty)",
                                console=console, default="", show_default=False)
            if answer.strip():
                values[leaf.path] = [part.strip() for part in answer.split(";")] if leaf.many else answer
            else:
                _ask_reason(leaf.dotted, missing, reasons)
    for branch in branches:
        name = branch.path[0]
        if branch.reportable and name not in given and name not in explained and not any(
                path[0] == name for path in values):
            console.print(f"{name}: {_said(branch.description)} (give it with its options or --set {name}...=...)",
                          markup=False)
            _ask_reason(name, missing, reasons)


def _said(description: str) -> str:
    """A field's description as the body of a question: the prompt adds its own ':' after it."""
    return description.strip().rstrip(".")


def _ask_reason(name: str, missing: list[str], reasons: list[str]) -> None:
    from rich.prompt import Prompt

    from registry.cli.output import console

    reason = Prompt.ask(f"  why is {name} empty?", console=console, choices=reasons, default="not-transcribed")
    note = Prompt.ask(f"  a note on {name} (optional)", console=console, default="", show_default=False)
    missing.append(f"{name}={reason}" + (f":{note.strip()}" if note.strip() else ""))


# -- messages ---------------------------------------------------------------------------------------


def load_for_writing(records: Path) -> Any:
    """The valid registry, after undoing any batch an earlier run left unfinished (and saying so)."""
    from registry.cli.core import load_valid
    from registry.store.batch import recover

    report_recovery(recover(records) if records.is_dir() else None)
    return load_valid(records)


def report_recovery(recovered: Any) -> None:
    """Say that an interrupted batch of an earlier run was undone (and what was left alone)."""
    if recovered is None:
        return
    err_console.print(f"Undid an interrupted batch write (started {recovered.started_at}): "
                      f"{len(recovered.undone)} file(s) removed or restored", soft_wrap=True, markup=False)
    for path in recovered.kept:
        err_console.print(f"  kept {path}: it changed after the batch wrote it", soft_wrap=True, markup=False)


@contextmanager
def curation_errors() -> Iterator[None]:
    """Print what a curation error carries (every problem, each with its option or its row and column), then fail."""
    from registry.cli.output import print_report
    from registry.curate.new import IncompleteRecordError, RejectedRecordsError
    from registry.curate.table import TableError
    from registry.errors import RegistryError, worded

    try:
        yield
    except IncompleteRecordError as exc:
        for path, message in exc.problems:
            err_console.print(f"  {flag_of(exc.kind, path)}: {worded(message, FLAGS)}", soft_wrap=True, markup=False)
        if exc.corrected:
            raise RegistryError(f"the corrected {exc.kind} is refused ({len(exc.problems)} problem(s) above); "
                                "nothing was written", "fix the --set values named, then run it again") from None
        raise RegistryError(f"the new {exc.kind} is not complete ({len(exc.problems)} problem(s) above); nothing "
                            "was written", "give the options named, then run it again") from None
    except RejectedRecordsError as exc:
        print_report(exc.report, console=err_console, verdict=False)  # the registry is valid: these are the new ones
        raise RegistryError(exc.message, exc.hint) from None
    except TableError as exc:
        for line in exc.lines(FLAGS):
            err_console.print(line, soft_wrap=True, markup=False)
        count = len(exc.problems)
        raise RegistryError(f"{count} problem{'s' if count > 1 else ''} in {Path(str(exc.path)).name} (listed "
                            "above); nothing was written", exc.hint) from None


def flag_of(kind: str, path: str) -> str:
    """The option that sets the field at ``path`` ('uncertainty.half_width' -> '--uncertainty-half-width')."""
    from registry.curate.form import form
    from registry.models import KIND_MODELS

    if path.split(".")[0] in OWN_OPTIONS:
        return OWN_OPTIONS[path.split(".")[0]]
    leaves, _ = form(KIND_MODELS[kind])
    top = path.split("[")[0]
    for leaf in leaves:
        if leaf.dotted == top or leaf.dotted == path:
            return leaf.flag
    inside = [leaf.path[-1] for leaf in leaves if leaf.dotted.startswith(top + ".")]
    if inside:  # an object given by the options of its values: 'source_locator' -> '--source-locator-* (page, ...)'
        return f"--{top.replace('_', '-')}-* ({', '.join(inside)})"
    return f"--set {path}=..." if path else f"the {kind}"


#: Fields a common option gives, not one of their own.
OWN_OPTIONS = {"id": "the id (--batch, --date, --slug)", "missing_metadata": "--missing"}
