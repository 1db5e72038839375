"""The side of ``registry validate`` (and ``registry watch --stop``/``--status``) that asks a running watcher.

Light on purpose: a request costs a connection and a line of JSON each way, so that ``registry validate`` with a
watcher running spends its time starting Python and printing, not validating. Anything short of a whole answer
(no watcher, one that stopped, one that failed) is None: the caller then validates as it would without one.
"""

from __future__ import annotations

import datetime as dt
import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

from registry.watch.address import (
    CONNECT_TIMEOUT_S,
    IO_TIMEOUT_S,
    PROTOCOL,
    NotOurs,
    check_peer,
    folders_from,
    reached,
    receive,
    send,
    socket_path,
)

if TYPE_CHECKING:
    from registry.issues.report import Report

#: The record files folder by folder (``registry.db.manifest.Folders``, not imported here: this module stays light).
Folders = dict[str, tuple[str, bytes]]


def ask(path: Path, request: dict[str, Any]) -> dict[str, Any] | None:
    """The watcher's answer at the socket ``path`` to ``request``, or None (no watcher answers there, or none within
    ``IO_TIMEOUT_S`` of each read). ``NotOurs`` where the socket's folder or the process listening there is not
    this user's alone: nothing is sent then."""
    try:
        with reached(path) as name:
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                connection.settimeout(CONNECT_TIMEOUT_S)
                connection.connect(name)
                check_peer(connection)
                connection.settimeout(IO_TIMEOUT_S)
                send(connection, {"protocol": PROTOCOL, **request})
                return receive(connection)
            finally:
                connection.close()
    except NotOurs:
        raise
    except (OSError, ValueError):
        return None


def validate(root: Path, now: dt.datetime) -> tuple[Report | None, str | None]:
    """The report of ``root`` from its watcher, if one answers; else None, with why where a watcher answered
    without one (the caller then validates without it)."""
    answer, why = _asked(root, "validate", now)
    if answer is None:
        return None, why
    try:
        return _report(answer), None
    except (KeyError, TypeError, ValueError) as exc:
        return None, f"its answer is damaged ({type(exc).__name__})"


def records(root: Path, now: dt.datetime) -> tuple[tuple[Report, Folders] | None, str | None]:
    """The report of ``root`` and, where it is valid, its record files folder by folder
    (``registry.db.manifest.Folders``), from its watcher (for 'registry db build'); else None, with why where a
    watcher answered without them."""
    answer, why = _asked(root, "records", now)
    if answer is None:
        return None, why
    try:
        report = _report(answer)
    except (KeyError, TypeError, ValueError) as exc:
        return None, f"its answer is damaged ({type(exc).__name__})"
    if not report.valid:
        return (report, {}), None
    try:
        return (report, folders_from(answer)), None
    except (KeyError, TypeError, ValueError) as exc:
        return None, f"its listing of the records is damaged ({exc})"


def _asked(root: Path, op: str, now: dt.datetime) -> tuple[dict[str, Any] | None, str | None]:
    """The watcher's answer to the request ``op``, or None with why where it answered with an error (None, None:
    no watcher answers)."""
    try:
        found = os.stat(root)
        answer = ask(socket_path(root), {"op": op, "now": now.isoformat(), "folder": [found.st_dev, found.st_ino]})
    except NotOurs as exc:
        return None, f"{exc}: it was not asked"
    except OSError:
        return None, None
    if answer is not None and "error" in answer:
        return None, str(answer["error"])
    return answer, None


def _report(answer: dict[str, Any]) -> Report:
    from registry.issues.report import Issue, Report, Severity

    report = Report(files=answer["files"], records=answer["records"])
    for file, line, code, message, severity, record_id, field in answer["issues"]:  # ``incremental.index.as_row``
        report.add(Issue(file, line, code, message, Severity(severity), record_id, field))
    return report
