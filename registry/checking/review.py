"""One source check from start to end: choose the records, get the PDF, check every claim, build the review.

``run_review`` does the checking and returns every assertion; ``write_reviews`` turns a
run into one review record per checked record, whatever its verdict (source checked,
review failed, could not be checked), each with its claims and what the PDF showed,
written beside the existing reviews (never over them) as one batch.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from registry import __version__, limits
from registry.checking.claims import CANNOT_CHECK, FAIL, PASS, UNIT_NOT_PRINTED, Assertion, Claim, locator_of
from registry.checking.dispatch import record_claims, source_claims
from registry.errors import RegistryError
from review.errors import NotCheckableError
from review.pdf.limited import ReviewLimits, run_reading

if TYPE_CHECKING:
    from registry.models import MissingMetadata, Record, Review, Source
    from registry.store.loader import Registry
    from review.pdf.extract import Readings
    from review.pdf.fetch import PdfArtifact
    from review.pdf.pdftext import Extraction

#: How written reviews name their reviewer: the script and its version.
REVIEWER = f"registry review/ {__version__}"


@dataclass
class ReviewPlan:
    """What one run checks: the source, the records whose claims are checked, and the claims."""

    source: Source
    subjects: list[str]
    claims: list[Claim]
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """Records citing the source that are not checked, and why."""


@dataclass
class ReviewRun:
    """A finished check: the verified PDF, its text, and every assertion."""

    plan: ReviewPlan
    pdf: PdfArtifact
    extraction: Extraction
    assertions: list[Assertion]
    text_path: Path | None = None
    readings: Readings | None = None
    """Both extractions (the second None where pdftotext is missing); ``extraction`` is the primary. Their page
    texts only: the positioned words stayed in the child process, where the claims were checked."""
    source_files: list[str] = field(default_factory=list)
    """The pinned source files read as the second witness ('main.tex (latex, SHA-256 ...)'); empty: the PDF alone."""

    @property
    def second(self) -> Extraction | None:
        return self.readings.second if self.readings is not None else None

    @property
    def cells_checked(self) -> int:
        """How many table cells were located and checked (what 'independent-cell-check' rests on)."""
        return sum(1 for a in self.assertions if a.claim == "table cell")

    @property
    def failures(self) -> list[Assertion]:
        """The assertions that failed: the page prints something else."""
        return [a for a in self.assertions if a.outcome == FAIL]

    @property
    def unchecked(self) -> list[Assertion]:
        """The assertions that could not be checked (a table, row or column not read): never a pass."""
        return [a for a in self.assertions if a.outcome == CANNOT_CHECK]

    @property
    def unprinted(self) -> list[Assertion]:
        """The units printed nowhere near their value: reported apart, neither a pass nor a failure of the value."""
        return [a for a in self.assertions if a.outcome == UNIT_NOT_PRINTED]

    @property
    def source_only(self) -> list[Assertion]:
        """The assertions the PDF could not check and the source confirmed: checked against the source, not the
        PDF (``registry.checking.witnesses``), counted apart from passes."""
        from registry.checking.witnesses import confirmed_by

        return [a for a in self.assertions if confirmed_by(a) == "source"]

    @property
    def passed(self) -> bool:
        return bool(self.assertions) and all(a.passed for a in self.assertions)


def verdicts(run: ReviewRun) -> str:
    """'3 of 9 assertions failed', '2 of 9 assertions could not be checked', or both: the verdicts that are no
    pass, counted apart."""
    total = len(run.assertions)
    parts = [f"{len(run.failures)} of {total} assertions failed"] if run.failures else []
    if run.unchecked:
        parts.append(f"{len(run.unchecked)}{'' if parts else f' of {total} assertions'} could not be checked")
    if run.unprinted:
        parts.append(f"{len(run.unprinted)}{'' if parts else f' of {total} assertions'} named a unit the page does "
                     "not print")
    return " and ".join(parts) or f"none of {total} assertions failed"


def plan_review(registry: Registry, record_id: str) -> ReviewPlan:
    """The claims to check for ``record_id``: a source (every record that quotes it), or one citing record."""
    from registry.models import Source

    record = registry.get(record_id)
    if isinstance(record, Source):
        return _plan_source(registry, record)
    source_id = getattr(record, "source", None)
    source = registry.records.get(source_id) if isinstance(source_id, str) else None
    if not isinstance(source, Source):
        raise NotCheckableError(
            f"cannot check {record.id}: a {record.kind_token} cites no source",
            "give the id of a result, an evidence row, a configuration or a source",
        )
    claims = record_claims(registry, record)
    return ReviewPlan(source=source, subjects=[record.id], claims=[*source_claims(source), *claims])


def _plan_source(registry: Registry, source: Source) -> ReviewPlan:
    from registry.status.versions import Status, status_of

    claims: list[Claim] = source_claims(source)
    subjects = [source.id]
    skipped: list[tuple[str, str]] = []
    for record in _citing(registry, source.id):
        status = status_of(registry, record.id)
        if status is not Status.CURRENT:  # a superseded or retracted value is history: its chain's current is checked
            skipped.append((record.id, f"it is {status.value}; its current version is checked instead"))
            continue
        try:
            claims += record_claims(registry, record)
        except NotCheckableError as exc:
            skipped.append((record.id, exc.message.split(": ", 1)[-1]))
            continue
        subjects.append(record.id)
    return ReviewPlan(source=source, subjects=subjects, claims=claims, skipped=skipped)


def _citing(registry: Registry, source_id: str) -> list[Record]:
    from registry.models import KIND_MODELS

    order = {kind: index for index, kind in enumerate(KIND_MODELS)}
    found = [r for r in registry.records.values()
             if getattr(r, "source", None) == source_id and locator_of(r) is not None]
    return sorted(found, key=lambda r: (order[r.kind_token], r.id))


#: How long a whole review may take (reading the PDF's text and checking every claim), and its memory.
DEFAULT_TIMEOUT_S = limits.REVIEW_TIMEOUT_S
DEFAULT_MAX_MEMORY_MB = limits.REVIEW_MAX_MEMORY_MB


def run_review(
    registry: Registry,
    record_id: str,
    *,
    pdf: Path | None = None,
    cache_dir: Path | None = None,
    limits: ReviewLimits = ReviewLimits(),
    second: bool = True,
    sources: list[Path] | None = None,
    **fetch_options: Any,
) -> ReviewRun:
    """Plan, fetch and verify the PDF, read it with both extractors (``second=False``: with pypdf and PDFium
    only), check every claim with both. Raises only for bad input.

    The bytes whose SHA-256 was verified are the bytes both extractors parse; reading and checking
    run in one child process within ``limits`` (``registry.sandbox``; poppler's ``pdftotext`` runs
    inside it, under the same limits), so that no PDF can hold the machine.
    """
    from review.pdf.fetch import acquire_pdf, default_cache_dir

    started = time.monotonic()
    plan = plan_review(registry, record_id)
    cache_dir = cache_dir if cache_dir is not None else default_cache_dir()
    fetch_options.setdefault("max_bytes", limits.max_pdf_bytes)
    artifact = acquire_pdf(plan.source, pdf=pdf, cache_dir=cache_dir, **fetch_options)
    readings, assertions = _check_limited(artifact, plan.claims, limits, started, second)
    text_path = keep_text(cache_dir, artifact.sha256, readings.primary)
    witnessed: list[str] = []
    if plan.source.source_files:  # the second witness: the document's own source, where the record pins it
        from registry.checking.source_witness import witness
        from review.sources.pinned import read_pinned, verified

        files = verified(plan.source, sources or [], cache_dir)
        tables = read_pinned(plan.source, files, readings.primary, limits, started)
        assertions = witness(plan.claims, assertions, tables, artifact.path.name)
        from review.sources import reader_of

        witnessed = [f"{f.path.name} ({f.format}, read with {reader_of(f.format)}, SHA-256 {f.sha256})" for f in files]
    elif sources:
        from review.sources.pinned import SourceFileError

        raise SourceFileError(f"the source {plan.source.id} pins no source files, so {sources[0].name} cannot be "
                              "checked against a pin", "add it to the source record's source_files (its SHA-256 "
                              "and where it was retrieved), then run again")
    return ReviewRun(plan=plan, pdf=artifact, extraction=readings.primary, assertions=assertions, text_path=text_path,
                     readings=readings, source_files=witnessed)


@dataclass(frozen=True)
class CheckRequest:
    """What the child process is sent: the verified bytes, how to name them, the claims, and its limits."""

    data: bytes = field(repr=False)
    name: str
    claims: list[Claim]
    max_page_chars: int
    timeout: float
    """Seconds left for the review: what pdftotext, run by the child, may take at most."""
    second: bool


def _check_limited(artifact: PdfArtifact, claims: list[Claim], limits: ReviewLimits, started: float,
                   second: bool) -> tuple[Readings, list[Assertion]]:
    """``check_pdf`` in a child process with the time left and the memory limit (``review.pdf.limited``, the one
    reader ``registry table`` reads through too); its failures as messages."""
    from review.pdf.extract import Readings

    remaining = limits.timeout - (time.monotonic() - started)
    request = CheckRequest(artifact.data, str(artifact.path), claims, limits.max_page_chars, remaining, second)
    readings, checked = run_reading("registry.checking.review:check_pdf", request, limits, what="the review",
                                    doing="reading the PDF's text and checking its claims", started=started)
    return Readings.from_plain(readings), [Assertion.from_plain(fields) for fields in checked]


def check_pdf(request: CheckRequest) -> tuple[Any, ...]:
    """What the child process runs: both readings of the bytes and every claim checked with both, as plain data.

    Positioned words stay here, where the claims that need them are checked: only the page texts
    (and what the review records of each extraction) go back.
    """
    from registry.checking.agreement import check_readings
    from review.pdf.extract import read_pdf

    readings = read_pdf(request.data, name=request.name, max_page_chars=request.max_page_chars,
                        second=request.second, timeout=request.timeout)
    checked = [assertion.plain() for assertion in check_readings(request.claims, readings)]
    return readings.plain(), checked


def keep_text(cache_dir: Path, pdf_sha256: str, extraction: Extraction) -> Path | None:
    """Keep the extraction artifact beside the cached PDF, named by both hashes; best effort only.

    A file already there is kept only if its content has the hash its name claims: a file planted
    under that name is replaced, never reported as the text of this review.
    """
    from registry.store.atomic import temporary_beside
    from review.pdf.fetch import sha256_file

    path = cache_dir / f"{pdf_sha256}.{extraction.sha256}.txt"
    try:
        if path.is_file() and sha256_file(path) == extraction.sha256:
            return path
        cache_dir.mkdir(parents=True, exist_ok=True)
        with temporary_beside(path) as tmp:
            tmp.write_bytes(extraction.text.encode("utf-8"))
            os.replace(tmp, path)
    except OSError:
        return None
    return path


# -- the review record ---------------------------------------------------------------------------


def review_id(registry: Registry, run: ReviewRun, today: dt.date, subject: str,
              taken: frozenset[str] | set[str] = frozenset()) -> str:
    """'<batch>-<yyyymmdd>-review-<subject>-pdf-check', with '-2', '-3', ... if that id is taken (in the registry,
    on disk, or by ``taken``: the other reviews of the same batch)."""
    from registry.ids import MAX_ID_LENGTH, compose_id
    from registry.models import parse_id

    source = parse_id(run.plan.source.id)
    parsed = parse_id(subject)
    head = compose_id(source.batch, f"{today:%Y%m%d}", "review", "")
    tail = "-pdf-check"
    slug = f"{parsed.kind}-{parsed.slug}"
    room = MAX_ID_LENGTH - len(head) - len(tail) - 4
    if len(slug) > room:
        slug = slug[:room].rsplit("-", 1)[0]
    base = f"{head}{slug}{tail}"
    candidate, number = base, 1
    while candidate in registry.records or candidate in taken or (registry.root / "review" / f"{candidate}.yaml"
                                                                   ).exists():
        number += 1
        candidate = f"{base}-{number}"
    return candidate


def build_reviews(registry: Registry, run: ReviewRun, *, now: dt.datetime | None = None) -> list[Review]:
    """One review record per checked record, whatever its verdict: each lists the record's claims with what the
    PDF showed, and supersedes the record's current reviews (which stay as its history)."""
    now = (now or dt.datetime.now(dt.UTC)).replace(microsecond=0)
    by_record: dict[str, list[Assertion]] = {}
    for assertion in run.assertions:
        by_record.setdefault(assertion.record_id, []).append(assertion)
    source_id = run.plan.source.id
    identity = [] if source_id in run.plan.subjects else by_record.get(source_id, [])
    taken: set[str] = set()
    reviews = []
    for subject in run.plan.subjects:
        assertions = [*identity, *by_record.get(subject, [])] if subject != source_id else by_record.get(subject, [])
        if by_record.get(subject):
            review = _review_of(registry, run, subject, assertions, now, taken)
            taken.add(review.id)
            reviews.append(review)
    return reviews


