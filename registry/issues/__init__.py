"""What a validation finds: the report and its issues (``report``), and every issue code, declared once (``codes``).

A leaf package: the loader and the YAML reader (``registry.store``) report the problems of a file through it, the
rules (``registry.validate``) the problems of a record, so it sits below both. It imports nothing but ``registry.text``.
"""
