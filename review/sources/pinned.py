"""The source files a source record pins, verified and read: what ``registry review`` hands the source witness.

``pinned_sources`` takes the files the reviewer gives (``registry review --source FILE``) and those already in the
cache (``<cache>/<sha256>-<name>``), checks each one's SHA-256 against the record's ``source_files`` (a file the
record does not pin is refused, never read), reads its tables, and matches them to the PDF's captions. A LaTeX main
``.tex`` read with the files beside it has every file it inputs checked too: each must be pinned. Nothing is
downloaded.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from registry.errors import RegistryError

if TYPE_CHECKING:
    from registry.models import Source
    from review.pdf.limited import ReviewLimits
    from review.pdf.pdftext import Extraction
    from review.sources.labels import SourceTables


class SourceFileError(RegistryError):
    """A given source file the record does not pin, or one that cannot be read."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class PinnedFile:
    path: Path
    format: str
    sha256: str


def verified(source: Source, given: list[Path], cache_dir: Path | None) -> list[PinnedFile]:
    """The given and cached source files, each matched to the record's pin by its SHA-256."""
    pins = {pin.sha256: pin for pin in source.source_files}
    found: list[PinnedFile] = []
    for path in given:
        if not path.is_file():
            raise SourceFileError(f"the source file {path} does not exist", "give the path of a file the source "
                                  "record pins under source_files")
        digest = sha256_of(path)
        if digest not in pins:
            pinned = ", ".join(p.path for p in source.source_files) or "none"
            raise SourceFileError(f"{path.name} (SHA-256 {digest}) is not a file the source {source.id} pins "
                                  f"(it pins: {pinned})", "give the pinned file, or add it to the source record's "
                                  "source_files with 'registry new source' or by hand, then validate")
        found.append(PinnedFile(path, pins[digest].format.value, digest))
    if cache_dir is not None:
        for pin in source.source_files:
            cached = cache_dir / f"{pin.sha256}-{Path(pin.path).name}"
            if pin.sha256 not in {f.sha256 for f in found} and cached.is_file() and sha256_of(cached) == pin.sha256:
                found.append(PinnedFile(cached, pin.format.value, pin.sha256))
    return found


def read_pinned(source: Source, files: list[PinnedFile], extraction: Extraction | None,
                limits: ReviewLimits | None = None, started: float | None = None) -> list[SourceTables]:
    """Each pinned file's tables, labelled as the PDF prints them; a main .tex's inputs checked against the pins.

    Each file is read under the review's ``limits`` (``review.sources.limited``): one that reaches a limit is kept
    unread with the limit named (``SourceTables.unread``), and the review goes on."""
    from review.errors import ReviewLimitError
    from review.pdf.limited import ReviewLimits
    from review.sources import reader_of
    from review.sources.labels import SourceTables, label_tables
    from review.sources.limited import read_limited
    from review.sources.model import tables_of

    pages = [extraction.page(n) or "" for n in range(1, extraction.page_count + 1)] if extraction else None
    pins = {pin.sha256 for pin in source.source_files}
    out: list[SourceTables] = []
    for pinned in [f for f in files if _main(f, files)]:
        try:
            grids, inputs = read_limited(pinned.path, pinned.format, limits or ReviewLimits(), started)
            for name in inputs:
                if sha256_of(pinned.path.parent / name) not in pins:
                    raise SourceFileError(f"{pinned.path.name} inputs {name}, which the source {source.id} does "
                                          "not pin", f"add {name} to the source record's source_files (its "
                                          "SHA-256 and where it was retrieved), or give the e-print's .tar.gz")
        except ReviewLimitError as exc:
            out.append(SourceTables(pinned.path.name, [], unread=exc.message, reader=reader_of(pinned.format)))
            continue
        except SourceFileError:
            raise
        except ImportError as exc:
            raise SourceFileError(f"reading {pinned.path.name} needs {exc.name}, which is not installed",
                                  "install the registry's 'sources' extra: pip install 'registry[sources]'") from None
        except Exception as exc:  # noqa: BLE001 - a reader's failure is the file's, said with its name
            raise SourceFileError(f"{pinned.path.name} cannot be read as {pinned.format}: {exc}",
                                  "check that the file is the one the source pins, and its format") from None
        read = label_tables(pinned.path.name, tables_of(grids), pages)
        read.reader = reader_of(pinned.format)
        out.append(read)
    return out


def _main(pinned: PinnedFile, files: list[PinnedFile]) -> bool:
    """Whether a file is read on its own: any but a LaTeX .tex that another pinned .tex inputs (a main file declares
    its \\documentclass; where no given .tex does, each is read)."""
    if pinned.format != "latex" or pinned.path.suffix != ".tex":
        return True
    mains = [f for f in files if f.format == "latex" and f.path.suffix == ".tex" and _declares_class(f.path)]
    return not mains or pinned in mains


def _declares_class(path: Path) -> bool:
    return "\\documentclass" in path.read_text(encoding="utf-8", errors="replace")

