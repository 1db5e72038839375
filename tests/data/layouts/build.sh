#!/usr/bin/env bash
# Rebuild the layout fixtures' PDFs from their paper.tex: each folder here is one common LaTeX table layout
# (test fixtures with invented numbers; cells.tsv is the gold, transcribed from paper.tex).
# Usage: build.sh [FOLDER...]   (default: every folder here). Needs pdflatex with the Debian packages
# texlive-latex-base, texlive-latex-recommended, texlive-fonts-recommended, and texlive-latex-extra for
# multirow.sty and threeparttable.sty (onecol-booktabs-multirow, threeparttable-notes).
# The tests read the committed PDFs and need no TeX.
# The bytes are reproducible for one pdfTeX build; another TeX Live release gives another, equally valid, file.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export SOURCE_DATE_EPOCH=1717200000   # 2024-06-01T00:00:00Z: fixed CreationDate and ModDate
export FORCE_SOURCE_DATE=1
export TZ=UTC LC_ALL=C

build() {  # build FOLDER: three passes (references, longtable widths, then a check nothing asks for more)
  local folder="$1" work
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' RETURN
  cp "$folder/paper.tex" "$work/"
  for _ in 1 2 3; do
    if ! (cd "$work" && pdflatex -interaction=nonstopmode -halt-on-error paper.tex >/dev/null); then
      echo "pdflatex failed for $folder; its log:" >&2
      tail -n 40 "$work/paper.log" >&2
      return 1
    fi
  done
  if grep -qE 'Rerun to get|undefined references|Label\(s\) may have changed' "$work/paper.log"; then
    echo "$folder: LaTeX still asks for another pass" >&2
    return 1
  fi
  cp "$work/paper.pdf" "$folder/paper.pdf.tmp" && mv "$folder/paper.pdf.tmp" "$folder/paper.pdf"
}

if [ "$#" -eq 0 ]; then set -- "$here"/*/; fi
for folder in "$@"; do
  build "${folder%/}"
  echo "built ${folder%/}/paper.pdf ($(pdfinfo "${folder%/}/paper.pdf" | awk '/^Pages:/ {print $2}') pages)"
done
