"""A document's own source read as a second witness of its tables: LaTeX, JATS XML, HTML, Word, Typst.

- ``model``: a table as a source states it (a grid of cells with spans), read into named rows and columns as the
  PDF reader names a printed table's;
- one reader per format, each with a real parser: ``latex`` (pylatexenc), ``html`` and ``jats`` (lxml), ``docx``
  (python-docx; an ``.odt`` through lxml), ``typst`` (a parser and evaluator of its own: ``typst_nodes``,
  ``typst_markup``, ``typst_syntax``, ``typst_eval``, ``typst_values``, ``typst_lib``, ``typst_math``; no Typst
  parser is published for Python); each says in its docstring what it does not handle;
- ``witness``: a cited cell checked against the source's table, matched to the PDF's by label and caption.

``read_source(path)`` picks the reader by the file's name. The libraries are imported inside the readers, so that
``registry --help`` and ``registry validate`` never load them.
"""

from __future__ import annotations

from pathlib import Path

from registry.errors import RegistryError
from review.sources.model import Grid, SourceTable, tables_of

#: The source formats, by how a file's name ends: what ``registry new source --source-file`` records as its format.
FORMATS = {".tex": "latex", ".tar.gz": "latex", ".tgz": "latex", ".tar": "latex", ".xml": "jats", ".nxml": "jats",
           ".html": "html", ".htm": "html", ".xhtml": "html", ".docx": "docx", ".odt": "odt", ".typ": "typst"}


class SourceFormatError(RegistryError, ValueError):
    """A file whose format no reader knows: the user's to correct, so the CLI words it (never 'unexpected')."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "give the document's own source: a LaTeX .tex or e-print .tar.gz, JATS .xml, "
                         ".html, .docx, .odt or Typst .typ")


def format_of(path: Path | str) -> str:
    name = str(path).lower()
    for ending, kind in FORMATS.items():
        if name.endswith(ending):
            return kind
    raise SourceFormatError(f"{Path(path).name}: no reader for this kind of file (known: "
                            f"{', '.join(sorted(FORMATS))})")


#: The library each format is read with (its distribution's name), or None for the registry's own reader.
LIBRARIES = {"latex": "pylatexenc", "html": "lxml", "jats": "lxml", "docx": "python-docx", "odt": "lxml",
             "typst": None}


def reader_of(kind: str) -> str:
    """Who reads a format, with its version, as a review records a witness ('pylatexenc 2.10', 'the registry's
    Typst reader 0.2.0'): the PDF's extractors are named so too."""
    from importlib import metadata

    library = LIBRARIES.get(kind)
    if library is None:
        from registry import __version__

        return f"the registry's {kind.capitalize()} reader {__version__}"
    try:
        return f"{library} {metadata.version(library)}"
    except metadata.PackageNotFoundError:
        return library


def read_grids(path: Path, kind: str | None = None) -> list[Grid]:
    kind = kind or format_of(path)
    if kind == "latex":
        from review.sources.latex import read_latex

        return read_latex(path)
    if kind == "html":
        from review.sources.html import read_html

        return read_html(path)
    if kind == "jats":
        from review.sources.jats import read_jats

        return read_jats(path)
    if kind == "docx":
        from review.sources.docx import read_docx

        return read_docx(path)
    if kind == "typst":
        from review.sources.typst import read_typst

        return read_typst(path)
    if kind == "odt":
        from review.sources.docx import read_odt

        return read_odt(path)
    raise SourceFormatError(f"{path.name}: no reader for the format {kind!r}")


def read_source(path: Path, kind: str | None = None) -> list[SourceTable]:
    """Every table the source at ``path`` states, with its rows and columns named."""
    return tables_of(read_grids(path, kind))
