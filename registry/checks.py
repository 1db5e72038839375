"""Checks that need the whole registry: ids against files, references, values, missing metadata.

Each check adds issues to the report and never raises, so one run lists every
problem. Every rule has a stable code, listed in ``RULES`` with what it means.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from registry.errors import RegistryError
from registry.ids import a_kind, parse_id
from registry.loader import Registry, display_path
from registry.models import (
    Configuration,
    Evaluation,
    Evidence,
    ModelFamily,
    Recipe,
    Record,
    Reproduction,
    Result,
    Review,
    Source,
)
from registry.models.fields import dates_in, field_plan, references_in
from registry.models.records import EvidenceProperty, ReviewStatus
from registry.models.reproduction import Outcome, ReproductionMethod
from registry.report import Issue, Report, Severity, format_path
from registry.units import bytes_in_unit

#: Every whole-registry rule, by code. Load-time codes (yaml-syntax, schema-*, ...) are in loader.py.
RULES: dict[str, str] = {
    "id-kind-mismatch": "the kind named in the id differs from the record's kind",
    "id-date-invalid": "the date in the id is not a real day",
    "file-name-mismatch": "the file is not '<kind>/<id>.yaml'",
    "unresolved-reference": "a reference names no record",
    "references-unchecked": "references to a record whose file did not load wait until it loads (warning)",
    "reference-wrong-kind": "a reference names a record of the wrong kind",
    "value-mismatch": "a result's printed value and numeric value disagree",
    "missing-unknown-field": "a missing-metadata entry names a field the kind does not have",
    "missing-contradiction": "a missing-metadata entry names a field that has a value",
    "missing-duplicate": "two missing-metadata entries name the same field",
    "missing-unexplained": "a reportable field is empty without a missing-metadata entry",
    "review-hash-mismatch": "a review's artifact hash differs from its source's pinned hash",
    "review-subject-mismatch": "a review's subject cites another source than the one the review checked against",
    "review-unverifiable": "a source-checked review names no artifact hash (warning)",
    "review-url-mismatch": "a review's retrieval URL differs from its source's (warning)",
    "evidence-statement-mismatch": "an evidence row's statement differs from its subject's printed value",
    "evidence-review-mismatch": "an evidence row's review did not check its subject, or checked another source",
    "reproduction-comparison-mismatch": "a reproduction's value or comparison disagrees with its bytes or its result",
    "reproduction-recipe-mismatch": "a reproduction disagrees with its recipe: another result, another model, a knob "
    "the recipe lacks (or, as a warning, a value outside the recipe's candidates)",
    "reproduction-method-mismatch": "a measured run records no GPU runtime, a CPU-only torch, a CPU kernel or no "
    "warm-up; an estimate names a GPU as its hardware; the id names the other method",
    "date-in-future": "a date or time lies after today",
}


def check_registry(registry: Registry, report: Report, *, today: dt.date | None = None) -> Report:
    """Run every whole-registry rule over ``registry``, adding issues to ``report``."""
    today = today or dt.datetime.now(dt.UTC).date()
    unchecked: dict[str, list[str]] = {}
    suggestions = _Suggestions(registry)
    for record in registry.records.values():
        checker = _Checker(registry, report, record, unchecked, suggestions)
        checker.identity()
        checker.references()
        checker.missing_metadata()
        checker.dates(today)
        if isinstance(record, Result):
            checker.result_values(record)
        elif isinstance(record, Review):
            checker.review_source(record)
        elif isinstance(record, Evidence):
            checker.evidence_statement(record)
        elif isinstance(record, Reproduction):
            checker.reproduction(record)
    for record_id, referrers in unchecked.items():
        path = registry.failed[record_id]
        report.add(Issue(
            file=display_path(path, registry.root), line=1, code="references-unchecked", severity=Severity.WARNING,
            record_id=record_id,
            message=f"this record did not load, so the {len(referrers)} reference(s) to it (from {referrers[0]}"
                    f"{' and others' if len(referrers) > 1 else ''}) are checked only once its errors are fixed",
        ))
    return report


class _Suggestions:
    """'Did you mean' for unresolved references: once per missing id, and only for the first few hundred.

    Each lookup compares the id with every id of the kinds the field takes; a registry with
    thousands of dangling references (a folder copied without its sources) must not pay that
    thousands of times over.
    """

    LIMIT = 200

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.found: dict[tuple[str, tuple[str, ...]], str | None] = {}

    def suggest(self, value: str, kinds: list[str]) -> str | None:
        key = (value, tuple(kinds))
        if key not in self.found:
            if len(self.found) >= self.LIMIT:
                return None
            close = self.registry.suggest(value, limit=1, kinds=kinds)
            self.found[key] = close[0] if close else None
        return self.found[key]


class _Checker:
    """The rules, applied to one record."""

    def __init__(self, registry: Registry, report: Report, record: Record, unchecked: dict[str, list[str]],
                 suggestions: _Suggestions) -> None:
        self.registry = registry
        self.report = report
        self.suggestions = suggestions
        self.unchecked = unchecked  # id of a record that did not load -> ids of the records that name it
        self.record = record

    def add(self, code: str, message: str, field: tuple[str | int, ...] = (), *, warning: bool = False) -> None:
        self.report.add(
            Issue(
                file=self.registry.relpath(self.record.id),
                line=self.registry.line_of(self.record.id, field),
                code=code,
                message=message,
                severity=Severity.WARNING if warning else Severity.ERROR,
                record_id=self.record.id,
                field=format_path(field) or None,
            )
        )

    # -- identity ---------------------------------------------------------------------------

    def identity(self) -> None:
        record = self.record
        parsed = parse_id(record.id)
        id_kind = parsed.kind
        if not _is_real_day(parsed.date):
            self.add("id-date-invalid", f"{parsed.date!r} in the id is not a real day; the id's date is the batch's "
                     f"'yyyymmdd' (for example {dt.date.today():%Y%m%d})", ("id",))
        if id_kind != record.kind_token:
            self.add("id-kind-mismatch",
                     f"the id names kind {id_kind!r} but the record is {a_kind(repr(record.kind_token))}; "
                     f"rename it to '<batch>-<yyyymmdd>-{record.kind_token}-<slug>'", ("id",))
        path = self.registry.paths[record.id]
        expected = f"{record.kind_token}/{record.id}.yaml"
        if path.stem != record.id or path.parent.name != record.kind_token:
            self.add("file-name-mismatch",
                     f"{a_kind(record.kind_token)} with id {record.id!r} belongs in {expected}; move the file there",
                     ("id",))
        elif path.parent == self.registry.root:
            self.add("file-name-mismatch",
                     f"{path.name} lies directly in the records folder {self.registry.root.name!r}, which looks like "
                     f"the {record.kind_token!r} folder itself: point --records at the folder that holds it",
                     ("id",))

    # -- references -------------------------------------------------------------------------

    def references(self) -> None:
        for path, value, kinds in references_in(self.record):
            target = self.registry.records.get(value)
            if target is None and value in self.registry.failed:
                self.unchecked.setdefault(value, []).append(self.record.id)  # one warning there, not one per link
            elif target is None:
                close = self.suggestions.suggest(value, kinds)
                hint = f"; did you mean {close!r}?" if close else ""
                self.add("unresolved-reference", f"{value!r} names no record in the registry{hint}", path)
            elif "*" not in kinds and target.kind_token not in kinds:
                self.add("reference-wrong-kind",
                         f"{value!r} is {a_kind(target.kind_token)}, but this field needs {a_kind(' or '.join(kinds))}",
                         path)

    # -- missing metadata -------------------------------------------------------------------

    def missing_metadata(self) -> None:
        record = self.record
        fields = type(record).model_fields
        seen: set[str] = set()
        for index, entry in enumerate(record.missing_metadata):
            where = ("missing_metadata", index, "field")
            if entry.field in seen:
                self.add("missing-duplicate", f"{entry.field!r} is listed as missing twice; keep one entry", where)
            seen.add(entry.field)
            if entry.field not in fields or entry.field in ("id", "kind", "missing_metadata"):
                self.add("missing-unknown-field",
                         f"a {record.kind_token} has no field {entry.field!r}; name one of its fields", where)
            elif not _is_empty(getattr(record, entry.field)):
                self.add("missing-contradiction",
                         f"{entry.field!r} is listed as missing ({entry.reason.value}) but has a value; "
                         f"remove the value or the entry", where)
        for name in field_plan(type(record)).reportable:
            if name not in seen and _is_empty(getattr(record, name)):
                self.add("missing-unexplained",
                         f"{name!r} is empty; give its value, or add a missing_metadata entry "
                         f"(field: {name}, reason: unreported | not-applicable | not-separately-documented | "
                         f"not-transcribed)", (name,) if name in self._keys() else ())

    def _keys(self) -> set[str]:
        doc = self.registry.docs.get(self.record.id)
        return {p[0] for p in doc.lines if len(p) == 1} if doc else set()  # type: ignore[misc]

    # -- dates ------------------------------------------------------------------------------

    def dates(self, today: dt.date) -> None:
        record = self.record
        for path, value, day in dates_in(record):
            if day > today:
                self.add("date-in-future", f"{value.isoformat()} lies in the future (today is {today.isoformat()})",
                         path)
        if record.kind_token == "release":
            release_day = record.date  # type: ignore[attr-defined]
            if release_day > today:
                self.add("date-in-future", f"release date {release_day} lies in the future", ("name",))

    # -- kind-specific ----------------------------------------------------------------------

    def result_values(self, result: Result) -> None:
        printed = parse_printed(result.printed_value)
        if printed is None:
            self.add("value-mismatch",
                     f"printed value {result.printed_value!r} is not a number as printed; keep the source's digits",
                     ("printed_value",))
        elif printed != result.numeric_value:
            self.add("value-mismatch",
                     f"printed value {result.printed_value!r} reads {printed}, but numeric_value is "
                     f"{result.numeric_value}; they must agree", ("numeric_value",))

    def review_source(self, review: Review) -> None:
        source = self.registry.records.get(review.source)
        pinned = getattr(source, "sha256", None)
        if review.artifact_sha256 is not None and pinned is not None and review.artifact_sha256 != pinned:
            self.add("review-hash-mismatch",
                     f"the review checked a file with SHA-256 {review.artifact_sha256}, but the source pins "
                     f"{pinned}; a review of another file cannot source-check these records", ("artifact_sha256",))
        if review.status is ReviewStatus.SOURCE_CHECKED and review.artifact_sha256 is None:
            self.add("review-unverifiable",
                     "this review grants 'source-checked' but names no artifact hash, so nobody can tell which "
                     "file it checked", ("status",), warning=True)
        url = getattr(source, "retrieval_url", None)
        if review.retrieval_url is not None and url is not None and review.retrieval_url != url:
            self.add("review-url-mismatch",
                     f"the review retrieved {review.retrieval_url}, the source names {url}", ("retrieval_url",),
                     warning=True)
        for index, subject_id in enumerate(review.subjects):
            subject = self.registry.records.get(subject_id)
            cited = self._sources_of(subject) if subject is not None else set()
            if cited and review.source not in cited:
                self.add("review-subject-mismatch",
                         f"{subject_id!r} comes from {', '.join(repr(c) for c in sorted(cited))}, but this review "
                         f"checked {review.source!r}; a review can only source-check records of the source it read",
                         ("subjects", index))

    def _sources_of(self, record: Record) -> set[str]:
        """The sources a record was transcribed from: its own, or those of the records it is made of.

        An evaluation comes from the sources of its configuration, protocol and dataset; a model
        family from those of its configurations. Empty where nothing says (a dangling reference).
        """
        records = self.registry.records
        if isinstance(record, Source):
            return {record.id}
        own = getattr(record, "source", None)
        if isinstance(own, str):
            return {own}
        if isinstance(record, Evaluation):
            parts = (records.get(record.configuration), records.get(record.protocol), records.get(record.dataset))
            return {source for p in parts if isinstance(source := getattr(p, "source", None), str)}
        if isinstance(record, ModelFamily):
            return {c.source for c, _ in self.registry.links_to(record.id) if isinstance(c, Configuration)}
        return set()

    def evidence_statement(self, evidence: Evidence) -> None:
        review = self.registry.records.get(evidence.review)
        if isinstance(review, Review):
            if evidence.subject not in review.subjects:
                self.add("evidence-review-mismatch",
                         f"the row cites review {review.id!r}, which did not check {evidence.subject!r}; cite the "
                         f"review that lists it among its subjects", ("review",))
            if evidence.source != review.source:
                self.add("evidence-review-mismatch",
                         f"the row cites {evidence.source!r}, but its review checked {review.source!r}", ("source",))
        subject = self.registry.records.get(evidence.subject)
        if evidence.property is EvidenceProperty.REPORTED_RESULT and isinstance(subject, Result):
            if evidence.statement != subject.printed_value:
                self.add("evidence-statement-mismatch",
                         f"the row states {evidence.statement!r} but its result prints {subject.printed_value!r}",
                         ("statement",))

    def reproduction_method(self, reproduction: Reproduction) -> None:
        """A value is filed as measured only with the GPU it was read off; an estimate never wears a GPU's name."""
        hardware = reproduction.hardware  # its kind matches the method (the model checks that)
        other = "estimated" if reproduction.method is ReproductionMethod.MEASURED else "measured"
        if f"-{other}-" in reproduction.id and f"-{reproduction.method.value}-" not in reproduction.id:
            self.add("reproduction-method-mismatch",
                     f"the id says {other!r} but the method is {reproduction.method.value!r}; a record copied as a "
                     f"template keeps the other run's id and values: file a new run instead", ("method",))
        if reproduction.method is ReproductionMethod.MEASURED:
            if not (reproduction.software.get("cuda") or reproduction.software.get("hip")):
                self.add("reproduction-method-mismatch",
                         "a measured run must record the GPU runtime it ran with (software.cuda, or software.hip on "
                         "ROCm)", ("software",))
            if reproduction.attention_impl == "sdpa-flash-cpu":
                self.add("reproduction-method-mismatch",
                         "'sdpa-flash-cpu' is the CPU kernel an estimate traces; a GPU run uses 'sdpa-flash', "
                         "'flash-attn' or 'eager'", ("attention_impl",))
            torch = reproduction.software.get("torch") or ""
            if "+cpu" in torch:
                self.add("reproduction-method-mismatch",
                         f"torch {torch} is a CPU-only build, which cannot have measured a GPU", ("software",))
            if reproduction.outcome is Outcome.OK and not reproduction.warmup_steps:
                self.add("reproduction-method-mismatch",
                         "a measured peak is read after at least one warm-up step, but warmup_steps is "
                         f"{reproduction.warmup_steps}; an estimate traces one step without a warm-up",
                         ("warmup_steps",))
        else:
            named = _ACCELERATOR_NAME.search(hardware.name)
            if named:
                self.add("reproduction-method-mismatch",
                         f"an estimate's hardware name says how it was made, never a GPU's name, but it holds "
                         f"{named.group(0)!r}; put the GPU it predicts for in the method note", ("hardware", "name"))

    def reproduction(self, reproduction: Reproduction) -> None:
        self.reproduction_method(reproduction)
        recipe = self.registry.records.get(reproduction.recipe)
        result = self.registry.records.get(reproduction.result)
        if isinstance(recipe, Recipe):
            if recipe.result != reproduction.result:
                self.add("reproduction-recipe-mismatch",
                         f"the reproduction is of {reproduction.result!r} but its recipe is for {recipe.result!r}",
                         ("recipe",))
            if recipe.fixed.model != reproduction.model:
                self.add("reproduction-recipe-mismatch",
                         f"the reproduction ran model {reproduction.model!r} but its recipe states "
                         f"{recipe.fixed.model!r}; a run of another model (a smoke run) is never filed", ("model",))
            candidates = {knob.name: knob.candidates for knob in recipe.knobs}
            for name, value in reproduction.setting.items():
                if name not in candidates:
                    self.add("reproduction-recipe-mismatch",
                             f"the recipe has no knob {name!r}; its knobs are: {', '.join(candidates) or 'none'}",
                             ("setting", name))
                elif not any(value == c and type(value) is type(c) for c in candidates[name]):
                    self.add("reproduction-recipe-mismatch",
                             f"{name}={value!r} is not among the recipe's candidates {candidates[name]}; add it "
                             f"there if it is worth sweeping", ("setting", name), warning=True)
        if isinstance(result, Result) and reproduction.value_bytes is not None and reproduction.value is not None:
            try:
                expected = bytes_in_unit(reproduction.value_bytes, result.unit)
            except RegistryError as exc:
                self.add("reproduction-comparison-mismatch", exc.message, ("value",))
            else:
                if expected != reproduction.value:
                    self.add("reproduction-comparison-mismatch",
                             f"value is {reproduction.value} but value_bytes {reproduction.value_bytes} is "
                             f"{expected} {result.unit}s", ("value",))
        comparison = reproduction.comparison
        if comparison is None:
            return
        if isinstance(result, Result) and comparison.transcribed != result.numeric_value:
            self.add("reproduction-comparison-mismatch",
                     f"comparison.transcribed is {comparison.transcribed} but the result's numeric value is "
                     f"{result.numeric_value}", ("comparison", "transcribed"))
        if reproduction.value is not None and comparison.reproduced != reproduction.value:
            self.add("reproduction-comparison-mismatch",
                     f"comparison.reproduced is {comparison.reproduced} but the reproduction's value is "
                     f"{reproduction.value}", ("comparison", "reproduced"))


