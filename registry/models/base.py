"""What every record shares: the id, missing-metadata entries, derivation notes, field markers.

Each field is defined once, with ``Field(description=...)``: that description is the
documentation, the JSON Schema and the validation. Two markers in a field's
``json_schema_extra`` feed the whole-registry checks:

- ``x-references``: the field holds ids of records of these kinds (``"*"`` for any kind,
  ``"@transcribed"`` for any kind declared ``transcribed``; see ``registry.models.fields``);
- ``x-reportable``: the source may leave the field unstated; an empty value must then be
  explained by a missing-metadata entry.

A third marker, ``Sql``, sits in a field's annotation (``Annotated[list[Text], Sql(singular="author")]``)
and says only how the SQL mirror (``registry.db.tables``) names or indexes what the field stores, where
its naming rule needs a word it cannot derive; it is not part of the JSON Schema.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints

from registry.ids import ID_FORM, ID_PATTERN, MAX_ID_LENGTH

RecordId = Annotated[
    str,
    StringConstraints(pattern=ID_PATTERN, max_length=MAX_ID_LENGTH),
    Field(description=f"A stable id: '{ID_FORM}', lowercase letters, digits and hyphens."),
]
Sha256 = Annotated[
    str,
    StringConstraints(pattern=r"^[0-9a-f]{64}$"),
    Field(description="A SHA-256 digest as 64 lowercase hexadecimal digits."),
]
Text = Annotated[str, StringConstraints(min_length=1)]
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")]
HttpsUrl = Annotated[str, StringConstraints(pattern=r"^https?://[^\s]+$")]
Doi = Annotated[str, StringConstraints(pattern=r"^10\.\d{4,9}/\S+$"),
                Field(description="A DOI without its resolver, for example '10.1038/s41592-024-02523-z'.")]
ArxivId = Annotated[str, StringConstraints(pattern=r"^(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$"),
                    Field(description="An arXiv identifier, for example '2401.01234v2' or 'cs/0112017'.")]
OpenReviewId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{6,}$"),
                         Field(description="An OpenReview forum id, for example 'NUleWh1GFx'.")]
Timestamp = AwareDatetime


def ref(*kinds: str, description: str, default: Any = ...) -> Any:
    """A field that holds the id of a record of one of ``kinds`` (``"*"``: any kind)."""
    return Field(default, description=description, json_schema_extra={"x-references": list(kinds)})


def refs(*kinds: str, description: str) -> Any:
    """A field that holds a list of ids of records of one of ``kinds``."""
    return Field(default_factory=list, description=description, json_schema_extra={"x-references": list(kinds)})


def reportable(description: str, *, many: bool = False) -> Any:
    """A field the source may leave unstated: empty only with a missing-metadata entry (``many``: a list)."""
    if many:
        return Field(default_factory=list, description=description, json_schema_extra={"x-reportable": True})
    return Field(None, description=description, json_schema_extra={"x-reportable": True})


@dataclass(frozen=True)
class Sql:
    """How the SQL mirror stores a field, where its rule needs a word (see ``registry.db.tables``).

    ``singular`` is what one item of a list or mapping is called (as linkml's ``singular_name``):
    the child table is ``<owner table>_<singular>`` and a plain item's column is ``<singular>``.
    ``table`` names the child table outright; ``key`` is a mapping's key column (default ``key``);
    ``value`` is a plain item's column (default: the singular); ``index`` asks for an index on the
    field's column(s).
    """

    singular: str | None = None
    table: str | None = None
    key: str | None = None
    value: str | None = None
    index: bool = False


class MissingReason(StrEnum):
    """Why a field has no value. A closed vocabulary, so that gaps can be counted and queried."""

    UNREPORTED = "unreported"
    """The source does not state it."""
    NOT_APPLICABLE = "not-applicable"
    """The field does not apply to this record (a memory benchmark has no data split)."""
    NOT_SEPARATELY_DOCUMENTED = "not-separately-documented"
    """Documented only on a linked record, not on this one (see the note)."""
    NOT_TRANSCRIBED = "not-transcribed"
    """The source may state it, but no curator has transcribed it yet."""


class Strict(BaseModel):
    """Base of every model: unknown keys are errors, values are immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=False, defer_build=True)


class MissingMetadata(Strict):
    """One field the record leaves empty on purpose, and why."""

    field: Annotated[Text, Sql(index=True)] = Field(
        description="Name of the empty field on this record (for example 'uncertainty')."
    )
    reason: Annotated[MissingReason, Sql(index=True)] = Field(
        description="Why the field is empty, from a closed vocabulary."
    )
    note: Text | None = Field(None, description="What exactly is missing and what is known instead.")


class Record(Strict):
    """Fields common to every record kind, and the declaration of a kind.

    A kind is one subclass: its ``kind: Literal["<token>"]`` field names it (the token is its
    ``kind`` value, its id's kind word and its folder), and the class keyword ``transcribed=True``
    says that its records are read off a source, so that a review can check them against it.
    ``registry.models`` registers every kind; everything else is derived from these classes.
    """

    kind_token: ClassVar[str]
    """The kind's token ('result'), from its ``kind`` literal."""
    transcribed: ClassVar[bool] = False
    """Whether records of this kind are read off a source (and so can be source-checked)."""

    def __init_subclass__(cls, *, transcribed: bool | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if transcribed is not None:
            cls.transcribed = transcribed

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        field = cls.model_fields.get("kind")
        tokens = typing.get_args(field.annotation) if field is not None else ()
        if typing.get_origin(field.annotation if field else None) is not Literal or len(tokens) != 1:
            raise TypeError(f"{cls.__name__} declares a kind with a field 'kind: Literal[\"<token>\"]'")
        cls.kind_token = str(tokens[0])

    @classmethod
    def folder(cls) -> str:
        """The folder below the records folder that holds this kind's files."""
        return cls.kind_token

    @classmethod
    def sql_name(cls) -> str:
        """The name of the kind's table in the SQL mirror: its token, unless the mirror uses that name already."""
        return cls.kind_token

    id: RecordId = Field(description="The record's stable id; also its file name, without '.yaml'.")
    derivation: Text | None = Field(
        None,
        description=(
            "How this record's id, or any of its values, was derived rather than read off a page "
            "(for example an id built by the batch convention where a page names the record but not its id)."
        ),
    )
    missing_metadata: Annotated[list[MissingMetadata], Sql(table="missing_metadata")] = Field(
        default_factory=list,
        description="Fields this record leaves empty on purpose, each with a reason.",
    )

    def missing(self, field: str) -> MissingMetadata | None:
        return next((entry for entry in self.missing_metadata if entry.field == field), None)

