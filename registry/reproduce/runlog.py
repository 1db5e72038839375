"""A run's log folder, and the settings earlier GPU runs settled.

With a log folder, each finished setting appends one JSON line to ``<folder>/ablation.jsonl``
(everything the run saw, filed or not: ``RunOutcome.log_entry`` and the record it became)
and rewrites ``<folder>/reproductions.tar.gz`` with the records written so far, that log
and DeepSpeed's op-build log, atomically: a run cut short keeps everything it finished.
Logs brought back from a GPU machine are kept under ``measure/runs/``; ``settled`` reads
them and the records, so that a later run skips what is already answered.
"""

from __future__ import annotations

import io
import json
import os
import tarfile
from pathlib import Path
from typing import Protocol

from measure.errors import MeasureError
from measure.outcome import HardwareKind, Method, RunOutcome, Status
from measure.settings import Setting
from registry.errors import RegistryError
from registry.models import Recipe, Reproduction
from registry.store.loader import Registry

LOG = "ablation.jsonl"
TARBALL = "reproductions.tar.gz"
OP_BUILD_LOG = "ds_op_build.log"
#: Outcomes that answer a setting for good on a GPU; any other outcome is tried again.
SETTLED = (Status.OK, Status.OUT_OF_MEMORY)


class Finished(Protocol):
    """What the log keeps of one finished job (``registry.reproduce.types.Filed`` is one): the log sits below the
    runner, so it names what it reads rather than importing the runner's type."""

    @property
    def outcome(self) -> RunOutcome: ...
    @property
    def record(self) -> Reproduction | None: ...
    @property
    def path(self) -> Path | None: ...
    @property
    def write_error(self) -> str | None: ...


class RunLog:
    """The log folder of one run: the JSON-lines log and the rolling tarball."""

    def __init__(self, folder: Path, records_root: Path) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / LOG).touch()
        except OSError as exc:
            raise RegistryError(f"cannot keep the run's log in {folder}: {exc.strerror or exc}",
                                "give {out} a folder you can write to", path=folder) from None
        self.folder = folder
        self.records_root = records_root
        self.written: list[Path] = []

    @property
    def log(self) -> Path:
        return self.folder / LOG

    @property
    def tarball(self) -> Path:
        return self.folder / TARBALL

    def add(self, entry: Finished) -> None:
        """Append the entry's line to the log and rewrite the tarball."""
        line = entry.outcome.log_entry()
        line["record"] = entry.record.id if entry.record is not None and entry.path is not None else None
        line["record_error"] = entry.write_error
        data = (json.dumps(line) + "\n").encode("utf-8")
        descriptor = os.open(self.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:  # one write of the whole line: a buffered file may split it, and a kill between the parts leaves half
            os.write(descriptor, data)
        finally:
            os.close(descriptor)
        if entry.path is not None:
            self.written.append(entry.path)
        self.pack()

    def pack(self) -> Path:
        """Rewrite the tarball with the records written so far and the logs (a temporary file renamed into place)."""
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
            for path in self.written:
                tar.add(path, arcname=f"{path.parent.name}/{path.name}")
            for name in (LOG, OP_BUILD_LOG):
                if (self.folder / name).exists():
                    tar.add(self.folder / name, arcname=name)
        temporary = self.folder / f".{TARBALL}.partial"
        temporary.write_bytes(buffer.getvalue())
        os.replace(temporary, self.tarball)
        return self.tarball


def settled(registry: Registry, runs: Path, gpu: str | None = None) -> set[Setting]:
    """Every setting an earlier GPU run settled, from the measured records and the logs kept under ``runs``.

    Settled: it gave a value, or it did not fit (out of memory is the GPU's answer for that
    setting). A setting that crashed, timed out or could not start (DeepSpeed's ops failing to
    build) is not settled, so it runs again. Lines a run cut off half-written are passed over.

    ``gpu``, the name of the GPU about to run (as the driver names it), keeps only what a run on
    that GPU settled: an H100 that ran out of memory says nothing about an H200, and a value
    measured on one is not a measurement on the other. None (the GPU is not known: ``--plan`` does
    not load torch to ask) keeps runs on any GPU.
    """
    found: set[Setting] = set()
    for record, recipe in _filed(registry, Method.MEASURED):
        if gpu is None or record.hardware.name == gpu:
            _add(found, _conditions(record, recipe), record.setting)
    for log in sorted(runs.glob("*.jsonl")) if runs.is_dir() else []:
        for line in log.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            hardware = entry.get("hardware") or {}
            on_gpu = hardware.get("kind") == HardwareKind.GPU.value and (gpu is None or hardware.get("name") == gpu)
            if (entry.get("method") == Method.MEASURED.value and entry.get("status") in SETTLED and on_gpu
                    and not entry.get("dry_run")):
                _add(found, entry, entry.get("setting") or {})
    return found


def estimated_before(registry: Registry, commit: str | None, software: dict[str, str | None]) -> set[Setting]:
    """Every setting an estimate already settled at this commit with this software, which estimating again skips.

    An estimate traces one step on fake tensors, so the same code on the same libraries gives the same
    bytes for the same setting: a second run would file the same record again. A commit with
    uncommitted changes ('+dirty') or none known settles nothing, since the code may differ.
    """
    found: set[Setting] = set()
    if commit is None or commit.endswith("+dirty"):
        return found
    for record, recipe in _filed(registry, Method.ESTIMATED):
        if record.git_commit == commit and record.software == software:
            _add(found, _conditions(record, recipe), record.setting)
    return found


def _filed(registry: Registry, method: Method) -> list[tuple[Reproduction, Recipe]]:
    """The reproductions of ``method`` that settled their setting (a value or out of memory), with their recipes."""
    return [(record, recipe) for record in registry.of_kind(Reproduction)
            if record.method is method and record.outcome in SETTLED
            and isinstance(recipe := registry.records.get(record.recipe), Recipe)]


def _conditions(record: Reproduction, recipe: Recipe) -> dict:  # type: ignore[type-arg]
    """What a reproduction's setting holds beside its knobs: its model and its recipe's fixed conditions."""
    fixed = recipe.fixed
    return {"model": record.model, "stage": fixed.stage, "sequence_length": fixed.sequence_length,
            "batch_size": fixed.batch_size, "data_seed": fixed.data_seed}


def _add(found: set[Setting], conditions: dict, knobs: dict) -> None:  # type: ignore[type-arg]
    try:
        found.add(Setting.from_plain(conditions, knobs))
    except (KeyError, TypeError, ValueError, MeasureError):
        pass  # a record or line that names no setting measure/ knows settles nothing
