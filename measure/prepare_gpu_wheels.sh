#!/usr/bin/env bash
# Build and fetch, here (with network), the Python wheels the GPU machine lacks (it has no network).
#
#   measure/prepare_gpu_wheels.sh [DIR]        # from the repository root; DIR defaults to .whl
#
# The GPU machine's image has torch, transformers and peft (with what they require), ninja and nvcc.
# The driver there is the registry's own CLI, `python3 -m registry reproduce --all`, so the wheels
# are derived, not listed by hand:
#   - every distribution that command imports here (found by running its plan in a fresh
#     interpreter: typer, rich, pydantic, PyYAML, ...), and everything those require;
#   - DeepSpeed, built here as a pure-Python wheel (DS_BUILD_OPS=0; its CPU Adam compiles just in
#     time on the GPU machine), and what it requires beyond torch, transformers and peft.
# Each is fetched in the version installed here (the versions the tests ran with), as a wheel for
# CPython 3.12 on x86-64 Linux. The list is printed first.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-.whl}
PY=${PYTHON:-.venv/bin/python}
DEEPSPEED_VERSION=${DEEPSPEED_VERSION:-$("$PY" -c "import importlib.metadata as m; print(m.version('deepspeed'))" 2>/dev/null || echo 0.19.8)}

mkdir -p "$DIR"
# Keep the wheels out of git (they travel with the 'carry' list, not in commits).
if [ -d .git ] && ! grep -qxF "/$DIR/" .git/info/exclude 2>/dev/null; then
  echo "/$DIR/" >> .git/info/exclude
fi

echo "== what 'registry reproduce --all' imports, and what DeepSpeed needs beyond the image =="
PINS=$(PYTHONPATH=$PWD "$PY" - <<'EOF'
import importlib.metadata as md
import json
import subprocess
import sys

from packaging.markers import default_environment
from packaging.requirements import Requirement

# What the GPU machine's image brings: these and everything they require.
IMAGE = ["torch", "transformers", "peft", "ninja"]
NOT_CARRIED = {"registry", "setuptools", "pip", "wheel", "deepspeed"}
TARGET = default_environment() | {"python_version": "3.12", "python_full_version": "3.12.0",
                                  "sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64"}


def key(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def closure(names):
    seen, todo = set(), [key(n) for n in names]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        try:
            requires = md.requires(name) or []
        except md.PackageNotFoundError:
            continue
        seen.add(name)
        for text in requires:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate(TARGET | {"extra": ""}):
                todo.append(key(req.name))
    return seen


probe = (
    "import json, sys, importlib.metadata as md\n"
    "from typer.testing import CliRunner\n"
    "from registry.cli import app\n"
    "result = CliRunner().invoke(app, ['reproduce', '--all', '--plan', '--records', 'records'])\n"
    "assert result.exit_code == 0, result.output\n"
    "import registry.reproduce.runlog, registry.reproduce.run, rich.progress, rich.table, measure.run, measure.schedule\n"
    "tops = {m.split('.')[0] for m in sys.modules}\n"
    "print(json.dumps(sorted({d for t in tops for d in md.packages_distributions().get(t, [])})))\n"
)
done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
imported = {key(name) for name in json.loads(done.stdout.splitlines()[-1])}
cli = closure(imported - NOT_CARRIED)  # not the registry's own requirements: only what this command imports
image = closure(IMAGE)
deepspeed = closure(["deepspeed"]) - image
for name in sorted((cli | deepspeed) - NOT_CARRIED):
    print(f"{md.metadata(name)['Name']}=={md.version(name)}")
EOF
)
echo "$PINS"

echo "== DeepSpeed $DEEPSPEED_VERSION (pure-Python wheel, ops compile just in time) =="
DS_BUILD_OPS=0 "$PY" -m pip wheel -q --no-deps --no-build-isolation -w "$DIR" "deepspeed==$DEEPSPEED_VERSION"

echo "== the rest, for CPython 3.12 on manylinux x86-64 =="
# shellcheck disable=SC2086
"$PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d "$DIR" $PINS

ls -l "$DIR"
du -sh "$DIR"
