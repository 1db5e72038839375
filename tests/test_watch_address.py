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


def request_through(raw: bytes) -> dict | str:  # type: ignore[type-arg]
    """``raw`` read as a request by the watcher's side (``receive_request``), or why it was refused."""
    from registry.watch.address import Malformed, receive_request

    ours, theirs = socket.socketpair()
    with ours, theirs:
        writer = threading.Thread(target=lambda: (ours.sendall(raw), ours.shutdown(socket.SHUT_WR)))
        writer.start()
        try:
            return receive_request(theirs)
        except Malformed as exc:
            return str(exc)
        finally:
            writer.join()


def test_a_request_is_bounded_in_length_depth_and_attachments() -> None:
    ok = {"op": "validate", "now": "2026-01-01T00:00:00+00:00", "folder": [1, 2], "note": "[[[[[[{{{{"}
    assert request_through(json.dumps(ok).encode() + b"\n") == ok  # brackets inside a string are not nesting
    assert request_through(b"[[[[[1]]]]]\n") == "a request nested deeper than 4"
    assert request_through(b"[" * 60_000 + b"\n") == "a request nested deeper than 4"
    assert request_through(b'{"a": "' + b"x" * 70_000 + b'"}\n') == "a request longer than 65,536 bytes"
    assert request_through(json.dumps({ATTACHED: [4]}).encode() + b"\nabcd") == "a request with attached bytes"
    assert request_through(b'{"op": "status"}') == "the request was cut short"
    assert request_through(b"[1]\n") == "not a JSON object"
