"""Checks that need the whole registry: ids against files, references, values, missing metadata.

Each check adds issues to the report and never raises, so one run lists every problem.
Every rule reports under a code declared in ``registry.validate.codes``. The rules every record
obeys are methods of ``_Checker``; a kind's own rules are registered for its model class on
``registry.validate.rules_registry.kind_rules`` (``@kind_rules.register``), so a new kind adds rules without a
dispatch chain, and the modules of rules outside this one are listed once, in ``RULE_MODULES``.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from measure.outcome import Method, Status
from registry import derived as derivation
from registry.errors import RegistryError
from registry.ids import a_kind, compose_id, date_and_kind, is_real_day
from registry.models import (
    Configuration,
    Evaluation,
    Evidence,
    ModelFamily,
    Recipe,
    Record,
    Release,
    Reproduction,
    Result,
    Review,
    Source,
)
from registry.models.fields import FieldPath, dates_in, field_plan, references_in, unfit_values, utc_day
from registry.models.records import Direction, EvidenceProperty, ReviewStatus
from registry.models.uncertainty_kinds import SPREADS
from registry.models.values import Aggregate, Derivation, Operation, RangeUpper, Uncertainty, UncertaintyKind
from registry.numbers import MINUS_SIGNS, decimals, numbers_in, parse_printed, printed_pattern, shown, why_not_a_number
from registry.status.versions import superseding
from registry.store.loader import Registry, display_path
from registry.textsafe import excerpt
from registry.units import bytes_in_unit
from registry.validate import codes
from registry.validate.codes import Code
from registry.validate.report import Report, format_path
from registry.validate.rules import history as curation_rules
from registry.validate.rules import units as unit_rules
from registry.validate.rules_registry import kind_rules, record_rules, registry_rules

#: The rule modules beyond this one, listed once: each registers its rules on ``registry.validate.rules_registry`` as
#: it is imported, and none imports this runner back (a new module of rules is one more entry here).
RULE_MODULES = (unit_rules, curation_rules)


def check_registry(registry: Registry, report: Report, *, now: dt.datetime | None = None) -> Report:
    """Run every whole-registry rule over ``registry``, adding issues to ``report``.

    One checker visits every record in turn (a registry can hold hundreds of thousands, and every
    run checks them all): each rule's quick test of a record that is fine comes first, and a
    message is only worked out for a record that has a problem.
    """
    checker = start(registry, report, now)
    rules = RuleTable()
    for record in registry.records.values():
        check_record(checker, record, rules)
    for registry_rule in registry_rules:
        registry_rule(registry, report)
    report_unchecked(registry, report, checker.unchecked)
    return report


def start(registry: Registry, report: Report, now: dt.datetime | None) -> _Checker:
    """The checker of one run (``now``: the moment dates are compared with, by default the clock's)."""
    return _Checker(registry, report, None, {}, _Suggestions(registry),  # type: ignore[arg-type]
                    now or dt.datetime.now(dt.UTC))


class RuleTable:
    """A kind's own rules, looked up once per kind: singledispatch's own lookup costs a microsecond a call."""

    def __init__(self) -> None:
        self.found: dict[type[Record], Callable[[Record, _Checker], None] | None] = {}

    def __call__(self, model: type[Record]) -> Callable[[Record, _Checker], None] | None:
        if model not in self.found:
            rules = kind_rules.dispatch(model)
            self.found[model] = None if rules is kind_rules.dispatch(object) else rules
        return self.found[model]


def check_record(checker: _Checker, record: Record, rules: RuleTable) -> None:
    """Every rule about one record: what it finds goes to ``checker.report`` (and ``checker.unchecked``).

    The unit ``registry.validate.incremental`` keeps: what it finds depends only on the record and on what the
    rules look up in ``checker.registry``.
    """
    checker.record = record
    checker.identity()
    checker.references()
    checker.missing_metadata()
    checker.dates()
    checker.values()
    checker.locator()
    own = rules(type(record))
    if own is not None:
        own(record, checker)
    for rule in record_rules:
        rule(record, checker)


def report_unchecked(registry: Registry, report: Report, unchecked: dict[str, list[str]]) -> None:
    """One warning on each record that did not load, for the references to it that wait until it does."""
    for record_id, referrers in unchecked.items():
        path = registry.failed[record_id]
        report.add(codes.REFERENCES_UNCHECKED.issue(
            display_path(path, registry.root), 1, record_id=record_id,
            message=f"this record did not load, so the {len(referrers)} reference(s) to it (from {referrers[0]}"
                    f"{' and others' if len(referrers) > 1 else ''}) are checked only once its errors are fixed",
        ))


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
                 suggestions: _Suggestions, now: dt.datetime) -> None:
        self.registry = registry
        self.now = now
        self.report = report
        self.suggestions = suggestions
        self.unchecked = unchecked  # id of a record that did not load -> ids of the records that name it
        self.record = record
        self._root_parts = registry.root.parts
        self._today = f"{now.astimezone(dt.UTC):%Y%m%d}"  # an id's date is a UTC day, compared as text

    def add(self, code: Code, message: str, field: tuple[str | int, ...] = ()) -> None:
        self.report.add(code.issue(self.registry.relpath(self.record.id), self.registry.line_of(self.record.id, field),
                                   message, record_id=self.record.id, field=format_path(field) or None))

    # -- identity ---------------------------------------------------------------------------

    def identity(self) -> None:
        record = self.record
        record_id, kind = record.id, record.kind_token
        date, id_kind = date_and_kind(record_id)
        if not is_real_day(date):
            self.add(codes.ID_DATE_INVALID, f"{date!r} in the id is not a real day; the id's date is the "
                     f"batch's 'yyyymmdd' (for example {self._today}, today in UTC)", ("id",))
        elif date > self._today:
            self.add(codes.ID_DATE_IN_FUTURE, f"{date!r} in the id lies after today ({self._today}, UTC); the id's "
                     "date is the day the batch was filed", ("id",))
        if id_kind != kind:
            self.add(codes.ID_KIND_MISMATCH,
                     f"the id names kind {id_kind!r} but the record is {a_kind(repr(kind))}; "
                     f"rename it to '{compose_id('<batch>', '<yyyymmdd>', kind, '<slug>')}'", ("id",))
        path = self.registry.paths[record_id]
        parts = path.parts  # kept by the path once made: no new path objects per record
        if len(parts) < 2 or _stem(parts[-1]) != record_id or parts[-2] != kind:
            self.add(codes.FILE_NAME_MISMATCH,
                     f"{a_kind(kind)} with id {record_id!r} belongs in {kind}/{record_id}.yaml; move the file there",
                     ("id",))
        elif parts[:-1] == self._root_parts:
            self.add(codes.FILE_NAME_MISMATCH,
                     f"{path.name} lies directly in the records folder {self.registry.root.name!r}, which looks like "
                     f"the {kind!r} folder itself: point {{records}} at the folder that holds it",
                     ("id",))

    # -- references -------------------------------------------------------------------------

    def references(self) -> None:
        records = self.registry.records
        listed: dict[tuple[FieldPath, str], int] = {}  # (list's path, id) -> its first index
        for path, value, kinds in references_in(self.record):
            if isinstance(path[-1], int):  # an item of a list: each record once
                first = listed.setdefault((path[:-1], value), path[-1])
                if first != path[-1]:
                    self.add(codes.REFERENCE_REPEATED, f"{excerpt(value)} is listed twice (items {first + 1} and "
                             f"{path[-1] + 1} of {format_path(path[:-1])}); list each record once", path)
            target = records.get(value)
            if target is not None and (target.kind_token in kinds or "*" in kinds):
                continue  # nearly every reference: it names a record of a kind the field takes
            if target is None and value in self.registry.failed:
                self.unchecked.setdefault(value, []).append(self.record.id)  # one warning there, not one per link
            elif target is None:
                close = self.suggestions.suggest(value, kinds)
                hint = f"; did you mean {close!r}?" if close else ""
                self.add(codes.UNRESOLVED_REFERENCE, f"{excerpt(value)} names no record in the registry{hint}", path)
            else:
                self.add(codes.REFERENCE_WRONG_KIND,
                         f"{excerpt(value)} is {a_kind(target.kind_token)}, but this field needs "
                         f"{a_kind(' or '.join(kinds))}",
                         path)

    # -- missing metadata -------------------------------------------------------------------

    def missing_metadata(self) -> None:
        record = self.record
        plan = field_plan(type(record))
        seen: set[str] = set()
        for index, entry in enumerate(record.missing_metadata):
            where = ("missing_metadata", index, "field")
            if entry.field in seen:
                self.add(codes.MISSING_DUPLICATE, f"{excerpt(entry.field)} is listed as missing twice; keep one entry",
                         where)
            seen.add(entry.field)
            if entry.field not in plan.names or entry.field in ("id", "kind", "missing_metadata"):
                self.add(codes.MISSING_UNKNOWN_FIELD,
                         f"a {record.kind_token} has no field {excerpt(entry.field)}; name one of its fields", where)
            elif not _is_empty(getattr(record, entry.field)):
                self.add(codes.MISSING_CONTRADICTION,
                         f"{excerpt(entry.field)} is listed as missing ({entry.reason.value}) but has a value; "
                         f"remove the value or the entry", where)
        for name in plan.reportable:
            if name not in seen and _is_empty(getattr(record, name)):
                self.add(codes.MISSING_UNEXPLAINED,
                         f"{name!r} is empty; give its value, or add a missing_metadata entry "
                         f"(field: {name}, reason: unreported | not-applicable | not-separately-documented | "
                         f"not-transcribed)", (name,) if name in self._keys() else ())

    def _keys(self) -> set[str]:
        doc = self.registry.docs.get(self.record.id)
        return {p[0] for p in doc.lines if len(p) == 1} if doc else set()  # type: ignore[misc]

    # -- dates ------------------------------------------------------------------------------

    def dates(self) -> None:
        """A moment must not lie after now, a day not after today (in UTC): nothing was reviewed tomorrow."""
        now = self.now
        today = now.astimezone(dt.UTC).date()
        for path, value, day in dates_in(self.record):
            if isinstance(value, dt.datetime) and value.tzinfo is not None:
                if value > now:
                    self.add(codes.DATE_IN_FUTURE, f"{value.isoformat()} lies in the future (it is now "
                             f"{now.astimezone(dt.UTC).replace(microsecond=0).isoformat()})", path)
            elif day > today:
                self.add(codes.DATE_IN_FUTURE, f"{value.isoformat()} lies in the future (today is "
                         f"{today.isoformat()})", path)


    # -- locators ---------------------------------------------------------------------------

    def locator(self) -> None:
        """A locator's page must be one of its source's pages: the PDF is pinned, so its page count is known."""
        locator = getattr(self.record, "source_locator", None)
        if locator is None or locator.page is None:
            return
        source = self.registry.records.get(getattr(self.record, "source", None) or "")
        if isinstance(source, Source) and locator.page > source.page_count:
            self.add(codes.LOCATOR_PAGE_OUT_OF_RANGE, f"page {locator.page} lies beyond the {source.page_count} "
                     f"pages of the pinned source {source.id!r}; correct the page, counted from 1 in the pinned PDF",
                     ("source_locator", "page"))

    # -- values -----------------------------------------------------------------------------

    def values(self) -> None:
        """Every value fits the database and prints as it reads (see ``fields.unfit_values``)."""
        for path, problem, why in unfit_values(self.record):
            self.add(_UNFIT[problem], why, path)


