"""One source check from start to end: choose the records, get the PDF, check every claim, build the review.

``run_review`` does the checking and returns every assertion; ``write_review`` turns a
run in which every assertion passed into a new review record, written beside the
existing reviews (never over them) with ``registry.store.writer.write_record``.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from registry import limits
from registry.errors import RegistryError
from registry.textsafe import excerpt
from review.claims import CANNOT_CHECK, FAIL, Assertion, Claim, locator_of
from review.dispatch import record_claims, source_claims
from review.errors import NotCheckableError, ReviewLimitError
from review.pdftext import MAX_PAGE_CHARS

if TYPE_CHECKING:
    from registry.models import MissingMetadata, Record, Review, Source
    from registry.store.loader import Registry
    from review.extract import Readings
    from review.fetch import PdfArtifact
    from review.pdftext import Extraction


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
    def source_only(self) -> list[Assertion]:
        """The assertions the PDF could not check and the source confirmed: checked against the source, not the
        PDF (``review.witnesses``), counted apart from passes."""
        from review.witnesses import confirmed_by

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


@dataclass(frozen=True)
class ReviewLimits:
    """What one review may take: the text and the checks run in a process of their own, killed past these."""

    timeout: float = DEFAULT_TIMEOUT_S
    """Seconds for the whole review: getting the PDF, reading its text, checking every claim."""
    max_memory_mb: int = DEFAULT_MAX_MEMORY_MB
    """Megabytes the process that reads the PDF and checks the claims may use."""
    max_page_chars: int = MAX_PAGE_CHARS
    """The most characters of text one page may hold (``review.pdftext.MAX_PAGE_CHARS``)."""


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
    from review.fetch import acquire_pdf, default_cache_dir

    started = time.monotonic()
    plan = plan_review(registry, record_id)
    cache_dir = cache_dir if cache_dir is not None else default_cache_dir()
    artifact = acquire_pdf(plan.source, pdf=pdf, cache_dir=cache_dir, **fetch_options)
    remaining = limits.timeout - (time.monotonic() - started)
    readings, assertions = _check_limited(artifact, plan.claims, limits, remaining, second)
    text_path = keep_text(cache_dir, artifact.sha256, readings.primary)
    witnessed: list[str] = []
    if plan.source.source_files:  # the second witness: the document's own source, where the record pins it
        from review.sources.pinned import read_pinned, verified, witness

        files = verified(plan.source, sources or [], cache_dir)
        tables = read_pinned(plan.source, files, readings.primary)
        assertions = witness(plan.claims, assertions, tables, artifact.path.name)
        witnessed = [f"{f.path.name} ({f.format}, SHA-256 {f.sha256})" for f in files]
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


def _check_limited(artifact: PdfArtifact, claims: list[Claim], limits: ReviewLimits, remaining: float,
                   second: bool) -> tuple[Readings, list[Assertion]]:
    """``check_pdf`` in a child process with the time left and the memory limit; its failures as messages."""
    from registry.sandbox import ChildFailed, LimitExceeded, run_limited
    from review.errors import PdfError
    from review.extract import Readings

    if remaining <= 0:
        raise ReviewLimitError(_over_time(limits))
    request = CheckRequest(artifact.data, str(artifact.path), claims, limits.max_page_chars, remaining, second)
    try:
        readings, checked = run_limited("review.review:check_pdf", request, timeout=remaining,
                                        memory_mb=limits.max_memory_mb)
    except LimitExceeded as exc:
        if exc.kind == "time":
            raise ReviewLimitError(_over_time(limits)) from None
        raise ReviewLimitError(
            f"reading {artifact.path} and checking its claims needed more than {limits.max_memory_mb:,} MB of "
            "memory and was stopped", "allow more with {max_memory} MB, if this is the pinned paper") from None
    except ChildFailed as exc:
        if exc.error_type == "PdfError":
            raise PdfError(artifact.path, exc.message, exc.hint) from None
        if exc.error_type == "ReviewLimitError":
            raise ReviewLimitError(exc.message, *([exc.hint] if exc.hint else [])) from None
        raise RegistryError(f"checking {artifact.path} failed: {exc.error_type}: {excerpt(exc.message, 300)[1:-1]}",
                            "run again with {debug} for the details, and report it") from None
    return Readings.from_plain(readings), [Assertion.from_plain(fields) for fields in checked]


def _over_time(limits: ReviewLimits) -> str:
    return (f"the review ran longer than {limits.timeout:g} s (reading the PDF's text and checking its claims) and "
            "was stopped")


def check_pdf(request: CheckRequest) -> tuple[Any, ...]:
    """What the child process runs: both readings of the bytes and every claim checked with both, as plain data.

    Positioned words stay here, where the claims that need them are checked: only the page texts
    (and what the review records of each extraction) go back.
    """
    from review.agreement import check_readings
    from review.extract import read_pdf

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
    from review.fetch import sha256_file

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


def review_id(registry: Registry, run: ReviewRun, today: dt.date) -> str:
    """'<batch>-<yyyymmdd>-review-<subject>-pdf-check', with '-2', '-3', ... if that id is taken."""
    from registry.ids import MAX_ID_LENGTH, compose_id
    from registry.models import parse_id

    source = parse_id(run.plan.source.id)
    subject = run.plan.subjects[0] if len(run.plan.subjects) == 1 else run.plan.source.id
    parsed = parse_id(subject)
    head = compose_id(source.batch, f"{today:%Y%m%d}", "review", "")
    tail = "-pdf-check"
    slug = f"{parsed.kind}-{parsed.slug}"
    room = MAX_ID_LENGTH - len(head) - len(tail) - 4
    if len(slug) > room:
        slug = slug[:room].rsplit("-", 1)[0]
    base = f"{head}{slug}{tail}"
    candidate, number = base, 1
    while candidate in registry.records or (registry.root / "review" / f"{candidate}.yaml").exists():
        number += 1
        candidate = f"{base}-{number}"
    return candidate


def build_review(registry: Registry, run: ReviewRun, *, now: dt.datetime | None = None) -> Review:
    """The review record a fully passing run earns; RegistryError if any assertion failed."""
    from registry.models import Review
    from registry.models.records import ReviewMethod, ReviewStatus
    from review import REVIEWER

    if not run.passed:
        failed = ", ".join(sorted({a.claim for a in run.failures + run.unchecked}))
        raise RegistryError(
            f"not writing a review: {verdicts(run)} ({failed})",
            "a 'source-checked' review is written only when every assertion passes; fix the record or check "
            "that the PDF is the one the source pins, then run again",
        )
    now = (now or dt.datetime.now(dt.UTC)).replace(microsecond=0)
    source = run.plan.source
    retrieval_url, missing = _retrieval(run)
    return Review(
        kind="review",
        id=review_id(registry, run, now.date()),
        subjects=list(run.plan.subjects),
        source=source.id,
        status=ReviewStatus.SOURCE_CHECKED,
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
                 *([ReviewMethod.INDEPENDENT_CELL_CHECK] if run.cells_checked else [])],
        method_note=method_note(run),
        derivation=(
            "Written by 'registry review'; the id is built by the batch convention from the source's batch, the "
            "date of the review and the checked record (a numeric suffix where that id was taken)."
        ),
        note=(f"All {len(run.assertions)} assertions passed: the quoted text, printed values and units match "
              "the cited pages of the pinned PDF."),
        missing_metadata=missing,
    )


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


def method_note(run: ReviewRun) -> str:
    """What was asserted and how each quote matched, in words."""
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
    if run.cells_checked:
        lines.append(f"{run.cells_checked} table cells were located from positioned words (row label by column "
                     "header) and their values, uncertainties and units read from the cell, its header, its row "
                     "label and the caption.")
    lines.append("Asserted:")
    by_record: dict[str, list[Assertion]] = {}
    for assertion in run.assertions:
        by_record.setdefault(assertion.record_id, []).append(assertion)
    for record_id, assertions in by_record.items():
        parts = []
        for a in assertions:
            if a.claim == "page":
                parts.append(f"page {a.page} exists ({a.detail})")
                continue
            where = f" on page {a.page}" if a.page is not None else ""
            how = f" ({a.detail})" if a.detail else ""
            parts.append(f"{a.claim} {a.expected}{where}{how}")
        lines.append(f"- {record_id}: " + "; ".join(parts) + ".")
    return "\n".join(lines)


def write_review(root: Path, registry: Registry, run: ReviewRun, *, now: dt.datetime | None = None) -> tuple[
        Review, Path]:
    """Write the review a passing run earns beside the existing reviews; the registry must stay valid."""
    from registry.store.writer import write_record
    from registry.validate.runner import validate

    review = build_review(registry, run, now=now)
    path = write_record(root, review, comment="Written by 'registry review': an automated source check.")
    _, report = validate(root)
    if not report.valid:
        path.unlink(missing_ok=True)
        first = report.errors[0]
        raise RegistryError(
            f"the review {review.id} would leave the registry invalid ({first.code}: {first.message}); "
            "it was not kept",
            "run 'registry validate' and fix the problems it lists, then run again",
        )
    return review, path
