"""The database schema: one SQLModel table per record kind, and child tables for lists and mappings.

Column names follow the record fields, so a YAML key and its column read the same:

- a scalar field ``f`` is column ``f`` (a reference keeps its field name and holds the id);
- a nested object ``f`` (hardware, comparison, ...) is flattened into ``f_<subfield>`` columns;
- an exact decimal ``f`` is stored twice: ``f`` exactly (NUMERIC on PostgreSQL, the decimal's text on
  SQLite, whose NUMERIC would round it) and ``f_float`` as a double, for arithmetic and sorting;
- a list or mapping field has a child table (see ``CHILDREN``), one row per item, keyed by the
  owning record's id and the item's position (or key).

``record`` lists every record (id, kind, file), so that references to records of any kind
(review subjects, release members, evidence subjects, missing-metadata entries) have a foreign key.
Timestamps are stored in UTC. ``tests/test_db_build.py`` checks that every field of every record
kind has a home here, so a model change that is not mirrored fails a test.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, Date, DateTime, Double, ForeignKeyConstraint, Numeric, String, TypeDecorator
from sqlalchemy import Table as SaTable
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import registry as mapper_registry
from sqlmodel import Field, SQLModel

#: Bumped when tables or views change incompatibly; stored in ``registry_meta``.
SCHEMA_VERSION = 1


class ExactDecimal(TypeDecorator[Decimal]):
    """An exact decimal: NUMERIC on PostgreSQL; elsewhere its canonical text ('33.88'), never a float."""

    impl = String
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> Any:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(Numeric(asdecimal=True))
        return dialect.type_descriptor(String())

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None or dialect.name == "postgresql":
            return value
        return str(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Decimal | None:
        return None if value is None else Decimal(str(value))


class UtcTimestamp(TypeDecorator[dt.datetime]):
    """A point in time, stored in UTC (SQLite keeps no time zone, so every value is converted first)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        utc = value.astimezone(dt.UTC)
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: Any, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value


class Table(SQLModel, registry=mapper_registry()):
    """Base of every registry table, with its own metadata so no other SQLModel table mixes in."""


def sa_table(model: type[Table]) -> SaTable:
    """The SQLAlchemy table behind a table class (SQLModel sets ``__table__`` when the class is made)."""
    return model.__table__  # type: ignore[attr-defined,no-any-return]


# Column helpers: every integer is 64-bit (seeds and byte counts outgrow 32 bits).


def _record_id() -> Any:
    return Field(primary_key=True, foreign_key="record.id")


def _ref(table: str, *, optional: bool = False) -> Any:
    return Field(None if optional else ..., foreign_key=f"{table}.id", index=True)


def _int(*, optional: bool = False, primary_key: bool = False) -> Any:
    return Field(None if optional else ..., sa_type=BigInteger, primary_key=primary_key)


def _exact(*, optional: bool = False) -> Any:
    return Field(None if optional else ..., sa_type=ExactDecimal)


def _float(*, optional: bool = False) -> Any:
    return Field(None if optional else ..., sa_type=Double)


def _position() -> Any:
    return Field(primary_key=True, sa_type=BigInteger, description="Position of the item in its list, from 0.")


# -- every record ---------------------------------------------------------------------------


class RecordRow(Table, table=True):
    """Every record: its id, its kind and its file (relative to the records folder)."""

    __tablename__ = "record"
    id: str = Field(primary_key=True)
    kind: str = Field(index=True)
    path: str


class MissingMetadataRow(Table, table=True):
    """A field a record leaves empty on purpose, and why (every kind)."""

    __tablename__ = "missing_metadata"
    record_id: str = Field(primary_key=True, foreign_key="record.id")
    position: int = _position()
    field: str = Field(index=True)
    reason: str = Field(index=True)
    note: str | None = None


# -- the transcribed kinds ------------------------------------------------------------------


class SourceRow(Table, table=True):
    __tablename__ = "source"
    id: str = _record_id()
    title: str
    year: int = _int()
    venue: str
    role: str
    host: str
    heading: str
    page_count: int = _int()
    pdf_creation_date: dt.date = Field(sa_type=Date)
    retrieval_url: str
    sha256: str
    hash_scope: str | None = None
    derivation: str | None = None