#: The verdict of a claim on record, by the review's word for it (``registry.checking.claims``).
VERDICTS = {PASS: "pass", FAIL: "fail", CANNOT_CHECK: "cannot-check", UNIT_NOT_PRINTED: "unit-not-printed"}


def _review_of(registry: Registry, run: ReviewRun, subject: str, assertions: list[Assertion], now: dt.datetime,
               taken: set[str]) -> Review:
    from registry.models import Review
    from registry.models.records import ReviewMethod, status_of_verdicts
    from registry.status.provenance import current_reviews

    claims = [_checked(a) for a in assertions]
    status = status_of_verdicts([claim.verdict for claim in claims])
    retrieval_url, missing = _retrieval(run)
    return Review(
        kind="review",
        id=review_id(registry, run, now.date(), subject, taken),
        subjects=[subject],
        source=run.plan.source.id,
        status=status,
        reviewer=REVIEWER,
        reviewer_note=(
            "The registry's review script, run by whoever ran 'registry review'; no human review claimed. "
            "Automated check of the transcription against the pinned PDF, not reproduction."
        ),
        reviewed_at=now,
        artifact_sha256=run.pdf.sha256,
        extraction_sha256=run.extraction.sha256,
        second_extraction_sha256=run.second.sha256 if run.second is not None else None,
        retrieval_url=retrieval_url,
        methods=[ReviewMethod.SOURCE_HASH_VERIFICATION, ReviewMethod.PDF_TEXT_PARSE,
                 *([ReviewMethod.INDEPENDENT_CELL_CHECK] if any(a.claim == "table cell" for a in assertions) else [])],
        method_note=method_note(run, assertions),
        derivation=(
            "Written by 'registry review'; the id is built by the batch convention from the source's batch, the "
            "date of the review and the checked record (a numeric suffix where that id was taken)."
        ),
        note=_conclusion(assertions),
        extractors=[reading.extractor for reading in (run.readings.all if run.readings is not None
                                                      else (run.extraction,))],
        claims=claims,
        supersedes=[review.id for review in current_reviews(registry, subject)],
        missing_metadata=missing,
    )


