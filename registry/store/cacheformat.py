"""What the caches store: plain values as MessagePack behind a MAC, so that nothing stored can run code.

Parsed data (what PyYAML's safe loader reads from a record file) and what other code derives from it are
kept as MessagePack: plain values, with dates, tuples, sets, big integers, decimals and text holding lone
surrogates as tagged extensions decoded by a closed table, each entry behind a MAC under this user's key
(``registry.store.cachekey``) over the entry, the digest of the content it came from and what derived it.
The format is apart from the store (``registry.store.cache``), since the kept report and the incremental
index (``registry.validate.memo``, ``registry.validate.incremental.index``) write their files in it too.
"""

from __future__ import annotations

import functools
import hmac
from collections.abc import Iterator
from typing import Any, BinaryIO

from registry.store.cachekey import MAC_BYTES, mac, mac_hasher

#: Items of a mapping or list packed at once by ``write_encoded``: larger ones are written a run of items at a time.
PIECE_ITEMS = 4096


def encode(digest: bytes, data: Any, context: bytes = b"") -> bytes:
    """Parsed data as MessagePack bytes that give it back exactly (``pack``), behind a MAC over them, the
    digest of the content they came from and ``context`` (what derived them), under this user's key."""
    return b"".join(encoded(digest, data, context))


def encoded(digest: bytes, data: Any, context: bytes = b"") -> tuple[bytes, bytes]:
    """``encode``'s bytes as its two parts (MAC, body), to be written one after the other without joining them."""
    body = pack(data)
    return mac(digest + b"\0" + context, body), body


def write_encoded(file: BinaryIO, digest: bytes, data: Any, context: bytes = b"") -> None:
    """``encoded``'s two parts written to ``file`` from where it stands, the body as it is packed, a run of items
    at a time: the same bytes, without the whole body in memory at once (an incremental index of 100,000 results
    packs to 120 MB, which the packer's buffer held twice over as it grew, beside the copy it returned)."""
    start = file.tell()
    file.write(bytes(MAC_BYTES))  # the MAC's place, written once the body is
    check = mac_hasher(digest + b"\0" + context)
    for piece in _pieces(data):
        check.update(piece)
        file.write(piece)
    end = file.tell()
    file.seek(start)
    file.write(check.digest())
    file.seek(end)


def _pieces(value: Any) -> Iterator[bytes]:
    """``pack(value)`` in pieces that join to it: a large mapping or list as its header, then its items packed a
    run at a time (each run packed as a mapping or list of its own, less that one's header), a large one inside
    it likewise."""
    if not _large(value) and not (type(value) in (dict, list) and any(map(_large, _inner(value)))):
        yield pack(value)
        return
    is_map = type(value) is dict
    yield _header(is_map, len(value))
    run: dict[Any, Any] | list[Any] = {} if is_map else []
    for item in value.items() if is_map else value:
        inner = item[1] if is_map else item
        if _large(inner):
            yield from _run(run, is_map)
            run = {} if is_map else []
            if is_map:
                yield pack(item[0])
            yield from _pieces(inner)
            continue
        if is_map:
            run[item[0]] = inner  # type: ignore[call-overload]
        else:
            run.append(item)  # type: ignore[union-attr]
        if len(run) >= PIECE_ITEMS:
            yield from _run(run, is_map)
            run = {} if is_map else []
    yield from _run(run, is_map)


def _large(value: Any) -> bool:
    """A mapping or list of more than ``PIECE_ITEMS`` items."""
    return type(value) in (dict, list) and len(value) > PIECE_ITEMS


def _inner(value: dict[Any, Any] | list[Any]) -> Any:
    return value.values() if type(value) is dict else value


def _run(run: dict[Any, Any] | list[Any], is_map: bool) -> Iterator[bytes]:
    """A run of a mapping's or list's items packed, less the header that packing them alone puts first."""
    if run:
        packed = pack(run)
        header = _header(is_map, len(run))
        if not packed.startswith(header):
            raise AssertionError("MessagePack put another header before the items")
        yield packed[len(header):]


def _header(is_map: bool, count: int) -> bytes:
    import msgpack

    packer = msgpack.Packer(use_bin_type=True)
    return packer.pack_map_header(count) if is_map else packer.pack_array_header(count)  # type: ignore[no-any-return]


