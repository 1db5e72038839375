"""Reading and writing record files.

Records are YAML read with PyYAML's *safe* loader only: no tags that build
Python objects, no anchors or aliases (an alias bomb can expand a small file
into gigabytes), no duplicate keys (YAML would silently keep the last one). The
reader also remembers the line of every key, so that every problem found later
can point at ``file:line``.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any, BinaryIO

import yaml

from registry import codes
from registry.atomic import current_umask as current_umask  # moved to registry.atomic; kept for old imports
from registry.atomic import sync_folder as sync_folder
from registry.atomic import write_atomic as write_atomic
from registry.errors import RecordFileError

#: Record files are small; anything larger is a mistake (or an attack).
MAX_FILE_BYTES = 1_000_000
#: Records are a few levels deep; a deeper document is a mistake (and would exhaust the stack).
MAX_DEPTH = 32

Path_ = tuple[str | int, ...]

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # type: ignore[assignment]


class LoadedYaml:
    """A parsed document and the line (1-based) of every key path in it."""

    __slots__ = ("data", "lines")

    def __init__(self, data: Any, lines: dict[Path_, int]) -> None:
        self.data = data
        self.lines = lines

    def line_of(self, path: Path_) -> int | None:
        """The line of ``path``, or of its nearest parent that has one."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), None)


def read_text(path: Path, *, inside: Path | None = None) -> str:
    """Read a record file as UTF-8 text, refusing binary and oversized files.

    With ``inside`` (the records folder), a file that is a symbolic link is read only when its
    target lies inside that folder too: a link to ``~/.ssh/id_rsa`` planted among the records
    must not have its content read, let alone quoted in a message.
    """
    try:
        with _open_record(path, inside) as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_FILE_BYTES:
                raise RecordFileError(codes.FILE_TOO_LARGE,
                                      f"file is {size:,} bytes; record files are limited to {MAX_FILE_BYTES:,} bytes")
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise RecordFileError(codes.UNREADABLE_FILE, f"cannot read the file: {exc.strerror}") from exc
    if len(raw) > MAX_FILE_BYTES:  # it grew while being read
        raise RecordFileError(codes.FILE_TOO_LARGE, f"file is over {MAX_FILE_BYTES:,} bytes, the limit of a record")
    if b"\x00" in raw:
        raise RecordFileError(codes.BINARY_FILE, "file holds NUL bytes: it looks binary, not a YAML record")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordFileError(
            codes.BINARY_FILE, f"file is not UTF-8 text (byte {exc.start} cannot be decoded); save it as UTF-8"
        ) from exc


def _open_record(path: Path, inside: Path | None) -> BinaryIO:
    """``path`` opened for reading; with ``inside``, not through a link whose target lies outside it.

    Files are opened without following a final link (``O_NOFOLLOW``), so that only links pay for
    resolving their target, which is then opened the same way: what was checked is what is read.
    """
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    if inside is None or not nofollow:
        return open(_target_inside(path, inside) if inside is not None and os.path.islink(path) else path, "rb")
    try:
        fd = os.open(path, os.O_RDONLY | nofollow)
    except OSError:
        if not os.path.islink(path):
            raise
        fd = os.open(_target_inside(path, inside), os.O_RDONLY | nofollow)
    return os.fdopen(fd, "rb")


def _target_inside(path: Path, inside: Path) -> str:
    """The real path of the link ``path``, or ``LINK_OUTSIDE`` when it lies outside ``inside``."""
    target = os.path.realpath(path)
    root = os.path.realpath(inside)
    if os.path.commonpath([target, root]) != root:
        raise RecordFileError(codes.LINK_OUTSIDE, "the file is a symbolic link to a file outside the records folder; "
                              "it was not read: copy the record into the folder, or remove the link")
    return target


def parse_yaml(text: str) -> LoadedYaml:
    """Parse one YAML document with the safe loader, recording key lines.

    Most record files use only plain block YAML (keys, scalars, lists, folded text), which
    ``_FastReader`` reads several times faster than PyYAML composes it, with the same result.
    Anything else, and every file with a problem, goes to PyYAML, which gives the error.
    """
    try:
        return _FastReader(text).read()
    except _NotSimple:
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
        line = exc.problem_mark.line + 1 if exc.problem_mark is not None else None
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


# --- the fast path -----------------------------------------------------------------------


class _NotSimple(Exception):
    """The text uses YAML the fast reader does not handle (or is invalid): PyYAML reads it instead."""


_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]*):(?: +|$)")
_RESOLVERS = yaml.SafeLoader.yaml_implicit_resolvers
_CONSTRUCTORS = yaml.SafeLoader.yaml_constructors
_CONSTRUCTED_TAGS = frozenset(
    "tag:yaml.org,2002:" + name for name in ("null", "bool", "int", "float", "timestamp")
)
_CONSTRUCTOR = yaml.SafeLoader("")
#: Characters that make the fast reader step aside: tabs, other line breaks, byte-order marks.
_UNUSUAL = re.compile("[\t\r\x85\u2028\u2029\ufeff]")
#: A plain scalar cannot start with these (or the fast reader leaves it to PyYAML).
_INDICATORS = frozenset("'\"[]{}#&*!|>%@`,?:")
_FAST_MAX_DEPTH = 16
#: Plain keys already known to read as text (not as a number, a flag or null).
_STR_KEYS: set[str] = set()


