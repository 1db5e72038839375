"""CSV of the ``results_flat`` view: the view's own SQL, run on a database built for the export.

Exact values stay text (``numeric_value`` is '33.88', never a float); NULL is an empty field.
"""

from __future__ import annotations

import csv
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from registry.export import Written
from registry.loader import Registry

FILE = "results_flat.csv"


def write(registry: Registry, out: Path, **_: Any) -> Written:
    from registry.db.build import build_sqlite

    with tempfile.TemporaryDirectory(prefix=".export-") as folder:
        database = Path(folder) / "registry.db"
        build_sqlite(registry, database)
        connection = sqlite3.connect(database)
        try:
            cursor = connection.execute("SELECT * FROM results_flat ORDER BY result_id")
            columns = [c[0] for c in cursor.description]
            with open(out / FILE, "w", encoding="utf-8", newline="") as handle:
                writer = csv.writer(handle, lineterminator="\n")
                writer.writerow(columns)
                writer.writerows(["" if v is None else v for v in row] for row in cursor)
        finally:
            connection.close()
    return Written(files=[FILE])
