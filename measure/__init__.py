"""Re-running the Nucleotide Transformer 2.5B training-memory ablation.

The experiment behind the registry's two peak-memory results: the model built from its
configuration with random weights, synthetic DNA, the paper's cumulative stages, and the
knobs the paper leaves unstated. The same training step is measured on a CUDA GPU
(``measure.gpu``) or estimated on a CPU under fake tensors (``measure.estimate``);
``measure.run`` is the one entry point, and ``measure.outcome`` holds what a run reports.

A library: it imports nothing from the registry (a test keeps it so) and knows no records
or command-line flags; ``registry.reproduce.run`` is the adapter that turns its outcomes into
records. torch, transformers, peft and deepspeed are imported inside the functions that
need them, so importing this package costs nothing.
"""

EXPERIMENT = "nt-training-memory"
"""The experiment name recipes use for this package."""
