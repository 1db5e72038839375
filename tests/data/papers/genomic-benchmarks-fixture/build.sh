#!/usr/bin/env bash
# Rebuild the fixture's PDFs byte for byte from paper.tex:
#   paper.pdf                  the reference copy (all numbers mutually consistent)
#   paper-grim-impossible.pdf  the same source with one accuracy changed to a value no count out of n = 150 gives
# Usage: build.sh [OUTDIR]   (default: this folder). Needs pdflatex (Debian: texlive-latex-base,
# texlive-latex-recommended, texlive-fonts-recommended, texlive-pictures). The bytes are reproducible for one
# pdfTeX build (the banner is in truth.json); another TeX Live release gives another, equally valid, file.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mkdir -p "${1:-$here}" && cd "${1:-$here}" && pwd)"

# Fixed dates (CreationDate, ModDate, \today) and no trailer /ID (set in paper.tex): the same input gives the same bytes.
export SOURCE_DATE_EPOCH=1717200000   # 2024-06-01T00:00:00Z
export FORCE_SOURCE_DATE=1
export TZ=UTC LC_ALL=C

build() {  # build JOBNAME TEX-DEFINITIONS
  local job="$1" defs="$2" work
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' RETURN
  cp "$here/paper.tex" "$work/"
  # Three passes: references, then longtable column widths, then a check that nothing asks for another pass.
  for _ in 1 2 3; do
    if ! (cd "$work" && pdflatex -interaction=nonstopmode -halt-on-error -jobname="$job" "${defs}\input{paper.tex}" >/dev/null); then
      echo "pdflatex failed for $job; its log:" >&2
      tail -n 40 "$work/$job.log" >&2
      return 1
    fi
  done
  if grep -qE 'Rerun to get|undefined references|Label\(s\) may have changed' "$work/$job.log"; then
    echo "$job: LaTeX still asks for another pass; see $work/$job.log" >&2
    return 1
  fi
  cp "$work/$job.pdf" "$out/$job.pdf"
}

build paper ''
build paper-grim-impossible '\def\PromoterAccuracy{71.5}\def\FixtureCopy{GRIM-impossible copy, one accuracy changed}'
sha256sum "$out/paper.pdf" "$out/paper-grim-impossible.pdf"
