"""An evidence registry for published machine-learning results.

Every number is a record with provenance: where it was printed, who checked the
transcription and how, what the source leaves unstated, and what we measured
ourselves when we re-ran the experiment.

The package, leaves first (no import cycle among its modules, nor among its sub-packages, and every import down
the layers: tests/test_import_graph.py, tests/test_layers.py):

- ``text``, ``textsafe``, ``errors``, ``limits``, ``sandbox``, ``per_registry``: leaves every layer uses: English
  helpers, stored text made safe to print, domain exceptions, default limits, a function run in a limited
  process, answers worked out once per registry;
- ``issues/``: what a validation finds: the report and its issues, every issue code declared once;
- ``ids``, ``units``, ``numbers``, ``numbers_in_text``, ``rounding``, ``derived``: the stable-id grammar, the
  units, printed numbers read, found in text and their rounding, and the one recomputation of derived values;
- ``models/``: the record kinds (Pydantic), their fields, values and uncertainty kinds;
- ``store/``: the registry in memory and on disk: loading, reading, YAML, the parse cache, writing, atomic files,
  batch writes and their journal;
- ``validate/``: the runner, the rules by concept (``rules/``), the kept and the incremental run;
- ``watch/``: ``registry watch``, which keeps a folder's listing and incremental index in memory for ``validate``;
- ``status/``: what a record or a value is: its version, its role in its table, how far it is backed;
- ``page/``: what a record's page holds, and its rendering in a terminal; ``site/``: the static site and plots;
- ``db/``: SQL over the registry; ``export/``: other registries' formats and the JSON Schemas;
- ``curate/``: new records, results tables, canonical files;
- ``validation``: how a registry is validated, decided once (by the watcher, the kept report, incrementally, in full);
- ``reproduce/``: re-running a result's experiment and filing what it gave;
- ``generated/``: files generated from declarations (kind summaries, ``new``'s options, the generated parts of
  ``docs/``);
- ``cli/``: the ``registry`` command, thin commands over the packages above.

Every ``__init__`` imports nothing heavy (most import nothing), so that a command loads only what it uses.
"""

#: The release, declared once: pyproject.toml reads it, `registry --version` prints it, CHANGELOG.md names it.
__version__ = "0.2.0"