_UNFIT = {"unstorable": codes.VALUE_OUT_OF_RANGE, "unprintable": codes.CONTROL_CHARACTER}


# -- the rules of each kind -------------------------------------------------------------------


@kind_rules.register
def _release_date(release: Release, check: _Checker) -> None:
    if release.date > check.now.astimezone(dt.UTC).date():
        check.add(codes.DATE_IN_FUTURE, f"release date {release.date} lies in the future", ("name",))
    published = f"{release.date:%Y%m%d}"  # an id's date is its batch's day, compared as text like the ids'
    for index, member in enumerate(release.members):
        try:
            filed, _ = date_and_kind(member)
        except ValueError:
            continue  # not an id at all: the reference rules say so
        if filed > published:
            check.add(codes.RELEASE_MEMBER_LATER, f"{excerpt(member)} was filed on {filed}, after the release of "
                      f"{release.date}; a release holds only records filed by its date", ("members", index))


@kind_rules.register
def _result_values(result: Result, check: _Checker) -> None:
    printed = parse_printed(result.printed_value, result.unit)
    if printed is None:
        check.add(codes.VALUE_MISMATCH, f"printed value: {why_not_a_number(result.printed_value, result.unit)}",
                  ("printed_value",))
    elif printed != result.numeric_value:
        check.add(codes.VALUE_MISMATCH,
                  f"printed value {excerpt(result.printed_value)} reads {printed}, but numeric_value is "
                  f"{result.numeric_value}; they must agree", ("numeric_value",))
    if result.range_upper is not None and printed is not None:
        printed = _range_upper(result, result.range_upper, printed, check)
    if printed is not None:
        _value_in_quote(result, check)
    if result.uncertainty is not None:
        _uncertainty(result, result.uncertainty, check)
    if result.derived is not None and printed is not None:
        _derived(result, result.derived, check)


