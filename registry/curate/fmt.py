"""Record files in the canonical form: the writer's key order, quoting and line width, comments kept.

The canonical text of a file is what ``registry.store.writer.record_to_yaml`` writes for the record it holds,
with the keys the file has (``only_set``): the same one emitter for files the registry writes and files
people write, so a written file is always canonical already. Comments travel with the key they stand
above: each comment is found between YAML's tokens (a ``#`` there starts a comment; a ``#`` inside a
value is text), tied to the key path on the next line (or to the file's head, or its end), and put back
on its own line above that key in the new text. A comment after a value on the same line moves to the
line above it. Before anything is written, the new text is read back: it must hold the very same typed
record and the same comments, or the file is left as it is and reported. A record an earlier version wrote in
a form that no longer reads right is brought to today's form (``upgraded``), and only in what it adds.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from registry.errors import RecordFileError, RegistryError
from registry.models import KIND_MODELS, Record, Result
from registry.store.batch import Write, Written, sha256, write_batch
from registry.store.filetypes import special_kind
from registry.store.loader import record_files
from registry.store.writer import record_to_yaml
from registry.store.yamlio import YAML_LOADER, LoadedYaml, Path_, parse_yaml, read_text

HEAD: Path_ = ("<head>",)
END: Path_ = ("<end>",)


@dataclass(frozen=True)
class Comment:
    text: str
    """The comment as written, from its '#' to the end of its line."""
    anchors: tuple[Path_, ...]
    """The key path it stands above, then the keys after it, for a key the new text lacks (a null);
    ``(HEAD,)``: the file's first lines; ``(END,)``: after the last key."""


@dataclass
class Outcome:
    """What formatting found for each file."""

    changed: dict[Path, tuple[str, str]] = field(default_factory=dict)
    """Files whose canonical text differs: (that text, the SHA-256 of the text they hold)."""
    unchanged: list[Path] = field(default_factory=list)
    skipped: dict[Path, str] = field(default_factory=dict)
    """Files left as they are, with why (they do not load, or would lose a comment)."""


def format_files(root: Path, paths: list[Path] | None = None) -> Outcome:
    """The canonical text of every record file under ``root`` (or of ``paths``, files or folders, inside it)."""
    outcome = Outcome()
    for path in _chosen(root, paths):
        try:
            text = read_text(path)
            outcome_text = canonical_text(text)
        except (RecordFileError, RegistryError) as exc:
            outcome.skipped[path] = exc.message
            continue
        except (yaml.YAMLError, ValueError, RecursionError) as exc:  # a file validate reads, that this reading cannot
            where = getattr(exc, "problem_mark", None)
            line = f" (line {where.line + 1})" if where is not None else ""
            outcome.skipped[path] = (f"the formatter could not place its comments{line}: "
                                     f"{' '.join(str(exc).split())[:200]}; it was left as it is")
            continue
        if outcome_text == text:
            outcome.unchanged.append(path)
        else:
            outcome.changed[path] = (outcome_text, sha256(text))
    return outcome


def rewrite(root: Path, outcome: Outcome) -> Written:
    """Put every changed file's canonical text in place, as one batch (a file changed meanwhile stops it all)."""
    return write_batch(root, [Write(path, text, replaces=digest) for path, (text, digest) in outcome.changed.items()])


def canonical_text(text: str) -> str:
    """``text`` (one record file) in the canonical form, or a RegistryError saying why it cannot be. A record in a
    form an earlier version wrote is brought to today's (``upgraded``)."""
    original = parse_yaml(text)
    record = upgraded(_typed(original))
    canonical = record_to_yaml(record, only_set=True)
    if canonical == text:
        return text  # canonical already (so without comments): nothing to carry over or check
    text = text.removeprefix("\ufeff")  # a byte order mark is no part of the canonical form (nor of a comment)
    comments = comments_in(text, original) if "#" in text else []
    result = with_comments(canonical, parse_yaml(canonical), comments) if comments else canonical
    again = parse_yaml(result)
    if _typed(again) != record:  # the writer checks this for new records; here it guards the comments too
        raise RegistryError("formatting would change the record's values, so the file was left as it is")
    if comments and sorted(c.text for c in comments_in(result, again)) != sorted(c.text for c in comments):
        raise RegistryError("formatting would lose a comment, so the file was left as it is",
                            "move the comment onto a line of its own above a key")
    return result


def upgraded(record: Record) -> Record:
    """``record`` in today's form: a result whose unit_detail quotes a phrase holding its unit's form ("Printed as
    'in percent'", as the README asked a week before unit_printed) gets that form as unit_printed ('percent'), the
    sentence kept. ``registry validate`` names this command for it (code unit-detail-old-form)."""
    from registry.units import table
    from registry.validate.rules.units import upgraded_unit

    if isinstance(record, Result):
        own = upgraded_unit(record, table())
        if own is not None:
            return record.model_copy(update={"unit_printed": own})
    return record


