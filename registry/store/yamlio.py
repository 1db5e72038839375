"""Reading and writing record files.

Records are YAML read with PyYAML's *safe* loader only: no tags that build
Python objects, no anchors or aliases (an alias bomb can expand a small file
into gigabytes), no duplicate keys (YAML would silently keep the last one). The
reader also remembers the line of every key, so that every problem found later
can point at ``file:line``.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import os
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml

from registry.errors import RecordFileError
from registry.issues import codes
from registry.store.atomic import current_umask as current_umask  # moved to registry.store.atomic; kept for old imports
from registry.store.atomic import sync_folder as sync_folder
from registry.store.atomic import write_atomic as write_atomic
from registry.store.fastyaml import read_plain

#: Record files are small; anything larger is a mistake (or an attack).
MAX_FILE_BYTES = 1_000_000
#: Records are a few levels deep; a deeper document is a mistake (and would exhaust the stack).
MAX_DEPTH = 32

Path_ = tuple[str | int, ...]

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # type: ignore[assignment]
#: The loader records are read with, for readers that scan a record's tokens as its values were read.
YAML_LOADER = _Loader


class LoadedYaml:
    """A parsed document and the line (1-based) of every key path in it, worked out on first use.

    The fast path (``registry.store.fastyaml``) gives the data without lines; only a file with a problem
    needs them, and PyYAML then composes its text again for them (``key_lines``, which builds no value).
    ``source`` is that text, or the
    file's (path, digest): it is read again then, and if it has changed since, no line is given
    rather than a wrong one.
    """

    __slots__ = ("_lines", "_source", "data")

    def __init__(self, data: Any, lines: dict[Path_, int] | None = None,
                 source: str | tuple[Path, bytes] | None = None) -> None:
        self.data = data
        self._lines = lines
        self._source = source

    @property
    def lines(self) -> dict[Path_, int]:
        if self._lines is None:
            self._lines = _key_lines(self._source)
            if isinstance(self._source, str):
                self._source = None  # the text is not needed again (a file's path and digest are kept)
        return self._lines

    @property
    def digest(self) -> bytes | None:
        """The digest of the file's content this was read from (``content_digest``), where it is known."""
        return self._source[1] if isinstance(self._source, tuple) else None

    def line_of(self, path: Path_) -> int | None:
        """The line of ``path``, or of its nearest parent that has one."""
        lines = self.lines
        path = tuple(path)
        while path:
            if path in lines:
                return lines[path]
            path = path[:-1]
        return lines.get((), None)


def _key_lines(source: str | tuple[Path, bytes] | None) -> dict[Path_, int]:
    if isinstance(source, tuple):
        path, digest = source
        try:
            raw, _ = read_record(path)
        except RecordFileError:
            return {}
        if content_digest(raw) != digest:
            return {}  # changed since it was read: no line rather than a wrong one
        source = raw.decode("utf-8", errors="replace")
    if source is None:
        return {}
    return dict(_recent_key_lines(source))


@functools.lru_cache(maxsize=256)
def _recent_key_lines(text: str) -> dict[Path_, int]:
    """``key_lines`` of a text composed lately (about 0.5 ms a record file): a process that validates the same
    contents again (a watcher's runs, runs over copies of the same records) asks for their lines again."""
    return key_lines(text)


def content_digest(raw: bytes) -> bytes:
    """What identifies a file's content (BLAKE2b, 128 bits): the parse cache is keyed by it."""
    return hashlib.blake2b(raw, digest_size=16).digest()


def read_text(path: Path, *, inside: Path | None = None) -> str:
    """Read a record file as UTF-8 text, refusing binary and oversized files (see ``read_record``)."""
    return decode(read_record(path, inside=inside)[0])


def read_record(path: Path, *, inside: Path | None = None) -> tuple[bytes, os.stat_result]:
    """A record file's bytes and its status as read (size, times), refusing oversized files.

    With ``inside`` (the records folder), a file that is a symbolic link is read only when its
    target lies inside that folder too: a link to ``~/.ssh/id_rsa`` planted among the records
    must not have its content read, let alone quoted in a message.
    """
    try:
        fd = _open_record(path, inside)
        try:
            status = os.fstat(fd)
            if status.st_size > MAX_FILE_BYTES:
                raise RecordFileError(codes.FILE_TOO_LARGE, f"file is {status.st_size:,} bytes; record files are "
                                                            f"limited to {MAX_FILE_BYTES:,} bytes")
            raw = _read_all(fd, MAX_FILE_BYTES + 1, status.st_size)
        finally:
            os.close(fd)
    except OSError as exc:
        raise RecordFileError(codes.UNREADABLE_FILE, f"cannot read the file: {exc.strerror}") from exc
    if len(raw) > MAX_FILE_BYTES:  # it grew while being read
        raise RecordFileError(codes.FILE_TOO_LARGE, f"file is over {MAX_FILE_BYTES:,} bytes, the limit of a record")
    return raw, status