class SourceAuthorRow(Table, table=True):
    __tablename__ = "source_author"
    source_id: str = Field(primary_key=True, foreign_key="source.id")
    position: int = _position()
    author: str


class FamilyRow(Table, table=True):
    __tablename__ = "family"
    id: str = _record_id()
    name: str
    derivation: str | None = None


class ConfigRow(Table, table=True):
    __tablename__ = "config"
    id: str = _record_id()
    name: str
    description: str | None = None
    profile: str | None = None
    reported_name: str
    model_family: str = _ref("family")
    source: str = _ref("source")
    source_locator: str | None = None
    hardware_description: str | None = None
    provenance_note: str | None = None
    checkpoint: str | None = None
    version: str | None = None
    fine_tuning_description: str | None = None
    training_setting: str | None = None
    derivation: str | None = None


class ConfigAreaRow(Table, table=True):
    __tablename__ = "config_area"
    config_id: str = Field(primary_key=True, foreign_key="config.id")
    position: int = _position()
    area: str = Field(index=True)


class ConfigContextRow(Table, table=True):
    __tablename__ = "config_context"
    config_id: str = Field(primary_key=True, foreign_key="config.id")
    position: int = _position()
    context: str = Field(index=True)


class ConfigMethodTypeRow(Table, table=True):
    __tablename__ = "config_method_type"
    config_id: str = Field(primary_key=True, foreign_key="config.id")
    position: int = _position()
    method_type: str = Field(index=True)


class ProtocolRow(Table, table=True):
    __tablename__ = "protocol"
    id: str = _record_id()
    name: str
    source: str = _ref("source")
    derivation: str | None = None


class DatasetRow(Table, table=True):
    __tablename__ = "dataset"
    id: str = _record_id()
    name: str
    source: str = _ref("source")
    seed: int | None = _int(optional=True)
    derivation: str | None = None


class EvaluationRow(Table, table=True):
    __tablename__ = "evaluation"
    id: str = _record_id()
    name: str
    configuration: str = _ref("config")
    protocol: str = _ref("protocol")
    dataset: str = _ref("dataset")
    independence: str
    aggregation: str | None = None
    coverage_scored: int | None = _int(optional=True)
    coverage_eligible: int | None = _int(optional=True)
    split: str | None = None
    adaptation: str | None = None
    update_mode: str | None = None
    scoring_implementation: str | None = None
    derivation: str | None = None


class ResultRow(Table, table=True):
    __tablename__ = "result"
    id: str = _record_id()
    evaluation: str = _ref("evaluation")
    metric: str = Field(index=True)
    metric_direction: str
    metric_qualifier: str
    unit: str
    unit_detail: str | None = None
    printed_value: str
    numeric_value: Decimal = _exact()
    numeric_value_float: float = _float()
    uncertainty: str | None = None
    scope_note: str | None = None
    hardware_description: str | None = None
    source: str = _ref("source")
    source_locator: str
    derivation: str | None = None


class ResultSourceCheckRow(Table, table=True):
    """A further assertion 'registry review' makes: this text is printed on this page of the pinned PDF."""

    __tablename__ = "result_source_check"
    result_id: str = Field(primary_key=True, foreign_key="result.id")
    position: int = _position()
    claim: str
    text: str
    page: int | None = _int(optional=True)


class ReviewRow(Table, table=True):
    __tablename__ = "review"
    id: str = _record_id()
    source: str = _ref("source")
    status: str
    reviewer: str | None = None
    reviewer_note: str | None = None
    reviewed_at: dt.datetime | None = Field(None, sa_type=UtcTimestamp)
    artifact_sha256: str | None = None
    extraction_sha256: str | None = None
    retrieval_url: str | None = None
    method_note: str | None = None
    note: str | None = None
    derivation: str | None = None


class ReviewSubjectRow(Table, table=True):
    __tablename__ = "review_subject"
    review_id: str = Field(primary_key=True, foreign_key="review.id")
    position: int = _position()
    subject: str = Field(foreign_key="record.id", index=True)


class ReviewMethodRow(Table, table=True):
    __tablename__ = "review_method"
    review_id: str = Field(primary_key=True, foreign_key="review.id")
    position: int = _position()
    method: str = Field(index=True)


