"""Incremental validation: checking again only what an edit can change, with a report exactly a cold run's.

- ``run``: the run (``validate``, ``validated``; ``run`` for a caller that keeps the index in memory, as
  ``registry watch`` does): which files changed, which records read a fact that changed, and checking those again;
- ``index``: what a run keeps of each file and each record (``RecordEntries``: the records' entries, opened only when
  read), and the index on disk;
- ``files``: each folder's files as the last run saw them (status and digest in columns), and what changed since;
- ``tracking``: the registry a record's checks read through, which notes every fact they read.

docs/design/incremental.md says how it stays exact. The package imports nothing, as ``registry.validate`` does.
"""