def decode(raw: bytes) -> str:
    """A record file's bytes as text, refusing binary files."""
    if b"\x00" in raw:
        raise RecordFileError(codes.BINARY_FILE, "file holds NUL bytes: it looks binary, not a YAML record")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordFileError(
            codes.BINARY_FILE, f"file is not UTF-8 text (byte {exc.start} cannot be decoded); save it as UTF-8"
        ) from exc


def _open_record(path: Path, inside: Path | None) -> int:
    """``path`` opened for reading, as a file descriptor; with ``inside``, not through a link to outside it.

    Files are opened without following a final link (``O_NOFOLLOW``), so that only links pay for
    resolving their target, which is then opened the same way: what was checked is what is read.
    The descriptor is read directly (``_read_all``): a buffered file object costs more than the read.
    """
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    if inside is None or not nofollow:
        return os.open(_target_inside(path, inside) if inside is not None and os.path.islink(path) else path,
                       os.O_RDONLY)
    try:
        return os.open(path, os.O_RDONLY | nofollow)
    except OSError:
        if not os.path.islink(path):
            raise
        return os.open(_target_inside(path, inside), os.O_RDONLY | nofollow)


def _read_all(fd: int, limit: int, size: int) -> bytes:
    """Up to ``limit`` bytes from ``fd``, to its end: one read where it gives the ``size`` the file had when opened
    (a regular file is read whole), more where it gives less."""
    raw = os.read(fd, limit)
    if len(raw) >= size or len(raw) >= limit or not raw:
        return raw
    parts = [raw]
    got = len(raw)
    while got < limit and (more := os.read(fd, limit - got)):
        parts.append(more)
        got += len(more)
    return b"".join(parts)


def _target_inside(path: Path, inside: Path) -> str:
    """The real path of the link ``path``, or ``LINK_OUTSIDE`` when it lies outside ``inside``."""
    target = os.path.realpath(path)
    root = os.path.realpath(inside)
    if os.path.commonpath([target, root]) != root:
        raise RecordFileError(codes.LINK_OUTSIDE, "the file is a symbolic link to a file outside the records folder; "
                              "it was not read: copy the record into the folder, or remove the link")
    return target


def parse_yaml(text: str, raw: bytes | None = None) -> LoadedYaml:
    """Parse one YAML document as the safe loader reads it; key lines are worked out when first asked for.

    Most record files use only plain block YAML, which ``registry.store.fastyaml`` reads with yaml-rs
    many times faster than PyYAML, with the same result. Anything else, and every file with a
    problem, goes to PyYAML, which gives the error and its line.
    """
    data = read_plain(text, text.encode("utf-8") if raw is None else raw)
    if data is not None:
        return LoadedYaml(data, source=text)
    return _parse_full(text)


