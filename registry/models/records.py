"""The transcribed record kinds: what a curator reads off a paper and a reviewer checks.

A source is the paper (``registry.models.source``); a model family and a configuration say what was tested; a
protocol and a dataset say how; an evaluation joins them; a result is one printed
number; a review says who checked what against the pinned PDF, and what it found (of any
verdict); an evidence row ties one statement to its place in the source; a release names a
published state of the registry.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, NonNegativeInt, PositiveInt, field_validator, model_validator

from registry.models.base import (
    HttpsUrl,
    Record,
    Sha256,
    Slug,
    Sql,
    Strict,
    Text,
    Timestamp,
    ref,
    refs,
    reportable,
)
from registry.models.checks import CheckedClaim, ClaimVerdict
from registry.models.unit import UnitToken
from registry.models.values import (
    Aggregate,
    BoundSign,
    Derivation,
    HardwareEntry,
    Locator,
    RangeUpper,
    Uncertainty,
)
from registry.numbers import RANGE_DASH


class ModelFamily(Record, transcribed=True):
    """A family of models, for example the Nucleotide Transformer."""

    kind: Literal["family"]
    name: Text = Field(description="The family's name.")


class FineTuning(Strict):
    """How the model was adapted or trained in this configuration."""

    description: Text = Field(description="The adaptation or training recipe, including what the source leaves open.")


class Configuration(Record, transcribed=True):
    """One tested configuration: a model in a specific setup, as one source ran it."""

    kind: Literal["config"]
    name: Text = Field(description="Display name, with its source in parentheses.")
    description: Text | None = reportable("One or two sentences on what was run.")
    profile: Text | None = Field(None, description="A reviewed explanatory profile of the configuration, if any.")
    areas: Annotated[list[Slug], Sql(singular="area", index=True)] = Field(
        default_factory=list, description="Application areas (for example 'dna-genomes')."
    )
    contexts: Annotated[list[Slug], Sql(singular="context", index=True)] = Field(
        default_factory=list, description="Contexts of use (for example 'research')."
    )
    method_types: Annotated[list[Slug], Sql(singular="method_type", index=True)] = Field(
        default_factory=list, description="Method types (for example 'foundation_model')."
    )
    reported_name: Text = Field(description="The model's name as the source reports it (for example 'NT 2.5B').")
    model_family: str = ref("family", description="The model family this configures.")
    source: str = ref("source", description="The source that describes this configuration.")
    source_locator: Locator | None = reportable("Where in the source the configuration is described.")
    hardware: list[HardwareEntry] = reportable(
        "The hardware the source ran this configuration on: one entry per statement, with where it is made.",
        many=True)
    provenance_note: Text | None = Field(None, description="Who implemented and measured it, and what that implies.")
    checkpoint: Text | None = reportable("The exact checkpoint (repository and revision) that was run.")
    version: Text | None = reportable("Code or software versions the source gives.")
    fine_tuning: FineTuning | None = reportable("How the model was adapted or trained.")
    training_setting: Text | None = reportable("Which training setting or ablation stage this is.")


class Protocol(Record, transcribed=True):
    """How an evaluation is carried out, as the source describes it."""

    kind: Literal["protocol"]
    name: Text = Field(description="Display name, with its source and locator in parentheses.")
    source: str = ref("source", description="The source that defines the protocol.")


class Split(Strict):
    """One split of a dataset, as the source describes it."""

    name: Text = Field(description="The split's name as the source uses it (for example 'test').")
    size: NonNegativeInt | None = Field(None, description="How many items it holds, where the source says.")
    items: Text | None = Field(None, description="What the size counts (for example 'sequences').")
    note: Text | None = Field(None, description="How the split was made, where the source says.")


class Dataset(Record, transcribed=True):
    """The data an evaluation runs on."""

    kind: Literal["dataset"]
    name: Text = Field(description="Display name, with its source in parentheses.")
    source: str = ref("source", description="The source that describes the data.")
    seed: int | None = Field(None, description="Random seed of a synthetic dataset, where the source gives one.")
    version: Text | None = reportable("The dataset's version or revision, as the source names it.")
    splits: Annotated[list[Split], Sql(singular="split")] = reportable(
        "The splits the source describes, with their sizes.", many=True)
    folds: PositiveInt | None = Field(None, description="Number of cross-validation folds, where the data is used "
                                      "in cross-validation.")
    benchmark: str | None = ref(
        "benchmark", default=None, description="The benchmark this data is (a registry-wide benchmark record), so "
        "that other papers' values on it share its leaderboard; empty where it is none, with why in "
        "missing_metadata where a benchmark exists (for example a private split).")

    @field_validator("splits")
    @classmethod
    def _split_names_unique(cls, splits: list[Split]) -> list[Split]:
        names = [split.name for split in splits]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(f"split names must be unique; repeated: {', '.join(repeated)}")
        return splits


class Independence(StrEnum):
    """Who ran an evaluation relative to the model's developers."""

    INDEPENDENT_EXTERNAL = "independent-external"
    DEVELOPER = "developer"


