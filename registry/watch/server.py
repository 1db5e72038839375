"""``registry watch``: one process that keeps a records folder's incremental index in memory and answers
``registry validate`` from it.

A run of ``registry validate`` after one edit spends most of its time on work that does not depend on the edit: it
``stat``s every file to find what changed (about a second at 295,100 files), reads the index of the last run back
(99 MB at that size) and writes it again, and imports the models and checks. The watcher does each once: it lists
the folder from the kernel's journal of changes (``listing``), keeps the index as the last run left it, and runs
the incremental validation (``registry.validate.incremental.run``) on each request. The report is the one the
incremental run gives, so exactly what a cold run would (``tests/test_watch.py`` compares them); the index is
written to disk when the watcher stops, so that the next run without it starts from there.
"""

from __future__ import annotations

import datetime as dt
import os
import resource
import select
import signal
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from registry.watch.address import PROTOCOL, folders_message, private_folder, receive, send, socket_path


class AlreadyWatched(Exception):
    """Another watcher answers for this folder."""


class Watcher:
    """The listing, the index and the socket of one records folder."""

    def __init__(self, root: Path, say: Callable[[str], None]) -> None:
        from registry.validate.incremental.index import recall
        from registry.watch.listing import Listing

        self.root, self.say = root, say
        self.path = socket_path(root)
        private_folder()
        self._refuse_if_answered()
        self.listing = Listing(root)
        self.index = recall(root)
        self.dirty = False
        self.served = 0
        self.started = dt.datetime.now(dt.UTC)
        self.stopping = False
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.path.unlink(missing_ok=True)
        self.server.bind(str(self.path))
        self.server.listen(16)

    def _refuse_if_answered(self) -> None:
        from registry.watch.client import ask

        answer = ask(self.path, {"op": "status"})
        if answer is not None:
            raise AlreadyWatched(f"a watcher already answers for {self.root} (process {answer.get('pid')}): "
                                 "stop it with 'registry watch --stop' first")

    def validate(self, now: dt.datetime) -> Any:
        """The report now, as a cold run would give it; the index kept in memory for the next request."""
        from registry.validate.incremental import run as incremental

        started = time.time_ns()
        listed = self.listing.sync()
        report, self.index, dirty = incremental.run(self.root, now, self.index, listed, started=started)
        self.dirty = self.dirty or dirty
        return report

    def warm(self) -> None:
        """Work out now what the first run after an edit would otherwise work out for itself: each kind's plan of
        fields (read when a changed record's references are listed)."""
        from registry.models import KIND_MODELS
        from registry.models.fields import field_plan

        for model in KIND_MODELS.values():
            field_plan(model)

    def serve(self) -> None:
        """Answer requests until stopped (``--stop``, Ctrl-C or SIGTERM); then keep the index on disk."""
        def stop(*_: Any) -> None:
            self.stopping = True

        signal.signal(signal.SIGTERM, stop)  # (so it serves from the main thread: a signal's handler is set there)
        signal.signal(signal.SIGINT, stop)
        try:
            while not self.stopping:
                try:
                    ready, _, _ = select.select([self.server.fileno(), self.listing.fileno()], [], [], 1.0)
                except InterruptedError:
                    continue
                if self.listing.fileno() in ready:
                    self.listing.note()  # taken as they come: the kernel's queue must not overflow
                if self.server.fileno() in ready:
                    self._answer()
        finally:
            self.close()

    def _answer(self) -> None:
        connection, _ = self.server.accept()
        with connection:
            try:
                request = receive(connection)
                if request is None:
                    return
                try:
                    reply = self._reply(request)
                except Exception as exc:  # noqa: BLE001 - the caller validates without the watcher, and is told why
                    self.index = None  # a run cut short may have left it half updated: the next one runs in full
                    reply = {"error": f"{type(exc).__name__}: {exc}"}
                    self.say(f"a request could not be answered: {reply['error']}")
                send(connection, reply)
            except (OSError, ValueError) as exc:
                self.say(f"a request could not be answered: {exc}")

    def _reply(self, request: dict[str, Any]) -> dict[str, Any]:
        from registry.validate.incremental import run as incremental
        from registry.validate.incremental.files import as_row

        if request.get("protocol") != PROTOCOL:
            return {"error": f"this watcher speaks protocol {PROTOCOL}; restart it"}
        op = request.get("op")
        if op == "status":
            return self.status()
        if op == "stop":
            self.stopping = True
            return {"stopped": os.getpid()}
        if op not in ("validate", "records"):
            return {"error": f"unknown request {op!r}"}
        began = time.perf_counter()
        report = self.validate(dt.datetime.fromisoformat(request["now"]))
        self.served += 1
        done = dict(incremental.last_run)
        self.say(f"{time.strftime('%H:%M:%S')} validate: {done.get('run')} run, {done.get('read')} files read, "
                 f"{done.get('checked')} records checked, {len(report.issues)} issues, "
                 f"{time.perf_counter() - began:.3f} s")
        reply = {"files": report.files, "records": report.records, "issues": [as_row(i) for i in report.issues],
                 "run": done}
        if op == "records" and report.valid and self.index is not None:  # for 'registry db build' to plan an update
            reply.update(folders_message(self.index["files"].folder_digests()))
        return reply

    def status(self) -> dict[str, Any]:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {"pid": os.getpid(), "root": str(self.root), "cwd": os.getcwd(), "since": self.started.isoformat(),
                "served": self.served, "events": self.listing.events, "peak_mib": usage.ru_maxrss / 1024,
                "rss_mib": _resident_mib(), "cpu_s": usage.ru_utime + usage.ru_stime}

    def close(self) -> None:
        """Stop listening, and keep the index where the next run without a watcher finds it."""
        from registry.validate.incremental.index import keep

        self.server.close()
        self.path.unlink(missing_ok=True)
        self.listing.close()
        if self.dirty and self.index is not None:
            self.say("keeping the index for the next run ...")
            keep(self.root, self.index, dt.datetime.fromisoformat(self.index["now"]), self.index["at_ns"])


