"""Every issue code ``registry validate`` can report, declared once: code, severity, the rule, what to fix.

Tools and tests match on codes, never on wording, so a code is stable once published. Each
is declared here and nowhere else: the loader, the YAML reader and the whole-registry checks
report issues through these objects (``CODE.issue(...)``), the table of codes in docs/validation.md is
generated from them (``python -m registry.cli.docs --write``; a test keeps it in step),
and the test that every rule has an invalid record reads them too.

frictionless-py's ``error/error.py`` is the model: one object per kind of problem, with a
title and a description that documentation is built from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from registry.issues.report import Issue, Severity


class Stage(StrEnum):
    """When a problem is found, which is also what it stops."""

    FILE = "file"
    """Reading the file: it is not one readable YAML mapping, so no record is made from it."""
    SCHEMA = "schema"
    """Typing the record against its kind: the file is read, but no record is made from it."""
    REGISTRY = "registry"
    """Checking the registry as a whole: the record loads, but disagrees with itself or with others."""


@dataclass(frozen=True)
class Code:
    """One kind of problem."""

    code: str
    stage: Stage
    rule: str
    """What the rule requires, as the table of codes in docs/validation.md says it."""
    fix: str
    """What to do about it, in general terms (each message says what to do in its case)."""
    severity: Severity = Severity.ERROR

    def issue(self, file: str, line: int | None, message: str, *, record_id: str | None = None,
              field: str | None = None, code: str | None = None) -> Issue:
        """An issue of this kind at ``file:line``; ``code`` names a member of a family such as ``schema-*``."""
        return Issue(file=file, line=line, code=code or self.code, message=message, severity=self.severity,
                     record_id=record_id, field=field)

    @property
    def is_family(self) -> bool:
        return self.code.endswith("*")


CODES: dict[str, Code] = {}


def _declare(code: str, stage: Stage, rule: str, fix: str, severity: Severity = Severity.ERROR) -> Code:
    if code in CODES:
        raise ValueError(f"issue code {code!r} is declared twice")
    CODES[code] = declared = Code(code, stage, rule, fix, severity)
    return declared


F, S, R = Stage.FILE, Stage.SCHEMA, Stage.REGISTRY
WARNING = Severity.WARNING

# -- reading a file -------------------------------------------------------------------------------
NO_RECORDS = _declare("no-records", F, "the records folder holds no record files (a wrong records folder)",
                      "point the command at the folder that holds `<kind>/<id>.yaml` files")
UNREADABLE_FILE = _declare("unreadable-file", F, "the file cannot be read (permissions, a broken link)",
                           "check the file's permissions, or remove it")
LINK_OUTSIDE = _declare("link-outside-records", F, "the file is a symbolic link to a file outside the records "
                       "folder (never read: it could be any file on the machine)",
                       "copy the record into the records folder, or remove the link")
FILE_TOO_LARGE = _declare("file-too-large", F, "the file is larger than a record file can be (1,000,000 bytes)",
                          "split it: one record per file")
BINARY_FILE = _declare("binary-file", F, "the file is not UTF-8 text", "save it as UTF-8 text")
EMPTY_FILE = _declare("empty-file", F, "the file holds no YAML document", "write one record as a mapping, or "
                      "remove the file")
YAML_SYNTAX = _declare("yaml-syntax", F, "the file is not valid YAML", "fix the YAML at the line given")
YAML_ALIAS = _declare("yaml-alias", F, "the file uses YAML anchors, aliases or merge keys",
                      "write every value out in full")
YAML_TOO_DEEP = _declare("yaml-too-deep", F, "values nest deeper than 32 levels", "records are shallow: flatten it")
DUPLICATE_KEY = _declare("duplicate-key", F, "a key appears twice in one mapping", "keep one of them")
INVALID_VALUE = _declare("invalid-value", F, "a value YAML cannot read (such as the date 2026-02-30)",
                         "write a real value, or quote it as text")
NOT_A_MAPPING = _declare("not-a-mapping", F, "the file holds a list or a single value, not one mapping",
                         "write one record as `key: value` lines")

# -- typing a record ------------------------------------------------------------------------------
MISSING_KIND = _declare("missing-kind", S, "the record does not say which kind it is", "add `kind: <kind>`")
UNKNOWN_KIND = _declare("unknown-kind", S, "the record's kind is not one of the registry's kinds",
                        "write one of the kinds the message lists")
SCHEMA = _declare("schema-*", S, "a field fails its kind's schema (`schema-missing`, `schema-extra-forbidden`, "
                  "`schema-string-pattern-mismatch`, ...; the suffix is the kind of failure)",
                  "fix the field named, as the message says")

# -- checking the registry as a whole -------------------------------------------------------------
DUPLICATE_ID = _declare("duplicate-id", R, "two files hold the same id", "give one of them a new id")
ID_KIND_MISMATCH = _declare("id-kind-mismatch", R, "the id names another kind than the record's",
                            "make the id's kind and the record's kind agree")
ID_DATE_INVALID = _declare("id-date-invalid", R, "the date in the id is not a real day (`20261399`)",
                           "write the batch's real date in the id")
ID_DATE_IN_FUTURE = _declare("id-date-in-future", R, "the date in the id lies after today (UTC): no batch is filed "
                             "tomorrow", "write the day the batch was filed in the id")
FILE_NAME_MISMATCH = _declare("file-name-mismatch", R, "the file is not `<kind>/<id>.yaml`",
                              "move or rename the file to the path the message gives")
UNRESOLVED_REFERENCE = _declare("unresolved-reference", R, "a reference names no record",
                                "correct the id (the message suggests the closest) or add the record")
REFERENCE_WRONG_KIND = _declare("reference-wrong-kind", R, "a reference names a record of a kind the field does "
                                "not take", "name a record of a kind the field takes")
REFERENCE_REPEATED = _declare("reference-repeated", R, "a list of references names the same record twice (a "
                              "release's members, a review's subjects, a mean's inputs)",
                              "list each record once")
REFERENCES_UNCHECKED = _declare("references-unchecked", R, "the references to a record whose file did not load wait "
                                "until it loads (one warning on that file, not one error per referrer)",
                                "fix the errors of that file", WARNING)
VALUE_MISMATCH = _declare("value-mismatch", R, "a result's printed value and numeric value disagree",
                          "make numeric_value the exact decimal of the printed digits")
VALUE_NOT_IN_QUOTE = _declare("value-not-in-quote", R, "a result's printed value is not among the numbers its "
                              "locator's quote prints (a mistyped digit, or a quote of another sentence or cell)",
                              "correct the printed value or the quote, copying both from the source", WARNING)
LOCATOR_PAGE_OUT_OF_RANGE = _declare("locator-page-out-of-range", R, "a locator's page lies beyond the pages of the "
                                     "pinned source it cites (its `page_count`)",
                                     "correct the page, counted from 1 in the pinned PDF")
UNIT_DETAIL_MISMATCH = _declare("unit-detail-mismatch", R, "a result's `unit_detail` says it is printed as a form "
                                "only other units are printed as ('Printed as ms' for a count)",
                                "make `unit` the printed unit, or correct `unit_detail`")
UNIT_DETAIL_OLD_FORM = _declare("unit-detail-old-form", R, "a result's `unit_detail` says 'Printed as' a phrase "
                                "that holds its unit's form but is not one (\"Printed as 'in percent'\", as older "
                                "records wrote it), and no `unit_printed` says the form",
                                "run `registry fmt`, which writes the form as `unit_printed`", WARNING)
UNKNOWN_UNIT = _declare("unknown-unit", R, "a result's `unit` is neither a built-in unit nor declared by a unit "
                        "record of the registry", "write the unit meant (the message names the closest), or add a "
                        "unit record (`records/unit/<id>.yaml`)")
UNIT_TOKEN_TAKEN = _declare("unit-token-taken", R, "a unit record's token is a built-in unit's or another unit "
                            "record's", "give the unit another token, or use the unit that has it")
UNIT_FORM_CLAIMED = _declare("unit-form-claimed", R, "a unit record's symbol or printed form is already how a unit "
                             "of another dimension is printed", "remove the form from the record")
MISSING_UNKNOWN_FIELD = _declare("missing-unknown-field", R, "a missing-metadata entry names a field the kind does "
                                 "not have", "name one of the record's fields")
MISSING_CONTRADICTION = _declare("missing-contradiction", R, "a missing-metadata entry names a field that has a "
                                 "value", "remove the value or the entry")
MISSING_DUPLICATE = _declare("missing-duplicate", R, "two missing-metadata entries name the same field",
                             "keep one entry")
MISSING_UNEXPLAINED = _declare("missing-unexplained", R, "a reportable field is empty without a missing-metadata "
                               "entry", "give the value, or add a missing_metadata entry with a reason")
REVIEW_HASH_MISMATCH = _declare("review-hash-mismatch", R, "a review checked another file than the one its source "
                                "pins", "review the pinned file, or correct the hash")
REVIEW_SUBJECT_MISMATCH = _declare("review-subject-mismatch", R, "a review names a subject that cites another source "
                                   "than the one it checked", "remove the subject, or review its own source")
REVIEW_UNVERIFIABLE = _declare("review-unverifiable", R, "a source-checked review names no artifact hash",
                               "add the SHA-256 of the file the review checked", WARNING)
REVIEW_URL_MISMATCH = _declare("review-url-mismatch", R, "a review retrieved its file from another URL than the "
                               "source's", "check that both name the same file", WARNING)
BENCHMARK_SAME_EXTERNAL_ID = _declare(
    "benchmark-same-external-id", R, "two benchmark records give the same external identifier (Hugging Face dataset, "
    "Papers with Code slug, DOI or URL): they are one benchmark", "keep one record and point the datasets to it, or "
    "correct the identifier", WARNING)
DATASET_BENCHMARK_UNLINKED = _declare(
    "dataset-benchmark-unlinked", R, "a dataset record is named like a benchmark record but points to no "
    "benchmark, and does not say why", "add `benchmark: <id>`, or a missing_metadata entry for `benchmark` saying "
    "why it is not that benchmark (a private split)", WARNING)
RELEASE_MEMBER_LATER = _declare("release-member-later", R, "a release lists a record whose id is dated after the "
                                "release (a batch filed later cannot have been published in it)",
                                "remove the record from the release's members, or correct the release")
REVIEW_BEFORE_SOURCE = _declare("review-before-source", R, "a review is dated before the day its source's pinned "
                                "PDF was made (its `pdf_creation_date`), so it cannot have checked that file",
                                "correct `reviewed_at`, or the source's `pdf_creation_date`")
EVIDENCE_STATEMENT_MISMATCH = _declare("evidence-statement-mismatch", R, "an evidence row states another value than "
                                       "its result prints", "make the statement the result's printed value")
EVIDENCE_REVIEW_MISMATCH = _declare("evidence-review-mismatch", R, "an evidence row cites a review that did not check "
                                    "its subject, or checked another source", "cite the review that checked it")
REVIEW_SUPERSEDES_MISMATCH = _declare(
    "review-supersedes-mismatch", R, "a review supersedes itself, or a review that checked none of its subjects",
    "name only earlier reviews of the same record")
ATTESTATION_CORRECTION_MISMATCH = _declare(
    "attestation-correction-mismatch", R, "an attestation that corrects a value names a correction that does not "
    "supersede that value", "name the correction that supersedes the attested result")
REPRODUCTION_COMPARISON_MISMATCH = _declare(
    "reproduction-comparison-mismatch", R, "a reproduction's value disagrees with its bytes, or its comparison with "
    "its result", "file the run again: values are derived from the bytes and the result")
REPRODUCTION_RECIPE_MISMATCH = _declare(
    "reproduction-recipe-mismatch", R, "a reproduction disagrees with its recipe (another result, another model, a "
    "knob the recipe lacks)", "file a run of the recipe's own setting")
REPRODUCTION_SETTING_UNSWEPT = _declare(
    "reproduction-setting-unswept", R, "a reproduction's knob value is not among its recipe's candidates",
    "add the value to the recipe's candidates if it is worth sweeping", WARNING)
REPRODUCTION_METHOD_MISMATCH = _declare(
    "reproduction-method-mismatch", R, "a measured run records no GPU runtime (CUDA or ROCm/HIP version), a CPU-only "
    "torch, a CPU kernel or no warm-up step; an estimate names a GPU as its hardware; the id names the other method",
    "file a new run instead of editing a copied record")
UNCERTAINTY_MISMATCH = _declare(
    "uncertainty-mismatch", R, "an uncertainty's printed text and its exact values disagree",
    "make half_width (or lower and upper) the exact values of the printed numbers")
UNCERTAINTY_EXCLUDES_VALUE = _declare(
    "uncertainty-excludes-value", R, "an interval or range does not contain the value it is printed with",
    "check both against the source: one of them is mistranscribed")
AGGREGATE_MISMATCH = _declare(
    "aggregate-mismatch", R, "what an uncertainty was computed over disagrees with what its evaluation aggregates",
    "make the two counts agree, or correct the one the source does not print")
DERIVED_MISMATCH = _declare(
    "derived-mismatch", R, "a derived result's printed digits disagree with the value recomputed from its inputs, "
    "beyond their rounding", "check the numbers against the source: one of them is mistranscribed")
DERIVED_INPUTS = _declare(
    "derived-inputs", R, "a derived result's inputs cannot give it (the result itself, units of other dimensions, a "
    "baseline that may be zero)", "name the two results the source computed it from")
SPLIT_UNKNOWN = _declare(
    "split-unknown", R, "an evaluation names a split its dataset does not list", "name one of the dataset's splits")
SOURCE_IDENTIFIER_MISMATCH = _declare(
    "source-identifier-mismatch", R, "a source's identifier disagrees with its retrieval URL",
    "correct the identifier or the URL")
DATE_IN_FUTURE = _declare("date-in-future", R, "a date or time lies after now", "correct the date")
VALUE_OUT_OF_RANGE = _declare(
    "value-out-of-range", R, "a value the database cannot hold: an integer beyond 64 bits, a number that is not "
    "finite, a decimal of more than 28 significant digits, a time with no UTC equivalent in the years 1 to 9999",
    "correct the value")
CONTROL_CHARACTER = _declare(
    "control-character", R, "a text holds a character a terminal acts on instead of printing it (a control "
    "character such as the escape of `\\x1b[2J`, a bidirectional override, a lone surrogate), or an invisible mark "
    "that makes two different texts look the same (a zero-width space or joiner, a soft hyphen, a tag character)",
    "remove the character; tabs and line breaks are fine")

# -- corrections, retractions and batch writes (registry/validate/rules/history.py) -------------------------
CORRECTION_KIND_MISMATCH = _declare(
    "correction-kind-mismatch", R, "a correction's replacement is not of the kind of the record it supersedes, or is "
    "that record itself", "name a new record of the same kind as the replacement")
CORRECTION_BRANCH = _declare(
    "correction-branch", R, "a chain of versions branches: a record superseded by two corrections, or one record "
    "replacing two", "keep one correction; a chain has one current record")
CORRECTION_CYCLE = _declare(
    "correction-cycle", R, "corrections supersede each other in a cycle, so no version of the chain is current",
    "remove the correction that closes the cycle")
CORRECTION_REVIEW_SHARED = _declare(
    "correction-review-shared", R, "one review source-checks both a record and its replacement, which hold different "
    "values", "review the replacement on its own, against the source")
CORRECTION_UNREVIEWED = _declare(
    "correction-unreviewed", R, "the replacement of a source-checked record has no review of its own, so it reads "
    "'not reviewed' until one checks it", "check the replacement against the source and file its review", WARNING)
RETRACTION_CONFLICT = _declare(
    "retraction-conflict", R, "a record is retracted twice, or retracted and superseded: only a chain's current "
    "record is withdrawn, once", "keep one retraction, of the chain's current record")
INPUT_NOT_CURRENT = _declare(
    "input-not-current", R, "a current derived result's input, or a current evidence row's subject, is superseded or "
    "retracted, so it holds a value worked out from an earlier version",
    "file a correction of it that names the current version (or retract it)", WARNING)
INTERRUPTED_BATCH = _declare(
    "interrupted-batch", R, "a batch write (`registry import`, `new`, `fmt`) was interrupted part-way, so some of its "
    "files are in place and others not", "undo it with `registry recover` (the next import, new or fmt does too)")
LEFTOVER_BATCH = _declare(
    "leftover-batch", R, "a batch write was killed while it staged its files: none is in place, so the registry is as "
    "it was, but its staging folder `.registry-batch` is left", "remove it with `registry recover`", WARNING)
BATCH_JOURNAL_REFUSED = _declare(
    "batch-journal-refused", R, "the staging folder's journal is not one a batch of this registry wrote (malformed, "
    "or naming a file outside the records folder, a link, a pipe or a device): it is never acted on",
    "look at the files it names, then remove the folder `.registry-batch` by hand")

del F, S, R, WARNING


def schema_code(pydantic_type: str) -> str:
    """The member of the ``schema-*`` family for one kind of Pydantic error ('string_type' -> 'schema-string-type')."""
    return "schema-" + pydantic_type.replace("_", "-")


def is_declared(code: str) -> bool:
    """Whether ``code`` is a declared code or a member of a declared family."""
    return code in CODES or any(c.is_family and code.startswith(c.code[:-1]) for c in CODES.values())


# -- the table in docs/validation.md ---------------------------------------------------------------------------

def markdown_table() -> str:
    """The table of codes as docs/validation.md shows it, in declaration order."""
    rows = ["| code | severity | when | rule | what to do |", "|---|---|---|---|---|"]
    for code in CODES.values():
        rows.append(f"| `{code.code}` | {code.severity.value} | {code.stage.value} | {code.rule} | {code.fix} |")
    return "\n".join(rows)

