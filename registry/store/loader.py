"""Loading a records folder into one typed, id-indexed registry.

Every file is read once; every problem met while reading is added to the report
instead of stopping the load, so that one bad file never hides the others.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from registry.errors import RecordFileError, RegistryError, UnknownRecordError, WrongKindError
from registry.issues import codes
from registry.issues.report import Issue, Report, format_path
from registry.models import KIND_MODELS, Record
from registry.models.fields import FieldPath, references_in
from registry.store import cache as cache_module
from registry.store.cache import ParseCache
from registry.store.collector import gc_paused
from registry.store.compact import compact
from registry.store.filetypes import RECORD_SUFFIXES
from registry.store.reading import documents
from registry.store.typedfiles import Typed, typed_documents
from registry.store.yamlio import LoadedYaml
from registry.textsafe import EXCERPT_CHARS, excerpt
from registry.units import BUILT_IN, UnitTable, use

R = TypeVar("R", bound=Record)


@dataclass
class Registry:
    """All records of one folder, by id, with the file and key lines each came from."""

    root: Path
    records: dict[str, Record] = field(default_factory=dict)
    paths: dict[str, Path] = field(default_factory=dict)
    docs: dict[str, LoadedYaml] = field(default_factory=dict)
    #: Ids of records whose file was read but did not load (schema errors, a duplicate id), with that file.
    failed: dict[str, Path] = field(default_factory=dict)
    _links: tuple[int, dict[str, list[tuple[Record, FieldPath]]]] | None = field(default=None, repr=False,
                                                                                 compare=False)
    _ids: tuple[int, dict[tuple[str, ...] | None, list[str]]] | None = field(default=None, repr=False, compare=False)
    _referrers: tuple[int, dict[tuple[str, type, str], list[Any]]] | None = field(default=None, repr=False,
                                                                                  compare=False)
    _kinds: tuple[int, frozenset[type[Record]]] | None = field(default=None, repr=False, compare=False)
    _units: tuple[int, UnitTable] | None = field(default=None, repr=False, compare=False)
    _by_kind: tuple[int, dict[type, list[Any]]] | None = field(default=None, repr=False, compare=False)

    @property
    def units(self) -> UnitTable:
        """Every unit this registry knows: the built-in ones, then those its unit records declare.

        A unit record that ``registry.validate.rules.units`` refuses (its token taken, a printed form claimed by a
        unit of another dimension) is left out, so that no reader sees two meanings of one token or form.
        """
        if self._units is None or self._units[0] != len(self.records):
            from registry.models.unit import UnitRecord, accept

            accepted, _ = accept(r for r in self.records.values() if isinstance(r, UnitRecord))
            self._units = (len(self.records), BUILT_IN.extended([r.spec() for r in accepted]))
        return self._units[1]

    def __len__(self) -> int:
        return len(self.records)

    def __contains__(self, record_id: object) -> bool:
        return record_id in self.records

    def get(self, record_id: str) -> Record:
        """The record with this id, or ``UnknownRecordError`` with the closest ids."""
        try:
            return self.records[record_id]
        except KeyError:
            raise UnknownRecordError(record_id, self.suggest(record_id)) from None

    def get_as(self, record_id: str, model: type[R]) -> R:
        record = self.get(record_id)
        if not isinstance(record, model):
            raise WrongKindError(record_id, found=record.kind_token, expected=model.kind_token)
        return record

    def suggest(self, record_id: str, limit: int = 5, kinds: list[str] | None = None) -> list[str]:
        """Closest ids (of ``kinds`` only, if given): first those that start with or contain what was typed."""
        ids = self._sorted_ids(None if kinds is None or "*" in kinds else tuple(sorted(kinds)))
        typed = record_id.strip()
        prefixed = [i for i in ids if typed and i.startswith(typed)]
        contains = [i for i in ids if typed and typed in i and i not in prefixed]
        close = [i for i in difflib.get_close_matches(typed, ids, n=limit, cutoff=0.6) if i not in prefixed + contains]
        return (prefixed + contains + close)[:limit]

    def _sorted_ids(self, kinds: tuple[str, ...] | None) -> list[str]:
        """Ids (of ``kinds``) in order, sorted once per registry rather than once per question."""
        if self._ids is None or self._ids[0] != len(self.records):
            self._ids = (len(self.records), {})
        cache = self._ids[1]
        if kinds not in cache:
            cache[kinds] = sorted(i for i, r in self.records.items() if kinds is None or r.kind_token in kinds)
        return cache[kinds]

    def holds(self, *models: type[Record]) -> bool:
        """Whether any record is of one of ``models`` (the models present are found once per registry)."""
        if self._kinds is None or self._kinds[0] != len(self.records):
            self._kinds = (len(self.records), frozenset(type(record) for record in self.records.values()))
        return any(issubclass(present, models) for present in self._kinds[1])

    def of_kind(self, model: type[R]) -> list[R]:
        """The records of ``model`` in id order (a copy), found once per registry and model: a rule of one kind
        asks it of every record it checks (each dataset, for the benchmarks)."""
        if self._by_kind is None or self._by_kind[0] != len(self.records):
            self._by_kind = (len(self.records), {})
        cache = self._by_kind[1]
        if model not in cache:
            cache[model] = sorted((r for r in self.records.values() if isinstance(r, model)), key=lambda r: r.id)
        return list(cache[model])

    def referrers(self, record_id: str, model: type[R], field_name: str) -> list[R]:
        """Records of ``model`` whose ``field_name`` names ``record_id`` (a back link), in id order.

        Each answer is kept with the back-link index (a site build asks the same question of a record
        from many pages: about 30 times per page at 10,000 results); a copy is returned.
        """
        if self._referrers is None or self._referrers[0] != len(self.records) or self._links is None:
            self._referrers = (len(self.records), {})
        memo = self._referrers[1]
        key = (record_id, model, field_name)
        if key not in memo:
            memo[key] = self._find_referrers(record_id, model, field_name)
        return list(memo[key])

    def _find_referrers(self, record_id: str, model: type[R], field_name: str) -> list[R]:
        """The back links of ``referrers``, found afresh from ``links_to``."""
        found = {other.id: other for other, path in self.links_to(record_id)
                 if isinstance(other, model) and path[0] == field_name}
        return [found[name] for name in sorted(found)]

    def links_to(self, record_id: str) -> list[tuple[Record, FieldPath]]:
        """Every (record, field path) whose reference names ``record_id``, in the order records were loaded.

        The back links of the whole registry are indexed on first use, so that pages and tables that ask
        for many of them cost one pass over the records, not one per question.
        """
        if self._links is None or self._links[0] != len(self.records):
            index: dict[str, list[tuple[Record, FieldPath]]] = {}
            for other in self.records.values():
                for path, value, _ in references_in(other):
                    index.setdefault(value, []).append((other, path))
            self._links = (len(self.records), index)
        return list(self._links[1].get(record_id, ()))

    def relpath(self, record_id: str) -> str:
        return display_path(self.paths[record_id], self.root)

    def line_of(self, record_id: str, path: tuple[str | int, ...]) -> int | None:
        doc = self.docs.get(record_id)
        return doc.line_of(path) if doc else None


def display_path(path: Path, root: Path) -> str:
    """A record file's path as one that opens from where the command ran: relative below it, else absolute."""
    full = path if path.is_absolute() else Path.cwd() / path
    try:
        return str(full.relative_to(Path.cwd()))
    except ValueError:
        return str(full)