class EvidenceRow(Table, table=True):
    __tablename__ = "evidence"
    id: str = _record_id()
    subject: str = Field(foreign_key="record.id", index=True)
    property: str
    statement: str
    claim_scope: str
    source: str = _ref("source")
    source_locator: str
    source_independence: str
    review: str = _ref("review")
    field: str | None = None
    source_artifact_sha256: str | None = None
    hash_scope: str | None = None
    extraction_artifact_sha256: str | None = None
    derivation: str | None = None


class ReleaseRow(Table, table=True):
    __tablename__ = "release"
    id: str = _record_id()
    name: str
    derivation: str | None = None


class ReleaseMemberRow(Table, table=True):
    __tablename__ = "release_member"
    release_id: str = Field(primary_key=True, foreign_key="release.id")
    position: int = _position()
    member: str = Field(foreign_key="record.id", index=True)


# -- what we re-ran ourselves ---------------------------------------------------------------


class RecipeRow(Table, table=True):
    __tablename__ = "recipe"
    id: str = _record_id()
    result: str = _ref("result")
    experiment: str
    dataset: str | None = _ref("dataset", optional=True)
    fixed_model: str
    fixed_stage: str
    fixed_sequence_length: int = _int()
    fixed_batch_size: int = _int()
    fixed_data_seed: int = _int()
    fixed_metric: str
    verified: bool
    derivation: str | None = None


class RecipeKnobRow(Table, table=True):
    __tablename__ = "recipe_knob"
    recipe_id: str = Field(primary_key=True, foreign_key="recipe.id")
    position: int = _position()
    name: str
    note: str | None = None


class RecipeKnobCandidateRow(Table, table=True):
    """One value a recipe's knob may take; ``value_type`` says how to read ``value`` (string, integer, boolean)."""

    __tablename__ = "recipe_knob_candidate"
    __table_args__ = (
        ForeignKeyConstraint(["recipe_id", "knob_position"], ["recipe_knob.recipe_id", "recipe_knob.position"]),
    )
    recipe_id: str = Field(primary_key=True)
    knob_position: int = _position()
    position: int = _position()
    value: str
    value_type: str


class ReproductionRow(Table, table=True):
    __tablename__ = "reproduction"
    id: str = _record_id()
    result: str = _ref("result")
    recipe: str = _ref("recipe")
    method: str
    model: str
    outcome: str
    error: str | None = None
    value_bytes: int | None = _int(optional=True)
    value: Decimal | None = _exact(optional=True)
    value_float: float | None = _float(optional=True)
    value_gib: Decimal | None = _exact(optional=True)
    value_gib_float: float | None = _float(optional=True)
    reserved_bytes: int | None = _int(optional=True)
    warmup_peak_bytes: int | None = _int(optional=True)
    comparison_transcribed: Decimal | None = _exact(optional=True)
    comparison_transcribed_float: float | None = _float(optional=True)
    comparison_reproduced: Decimal | None = _exact(optional=True)
    comparison_reproduced_float: float | None = _float(optional=True)
    comparison_difference: Decimal | None = _exact(optional=True)
    comparison_difference_float: float | None = _float(optional=True)
    comparison_ratio: Decimal | None = _exact(optional=True)
    comparison_ratio_float: float | None = _float(optional=True)
    attention_impl: str | None = None
    tokens_per_sequence: int | None = _int(optional=True)
    parameters: int | None = _int(optional=True)
    trainable_parameters: int | None = _int(optional=True)
    steps: int | None = _int(optional=True)
    warmup_steps: int | None = _int(optional=True)
    method_note: str | None = None
    hardware_kind: str
    hardware_name: str
    hardware_memory_bytes: int | None = _int(optional=True)
    hardware_count: int = _int()
    git_commit: str | None = None
    command: str
    started_at: dt.datetime = Field(sa_type=UtcTimestamp)
    duration_s: float = _float()
    derivation: str | None = None


class ReproductionSettingRow(Table, table=True):
    """The value of one knob in one run; ``value_type`` says how to read ``value``."""

    __tablename__ = "reproduction_setting"
    reproduction_id: str = Field(primary_key=True, foreign_key="reproduction.id")
    knob: str = Field(primary_key=True)
    value: str
    value_type: str