def decode(digest: bytes, payload: bytes, context: bytes = b"") -> Any:
    """The parsed data ``encode`` wrote, or ``CorruptEntry`` if the bytes are not what this user's runs wrote
    for ``digest`` (damaged, planted, or filed under another content)."""
    view = memoryview(payload)
    body = view[MAC_BYTES:]
    if not hmac.compare_digest(view[:MAC_BYTES], mac(digest + b"\0" + context, body)):
        raise CorruptEntry
    try:
        return unpack(body)
    except Exception as exc:  # noqa: BLE001 - whatever the bytes hold, they are not an entry
        raise CorruptEntry from exc


class CorruptEntry(ValueError):
    """Bytes in a cache that are not what was written there."""


# -- the format: MessagePack, with a closed table of extensions -------------------------------------


class _Surrogates(str):
    """Text holding lone surrogates (a YAML escape such as "\\ud800" gives them), which UTF-8 cannot encode."""


def _extensions() -> tuple[dict[type, tuple[int, Any]], dict[int, Any]]:
    """The types MessagePack has no form for: each type's code and encoder, and each code's decoder."""
    import datetime as dt
    from decimal import Decimal

    def packed(value: Any) -> bytes:
        return pack(value)

    table: list[tuple[type, int, Any, Any]] = [
        (tuple, 1, lambda v: packed(list(v)), lambda b: tuple(unpack(b))),
        (set, 2, lambda v: packed(list(v)), lambda b: set(unpack(b))),
        (frozenset, 3, lambda v: packed(list(v)), lambda b: frozenset(unpack(b))),
        (dt.date, 4, lambda v: v.isoformat().encode(), lambda b: dt.date.fromisoformat(b.decode())),
        (dt.datetime, 5, lambda v: v.isoformat().encode(), lambda b: dt.datetime.fromisoformat(b.decode())),
        (dt.time, 6, lambda v: v.isoformat().encode(), lambda b: dt.time.fromisoformat(b.decode())),
        # Beyond 64 bits; as bytes, since Python refuses to write an integer of more than 4,300 digits as text.
        (int, 7, lambda v: v.to_bytes(v.bit_length() // 8 + 1, "big", signed=True),
         lambda b: int.from_bytes(b, "big", signed=True)),
        (Decimal, 8, lambda v: str(v).encode(), lambda b: Decimal(b.decode())),
        (_Surrogates, 9, lambda v: str.encode(v, "utf-8", "surrogatepass"),
         lambda b: b.decode("utf-8", "surrogatepass")),
    ]
    return ({kind: (code, encoder) for kind, code, encoder, _ in table},
            {code: decoder for _, code, _, decoder in table})


@functools.cache
def _codec() -> tuple[Any, Any]:
    """The packer and unpacker functions (msgpack is imported on first use)."""
    import msgpack

    encoders, decoders = _extensions()

    def default(value: Any) -> Any:
        found = encoders.get(type(value))
        if found is None:
            raise TypeError(f"the parse cache cannot store a {type(value).__name__}")
        code, encoder = found
        return msgpack.ExtType(code, encoder(value))

    def ext_hook(code: int, data: bytes) -> Any:
        decoder = decoders.get(code)
        if decoder is None:
            raise CorruptEntry(f"no stored type has the code {code}")
        return decoder(data)

    def pack_one(value: Any) -> bytes:
        return msgpack.packb(value, default=default, strict_types=True, use_bin_type=True)  # type: ignore[no-any-return]

    def unpack_one(body: bytes | memoryview) -> Any:
        return msgpack.unpackb(body, ext_hook=ext_hook, strict_map_key=False, raw=False, use_list=True)

    return pack_one, unpack_one


def pack(value: Any) -> bytes:
    """``value`` as MessagePack, without a MAC (for values packed inside an entry that carries one)."""
    try:
        return _codec()[0](value)  # type: ignore[no-any-return]
    except UnicodeEncodeError:  # text with lone surrogates somewhere: marked, then packed as an extension
        return _codec()[0](_mark_surrogates(value))  # type: ignore[no-any-return]


def unpack(body: bytes | memoryview) -> Any:
    """What ``pack`` packed."""
    return _codec()[1](body)


def _mark_surrogates(value: Any) -> Any:
    if type(value) is str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return _Surrogates(value)
        return value
    if type(value) is dict:
        return {_mark_surrogates(key): _mark_surrogates(item) for key, item in value.items()}
    if type(value) in (list, tuple, set, frozenset):
        return type(value)(_mark_surrogates(item) for item in value)
    return value