def _range_upper(result: Result, upper: RangeUpper, lower: Decimal, check: _Checker) -> Decimal | None:
    """A range's upper end is read as its lower end is, in the result's unit (the two share it), and lies above
    it; the lower end, or None where the upper end is unreadable (so the quote is not searched for it)."""
    where = ("range_upper",)
    printed = parse_printed(upper.printed_value, result.unit)
    if printed is None:
        check.add(codes.VALUE_MISMATCH, f"range's upper end: {why_not_a_number(upper.printed_value, result.unit)}",
                  (*where, "printed_value"))
        return None
    if printed != upper.numeric_value:
        check.add(codes.VALUE_MISMATCH, f"range's upper end {excerpt(upper.printed_value)} reads {printed}, but its "
                  f"numeric_value is {upper.numeric_value}; they must agree", (*where, "numeric_value"))
    elif printed <= lower:
        check.add(codes.VALUE_MISMATCH, f"range {excerpt(result.as_printed)} does not rise: its upper end {printed} "
                  f"must exceed its lower end {lower} (printed_value); one of the two is mistyped", where)
    return lower


def _value_in_quote(result: Result, check: _Checker) -> None:
    """A quote is copied from the source with the value, so a value it does not print was mistyped in one of the
    two ('0.618' quoted as '0.681 ± 0.019', '3.2' quoted as '3.2 × 10−4', a bound '< 0.001' quoted without its
    sign); ``registry review`` finds which against the PDF. The quote is read as the review reads the page
    (``printed_pattern``), either sign of the number allowed."""
    quote = result.source_locator.quote
    if not quote:
        return
    numbers = numbers_in(quote, percentages=True)
    plain = _digits(result.printed_value)  # most quotes print the value plainly: found without a pattern
    if result.bound is None and result.range_upper is None and any(_digits(n) == plain for n in numbers):
        return
    if printed_pattern(result.as_printed, signed=False).search(quote):
        return
    # Asked only now: the back links are indexed over the whole registry on first use.
    if superseding(check.registry, result.id):  # corrected already: its replacement holds the value as printed
        return
    found = ", ".join(numbers[:6]) + (", ..." if len(numbers) > 6 else "") if numbers else "no number"
    check.add(codes.VALUE_NOT_IN_QUOTE, f"printed value {excerpt(result.as_printed)} is not in its quote "
              f"{excerpt(quote)}, which prints {found}; one of the two is mistyped", ("printed_value",))


