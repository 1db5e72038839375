"""The views a user would otherwise write: flat results, missing metadata, reproductions beside results.

``results_flat`` holds the current results only (neither superseded by a correction nor retracted;
``registry.status.versions`` says the same in Python); ``results_all`` holds every version with its status,
and ``record_status`` says where each record stands in its chain of versions.

Each view is plain SQL that SQLite and PostgreSQL both run, so a query written against one
works against the other. ``results_flat`` lists every column of the result's own fields, taken
from the derived tables (``registry.db.tables``), so a field added to ``Result`` appears there with
no edit here; the columns it takes from the joined records are chosen by hand. Review status
follows the one rule (``registry.status.provenance.review_status``): the strongest status any review grants
the record, or 'not-reviewed'; ``artifact_pinned`` says, as the pages' "(no artifact hash)" does,
whether a review granting it names the SHA-256 of the file it checked.
"""

from __future__ import annotations

from functools import cache

from sqlalchemy import text
from sqlalchemy.engine import Connection

from measure.outcome import Method
from registry.db.catalog import VIEWS
from registry.db.comparable import comparability_select, leaderboard_select
from registry.db.search import ROWID_COLUMN
from registry.db.tables import Mirror, mirror
from registry.models import KIND_MODELS
from registry.models.attestation import Relation, Stance
from registry.models.checks import ClaimVerdict, WitnessKind
from registry.models.records import ReviewStatus
from registry.models.values import BINARY_OPERATIONS, Operation
from registry.site.links import page_url_sql
from registry.status.provenance import SOURCE_ONLY_LABEL, STATUS_LABELS, STATUS_PRECEDENCE, UNVERIFIABLE_NOTE
from registry.status.standing import Fact
from registry.status.value_roles import Role

NOT_REVIEWED = "not-reviewed"
_PINNED = ReviewStatus.SOURCE_CHECKED


def _label_case() -> str:
    """The status as the pages word it ('source checked (no artifact hash)'), from the inner query's columns."""
    whens = "\n".join(f"         WHEN q.review_status = '{status.value}' THEN '{STATUS_LABELS[status]}'"
                       for status in STATUS_PRECEDENCE)
    return (f"CASE\n         WHEN {_source_only()} THEN '{SOURCE_ONLY_LABEL}'\n"
            f"         WHEN q.review_status = '{_PINNED.value}' AND q.artifact_pinned = 0 "
            f"THEN '{STATUS_LABELS[_PINNED]} {UNVERIFIABLE_NOTE}'\n{whens}\n"
            f"         ELSE '{STATUS_LABELS[None]}' END")


#: Which reviews check which record, as ``registry.status.provenance.reviews_of`` says, as (table, record column, review
#: column): a review's subjects, and each evidence row the review it names (the review that checked its
#: statement). Each is asked apart, by its own index: a UNION of the two inside the per-record subqueries
#: was built again for every record under some plans (a GROUP BY over the view took minutes at 10,000 results).
REVIEWS_OF = (("review_subject", "subject", "review_id"), ("evidence", "id", "review"))


def _checks(review: str, record: str, alias: str) -> str:
    """'EXISTS (...) OR EXISTS (...)': the review whose id is ``review`` checks the record whose id is ``record``."""
    return " OR ".join(f"EXISTS (SELECT 1 FROM {table} {alias} WHERE {alias}.{col} = {record} AND "
                       f"{alias}.{rev} = {review})" for table, col, rev in REVIEWS_OF)


def _current(record: str = "rec.id") -> str:
    """The review ``v`` is one of the record's current reviews: no other review of the record supersedes it
    (``registry.status.provenance.current_reviews``)."""
    return (f"NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id\n"
            f"                          AND ({_checks('ss.review_id', record, 'sc')}))")


def _any_review(condition: str, record: str = "rec.id") -> str:
    """'EXISTS (...) OR EXISTS (...)': some current review that checks ``record`` meets ``condition`` (on ``v``,
    the review)."""
    return " OR ".join(f"EXISTS (SELECT 1 FROM {table} s JOIN review v ON v.id = s.{review}\n"
                       f"                      WHERE s.{col} = {record} AND {condition} AND {_current(record)})"
                       for table, col, review in REVIEWS_OF)


def _review_count() -> str:
    """How many reviews check ``rec``: each counted once, though one may both list it and be named by it."""
    counts = []
    for index, (table, record, review) in enumerate(REVIEWS_OF):
        earlier = "".join(f" AND NOT EXISTS (SELECT 1 FROM {t} o WHERE o.{r} = rec.id AND o.{v} = s.{review})"
                          for t, r, v in REVIEWS_OF[:index])
        counts.append(f"(SELECT COUNT(DISTINCT s.{review}) FROM {table} s WHERE s.{record} = rec.id{earlier})")
    return " + ".join(counts)


