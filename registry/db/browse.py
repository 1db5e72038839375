"""What Datasette needs to make the database browsable: facets, sort orders, label columns, units, the
canned queries researchers ask most, full-text search, and links to the site's pages.

One declaration each; ``registry.db.metadata`` puts them into the metadata file beside the database.
The canned queries are plain SQL on the views (so they run as well in ``registry query``); where a
base URL is given, each query also gives the site page of the records it lists (Datasette shows a
URL as a link), else no address is made up.
"""

from __future__ import annotations

from dataclasses import dataclass

from registry.db.search import MATCH_TERMS, ROWID_COLUMN, SEARCH_TABLE

#: Facets Datasette offers on a table or view, by name.
FACETS: dict[str, tuple[str, ...]] = {
    "results_flat": ("value_role", "unit_dimension", "metric", "review_status", "standing", "dataset_name",
                     "model_family_name",
                     "hardware_accelerator"),
    "results_all": ("status", "value_role", "metric", "review_status"),
    "missing_metadata_all": ("kind", "field", "reason"),
    "record_review_status": ("kind", "review_status", "standing"),
    "failed_claims": ("review_status", "claim", "verdict", "kind"),
    "attestation": ("stance", "relation", "person"),
    "record_status": ("kind", "status"),
    "reproductions_side_by_side": ("method", "outcome", "hardware_name"),
    "review": ("status", "reviewer"),
    "result": ("metric", "unit", "metric_direction"),
    "evaluation": ("independence", "update_mode"),
}
#: Default sort orders: (column, descending).
SORTS: dict[str, tuple[str, bool]] = {
    "results_flat": ("result_id", False),
    "results_all": ("result_id", False),
    "review": ("reviewed_at", True),
    "reproductions_side_by_side": ("started_at", True),
    "missing_metadata_all": ("record_id", False),
}
#: The column that names a row, shown beside a foreign key that points at it.
LABELS: dict[str, str] = {"config": "name", "dataset": "name", "family": "name", "protocol": "name",
                          "evaluation": "name", "source": "title", "release": "name", "review": "reviewer",
                          "result": "metric_qualifier"}
#: Columns with one unit in every row (Pint's names), for Datasette's unit conversion.
UNITS: dict[str, dict[str, str]] = {
    "reproduction": {"value_bytes": "byte", "reserved_bytes": "byte", "warmup_peak_bytes": "byte",
                     "hardware_memory_bytes": "byte", "duration_s": "s"},
    "reproductions_side_by_side": {"our_value_gib": "GiB"},
}
#: Full-text search: (the search table, the column holding its rowid) of each table or view Datasette's ``_search``
#: searches (Datasette escapes what is typed there itself).
SEARCHABLE = {"result": (SEARCH_TABLE, "rowid"), "results_flat": (SEARCH_TABLE, ROWID_COLUMN)}


@dataclass(frozen=True)
class Query:
    title: str
    description: str
    sql: str
    pages: tuple[tuple[str, str], ...] = ()
    """(kind, id column) of the records whose site pages the query links where a base URL is given."""