def _shown(text: str) -> str | None:
    return " ".join(text.split()) or None


def _checked(assertion: Assertion) -> Any:
    """The assertion as a review lists it, with each extractor's own reading where a second one read it too (none:
    the claim's verdict is the one extractor's). A witness's reading or detail is left out where it is the claim's
    own, so that agreeing extractors are not written out twice."""
    from registry.checking.witnesses import confirmed_by
    from registry.models.checks import CheckedClaim, ClaimVerdict, Witness, WitnessKind

    a = assertion
    printed, detail = _shown(a.found or a.matched), _shown(a.detail)
    opinions = () if a.first is None or a.second is None or a.second.passed is None else (a.first, a.second)
    witnesses = [Witness(witness=o.extractor, kind=WitnessKind.PDF_TEXT, verdict=ClaimVerdict(VERDICTS[o.outcome]),
                         read=None if _shown(o.matched) in (printed, None) else _shown(o.matched),
                         detail=None if _shown(o.detail) == detail else _shown(o.detail)) for o in opinions]
    # the document's source beside the PDF (``registry.checking.witnesses``): each verdict kept apart
    for w in a.witnesses:
        if w.name == "pdf" and opinions:
            continue  # the extractors' own readings are listed already
        kind = WitnessKind.SOURCE_DOCUMENT if w.name == "source" else WitnessKind.PDF_TEXT
        reader = w.reader or (a.first.extractor if w.name == "pdf" and a.first is not None else "")
        named = f"{'the source' if w.name == 'source' else 'the PDF'} {w.document}".strip()
        named = f"{named} ({reader})" if reader and w.name == "source" else reader or named  # the PDF: its extractor
        witnesses.append(Witness(witness=named,
                                 kind=kind, verdict=ClaimVerdict(VERDICTS[w.outcome]), read=_shown(w.matched),
                                 detail=_shown(w.detail)))
    # A claim the source alone confirmed passes, all witnesses together; its witnesses say the PDF could not read it,
    # so that the value is shown as checked against the source only (``registry.status.provenance.source_only``).
    outcome = PASS if confirmed_by(a) == "source" else a.outcome
    return CheckedClaim(claim=a.claim, asserted=a.expected or "(empty)", verdict=ClaimVerdict(VERDICTS[outcome]),
                        page=a.page, printed=printed, detail=detail, witnesses=witnesses)


