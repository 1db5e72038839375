#!/usr/bin/env bash
# Rebuild paper.pdf from paper.tex (a test fixture with invented numbers). Needs pdflatex (Debian:
# texlive-latex-base, texlive-latex-recommended, texlive-fonts-recommended). The tests read the committed PDF.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export SOURCE_DATE_EPOCH=1717200000 FORCE_SOURCE_DATE=1 TZ=UTC LC_ALL=C
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/paper.tex" "$work/"
(cd "$work" && pdflatex -interaction=nonstopmode -halt-on-error paper.tex >/dev/null)
mv "$work/paper.pdf" "$here/paper.pdf"