def _digits(printed: str) -> str:
    """A printed number's text without its sign and thousands separators: '−1,843' and '1 843' -> '1843'."""
    return re.sub(r"[,\u2009\u202f\u00a0 '\u2019]", "", printed.strip().lstrip("+-\uff0b" + MINUS_SIGNS))


def _uncertainty(result: Result, uncertainty: Uncertainty, check: _Checker) -> None:
    """The printed ± or interval must be the exact values; an interval must hold its value; counts must agree."""
    where = ("uncertainty",)
    printed = numbers_in(uncertainty.printed)
    exact: list[Decimal | None] = ([uncertainty.half_width] if uncertainty.half_width is not None
                                   else [uncertainty.lower, uncertainty.upper] if uncertainty.is_interval else [])
    if exact and not _printed_as(printed, exact):
        fields = "half_width" if uncertainty.half_width is not None else "lower and upper"
        check.add(codes.UNCERTAINTY_MISMATCH,
                  f"uncertainty printed {uncertainty.printed!r} reads {', '.join(printed) or 'no number'}, but "
                  f"{fields} {'is' if len(exact) == 1 else 'are'} {', '.join(str(e) for e in exact)}; they must "
                  f"agree", (*where, "printed"))
    if uncertainty.is_interval and uncertainty.lower is not None and uncertainty.upper is not None:
        if not uncertainty.lower <= result.numeric_value <= uncertainty.upper:
            check.add(codes.UNCERTAINTY_EXCLUDES_VALUE,
                      f"the {uncertainty.kind.value} [{uncertainty.lower}, {uncertainty.upper}] does not contain the "
                      f"value {result.numeric_value} it is printed with", (*where, "lower"))
    evaluation = check.registry.records.get(result.evaluation)
    stated = getattr(evaluation, "aggregated_over", None)
    over = uncertainty.over
    if isinstance(stated, Aggregate) and over is not None and (
            over.kind is not stated.kind or (over.count is not None and stated.count is not None
                                             and over.count != stated.count)):
        check.add(codes.AGGREGATE_MISMATCH,
                  f"the uncertainty is over {over.count or 'some'} {over.kind.value}, but its evaluation aggregates "
                  f"{stated.count or 'some'} {stated.kind.value}", (*where, "over"))


