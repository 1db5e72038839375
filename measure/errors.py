"""Failures of the measurement library, as data: what was expected, what was found, what to do next.

measure/ is a library: it imports nothing from the registry, and its hints speak of models,
knobs and installs, never of a command-line flag. The registry's adapter
(``registry.reproduce.run``) turns these into its own errors; only its CLI words flags.
"""

from __future__ import annotations

from collections.abc import Sequence


class MeasureError(Exception):
    """A setting, model or environment the experiment cannot run.

    ``expected`` and ``found`` say what was wanted and what came instead (None where that
    does not apply); ``hint`` says what to do next.
    """

    def __init__(self, message: str, hint: str | None = None, *, expected: str | None = None,
                 found: object = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.expected = expected
        self.found = found


class InvalidValueError(MeasureError):
    """A value that is not what its place takes ('bf16' where a precision is wanted)."""

    def __init__(self, found: object, expected: str, *, subject: str | None = None, suggestion: str | None = None,
                 hint: str | None = None) -> None:
        close = f" (did you mean {suggestion!r}?)" if suggestion else ""
        where = f"{subject}: " if subject else ""
        super().__init__(f"{where}{found!r} is not {expected}{close}", hint, expected=expected, found=found)
        self.subject = subject
        self.suggestion = suggestion


class UnknownNameError(MeasureError):
    """A name that is not one of the known ones (a knob, a model); carries the choices and the closest."""

    def __init__(self, what: str, found: str, choices: Sequence[str]) -> None:
        import difflib

        close = difflib.get_close_matches(found, list(choices), n=1)
        suggestion = close[0] if close else None
        hint = (f"did you mean {suggestion!r}? " if suggestion else "") + f"the {what}s are: {', '.join(choices)}"
        super().__init__(f"unknown {what} {found!r}", hint, expected=f"one of {', '.join(choices)}", found=found)
        self.what = what
        self.choices = list(choices)
        self.suggestion = suggestion


class MissingExtraError(MeasureError):
    """The heavy libraries of the ``measure`` extra are not installed."""

    def __init__(self, missing: list[str]) -> None:
        super().__init__(
            f"this needs the 'measure' extra, but {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not installed",
            "install it with: pip install -e '.[measure]' (on a GPU machine, install your own CUDA build of "
            "torch first, so that pip keeps it)",
            expected="importable: " + ", ".join(missing),
            found="not installed",
        )
        self.missing = missing


class NoGpuError(MeasureError):
    """A measurement was asked of a CUDA device that PyTorch cannot see."""

    def __init__(self, device: str) -> None:
        super().__init__("no CUDA GPU is visible to PyTorch",
                         "estimate the setting on the CPU instead, or run on a machine with a CUDA GPU",
                         expected=f"a visible CUDA device ({device})", found="none")
        self.device = device


def require(*modules: str) -> None:
    """Raise ``MissingExtraError`` naming every module in ``modules`` that cannot be imported."""
    import importlib.util

    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        raise MissingExtraError(missing)