class UpdateMode(StrEnum):
    """Which parameters a training step updates."""

    FULL = "full"
    LORA = "lora"


class Setting(StrEnum):
    """How the model met the evaluation's task: a facet of the comparability key (``registry.comparability``)."""

    ZERO_SHOT = "zero-shot"
    """No example of the task and no training on it."""
    FEW_SHOT = "few-shot"
    """A few examples of the task in the prompt or context, no training on it (``shots`` says how many)."""
    LINEAR_PROBE = "linear-probe"
    """Frozen weights, a linear head trained on the task."""
    FINE_TUNED = "fine-tuned"
    """Weights trained on the task (fully or with an adapter)."""
    FROM_SCRATCH = "from-scratch"
    """Trained on the task from random weights."""


class Evaluation(Record, transcribed=True):
    """One configuration run under one protocol on one dataset."""

    kind: Literal["evaluation"]
    name: Text = Field(description="Display name of the evaluation.")
    configuration: str = ref("config", description="The tested configuration (the system under evaluation).")
    protocol: str = ref("protocol", description="The protocol followed.")
    dataset: str = ref("dataset", description="The dataset used.")
    independence: Independence = Field(description="Whether the evaluators developed the model.")
    aggregation: Text | None = reportable("How per-item scores were aggregated.")
    aggregated_over: Aggregate | None = reportable(
        "How many runs, seeds, folds or samples each result of the evaluation aggregates.")
    coverage_scored: int | None = reportable("How many items were scored.")
    coverage_eligible: int | None = reportable("How many items were eligible.")
    split: Text | None = reportable("The data split evaluated.")
    adaptation: Text | None = reportable("What the model did during the evaluation (for example 'Training step').")
    update_mode: UpdateMode | None = reportable("Whether a training step updates all weights or a LoRA adapter.")
    scoring_implementation: Text | None = reportable("The code that computed the metric.")
    setting: Setting | None = Field(
        None, description="How the model met the task: zero-shot, few-shot, linear-probe, fine-tuned or "
        "from-scratch, as the source says. Values of different settings are never ranked together; empty: the "
        "comparability key says 'setting unstated'.")
    shots: PositiveInt | None = Field(None, description="How many examples a few-shot evaluation gives the model.")
    input_length: Text | None = Field(
        None, description="The length of each input as the source states it (for example '400 bp' or '2048 "
        "tokens'), where it changes the number; values of different input lengths are never ranked together.")

    @model_validator(mode="after")
    def _coverage_is_ordered(self) -> Evaluation:
        if self.shots is not None and self.setting is not Setting.FEW_SHOT:
            raise ValueError(f"shots ({self.shots}) belong to a few-shot evaluation: set 'setting: few-shot' or "
                             "leave 'shots' out")
        if self.coverage_scored is not None and self.coverage_eligible is not None:
            if self.coverage_scored > self.coverage_eligible:
                raise ValueError(
                    f"coverage_scored ({self.coverage_scored}) exceeds coverage_eligible ({self.coverage_eligible})"
                )
        return self


class Direction(StrEnum):
    LOWER = "lower"
    HIGHER = "higher"