def _printed_as(printed: list[str], exact: list[Decimal | None]) -> bool:
    """Whether the first printed numbers are the exact values, signs included (a ± half-width is printed after
    its '±', unsigned: '−0.022' is not a half-width of 0.022)."""
    if len(printed) < len(exact):
        return False
    for text, value in zip(printed, exact, strict=False):
        read = parse_printed(text)
        if read is None or value is None or read != value:
            return False
    return True


@kind_rules.register
def _split_of_dataset(evaluation: Evaluation, check: _Checker) -> None:
    dataset = check.registry.records.get(evaluation.dataset)
    splits = [split.name for split in getattr(dataset, "splits", [])]
    if evaluation.split is not None and splits and evaluation.split not in splits:
        check.add(codes.SPLIT_UNKNOWN, f"split {evaluation.split!r} is not one of its dataset's splits "
                  f"({', '.join(splits)})", ("split",))


#: Where an identifier shows in a retrieval URL, by field: a URL that names another identifier contradicts it.
_IDENTIFIER_IN_URL = {
    "openreview": re.compile(r"openreview\.net/(?:pdf|forum)\?id=([A-Za-z0-9_-]+)"),
    "arxiv": re.compile(r"arxiv\.org/(?:abs|pdf)/([^?#]+?)(?:\.pdf)?(?:[?#]|$)"),
    "doi": re.compile(r"doi\.org/(10\.[^?#]+)"),
}


@kind_rules.register
def _identifiers(source: Source, check: _Checker) -> None:
    for field, pattern in _IDENTIFIER_IN_URL.items():
        identifier = getattr(source, field)
        found = pattern.search(source.retrieval_url or "")
        if identifier is not None and found is not None and found.group(1) != identifier:
            check.add(codes.SOURCE_IDENTIFIER_MISMATCH,
                      f"{field} is {identifier!r}, but the retrieval URL names {found.group(1)!r}", (field,))


def _derived(result: Result, derived: Derivation, check: _Checker) -> None:
    """Recompute a derived result from its inputs' printed digits and compare, within every rounding
    (``registry.derived``, which ``registry review`` calls too)."""
    if result.id in derived.sources:
        check.add(codes.DERIVED_INPUTS, "a result cannot be derived from itself; name the results the source "
                  "computed it from", ("derived",))
        return
    inputs = [check.registry.records.get(i) for i in derived.sources]
    if not all(isinstance(i, Result) for i in inputs):
        return  # a dangling or wrong-kind reference is reported by the reference rules
    loop = _derivation_loop(result.id, derived, check.registry)
    if loop:
        check.add(codes.DERIVED_INPUTS, f"it is derived from itself through {' -> '.join(loop)}; a derivation names "
                  "the results the source computed it from", ("derived",))
        return
    results: list[Result] = [i for i in inputs if isinstance(i, Result)]
    ranges = [r for r in (result, *results) if r.range_upper is not None]
    if ranges:  # a range's lower end is no value to compute with; computing from it would check nothing real
        check.add(codes.DERIVED_INPUTS, "a range is not one value, so the derivation cannot be recomputed from it: "
                  f"{', '.join(f'{r.id} ({r.as_printed})' for r in ranges)}; leave 'derived' out and say in "
                  "scope_note how the source computed the range", ("derived",))
        return
    operation = derived.operation
    direction = None if results[0].metric_direction is None else results[0].metric_direction is Direction.LOWER
    given = [derivation.Input(r.printed_value, str(r.unit), r.id) for r in results]
    try:
        again = derivation.derive(operation, given, str(result.unit), lower_is_better=direction)
    except derivation.Underivable as problem:
        if problem.field is not None:  # else the cause (an unknown unit) is a schema error already
            check.add(codes.DERIVED_INPUTS, problem.message, (problem.field,))
        return
    except ZeroDivisionError:
        check.add(codes.DERIVED_INPUTS, f"the baseline {results[1].printed_value} may be zero at its printed digits, "
                  f"so no {operation.value} can be recomputed", ("derived",))
        return
    except ValueError:
        return  # an input that is not a number is reported on that input
    printed = [r.printed_value for r in results]
    if not derivation.consistent(result.printed_value, again):
        checked = ""
        if operation is not Operation.MEAN:  # which other operation the printed digits fit, if any
            fits = derivation.fitting_operations(result.printed_value, given, str(result.unit),
                                                 lower_is_better=direction, but=operation)
            checked = f" (checked as a {operation.value}" + (
                f"; the printed digits fit a {' or a '.join(op.value for op in fits)} of the same inputs: if the "
                "source computed that, name it as the operation" if fits else "") + ")"
        check.add(codes.DERIVED_MISMATCH, f"printed {result.printed_value}, but "
                  f"{derivation.worked(result.printed_value, again, printed)}; one of the numbers is mistranscribed"
                  f"{checked}", ("printed_value",))
    if operation is Operation.MEAN:
        _derived_spread(result, printed, check)


