"""Curating a registry: new records from their models, results tables, canonical files, batch writes.

``new`` drafts one record of any kind, ``table`` and ``importer`` turn a results table into the chain
of records it needs, ``fmt`` rewrites record files in the writer's canonical form, ``batch`` writes
many files all or nothing, ``precheck`` validates records together with the registry before they are
written. The validation rules of corrections, retractions and batches are in
``registry.validate.rules.history``.
"""
