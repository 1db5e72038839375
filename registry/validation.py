"""How a registry's report is made, decided once: by a running watcher, from the report kept by the last run, by an
incremental run, or in full. ``registry validate`` (``registry.cli.core``), ``registry db build``
(``registry.db.current``) and the watcher itself (``registry.watcher``, for each request it answers) all ask
``validation``; each way gives exactly the report a cold run would (docs/design/incremental.md), and the
``Validation`` says which way it took, so that the command can say so.

Nothing here prints: where a watcher answered but could not serve, ``watcher_failed`` says why, and the command
words it. The order:

0. for a process that holds the index in memory between runs (``Held``: the watcher), an incremental run from it,
   listed from the listing it keeps current; where it holds none at its first run, a run in full in a process of
   its own keeps one first (so that the watcher holds the index alone, not the memory of a run that typed every
   record);
1. without the cache (``--no-cache``, ``$REGISTRY_NO_CACHE``), or for a folder that does not exist: in full;
2. a watcher of the folder (``registry watch``), where one answers;
3. the report kept by the last run, where nothing it read has changed (``registry.validate.memo``); not where the
   caller needs the records' files (``files``: ``registry db build`` compares them with its database), which only
   the incremental index holds;
4. an incremental run (``registry.validate.incremental``), whose index and report are kept for the next run.

This module sits above ``validate/`` and ``watch/`` (it asks both), below the watcher's process, the commands and
the database.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from registry.issues.report import Report

#: A valid registry's record files folder by folder: folder -> (its files' names, a NUL after each; their digests, 16
#: bytes each);
#: ``registry.db.manifest.Folders``, as the incremental index and the watcher give them.
Folders = dict[str, tuple[str, bytes]]


class Way(StrEnum):
    """How a report was made; its value is how the commands word it ('validated incrementally')."""

    WATCHER = "by the watcher"
    KEPT = "from the report kept by the last run"
    INCREMENTAL = "incrementally"
    VERIFIED = "incrementally, every file's content compared"
    FULL = "in full"
    HELD = "incrementally, from the index held in memory"


@dataclass(frozen=True)
class Validation:
    """A registry's report, how it was made, and what the caller asked for beside it."""

    report: Report
    way: Way
    folders: Folders | None = None
    """The record files, where ``files`` was asked for and the registry is valid (``{}`` where it is not)."""
    watcher_failed: str | None = None
    """Why a watcher that answered could not serve (the report was then made without it)."""
    cache_refused: object | None = None
    """Why the cache's folders could not be used (``registry.store.cache.refusal``: another user can reach them);
    the report was then made without keeping anything."""


@dataclass
class Held:
    """What a process that validates one folder again and again keeps between runs (``registry watch``)."""

    listing: Any
    """The folder's listing, kept current by the process: ``sync()`` gives the record files now, folder by folder
    (``memo.Folder``; ``registry.watch.listing.Listing``)."""
    index: dict[str, Any] | None = None
    """The incremental index the last run left (None: none; the next run makes one in full)."""
    changed: bool = False
    """Whether the index differs from the one kept on disk (the process keeps it there when it stops)."""
    runs: int = 0
    """The runs made from it so far."""

    @classmethod
    def recalled(cls, root: Path, listing: Any) -> Held:
        """What a process that validates ``root`` again and again starts from: ``listing``, and the index the last
        run kept on disk (None where none is kept)."""
        from registry.validate.incremental.index import recall

        return cls(listing, recall(root))


def validation(root: Path, *, cache: bool = True, files: bool = False, verify: bool = False,
               now: dt.datetime | None = None, jobs: int | None = None, held: Held | None = None) -> Validation:
    """The report of the records under ``root``, made the first way that serves (see the module's docstring).

    ``files``: the caller needs each record's file and digest too (``Validation.folders``); a full run gives none,
    so a caller asking for them passes ``cache=True`` only where the cache is on. ``verify``: no watcher and no kept
    report; every file is read and its digest, not its status, says whether it changed (a write through a shared
    memory map or a hard link from outside leaves the status as it was). ``jobs``: the processes of a run in full
    (``registry.store.typedfiles``; None: as many as pay). Where the cache's folders are not the
    user's alone (``Validation.cache_refused``), nothing is kept: a report in full, or, for ``files``, an incremental
    run that keeps nothing. ``held``: what a process that validates ``root`` again and again keeps between runs
    (``Held``), which the run reads and updates; no watcher, kept report or cache setting is asked then."""
    from registry.store import cache as cache_module
    from registry.validate import memo

    now = memo.now() if now is None else now
    if held is not None:
        return _from_held(root, now, held, files)
    refused = cache_module.refusal() if cache and cache_module.enabled() else None
    if refused is not None and not files:
        cache = False
    if not cache or not cache_module.enabled() or not root.is_dir():
        from registry.validate.runner import validate

        return Validation(validate(root, cache=cache, now=now, jobs=jobs)[1], Way.FULL, cache_refused=refused)
    if verify and not files:
        from registry.validate.incremental import run as incremental

        return Validation(incremental.validate(root, now, verify=True), Way.VERIFIED, cache_refused=refused)
    answered, why = _from_watcher(root, now, files)
    if answered is not None:
        return answered
    started = time.time_ns()
    listed: list[memo.Folder] = []
    tree = memo.tree_state(root, listed)  # before the run: a file changed during it makes the kept report stale
    if not files:
        kept = memo.recall(root, tree, now)
        if kept is not None:
            return Validation(kept, Way.KEPT, watcher_failed=why)
    from registry.validate.incremental import run as incremental

    report, index = incremental.validated(root, now, listed, started=started)
    memo.keep(root, tree, now, report)
    folders = (index["files"].folder_digests() if report.valid else {}) if files else None
    return Validation(report, Way.INCREMENTAL, folders, why, refused)


def _from_held(root: Path, now: dt.datetime, held: Held, files: bool) -> Validation:
    """An incremental run from the index ``held`` keeps, listed from its listing; ``held`` keeps the index it
    leaves. A first run with no index kept is made in full in a process of its own, which keeps one."""
    from registry.validate.incremental import run as incremental

    if held.index is None and not held.runs:
        held.index = _indexed_apart(root)
    held.runs += 1
    started = time.time_ns()
    listed = held.listing.sync()
    report, held.index, changed = incremental.run(root, now, held.index, listed, started=started)
    held.changed = held.changed or changed
    folders = (held.index["files"].folder_digests() if report.valid else {}) if files else None
    return Validation(report, Way.HELD, folders)


def _indexed_apart(root: Path) -> dict[str, Any] | None:
    """The index a full run in a child process keeps for ``root`` (None: none kept): the caller then holds the
    index only, not the memory of a run that typed every record (which the allocator would not give back)."""
    import os

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


def _from_watcher(root: Path, now: dt.datetime, files: bool) -> tuple[Validation | None, str | None]:
    """The watcher's answer for ``root`` (None: none answers, or it could not serve, with why)."""
    from registry.watch import client

    if not files:
        report, why = client.validate(root, now)
        return (None, why) if report is None else (Validation(report, Way.WATCHER), None)
    answered, why = client.records(root, now)
    return (None, why) if answered is None else (Validation(answered[0], Way.WATCHER, answered[1]), None)
