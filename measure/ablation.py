"""The whole ablation in one run: every stage, the most informative settings first.

Given the sweeps of the stages a source reports a value for (each most plausible first),
``order`` adds the stages it does not report, swept with the knobs of the checkpointing
stage's sweep (the nearest transcribed stage), and orders everything for a run that may be
cut short:

1. the first (most plausible) setting of each transcribed stage, in stage order;
2. that setting at each untranscribed stage;
3. the rest of the transcribed stages' sweeps, taken in turn;
4. the rest of the untranscribed stages' sweeps, taken in turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from measure.settings import Setting, Stage, interleave


def order(sweeps: Sequence[Sequence[Setting]]) -> list[Setting]:
    """Every setting of ``sweeps`` and of the missing stages, most informative first (see the module docstring)."""
    stages = list(Stage)
    transcribed = sorted((list(sweep) for sweep in sweeps if sweep), key=lambda sweep: stages.index(sweep[0].stage))
    if not transcribed:
        return []
    covered = {setting.stage for sweep in transcribed for setting in sweep}
    reference = next((sweep for sweep in transcribed if sweep[0].stage is Stage.CHECKPOINTING), transcribed[0])
    untranscribed = [restage(reference, stage) for stage in Stage if stage not in covered]
    ordered = [sweep[0] for sweep in transcribed] + [sweep[0] for sweep in untranscribed]
    for setting in interleave(*(s[1:] for s in transcribed)) + interleave(*(s[1:] for s in untranscribed)):
        if setting not in ordered:
            ordered.append(setting)
    return ordered


def restage(sweep: Sequence[Setting], stage: Stage) -> list[Setting]:
    """The same sweep at another stage; knobs that do not apply there drop out, so duplicates collapse."""
    moved: list[Setting] = []
    for setting in sweep:
        candidate = replace(setting, stage=stage).normalized()
        if candidate not in moved:
            moved.append(candidate)
    return moved