class SourceClaim(StrEnum):
    """What a listed source check asserts about a result, beyond its value, unit and quote."""

    MODEL_LABEL = "model-label"
    """The model's name as printed (must also be its configuration's reported name)."""
    PROTOCOL = "protocol"
    DATA_LINK = "data-link"
    FIGURE_STAGE = "figure-stage"
    DIRECTION = "direction"
    HARDWARE = "hardware"


class SourceCheck(Strict):
    """One further assertion a source check makes: this text is printed on this page of the pinned PDF."""

    claim: SourceClaim = Field(description="What the text supports (model label, protocol, data link, ...).")
    text: Text = Field(description="The text as printed in the source, word for word.")
    page: int | None = Field(
        None, ge=1, description="The page it is printed on; empty: the page the source locator cites."
    )


class Result(Record, transcribed=True):
    """One number as a source printed it, with what it measures and where it was printed."""

    kind: Literal["result"]
    evaluation: str = ref("evaluation", description="The evaluation that produced this number.")
    metric: Annotated[Slug, Sql(index=True)] = Field(description="What is measured (for example 'peak-memory').")
    metric_direction: Direction | None = reportable(
        "Whether lower or higher is better; a count of items (a row 'N') has none: leave it empty with a "
        "missing-metadata entry of reason 'not-applicable'.")
    metric_qualifier: Text = Field(description="Conditions that qualify the metric (stage, length, batch size).")
    unit: UnitToken = Field(description="Unit of the value: the token of a built-in unit (for example 'gigabyte'; "
                            "see registry/units.py) or of a unit record of the registry ('images-per-second'). This "
                            "schema checks the token's form only; 'registry validate' checks that the registry has "
                            "the unit (code 'unknown-unit').")
    unit_detail: Text | None = Field(None, description="How the source prints the unit, and any ambiguity in it.")
    unit_printed: Text | None = Field(
        None, description="The unit exactly as the source prints it with the value (for example 'img/s' or 'GB'), "
        "where it prints one; read in place of a 'Printed as ...' sentence in unit_detail, which older records use.")
    printed_value: Text = Field(description="The value exactly as printed, as text (for example '33.88').")
    numeric_value: Decimal = Field(description="The printed value as an exact decimal; must equal printed_value.")
    bound: BoundSign | None = Field(
        None, description="Where the source prints a bound, not a value ('p < 0.001', '> 99%', '≤ 2 GB'): its sign "
        "('<', '≤', '>' or '≥'), printed before printed_value, which is then the bound's number. Empty: the value "
        "itself.")
    range_upper: RangeUpper | None = Field(
        None, description="Where the source prints a range as one result ('12–15 GB', '12-15', '12 to 15'): "
        "its upper end, printed and exact; printed_value and numeric_value then hold the lower end, which every "
        "reader of numeric_value gets (never a midpoint, which the source does not print). Empty: not a range.")
    uncertainty: Uncertainty | None = reportable("The uncertainty the source prints with the value.")
    scope_note: Text | None = Field(None, description="What exactly the value covers, with where the source says so.")
    hardware: list[HardwareEntry] = reportable(
        "The hardware the value was measured on: one entry per statement, with where it is made.", many=True)
    derived: Derivation | None = Field(
        None, description="Where the source computed this value from two others it prints (a difference, ratio, "
        "relative change or speed-up): which, and from what.")
    source: str = ref("source", description="The source that printed the value.")
    source_locator: Locator = Field(description="Where the value is printed: page, section, table cell or figure, "
                                    "quoted text.")
    source_checks: Annotated[list[SourceCheck], Sql(singular="source_check")] = Field(
        default_factory=list,
        description=(
            "Further assertions 'registry review' makes against the pinned PDF, beyond the quote, value and unit "
            "the locator gives: each is text printed on a page (for example the model label 'NT 2.5B')."
        ),
    )

    @property
    def unit_form(self) -> str | None:
        """How the source prints the unit: unit_printed, else the form unit_detail's 'Printed as ...' names."""
        from registry.units import printed_as

        return self.unit_printed if self.unit_printed is not None else printed_as(self.unit_detail)

    @property
    def as_printed(self) -> str:
        """The value as the source prints it, its bound's sign or its range's upper end included ('< 0.001',
        '12–15', '33.88'). A range is shown with an en dash however the source sets it; the quote check reads
        any dash or 'to' between the ends (``registry.numbers_in_text.printed_pattern``)."""
        if self.range_upper is not None:
            return f"{self.printed_value}{RANGE_DASH}{self.range_upper.printed_value}"
        return f"{self.bound.value} {self.printed_value}" if self.bound is not None else self.printed_value

    @model_validator(mode="after")
    def _one_shape(self) -> Result:
        if self.bound is not None and self.range_upper is not None:
            raise ValueError("a value is a bound or a range, not both: give bound for '< 0.001', range_upper for "
                             "'12–15'")
        return self

    @field_validator("numeric_value", mode="before")
    @classmethod
    def _no_binary_floats(cls, value: object) -> object:
        if isinstance(value, float):
            raise ValueError(
                f"numeric_value is a YAML float, which cannot hold decimals exactly; quote it: numeric_value: "
                f"'{value!r}' (with every digit the source prints, trailing zeros included)"
            )
        return value


