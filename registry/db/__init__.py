"""SQL over the registry: tables that mirror the record kinds, views, building and read-only querying.

- ``tables``: one SQLModel table per record kind, child tables for lists and mappings;
- ``rows``: records turned into table rows, field by field, by one naming convention;
- ``views``: the joins a user would otherwise write (flat results, missing metadata, reproductions);
- ``build``: a validated registry written to a SQLite file (atomically) or a PostgreSQL server;
- ``query``: one read-only SELECT against a built database, with a time limit.

This package imports SQLAlchemy; the CLI imports it only inside the commands that need it.
"""