def _conclusion(assertions: list[Assertion]) -> str:
    failed = [a for a in assertions if a.outcome == FAIL]
    unchecked = [a for a in assertions if a.outcome == CANNOT_CHECK]
    unprinted = [a for a in assertions if a.outcome == UNIT_NOT_PRINTED]
    if not failed and not unchecked and not unprinted:
        return (f"All {len(assertions)} assertions passed: the quoted text, printed values and units match the cited "
                "pages of the pinned PDF.")
    parts = [f"{len(failed)} of {len(assertions)} assertions failed: the pinned PDF prints something else"] if failed \
        else []
    if unchecked:
        parts.append(f"{len(unchecked)} of {len(assertions)} could not be checked (the review could not read the "
                     "table, row or column they rest on)")
    if unprinted:
        parts.append(f"{len(unprinted)} of {len(assertions)} named a unit the page does not print with the value (no "
                     "other unit is printed either: the unit is the record's own reading)")
    return "; ".join(parts) + ". Each claim says what the page showed."


#: Where a checked file came from, when this run did not download it.
_ORIGIN_PHRASES = {
    "given": "a local file given with --pdf",
    "cache": "a copy from the local PDF cache, where files are kept under their SHA-256",
}


def _retrieval(run: ReviewRun) -> tuple[str | None, list[MissingMetadata]]:
    """The review's retrieval URL, or the missing-metadata entry that says why it has none.

    ``retrieval_url`` says where the reviewed file was retrieved from, so it is recorded only when
    this run downloaded the file. A file given with --pdf or read from the cache was retrieved by
    someone, some time, from somewhere this run cannot know; copying the source's URL would claim a
    retrieval that did not happen. The SHA-256 match, not the URL, is what ties the file to the source.
    """
    from registry.models import MissingMetadata, MissingReason

    if run.pdf.origin == "download":
        return run.pdf.url, []
    note = (f"This review retrieved no file: it checked {_ORIGIN_PHRASES[run.pdf.origin]}, whose SHA-256 matched "
            "the source's pin; the hash, not a URL, ties that file to the source.")
    return None, [MissingMetadata(field="retrieval_url", reason=MissingReason.NOT_APPLICABLE, note=note)]