def _status_is(status: ReviewStatus) -> str:
    return f"v.status = '{status.value}'"


def _status_case() -> str:
    """The status of the record's current reviews, first of ``STATUS_PRECEDENCE``."""
    whens = "\n".join(f"         WHEN {_any_review(_status_is(status))} THEN '{status.value}'"
                       for status in STATUS_PRECEDENCE)
    return f"CASE\n{whens}\n         ELSE '{NOT_REVIEWED}' END"


def _source_only_review() -> str:
    """The review ``v`` rests on the source document alone for some claim (``provenance.source_only``)."""
    def witnessed(kind: WitnessKind) -> str:
        return (f"EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = "
                f"c.position AND w.kind = '{kind.value}' AND w.verdict = '{ClaimVerdict.PASS.value}')")
    return (f"EXISTS (SELECT 1 FROM review_claim c WHERE c.review_id = v.id AND NOT {witnessed(WitnessKind.PDF_TEXT)}"
            f" AND {witnessed(WitnessKind.SOURCE_DOCUMENT)})")


def _source_only() -> str:
    """The record ``q`` is source checked, and every current passing review of it rests on the source document
    for some claim (``provenance.provenance_of``'s SOURCE_ONLY)."""
    passing_on_pdf = _any_review(f"{_status_is(_PINNED)} AND NOT {_source_only_review()}", "q.record_id")
    return f"q.review_status = '{_PINNED.value}' AND NOT ({passing_on_pdf})"


def _fact(fact: Fact, condition: str) -> str:
    return f"CASE WHEN {condition} THEN '{fact.value}, ' ELSE '' END"


def _facts() -> str:
    """``registry.status.standing.Standing.facts`` as 'fact, fact' from ``q`` (the record's review status) and the
    records that speak of it, in the order of ``Fact``."""
    checked = f"q.review_status = '{_PINNED.value}'"
    source_only = _source_only()
    def said(stance: Stance, extra: str = "") -> str:
        return (f"EXISTS (SELECT 1 FROM attestation a WHERE a.subject = q.record_id AND a.stance = '{stance.value}'"
                f"{extra})")
    def ran(method: Method) -> str:
        return f"EXISTS (SELECT 1 FROM reproduction rp WHERE rp.result = q.record_id AND rp.method = '{method.value}')"
    author = f" AND a.relation = '{Relation.AUTHOR.value}'"
    pieces = [
        _fact(Fact.TRANSCRIBED, f"q.transcribed = 1 AND q.review_status = '{NOT_REVIEWED}'"),
        _fact(Fact.CHECKED_AGAINST_PDF, f"{checked} AND NOT ({source_only})"),
        _fact(Fact.CHECKED_AGAINST_SOURCE_ONLY, source_only),
        _fact(Fact.REVIEW_FAILED, f"q.review_status = '{ReviewStatus.REVIEW_FAILED.value}'"),
        _fact(Fact.COULD_NOT_BE_CHECKED, f"q.review_status = '{ReviewStatus.NOT_CHECKABLE.value}'"),
        _fact(Fact.CONFIRMED_BY_AUTHOR, said(Stance.CONFIRMS, author)),
        _fact(Fact.CONFIRMED, said(Stance.CONFIRMS, f" AND a.relation <> '{Relation.AUTHOR.value}'")),
        _fact(Fact.DISPUTED, said(Stance.DISPUTES)),
        _fact(Fact.CORRECTED, f"q.version = 'superseded' OR {said(Stance.CORRECTS)}"),
        _fact(Fact.RETRACTED, "q.version = 'retracted'"),
        _fact(Fact.REPRODUCED, f"q.kind = 'reproduction' AND q.method = '{Method.MEASURED.value}' OR "
                               f"{ran(Method.MEASURED)}"),
        _fact(Fact.ESTIMATED, f"q.kind = 'reproduction' AND q.method = '{Method.ESTIMATED.value}' OR "
                              f"{ran(Method.ESTIMATED)}"),
    ]
    return "rtrim(" + "\n       || ".join(pieces) + ", ', ')"


def _transcribed_kinds() -> str:
    return ", ".join(f"'{model.kind_token}'" for model in KIND_MODELS.values() if model.transcribed)


