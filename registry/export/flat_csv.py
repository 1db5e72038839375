"""CSV of the ``results_flat`` view (RFC 4180), with a Frictionless data package that declares every column.

The rows are the view's own SQL, run on a database built for the export. The file follows RFC 4180:
CRLF line ends, fields quoted where they hold a comma, quote or line end, UTF-8, a header row.
``datapackage.json`` (a Frictionless Tabular Data Package) declares each column's type from the
database's declared types, so a reader that honours it keeps the exact values: ``printed_value``
and ``numeric_value`` are strings ('0.660' stays '0.660'), the ``*_float`` columns numbers; each
column's description is the one the Datasette metadata gives (``registry.db.metadata``). NULL is an
empty field, declared as the missing value.

Spreadsheet-safe: a cell that would start with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return is written with a leading apostrophe (OWASP's CSV-injection rule), so a spreadsheet shows it
as text instead of running it as a formula; a number ('-0.018') is left as it is. The descriptor
says so, for a reader that wants the text back. ``page_url`` links each result's page on the site
where ``--base-url`` says where it is published, and is empty otherwise (``page_path`` is relative).
"""

from __future__ import annotations

import csv
import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from registry.export import Written
from registry.models.checks import WitnessKind
from registry.site.links import page_path, page_url
from registry.status.witnesses import witness_text
from registry.store.loader import Registry
from registry.textsafe import is_formula

FILE = "results_flat.csv"
DESCRIPTOR = "datapackage.json"
#: Frictionless types for the database's declared column types; a computed column (no declared type) is
#: typed by ``COMPUTED``.
TYPES = {"VARCHAR": "string", "TEXT": "string", "DOUBLE": "number", "FLOAT": "number", "REAL": "number",
         "BIGINT": "integer", "INTEGER": "integer", "BOOLEAN": "boolean", "DATETIME": "string", "DATE": "date"}
COMPUTED = {"value_role": "string", "hardware_entries": "integer", "review_status": "string",
            "review_artifact_pinned": "boolean", "review_label": "string", "missing_metadata_count": "integer",
            "missing_metadata": "string", "review_found": "string", "standing": "string", "confirmed_by": "string",
            "disputed_by": "string"}
#: The view's columns the export leaves out: its page links, which ``ADDED`` gives from the export's base URL.
VIEW_LINKS = frozenset({"result_page"})
#: The witnesses' columns, in ``ADDED``'s order: the PDF's readings, then the source's (never merged).
WITNESS_KINDS = (WitnessKind.PDF_TEXT, WitnessKind.SOURCE_DOCUMENT)
#: Columns the export adds to the view's: where the result's page is, and each witness's own verdict.
ADDED = {"page_path": "The result's page on the site, relative to the site's root.",
         "page_url": "The result's page on the published site; empty where no base URL was given.",
         "pdf_witnesses": "Each reading of the PDF's text that checked the result (the extractor and its version), "
                          "with its own verdict over the claims it read; empty where no review read it.",
         "source_witnesses": "Each reading of the document's own source that checked the result (the file, the "
                             "reader and its version), with its own verdict; empty where no review read one."}


def write(registry: Registry, out: Path, *, base_url: str | None = None, **_: Any) -> Written:
    from registry.db.build import build_sqlite

    with tempfile.TemporaryDirectory(prefix=".export-") as folder:
        database = Path(folder) / "registry.db"
        build_sqlite(registry, database)
        connection = sqlite3.connect(database)
        try:
            declared = {row[1]: row[2] for row in connection.execute("PRAGMA table_info(results_flat)")}
            # The view's own page link is empty here (no base URL in this database): page_url gives it.
            shown = ", ".join(f'"{name}"' for name in declared if name not in VIEW_LINKS)
            cursor = connection.execute(f"SELECT {shown} FROM results_flat ORDER BY result_id")
            columns = [c[0] for c in cursor.description]
            with open(out / FILE, "w", encoding="utf-8", newline="") as handle:
                writer = csv.writer(handle, lineterminator="\r\n")
                writer.writerow([*columns, *ADDED])
                for row in cursor:
                    record_id = row[0]
                    links = [page_path("result", record_id),
                             page_url(base_url, "result", record_id) if base_url else None,
                             *(witness_text(registry, record_id, kind) or None for kind in WITNESS_KINDS)]
                    writer.writerow([safe_cell(value) for value in (*row, *links)])
        finally:
            connection.close()
    (out / DESCRIPTOR).write_text(json.dumps(descriptor(columns, declared), indent=2, ensure_ascii=False) + "\n",
                                  encoding="utf-8")
    return Written(files=[DESCRIPTOR, FILE])


def safe_cell(value: object) -> object:
    """The value as a CSV cell: NULL empty, a would-be formula prefixed with an apostrophe, a number as it is."""
    if value is None:
        return ""
    if isinstance(value, str) and is_formula(value):
        return "'" + value
    return value


def descriptor(columns: list[str], declared: dict[str, str]) -> dict[str, Any]:
    """The Frictionless Tabular Data Package for the file: every column with its type and description."""
    from registry.db.metadata import datasette_metadata

    described = datasette_metadata("registry")["databases"]["registry"]["tables"]["results_flat"]["columns"]
    fields = []
    for name in [*columns, *ADDED]:
        kind = "string" if name in ADDED else COMPUTED.get(name) or TYPES.get((declared.get(name) or "").upper())
        if kind is None:
            raise AssertionError(f"results_flat's column {name} has no declared type: add it to COMPUTED")
        field: dict[str, Any] = {"name": name, "type": kind,
                                 "description": ADDED.get(name) or described.get(name, "")}
        if kind == "boolean":
            field.update(trueValues=["1", "True", "true"], falseValues=["0", "False", "false"])
        fields.append(field)
    return {
        "profile": "tabular-data-package",
        "name": "registry-results",
        "title": "Evidence registry: current results, flat",
        "resources": [{
            "name": "results_flat",
            "path": FILE,
            "profile": "tabular-data-resource",
            "format": "csv",
            "mediatype": "text/csv",
            "encoding": "utf-8",
            "dialect": {"delimiter": ",", "lineTerminator": "\r\n", "quoteChar": '"', "doubleQuote": True,
                        "header": True},
            "description": ("Exact values are text: printed_value and numeric_value are strings, never floats "
                            "(the *_float columns are for arithmetic). A text cell that would start with =, +, "
                            "-, @, a tab or a carriage return is written with a leading apostrophe so that "
                            "spreadsheets show it as text (numbers are left as they are): drop that apostrophe "
                            "to get the value back."),
            "schema": {"fields": fields, "missingValues": [""], "primaryKey": ["result_id"]},
        }],
    }
