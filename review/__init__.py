"""Source checking: re-parse the pinned PDF and check every transcribed claim against the page it cites.

A result is *source checked* when someone confirmed that the number in the registry is the
number in the paper. This package makes that check a program anyone can re-run:

- ``fetch``: get the PDF (a given file, the local cache, or a download) and prove by SHA-256
  that it is the artifact the source record pins;
- ``pdftext``: extract its text page by page with pypdf and match quotes across the
  accidents of typesetting (line breaks, hyphenation, ligatures, arrows, minus signs);
- ``claims``: derive the assertions from the records (locator page and quote, printed value,
  unit, listed source checks) and check each against the text;
- ``review``: run the whole check and build the review record it earns.

pypdf and httpx are imported inside the functions that need them.
"""

from __future__ import annotations

from importlib import metadata


def _version() -> str:
    try:
        return metadata.version("registry")
    except metadata.PackageNotFoundError:  # running from a checkout that was never installed
        return "0+unknown"


__version__ = _version()

#: How written reviews name their reviewer: the script and its version.
REVIEWER = f"registry review/ {__version__}"
