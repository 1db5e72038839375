"""The validation rules, one module per concept, each registered on
``registry.validate.rules_registry``; the runner imports them from one list
(``registry.validate.runner.RULE_MODULES``).
"""