def _derivation_loop(start: str, derived: Derivation, registry: Registry) -> list[str]:
    """The chain of derivations that leads from ``start`` back to it, or [] where none does."""
    stack: list[tuple[str, list[str]]] = [(source, [source]) for source in derived.sources]
    seen: set[str] = set()
    while stack:
        current, path = stack.pop()
        if current == start:
            return path
        if current in seen:
            continue
        seen.add(current)
        record = registry.records.get(current)
        inner = getattr(record, "derived", None)
        if isinstance(inner, Derivation):
            stack += [(source, [*path, source]) for source in inner.sources]
    return []


def _derived_spread(result: Result, inputs: list[str], check: _Checker) -> None:
    """The standard deviation (or error) printed with a mean, recomputed over the results the mean is taken over."""
    spread = result.uncertainty
    if spread is None or spread.half_width is None or spread.kind not in SPREADS or (
            spread.over is not None and spread.over.count not in (None, len(inputs))):
        return
    sd = derivation.recompute_spread(inputs, standard_error=spread.kind is UncertaintyKind.STANDARD_ERROR)
    # The half-width's digits as printed (a wrong sign is the uncertainty rule's to report, not this one's).
    digits = next((n.lstrip("+-" + MINUS_SIGNS) for n in numbers_in(spread.printed)), None)
    if digits is not None and not derivation.consistent(digits, sd):
        places = decimals(digits) + 1
        check.add(codes.DERIVED_MISMATCH,
                  f"the {spread.kind.value} is printed {spread.printed!r}, but {sd.formula} (the results it is "
                  f"taken over) is {shown(sd.exact, places)} (between {sd.allowed.shown(places)} given their "
                  f"rounding)",
                  ("uncertainty", "half_width"))


@kind_rules.register
def _review_source(review: Review, check: _Checker) -> None:
    source = check.registry.records.get(review.source)
    pinned = getattr(source, "sha256", None)
    if review.artifact_sha256 is not None and pinned is not None and review.artifact_sha256 != pinned:
        check.add(codes.REVIEW_HASH_MISMATCH,
                  f"the review checked a file with SHA-256 {review.artifact_sha256}, but the source pins "
                  f"{pinned}; a review of another file cannot source-check these records", ("artifact_sha256",))
    if review.status is ReviewStatus.SOURCE_CHECKED and review.artifact_sha256 is None:
        check.add(codes.REVIEW_UNVERIFIABLE,
                  "this review grants 'source-checked' but names no artifact hash, so nobody can tell which "
                  "file it checked", ("status",))
    made = getattr(source, "pdf_creation_date", None)
    if review.reviewed_at is not None and made is not None and utc_day(review.reviewed_at) < made - dt.timedelta(1):
        check.add(codes.REVIEW_BEFORE_SOURCE,  # a day's leeway: a PDF's CreationDate is a day in its maker's zone
                  f"the review is dated {review.reviewed_at.isoformat()}, before the pinned PDF was made (CreationDate "
                  f"{made.isoformat()}), so it cannot have checked that file; correct reviewed_at, or the source's "
                  "pdf_creation_date", ("reviewed_at",))
    url = getattr(source, "retrieval_url", None)
    if review.retrieval_url is not None and url is not None and review.retrieval_url != url:
        check.add(codes.REVIEW_URL_MISMATCH,
                  f"the review retrieved {review.retrieval_url}, the source names {url}", ("retrieval_url",))
    for index, subject_id in enumerate(review.subjects):
        subject = check.registry.records.get(subject_id)
        cited = sources_of(subject, check.registry) if subject is not None else set()
        if cited and review.source not in cited:
            check.add(codes.REVIEW_SUBJECT_MISMATCH,
                      f"{excerpt(subject_id)} comes from {', '.join(excerpt(c) for c in sorted(cited))}, but this "
                      "review "
                      f"checked {excerpt(review.source)}; a review can only source-check records of the source it read",
                      ("subjects", index))

