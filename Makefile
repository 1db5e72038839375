# Set-up and everyday tasks. `make demo` and `make test` each do all the set-up a fresh clone needs.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
# On a GPU machine, install your own CUDA build of torch first and set TORCH_SPEC= (empty).
TORCH_SPEC ?= torch==2.13.0

.PHONY: demo generate test test-fast lint setup-core setup-full clean

$(VENV)/.core: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[test,postgres]'
	touch $@

$(VENV)/.full: $(VENV)/.core
	$(if $(TORCH_SPEC),$(PIP) install -q '$(TORCH_SPEC)')
	$(PIP) install -q -e '.[measure,test,postgres,dev]'
	touch $@

setup-core: $(VENV)/.core
setup-full: $(VENV)/.full

## The main job on the bundled records: validate them, then show the two results side by side.
demo: setup-core
	$(VENV)/bin/registry validate
	$(VENV)/bin/registry list --kind result

## The generated files, from the declarations: the options of 'registry new KIND' (registry/generated/kindoptions.json,
## which also regenerates itself when stale) and the generated parts of docs/ (the command reference docs/cli.md, the
## tables of issue codes, import columns and record fields). 'make test' runs it first; after adding a command or an
## option, run it and commit the diff. It does nothing (instead of building every model twice, about 1.5 s) while no
## module, folder of the package or generated file has changed since it last ran: a folder's time changes when a module
## is added, removed or renamed.
GENERATED_FROM := $(shell find registry -name __pycache__ -prune -o \( -type d -o -name '*.py' \) -print) \
	registry/generated/kindoptions.json docs/cli.md docs/validation.md docs/curating.md docs/records.md
$(VENV)/.generated: $(VENV)/.core $(GENERATED_FROM)
	$(PY) -m registry.generated.kindoptions --write
	$(PY) -m registry.cli.docs --write
	touch $@

generate: $(VENV)/.generated

## The whole test suite (CPU; GPU-only tests skip with a reason), after the bundled records are validated with every
## file read and its digest compared (--verify: what a release checks; a change a file's status does not show counts).
test: setup-full generate
	$(PY) -m registry validate --verify
	$(PY) -m pytest -q

## The edit loop: every test that needs no PDF rendering, browser, database server, GPU or subprocess-heavy
## sandbox, or torch model (markers pdf, browser, postgres, gpu, deepspeed_ops, sandbox, torch, slow; see pyproject.toml),
## spread over one worker per core (pytest-xdist); a test file stays on one worker, so its module fixtures are built once.
## Python's bytecode caches are written even where PYTHONDONTWRITEBYTECODE is set (they are ignored by git): without them
## every worker and every process a test starts compiles the registry again, and pytest rewrites every test module's
## asserts again, on each run of the loop. pytest-benchmark, where installed, is left off: xdist disables it anyway.
## The tests' temporary folders (tmp_path, the parse cache's) are made in memory where the system offers a tmpfs
## (/dev/shm; FAST_TMPDIR= empty keeps the usual one): tests copy the bundled records, build databases and write files
## atomically (fsync), and on a disk the loop spent about twice as long in the kernel (21 s of CPU instead of 11). The
## folders of tests that passed are removed as each test ends (tmp_path_retention_policy=failed): memory keeps a failure's.
## A run holds up to about 320 MB there at once; a /dev/shm with less than 1 GiB free (a container's is often 64 MB) is
## not used.
FAST_MARKERS := not (slow or pdf or browser or postgres or sandbox or torch or gpu or deepspeed_ops)
FAST_WORKERS ?= auto
FAST_TMPDIR ?= $(shell test -d /dev/shm -a -w /dev/shm && test "$$(df -Pk /dev/shm | awk 'NR == 2 {print $$4}')" -ge 1048576 \
	&& echo /dev/shm/registry-test-fast-$$(id -u))
test-fast: setup-core generate
	$(if $(FAST_TMPDIR),mkdir -p -m 700 $(FAST_TMPDIR))
	$(if $(FAST_TMPDIR),TMPDIR=$(FAST_TMPDIR)) PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -m "$(FAST_MARKERS)" \
		-n $(FAST_WORKERS) --dist loadfile -p no:benchmark $(if $(FAST_TMPDIR),-o tmp_path_retention_policy=failed)

lint: setup-full
	$(VENV)/bin/ruff check registry measure review tests
	$(VENV)/bin/mypy registry

clean:
	rm -rf $(VENV) .pytest_cache