def scan_record_files(root: Path) -> Iterator[tuple[tuple[str, ...], os.DirEntry[str]]]:
    """Every record file under ``root`` as (path parts below root, directory entry), in no order.

    The one definition of which files are records: hidden names (such as temporary writes) are
    skipped, real folders are entered, links to folders are not, links to files count as files
    (reading refuses those whose target lies outside the records folder, see ``read_text``).
    Walks with ``os.scandir`` and a list of folders still to enter, not recursion: a registry can
    hold hundreds of thousands of files, and folders nested thousands deep.
    """
    pending: list[tuple[str, tuple[str, ...]]] = [(str(root), ())]
    while pending:
        folder, parts = pending.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError:
            continue
        for entry in listed:
            name = entry.name
            if name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append((entry.path, (*parts, name)))
                elif name.endswith(RECORD_SUFFIXES) and entry.is_file():
                    yield (*parts, name), entry
            except OSError:
                continue


def record_files(root: Path) -> Iterator[Path]:
    """Every record file under ``root``, sorted as paths sort (see ``scan_record_files`` for which)."""
    found = sorted((parts, entry.path) for parts, entry in scan_record_files(root))
    for _, path in found:
        yield Path(path)


def load_registry(root: Path, *, cache: bool | None = None, jobs: int | None = None,
                  verify: bool = False) -> tuple[Registry, Report]:
    """Read and type-check every record under ``root``; cross-record checks are in ``checks``.

    Files unchanged since an earlier run are not read or parsed again but taken from the parse
    cache (``registry.store.cache``; ``cache=False`` reads every file, ``None`` follows
    ``$REGISTRY_NO_CACHE``); every record is typed and checked again all the same. Many files to
    parse are parsed in up to ``jobs`` worker processes (default: one per processor). With ``verify``, every
    file is read and its digest decides, not its status (``ParseCache.trust_status``).
    """
    if not root.is_dir():
        raise RegistryError(
            f"records folder {str(root)!r} does not exist",
            "run the command from the project folder, or point {records} at a folder of record files",
        )
    registry = Registry(root=root)
    report = Report()
    found = sorted(((parts, entry.path) for parts, entry in scan_record_files(root)), key=itemgetter(0))
    store = ParseCache.open(root, verify=verify) if (cache_module.enabled() if cache is None else cache) else None
    try:
        with gc_paused():
            loaded = (documents(found, store, jobs=jobs, inside=root, typed=True) if store is not None
                      else typed_documents([path for _, path in found], jobs=jobs, inside=root))
            for path, doc in loaded:
                report.files += 1
                _load_file(path, doc, registry, report)
                if isinstance(doc, LoadedYaml):
                    doc.data = None  # typed now; only its key lines may still be asked for
    finally:
        if store is not None:
            store.close()
    report.records = len(registry.records)
    use(registry.units)  # the units of the registry loaded last are those its pages, cells and numbers read
    if not found:
        report.add(no_records(root))
    return registry, report


