#!/usr/bin/env bash
# Build and fetch, here (with network), the Python wheels the GPU machine lacks (it has none).
#
#   measure/prepare_gpu_wheels.sh [DIR]        # from the repository root; DIR defaults to .whl
#
# The GPU machine's image has torch, transformers, peft, numpy, ninja, psutil, py-cpuinfo,
# einops, msgpack, tqdm, PyYAML, typer and rich, but not DeepSpeed, hjson or pydantic
# (which the registry's records need). DeepSpeed is a source release: its wheel is built
# here as pure Python (DS_BUILD_OPS=0); its CPU Adam compiles just in time on the GPU
# machine, which has a compiler, ninja and nvcc. The others are downloaded as wheels for
# CPython 3.12 on x86-64 Linux, in the versions this project is tested with.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-.whl}
PY=${PYTHON:-.venv/bin/python}
DEEPSPEED_VERSION=${DEEPSPEED_VERSION:-0.19.8}

mkdir -p "$DIR"
# Keep the wheels out of git (they travel with the 'carry' list, not in commits).
if [ -d .git ] && ! grep -qxF "/$DIR/" .git/info/exclude 2>/dev/null; then
  echo "/$DIR/" >> .git/info/exclude
fi

version() { "$PY" -c "import importlib.metadata as m; print(m.version('$1'))"; }

echo "== DeepSpeed $DEEPSPEED_VERSION (pure-Python wheel, ops compile just in time) =="
DS_BUILD_OPS=0 "$PY" -m pip wheel -q --no-deps --no-build-isolation -w "$DIR" "deepspeed==$DEEPSPEED_VERSION"

echo "== pydantic and DeepSpeed's missing dependencies, for CPython 3.12 on manylinux x86-64 =="
"$PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d "$DIR" \
  "pydantic==$(version pydantic)" "pydantic-core==$(version pydantic-core)" \
  "annotated-types==$(version annotated-types)" "typing-inspection==$(version typing-inspection)" \
  "typing-extensions==$(version typing-extensions)" "hjson==$(version hjson)"

ls -l "$DIR"
du -sh "$DIR"
