"""Validation: the report and its issue codes, the rule registry, the runner, the rules by concept
(``rules/``), the kept report of an unchanged registry and the exact incremental run.

``registry.validate.runner.validate`` is the entry point; the package imports nothing, so
reading a code (``registry.validate.codes``) does not load the records' models.
"""
