"""``registry watch``: one process that keeps a records folder's incremental index in memory and answers
``registry validate`` from it, each request validated through ``registry.validation`` (``Held``).

A run of ``registry validate`` after one edit spends most of its time on work that does not depend on the edit: it
``stat``s every file to find what changed (about a second at 295,100 files), reads the index of the last run back
(99 MB at that size) and writes it again, and imports the models and checks. The watcher does each once: it lists
the folder from the kernel's journal of changes (``registry.watch.listing``), keeps the index as the last run left
it, and asks ``registry.validation`` for the report on each request, with what it holds: an incremental run from
the index in memory. The report is the one the incremental run gives, so exactly what a cold run would
(``tests/test_watch.py`` compares them); the index is written to disk when the watcher stops, so that the next run
without it starts from there. Nothing here prints: what the watcher has to say goes to the ``say`` its caller (the
command) gives.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import os
import resource
import select
import signal
import socket
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from registry.watch.address import (
    HEARTBEAT_S,
    IO_TIMEOUT_S,
    PROTOCOL,
    Malformed,
    NotOurs,
    check_peer,
    folders_message,
    lock_path,
    private_folder,
    reached,
    receive_request,
    send,
    socket_path,
)
from registry.watch.identity import Identity

#: Connections answered at once (each reads its request within ``IO_TIMEOUT_S``; runs go one at a time); more wait
#: in the socket's backlog.
MAX_CONNECTIONS = 32
#: The operations a request may ask for.
OPERATIONS = ("status", "stop", "validate", "records")


class AlreadyWatched(Exception):
    """Another watcher answers for this folder."""


class Watcher:
    """The listing, the index and the socket of one records folder.

    Connections are served each in a thread of its own (a slow or silent client holds its thread until
    ``IO_TIMEOUT_S``, never the others); the runs, which read and update the listing and the index, go one at a
    time (``work``)."""

    def __init__(self, root: Path, say: Callable[[str], None]) -> None:
        from registry.validation import Held
        from registry.watch.listing import Listing

        self.root, self.say = root, say
        self.path = socket_path(root)
        private_folder()
        self._held = self._hold()
        self.identity = Identity(root)
        self.listing = Listing(root)
        self.held = Held.recalled(root, self.listing)
        self.served = 0
        self.started = dt.datetime.now(dt.UTC)
        self.stopping = False
        self.work = threading.Lock()
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with reached(self.path) as name:
            try:
                if not stat.S_ISSOCK(os.lstat(self.path).st_mode):
                    raise NotOurs(f"{self.path} is not a socket: remove it, then start the watcher again")
                self.path.unlink()  # a socket left by a watcher that was killed (its lock is free: none runs)
            except FileNotFoundError:
                pass
            self.server.bind(name)
        self.server.listen(16)

    def _hold(self) -> int:
        """The lock that one watcher of the folder holds while it lives: a second one started at the same time is
        refused, whichever binds first (``AlreadyWatched``)."""
        from registry.watch.client import ask

        with reached(self.path):
            held = os.open(lock_path(self.path), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(held)
            answer = ask(self.path, {"op": "status"})
            pid = f" (process {answer.get('pid')})" if answer else ""
            raise AlreadyWatched(f"a watcher already answers for {self.root}{pid}: stop it with 'registry watch "
                                 "--stop' first") from None
        return held

    def validate(self, now: dt.datetime, *, files: bool = False) -> Any:
        """The report now, as a cold run would give it (``registry.validation.Validation``; with ``files``, the
        record files too); the index kept in memory for the next request."""
        from registry.validation import validation

        return validation(self.root, now=now, files=files, held=self.held)

    def warm(self) -> None:
        """Work out now what the first run after an edit would otherwise work out for itself: each kind's plan of
        fields (read when a changed record's references are listed)."""
        from registry.models import KIND_MODELS
        from registry.models.fields import field_plan

        for model in KIND_MODELS.values():
            field_plan(model)

    def serve(self) -> None:
        """Answer requests until stopped (``--stop``, Ctrl-C or SIGTERM, or a request finding that the folder it
        watches is no longer the one asked about); then keep the index on disk."""
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
                    with self.work:
                        self.listing.note()  # taken as they come: the kernel's queue must not overflow
                if self.server.fileno() in ready:
                    self._accept()
        finally:
            self.close()

    def _accept(self) -> None:
        """Take one connection: refused unless the other end runs as this user; else answered in a thread."""
        try:
            connection, _ = self.server.accept()
        except OSError:
            return
        try:
            check_peer(connection)
        except NotOurs as exc:
            self.say(f"a connection was refused: {exc}")
            connection.close()
            return
        if not self.slots.acquire(blocking=False):
            connection.close()  # as many answered as allowed: this client validates without the watcher
            return
        threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    def _answer(self, connection: socket.socket) -> None:
        try:
            with connection:
                connection.settimeout(IO_TIMEOUT_S)
                try:
                    request = receive_request(connection)
                    refused = _refusal(request)
                except Malformed as exc:
                    refused = f"a malformed request: {exc}"
                if refused is not None:
                    self.say(f"a request was refused: {refused}")
                    send(connection, {"error": refused})  # nothing changed: the next request is answered as ever
                    return
                send(connection, self._at_work(connection, request))
        except OSError as exc:
            self.say(f"a request could not be answered: {exc}")
        finally:
            self.slots.release()

    def _at_work(self, connection: socket.socket, request: dict[str, Any]) -> dict[str, Any]:
        """The reply to ``request``, an empty line sent every ``HEARTBEAT_S`` meanwhile (the client waits for a
        watcher at work, not for one that stopped)."""
        done = threading.Event()

        def beat() -> None:
            while not done.wait(HEARTBEAT_S):
                try:
                    connection.sendall(b"\n")
                except OSError:
                    return

        beating = threading.Thread(target=beat, daemon=True)
        beating.start()
        try:
            with self.work:
                return self._replied(request)
        finally:
            done.set()
            beating.join()

    def _replied(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            return self._reply(request)
        except Exception as exc:  # noqa: BLE001 - the caller validates without the watcher, and is told why
            self.held.index = None  # a run cut short may have left it half updated: the next one runs in full
            error = f"{type(exc).__name__}: {exc}"
            self.say(f"a request could not be answered: {error}")
            return {"error": error}

    def _reply(self, request: dict[str, Any]) -> dict[str, Any]:
        from registry.validate.incremental import run as incremental
        from registry.validate.incremental.files import as_row

        op = request["op"]
        if op == "status":
            return self.status()
        if op == "stop":
            self.stopping = True
            return {"stopped": os.getpid()}
        moved = self.identity.changed(tuple(request["folder"]))
        if moved is not None:
            self.stopping, self.held.index, self.held.changed = True, None, False  # it holds another folder's
            self.say(f"{moved}: stopping")
            return {"error": f"{moved}; the watcher stops"}
        began = time.perf_counter()
        answered = self.validate(dt.datetime.fromisoformat(request["now"]), files=op == "records")
        report = answered.report
        self.served += 1
        done = dict(incremental.last_run)
        self.say(f"{time.strftime('%H:%M:%S')} validate: {done.get('run')} run, {done.get('read')} files read, "
                 f"{done.get('checked')} records checked, {len(report.issues)} issues, "
                 f"{time.perf_counter() - began:.3f} s")
        reply = {"files": report.files, "records": report.records, "issues": [as_row(i) for i in report.issues],
                 "run": done}
        if op == "records" and report.valid:  # for 'registry db build' to plan an update
            reply.update(folders_message(answered.folders))
        return reply

    def status(self) -> dict[str, Any]:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {"pid": os.getpid(), "root": str(self.root), "cwd": self.identity.cwd,
                "since": self.started.isoformat(), "served": self.served, "events": self.listing.events,
                "peak_mib": usage.ru_maxrss / 1024, "rss_mib": _resident_mib(),
                "cpu_s": usage.ru_utime + usage.ru_stime}

    def close(self) -> None:
        """Stop listening, and keep the index where the next run without a watcher finds it."""
        from registry.validate.incremental.index import keep

        self.server.close()
        try:
            with reached(self.path):
                self.path.unlink(missing_ok=True)
        except OSError:
            pass
        with self.work:  # a run under way finishes first
            self.listing.close()
            index = self.held.index
            if self.held.changed and index is not None:
                self.say("keeping the index for the next run ...")
                keep(self.root, index, dt.datetime.fromisoformat(index["now"]), index["at_ns"])
        os.close(self._held)  # another watcher may start now


def _refusal(request: dict[str, Any]) -> str | None:
    """Why ``request`` is not one this watcher answers (None: it is): checked before anything is run, so that a
    malformed request changes nothing."""
    if request.get("protocol") != PROTOCOL:
        return f"this watcher speaks protocol {PROTOCOL}; restart it"
    op = request.get("op")
    if op not in OPERATIONS:
        return f"unknown request {str(op)[:40]!r}"
    if op in ("status", "stop"):
        return None
    folder = request.get("folder")
    if not (isinstance(folder, list) and len(folder) == 2 and all(type(n) is int for n in folder)):
        return "a request without the folder's identity (device, inode)"
    now = request.get("now")
    try:
        moment = dt.datetime.fromisoformat(now) if isinstance(now, str) and len(now) <= 64 else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        return f"a request without a moment with its time zone ('now': {str(now)[:40]!r})"
    return None


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


def watch(root: Path, say: Callable[[str], None]) -> None:
    """Watch ``root`` and answer for it until stopped, saying what it does through ``say``; the first run (from the
    kept index, or in full) is made before the watcher listens, so that the first request is answered as fast as the
    next."""
    from registry.validate import memo

    watcher = Watcher(root, say)
    try:
        began = time.perf_counter()
        if watcher.held.index is None:
            say(f"no index is kept for {root}: validating it in full first, in a process of its own ...")
        say(f"listing and validating {root} ...")
        report = watcher.validate(memo.now()).report
        watcher.warm()
        _give_back_freed_memory()
        say(f"watching {root}: {report.files:,} files, {len(report.issues)} issues "
            f"({time.perf_counter() - began:.1f} s); 'registry validate' from {os.getcwd()} is answered here. "
            "Stop with Ctrl-C or 'registry watch --stop'.")
    except BaseException:
        watcher.close()
        raise
    watcher.serve()