def no_records(root: Path) -> Issue:
    """The issue of a records folder that holds no record file (a wrong folder named)."""
    return codes.NO_RECORDS.issue(str(root), None, f"no record files (*.yaml) under {str(root)!r}; point "
                                  "{records} at the folder that holds '<kind>/<id>.yaml' files")


def _load_file(path: Path, doc: LoadedYaml | RecordFileError | Typed, registry: Registry, report: Report) -> None:
    """Type one file's record and add it to ``registry``, or say in ``report`` why it is not a record.

    Nearly every file is a mapping of a known kind, typed at once (or typed already, in a worker process:
    ``typedfiles.Typed``); ``_not_a_record`` tells the others apart, in the order their problems are reported.
    """
    if isinstance(doc, Typed):
        _add(path, doc.doc, registry, report, doc.record)
        return
    data = doc.data if isinstance(doc, LoadedYaml) else None
    kind = data.get("kind") if type(data) is dict else None
    model = KIND_MODELS.get(kind) if type(kind) is str else None
    if model is None:
        _not_a_record(path, doc, registry, report)
    else:
        _typed(path, doc, registry, report, model)  # type: ignore[arg-type]


def _did_not_load(registry: Registry, path: Path, record_id: str | None) -> None:
    # References to this record wait until it loads (one warning, see checks); a file that
    # could not be read is known by its name, which is its id by convention.
    registry.failed.setdefault(record_id or path.stem, path)


def _id_of(data: dict[str, Any]) -> str | None:
    return data.get("id") if isinstance(data.get("id"), str) else None