def _parse_full(text: str) -> LoadedYaml:
    """Parse one YAML document with PyYAML's safe loader, recording key lines."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise RecordFileError(codes.EMPTY_FILE, "file holds no YAML document; write one record as a mapping")
        builder = _Builder(loader)
        data = builder.build(node, ())
        return LoadedYaml(data, builder.lines)
    except yaml.MarkedYAMLError as exc:
        last = text.count("\n") + (0 if text.endswith("\n") else 1)  # a problem at the end is on the last line
        line = min(exc.problem_mark.line + 1, last) if exc.problem_mark is not None else None
        problem = exc.problem or "invalid YAML"
        context = f" ({exc.context})" if exc.context else ""
        hint = _SYNTAX_HINTS.get(problem, "")
        raise RecordFileError(codes.YAML_SYNTAX, f"not valid YAML: {problem}{context}{hint}", line=line) from exc
    except yaml.YAMLError as exc:
        raise RecordFileError(codes.YAML_SYNTAX, f"not valid YAML: {exc}") from exc
    finally:
        loader.dispose()


#: What to do about the YAML mistakes curators make most.
_COLON_HINT = (
    "; a value that holds ': ' (a locator such as \"Figure 3 (page 6): '...'\") must be quoted, or written as a "
    "block: 'key: >-' with the text on the lines below, indented"
)
_SYNTAX_HINTS = {
    "mapping values are not allowed here": _COLON_HINT,  # PyYAML's words
    "mapping values are not allowed in this context": _COLON_HINT,  # libyaml's
}


#: What a scalar of each tag must look like, for the message when it does not.
_TAG_FORMS = {
    "tag:yaml.org,2002:bool": "a true/false value (write true or false)",
    "tag:yaml.org,2002:int": "an integer (write its digits)",
    "tag:yaml.org,2002:float": "a number (write its digits)",
    "tag:yaml.org,2002:timestamp": "a date or time (write 2026-11-20, or 2026-11-20T12:00:00Z)",
}


def _unreadable(node: yaml.Node, exc: Exception) -> str:
    """What is wrong with a scalar PyYAML could not construct, quoting it only as a short excerpt."""
    from registry.textsafe import excerpt

    form = _TAG_FORMS.get(node.tag)
    if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
        reason = "it has more digits than an integer can be read with (4,300)"
    elif node.tag == "tag:yaml.org,2002:timestamp" and isinstance(exc, (ValueError, OverflowError)) and str(exc):
        reason = str(exc)  # 'day is out of range for month': worth saying as it is (it quotes nothing)
    else:
        reason = f"it is not {form}" if form else f"it is not a value of its tag {node.tag!r}"
    return f"{excerpt(node.value)} cannot be read: {reason}; write a real value, or quote it as text"


class _Builder:
    """Turns a composed YAML node tree into plain data, refusing aliases and duplicate keys."""

    def __init__(self, loader: yaml.SafeLoader) -> None:
        self.loader = loader
        self.lines: dict[Path_, int] = {}
        self.seen: set[int] = set()

    def build(self, node: yaml.Node, path: Path_) -> Any:
        if id(node) in self.seen:
            raise RecordFileError(
                codes.YAML_ALIAS,
                "YAML anchors and aliases are not allowed in record files; write the value out in full",
                line=node.start_mark.line + 1,
            )
        self.seen.add(id(node))
        self.lines.setdefault(path, node.start_mark.line + 1)
        if len(path) > MAX_DEPTH:
            raise RecordFileError(
                codes.YAML_TOO_DEEP, f"values nest more than {MAX_DEPTH} levels deep; records are shallow",
                line=node.start_mark.line + 1,
            )
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, (*path, index)) for index, child in enumerate(node.value)]
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.MarkedYAMLError:
            raise  # a tag PyYAML does not know: a syntax error, with its line
        except Exception as exc:  # noqa: BLE001 - PyYAML's constructors fail in many ways on bad values
            # '2026-02-30', '!!bool maybe', '!!timestamp nope', an integer of 5,000 digits: say which
            # value, and what it was read as, not where in PyYAML.
            raise RecordFileError(codes.INVALID_VALUE, _unreadable(node, exc), line=node.start_mark.line + 1) from exc

    def _mapping(self, node: yaml.MappingNode, path: Path_) -> dict[Any, Any]:
        if any(key.tag == "tag:yaml.org,2002:merge" for key, _ in node.value):
            raise RecordFileError(codes.YAML_ALIAS, "YAML merge keys ('<<') are not allowed in record files",
                                  line=node.start_mark.line + 1)
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = self.build(key_node, path)
            if not isinstance(key, (str, int)):
                raise RecordFileError(codes.YAML_SYNTAX, f"mapping keys must be plain text, found {key!r}",
                                      line=key_node.start_mark.line + 1)
            if key in result:
                raise RecordFileError(
                    codes.DUPLICATE_KEY,
                    f"key {key!r} appears twice in the same mapping; keep one",
                    line=key_node.start_mark.line + 1,
                )
            self.lines[(*path, key)] = key_node.start_mark.line + 1
            result[key] = self.build(value_node, (*path, key))
        return result


#: The tags the lines-only walk needs: text is the one a scalar never fails to be read as; merge keys are refused.
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"


class _Refused(Exception):
    """The text is one ``_Builder`` refuses: it has no key lines."""


class _LinesLoader(_Loader):  # type: ignore[valid-type, misc]
    """The records' loader with the hooks its composer calls for every node made as cheap as they can be.

    The tags are the same: a plain scalar's by the same implicit resolvers, tried in the same order;
    the resolver's path hooks do nothing, as the safe loader declares no path resolvers (where some
    library has added any, or a wildcard resolver, ``key_lines`` composes with the records' loader).
    """

    def resolve(self, kind: type[yaml.Node], value: str, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode:
            if implicit[0]:
                for tag, regexp in self.yaml_implicit_resolvers.get(value[:1], ()):
                    if regexp.match(value):
                        return tag
            return _STR_TAG
        return self.DEFAULT_SEQUENCE_TAG if kind is yaml.SequenceNode else self.DEFAULT_MAPPING_TAG

    def descend_resolver(self, current_node: yaml.Node | None, current_index: Any) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass


def key_lines(text: str) -> dict[Path_, int]:
    """The line of every key path in ``text``, exactly as ``_parse_full(text).lines``; ``{}`` where it refuses the text.

    Lines are asked for only after the data came another way (the fast path, the parse cache), so
    building the data again is waste: this walks the composed node tree for keys and their lines,
    and constructs only what ``_Builder`` could refuse (keys and scalars that are not plain text:
    '2026-02-30', '!!bool maybe', 1.5 as a key). ``tests/test_key_lines.py`` checks it gives the full
    build's lines on every file and on hostile YAML; ``benchmarks/bench_key_lines.py`` times both.
    """
    plain = not _Loader.yaml_path_resolvers and None not in _Loader.yaml_implicit_resolvers
    loader = (_LinesLoader if plain else _Loader)(text)
    try:
        node = loader.get_single_node()
        return {} if node is None else _walk_lines(loader, node)
    except (_Refused, yaml.YAMLError):
        return {}
    finally:
        loader.dispose()


def _walk_lines(loader: yaml.SafeLoader, root: yaml.Node) -> dict[Path_, int]:
    """``_Builder``'s walk with only what decides lines or refusal: the same checks, in the same order.

    A mapping's scalar values, most of a record, are checked in the mapping's loop rather than by a call each.
    """
    lines: dict[Path_, int] = {}
    seen: set[int] = set()
    scalar_node, mapping_node, sequence_node = yaml.ScalarNode, yaml.MappingNode, yaml.SequenceNode

    def constructed(node: yaml.Node) -> Any:
        """A scalar that is not text, as the full build constructs it; refused where that fails."""
        try:
            return loader.construct_object(node, deep=True)
        except Exception as exc:  # noqa: BLE001 - whatever fails, _Builder refuses the file
            raise _Refused from exc

    def walk(node: yaml.Node, path: Path_) -> None:
        if id(node) in seen or len(path) > MAX_DEPTH:
            raise _Refused  # an alias, or too deep
        seen.add(id(node))
        if path not in lines:
            lines[path] = node.start_mark.line + 1
        cls = type(node)
        if cls is mapping_node:
            pairs = node.value
            if any(key.tag == _MERGE_TAG for key, _ in pairs):
                raise _Refused
            keys: set[str | int] = set()
            deep = len(path) + 1 > MAX_DEPTH
            for key_node, value_node in pairs:
                if id(key_node) in seen or type(key_node) is not scalar_node:
                    raise _Refused  # an alias, or a mapping or sequence as a key
                seen.add(id(key_node))
                key = key_node.value if key_node.tag == _STR_TAG else constructed(key_node)
                if not isinstance(key, (str, int)) or key in keys:
                    raise _Refused  # not plain text, or a duplicate
                keys.add(key)
                lines[(*path, key)] = key_node.start_mark.line + 1
                if type(value_node) is scalar_node:  # walk(value_node, (*path, key)), its line set just above
                    if id(value_node) in seen or deep:
                        raise _Refused
                    seen.add(id(value_node))
                    if value_node.tag != _STR_TAG:
                        constructed(value_node)
                else:
                    walk(value_node, (*path, key))
        elif cls is sequence_node:
            for index, child in enumerate(node.value):
                walk(child, (*path, index))
        elif cls is scalar_node:
            if node.tag != _STR_TAG:
                constructed(node)
        else:
            raise _Refused  # no other node is composed

    walk(root, ())
    return lines


# --- writing -------------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    """Block style, keys in the order given, multi-line strings as literal blocks.

    Never anchors or aliases: the same object twice in a record (a Decimal shared by two
    fields) is written out twice, since record files refuse aliases on reading.
    """

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _represent_decimal(dumper: yaml.SafeDumper, value: Decimal) -> yaml.Node:
    # Quoted, so that no YAML reader turns an exact decimal into a binary float.
    return dumper.represent_scalar("tag:yaml.org,2002:str", str(value), style="'")


def _represent_datetime(dumper: yaml.SafeDumper, value: dt.datetime) -> yaml.Node:
    text = value.isoformat().replace("+00:00", "Z")
    return dumper.represent_scalar("tag:yaml.org,2002:timestamp", text)


_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(Decimal, _represent_decimal)
_Dumper.add_representer(dt.datetime, _represent_datetime)


def dump_yaml(data: Mapping[str, Any]) -> str:
    return yaml.dump(dict(data), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