class _FastReader:
    """Reads the plain block YAML that record files use, exactly as PyYAML's safe loader would.

    Handled: block mappings with plain keys; block sequences of scalars or of mappings; plain,
    single-quoted and escape-free double-quoted scalars (plain and single-quoted ones may fold over
    several lines); one-line flow lists of plain scalars; literal and folded block scalars (clip or
    strip, uniform indentation, no blank lines inside); comments. Plain scalars are typed by PyYAML's
    own resolvers and constructors. Anything else raises ``_NotSimple`` (never a wrong answer):
    anchors, aliases, tags, duplicate keys, flow mappings, escapes, tabs, odd indentation, blank
    lines inside values, errors of any kind.
    """

    def __init__(self, text: str) -> None:
        if _UNUSUAL.search(text) or yaml.reader.Reader.NON_PRINTABLE.search(text):
            raise _NotSimple
        self.rows = rows = text.split("\n")
        #: Each row's indentation, or -1 for a blank or comment-only row.
        self.indents: list[int] = [
            len(row) - len(stripped) if stripped and stripped[0] != "#" else -1
            for row, stripped in zip(rows, [row.lstrip(" ") for row in rows], strict=True)
        ]
        self.lines: dict[Path_, int] = {}

    def read(self) -> LoadedYaml:
        start = self._skip(0)
        if start >= len(self.rows) or self.indents[start] != 0:
            raise _NotSimple
        data, end = self._mapping(start, 0, ())
        if self._skip(end) < len(self.rows):
            raise _NotSimple
        self.lines[()] = start + 1
        return LoadedYaml(data, self.lines)

    def _skip(self, i: int) -> int:
        """The next row at or after ``i`` that is neither blank nor a comment."""
        indents = self.indents
        while i < len(indents) and indents[i] < 0:
            i += 1
        return i

    def _mapping(self, i: int, indent: int, path: Path_) -> tuple[dict[str, Any], int]:
        if len(path) > _FAST_MAX_DEPTH:
            raise _NotSimple
        rows, indents, lines = self.rows, self.indents, self.lines
        result: dict[str, Any] = {}
        count = len(rows)
        while True:
            while i < count and indents[i] < 0:
                i += 1
            if i >= count or indents[i] < indent:
                return result, i
            row = rows[i]
            match = _KEY.match(row, indent) if indents[i] == indent else None
            if match is None:
                at = indents[i]
                if at == indent and (row.startswith("- ", at) or row[at:] == "-"):
                    return result, i  # a sequence at its key's indentation ends here, in the caller
                raise _NotSimple
            key = match.group(1)
            if key in result:
                raise _NotSimple
            if key not in _STR_KEYS:
                if type(_resolve(key)) is not str:
                    raise _NotSimple
                if len(_STR_KEYS) < 10_000:
                    _STR_KEYS.add(key)
            here = (*path, key)
            lines[here] = i + 1
            rest = row[match.end():].rstrip(" ")
            if not rest or rest[0] == "#":
                result[key], i = self._nested(i, indent, here)
            elif rest[0] in "|>":
                result[key], i = self._block_scalar(rest, i, indent)
            elif i + 1 < count and indents[i + 1] > indent:
                result[key], i = self._folded(rest, i, indent, here)
            else:
                result[key] = self._inline(rest, here, i + 1)
                i += 1

    def _nested(self, i: int, indent: int, path: Path_) -> tuple[Any, int]:
        """The value of a key with nothing after its colon: a nested block, or null."""
        j = self._skip(i + 1)
        if j < len(self.rows):
            row, at = self.rows[j], self.indents[j]
            is_item = row.startswith("- ", at) or row[at:] == "-"
            if at > indent:
                return self._sequence(j, at, path) if is_item else self._mapping(j, at, path)
            if at == indent and is_item:
                return self._sequence(j, at, path)
        return None, i + 1

    def _sequence(self, i: int, indent: int, path: Path_) -> tuple[list[Any], int]:
        if len(path) > _FAST_MAX_DEPTH:
            raise _NotSimple
        rows, indents = self.rows, self.indents
        items: list[Any] = []
        count = len(rows)
        while True:
            while i < count and indents[i] < 0:
                i += 1
            if i >= count or indents[i] < indent:
                return items, i
            row = rows[i]
            if indents[i] > indent or row[indent:] == "-":
                raise _NotSimple
            if not row.startswith("- ", indent):
                return items, i
            content = len(row) - len(row[indent + 2:].lstrip(" "))
            rest = row[content:].rstrip(" ")
            here = (*path, len(items))
            if not rest or rest[0] in "#|>-":
                raise _NotSimple
            self.lines[here] = i + 1
            if _KEY.match(rest):
                # '- key: value' starts a mapping whose keys line up under 'key'.
                rows[i] = " " * content + rest
                indents[i] = content
                value, i = self._mapping(i, content, here)
            elif i + 1 < count and indents[i + 1] > indent:
                value, i = self._folded(rest, i, indent, here)
            else:
                value = self._inline(rest, here, i + 1)
                i += 1
            items.append(value)

    def _block_scalar(self, header: str, i: int, indent: int) -> tuple[str, int]:
        if header not in ("|", "|-", ">", ">-"):
            raise _NotSimple
        rows = self.rows
        j = i + 1
        if j >= len(rows):
            raise _NotSimple
        first = rows[j]
        block = len(first) - len(first.lstrip(" "))
        if block <= indent or not first.strip(" "):
            raise _NotSimple
        lines = []
        while j < len(rows):
            row = rows[j]
            at = len(row) - len(row.lstrip(" "))
            if not row.strip(" ") or at < block:
                break
            if row[-1] == " " or (at > block and header[0] == ">"):
                raise _NotSimple
            lines.append(row[block:])
            j += 1
        if j >= len(rows):
            raise _NotSimple  # runs to the end of a file without a final line break
        k = j
        while k < len(rows) and not rows[k].strip(" "):
            if rows[k]:
                raise _NotSimple  # a line of spaces after the block: PyYAML may read it as content
            k += 1
        if k < len(rows) and len(rows[k]) - len(rows[k].lstrip(" ")) >= block:
            raise _NotSimple  # blank lines inside the block
        text = ("\n" if header[0] == "|" else " ").join(lines)
        return (text if header.endswith("-") else text + "\n"), j

    def _folded(self, text: str, i: int, indent: int, path: Path_) -> tuple[Any, int]:
        """A plain or single-quoted scalar that goes on over the rows indented past ``indent``."""
        rows, indents, j, more = self.rows, self.indents, i + 1, []
        while j < len(rows) and indents[j] > indent:
            more.append(rows[j].strip(" "))
            j += 1
        after = self._skip(j)
        if after < len(rows) and indents[after] > indent:
            raise _NotSimple  # blank or comment lines inside the scalar
        joined = " ".join([text, *more])  # each line break inside reads as a space
        if text[0] == "'":
            value, end = _single_quoted(joined)
            if end < len(joined) - len(more[-1]):
                raise _NotSimple  # the quote closes before the last line: what follows it is not a comment
            return value, j
        if text[0] in "\"[" or " #" in text or any(
            line[0] in _INDICATORS or line[:2] == "- " or line == "-" or ": " in line or line.endswith(":")
            or " #" in line for line in more
        ):
            raise _NotSimple
        return self._inline(joined, path, i + 1), j

    def _inline(self, text: str, path: Path_, line: int) -> Any:
        """A scalar or a one-line flow list written after 'key: ' or '- '."""
        first = text[0]
        if first == "'":
            return _single_quoted(text)[0]
        if first == '"':
            end = text.find('"', 1)
            if end < 0 or "\\" in text[1:end]:
                raise _NotSimple
            _only_comment_after(text, end + 1)
            return text[1:end]
        if first == "[":
            end = text.find("]")
            if end < 0:
                raise _NotSimple
            _only_comment_after(text, end + 1)
            inner = text[1:end]
            if not inner.strip(" "):
                return []
            items = []
            for index, item in enumerate(inner.split(",")):
                item = item.strip(" ")
                if not item or item[0] in _INDICATORS or item[:2] in ("- ", "-") or any(c in item for c in ":#[{}"):
                    raise _NotSimple
                self.lines[(*path, index)] = line
                items.append(_resolve(item))
            return items
        comment = text.find(" #")
        if comment >= 0:
            text = text[:comment].rstrip(" ")
        if first in _INDICATORS or text[:2] == "- " or text == "-" or ": " in text or text[-1] == ":":
            raise _NotSimple
        return _resolve(text) if text[0] in _RESOLVERS else text


def _single_quoted(text: str) -> tuple[str, int]:
    """The value of the single-quoted scalar that ``text`` starts with, and where its closing quote is."""
    end = 1
    while True:
        end = text.find("'", end)
        if end < 0:
            raise _NotSimple
        if not text.startswith("''", end):
            break
        end += 2
    _only_comment_after(text, end + 1)
    return text[1:end].replace("''", "'"), end


def _only_comment_after(text: str, end: int) -> None:
    after = text[end:]
    if after and (after[0] != " " or after.lstrip(" ")[:1] not in ("", "#")):
        raise _NotSimple


def _resolve(value: str) -> Any:
    """A plain scalar typed the way PyYAML's safe loader types it (resolver, then constructor)."""
    tag = next((tag for tag, pattern in _RESOLVERS.get(value[:1], ()) if pattern.match(value)), None)
    if tag is None:
        return value
    if tag not in _CONSTRUCTED_TAGS:
        raise _NotSimple
    try:
        return _CONSTRUCTORS[tag](_CONSTRUCTOR, yaml.ScalarNode(tag, value))
    except Exception as exc:  # PyYAML's own reading gives the error, with its line
        raise _NotSimple from exc


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