def _aggregate(item: str, source: str, order: str, dialect: str) -> str:
    """'a; b; ...' of ``item`` over the rows of ``source`` (a FROM ... WHERE ...) in ``order``: each dialect's own
    string aggregate (SQLite's group_concat over an ordered subquery, PostgreSQL's string_agg)."""
    if dialect == "postgresql":
        return f"(SELECT string_agg({item}, '; ' ORDER BY {order}) {source})"
    return f"(SELECT group_concat(t, '; ') FROM (SELECT {item} AS t {source} ORDER BY {order}))"


def _findings(dialect: str) -> str:
    """What the reviews that decide a failed or not checkable record's status found: each claim that did not pass,
    with what the page showed (``registry.status.standing.findings``)."""
    shown = "COALESCE(c.printed || '; ' || c.detail, c.printed, c.detail, '(nothing recorded)')"
    item = f"c.claim || ' ' || c.asserted || COALESCE(' on page ' || c.page, '') || ': ' || {shown}"
    source = (f"FROM review_subject s JOIN review v ON v.id = s.review_id JOIN review_claim c ON c.review_id = v.id "
              f"WHERE s.subject = q.record_id AND v.status = q.review_status AND v.status IN "
              f"('{ReviewStatus.REVIEW_FAILED.value}', '{ReviewStatus.NOT_CHECKABLE.value}') AND c.verdict <> "
              f"'{ClaimVerdict.PASS.value}' AND {_current('q.record_id')}")
    return _aggregate(item, source, "v.id, c.position", dialect)


def _people(stance: Stance, what: str, dialect: str) -> str:
    """'person (relation)...; ...' of the attestations of ``stance`` about the record."""
    return _aggregate(f"a.person || ' (' || a.relation || ')'{what}",
                      f"FROM attestation a WHERE a.subject = q.record_id AND a.stance = '{stance.value}'", "a.id",
                      dialect)


#: The result's columns that ``results_flat`` lists first (the value as printed, then its unit); every
#: other column of the result's own fields follows in field order.
RESULT_FIRST = ("printed_value", "numeric_value", "numeric_value_float", "unit", "unit_detail")
#: References ``results_flat`` shows through the joined record (as ``evaluation_id``, ``source_id``).
RESULT_JOINED = ("evaluation", "source")
#: Result columns that ``results_flat`` shows under another name.
RESULT_ALIASES: dict[str, str] = {}


def _role_case() -> str:
    """The value's role by ``registry.status.value_roles.role_of``'s rule: derived, a mean's member, a mean, or
    headline."""
    binary = ", ".join(f"'{op.value}'" for op in sorted(BINARY_OPERATIONS))
    return (f"CASE WHEN r.derived_operation IN ({binary}) THEN '{Role.DERIVED.value}'\n"
            f"            WHEN EXISTS (SELECT 1 FROM result_derived_input di JOIN result m ON m.id = di.result_id\n"
            f"                         WHERE di.input = r.id AND m.derived_operation = '{Operation.MEAN.value}')\n"
            f"                 THEN '{Role.MEMBER.value}'\n"
            f"            WHEN r.derived_operation = '{Operation.MEAN.value}' THEN '{Role.AGGREGATE.value}'\n"
            f"            ELSE '{Role.HEADLINE.value}' END")


def _latest_review(column: str) -> str:
    """A column of the latest review that lists the result among its subjects (undated reviews last)."""
    return (f"(SELECT v.{column} FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id\n"
            f"        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1)")


def _missing_fields(dialect: str) -> str:
    """'field: reason; ...' of the result's missing-metadata entries, in their order."""
    return _aggregate("m.field || ': ' || m.reason", "FROM missing_metadata m WHERE m.record_id = r.id", "m.position",
                      dialect)


def _result_columns(tables: Mirror) -> str:
    """The result's own columns as ``results_flat`` selects them: ``r.<column>[ AS <alias>]``, one per line."""
    columns = [column for name, stored in tables.own_columns("result") if name not in RESULT_JOINED
               for column in stored]
    ordered = [c for c in RESULT_FIRST if c in columns] + [c for c in columns if c not in RESULT_FIRST]
    return "\n".join(
        f"       r.{c} AS {RESULT_ALIASES[c]}," if c in RESULT_ALIASES else f"       r.{c}," for c in ordered
    )


#: A record's status by the rule ``registry.status.versions.status_of`` follows: a retraction wins over a correction.
_STATUS_SELECT = f"""
SELECT rec.id AS record_id,
       rec.kind AS kind,
       CASE WHEN EXISTS (SELECT 1 FROM retraction t WHERE t.retracts = rec.id) THEN 'retracted'
            WHEN EXISTS (SELECT 1 FROM correction c WHERE c.supersedes = rec.id) THEN 'superseded'
            ELSE 'current' END AS status,
       (SELECT MIN(c.replacement) FROM correction c WHERE c.supersedes = rec.id) AS superseded_by,
       (SELECT MIN(c.id) FROM correction c WHERE c.supersedes = rec.id) AS correction_id,
       (SELECT MIN(t.id) FROM retraction t WHERE t.retracts = rec.id) AS retraction_id,
       {page_url_sql("rec.kind", "rec.id")} AS record_page
FROM record rec"""


