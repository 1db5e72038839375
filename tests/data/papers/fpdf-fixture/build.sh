#!/usr/bin/env bash
# Rebuild paper.pdf byte for byte with make_pdf.py (fpdf2 and DejaVu Sans; truth.json names the versions used).
# Usage: build.sh [OUTDIR]   (default: this folder). PYTHON selects the interpreter (default: python3).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here}"
"${PYTHON:-python3}" "$here/make_pdf.py" "$out"
sha256sum "$out/paper.pdf"
