"""SQL over the registry: tables that mirror the record kinds, views, building and read-only querying.

- ``tables``: the tables, derived from the record models by one rule (a kind's table, flattened
  nested objects, child tables for lists and mappings, foreign keys for references);
- ``rows``: records turned into table rows by the same derivation;
- ``catalog``: the views' names and what each shows (no SQLAlchemy: help text reads it);
- ``views``: the joins a user would otherwise write (flat results, missing metadata, reproductions);
- ``build``: a validated registry written to a SQLite file (atomically) or a PostgreSQL server;
- ``query``: one read-only SELECT against a built database, with a time limit.

Most of this package imports SQLAlchemy (``catalog`` and ``freshness`` do not); the CLI imports it
only inside the commands that need it.
"""