QUERIES: dict[str, Query] = {
    "results_on_a_dataset": Query(
        "Results on a dataset, with ± and review status",
        "Every current result whose dataset name or id contains the text given, with its uncertainty as printed "
        "and its review status; folds, means and differences are told apart by value_role.",
        "SELECT result_id, configuration_name, metric, metric_qualifier, printed_value, unit_symbol, "
        "uncertainty_printed, uncertainty_kind, value_role, review_label, dataset_name\n"
        "FROM results_flat\n"
        "WHERE dataset_name LIKE '%' || :dataset || '%' OR dataset_id LIKE '%' || :dataset || '%'\n"
        "ORDER BY dataset_name, metric, value_role, configuration_name, result_id",
        (("result", "result_id"),)),
    "reproduced_vs_printed": Query(
        "Reproduced vs printed",
        "Each run of ours beside the value the source printed: measured or estimated (never merged), our value, "
        "the difference and the ratio, on the hardware we ran.",
        "SELECT s.result_id, f.configuration_name, f.metric, s.transcribed_printed_value, s.unit, s.method, "
        "s.outcome, s.our_value, s.difference, s.ratio, s.hardware_name, s.started_at, s.reproduction_id\n"
        "FROM reproductions_side_by_side s JOIN results_flat f ON f.result_id = s.result_id\n"
        "ORDER BY s.result_id, s.method, s.started_at",
        (("result", "s.result_id"), ("reproduction", "s.reproduction_id"))),
    "differences_between_configurations": Query(
        "Differences between configurations",
        "Every difference, ratio, relative change, reduction or speed-up the source prints, with the two values "
        "it compares and their configurations.",
        "SELECT f.result_id, f.metric, f.derived_operation, f.printed_value, f.unit_symbol, "
        "v.configuration_name AS value_configuration, v.printed_value AS value_printed, "
        "b.configuration_name AS baseline_configuration, b.printed_value AS baseline_printed, f.dataset_name\n"
        "FROM results_flat f\n"
        "LEFT JOIN results_flat v ON v.result_id = f.derived_value\n"
        "LEFT JOIN results_flat b ON b.result_id = f.derived_baseline\n"
        "WHERE f.value_role = 'derived'\n"
        "ORDER BY f.dataset_name, f.metric, f.result_id",
        (("result", "f.result_id"),)),
    "who_checked_what": Query(
        "Who checked what, when and how",
        "Every review: who, when, the status it grants, whether it pins the file's SHA-256, each method, and each "
        "record it checked.",
        "SELECT v.id AS review_id, v.reviewer, v.reviewed_at, v.status, v.artifact_sha256 IS NOT NULL AS "
        "artifact_pinned, m.method, s.subject AS checked_record\n"
        "FROM review v\n"
        "JOIN review_subject s ON s.review_id = v.id\n"
        "LEFT JOIN review_method m ON m.review_id = v.id\n"
        "ORDER BY v.reviewed_at DESC, v.id, s.position, m.position",
        (("review", "v.id"),)),
    "throughput_and_latency": Query(
        "Throughput and latency, with hardware",
        "Every current result measured as items per second or as a time, with each statement of the source "
        "about the hardware it ran on (named as the source names it).",
        "SELECT f.result_id, f.configuration_name, f.metric, f.metric_qualifier, f.printed_value, f.unit_symbol, "
        "f.unit_dimension, h.accelerator, h.count, h.memory_value, h.memory_unit, h.stated, h.location\n"
        "FROM results_flat f LEFT JOIN result_hardware h ON h.result_id = f.result_id\n"
        "WHERE f.unit_dimension IN ('throughput', 'time')\n"
        "ORDER BY f.unit_dimension, f.metric, f.configuration_name, h.position",
        (("result", "f.result_id"),)),
    "best_comparable": Query(
        "Best comparable value per benchmark and metric",
        "The value ranked first within each comparability key (benchmark, split, metric in one unit, setting, "
        "aggregate, input length, hardware): values of different keys are never ranked together; ties share "
        "rank 1. The value as printed, its canonical value and its review status.",
        "SELECT l.benchmark, l.metric, l.comparability_key, l.reported_name, l.configuration_name, l.printed_value, "
        "l.unit, l.canonical_value, l.canonical_unit, l.review_label, l.source_id, l.result_id\n"
        "FROM leaderboard l\n"
        "WHERE l.rank = 1\n"
        "ORDER BY l.benchmark, l.metric, l.comparability_key, l.result_id",
        (("result", "l.result_id"),)),
    "search": Query(
        "Search the results",
        "Full-text search (SQLite FTS5) over names, qualifiers, quotes, uncertainty and hardware: type words as "
        "they are printed (for example H3K4me3, H100, NT 2.5B, Lumen-B or ProtoCLIP-B/16); every word must be "
        "found. Hyphens, slashes, dots and quotes are read as text, never as search syntax.",
        f"SELECT f.result_id, f.configuration_name, f.dataset_name, f.metric, f.metric_qualifier, f.printed_value, "
        f"f.unit_symbol, f.uncertainty_printed, f.value_role, f.review_label\n"
        f"FROM {SEARCH_TABLE} s JOIN results_flat f ON f.result_id = s.result_id\n"
        f"WHERE {SEARCH_TABLE} MATCH {MATCH_TERMS}\n"
        f"ORDER BY s.rank, f.result_id",
        (("result", "f.result_id"),)),
}


def canned_queries(base_url: str | None) -> dict[str, dict[str, str]]:
    """Datasette's canned queries; with ``base_url``, each lists the site page of every record it names."""
    found = {}
    for name, query in QUERIES.items():
        sql = query.sql
        if base_url:
            select, rest = sql.split("\nFROM ", 1)
            links = "".join(f", '{_quoted(base_url)}{kind}/' || {column} || '.html' AS {kind}_page"
                            for kind, column in query.pages)
            sql = f"{select}{links}\nFROM {rest}"
        found[name] = {"title": query.title, "description": query.description, "sql": sql}
    return found


def _quoted(text: str) -> str:
    return text.replace("'", "''")