def method_note(run: ReviewRun, assertions: list[Assertion]) -> str:
    """What the review of ``assertions`` did, in words (the review lists what was asserted as its claims)."""
    if run.pdf.origin == "download":
        origin = f"downloaded by this run from {run.pdf.url}"
    else:
        origin = f"{_ORIGIN_PHRASES[run.pdf.origin]}, not downloaded by this run (so no retrieval URL is recorded)"
    lines = [
        f"Checked file: {origin}. Its SHA-256 matched the source's pin, which is what ties the file to the "
        f"source however it was obtained. Extracted the text of all {run.extraction.page_count} pages "
        f"with {run.extraction.extractor}; extraction_sha256 is the SHA-256 of the page texts joined by form "
        "feeds (UTF-8). Quotes are matched verbatim where possible, otherwise after normalizing line breaks, "
        "hyphenation at line ends, ligatures, arrows, minus signs, quotes and spaces."
    ]
    if run.second is not None:
        lines.append(f"Every claim that reads the text was checked again with {run.second.extractor}, an independent "
                     "parser; second_extraction_sha256 is the SHA-256 of its page texts joined by form feeds (UTF-8). "
                     "An assertion passed only where both extractors agreed.")
    elif run.readings is not None and run.readings.second_missing:
        lines.append(f"Not checked with a second extractor: {run.readings.second_missing}.")
    cells = sum(1 for a in assertions if a.claim == "table cell")
    if cells:
        lines.append(f"{cells} table cells were located from positioned words (row label by column "
                     "header) and their values, uncertainties and units read from the cell, its header, its row "
                     "label and the caption.")
    lines.append("What was asserted, and what each extractor read, is listed claim by claim.")
    return "\n".join(lines)


def write_reviews(root: Path, registry: Registry, run: ReviewRun, *, now: dt.datetime | None = None) -> list[
        tuple[Review, Path]]:
    """Write one review per checked record, whatever its verdict, beside the existing reviews, as one batch (all or
    none), checked against the registry as it is when written: it must stay valid."""
    from registry.curate.precheck import Staged, write_checked
    from registry.store.writer import checked_yaml, record_path

    reviews = build_reviews(registry, run, now=now)
    comment = "Written by 'registry review': an automated source check."
    staged = [Staged(review, record_path(root, review), checked_yaml(review, comment)) for review in reviews]
    write_checked(root, staged, rejected=_invalid_with(reviews), now=now)
    return [(item.record, item.path) for item in staged]  # type: ignore[misc]


def _invalid_with(reviews: list[Review]) -> Any:
    def rejected(report: Any) -> RegistryError:
        first = report.errors[0]
        return RegistryError(
            f"the {len(reviews)} reviews would leave the registry invalid ({first.code}: {first.message}); none "
            "was written", "run 'registry validate' and fix the problems it lists, then run again")
    return rejected