def _typed(doc: LoadedYaml) -> Record:
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str) or data["kind"] not in KIND_MODELS:
        raise RegistryError("the file is not a record of a known kind; run 'registry validate' to see why")
    try:
        return KIND_MODELS[data["kind"]].model_validate(data)
    except ValueError:
        raise RegistryError("the record does not load; run 'registry validate' and fix it first") from None


# -- comments ------------------------------------------------------------------------------------


def comments_in(text: str, doc: LoadedYaml) -> list[Comment]:
    """Every comment of ``text`` in order, each tied to the key path it stands above."""
    keys = sorted(((line, len(path), path) for path, line in doc.lines.items() if path), key=lambda k: (k[0], k[1]))
    first_key = keys[0][0] if keys else None
    found: list[Comment] = []
    for line, own_line, comment in _raw_comments(text):
        if first_key is None or (own_line and line < first_key):
            anchors: tuple[Path_, ...] = (HEAD,)
        elif own_line:
            anchors = (*(path for at, _, path in keys if at > line), END)
        else:  # after a value: the innermost key started on or before its line, then the keys after it
            before = [k for k in keys if k[0] <= line]
            if not before:  # on the line of the first key, before it (a flow mapping's '{'): the file's head
                found.append(Comment(comment, (HEAD,)))
                continue
            innermost = max(before, key=lambda k: (k[0], k[1]))
            anchors = (innermost[2], *(path for at, _, path in keys if at > line), END)
        found.append(Comment(comment, anchors))
    return found


def _raw_comments(text: str) -> Iterator[tuple[int, bool, str]]:
    """(line, whether it has the line to itself, text) of every comment: text between tokens that starts with '#'."""
    tokens = list(yaml.scan(text, Loader=YAML_LOADER))  # the loader records are read with (a tab after ':' is fine)
    spans = [(token.start_mark.index, token.end_mark.index) for token in tokens]
    for token in tokens:  # a block scalar's header line ('key: |  # ...') is inside its token
        if isinstance(token, yaml.ScalarToken) and token.style in ("|", ">"):
            start = token.start_mark.index
            header = text[start:text.find("\n", start)]
            if "#" in header:
                at = start + header.index("#")
                yield token.start_mark.line + 1, False, text[at:start + len(header)].rstrip()
    covered = 0
    gaps: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if start > covered:
            gaps.append((covered, start))
        covered = max(covered, end)
    if covered < len(text):
        gaps.append((covered, len(text)))
    for start, end in gaps:
        at = text.find("#", start, end)
        while at >= 0:
            stop = text.find("\n", at, end)
            stop = end if stop < 0 else stop
            line_start = text.rfind("\n", 0, at) + 1
            yield text.count("\n", 0, at) + 1, not text[line_start:at].strip(), text[at:stop].rstrip()
            at = text.find("#", stop, end)


def with_comments(canonical: str, doc: LoadedYaml, comments: list[Comment]) -> str:
    """``canonical`` with each comment on its own line above its key (at the key's indentation)."""
    rows = canonical.splitlines(keepends=True)
    line_of = {path: line for path, line in doc.lines.items() if path}
    head: list[str] = []
    tail: list[str] = []
    above: dict[int, list[str]] = {}
    for comment in comments:
        anchor = next(a for a in comment.anchors if a in (HEAD, END) or a in line_of)
        if anchor == HEAD:
            head.append(comment.text)
        elif anchor == END:
            tail.append(comment.text)
        else:
            above.setdefault(line_of[anchor], []).append(comment.text)
    out = [f"{text}\n" for text in head]
    for number, row in enumerate(rows, start=1):
        indent = " " * (len(row) - len(row.lstrip(" ")))
        out += [f"{indent}{text}\n" for text in above.get(number, [])]
        out.append(row)
    out += [f"{text}\n" for text in tail]
    return "".join(out)


def _chosen(root: Path, paths: list[Path] | None) -> list[Path]:
    if not paths:
        return list(record_files(root))
    chosen: list[Path] = []
    base = root.resolve()
    for path in paths:
        if not path.resolve().is_relative_to(base):
            raise RegistryError(f"{path} is not inside {{records}}", "give files or folders below the records folder")
        if path.is_dir():
            chosen += list(record_files(path))
        elif path.is_file():
            chosen.append(path)
        elif os.path.lexists(path):  # a pipe, a device, a dangling link: never opened
            kind = special_kind(os.lstat(path).st_mode) or "a link to nothing"
            raise RegistryError(f"{path} is {kind}, not a regular file or a folder; it was not read",
                                "give record files or folders")
        else:
            raise RegistryError(f"{path} does not exist", "give record files or folders that exist")
    return chosen