class ReviewStatus(StrEnum):
    """What a review found, for every record it names. Source checking is not reproduction."""

    SOURCE_CHECKED = "source-checked"
    """Every claim passed: the pinned source prints what the record says."""
    REVIEW_FAILED = "review-failed"
    """A claim failed: the source prints something else (the review's claims say what)."""
    NOT_CHECKABLE = "could-not-be-checked"
    """No claim failed, but one could not be checked (a table, row or column that could not be read), or the page
    prints no unit for a value whose record names one ('unit not printed')."""


def status_of_verdicts(verdicts: list[ClaimVerdict]) -> ReviewStatus:
    """The status a review's claims earn: failed if one failed, else not checkable if one could not be checked or
    names a unit the page does not print, else source checked."""
    if ClaimVerdict.FAIL in verdicts:
        return ReviewStatus.REVIEW_FAILED
    if ClaimVerdict.CANNOT_CHECK in verdicts or ClaimVerdict.UNIT_NOT_PRINTED in verdicts:
        return ReviewStatus.NOT_CHECKABLE
    return ReviewStatus.SOURCE_CHECKED


class ReviewMethod(StrEnum):
    """How a reviewer checked a record against its source."""

    SOURCE_HASH_VERIFICATION = "source-hash-verification"
    PDF_TEXT_PARSE = "pdf-text-parse"
    AI_ASSISTED_SOURCE_REVIEW = "ai-assisted-source-review"
    SCOPE_REVIEW = "scope-review"
    INDEPENDENT_CELL_CHECK = "independent-cell-check"
    RENDERED_SOURCE_VISUAL_CHECK = "rendered-source-visual-check"
    HUMAN_SOURCE_REVIEW = "human-source-review"


