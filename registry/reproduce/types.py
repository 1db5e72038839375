"""What a reproduction is made of: the jobs of a plan, the run's environment, what each job filed, what a run
did, and measure/'s errors as the registry reports them. Plain data: no rule and no run here."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from measure.errors import MeasureError
from measure.outcome import Method, RunOutcome
from measure.settings import Setting, Stage
from registry.errors import RegistryError
from registry.models import Recipe, Reproduction, Result
from registry.models.reproduction import Comparison


class MeasurementError(RegistryError):
    """A ``measure.errors.MeasureError`` as the registry reports it; ``error`` keeps its data."""

    def __init__(self, error: MeasureError, context: str | None = None) -> None:
        super().__init__(f"{context}: {error.message}" if context else error.message, error.hint,
                         expected=error.expected, found=None if error.found is None else str(error.found))
        self.error = error


@contextmanager
def measure_errors(context: str | None = None) -> Iterator[None]:
    """Turn measure/'s errors into the registry's, so that the CLI reports them like any other."""
    try:
        yield
    except MeasureError as exc:
        raise MeasurementError(exc, context) from None


@dataclass(frozen=True)
class Job:
    """One setting to run; ``result`` and ``recipe`` are None for a stage no result was transcribed for."""

    setting: Setting
    result: Result | None = None
    recipe: Recipe | None = None


@dataclass(frozen=True)
class ReproductionPlan:
    """What ``registry reproduce`` will run, in order; ``result`` and ``recipe`` are None for the whole ablation."""

    jobs: list[Job]
    method: Method
    result: Result | None = None
    recipe: Recipe | None = None
    smoke: bool = False
    skipped: int = 0
    """Settings left out because an earlier GPU run settled them."""

    @property
    def results(self) -> list[Result]:
        """The results the jobs are filed against, in the order they first run."""
        return list({job.result.id: job.result for job in self.jobs if job.result is not None}.values())

    @property
    def stages(self) -> list[Stage]:
        return list(dict.fromkeys(job.setting.stage for job in self.jobs))


@dataclass(frozen=True)
class RunEnvironment:
    """Provenance shared by every record of one command: versions, commit and the command line."""

    software: dict[str, str | None]
    git_commit: str | None
    command: str

    @classmethod
    def collect(cls, command: str) -> RunEnvironment:
        from measure.env import git_commit, software_versions

        return cls(software=software_versions(), git_commit=git_commit(), command=command)


@dataclass
class Filed:
    """One finished job: its outcome, the record built from it, and where that was written (if it was)."""

    job: Job
    outcome: RunOutcome
    record: Reproduction | None = None
    path: Path | None = None
    comparison: Comparison | None = field(default=None)
    write_error: str | None = None
    """Why the record could not be built or written (the run goes on; the log keeps the outcome)."""


@dataclass
class Run:
    """What ``reproduce`` did: every finished job, and how many the deadline left unstarted."""

    filed: list[Filed]
    not_started: int = 0
    elapsed_s: float = 0.0
    left_s: float | None = None


@dataclass
class Hooks:
    """What a caller sees while ``reproduce`` works: a job starts, a job is done, a note."""

    start: Callable[[int, Job], None] = lambda index, job: None
    done: Callable[[int, Filed], None] = lambda index, entry: None
    note: Callable[[str], None] = lambda text: None
