"""``registry watch``: keep a records folder's validation in memory and answer ``registry validate`` at once."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from registry.cli._errors import user_errors
from registry.cli.options import DebugOption, RecordsOption
from registry.cli.output import console
from registry.errors import RegistryError


def watch_command(
    records: Path = RecordsOption,
    stop: bool = typer.Option(False, "--stop", help="Stop the watcher of RECORDS (it keeps its index on disk)."),
    status: bool = typer.Option(False, "--status",
                                help="Say whether a watcher answers for RECORDS, and its memory (exit 3: none)."),
    debug: bool = DebugOption,
) -> None:
    """Watch the records folder and answer 'registry validate' from memory (Linux; runs until stopped).

    The watcher lists the folder from the kernel's journal of changes (inotify) instead of looking at every file,
    and keeps the last run's index in memory: 'registry validate' run from the same folder, with the same
    --records, then answers from it in a fraction of a second, with exactly the report a cold run gives. Start it
    in a terminal of its own (or in the background: 'registry watch &'); stop it with Ctrl-C or --stop. Without a
    watcher, 'registry validate' runs as always. Changes the kernel does not report are not seen: writes through
    a memory map, changes made by another machine on a network file system, a hard link to a record file made from
    outside the records folder: after such a change run 'registry validate --verify' (every file read).

    The watcher listens in a folder only you can open ($XDG_RUNTIME_DIR/registry, else registry/watch under
    $XDG_STATE_HOME) and answers only your own processes; it stops, saying why, when the records path no longer
    leads to the folder it watches (moved, removed and made again, mounted over). See docs/watcher-and-caches.md.
    """
    from registry.watch import address, client

    with user_errors(debug):
        if stop or status:
            path = address.socket_path(records)
            try:
                answer = client.ask(path, {"op": "stop" if stop else "status"})
            except address.NotOurs as exc:
                raise RegistryError(f"{exc}: the watcher was not asked", "a watcher's socket must be yours alone: "
                                    "remove what is there, then start 'registry watch' again") from exc
            if answer is None:
                console.print(f"No watcher answers for {records} from here.")
                raise typer.Exit(1 if stop else 3)
            if stop:
                ended = address.wait_released(path, 60.0)
                console.print(f"Stopped the watcher of {records} (process {answer.get('stopped')})"
                              + ("." if ended else ", which has not ended yet."))
            else:
                console.print(f"Watcher of {answer['root']} in {answer['cwd']}: process {answer['pid']}, since "
                              f"{answer['since']}, {answer['served']} runs answered, {answer['rss_mib']:.0f} MiB "
                              f"resident (peak {answer['peak_mib']:.0f} MiB), {answer['cpu_s']:.1f} CPU s.")
            raise typer.Exit(0)
        if not records.is_dir():
            raise RegistryError("the records folder given is not a folder",
                                "point {records} at the folder that holds '<kind>/<id>.yaml' files", path=records)
        from registry.watch.inotify import Unavailable
        from registry.watcher import AlreadyWatched, watch

        try:
            watch(records, _say)
        except AlreadyWatched as exc:
            raise RegistryError(str(exc), "'registry validate' from here is answered by it already") from exc
        except (Unavailable, PermissionError) as exc:  # PermissionError: address.NotOurs, private.UnsafeFolder
            raise RegistryError(str(exc), "validate without a watcher: 'registry validate' works as always") from exc


def _say(text: str) -> None:
    """What the watcher does, a line each on stderr as it happens (written whole: a log, not a terminal's layout)."""
    print(text, file=sys.stderr, flush=True)


def register(app: typer.Typer) -> None:
    app.command("watch")(watch_command)
