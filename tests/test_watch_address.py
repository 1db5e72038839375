"""The watcher's messages: a line of JSON, then the bytes attached to it as they are (``registry.watch.address``)."""

from __future__ import annotations

import json
import socket
import threading

from registry.watch.address import ATTACHED, folders_from, folders_message, receive, send


def through(message: dict, raw: bytes | None = None) -> dict | None:  # type: ignore[type-arg]
    """``message`` sent (or ``raw`` written as it is) down one end of a socket pair and read at the other."""
    ours, theirs = socket.socketpair()
    with ours, theirs:
        def write() -> None:
            if raw is None:
                send(ours, message)
            else:
                ours.sendall(raw)
            ours.shutdown(socket.SHUT_WR)

        writer = threading.Thread(target=write)  # a large message fills the socket's buffer before it is read
        writer.start()
        read = receive(theirs)
        writer.join()
    return read


def test_folders_with_their_names_and_digests_go_through_as_they_are() -> None:
    folders = {"result": ("a.yaml\0b.yaml\0", bytes(range(32))), "": ("c.yaml\0", b"\xff" * 16),
               "deep/dataset": ("caf\udce9.yaml\0", bytes(16))}  # a name that is no UTF-8, as the file system gave it
    big = {"result": ("".join(f"r{i}.yaml\0" for i in range(50_000)), bytes(16) * 50_000)}
    for sent in (folders, big):
        read = through({"count": 3, **folders_message(sent)})
        assert read is not None and read["count"] == 3 and folders_from(read) == sent


def test_a_message_cut_short_or_misdescribed_is_no_message() -> None:
    line = json.dumps({"folders": ["result"], ATTACHED: [4, 16]}).encode()
    assert through({}, line + b"\n" + b"abcd" + bytes(15)) is None  # an attached part shorter than said
    assert through({}, json.dumps({ATTACHED: [-1]}).encode() + b"\n") is None
    assert through({}, json.dumps({ATTACHED: "4"}).encode() + b"\n" + b"abcd") is None
    assert through({}, json.dumps({"op": "status"}).encode()) is None  # no line's end: cut short
    assert through({}, b"[1, 2]\n") is None
    assert through({"op": "status"}) == {"op": "status"}