def _not_a_record(path: Path, doc: LoadedYaml | RecordFileError, registry: Registry, report: Report) -> None:
    """A file that could not be read, holds no mapping, or names no kind or an unknown one."""
    shown = display_path(path, registry.root)
    if isinstance(doc, RecordFileError):
        report.add(doc.code.issue(shown, doc.line, doc.message))
        _did_not_load(registry, path, None)
        return
    data = doc.data
    if not isinstance(data, dict):
        found = "a list" if isinstance(data, list) else f"a single {type(data).__name__} value"
        report.add(codes.NOT_A_MAPPING.issue(
            shown, 1, f"a record file holds one mapping (key: value lines), but this one holds {found}"))
        _did_not_load(registry, path, None)
        return
    record_id = _id_of(data)
    kind = data.get("kind")
    if kind is None:
        report.add(codes.MISSING_KIND.issue(shown, 1, f"the record has no 'kind'; add one of: "
                                            f"{', '.join(KIND_MODELS)}", record_id=record_id, field="kind"))
        _did_not_load(registry, path, record_id)
        return
    model = KIND_MODELS.get(kind) if isinstance(kind, str) else None
    if model is not None:  # a kind token of a type derived from text
        _typed(path, doc, registry, report, model)
        return
    close = difflib.get_close_matches(kind, list(KIND_MODELS), n=1) if isinstance(kind, str) else []
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    report.add(codes.UNKNOWN_KIND.issue(shown, doc.line_of(("kind",)),
                                        f"unknown kind {excerpt(kind)}{hint}; the kinds are: "
                                        f"{', '.join(KIND_MODELS)}",
                                        record_id=record_id, field="kind"))
    _did_not_load(registry, path, record_id)


def _typed(path: Path, doc: LoadedYaml, registry: Registry, report: Report, model: type[Record]) -> None:
    """Type a record of a known kind; add it, unless its id is taken or it does not type."""
    try:
        record = model.model_validate(doc.data)
    except ValidationError as exc:
        _not_typed(path, doc, registry, report, model, exc)
        return
    compact(record)  # a registry holds hundreds of thousands: equal texts and field sets are shared
    _add(path, doc, registry, report, record)


def _add(path: Path, doc: LoadedYaml, registry: Registry, report: Report, record: Record) -> None:
    """Add a typed record, unless its id is taken."""
    if record.id in registry.records:
        _duplicate(path, doc, registry, report, record)
        return
    registry.records[record.id] = record
    registry.paths[record.id] = path
    registry.docs[record.id] = doc


def _not_typed(path: Path, doc: LoadedYaml, registry: Registry, report: Report, model: type[Record],
               exc: ValidationError) -> None:
    """A record that does not type: one issue per error Pydantic found."""
    record_id = _id_of(doc.data)
    _did_not_load(registry, path, record_id)
    shown = display_path(path, registry.root)
    for error in exc.errors(include_url=False):
        loc = tuple(error["loc"])
        report.add(codes.SCHEMA.issue(shown, doc.line_of(loc), _explain(error, model),
                                      code=codes.schema_code(error["type"]), record_id=record_id,
                                      field=format_path(loc) or None))


def _duplicate(path: Path, doc: LoadedYaml, registry: Registry, report: Report, record: Record) -> None:
    """A record whose id another file's record has: the copy is blamed, not the file named '<kind>/<id>.yaml'."""
    kept, kept_path, kept_doc = record, path, doc
    if _well_named(registry.paths[record.id], record) or not _well_named(path, record):
        kept, kept_path, kept_doc = registry.records[record.id], registry.paths[record.id], registry.docs[record.id]
    other_path, other_doc = (registry.paths[record.id], registry.docs[record.id]) if kept is record else (path, doc)
    registry.records[record.id], registry.paths[record.id], registry.docs[record.id] = kept, kept_path, kept_doc
    # Whichever of them was read first.
    report.add(codes.DUPLICATE_ID.issue(display_path(other_path, registry.root), other_doc.line_of(("id",)),
                                        f"id {record.id!r} is already used by "
                                        f"{display_path(kept_path, registry.root)}; ids must be unique",
                                        record_id=record.id, field="id"))


def _well_named(path: Path, record: Record) -> bool:
    return path.stem == record.id and path.parent.name == record.kind_token


