"""Full-text search over the current results (SQLite FTS5): names, qualifiers, quotes, hardware.

``results_search`` holds one row per row of ``results_flat``, its rowid the result's own rowid in the
``result`` table, so that Datasette's ``_search`` on ``result`` (``fts_table`` in the metadata) and a
plain ``MATCH`` both find a result by any of the words a researcher would type: the model, dataset,
protocol and family names, the metric and its qualifier, the quote the value was printed in, the
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


def search_ddl() -> str:
    """The statement that makes the table (kept in the golden SQLite DDL with the others)."""
    return f"CREATE VIRTUAL TABLE {SEARCH_TABLE} USING fts5(result_id UNINDEXED, {', '.join(SEARCHED)})"


def create_search(connection: Connection) -> None:
    """Make and fill the FTS5 table (SQLite only), in result-id order so that two builds are the same."""
    if connection.dialect.name != "sqlite":
        return
    columns = ", ".join(SEARCHED)
    connection.execute(text(search_ddl()))
    connection.execute(text(
        f"INSERT INTO {SEARCH_TABLE}(rowid, result_id, {columns}) "
        f"SELECT r.rowid, f.result_id, {', '.join(f'f.{c}' for c in SEARCHED)} "
        f"FROM results_flat f JOIN result r ON r.id = f.result_id ORDER BY f.result_id"))
