"""The rules of reproductions: a run matches its recipe and result, and is filed as measured only with the GPU
it was read off (an estimate never wears a GPU's name)."""

from __future__ import annotations

import re

from measure.outcome import Method, Status
from registry.errors import RegistryError
from registry.issues import codes
from registry.models import Recipe, Reproduction, Result
from registry.textsafe import excerpt
from registry.units import bytes_in_unit
from registry.validate.rules_registry import RecordCheck, kind_rules


def _reproduction_method(reproduction: Reproduction, check: RecordCheck) -> None:
    """A value is filed as measured only with the GPU it was read off; an estimate never wears a GPU's name."""
    hardware = reproduction.hardware  # its kind matches the method (the model checks that)
    other = "estimated" if reproduction.method is Method.MEASURED else "measured"
    if f"-{other}-" in reproduction.id and f"-{reproduction.method.value}-" not in reproduction.id:
        check.add(codes.REPRODUCTION_METHOD_MISMATCH,
                  f"the id says {other!r} but the method is {reproduction.method.value!r}; a record copied as a "
                  f"template keeps the other run's id and values: file a new run instead", ("method",))
    if reproduction.method is Method.MEASURED:
        if not (reproduction.software.get("cuda") or reproduction.software.get("hip")):
            check.add(codes.REPRODUCTION_METHOD_MISMATCH,
                      "a measured run must record the GPU runtime it ran with (software.cuda, or software.hip on "
                      "ROCm)", ("software",))
        if reproduction.attention_impl == "sdpa-flash-cpu":
            check.add(codes.REPRODUCTION_METHOD_MISMATCH,
                      "'sdpa-flash-cpu' is the CPU kernel an estimate traces; a GPU run uses 'sdpa-flash', "
                      "'flash-attn' or 'eager'", ("attention_impl",))
        torch = reproduction.software.get("torch") or ""
        if "+cpu" in torch:
            check.add(codes.REPRODUCTION_METHOD_MISMATCH,
                      f"torch {torch} is a CPU-only build, which cannot have measured a GPU", ("software",))
        if reproduction.outcome is Status.OK and not reproduction.warmup_steps:
            check.add(codes.REPRODUCTION_METHOD_MISMATCH,
                      "a measured peak is read after at least one warm-up step, but warmup_steps is "
                      f"{reproduction.warmup_steps}; an estimate traces one step without a warm-up",
                      ("warmup_steps",))
    else:
        named = _ACCELERATOR_NAME.search(hardware.name)
        if named:
            check.add(codes.REPRODUCTION_METHOD_MISMATCH,
                      f"an estimate's hardware name says how it was made, never a GPU's name, but it holds "
                      f"{named.group(0)!r}; put the GPU it predicts for in the method note", ("hardware", "name"))


@kind_rules.register
def _reproduction(reproduction: Reproduction, check: RecordCheck) -> None:
    _reproduction_method(reproduction, check)
    recipe = check.registry.records.get(reproduction.recipe)
    result = check.registry.records.get(reproduction.result)
    if isinstance(recipe, Recipe):
        if recipe.result != reproduction.result:
            check.add(codes.REPRODUCTION_RECIPE_MISMATCH,
                      f"the reproduction is of {excerpt(reproduction.result)} but its recipe is for "
                      f"{excerpt(recipe.result)}",
                      ("recipe",))
        if recipe.fixed.model != reproduction.model:
            check.add(codes.REPRODUCTION_RECIPE_MISMATCH,
                      f"the reproduction ran model {excerpt(reproduction.model)} but its recipe states "
                      f"{excerpt(recipe.fixed.model)}; a run of another model (a smoke run) is never filed", ("model",))
        candidates = {knob.name: knob.candidates for knob in recipe.knobs}
        for name, value in reproduction.setting.items():
            if name not in candidates:
                check.add(codes.REPRODUCTION_RECIPE_MISMATCH,
                          f"the recipe has no knob {excerpt(name)}; its knobs are: {', '.join(candidates) or 'none'}",
                          ("setting", name))
            elif not any(value == c and type(value) is type(c) for c in candidates[name]):
                check.add(codes.REPRODUCTION_SETTING_UNSWEPT,
                          f"{name}={excerpt(value)} is not among the recipe's candidates {candidates[name]}; add it "
                          f"there if it is worth sweeping", ("setting", name))
    if isinstance(result, Result) and reproduction.value_bytes is not None and reproduction.value is not None:
        try:
            expected = bytes_in_unit(reproduction.value_bytes, result.unit)
        except RegistryError as exc:
            check.add(codes.REPRODUCTION_COMPARISON_MISMATCH, exc.message, ("value",))
        else:
            if expected != reproduction.value:
                check.add(codes.REPRODUCTION_COMPARISON_MISMATCH,
                          f"value is {reproduction.value} but value_bytes {reproduction.value_bytes} is "
                          f"{expected} {result.unit}s", ("value",))
    comparison = reproduction.comparison
    if comparison is None:
        return
    if isinstance(result, Result) and comparison.transcribed != result.numeric_value:
        check.add(codes.REPRODUCTION_COMPARISON_MISMATCH,
                  f"comparison.transcribed is {comparison.transcribed} but the result's numeric value is "
                  f"{result.numeric_value}", ("comparison", "transcribed"))
    if reproduction.value is not None and comparison.reproduced != reproduction.value:
        check.add(codes.REPRODUCTION_COMPARISON_MISMATCH,
                  f"comparison.reproduced is {comparison.reproduced} but the reproduction's value is "
                  f"{reproduction.value}", ("comparison", "reproduced"))


#: Names that only a GPU (or another accelerator) goes by; an estimate's hardware name must hold none of them.
_ACCELERATOR_NAME = re.compile(
    r"\b(nvidia|tesla|geforce|quadro|rtx|gtx|gpu|cuda|rocm|amd instinct|radeon|tpu|gaudi\d*|"
    r"[abhlvtpk]\d{1,4}[a-z]{0,2}|gh\d{3}|gb\d{3}|mi\d{2,3}[a-z]?)\b",
    re.IGNORECASE,
)