class Review(Record):
    """One dated check of one or more records against the pinned source."""

    kind: Literal["review"]
    subjects: Annotated[list[str], Sql(singular="subject")] = refs(
        "@transcribed",
        description="The records this review checked: transcribed records only (a review checks a transcription "
        "against its source; our own reproductions and estimates are never source-checked).",
    )
    source: str = ref("source", description="The source the records were checked against.")
    status: ReviewStatus = Field(description="What the review found for its subjects: 'source-checked', "
                                 "'review-failed' or 'could-not-be-checked'; where it lists its claims, the status "
                                 "their verdicts earn.")
    reviewer: Text | None = reportable("Who reviewed: a person, an agent or a script with its version.")
    reviewer_note: Text | None = Field(None, description="Who the reviewer is and what kind of review this was.")
    reviewed_at: Timestamp | None = reportable("When the review was done (with a time zone).")
    artifact_sha256: Sha256 | None = reportable("SHA-256 of the file the reviewer checked; must equal the source's.")
    extraction_sha256: Sha256 | None = Field(
        None, description="SHA-256 of the text extracted from the PDF, where the review parsed it."
    )
    second_extraction_sha256: Sha256 | None = Field(
        None, description="SHA-256 of a second, independent extraction of the text (for example poppler's "
        "pdftotext, pages joined by form feeds), where the review checked its claims against two extractors."
    )
    retrieval_url: HttpsUrl | None = reportable("Where the reviewed file was retrieved from.")
    methods: Annotated[list[ReviewMethod], Sql(singular="method", index=True)] = Field(
        default_factory=list, description="How the review checked the records."
    )
    method_note: Text | None = Field(None, description="What the methods did, in detail.")
    note: Text | None = Field(None, description="The review's conclusion.")
    extractors: Annotated[list[Text], Sql(singular="extractor")] = Field(
        default_factory=list, description="The programs that read the source, each with its version (for example "
        "'pypdf 5.1.0 with PDFium 6996', 'pdftotext 24.02.0').")
    claims: Annotated[list[CheckedClaim], Sql(singular="claim")] = Field(
        default_factory=list, description="Every claim checked, with what the record asserted, what the source "
        "showed and the verdict: a failed review says here what the page printed instead. A review that lists its "
        "claims has one subject.")
    supersedes: Annotated[list[str], Sql(singular="superseded")] = refs(
        "review", description="Earlier reviews of the same subject that this one supersedes: they stay as its "
        "history, and the subject's status is this review's.")

    @field_validator("subjects")
    @classmethod
    def _has_subjects(cls, value: list[str]) -> list[str]:
        if not value:
            raise ValueError("a review must name at least one subject record")
        return value

    @model_validator(mode="after")
    def _claims_earn_the_status(self) -> Review:
        if not self.claims:
            return self
        if len(self.subjects) != 1:
            raise ValueError(f"a review that lists its claims has one subject, not {len(self.subjects)}: write one "
                             "review per record")
        earned = status_of_verdicts([claim.verdict for claim in self.claims])
        if earned is not self.status:
            raise ValueError(f"status is {self.status.value!r}, but its claims' verdicts earn {earned.value!r}")
        return self


class EvidenceProperty(StrEnum):
    REPORTED_RESULT = "reported-result"


class ClaimScope(StrEnum):
    INDIVIDUAL_CLAIMS = "individual-claims"
    CONTEXT_ONLY = "context-only"


class SourceIndependence(StrEnum):
    INDEPENDENT_PAPER = "independent-paper"
    DEVELOPER_PAPER = "developer-paper"


class Evidence(Record, transcribed=True):
    """One statement of a record tied to one place in one source, and the review that checked it."""

    kind: Literal["evidence"]
    subject: str = ref("@transcribed", description="The transcribed record the statement belongs to.")
    property: EvidenceProperty = Field(description="Which property of the subject the statement gives.")
    statement: Text = Field(description="The statement as the registry holds it (for a result, its printed value).")
    claim_scope: ClaimScope = Field(description="Whether the citation verifies this statement or only gives context.")
    source: str = ref("source", description="The source cited.")
    source_locator: Locator = Field(description="Where in the source the statement is made.")
    source_independence: SourceIndependence = Field(description="Whether the source's authors developed the model.")
    review: str = ref("review", description="The review that checked this statement.")
    field: Text | None = reportable("The subject's field the statement fills.")
    source_artifact_sha256: Sha256 | None = reportable("SHA-256 of the source file this row was checked against.")
    hash_scope: Text | None = reportable("What bytes that SHA-256 covers.")
    extraction_artifact_sha256: Sha256 | None = reportable("SHA-256 of the extraction this row was read from.")


class Release(Record):
    """A named, published state of the registry."""

    kind: Literal["release"]
    name: str = Field(
        pattern=r"^\d{4}-\d{2}-\d{2}-[0-9a-f]{12}$",
        description="'<yyyy-mm-dd>-<12 hex digits>': the release date and a prefix of its content hash.",
    )
    members: Annotated[list[str], Sql(singular="member")] = refs(
        "*", description="The records this release published."
    )

    @property
    def date(self) -> dt.date:
        return dt.date.fromisoformat(self.name[:10])

    @field_validator("name")
    @classmethod
    def _date_is_real(cls, value: str) -> str:
        try:
            dt.date.fromisoformat(value[:10])
        except ValueError as exc:
            raise ValueError(f"release name {value!r} does not start with a real date: {exc}") from exc
        return value