@functools.singledispatch
def sources_of(record: Record, registry: Registry) -> set[str]:
    """The sources a record was transcribed from: its own, or those of the records it is made of.

    Empty where nothing says (a dangling reference, or a kind that cites no source).
    """
    own = getattr(record, "source", None)
    return {own} if isinstance(own, str) else set()


@sources_of.register
def _source_itself(record: Source, registry: Registry) -> set[str]:
    return {record.id}


@sources_of.register
def _evaluation_parts(record: Evaluation, registry: Registry) -> set[str]:
    """An evaluation comes from the sources of its configuration, protocol and dataset."""
    parts = (registry.records.get(record.configuration), registry.records.get(record.protocol),
             registry.records.get(record.dataset))
    return {source for p in parts if isinstance(source := getattr(p, "source", None), str)}


@sources_of.register
def _family_configurations(record: ModelFamily, registry: Registry) -> set[str]:
    """A model family comes from the sources of its configurations."""
    return {c.source for c, _ in registry.links_to(record.id) if isinstance(c, Configuration)}


@kind_rules.register
def _evidence_statement(evidence: Evidence, check: _Checker) -> None:
    review = check.registry.records.get(evidence.review)
    if isinstance(review, Review):
        if evidence.subject not in review.subjects:
            check.add(codes.EVIDENCE_REVIEW_MISMATCH,
                      f"the row cites review {review.id!r}, which did not check {excerpt(evidence.subject)}; cite the "
                      f"review that lists it among its subjects", ("review",))
        if evidence.source != review.source:
            check.add(codes.EVIDENCE_REVIEW_MISMATCH,
                      f"the row cites {excerpt(evidence.source)}, but its review checked {excerpt(review.source)}",
                      ("source",))
    subject = check.registry.records.get(evidence.subject)
    if evidence.property is EvidenceProperty.REPORTED_RESULT and isinstance(subject, Result):
        if evidence.statement != subject.printed_value:
            check.add(codes.EVIDENCE_STATEMENT_MISMATCH,
                      f"the row states {excerpt(evidence.statement)} but its result prints "
                      f"{excerpt(subject.printed_value)}",
                      ("statement",))

def _reproduction_method(reproduction: Reproduction, check: _Checker) -> None:
    """A value is filed as measured only with the GPU it was read off; an estimate never wears a GPU's name."""
    hardware = reproduction.hardware  # its kind matches the method (the model checks that)
    other = "estimated" if reproduction.method is Method.MEASURED else "measured"
    if f"-{other}-" in reproduction.id and f"-{reproduction.method.value}-" not in reproduction.id:
        check.add(codes.REPRODUCTION_METHOD_MISMATCH,
                  f"the id says {other!r} but the method is {reproduction.method.value!r}; a record copied as a "
                  f"template keeps the other run's id and values: file a new run instead", ("method",))
    if reproduction.method is Method.MEASURED:
        if not (reproduction.software.get("cuda") or reproduction.software.get("hip")):
            check.add(codes.REPRODUCTION_METHOD_MISMATCH,
                      "a measured run must record the GPU runtime it ran with (software.cuda, or software.hip on "
                      "ROCm)", ("software",))
        if reproduction.attention_impl == "sdpa-flash-cpu":
            check.add(codes.REPRODUCTION_METHOD_MISMATCH,
                      "'sdpa-flash-cpu' is the CPU kernel an estimate traces; a GPU run uses 'sdpa-flash', "
                      "'flash-attn' or 'eager'", ("attention_impl",))
        torch = reproduction.software.get("torch") or ""
        if "+cpu" in torch:
            check.add(codes.REPRODUCTION_METHOD_MISMATCH,
                      f"torch {torch} is a CPU-only build, which cannot have measured a GPU", ("software",))
        if reproduction.outcome is Status.OK and not reproduction.warmup_steps:
            check.add(codes.REPRODUCTION_METHOD_MISMATCH,
                      "a measured peak is read after at least one warm-up step, but warmup_steps is "
                      f"{reproduction.warmup_steps}; an estimate traces one step without a warm-up",
                      ("warmup_steps",))
    else:
        named = _ACCELERATOR_NAME.search(hardware.name)
        if named:
            check.add(codes.REPRODUCTION_METHOD_MISMATCH,
                      f"an estimate's hardware name says how it was made, never a GPU's name, but it holds "
                      f"{named.group(0)!r}; put the GPU it predicts for in the method note", ("hardware", "name"))

