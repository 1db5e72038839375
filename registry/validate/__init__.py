"""Validation: the rule registry, the runner, the rules by concept (``rules/``), the kept report of an unchanged
registry and the exact incremental run. The report and its issue codes are ``registry.issues``, below the store.

``registry.validate.runner.validate`` runs it in full; ``registry.validation`` decides how a command validates.
"""