#: The columns ``results_flat`` takes from the records a result names: its evaluation, configuration, model family,
#: protocol, dataset and source.
_RESULT_CONTEXT = """       e.id AS evaluation_id,
       e.name AS evaluation_name,
       e.independence,
       e.split,
       e.adaptation,
       e.update_mode,
       e.aggregated_over_kind,
       e.aggregated_over_count,
       c.id AS configuration_id,
       c.name AS configuration_name,
       c.reported_name,
       c.checkpoint,
       f.id AS model_family_id,
       f.name AS model_family_name,
       p.id AS protocol_id,
       p.name AS protocol_name,
       d.id AS dataset_id,
       d.name AS dataset_name,
       d.version AS dataset_version,
       s.id AS source_id,
       s.title AS source_title,
       s.year AS source_year,
       s.venue AS source_venue,
       s.sha256 AS source_sha256,
       s.retrieval_url AS source_retrieval_url,
       s.doi AS source_doi,
       s.arxiv AS source_arxiv,
       s.openreview AS source_openreview,
"""
#: The joins that bring them in, with the result's review status, its version's status and its unit.
_RESULT_JOINS = """FROM result r
JOIN evaluation e ON e.id = r.evaluation
JOIN config c ON c.id = e.configuration
JOIN family f ON f.id = c.model_family
JOIN protocol p ON p.id = e.protocol
JOIN dataset d ON d.id = e.dataset
JOIN source s ON s.id = r.source
JOIN record_review_status st ON st.record_id = r.id
JOIN record_status hs ON hs.record_id = r.id
"""


def _results_select(tables: Mirror, dialect: str, *, history: bool) -> str:
    """The results as ``results_flat`` lists them; with ``history``, every version and its status."""
    status = ("       hs.status,\n       hs.superseded_by,\n" if history else "")
    current = "" if history else "\nWHERE hs.status = 'current'"
    rowid = f"       r.rowid AS {ROWID_COLUMN},\n" if dialect == "sqlite" else ""  # the search table's key
    return f"""
SELECT r.id AS result_id,
{rowid}{status}{_result_columns(tables)}
       {_role_case()} AS value_role,
       u.dimension AS unit_dimension,
       u.symbol AS unit_symbol,
       (SELECT h.accelerator FROM result_hardware h WHERE h.result_id = r.id
        ORDER BY h.position LIMIT 1) AS hardware_accelerator,
       (SELECT COUNT(*) FROM result_hardware h WHERE h.result_id = r.id) AS hardware_entries,
       st.review_status,
       st.artifact_pinned AS review_artifact_pinned,
       st.review_label,
       st.review_found,
       st.standing,
       st.confirmed_by,
       st.disputed_by,
       {_latest_review("id")} AS latest_review_id,
       {_latest_review("reviewer")} AS latest_reviewer,
       {_latest_review("reviewed_at")} AS latest_reviewed_at,
       (SELECT COUNT(*) FROM missing_metadata m WHERE m.record_id = r.id) AS missing_metadata_count,
       {_missing_fields(dialect)} AS missing_metadata,
{_RESULT_CONTEXT}       {page_url_sql("'result'", "r.id")} AS result_page
{_RESULT_JOINS}LEFT JOIN unit u ON u.token = r.unit{current}"""


def views(dialect: str = "sqlite") -> dict[str, tuple[str, str]]:
    """View name -> (what it shows, its SELECT in ``dialect``), for the tables as derived now. Created in
    ``VIEWS``' order."""
    return _views(mirror(), dialect)


@cache
def _views(tables: Mirror, dialect: str) -> dict[str, tuple[str, str]]:
    selects = _selects(tables, dialect)
    if set(selects) != set(VIEWS):
        raise AssertionError(f"registry.db.catalog.VIEWS and the SELECTs here name different views: "
                             f"{sorted(set(selects) ^ set(VIEWS))}")
    return {name: (description, selects[name]) for name, description in VIEWS.items()}