def _give_back_freed_memory() -> None:
    """Return to the system what reading the index back freed (the file's bytes, the objects decoding made and
    dropped): the C library keeps freed memory for reuse, and a watcher lives long beside the user's other work."""
    from registry.watch.inotify import libc

    try:
        libc().malloc_trim(0)
    except (OSError, AttributeError):
        pass  # not the GNU C library: nothing to ask


def _resident_mib() -> float:
    """The process's resident memory now (Linux: /proc), in MiB."""
    try:
        with open("/proc/self/statm") as file:
            return int(file.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)
    except (OSError, ValueError, IndexError):
        return float("nan")


def _indexed_apart(root: Path) -> dict[str, Any] | None:
    """The index a full run in a child process keeps for ``root`` (None: none kept): the watcher itself then holds
    the index only, not the memory of a run that typed every record (which the allocator would not give back)."""
    from registry.validate import memo
    from registry.validate.incremental import run as incremental
    from registry.validate.incremental.index import recall

    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child (its coverage is not collected)
        status = 1
        try:
            incremental.validate(root, memo.now())
            status = 0
        finally:
            os._exit(status)
    os.waitpid(pid, 0)
    return recall(root)


def watch(root: Path, say: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True)) -> None:
    """Watch ``root`` and answer for it until stopped; the first run (from the kept index, or in full) is made
    before the watcher listens, so that the first request is answered as fast as the next."""
    from registry.validate import memo

    watcher = Watcher(root, say)
    try:
        began = time.perf_counter()
        if watcher.index is None:
            say(f"no index is kept for {root}: validating it in full first, in a process of its own ...")
            watcher.index = _indexed_apart(root)
        say(f"listing and validating {root} ...")
        report = watcher.validate(memo.now())
        watcher.warm()
        _give_back_freed_memory()
        say(f"watching {root}: {report.files:,} files, {len(report.issues)} issues "
            f"({time.perf_counter() - began:.1f} s); 'registry validate' from {os.getcwd()} is answered here. "
            "Stop with Ctrl-C or 'registry watch --stop'.")
    except BaseException:
        watcher.close()
        raise
    watcher.serve()
