"""Full-text search over the current results (SQLite FTS5): names, qualifiers, quotes, hardware.

``results_search`` holds one row per row of ``results_flat``, its rowid the result's own rowid in the
``result`` table (``results_flat.result_rowid``), so that Datasette's ``_search`` on ``result`` and on
``results_flat`` (``fts_table`` and ``fts_pk`` in the metadata), the canned ``search`` query (each word typed
quoted: ``MATCH_TERMS``) and a plain ``MATCH`` all find a result by any of the words a researcher would type: the
model, dataset, protocol and family names, the metric and its qualifier, the quote the value was printed in, the
uncertainty as printed, the hardware. PostgreSQL has its own text search and gets no such table.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.engine import Connection

SEARCH_TABLE = "results_search"
#: The columns searched, each a column of ``results_flat`` (``result_id`` is kept, not indexed).
SEARCHED: dict[str, str] = {
    "configuration_name": "The configuration's display name.",
    "reported_name": "The model's name as the source prints it.",
    "model_family_name": "The model family's name.",
    "dataset_name": "The dataset's name.",
    "protocol_name": "The protocol's name.",
    "evaluation_name": "The evaluation's name.",
    "metric": "What is measured.",
    "metric_qualifier": "Conditions that qualify the metric.",
    "source_locator_quote": "The text the value is printed in, quoted from the source.",
    "uncertainty_printed": "The uncertainty as printed.",
    "uncertainty_kind": "What the uncertainty is (standard-deviation, standard-error, confidence-interval, ...).",
    "uncertainty_note": "What the source says about the uncertainty.",
    "scope_note": "What exactly the value covers.",
    "hardware_accelerator": "The accelerator the source names for the value.",
    "source_title": "The source's title.",
}


#: ``:q`` as FTS5 terms, in SQL (so that the canned query runs in ``registry query`` as in Datasette): each
#: space-separated word a quoted string, so that what FTS5 would parse as syntax ('Birds-200', 'Lumen-B',
#: 'ProtoCLIP-B/16', 'NT 2.5B', AND, a stray quote) is read as text; every word must be found. Runs of up to
#: eight spaces count as one (an empty string matches nothing).
MATCH_TERMS = ("'\"' || replace(replace(replace(replace(trim(:q), '\"', '\"\"'), '  ', ' '), '  ', ' '), ' ', "
               "'\" \"') || '\"'")
#: The column of ``results_flat`` (SQLite only) that holds the result's rowid, the search table's key, so that
#: Datasette's ``?_search=`` on the view (``fts_pk``) finds the same rows.
ROWID_COLUMN = "result_rowid"


def search_ddl() -> str:
    """The statement that makes the table (kept in the golden SQLite DDL with the others)."""
    return f"CREATE VIRTUAL TABLE {SEARCH_TABLE} USING fts5(result_id UNINDEXED, {', '.join(SEARCHED)})"


def create_search(connection: Connection) -> None:
    """Make and fill the FTS5 table (SQLite only), in result-id order so that two builds are the same."""
    if connection.dialect.name != "sqlite":
        return
    connection.execute(text(search_ddl()))
    _fill(connection, "")


def refill_search(connection: Connection, results: set[str] | None) -> int:
    """Make the search rows of ``results`` (ids; None: of every result, the table emptied first) from
    ``results_flat``; returns how many were made. A result's earlier row must be gone already: it is found by the
    result's rowid, which a result stored again no longer has."""
    where = ""
    if results is None:
        connection.execute(text(f"DELETE FROM {SEARCH_TABLE}"))
    else:
        raw = connection.connection.driver_connection
        raw.execute("DROP TABLE IF EXISTS temp.search_fresh")  # type: ignore[union-attr]
        raw.execute("CREATE TEMP TABLE search_fresh (id TEXT PRIMARY KEY)")  # type: ignore[union-attr]
        raw.executemany("INSERT INTO temp.search_fresh (id) VALUES (?)",  # type: ignore[union-attr]
                        ((result,) for result in results))
        where = " WHERE f.result_id IN (SELECT id FROM temp.search_fresh)"
    return _fill(connection, where)


def _fill(connection: Connection, where: str) -> int:
    columns = ", ".join(SEARCHED)
    made = connection.execute(text(
        f"INSERT INTO {SEARCH_TABLE}(rowid, result_id, {columns}) "
        f"SELECT r.rowid, f.result_id, {', '.join(f'f.{c}' for c in SEARCHED)} "
        f"FROM results_flat f JOIN result r ON r.id = f.result_id{where} ORDER BY f.result_id"))
    return int(made.rowcount)