#: Names that only a GPU (or another accelerator) goes by; an estimate's hardware name must hold none of them.
_ACCELERATOR_NAME = re.compile(
    r"\b(nvidia|tesla|geforce|quadro|rtx|gtx|gpu|cuda|rocm|amd instinct|radeon|tpu|gaudi\d*|"
    r"[abhlvtpk]\d{1,4}[a-z]{0,2}|gh\d{3}|gb\d{3}|mi\d{2,3}[a-z]?)\b",
    re.IGNORECASE,
)

@functools.lru_cache(maxsize=4096)
def _is_real_day(yyyymmdd: str) -> bool:
    """Whether 'yyyymmdd' names a day that exists (cached: a batch's records share their date)."""
    try:
        dt.date(int(yyyymmdd[:4]), int(yyyymmdd[4:6]), int(yyyymmdd[6:]))
    except ValueError:
        return False
    return True


def parse_printed(text: str) -> Decimal | None:
    """A printed number as a Decimal: thousands separators dropped, Unicode minus read as '-'."""
    cleaned = text.strip().replace("\u2212", "-").replace(",", "").replace("\u2009", "").replace("\u00a0", "")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def _is_empty(value: Any) -> bool:
    return value is None or value == [] or value == {} or value == ""


def validate(root: Any, *, today: dt.date | None = None) -> tuple[Registry, Report]:
    """Load and check the registry under ``root``: the one entry point for every consumer."""
    from pathlib import Path

    from registry.loader import gc_paused, load_registry

    with gc_paused():
        registry, report = load_registry(Path(root))
        check_registry(registry, report, today=today)
    return registry, report
