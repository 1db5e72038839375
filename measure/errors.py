"""Failures of the measurement code that a user can act on."""

from __future__ import annotations

from registry.errors import RegistryError


class MeasureError(RegistryError):
    """A setting, model or environment the experiment cannot run; ``hint`` says what to do."""


class MissingExtraError(MeasureError):
    """The heavy libraries of the ``measure`` extra are not installed."""

    def __init__(self, missing: list[str]) -> None:
        super().__init__(
            f"this needs the 'measure' extra, but {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not installed",
            "install it with: pip install -e '.[measure]' (on a GPU machine, install your own CUDA build of "
            "torch first, so that pip keeps it)",
        )
        self.missing = missing


def require(*modules: str) -> None:
    """Raise ``MissingExtraError`` naming every module in ``modules`` that cannot be imported."""
    import importlib.util

    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        raise MissingExtraError(missing)