def _selects(tables: Mirror, dialect: str) -> dict[str, str]:
    """Each view's SELECT, by the name ``registry.db.catalog.VIEWS`` gives it."""
    return {
        "record_review_status": _review_status_select(dialect),
        "record_status": _STATUS_SELECT,
        "failed_claims": _failed_claims_select(),
        "results_flat": _results_select(tables, dialect, history=False),
        "results_all": _results_select(tables, dialect, history=True),
        "comparability": comparability_select(),
        "leaderboard": leaderboard_select(),
        "missing_metadata_all": _missing_metadata_select(),
        "reproductions_side_by_side": _reproductions_select(),
    }


def _review_status_select(dialect: str) -> str:
    """Each record's review status, what its reviews found and its standing (``record_review_status``)."""
    return f"""
SELECT q.record_id,
       q.kind,
       q.review_status,
       q.artifact_pinned,
       {_label_case()} AS review_label,
       q.review_count,
       {_findings(dialect)} AS review_found,
       {_facts()} AS standing,
       {_people(Stance.CONFIRMS, "", dialect)} AS confirmed_by,
       {_people(Stance.DISPUTES, " || ': ' || a.believed_value", dialect)} AS disputed_by,
       q.record_page
FROM (SELECT rec.id AS record_id,
       rec.kind AS kind,
       {_status_case()} AS review_status,
       CASE WHEN {_any_review(_status_is(_PINNED) + " AND v.artifact_sha256 IS NOT NULL")}
            THEN 1 ELSE 0 END AS artifact_pinned,
       {_review_count()} AS review_count,
       CASE WHEN rec.kind IN ({_transcribed_kinds()}) THEN 1 ELSE 0 END AS transcribed,
       hs.status AS version,
       (SELECT rp.method FROM reproduction rp WHERE rp.id = rec.id) AS method,
       {page_url_sql("rec.kind", "rec.id")} AS record_page
FROM record rec JOIN record_status hs ON hs.record_id = rec.id) q"""


def _failed_claims_select() -> str:
    """Every claim that did not pass in a current record's deciding review (``failed_claims``)."""
    return f"""
SELECT q.record_id,
       q.kind,
       q.review_status,
       v.id AS review_id,
       v.reviewer,
       v.reviewed_at,
       v.artifact_sha256,
       c.position AS claim_position,
       c.claim,
       c.asserted,
       c.verdict,
       c.page,
       c.printed,
       c.detail,
       r.printed_value AS record_printed_value,
       r.unit AS record_unit,
       r.source AS source_id,
       q.record_page
FROM record_review_status q
JOIN review_subject s ON s.subject = q.record_id
JOIN review v ON v.id = s.review_id AND v.status = q.review_status
JOIN review_claim c ON c.review_id = v.id
LEFT JOIN result r ON r.id = q.record_id
WHERE q.review_status IN ('{ReviewStatus.REVIEW_FAILED.value}', '{ReviewStatus.NOT_CHECKABLE.value}')
  AND c.verdict <> '{ClaimVerdict.PASS.value}' AND {_current('q.record_id')}"""


def _missing_metadata_select() -> str:
    """Every missing metadata entry, with its record's kind, file and page (``missing_metadata_all``)."""
    return f"""
SELECT m.record_id,
       rec.kind,
       m.field,
       m.reason,
       m.note,
       rec.path,
       {page_url_sql("rec.kind", "m.record_id")} AS record_page
FROM missing_metadata m
JOIN record rec ON rec.id = m.record_id"""


def _reproductions_select() -> str:
    """Each reproduction beside the result it reproduces (``reproductions_side_by_side``)."""
    return f"""
SELECT rp.id AS reproduction_id,
       r.id AS result_id,
       rp.recipe AS recipe_id,
       rp.method,
       rp.outcome,
       rp.hardware_kind,
       rp.hardware_name,
       r.unit,
       r.printed_value AS transcribed_printed_value,
       r.numeric_value AS transcribed_value,
       rp.value AS our_value,
       rp.value_gib AS our_value_gib,
       rp.comparison_difference AS difference,
       rp.comparison_ratio AS ratio,
       rp.value_float AS our_value_float,
       rp.comparison_difference_float AS difference_float,
       rp.comparison_ratio_float AS ratio_float,
       rp.started_at,
       rp.git_commit,
       {page_url_sql("'reproduction'", "rp.id")} AS reproduction_page,
       {page_url_sql("'result'", "r.id")} AS result_page
FROM reproduction rp
JOIN result r ON r.id = rp.result"""


def create_views(connection: Connection) -> None:
    for name, (_, select) in views(connection.dialect.name).items():
        connection.execute(text(f"CREATE VIEW {name} AS{select}"))


def drop_views(connection: Connection) -> None:
    for name in reversed(views()):
        connection.execute(text(f"DROP VIEW IF EXISTS {name}"))