class ReproductionBreakdownRow(Table, table=True):
    __tablename__ = "reproduction_breakdown"
    reproduction_id: str = Field(primary_key=True, foreign_key="reproduction.id")
    category: str = Field(primary_key=True)
    bytes: int = _int()


class ReproductionSoftwareRow(Table, table=True):
    __tablename__ = "reproduction_software"
    reproduction_id: str = Field(primary_key=True, foreign_key="reproduction.id")
    name: str = Field(primary_key=True)
    version: str | None = None


class MetaRow(Table, table=True):
    """Facts about the build: schema version and record counts (nothing that changes between two builds)."""

    __tablename__ = "registry_meta"
    key: str = Field(primary_key=True)
    value: str


# -- where each kind and each list lives ----------------------------------------------------

#: The table of each record kind, by kind token.
KIND_TABLES: dict[str, type[Table]] = {
    "source": SourceRow,
    "family": FamilyRow,
    "config": ConfigRow,
    "protocol": ProtocolRow,
    "dataset": DatasetRow,
    "evaluation": EvaluationRow,
    "result": ResultRow,
    "review": ReviewRow,
    "evidence": EvidenceRow,
    "release": ReleaseRow,
    "recipe": RecipeRow,
    "reproduction": ReproductionRow,
}


@dataclass(frozen=True)
class Child:
    """The table that holds a list or mapping field, one row per item.

    ``owner`` names the column(s) holding the owner's key. A list adds a ``position`` column; a
    mapping puts its key in ``key``. An item that is a plain value goes in ``value``; an item that
    is an object spreads its fields over columns of their own names, and its own list fields go to
    ``children``. Where a value may be text, a number or a flag, ``value_type`` says which.
    """

    table: type[Table]
    owner: tuple[str, ...]
    value: str | None = None
    key: str | None = None
    children: dict[str, Child] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return str(self.table.__tablename__)


#: The child table of each list or mapping field, by (kind token, field); kind "*" is every kind.
CHILDREN: dict[tuple[str, str], Child] = {
    ("*", "missing_metadata"): Child(MissingMetadataRow, ("record_id",)),
    ("source", "authors"): Child(SourceAuthorRow, ("source_id",), value="author"),
    ("config", "areas"): Child(ConfigAreaRow, ("config_id",), value="area"),
    ("config", "contexts"): Child(ConfigContextRow, ("config_id",), value="context"),
    ("config", "method_types"): Child(ConfigMethodTypeRow, ("config_id",), value="method_type"),
    ("result", "source_checks"): Child(ResultSourceCheckRow, ("result_id",)),
    ("review", "subjects"): Child(ReviewSubjectRow, ("review_id",), value="subject"),
    ("review", "methods"): Child(ReviewMethodRow, ("review_id",), value="method"),
    ("release", "members"): Child(ReleaseMemberRow, ("release_id",), value="member"),
    ("recipe", "knobs"): Child(
        RecipeKnobRow,
        ("recipe_id",),
        children={"candidates": Child(RecipeKnobCandidateRow, ("recipe_id", "knob_position"), value="value")},
    ),
    ("reproduction", "setting"): Child(ReproductionSettingRow, ("reproduction_id",), key="knob", value="value"),
    ("reproduction", "breakdown_bytes"): Child(
        ReproductionBreakdownRow, ("reproduction_id",), key="category", value="bytes"
    ),
    ("reproduction", "software"): Child(ReproductionSoftwareRow, ("reproduction_id",), key="name", value="version"),
}


def child_of(kind: str, field_name: str) -> Child | None:
    """The child table of ``kind``'s list or mapping field, if it has one."""
    return CHILDREN.get((kind, field_name)) or CHILDREN.get(("*", field_name))


def all_children() -> list[Child]:
    """Every child table, nested ones after their parents."""
    found: list[Child] = []

    def walk(child: Child) -> None:
        found.append(child)
        for sub in child.children.values():
            walk(sub)

    for child in CHILDREN.values():
        walk(child)
    return found


#: Every table, parents before children, in the order they are filled.
METADATA = Table.metadata
