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
import tempfile
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml

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


def read_text(path: Path) -> str:
    """Read a record file as UTF-8 text, refusing binary and oversized files."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise RecordFileError("unreadable-file", f"cannot read the file: {exc.strerror}") from exc
    if size > MAX_FILE_BYTES:
        raise RecordFileError(
            "file-too-large", f"file is {size:,} bytes; record files are limited to {MAX_FILE_BYTES:,} bytes"
        )
    raw = path.read_bytes()
    if b"\x00" in raw:
        raise RecordFileError("binary-file", "file holds NUL bytes: it looks binary, not a YAML record")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordFileError(
            "binary-file", f"file is not UTF-8 text (byte {exc.start} cannot be decoded); save it as UTF-8"
        ) from exc


def parse_yaml(text: str) -> LoadedYaml:
    """Parse one YAML document with the safe loader, recording key lines."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise RecordFileError("empty-file", "file holds no YAML document; write one record as a mapping")
        builder = _Builder(loader)
        data = builder.build(node, ())
        return LoadedYaml(data, builder.lines)
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark is not None else None
        problem = exc.problem or "invalid YAML"
        context = f" ({exc.context})" if exc.context else ""
        raise RecordFileError("yaml-syntax", f"not valid YAML: {problem}{context}", line=line) from exc
    except yaml.YAMLError as exc:
        raise RecordFileError("yaml-syntax", f"not valid YAML: {exc}") from exc
    finally:
        loader.dispose()


class _Builder:
    """Turns a composed YAML node tree into plain data, refusing aliases and duplicate keys."""

    def __init__(self, loader: yaml.SafeLoader) -> None:
        self.loader = loader
        self.lines: dict[Path_, int] = {}
        self.seen: set[int] = set()

    def build(self, node: yaml.Node, path: Path_) -> Any:
        if id(node) in self.seen:
            raise RecordFileError(
                "yaml-alias",
                "YAML anchors and aliases are not allowed in record files; write the value out in full",
                line=node.start_mark.line + 1,
            )
        self.seen.add(id(node))
        self.lines.setdefault(path, node.start_mark.line + 1)
        if len(path) > MAX_DEPTH:
            raise RecordFileError(
                "yaml-too-deep", f"values nest more than {MAX_DEPTH} levels deep; records are shallow",
                line=node.start_mark.line + 1,
            )
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, (*path, index)) for index, child in enumerate(node.value)]
        try:
            return self.loader.construct_object(node, deep=True)
        except (ValueError, OverflowError) as exc:
            # PyYAML reads 2026-02-30 as a date and fails; say which value, not where in PyYAML.
            raise RecordFileError(
                "invalid-value", f"{node.value!r} cannot be read: {exc}; write a real date or quote the text",
                line=node.start_mark.line + 1,
            ) from exc

    def _mapping(self, node: yaml.MappingNode, path: Path_) -> dict[Any, Any]:
        if any(key.tag == "tag:yaml.org,2002:merge" for key, _ in node.value):
            raise RecordFileError(
                "yaml-alias", "YAML merge keys ('<<') are not allowed in record files", line=node.start_mark.line + 1
            )
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = self.build(key_node, path)
            if not isinstance(key, (str, int)):
                raise RecordFileError(
                    "yaml-syntax", f"mapping keys must be plain text, found {key!r}", line=key_node.start_mark.line + 1
                )
            if key in result:
                raise RecordFileError(
                    "duplicate-key",
                    f"key {key!r} appears twice in the same mapping; keep one",
                    line=key_node.start_mark.line + 1,
                )
            self.lines[(*path, key)] = key_node.start_mark.line + 1
            result[key] = self.build(value_node, (*path, key))
        return result


# --- writing -------------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    """Block style, keys in the order given, multi-line strings as literal blocks."""


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


def write_atomic(path: Path, text: str, *, overwrite: bool = False) -> None:
    """Write ``text`` to a temporary file beside ``path``, fsync it, then rename it into place.

    A failure or a kill part-way leaves either the old file or none, never half a file.
    With ``overwrite=False`` an existing file is never replaced: records are append-only.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path} already exists; records are never overwritten")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if overwrite:
            os.replace(tmp, path)
        else:
            # link() fails if the target appeared meanwhile, so a concurrent writer is never clobbered.
            os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