def _explain(error: Any, model: type[Record]) -> str:
    """Pydantic's message, reworded where it does not say what to do."""
    loc = error["loc"]
    name = str(loc[-1]) if loc else ""
    kind = model.kind_token
    if error["type"] == "missing":
        return f"required field {name!r} is missing; add it to the {kind}"
    if len(loc) == 1 and error["type"] in ("model_type", "list_type", "dict_type"):
        from registry.store.migrate import missing_instead, suggestion

        gap = missing_instead(name, error.get("input"))
        if gap is not None:
            return (f"{name!r} is typed now, and {excerpt(error.get('input'))} says the source gives none: remove "
                    f"{name!r} and list it as missing instead (add to the list if the record has one): {gap}")
        instead = suggestion(kind, name, error.get("input"))
        if instead is not None and len(instead) > 2 * EXCERPT_CHARS:  # it quotes the old text: only in part
            instead = f"{instead[:2 * EXCERPT_CHARS]}... ({len(instead):,} characters)"
        if instead is not None:
            return (f"{name!r} is typed now, and this is the old free-text shape; write instead (checking each "
                    f"part against the source): {instead}")
    if error["type"] == "extra_forbidden":
        fields = list(model.model_fields) if len(loc) == 1 else []
        close = difflib.get_close_matches(name, fields, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else "; remove it or check its spelling"
        return f"unknown field {name!r} on a {kind}{hint}"
    if error["type"] in ("string_pattern_mismatch", "enum") and name == "unit":
        return _explain_unit(error.get("input"))
    if error["type"] == "string_pattern_mismatch":
        return _explain_pattern(error)
    if error["type"] == "timezone_aware":
        given = error.get("input")
        if hasattr(given, "hour"):  # a time without its zone: keep the time, add one
            example = given.replace(microsecond=0).isoformat() + "Z"
        else:
            example = (given.isoformat() if hasattr(given, "isoformat") else "2026-11-20") + "T00:00:00Z"
        return (f"{name!r} is a moment, so it needs a time with its zone (found {excerpt(given)}); write for example "
                f"{example} (Z: UTC), and say in a note if the source gives only the day")
    if error["type"] == "string_type" and isinstance(error.get("input"), (int, float)):
        return f"expected text but YAML read the number {excerpt(error['input'])}; quote the value ('...')"
    message = str(error["msg"])
    if error["type"] == "value_error" and message.startswith("Value error, "):
        message = message[len("Value error, "):]
    shown = excerpt(error.get("input"))
    return f"{message} (found {shown})" if "input" in error and error["type"] != "value_error" else message


def _explain_unit(given: Any) -> str:
    """A unit that is no unit's token ('GB', 'Gigabytes'): the built-in unit meant, or how to add one. A well-formed
    token the registry lacks is reported by the whole-registry checks, which know its unit records."""
    meant = BUILT_IN.unit_named(given) if isinstance(given, str) else None
    several = BUILT_IN.why_several(given) if isinstance(given, str) else None
    if several is not None:  # 'B': bytes or billions
        listing = several
    elif meant is not None:
        dim = BUILT_IN.spec(meant).dimension
        listing = f"write {meant!r} (the units of {dim.value}: {', '.join(BUILT_IN.units_of(dim))})"
    else:
        listing = f"the built-in units are: {', '.join(BUILT_IN)}; a unit of your own is a unit record (records/unit/)"
    return (f"{excerpt(given)} is not one of the units; {listing}; how the source prints it goes in unit_printed "
            "(for example 'GB')")


def _explain_pattern(error: Any) -> str:
    """Say in words what a pattern wants, instead of printing the regular expression."""
    from registry.ids import ID_PATTERN, MAX_ID_LENGTH
    from registry.models import parse_id

    pattern = (error.get("ctx") or {}).get("pattern", "")
    value = error.get("input")
    if pattern == ID_PATTERN and isinstance(value, str) and len(value) > MAX_ID_LENGTH:
        return f"{excerpt(value)} is not a stable id: an id is at most {MAX_ID_LENGTH} characters"
    if pattern == ID_PATTERN:
        try:
            parse_id(value)
        except ValueError as exc:
            return str(exc)
    if pattern == r"^[0-9a-f]{64}$":
        return f"expected a SHA-256 as 64 lowercase hexadecimal digits, found {excerpt(value)}"
    return f"{excerpt(value)} does not have the expected form ({pattern})"