@kind_rules.register
def _reproduction(reproduction: Reproduction, check: _Checker) -> None:
    _reproduction_method(reproduction, check)
    recipe = check.registry.records.get(reproduction.recipe)
    result = check.registry.records.get(reproduction.result)
    if isinstance(recipe, Recipe):
        if recipe.result != reproduction.result:
            check.add(codes.REPRODUCTION_RECIPE_MISMATCH,
                      f"the reproduction is of {excerpt(reproduction.result)} but its recipe is for "
                      f"{excerpt(recipe.result)}",
                      ("recipe",))
        if recipe.fixed.model != reproduction.model:
            check.add(codes.REPRODUCTION_RECIPE_MISMATCH,
                      f"the reproduction ran model {excerpt(reproduction.model)} but its recipe states "
                      f"{excerpt(recipe.fixed.model)}; a run of another model (a smoke run) is never filed", ("model",))
        candidates = {knob.name: knob.candidates for knob in recipe.knobs}
        for name, value in reproduction.setting.items():
            if name not in candidates:
                check.add(codes.REPRODUCTION_RECIPE_MISMATCH,
                          f"the recipe has no knob {excerpt(name)}; its knobs are: {', '.join(candidates) or 'none'}",
                          ("setting", name))
            elif not any(value == c and type(value) is type(c) for c in candidates[name]):
                check.add(codes.REPRODUCTION_SETTING_UNSWEPT,
                          f"{name}={excerpt(value)} is not among the recipe's candidates {candidates[name]}; add it "
                          f"there if it is worth sweeping", ("setting", name))
    if isinstance(result, Result) and reproduction.value_bytes is not None and reproduction.value is not None:
        try:
            expected = bytes_in_unit(reproduction.value_bytes, result.unit)
        except RegistryError as exc:
            check.add(codes.REPRODUCTION_COMPARISON_MISMATCH, exc.message, ("value",))
        else:
            if expected != reproduction.value:
                check.add(codes.REPRODUCTION_COMPARISON_MISMATCH,
                          f"value is {reproduction.value} but value_bytes {reproduction.value_bytes} is "
                          f"{expected} {result.unit}s", ("value",))
    comparison = reproduction.comparison
    if comparison is None:
        return
    if isinstance(result, Result) and comparison.transcribed != result.numeric_value:
        check.add(codes.REPRODUCTION_COMPARISON_MISMATCH,
                  f"comparison.transcribed is {comparison.transcribed} but the result's numeric value is "
                  f"{result.numeric_value}", ("comparison", "transcribed"))
    if reproduction.value is not None and comparison.reproduced != reproduction.value:
        check.add(codes.REPRODUCTION_COMPARISON_MISMATCH,
                  f"comparison.reproduced is {comparison.reproduced} but the reproduction's value is "
                  f"{reproduction.value}", ("comparison", "reproduced"))




#: Names that only a GPU (or another accelerator) goes by; an estimate's hardware name must hold none of them.
_ACCELERATOR_NAME = re.compile(
    r"\b(nvidia|tesla|geforce|quadro|rtx|gtx|gpu|cuda|rocm|amd instinct|radeon|tpu|gaudi\d*|"
    r"[abhlvtpk]\d{1,4}[a-z]{0,2}|gh\d{3}|gb\d{3}|mi\d{2,3}[a-z]?)\b",
    re.IGNORECASE,
)

def _is_empty(value: Any) -> bool:
    """None, or an empty list, mapping or text (a value that is true is none of them: tested first, as cheaper)."""
    return value is None or (not value and (value == [] or value == {} or value == ""))


def _stem(name: str) -> str:
    """A file name without its last suffix, as ``pathlib.PurePath.stem`` has it."""
    dot = name.rfind(".")
    return name[:dot] if 0 < dot < len(name) - 1 else name


def validate(root: Any, *, now: dt.datetime | None = None, cache: bool | None = None) -> tuple[Registry, Report]:
    """Load and check the registry under ``root``: the one entry point for every consumer.

    ``cache`` is passed to ``load_registry`` (False: read every file, not the parse cache).
    """
    from pathlib import Path

    from registry.store.loader import gc_paused, load_registry

    with gc_paused():
        registry, report = load_registry(Path(root), cache=cache)
        check_registry(registry, report, now=now)
    return registry, report

