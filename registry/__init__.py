"""An evidence registry for published machine-learning results.

Every number is a record with provenance: where it was printed, who checked the
transcription and how, what the source leaves unstated, and what we measured
ourselves when we re-ran the experiment.
"""

__version__ = "0.1.0"
